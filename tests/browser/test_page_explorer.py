"""The explorers drawn in the page (attnlib/explorers/front/explorer.js), in Chromium
without a kernel: the page's arithmetic equals attnlib's, every cell's colour is
matplotlib's, a static HTML file moves every control offline, the keyboard reaches
every cell of every head, and axe-core finds nothing to fix."""

from __future__ import annotations

import base64
import dataclasses
import itertools
import json
from pathlib import Path

import numpy as np
import pytest
from matplotlib import colormaps
from matplotlib.colors import Normalize

from attnlib import causal_mask, self_attention, toy_example
from attnlib.explorers import AttentionExplorer, EmbeddingExplorer, QKVExplorer, ScalingExplorer
from attnlib.explorers.page import FRONT
from attnlib.explorers.static import write_html
from attnlib.pictures.heatmap import symmetric_limit
from attnlib.pictures.panel import Panel

from .conftest import skip_or_fail
from .pages import LOCAL
from .servers import in_ci as servers_in_ci

AXE = Path(__file__).parent / "axe" / "node_modules" / "axe-core" / "axe.min.js"


@pytest.fixture
def tab(new_context):
    """A page at 1366 × 768 that records console errors and requests off this machine."""
    context = new_context(viewport={"width": 1366, "height": 768})
    page = context.new_page()
    page.problems = []
    page.on("console", lambda m: m.type == "error" and page.problems.append(m.text))
    page.on("pageerror", lambda e: page.problems.append(f"uncaught: {e}"))
    page.on("request", lambda r: r.url.startswith((*LOCAL, "file:")) or page.problems.append(
        f"a request off this machine: {r.url}"))  # fmt: skip
    return page


def _module_page(page) -> None:
    # The module alone, imported as the page's window.__m (its exported functions)
    source = (FRONT / "explorer.js").read_text(encoding="utf-8")
    page.set_content("<!DOCTYPE html><html><body></body></html>")
    page.evaluate(
        """async (source) => {
             const url = URL.createObjectURL(new Blob([source], {type: 'text/javascript'}));
             window.__m = await import(url);
           }""",
        source,
    )


def _b64(a: np.ndarray) -> str:
    return base64.b64encode(np.ascontiguousarray(a, dtype="<f8").tobytes()).decode()


def _floats(text: str) -> np.ndarray:
    return np.frombuffer(base64.b64decode(text), dtype="<f8")


_ATTENTION_JS = """([data, states]) => {
  const un = (s) => { const b = atob(s), a = new Uint8Array(b.length);
    for (let k = 0; k < b.length; k++) a[k] = b.charCodeAt(k); return new Float64Array(a.buffer); };
  const pack = (f) => { const b = new Uint8Array(f.buffer); let s = '';
    for (let k = 0; k < b.length; k++) s += String.fromCharCode(b[k]); return btoa(s); };
  const d = {X: un(data.X), W_Q: un(data.W_Q), W_K: un(data.W_K), W_V: un(data.W_V),
             d: data.d, width: data.width};
  return states.map(([h, n, d_k, causal, scaled]) => {
    const att = window.__m.selfAttention(d, h, n, d_k, d_k,
        {scaled, mask: causal ? window.__m.causalMask(n) : null});
    return [pack(att.Q), pack(att.scores), pack(att.weights), pack(att.Z)];
  });
}"""


def test_the_pages_arithmetic_equals_attnlib(tab):
    """Every d_k at three n and every n at three d_k, two seeds; causal masks; every head;
    unscaled passes: Q, scores, weights and Z equal attnlib's to 1e-12."""
    _module_page(tab)
    from attnlib.explorers.page import page_data
    from attnlib.maths.core import multi_head_attention
    from attnlib.maths.data import toy_multi_head

    checked = expected = 0
    for seed in (0, 7):
        data = page_data("attention", seed=seed, d=8)
        packed = {k: base64.b64encode(data[k]).decode() for k in ("X", "W_Q", "W_K", "W_V")}
        packed.update(d=data["d"], width=data["width"])
        states = [(0, n, d_k, False, True) for n in (2, 9, 32) for d_k in range(1, 65)]
        states += [(0, n, d_k, False, True) for n in range(2, 33) for d_k in (1, 4, 64)]
        states += [(0, n, d_k, True, True) for n in (2, 6, 32) for d_k in (1, 4, 64)]
        states += [(0, n, d_k, False, False) for n in (6, 32) for d_k in (4, 64)]
        states += [(h, 6, 4, causal, True) for h in range(8) for causal in (False, True)]
        got = tab.evaluate(_ATTENTION_JS, [packed, states])
        expected += len(states)
        for (h, n, d_k, causal, scaled), arrays in zip(states, got, strict=True):
            mask = causal_mask(n) if causal else None
            if h == 0:
                want = self_attention(*toy_example(n, d=8, d_k=d_k, seed=seed)[1:], mask=mask,
                                      scaled=scaled)  # fmt: skip
            else:
                ex = toy_multi_head(n, d=8, d_k=d_k, heads=h + 1, seed=seed)
                want = multi_head_attention(*ex[1:6], heads=h + 1, mask=mask).heads[h]
            for name, text in zip(("Q", "scores", "weights", "Z"), arrays, strict=True):
                mine = _floats(text).reshape(getattr(want, name).shape)
                reference = getattr(want, name)
                finite = np.isfinite(reference)
                assert (np.isfinite(mine) == finite).all(), (seed, h, n, d_k, causal, name)
                np.testing.assert_allclose(
                    mine[finite], reference[finite], rtol=0, atol=1e-12,
                    err_msg=f"seed {seed}, head {h}, n {n}, d_k {d_k}, causal {causal}: {name}",
                )  # fmt: skip
            checked += 1
    assert checked == expected > 600


def _cell_colours(page, panel_boxes, shapes) -> list[np.ndarray]:
    # The RGB at the centre of every cell of each panel, read from the canvas
    return [
        np.array(
            page.evaluate(
                """([box, rows, cols]) => {
                 const canvas = document.querySelector('canvas.attnlib-canvas');
                 const ctx = canvas.getContext('2d'), ratio = canvas.width / canvas.clientWidth;
                 const cell = Math.min(box.box / cols, box.box / rows), out = [];
                 for (let i = 0; i < rows; i++) for (let j = 0; j < cols; j++) {
                   const x = Math.floor((box.x + (j + 0.5) * cell) * ratio);
                   const y = Math.floor((box.y + (i + 0.5) * cell) * ratio);
                   out.push(Array.from(ctx.getImageData(x, y, 1, 1).data.slice(0, 3)));
                 }
                 return out;
               }""",
                [box, *shape],
            )
        ).reshape(*shape, 3)
        for box, shape in zip(panel_boxes, shapes, strict=True)
    ]


def _layout_boxes(page) -> list[dict]:
    return page.evaluate(
        "() => JSON.parse(document.querySelector('.attnlib-picture').dataset.boxes)"
    )


@pytest.mark.parametrize(
    "make",
    [
        lambda: AttentionExplorer(n=12, d_k=16, seed=3, heads=1, mask="causal", d=8),
        lambda: QKVExplorer(d_k=9, d_v=10, seed=1, n=12, d=8),
        lambda: EmbeddingExplorer(n=12, d=20, seed=2),
    ],
    ids=["attention", "qkv", "embedding"],
)
def test_every_cell_has_matplotlibs_colour(tab, tmp_path, make):
    e = make()
    tab.goto(write_html(e, tmp_path / "e.html", seeds=[e.controls["seed"]]).as_uri())
    tab.wait_for_selector("canvas.attnlib-canvas")
    panels = e.shown.panels
    shared = symmetric_limit(np.concatenate([p.matrix.ravel() for p in panels if p.share_limit])) \
        if any(p.share_limit for p in panels) else None  # fmt: skip
    colours = _cell_colours(tab, _layout_boxes(tab), [p.shape for p in panels])
    for p, got in zip(panels, colours, strict=True):
        if p.kind == "weights":
            low, high = 0.0, 1.0
        else:
            shown = p.matrix if p.mask is None else np.ma.array(p.matrix, mask=~p.mask)
            top = shared if p.share_limit else symmetric_limit(shown)
            low, high = -top, top
        cmap = colormaps["viridis" if p.kind == "weights" else "RdBu_r"].resampled(256)
        want = cmap(Normalize(low, high)(np.where(np.isfinite(p.matrix), p.matrix, 0)), bytes=True)
        want = want[..., :3].astype(int)
        if p.mask is not None:
            want[~p.mask] = (217, 217, 217)  # the masked cells' grey (attnlib's MASKED_COLOUR)
        # the diagonal's outline and a masked cell's hatching stay off the centre pixel
        assert (got == want).all(), (
            f"{p.title}: {int((got != want).any(axis=2).sum())} cells differ"
        )
    assert tab.problems == []


# one explorer of each family drawn from the toy sentence, at its defaults
EVERY_FAMILY = pytest.mark.parametrize(
    "make",
    [
        lambda: AttentionExplorer(n=6, d_k=4, seed=0, heads=1, mask="none", d=8),
        lambda: ScalingExplorer(d_k=4, seed=0, n=8, d=8),
        lambda: QKVExplorer(d_k=4, d_v=4, seed=0, n=6, d=8),
        lambda: EmbeddingExplorer(n=6, d=8, seed=0),
    ],
    ids=["attention", "scaling", "qkv", "embedding"],
)


def _picture(page) -> str:
    return page.evaluate("() => document.querySelector('canvas.attnlib-canvas').toDataURL()")


@EVERY_FAMILY
def test_a_static_page_moves_every_control_with_no_kernel(tab, tmp_path, make):
    """A file written by attnlib.explorers.static: every control moves the picture, in the
    browser alone, and nothing is asked of any server."""
    e = make()
    tab.goto(write_html(e, tmp_path / "e.html", seeds=range(3)).as_uri())
    tab.wait_for_selector("canvas.attnlib-canvas")
    names = tab.evaluate(
        "() => Array.from(document.querySelectorAll('[data-control]')).map(c => c.dataset.control)"
    )
    assert names == list(e.CONTROLS)
    for name in names:
        control = tab.locator(f"[data-control={name}]")
        before = _picture(tab)
        if name == "mask":
            control.select_option("causal")
        else:
            control.focus()
            tab.keyboard.press("ArrowRight")
        tab.wait_for_function(
            "(before) => document.querySelector('canvas.attnlib-canvas').toDataURL() !== before",
            arg=before, timeout=3000,
        )  # fmt: skip
    assert tab.problems == []


def test_the_keyboard_reaches_every_cell_of_every_head(tab, tmp_path):
    e = AttentionExplorer(n=5, d_k=4, seed=0, heads=4, mask="none", d=8)
    tab.goto(write_html(e, tmp_path / "e.html", seeds=[0]).as_uri())
    picture = tab.locator(".attnlib-picture")
    picture.focus()
    tab.keyboard.press("ArrowDown")  # the first key selects cell (0, 0) of head 0
    label = lambda: picture.get_attribute("aria-label")  # noqa: E731
    assert "head 0 of 4 · query 0 the → key 0 the" in label()
    for _ in range(5 * 3 + 2):  # right across heads 0, 1, 2 into head 3's column 2
        tab.keyboard.press("ArrowRight")
    assert "head 3 of 4" in label() and "key 2" in label()
    tab.keyboard.press("ArrowDown")
    assert "query 1" in label()
    summary = tab.locator(".attnlib-summary").text_content()
    assert summary.startswith("head 3 of 4 · query 1 cat → key 2 sat")
    # the outline is drawn in head 3's panel only
    boxes = _layout_boxes(tab)
    orange = [tab.evaluate(
        """(box) => { const c = document.querySelector('canvas.attnlib-canvas');
             const r = c.width / c.clientWidth, d = c.getContext('2d').getImageData(
                 box.x * r, box.y * r, box.box * r, box.box * r).data;
             let k = 0; for (let p = 0; p < d.length; p += 4)
               if (d[p] === 255 && d[p + 1] === 127 && d[p + 2] === 14) k++;
             return k; }""", box) for box in boxes]  # fmt: skip
    assert orange[3] > 0 and orange[:3] == [0, 0, 0], orange
    tab.keyboard.press("Escape")
    assert "Selected" not in label()
    assert tab.problems == []


@pytest.mark.parametrize("language", ["en", "zh"])
@pytest.mark.parametrize("heads", [1, 8])
def test_axe_finds_nothing_and_titles_do_not_overlap(tab, tmp_path, language, heads):
    if not AXE.exists():
        skip_or_fail(
            "axe-core is not installed: npm ci --prefix tests/browser/axe (make test does)"
        )
    import attnlib

    attnlib.set_language(language)
    try:
        e = AttentionExplorer(n=8, d_k=4, seed=0, heads=heads, mask="causal", d=8)
        path = write_html(e, tmp_path / "e.html", seeds=[0])
    finally:
        attnlib.set_language("en")
    tab.goto(path.as_uri())
    tab.wait_for_selector("canvas.attnlib-canvas")
    tab.locator(".attnlib-picture").focus()
    tab.keyboard.press("ArrowRight")  # a selection, so that its summary is checked too
    tab.add_script_tag(path=str(AXE))
    result = tab.evaluate("async () => await axe.run(document)")
    violations = [f"{v['id']}: {v['help']} ({len(v['nodes'])})" for v in result["violations"]]
    assert violations == []
    overlaps = tab.evaluate(
        "() => JSON.parse(document.querySelector('.attnlib-picture').dataset.titles)"
    )
    for a, b in itertools.pairwise(overlaps):
        if a["y"] == b["y"]:
            assert a["right"] <= b["left"], f"titles overlap: {a} and {b}"
    assert tab.problems == []


def test_a_move_is_drawn_in_the_frame_of_its_keypress(tab, tmp_path):
    """d_k and n at n = 32 (heads 1 and 4): the picture is drawn before the next frame."""
    for heads in (1, 4):
        e = AttentionExplorer(n=32, d_k=16, seed=0, heads=heads, mask="none", d=8)
        tab.goto(write_html(e, tmp_path / f"e{heads}.html", seeds=[0]).as_uri())
        tab.wait_for_selector("canvas.attnlib-canvas")
        tab.evaluate("""() => { window.__late = []; document.addEventListener('keydown', () => {
            const t0 = performance.now(), el = document.querySelector('.attnlib-page-explorer');
            requestAnimationFrame(() => window.__late.push(+el.dataset.drawn - t0)); }, true); }""")
        for name in ("d_k", "n"):
            tab.locator(f"[data-control={name}]").focus()
            for k in range(10):
                tab.keyboard.press("ArrowRight" if k % 2 else "ArrowLeft")  # n starts at 32
                tab.wait_for_timeout(30)
        late = tab.evaluate("() => window.__late")
        # drawn (a positive time after the keydown) before the frame that follows it
        assert len(late) == 20 and all(0 <= t for t in late), late
    assert tab.problems == []


def test_static_html_escapes_what_could_end_its_scripts(tmp_path):
    e = EmbeddingExplorer(n=6, d=8, seed=0)
    e.text = {**e.text, "token": "</script><b>x</b>"}
    text = write_html(e, tmp_path / "e.html", seeds=[0]).read_text()
    assert text.count("</script>") == 4  # state, two modules, the loader: nothing else ends one
    state = text.split('id="attnlib-state">')[1].split("</script>")[0]
    assert json.loads(state)["text"]["token"] == "</script><b>x</b>"


# --------------------------------------------------------------------------- in JupyterLab


def test_in_jupyterlab_a_move_is_drawn_without_the_kernel_and_python_learns_of_it(
    lab, lab_tab, lab_root, record_property
):
    """The page explorer in JupyterLab at n = 32: a d_k keypress is drawn before any
    message comes back from the kernel; Python then holds the new value (shown by an
    observer's Output); Python's own `e.d_k.value = ...` moves the page; ArrowDown on the
    mask menu stays in the menu instead of moving to the next notebook cell."""
    from . import notebooks, pages

    name = "_browser_tests/page_explorer.ipynb"
    notebooks.write_notebook(
        lab_root / name,
        [
            "import ipywidgets as widgets\n"
            "from attnlib.explorers import AttentionExplorer\n"
            "e = AttentionExplorer(n=32, d_k=16, seed=0, heads=1, mask='none', d=8)\n"
            "told = widgets.Output()\n"
            "e.observe(lambda c: told.append_stdout(f\"python d_k = {c['new']['d_k']}\\n\"),"
            " names='controls')\n"
            "display(e, told)",
            "e.d_k.value = 20",
        ],
    )
    page = lab_tab.page
    cells = pages.read_cells(lab_root / name)
    pages.open_notebook(page, lab, name, len(cells))
    pages.run_all_from_menu(page)
    problems = pages.wait_until_run(page, cells) + pages.output_problems(page, cells)
    assert not problems, "\n".join(problems)
    control = page.locator("[data-control=d_k]")
    page.wait_for_function("() => document.querySelector('[data-control=d_k]')?.value === '20'")
    page.evaluate(
        """() => { window.__late = []; document.addEventListener('keydown', () => {
             const t0 = performance.now(), el = document.querySelector('.attnlib-page-explorer');
             requestAnimationFrame(() => window.__late.push(+el.dataset.drawn - t0)); }, true); }"""
    )
    control.focus()
    page.keyboard.press("ArrowRight")
    page.wait_for_function("() => window.__late.length === 1")
    late = page.evaluate("() => window.__late[0]")
    assert 0 <= late, f"the move was not drawn in the frame of its keypress ({late:.1f} ms)"
    page.get_by_text("python d_k = 21").wait_for(timeout=5000)
    mask = page.locator("[data-control=mask]")
    mask.focus()
    active = page.evaluate(
        "() => document.querySelector('.jp-Notebook .jp-Cell.jp-mod-active')?.id"
    )
    page.keyboard.press("ArrowDown")
    assert page.evaluate("() => document.activeElement.dataset.control") == "mask"
    after = page.evaluate("() => document.querySelector('.jp-Notebook .jp-Cell.jp-mod-active')?.id")
    assert after == active, "ArrowDown on the mask menu moved JupyterLab to another cell"
    # axe-core on the explorer as JupyterLab shows it (JupyterLab's own page is not ours)
    if AXE.exists():
        page.add_script_tag(path=str(AXE))
        result = page.evaluate(
            "async () => await axe.run({include: Array.from("
            "document.querySelectorAll('.attnlib-page-explorer'))})"
        )
        violations = [f"{v['id']}: {v['help']}" for v in result["violations"]]
        assert violations == [], violations
    elif servers_in_ci():
        pytest.fail("axe-core is not installed (npm ci --prefix tests/browser/axe)")
    record_property("summary", f"JupyterLab page explorer: keypress drawn {late:.1f} ms after")
    assert lab_tab.problems() == []


# The page's module drawing the panels of one view (the learned explorer's way: panels
# sent by the kernel), with a stand-in for the widget model; the canvas as a data URL
_DRAW_PANELS_JS = """async ([source, state]) => {
  if (!window.__module) window.__module = await import(
    URL.createObjectURL(new Blob([source], {type: 'text/javascript'})));
  const raw = (b64) => { const s = atob(b64), a = new Uint8Array(s.length);
    for (let k = 0; k < s.length; k++) a[k] = s.charCodeAt(k); return new DataView(a.buffer); };
  const all = {...state, cmaps: Object.fromEntries(
    Object.entries(state.cmaps).map(([k, v]) => [k, raw(v)]))};
  const model = {get: (k) => all[k], set() {}, on() {}, off() {}, save_changes() {}};
  document.body.innerHTML = '<div id="e"></div>';
  window.__module.default.render({model, el: document.getElementById('e')});
  return document.querySelector('canvas.attnlib-canvas').toDataURL();
}"""


def test_every_field_of_panel_changes_the_pages_picture(tab):
    """Each field of Panel set and unset, sent as the kernel sends a panel (panel_for_page):
    the page draws something else, except for the fields PAGE_IGNORES lists, where it
    draws the same."""
    from attnlib.explorers.page import cmap_table, panel_for_page
    from tests.panel_fields import BASE, CASES, PAGE_IGNORES, SHARING

    tab.set_content("<!DOCTYPE html><html><body></body></html>")
    source = (FRONT / "explorer.js").read_text(encoding="utf-8")
    cmaps = {k: base64.b64encode(cmap_table(k)).decode() for k in ("viridis", "RdBu_r")}

    def drawn(panel) -> str:
        view = {"panels": [{**panel_for_page(p), "pass": 0} for p in (panel, SHARING)],
                "passes": [], "readout": "", "match": 0}  # fmt: skip
        state = {
            "family": "views", "controls": {"step": 0, "example": 0}, "fixed": {},
            "limits": {"step": {"caption": "step", "tooltip": "", "low": 0, "high": 0,
                                "labels": [0]},
                       "example": {"caption": "example", "tooltip": "", "low": 0, "high": 0}},
            "data": {"d": 0, "width": 0, "heads": 0, "seed": 0}, "token_labels": [],
            "text": {}, "cmaps": cmaps, "views": [[view]], "selection": [1, 1, 0],
            "details": "", "size": "normal", "language": "en", "hint": "", "error": "",
            "replay": {},
        }  # fmt: skip
        return tab.evaluate(_DRAW_PANELS_JS, [source, state])

    unset = drawn(BASE)
    assert drawn(BASE) == unset  # the same panel, the same picture
    cases = [*CASES, ("selectable", True)]  # a selected cell is outlined where selectable
    for name, value in cases:
        changed = drawn(dataclasses.replace(BASE, **{name: value}))
        if name in PAGE_IGNORES:
            assert changed == unset, f"the page draws {name}: take it out of PAGE_IGNORES"
        else:
            assert changed != unset, f"the page draws nothing for {name}={value!r}"
    assert tab.problems == []


_FAMILY_JS = """([family, data, controls, fixed, tokens, text]) => {
  const un = (s) => { const b = atob(s), a = new Uint8Array(b.length);
    for (let k = 0; k < b.length; k++) a[k] = b.charCodeAt(k); return new Float64Array(a.buffer); };
  const numbers = {X: un(data.X), W_Q: un(data.W_Q), W_K: un(data.W_K), W_V: un(data.W_V),
                   d: data.d, width: data.width, heads: data.heads, seed: data.seed};
  const state = {family, controls, fixed, tokens, data: numbers,
                 t: (key) => text[key] ?? key};
  const shown = window.__m.FAMILIES[family](state);
  return {readout: shown.readout, panels: shown.panels.map((p) => ({...p,
    matrix: Array.from(p.matrix), mask: p.mask ? Array.from(p.mask, Boolean) : null}))};
}"""


def _moves(e) -> list[dict]:
    """Each control of `e` moved alone to each end of its range (a menu: to each choice)."""
    moves = []
    for name, spec in e.limits.items():
        ends = [v for v, _ in spec["choices"]] if "choices" in spec else [spec["low"], spec["high"]]
        moves += [{name: value} for value in ends if value != e.controls[name]]
    return moves


@pytest.mark.parametrize("language", ["en", "zh"])
@pytest.mark.parametrize(
    "make",
    [
        lambda: AttentionExplorer(n=6, d_k=4, seed=0, heads=1, mask="none", d=8),
        lambda: AttentionExplorer(n=5, d_k=2, seed=1, heads=4, mask="causal", d=8),
        lambda: ScalingExplorer(d_k=16, seed=0, n=8, d=8),
        lambda: QKVExplorer(d_k=4, d_v=3, seed=0, n=6, d=8),
        lambda: EmbeddingExplorer(n=6, d=8, seed=0),
    ],
    ids=["attention", "heads-causal", "scaling", "qkv", "embedding"],
)
def test_the_pages_panels_and_readout_are_the_views(tab, make, language):
    """What each family of the page builds (FAMILIES in explorer.js) is the Python view of
    the same controls, at the explorer's values and with each control moved alone to the
    ends of its range: every field of every panel (PAGE_IGNORES aside) and the readout.
    An option set in attnlib's panels and not in the page's family fails here, and so
    does a new control the page's family does not follow."""
    from attnlib import set_language
    from attnlib.explorers.page import page_key, panel_for_page
    from tests.panel_fields import PAGE_IGNORES

    _module_page(tab)
    names = [page_key(f.name) for f in dataclasses.fields(Panel)]
    defaults = {page_key(f.name): f.default for f in dataclasses.fields(Panel)}
    set_language(language)
    try:
        base = make()
        states = [{}, *_moves(base)]
        for moved in states:
            e = make()
            e.set_controls(**moved)
            view = e.shown
            data = {k: base64.b64encode(v).decode() if isinstance(v, bytes) else v
                    for k, v in e.data.items()}  # fmt: skip
            got = tab.evaluate(
                _FAMILY_JS, [e.family, data, e.controls, e.fixed, e.token_labels, e.text]
            )
            where = f"{e!r} {moved}"
            assert len(got["panels"]) == len(view.panels), where
            for k, (mine, panel) in enumerate(zip(got["panels"], view.panels, strict=True)):
                want = panel_for_page(panel)
                assert (mine["rows"], mine["cols"]) == panel.shape, where
                shown = np.array(mine["matrix"], dtype=float).reshape(panel.shape)
                np.testing.assert_allclose(shown, panel.matrix, rtol=0, atol=1e-12, err_msg=where)
                mask = mine["mask"] and np.array(mine["mask"]).reshape(panel.shape)
                assert (mask is None) == (panel.mask is None), f"{where}, panel {k}: mask"
                assert mask is None or (mask == panel.mask).all(), f"{where}, panel {k}: mask"
                for name in names:
                    if name in ("matrix", "mask") or name in map(page_key, PAGE_IGNORES):
                        continue
                    mine_value = mine.get(name, defaults[name])
                    assert mine_value == want[name], f"{where}, panel {k}: {name}"
            assert got["readout"] == view.readout, where
    finally:
        set_language("en")
    assert len(states) > 3 and tab.problems == []


def test_the_page_writes_numbers_as_python_formats_them(tab):
    """fixedText is f"{v:.Nf}" and formatValue is format_value, ties included (1/8 = 0.125:
    "0.12"; toFixed writes "0.13")."""
    from attnlib.pictures.heatmap import format_value

    _module_page(tab)
    rng = np.random.default_rng(0)
    values = [k / 16 for k in range(-40, 41)] + [k / 1000 + 0.0005 for k in range(-50, 50)]
    values += (rng.normal(size=200) * 10.0 ** rng.integers(-3, 3, size=200)).tolist()
    values += [0.0, -0.001, 9.995, 99.95, 123456.785, 2.5, 3.5, -2.5]
    got = tab.evaluate(
        """(values) => values.map((v) => [0, 1, 2].map((d) => window.__m.fixedText(v, d))
                                 .concat([window.__m.formatValue(v)]))""",
        values,
    )
    want = [[f"{v:.0f}", f"{v:.1f}", f"{v:.2f}", format_value(v)] for v in values]
    assert got == want


_SENT_CONTROLS_JS = """async ([source, state]) => {
  if (!window.__module) window.__module = await import(
    URL.createObjectURL(new Blob([source], {type: 'text/javascript'})));
  const raw = (b64) => { const s = atob(b64), a = new Uint8Array(s.length);
    for (let k = 0; k < s.length; k++) a[k] = s.charCodeAt(k); return new DataView(a.buffer); };
  const unpack = (d) => Object.fromEntries(Object.entries(d).map(
    ([k, v]) => [k, typeof v === 'string' && k !== 'seed' ? raw(v) : v]));
  const all = {...state, data: unpack(state.data), cmaps: unpack(state.cmaps)};
  const sent = [];
  const model = {get: (k) => all[k], set: (k, v) => { all[k] = v; sent.push([k, v]); },
                 on() {}, off() {}, save_changes() {}};
  document.body.innerHTML = '<div id="e"></div>';
  window.__module.default.render({model, el: document.getElementById('e')});
  for (const input of document.querySelectorAll('[data-control]')) {  // each moved once
    if (input.tagName === 'SELECT') input.selectedIndex = (input.selectedIndex + 1) % input.length;
    else input.value = String(Number(input.value) < Number(input.max)
                              ? Number(input.value) + 1 : Number(input.min));
    input.dispatchEvent(new Event('input'));
  }
  return sent.filter(([k]) => k === 'controls').map(([, v]) => Object.keys(v).sort());
}"""


@EVERY_FAMILY
def test_the_page_tells_the_kernel_the_explorers_controls_and_no_others(tab, make):
    """After each move the page sends the explorer's controls, by their names only: a name
    the explorer does not have (heads, from a scaling explorer) broke the view in Python."""
    e = make()
    state = {name: getattr(e, name) for name in e.keys if not name.startswith("_")}
    state = {k: v for k, v in state.items() if k not in ("layout", "tabbable", "tooltip", "comm")}
    for name in ("data", "cmaps"):
        state[name] = {k: base64.b64encode(v).decode() if isinstance(v, bytes) else v
                       for k, v in state[name].items()}  # fmt: skip
    source = (FRONT / "explorer.js").read_text(encoding="utf-8")
    tab.set_content("<!DOCTYPE html><html><body></body></html>")
    sent = tab.evaluate(_SENT_CONTROLS_JS, [source, state])
    assert len(sent) == len(e.CONTROLS)
    assert all(names == sorted(e.CONTROLS) for names in sent), sent
    assert tab.problems == []
