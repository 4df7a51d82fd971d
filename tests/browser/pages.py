"""What the browser tests do on a page: run a notebook in JupyterLab, find what went
wrong on screen, move sliders and time the redraw. Shared by JupyterLab and Voilà.

The detectors return lists of problems (plain sentences) instead of asserting, so
that a test can assert that a good page has none and a broken page has each one.

One module, though long (about 700 lines of code): each helper is a JavaScript
snippet run in the page beside the Python that calls it and reads its answer, and
every front end (JupyterLab, Notebook 7, Voilà) and both languages use them all.
"""

from __future__ import annotations

import json
import re
import statistics
import time
from dataclasses import dataclass, field
from pathlib import Path

from . import servers

# What a page may load: this machine, and what the page makes itself. Anything else
# is blocked and reported; there is no allow-list.
LOCAL = ("http://127.0.0.1:", "ws://127.0.0.1:", "blob:", "data:", "about:")

# Notebook 7 (7.6) itself throws this while it loads its settings, on every page, with
# or without this project's notebooks: its keyboard-shortcuts plugin reads the
# settings of a plugin not loaded yet. Excused on Notebook 7 pages only.
NOTEBOOK7_OWN_ERRORS = [
    re.compile(r"^uncaught: Cannot read properties of undefined \(reading 'schema'\)$"),
]

# A widget that the front end could not render shows its Python repr as text
# (checked in text/plain results and displays, not in print() output).
WIDGET_AS_TEXT = re.compile(
    r"^\s*(?:\w+\.)*\w*(?:Slider|Box|Explorer|Image|Output|Dropdown|Button|Widget|Play"
    r"|Checkbox|Tab|Accordion)\(",
    re.M,
)
# A merge conflict left in a notebook (git's or nbdime's markers), shown to the learner
CONFLICT = re.compile(r"(?:<{7}|>{7}|\|{7})(?: ?\w+)?")
# matplotlib's warning for a character its fonts lack: the figure shows a box there
MISSING_GLYPH = re.compile(r"Glyph \d+ .*missing from (?:current )?font|missing from font", re.I)
WIDGET_FAILED = re.compile(
    r"Error displaying widget|Loading widget\.\.\.|"
    r"Failed to (?:load|create) (?:model|view)",
    re.I,
)


@dataclass
class Tab:
    """A browser page and what it did that it should not: console errors, uncaught
    errors, requests that left this machine (the browser's dead proxy blocks them:
    servers.launch_args). A page kept open for several notebooks is `mark`ed at the
    start of each, and `problems` reports what happened since."""

    page: object
    console: list[str] = field(default_factory=list)
    outside: list[str] = field(default_factory=list)
    since: tuple[int, int] = (0, 0)

    def watch(self) -> None:
        """Listen to the page: console errors, uncaught errors, requests off 127.0.0.1."""
        self.page.on(
            "console",
            lambda m: (
                m.type == "error"
                and self.console.append(f"console.error: {m.text} ({m.location.get('url', '')})")
            ),
        )
        self.page.on("pageerror", lambda e: self.console.append(f"uncaught: {e}"))
        self.page.on("request", lambda r: r.url.startswith(LOCAL) or self.outside.append(r.url))

    def mark(self) -> None:
        """From now on: problems() reports only what happens after this call."""
        self.since = (len(self.console), len(self.outside))

    def problems(self) -> list[str]:
        console, outside = self.console[self.since[0] :], self.outside[self.since[1] :]
        return console + [
            f"a request off this machine (blocked): {url}" for url in sorted(set(outside))
        ]


# --------------------------------------------------------------------------- JupyterLab

# How often the page and the server are asked whether a notebook has opened or run.
# Every cell that Run All queued shows [*] until it has run, so three idle polls in a
# row cannot fall in a gap between two cells, however short the interval.
POLL_S = 0.1

_NB = ".jp-NotebookPanel:not(.lm-mod-hidden)"

_CELL_STATE_JS = """(sel) => {
  const panel = document.querySelector(sel);
  if (!panel) return null;
  const nb = panel.querySelector('.jp-Notebook');
  const cells = Array.from(nb.querySelectorAll('.jp-Cell')).filter(
      c => c.parentElement.closest('.jp-Notebook') === nb && !c.closest('.jp-OutputArea'));
  const ind = panel.querySelector('.jp-Notebook-ExecutionIndicator');
  const dialog = document.querySelector('.jp-Dialog');
  return {
    kernel: ind ? ind.dataset.status : null,
    dialog: dialog ? dialog.textContent.slice(0, 300) : null,
    prompts: cells.map(c => {
      if (!c.classList.contains('jp-CodeCell')) return null;
      // a cell whose code is closed (an answer's) shows no prompt: it ran if it has an
      // output that Run All made, not one stored in the file (marked before the run)
      if (c.querySelector(':scope > .jp-Cell-inputWrapper .jp-InputPlaceholder'))
        return c.querySelector('.jp-OutputArea-output:not([data-bt-stored])')
          ? '[closed, ran]' : '[closed]';
      const p = c.querySelector(':scope > .jp-Cell-inputWrapper .jp-InputArea-prompt');
      return p ? p.textContent.trim() : '?';
    }),
  };
}"""

_CELL_OUTPUTS_JS = """(sel) => {
  const nb = document.querySelector(sel + ' .jp-Notebook');
  const cells = Array.from(nb.querySelectorAll('.jp-Cell')).filter(
      c => c.parentElement.closest('.jp-Notebook') === nb && !c.closest('.jp-OutputArea'));
  // textContent, not innerText: cells scrolled out of view (content-visibility)
  // have no rendered text, and their errors count all the same.
  const texts = (c, q) => Array.from(c.querySelectorAll(q)).map(e => e.textContent);
  return cells.map(c => ({
    stderr: texts(c, '.jp-OutputArea-output[data-mime-type="application/vnd.jupyter.stderr"]'),
    // ... and an explorer's own error box: what went wrong in the kernel after a move
    error: [...texts(c, '.jp-RenderedText[data-mime-type*="error"]'),
            ...texts(c, '.attnlib-error').filter(t => t.trim())],
    // a display or result rendered as text/plain; print() output (stdout) may
    // legitimately show an explorer's repr
    text: texts(c, '.jp-OutputArea-output[data-mime-type="text/plain"]'),
    all: texts(c, '.jp-OutputArea-output').join('\\n'),
    markdown: texts(c, '.jp-RenderedMarkdown').join('\\n'),
  }));
}"""


def read_cells(path: Path) -> list[dict]:
    """(type, source, tags) of every cell, to line the DOM's cells up with."""
    nb = json.loads(path.read_text())
    cells = []
    for cell in nb["cells"]:
        src = cell["source"] if isinstance(cell["source"], str) else "".join(cell["source"])
        cells.append(
            {
                "type": cell["cell_type"],
                "source": src,
                "tags": cell.get("metadata", {}).get("tags", []),
            }
        )
    return cells


def _where(i: int, cell: dict) -> str:
    first = next((ln for ln in cell["source"].splitlines() if ln.strip()), "")
    return f"cell {i + 1} ({first[:60]!r})"


def lab_url(server) -> str:
    """JupyterLab itself, with ?reset: no earlier workspace."""
    return f"{server.url}/lab?reset&token={server.token}"


# JupyterLab's own File > Open command, through the app object that the test servers
# expose (servers.start_jupyter: LabApp.expose_app_in_browser), as galata does
_OPEN_JS = """(path) => window.jupyterapp.commands.execute('docmanager:open', {path})
                         .then(() => null)"""
# Save every open notebook (a learner's Ctrl-S: no "save changes?" dialog), then close all
_CLOSE_ALL_JS = """async () => {
  const app = window.jupyterapp;
  for (const w of Array.from(app.shell.widgets('main')))
    if (w.context && w.context.model.dirty) await w.context.save();
  await app.commands.execute('application:close-all');
}"""
# (the Launcher that JupyterLab opens in an empty main area is no document)
_DOCUMENTS_OPEN_JS = """() => Array.from(window.jupyterapp.shell.widgets('main'))
                               .filter(w => w.context).length"""


def open_lab(page, server, timeout_s: float = 60) -> None:
    """Load JupyterLab in `page` and wait until it has restored its layout."""
    page.goto(lab_url(server), timeout=timeout_s * 1000)
    page.wait_for_function("() => !!window.jupyterapp", timeout=timeout_s * 1000)
    page.evaluate("() => window.jupyterapp.restored.then(() => null)")


def close_notebooks(page, timeout_ms: int = 10_000) -> int:
    """Save and close every document open in JupyterLab; return how many are still
    open after `timeout_ms` (they close a moment after the command returns)."""
    page.evaluate(_CLOSE_ALL_JS)
    try:
        page.wait_for_function(f"() => ({_DOCUMENTS_OPEN_JS})() === 0", timeout=timeout_ms)
    except Exception:
        pass
    return page.evaluate(_DOCUMENTS_OPEN_JS)


def notebook_url(server, name: str, app: str = "lab") -> str:
    """Where a learner opens `name`: JupyterLab (with ?reset: no earlier workspace)
    or Notebook 7."""
    if app == "lab":
        return f"{server.url}/lab/tree/{name}?reset&token={server.token}"
    return f"{server.url}/notebooks/{name}?token={server.token}"


def open_notebook(
    page, server, name: str, n_cells: int, app: str = "lab", timeout_s: float = 60
) -> None:
    """Open `name` in JupyterLab or Notebook 7; wait for all cells and a kernel
    that the server reports idle (the page says "idle" before it has one).

    In a page where JupyterLab runs already (open_lab), the notebook opens in it, as
    a learner opens the next lesson from the file browser; else the page goes to
    the notebook's URL."""
    if app == "lab" and page.evaluate("() => !!window.jupyterapp"):
        page.evaluate(_OPEN_JS, name)
    else:
        page.goto(notebook_url(server, name, app), timeout=timeout_s * 1000)
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        state = page.evaluate(_CELL_STATE_JS, _NB)
        sessions = [s for s in server.api("GET", "/api/sessions") if s.get("path") == name]
        if state and state["dialog"]:
            raise AssertionError(f"a dialog blocks {name}: {state['dialog']!r}")
        if (
            state
            and len(state["prompts"]) == n_cells
            and state["kernel"] == "idle"
            and sessions
            and sessions[0]["kernel"]["execution_state"] == "idle"
        ):
            return
        time.sleep(POLL_S)  # JupyterLab attaches a long notebook's cells in batches
    raise AssertionError(
        f"{name}: no idle kernel and {n_cells} cells after {timeout_s:.0f} s "
        f"(page: {state and state['kernel']}, "
        f"{state and len(state['prompts'])} cells; sessions: {sessions})"
    )


_STARTED_JS = """(sel) => Array.from(document.querySelectorAll(sel + ' .jp-InputArea-prompt'))
                 .some(p => p.textContent.includes('*'))"""


# The "Deeper" sections open collapsed; a learner opens one by its "N cells hidden"
# button under the heading. Clicked until none is left: opening a section shows
# the buttons of the collapsed sections inside it.
_EXPAND_ALL_JS = """async () => {
  for (let round = 0; round < 40; round++) {
    const buttons = Array.from(document.querySelectorAll('.jp-showHiddenCellsButton'));
    if (buttons.length === 0) return round;
    buttons.forEach(b => b.click());
    await new Promise(r => setTimeout(r, 100));
  }
  return -1;
}"""


def expand_all_headings(page) -> int:
    """Open every collapsed section of the notebook, as a learner clicks each one's
    "cells hidden" button; the number of rounds it took (-1: some never opened)."""
    return page.evaluate(_EXPAND_ALL_JS)


def run_all_from_menu(
    page, attempts: int = 3, menu: str = "Run", item_name: str = "Run All Cells"
) -> None:
    """Run > Run All Cells (`menu` > `item_name` in another language), clicked as a
    learner would.

    Returns once some cell shows [*]. Clicked again (at most `attempts` times) if
    no cell did: just after a notebook opens, the command may not reach it yet.
    """
    # the outputs stored in the file, marked: a cell with closed code shows no prompt,
    # and a new output is how the run's check knows that it ran
    page.evaluate(
        "() => document.querySelectorAll('.jp-OutputArea-output')"
        ".forEach(o => o.setAttribute('data-bt-stored', ''))"
    )
    for _ in range(attempts):
        page.locator(".lm-MenuBar").get_by_role("menuitem", name=menu, exact=True).click()
        item = page.locator(".lm-Menu").get_by_role("menuitem", name=item_name, exact=True)
        if item.get_attribute("aria-disabled") == "true":
            page.keyboard.press("Escape")
            time.sleep(1)
            continue
        item.click()
        try:
            page.wait_for_function(_STARTED_JS, arg=_NB, timeout=5_000)
            return
        except Exception:
            pass
    raise AssertionError(f"Run > Run All Cells started no cell ({attempts} tries)")


def wait_until_run(page, cells: list[dict], timeout_s: float = 120) -> list[str]:
    """Wait until no cell is queued or running and the kernel is idle.

    Returns problems: cells that never ran (Run All stops at an error), a dialog
    (e.g. no such kernel), or a time-out.
    """
    code = [i for i, c in enumerate(cells) if c["type"] == "code" and c["source"].strip()]
    deadline, settled, state = time.monotonic() + timeout_s, 0, None
    while time.monotonic() < deadline:
        state = page.evaluate(_CELL_STATE_JS, _NB)
        if state and state["dialog"]:
            return [f"a dialog blocks the notebook: {state['dialog']!r}"]
        busy = (
            state is None
            or len(state["prompts"]) != len(cells)
            or state["kernel"] != "idle"
            or any(state["prompts"][i] in ("[*]:", "[*]") for i in code)
        )
        settled = 0 if busy else settled + 1
        if settled >= 3:  # idle across three polls: not a gap between two cells
            break
        time.sleep(POLL_S)
    else:
        running = [
            i + 1
            for i in code
            if state and i < len(state["prompts"]) and state["prompts"][i] in ("[*]:", "[*]")
        ]
        return [
            f"not finished after {timeout_s:.0f} s: kernel {state and state['kernel']}, "
            f"{state and len(state['prompts'])} of {len(cells)} cells on the page, cells "
            f"still running or queued: {running}"
        ]
    never = [
        _where(i, cells[i])
        for i in code
        if not re.fullmatch(r"\[\d+\]:?|\[closed, ran\]", state["prompts"][i])
    ]
    return [f"never ran: {w}" for w in never]


def output_problems(page, cells: list[dict]) -> list[str]:
    """Errors, stderr, widgets shown as text or failed to render, cell by cell."""
    problems = []
    outs = page.evaluate(_CELL_OUTPUTS_JS, _NB)
    for i, (cell, out) in enumerate(zip(cells, outs, strict=True)):
        where = _where(i, cell)
        for text in out["stderr"]:
            if MISSING_GLYPH.search(text):
                problems.append(f"{where}: a character drawn as a box in a figure:\n{_tail(text)}")
        for text in out["stderr"] + out["error"]:  # none excused: no cell may raise
            kind = "error" if re.search(r"Traceback|\w+(Error|Exception)\b", text) else "stderr"
            problems.append(f"{where}: {kind} output:\n{_tail(text)}")
        for text in out["text"]:
            if WIDGET_AS_TEXT.search(text):
                problems.append(f"{where}: a widget shown as text: {text.strip()[:120]!r}")
        if CONFLICT.search(out["markdown"]):
            problems.append(
                f"{where}: a merge conflict marker in the text shown: "
                f"{CONFLICT.search(out['markdown']).group(0)!r}"
            )
        if WIDGET_FAILED.search(out["all"]):
            problems.append(
                f"{where}: widget failed to render: {WIDGET_FAILED.search(out['all']).group(0)!r}"
            )
    return problems


def _tail(text: str, lines: int = 8) -> str:
    return "\n".join("    " + ln for ln in text.strip().splitlines()[-lines:])


def shut_down_kernels(server) -> None:
    for session in server.api("GET", "/api/sessions"):
        server.request("DELETE", f"/api/sessions/{session['id']}")


# --------------------------------------------------------------------------- explorers

# An explorer is a top-level widget with at least one slider and one picture. Each
# gets a data-bt-explorer index for the locators below; a keydown listener and a
# capturing load listener time each move (load does not bubble, but it captures).
#
# A picture's source is a data: URL of tens of kB. The checks below tell pictures apart
# by a short name made in the page, "<img's number>:<how many times its src was set>",
# and compare whole sources only in the page, once a source was set. They used to send
# every source to Python and back inside the timed window of a move and read them at
# every frame of the wait, on the cores the move runs on (benchmarks/move_profile.md,
# round 6: no difference in the keypress figure beyond the machine's noise).
_MARK_EXPLORERS_JS = """() => {
  // an explorer drawn in the page is anywidget's view (no class jupyter-widgets of its own)
  const tops = Array.from(document.querySelectorAll('.jupyter-widgets, .attnlib-page-explorer'))
      .filter(el => !el.parentElement.closest('.jupyter-widgets, .attnlib-page-explorer'));
  // attnlib's explorers draw on a canvas in the page; a stand-in (test_lab's fixture) is
  // ipywidgets' sliders above an <img>
  const found = tops.filter(el => el.matches('.attnlib-page-explorer')
      || el.querySelector('.attnlib-page-explorer')
      || (el.querySelector('.widget-slider') && el.querySelector('img')));
  found.forEach((el, i) => el.setAttribute('data-bt-explorer', String(i)));
  if (!window.__bt) {
    window.__bt = {keydown: null, loaded: null};
    for (const start of ['keydown', 'mousedown'])
      document.addEventListener(start, () => {
        // the steps of one move (TIMING_INIT_JS fills in `sent` and `picture`)
        Object.assign(window.__bt, {keydown: performance.now(), loaded: null, sent: null,
                                    picture: null, src: null, load: null});
      }, true);
    let made = 0;
    // a picture's name: an <img> and how often its src was set, or a canvas and when
    // the explorer last drew on it
    window.__btPicture = pic => pic.tagName === 'CANVAS'
        ? `canvas:${pic.closest('.attnlib-page-explorer')?.dataset.drawn || ''}`
        : `${pic.__btId ??= ++made}:${pic.__btSets || 0}`;
    window.__btPictures = el => Array.from(el.querySelectorAll('img, canvas.attnlib-canvas'));
    // explorer i's pictures by name; their sources stay in the page, for __btChanged
    window.__btSources = {};
    window.__btSnapshot = (i) => {
      const el = document.querySelector(`[data-bt-explorer="${i}"]`);
      if (!el) return null;
      const pics = window.__btPictures(el);
      window.__btSources[i] = pics.map(p => p.src || window.__btPicture(p));
      return pics.map(window.__btPicture);
    };
    // whether explorer i shows a new picture, loaded (drawn), since the snapshot `before`
    window.__btChanged = (i, before) => {
      const el = document.querySelector(`[data-bt-explorer="${i}"]`);
      if (!el) return false;
      const pics = window.__btPictures(el);
      if (!pics.some((p, k) => window.__btPicture(p) !== before[k])) return false;
      if (!pics.every(p => p.tagName === 'CANVAS' || (p.complete && p.naturalWidth > 0)))
        return false;
      if (window.__bt.loaded === null) return false;
      const old = window.__btSources[i] || [];
      return pics.some((p, k) => (p.src || window.__btPicture(p)) !== old[k]);
    };
  }
  found.forEach(el => {
    if (el.__btHooked) return;
    el.__btHooked = true;
    el.addEventListener('load', (e) => {
      if (e.target.tagName !== 'IMG') return;
      if (window.__bt.load === null) window.__bt.load = performance.now();
      requestAnimationFrame(() => { window.__bt.loaded = performance.now(); });
    }, true);
    new MutationObserver((records) => {
      for (const r of records) {
        if (r.attributeName === 'data-drawn') {  // the page explorer drew: on screen next frame
          if (window.__bt.load === null) window.__bt.load = performance.now();
          requestAnimationFrame(() => { window.__bt.loaded = performance.now(); });
          continue;
        }
        r.target.__btSets = (r.target.__btSets || 0) + 1;
      }
      if (window.__bt.keydown !== null && window.__bt.src === null)
        window.__bt.src = performance.now();
    }).observe(el, {subtree: true, attributes: true, attributeFilter: ['src', 'data-drawn']});
  });
  return found.length;
}"""

# Given to every page before its scripts run (conftest's browser contexts): the kernel
# websocket, wrapped to time a move's first message out after the keydown (the slider's
# update) and its first large message in (the new picture, tens of kB).
TIMING_INIT_JS = """(() => {
  const Plain = window.WebSocket;
  if (!Plain || Plain.__btTimed) return;
  const PICTURE_BYTES = 10000;
  function Timed(...args) {
    const ws = new Plain(...args);
    ws.addEventListener('message', (e) => {
      const bt = window.__bt;
      const size = e.data.byteLength ?? e.data.size ?? e.data.length ?? 0;
      if (bt && bt.keydown !== null && bt.picture === null && size > PICTURE_BYTES)
        bt.picture = performance.now();
    });
    const send = ws.send.bind(ws);
    ws.send = (data) => {
      const bt = window.__bt;
      if (bt && bt.keydown !== null && bt.sent === null) bt.sent = performance.now();
      return send(data);
    };
    return ws;
  }
  Timed.prototype = Plain.prototype;
  for (const k of ['CONNECTING', 'OPEN', 'CLOSING', 'CLOSED']) Timed[k] = Plain[k];
  Timed.__btTimed = true;
  window.WebSocket = Timed;
})();"""

#: The steps of a move, in the order they happen (ms after the keydown or mouse-down):
#: the slider's update leaves the page, the new picture's message arrives, the picture
#: element gets its new src, the picture has loaded, the next frame after that.
MOVE_STEPS = ("sent", "picture", "src", "load", "loaded")


def move_steps(page) -> dict[str, float | None]:
    """When each of MOVE_STEPS happened in the last move, in ms after its keydown
    (None: not seen, e.g. a page opened without TIMING_INIT_JS)."""
    return page.evaluate(
        """(steps) => Object.fromEntries(steps.map(k => [k,
             window.__bt[k] == null ? null : window.__bt[k] - window.__bt.keydown]))""",
        list(MOVE_STEPS),
    )


# explorer i's pictures, named (see _MARK_EXPLORERS_JS); None if it is gone
_PICTURES_JS = "(i) => window.__btSnapshot(i)"

# explorer i shows a new picture (another source than at the snapshot), loaded and on screen
_CHANGED_JS = "([i, before]) => window.__btChanged(i, before)"

HANDLE = ".noUi-handle, .ui-slider-handle"  # ipywidgets 8 (noUiSlider), 7 (jQuery UI)


def mark_explorers(page) -> int:
    return page.evaluate(_MARK_EXPLORERS_JS)


def picture_count(page) -> int:
    """Every picture on the page that a widget shows (an <img>, or an explorer's canvas)."""
    return page.evaluate(
        "() => document.querySelectorAll('.jupyter-widgets img, canvas.attnlib-canvas').length"
    )


@dataclass
class Slider:
    label: str  # the caption a learner reads: "seed" in English, 随机种子 in Chinese
    value: float
    low: float
    high: float
    name: str  # the control's name in the code, from its class attnlib-control-NAME


_SLIDERS_JS = f"""(el) => [
  ...Array.from(el.querySelectorAll('{HANDLE}')).map(h => ({{
    // textContent: a cell far below the fold is skipped by JupyterLab's
    // content-visibility windowing, and then its innerText is empty
    label: (h.closest('.widget-slider')?.querySelector('.widget-label')?.textContent || '').trim(),
    // the same in every language: attnlib gives each control the class attnlib-control-NAME
    name: Array.from(h.closest('.widget-slider')?.classList || [])
        .find(c => c.startsWith('attnlib-control-'))?.slice('attnlib-control-'.length) || '',
    values: ['aria-valuenow', 'aria-valuemin', 'aria-valuemax'].map(
        a => parseFloat(h.getAttribute(a) ?? 'NaN')),
  }})),
  // an explorer drawn in the page: range inputs, each with its <label> and data-control
  ...Array.from(el.querySelectorAll('input[type=range][data-control]')).map(r => ({{
    label: (r.labels?.[0]?.textContent || '').trim(),
    name: r.dataset.control,
    values: [r.value, r.min, r.max].map(parseFloat),
  }})),
]"""


def sliders(page, i: int) -> list[Slider]:
    """Explorer i's sliders, in order: label, value, range and name (one round trip).
    A slider without attnlib's class (a test's own widget) is named by its label."""
    found = page.locator(f'[data-bt-explorer="{i}"]').evaluate(_SLIDERS_JS)
    out = []
    for k, h in enumerate(found):
        label = h["label"] or f"slider {k + 1}"
        out.append(Slider(label, *h["values"], name=h["name"] or label))
    return out


# A slider's value and range (a noUiSlider handle's aria values, or a range input's),
# with explorer i's pictures: one round trip
_HANDLE_JS = """(h, i) => h.tagName === 'INPUT' ? ({
  now: parseFloat(h.value), low: parseFloat(h.min), high: parseFloat(h.max),
  pictures: window.__btSnapshot(i),
}) : ({
  now: parseFloat(h.getAttribute('aria-valuenow')),
  low: parseFloat(h.getAttribute('aria-valuemin')),
  high: parseFloat(h.getAttribute('aria-valuemax')),
  pictures: window.__btSnapshot(i),
})"""

# What a slider is for the moves below: a noUiSlider handle, or an explorer's range input
SLIDER = f"{HANDLE}, input[type=range][data-control]"

# The handle's box once it stops moving (cells scrolled into view are laid out and
# push the page about), the width of its track, and what the pointer would press at
# the box's centre. If that is not the handle (off screen, or under Notebook 7's
# sticky toolbar, whose bottom edge is at about 100 px), the handle is centred in
# the window and measured again.
_DRAG_BOX_JS = """async (h) => {
  const frame = () => new Promise(done => requestAnimationFrame(() => done()));
  const steady = async () => {
    let box = h.getBoundingClientRect();
    for (let k = 0; k < 60; k++) {
      await frame(); await frame();
      const now = h.getBoundingClientRect();
      if (now.x === box.x && now.y === box.y && now.width === box.width) break;
      box = now;
    }
    return box;
  };
  // what the pointer would press: tag.class.names (an SVG's className is an object)
  const describe = e => !e ? 'nothing' : e.tagName.toLowerCase() +
      (typeof e.className === 'string' && e.className.trim()
          ? '.' + e.className.trim().split(/\\s+/).join('.') : '');
  let box, top;
  for (let attempt = 0; attempt < 3; attempt++) {
    box = await steady();
    top = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
    if (top && h.contains(top)) break;
    h.scrollIntoView({block: 'center'});
  }
  const track = h.closest('.noUi-base, .ui-slider');
  if (h.tagName === 'INPUT') {  // a range input: its thumb, where the value puts it
    const f = (h.value - h.min) / (h.max - h.min), thumb = 16;
    const x = box.x + thumb / 2 + f * (box.width - thumb);
    return {x: x - thumb / 2, y: box.y, width: thumb, height: box.height, track: box.width,
            covered: top && h.contains(top) ? null : describe(top)};
  }
  return {x: box.x, y: box.y, width: box.width, height: box.height,
          track: track ? track.getBoundingClientRect().width : 0,
          covered: top && h.contains(top) ? null : describe(top)};
}"""


def move(page, i: int, k: int, key: str | None = None, timeout_ms: int = 5000, drag=False):
    """Move handle k of explorer i one way (a key: an arrow, or End or Home; or with
    `drag` the mouse by about one and a half steps in the arrow's direction); return
    (problem or None, ms).

    ms runs from the keydown (or mouse-down) event to the frame after the new
    picture loaded.
    """
    handle = page.locator(f'[data-bt-explorer="{i}"]').locator(SLIDER).nth(k)
    state = handle.evaluate(_HANDLE_JS, i)
    native = handle.evaluate("h => h.tagName === 'INPUT'")
    now, low, high = state["now"], state["low"], state["high"]
    key = key or ("ArrowLeft" if now >= high else "ArrowRight")
    if drag:
        action = f"dragging {'right' if key == 'ArrowRight' else 'left'}"
        covered = _drag(page, handle, +1 if key == "ArrowRight" else -1, high - low)
        if covered:
            return f"{action}: the pointer cannot take hold of the handle: {covered}", None
    else:
        action = key
        handle.press(key)
    try:
        page.wait_for_function(_CHANGED_JS, arg=[i, state["pictures"]], timeout=timeout_ms)
    except Exception:
        after_value = float(
            handle.input_value() if native else handle.get_attribute("aria-valuenow")
        )
        if after_value == now:
            return f"{action} did not move the slider (value stays {now:g})", None
        return (
            f"{action} moved the slider {now:g} -> {after_value:g} but the picture did not "
            f"change within {timeout_ms / 1000:g} s"
        ), None
    ms = page.evaluate("() => window.__bt.loaded - window.__bt.keydown")
    if drag:
        # A drag sends the slider's value as it passes each step (continuous updates):
        # the first new picture ends the timing, and a later one may still be on its way.
        # The next move must start from the last picture, not from one that is replaced
        # under it (with pictures as data: URLs, two moves that end on the same value
        # show the very same source).
        settle(page, i)
    return None, ms


_QUIET_JS = """([i, quiet]) => {
  const el = document.querySelector(`[data-bt-explorer="${i}"]`);
  if (!el) return true;
  const now = performance.now(), seen = window.__btQuiet || (window.__btQuiet = {});
  const names = window.__btPictures(el).map(window.__btPicture).join(' ');
  if (!seen[i] || seen[i].names !== names) { seen[i] = {names, since: now}; return false; }
  return now - seen[i].since >= quiet;
}"""


def settle(page, i: int, quiet_ms: int = 400, timeout_ms: int = 5000) -> bool:
    """Wait until explorer i's pictures have not changed for `quiet_ms`; False if they
    still change after `timeout_ms` (the caller goes on)."""
    page.evaluate("(i) => { if (window.__btQuiet) delete window.__btQuiet[i]; }", i)
    try:
        page.wait_for_function(_QUIET_JS, arg=[i, quiet_ms], timeout=timeout_ms, polling=50)
    except Exception:
        return False
    return True


def steady_box(locator, timeout_s: float = 3) -> dict:
    """The element's bounding box once it stops moving: cells scrolled into view get
    laid out (content-visibility, windowed notebooks) and push the page about."""
    box, deadline = locator.bounding_box(), time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        time.sleep(0.05)
        now = locator.bounding_box()
        if now == box:
            break
        box = now
    return box


# noUiSlider marks the handle it is dragging; jQuery UI (ipywidgets 7) the active one
_GRABBED_JS = """h => h.tagName === 'INPUT' ? document.activeElement === h
    : h.matches('.noUi-active, .ui-state-active') || !!h.closest('.noUi-active')"""


def _drag(page, handle, direction: int, span: float) -> str | None:
    """Drag a slider handle with the mouse, as a learner does, by about 1.5 steps;
    or return why the pointer could not take hold of it.

    The press must grab the handle (noUiSlider marks it active): a page that moved
    between measuring and pressing (Notebook 7 lays out cells as they scroll into
    view) is measured again, up to three times, as a learner would look again.
    """
    for _ in range(3):
        box = handle.evaluate(_DRAG_BOX_JS)
        if box["covered"]:
            return f"{box['covered']} is over it"
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        page.mouse.move(x, y)
        page.mouse.down()
        if handle.evaluate(_GRABBED_JS):
            break
        page.mouse.up()
    else:
        return f"a press at its centre ({x:.0f}, {y:.0f}) did not take hold of it, three times"
    dx = max(8.0, 1.5 * box["track"] / max(span, 1.0))
    page.mouse.move(x + direction * dx, y, steps=4)
    page.mouse.up()
    return None


def check_explorers(
    page, context: str = "", timeout_ms: int = 5000, drag: bool = False
) -> tuple[list[str], dict]:
    """Move every slider of every explorer both ways (arrow keys, or the mouse with
    `drag`); each move must redraw in place within `timeout_ms`."""
    problems, n_sliders, n_moves, labels, names = [], 0, 0, [], []
    count = mark_explorers(page)
    pictures = picture_count(page)
    for i in range(count):
        # in view first: the labels of a cell not laid out yet read as ""
        page.locator(f'[data-bt-explorer="{i}"]').evaluate("el => el.scrollIntoView()")
        before = page.evaluate(_PICTURES_JS, i)
        for k, s in enumerate(sliders(page, i)):
            n_sliders += 1
            labels.append(s.label)
            names.append(s.name)
            first = "ArrowLeft" if s.value >= s.high else "ArrowRight"
            back = "ArrowRight" if first == "ArrowLeft" else "ArrowLeft"
            for key in (first, back):
                problem, _ = move(page, i, k, key, timeout_ms=timeout_ms, drag=drag)
                n_moves += 1
                if problem:
                    problems.append(f"{context}explorer {i + 1}, slider {s.label!r}: {problem}")
                    break
            if problem:  # one dead slider is enough to say; don't wait out the others
                break
        now = page.evaluate(_PICTURES_JS, i)
        if now is None or len(before) != 1 or len(now) != 1:
            problems.append(
                f"{context}explorer {i + 1}: {len(before)} picture(s) before the "
                f"moves, {0 if now is None else len(now)} after; one, redrawn in place, "
                f"expected"
            )
    if picture_count(page) != pictures:
        problems.append(
            f"{context}{pictures} widget pictures on the page before the moves, "
            f"{picture_count(page)} after: pictures pile up instead of "
            f"being redrawn in place"
        )
    counts = {
        "explorers": count,
        "sliders": n_sliders,
        "moves": n_moves,
        "labels": labels,
        "names": names,
    }
    return problems, counts


def timing(latencies: list[float]) -> tuple[float, float]:
    """(median, p95) in ms; p95 by the nearest-rank method."""
    ordered = sorted(latencies)
    p95 = ordered[max(0, -(-95 * len(ordered) // 100) - 1)]
    return statistics.median(ordered), p95


# --------------------------------------------------------------------------- Voilà

# Voilà's own messages when a cell fails (tracebacks hidden, as by default) or when
# the page cannot be made at all.
VOILA_FAILED = re.compile(
    r"There was an error when executing cell|Voil[àa]: error|"
    r"Kernel (?:died|error)|Traceback \(most recent call last\)",
    re.I,
)

_PAGE_OUTPUTS_JS = """() => {
  const texts = q => Array.from(document.querySelectorAll(q)).map(e => e.textContent);
  const visible = q => Array.from(document.querySelectorAll(q)).filter(
      e => e.offsetParent !== null || getComputedStyle(e).display !== 'none').length;
  return {
    stderr: texts('.jp-OutputArea-output[data-mime-type="application/vnd.jupyter.stderr"]'),
    error: texts('.jp-RenderedText[data-mime-type*="error"]'),
    text: texts('.jp-OutputArea-output[data-mime-type="text/plain"]'),
    code: visible('.jp-CodeCell .jp-InputArea, .jp-InputArea-editor, .cm-editor, .CodeMirror,'
                  + ' .jp-InputPrompt'),
    body: document.body.innerText,
  };
}"""


def page_problems(page, cells: list[dict]) -> list[str]:
    """Errors, widgets as text, and code on a page that should show none (Voilà)."""
    out = page.evaluate(_PAGE_OUTPUTS_JS)
    problems = [
        f"a character drawn as a box in a figure:\n{_tail(t)}"
        for t in out["stderr"]
        if MISSING_GLYPH.search(t)
    ]
    problems += [f"error output on the page:\n{_tail(t)}" for t in out["stderr"] + out["error"]]
    problems += [
        f"a widget shown as text: {t.strip()[:120]!r}"
        for t in out["text"]
        if WIDGET_AS_TEXT.search(t)
    ]
    for pattern in (VOILA_FAILED, WIDGET_FAILED, CONFLICT):
        if pattern.search(out["body"]):
            problems.append(f"the page says {pattern.search(out['body']).group(0)!r}")
    if out["code"]:
        problems.append(f"{out['code']} code input area(s) or editor(s) on the page")
    for i, cell in enumerate(cells):
        if cell["type"] != "code":
            continue
        for line in cell["source"].splitlines():
            if len(line.strip()) >= 12 and line.strip() in out["body"]:
                problems.append(
                    f"source of {_where(i, cell)} shown on the page: {line.strip()[:80]!r}"
                )
                break
    return problems


# --------------------------------------------------------------------------- boxes instead of text

# Chromium draws a character that no font has as the first font's .notdef glyph (a
# box). So each character shown is drawn on a canvas in its element's font and
# compared, pixel for pixel, with a character that no font has (U+10FFFD, private
# use): the same pixels, a box. document.fonts.check() cannot tell: it only looks at
# web fonts still loading and says true for the system's fonts whatever they lack.
NO_FONT_HAS = "\U0010fffd"

# Chinese, Japanese and Korean characters and punctuation (CJK radicals to CJK
# ideographs, compatibility ideographs, vertical forms, full-width forms)
CJK_RANGES = r"\u2e80-\u9fff\uf900-\ufaff\ufe30-\ufe4f\uff00-\uffef"
# a sample the machine's CJK font must draw: a character of the course's titles
CJK_SAMPLE = "注"
CJK_FONT_HINT = (
    "no CJK font: Chromium draws the Chinese text as boxes, so the box checks skip "
    "Chinese characters (Debian and Ubuntu: apt install fonts-noto-cjk; macOS and "
    "Windows ship one)"
)

_UNCOVERED_JS = r"""([tofu, limit, sample, excuseCjk]) => {
  const canvas = document.createElement('canvas');
  canvas.width = 40; canvas.height = 40;
  const ctx = canvas.getContext('2d', {willReadFrequently: true});
  const draw = (font, ch) => {
    ctx.clearRect(0, 0, 40, 40);
    ctx.font = font; ctx.textBaseline = 'middle'; ctx.fillStyle = '#000';
    ctx.fillText(ch, 4, 20);
    const a = ctx.getImageData(0, 0, 40, 40).data;
    let bits = '';
    for (let k = 3; k < a.length; k += 4) bits += a[k] > 96 ? '1' : '0';
    return bits;
  };
  // every text node shown (its element has a box; hidden panels have none),
  // grouped by the font its element asks for
  const byFont = new Map();
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  let shown = 0;
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!el || el.closest('script, style, noscript, template')) continue;
    if (!node.data.trim() || el.getClientRects().length === 0) continue;
    const cs = getComputedStyle(el);
    if (cs.visibility === 'hidden') continue;
    const font = `${cs.fontStyle} ${cs.fontWeight} 20px ${cs.fontFamily}`;
    if (!byFont.has(font)) byFont.set(font, new Map());
    const chars = byFont.get(font);
    for (const ch of node.data) {
      if (/[\p{White_Space}\p{Cc}\p{Cf}]/u.test(ch)) continue;
      shown++;
      if (!chars.has(ch)) chars.set(ch, node.data.trim().slice(0, 40));
    }
  }
  // the words an explorer drew on its canvas, in the canvas's font
  for (const pic of document.querySelectorAll('.attnlib-picture[data-texts]')) {
    const canvas = pic.querySelector('canvas');
    if (!canvas || pic.getClientRects().length === 0) continue;
    const font = `normal 400 20px ${getComputedStyle(canvas).fontFamily}`;
    if (!byFont.has(font)) byFont.set(font, new Map());
    const chars = byFont.get(font);
    for (const word of pic.dataset.texts.split('\n'))
      for (const ch of word) {
        if (/[\p{White_Space}\p{Cc}\p{Cf}]/u.test(ch)) continue;
        shown++;
        if (!chars.has(ch)) chars.set(ch, `(on the explorer's canvas) ${word.slice(0, 40)}`);
      }
  }
  // does any font of the machine draw Chinese? (sans-serif falls back like the page)
  const cjkFont = draw('20px sans-serif', sample) !== draw('20px sans-serif', tofu);
  const cjk = /[CJK_RANGES]/u;
  const boxes = [];
  let distinct = 0, excused = 0;
  for (const [font, chars] of byFont) {
    const box = draw(font, tofu);
    for (const [ch, sample] of chars) {
      distinct++;
      if (!cjkFont && excuseCjk && cjk.test(ch)) { excused++; continue; }
      if (boxes.length < limit && draw(font, ch) === box) boxes.push({font, ch, sample});
    }
  }
  return {boxes, shown, distinct, fonts: byFont.size, cjkFont, excused};
}""".replace("CJK_RANGES", CJK_RANGES)


def boxes(page, limit: int = 40, excuse_cjk: bool | None = None) -> tuple[list[str], dict]:
    """Characters on the page that its fonts cannot draw (shown as boxes); with
    counts of the characters looked at. The canvas uses the same font matching and
    fallback as the page's text.

    On a machine without a CJK font, Chinese characters are boxes whatever we do:
    outside CI they are not reported here (``cjk_font`` in the counts says so, and
    test_harness.py's font test skips with what to install); every other character
    is still checked. Under CI=true nothing is excused."""
    if excuse_cjk is None:
        excuse_cjk = not servers.in_ci()
    found = page.evaluate(_UNCOVERED_JS, [NO_FONT_HAS, limit, CJK_SAMPLE, excuse_cjk])
    problems = [
        f"drawn as a box: {b['ch']!r} (U+{ord(b['ch']):04X}) in {b['sample']!r}, font {b['font']!r}"
        for b in found["boxes"]
    ]
    counts = {k: found[k] for k in ("shown", "distinct", "fonts", "excused")}
    counts["cjk_font"] = found["cjkFont"]
    return problems, counts


# --------------------------------------------------------------------------- a cell of an explorer

_BREAKDOWN_JS = """(i) => {
  const el = document.querySelector(`[data-bt-explorer="${i}"] .attnlib-explain`);
  return el ? el.textContent : '';
}"""

_BREAKDOWN_HAS_JS = """([i, wanted]) => {
  const el = document.querySelector(`[data-bt-explorer="${i}"] .attnlib-explain`);
  return !!el && el.textContent.includes(wanted);
}"""


def explorer_text(page, i: int) -> str:
    """All the text of explorer i (controls, readout, breakdown)."""
    return page.locator(f'[data-bt-explorer="{i}"]').evaluate("el => el.textContent")


def breakdown(page, i: int) -> str:
    """The text of explorer i's breakdown of the selected cell ('' when none is shown)."""
    return page.evaluate(_BREAKDOWN_JS, i)


def click_cell(page, i: int, cell: tuple[int, int], panel: int = 0, timeout_ms: int = 5000):
    """Click the middle of `cell` (i, j) of `panel` in explorer i's picture, as a learner
    does. Return (problem or None, ms from mouse-down to the outline on screen)."""
    picture = page.locator(f'[data-bt-explorer="{i}"] .attnlib-picture')
    picture.evaluate("el => el.scrollIntoView({block: 'center'})")
    box = steady_box(picture)
    boxes = picture.evaluate("el => JSON.parse(el.dataset.boxes)")
    size = picture.evaluate(
        "(el, k) => { const s = JSON.parse(el.dataset.shapes)[k]; return s; }", panel
    )
    b, (rows, cols) = boxes[panel], size
    side = min(b["box"] / cols, b["box"] / rows)
    x = box["x"] + b["x"] + (cell[1] + 0.5) * side
    y = box["y"] + b["y"] + (cell[0] + 0.5) * side
    before = page.evaluate(_PICTURES_JS, i)
    page.mouse.click(x, y)
    try:
        page.wait_for_function(_CHANGED_JS, arg=[i, before], timeout=timeout_ms)
    except Exception:
        seconds = timeout_ms / 1000
        return f"a click on cell {cell} did not change the picture within {seconds:g} s", None
    return None, page.evaluate("() => window.__bt.loaded - window.__bt.keydown")


def wait_for_breakdown(page, i: int, wanted: str, timeout_ms: int = 5000) -> str | None:
    """None once explorer i's breakdown contains `wanted`; else the problem."""
    try:
        page.wait_for_function(_BREAKDOWN_HAS_JS, arg=[i, wanted], timeout=timeout_ms)
    except Exception:
        shown = breakdown(page, i)
        return (
            f"no breakdown with {wanted!r} within {timeout_ms / 1000:g} s; shown: {shown[:150]!r}"
        )
    return None


def choose_cell(page, i: int, row: int, col: int) -> None:
    """The keyboard route: focus explorer i's picture, then the arrow keys to (row, col)
    of its first panel (the first key selects cell (0, 0))."""
    picture = page.locator(f'[data-bt-explorer="{i}"] .attnlib-picture')
    picture.focus()
    page.keyboard.press("Escape")
    page.keyboard.press("ArrowDown")  # selects (0, 0)
    for _ in range(row):
        page.keyboard.press("ArrowDown")
    for _ in range(col):
        page.keyboard.press("ArrowRight")


def choose(page, i: int, name: str, value: str, timeout_ms: int = 5000) -> str | None:
    """Choose `value` in explorer i's menu `name` (the mask); None if the picture then
    changed, else the problem."""
    menu = page.locator(f'[data-bt-explorer="{i}"] select[data-control="{name}"]')
    if menu.count() != 1:
        return f"{menu.count()} menu(s) {name!r}, one expected"
    before = page.evaluate(_PICTURES_JS, i)
    menu.select_option(value)
    try:
        page.wait_for_function(_CHANGED_JS, arg=[i, before], timeout=timeout_ms)
    except Exception:
        return f"choosing {value!r} did not change the picture within {timeout_ms / 1000:g} s"
    return None


def slider_index(page, i: int, name: str) -> int | None:
    """The index of explorer i's slider `name` (seed, heads: its name in the code, which
    its caption need not be)."""
    return next((k for k, s in enumerate(sliders(page, i)) if s.name == name), None)


def find_explorer(page, slider: str) -> int | None:
    """The index of the first explorer with a slider named `slider` (as in the code)."""
    for i in range(mark_explorers(page)):
        if slider in [s.name for s in sliders(page, i)]:
            return i
    return None


# Text cut off by its box: a label, a slider's readout, a button, a menu, the summary line
_CLIPPED_JS = """() => {
  const found = [];
  const sel = '.widget-label, .widget-readout, .widget-toggle-button, button, select, '
            + '.widget-label-basic, .attnlib-summary, .attnlib-control label, '
            + '.attnlib-control output';
  for (const ex of document.querySelectorAll('[data-bt-explorer]'))
    for (const el of ex.querySelectorAll(sel)) {
      const style = getComputedStyle(el);
      if (style.display === 'none' || style.visibility === 'hidden' || !el.offsetParent) continue;
      const text = (el.textContent || el.value || '').trim();
      if (text && el.scrollWidth > el.clientWidth + 1)
        found.push(`explorer ${ex.dataset.btExplorer}: ${JSON.stringify(text.slice(0, 40))} `
                   + `needs ${el.scrollWidth} px, has ${el.clientWidth}`);
    }
  return found;
}"""

# A control's description label beside its control, not above or below it (a label
# whose control wrapped onto the next line stands apart: "mask" above its buttons)
_APART_JS = """() => {
  const found = [];
  const centre = r => (r.top + r.bottom) / 2;
  for (const ex of document.querySelectorAll('[data-bt-explorer]'))
    for (const label of ex.querySelectorAll(
        '.widget-inline-hbox > .widget-label, .widget-toggle-buttons > .widget-label, '
        + '.attnlib-control > label')) {
      const control = label.nextElementSibling;
      if (!control || !label.textContent.trim() || !label.offsetParent) continue;
      const l = label.getBoundingClientRect(), c = control.getBoundingClientRect();
      if (centre(l) < c.top || centre(l) > c.bottom || l.left > c.left)
        found.push(`explorer ${ex.dataset.btExplorer}: the label `
                   + `${JSON.stringify(label.textContent.trim())} is not beside its control `
                   + `(label at x ${l.left.toFixed(0)}, y ${l.top.toFixed(0)}; control at `
                   + `x ${c.left.toFixed(0)}, y ${c.top.toFixed(0)}..${c.bottom.toFixed(0)})`);
    }
  return found;
}"""

# A readout line that wrapped: more line boxes than its <br>-separated lines
_WRAPPED_JS = """() => {
  const found = [];
  for (const ex of document.querySelectorAll('[data-bt-explorer]')) {
    const el = ex.querySelector('.attnlib-readout .widget-html-content')
        || ex.querySelector('.attnlib-page-explorer .attnlib-readout');
    // readouts made of lines and <br> only (a table or paragraphs lay out their own lines)
    if (!el || !el.offsetParent || el.querySelector('.attnlib-summary, table, p, div, li'))
      continue;
    const tops = [];
    const walk = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let node = walk.nextNode(); node; node = walk.nextNode()) {
      const range = document.createRange();
      range.selectNodeContents(node);
      for (const r of range.getClientRects())
        if (r.width > 0 && !tops.some(t => Math.abs(t - r.top) < r.height / 2)) tops.push(r.top);
    }
    const lines = el.querySelectorAll('br').length + 1;
    if (tops.length > lines)
      found.push(`explorer ${ex.dataset.btExplorer}: its readout of ${lines} lines takes `
                 + `${tops.length} on screen (a line wrapped)`);
  }
  return found;
}"""

# A picture shown smaller than it is drawn: its text shrinks with it below the size
# tests/test_layout.py checks is readable (READABLE_PX, cell numbers included)
_SHRUNK_JS = """() => {
  const found = [];
  for (const ex of document.querySelectorAll('[data-bt-explorer]'))
    for (const img of ex.querySelectorAll('img')) {
      const shown = img.getBoundingClientRect().width;
      if (img.naturalWidth && shown < img.naturalWidth - 1)
        found.push(`explorer ${ex.dataset.btExplorer}: the picture is shrunk from `
                   + `${img.naturalWidth} to ${shown.toFixed(0)} px`);
    }
  // an explorer's canvas wider than the output area it sits in: cut off at its right
  for (const ex of document.querySelectorAll('[data-bt-explorer]'))
    for (const canvas of ex.querySelectorAll('canvas.attnlib-canvas')) {
      const area = canvas.closest('.jp-OutputArea-output, .jp-OutputArea, body');
      const c = canvas.getBoundingClientRect(), a = area.getBoundingClientRect();
      if (c.right > a.right + 1)
        found.push(`explorer ${ex.dataset.btExplorer}: the picture (${c.width.toFixed(0)} px) `
                   + `runs ${(c.right - a.right).toFixed(0)} px past its output area`);
    }
  return found;
}"""


def layout_problems(page) -> list[str]:
    """What a learner could not read in the explorers on the page (marked by
    mark_explorers): a label or control text cut off, a label apart from its control,
    a readout line wrapped, a picture shown shrunk."""
    return [
        p for js in (_CLIPPED_JS, _APART_JS, _WRAPPED_JS, _SHRUNK_JS) for p in page.evaluate(js)
    ]


# --------------------------------------------------------------------------- accessibility

AXE = Path(__file__).parent / "axe" / "node_modules" / "axe-core" / "axe.min.js"


def axe_problems(page, selector: str | None = None) -> list[str]:
    """What axe-core (npm, tests/browser/axe) finds on the page, or in the elements that
    `selector` matches: one line per rule, with how many elements break it. Without
    axe-core: one line saying how to install it, as a problem under CI=true."""
    if not AXE.exists():
        missing = "axe-core is not installed: npm ci --prefix tests/browser/axe (make test does)"
        return [missing] if servers.in_ci() else []
    page.add_script_tag(path=str(AXE))
    context = (
        "document" if selector is None
        else f"{{include: Array.from(document.querySelectorAll({json.dumps(selector)}))}}"
    )  # fmt: skip
    result = page.evaluate(f"async () => await axe.run({context})")
    return [
        f"axe-core: {v['id']} ({v['help']}): {len(v['nodes'])} element(s), e.g. "
        f"{v['nodes'][0]['html'][:100]!r}"
        for v in result["violations"]
    ]


# ---------------------------------------------------------------- answers stay closed
# An answer cell prints inside ``attnlib.answer()`` (a closed <details class=
# "attnlib-answer">), and prose that gives an answer away sits in the same closed
# <details> in its markdown cell. After Run All every one must be on the page and
# closed, and no line of an answer may show anywhere else in the notebook's text.
_ANSWERS_JS = """(sel) => {
  const root = document.querySelector(sel);
  if (!root) return null;
  const answers = Array.from(root.querySelectorAll('details.attnlib-answer'));
  // the notebook's text as a learner sees it: a closed <details> shows its summary only
  const seen = [];
  const walk = (node) => {
    if (node.nodeType === Node.TEXT_NODE) { seen.push(node.textContent); return; }
    if (node.nodeType !== Node.ELEMENT_NODE) return;
    if (node.matches('details:not([open])')) {
      const summary = node.querySelector(':scope > summary');
      if (summary) seen.push(summary.textContent);
      return;
    }
    if (node.matches('script, style, .jp-InputArea-editor, .jp-Cell-inputWrapper .cm-editor'))
      return;
    node.childNodes.forEach(walk);
  };
  walk(root);
  const lines = answers.flatMap(d =>
      Array.from(d.querySelectorAll('pre.attnlib-answer-text'))
        .flatMap(p => p.textContent.split('\\n')))
    // a line that says something (a number with words or an =), not a bare row of a matrix
    .map(s => s.trim())
    .filter(s => s.length >= 8 && /[0-9]/.test(s) && /[A-Za-z\u4e00-\u9fff=]/.test(s));
  const text = seen.join(' ');
  // an answer cell's code tells the answer too (an assert, a comment): its input must
  // be closed (the cell's metadata jupyter.source_hidden) until the learner opens it
  const codeInView = Array.from(root.querySelectorAll('.jp-CodeCell'))
    .filter(cell => cell.querySelector('.jp-OutputArea details.attnlib-answer'))
    .filter(cell => {
      const area = cell.querySelector('.jp-Cell-inputWrapper .jp-InputArea');
      return area && area.getClientRects().length > 0 && !area.closest('.lm-mod-hidden');
    }).length;
  return {
    count: answers.length,
    codeInView,
    open: answers.filter(d => d.open).length,
    lines: lines.length,
    leaked: Array.from(new Set(lines.filter(s => text.includes(s)))).slice(0, 5),
  };
}"""


def expected_answers(cells: list[dict]) -> int:
    """How many closed answers the notebook makes: its answer cells and answer prose."""
    code = sum("attnlib.answer(" in c["source"] for c in cells if c["type"] == "code")
    prose = sum(
        c["source"].count('<details class="attnlib-answer"')
        for c in cells
        if c["type"] == "markdown"
    )
    return code + prose


def answer_problems(page, cells: list[dict]) -> list[str]:
    """After Run All: every answer on the page, closed, and none of its lines in view."""
    found = page.evaluate(_ANSWERS_JS, _NB)
    if found is None:
        return ["no notebook on the page to look for answers in"]
    problems = []
    wanted = expected_answers(cells)
    if found["count"] != wanted:
        problems.append(f"{found['count']} closed answer sections on the page, expected {wanted}")
    if found["open"]:
        problems.append(f"{found['open']} answer section(s) open after Run All")
    if found["codeInView"]:
        problems.append(
            f"the code of {found['codeInView']} answer cell(s) shows after Run All: "
            "their input should open only on a click (jupyter.source_hidden)"
        )
    problems += [
        f"an answer's line shows outside its closed section: {s!r}" for s in found["leaked"]
    ]
    return problems
