"""Every notebook, run in JupyterLab in headless Chromium as a learner would run it
(run_notebook serves Notebook 7 too: test_notebook7.py).

Run > Run All Cells from the menu; then no error output, no widget shown as text,
no browser console error, no request off this machine, no news pop-up; every
slider of every explorer redraws its picture in place. The last tests prove the
detectors: a notebook broken on purpose must trip each of them.
"""

from __future__ import annotations

import re
import time

import pytest

from . import notebooks, pages
from .conftest import artifact
from .servers import NOTEBOOKS

NOTEBOOK_NAMES = sorted(p.name for p in NOTEBOOKS.glob("*.ipynb"))
EXPLORER_CALL = re.compile(r"\b\w*explorer\(", re.I)
# JupyterLab's question on first start; the project's settings (jupyter/lab) say no
NEWS_PROMPT = re.compile(r"official Jupyter news", re.I)
FRONT_END = {"lab": "JupyterLab", "notebook": "Notebook 7"}


def run_notebook(
    tab, server, root, name: str, app: str = "lab", timeout_ms: int = 5000
) -> tuple[list[str], dict]:
    """Open `name` (relative to the server's root) in JupyterLab or Notebook 7,
    Run All from the menu, wait, and return (problems, facts). Explorer checks run
    only if the notebook finished."""
    page = tab.page
    cells = pages.read_cells(root / name)
    started = time.perf_counter()
    pages.open_notebook(page, server, name, len(cells), app=app)
    pages.run_all_from_menu(page)
    problems = pages.wait_until_run(page, cells)
    facts = {"run_s": time.perf_counter() - started, "explorers": 0, "sliders": 0, "moves": 0}
    problems += pages.output_problems(page, cells)
    if not any(p.startswith(("not finished", "a dialog")) for p in problems):
        # Notebook 7 takes the arrow keys for its own cursor even on a focused slider
        # (they move to the next heading): there, sliders are dragged with the mouse
        found, counts = pages.check_explorers(page, timeout_ms=timeout_ms, drag=app == "notebook")
        problems += found
        facts.update(counts)
        # a redraw that raises shows its traceback in the explorer, under the picture
        problems += [
            f"after the slider moves, {p}"
            for p in pages.output_problems(page, cells)
            if p not in problems
        ]
        calls = [c for c in cells if c["type"] == "code" and EXPLORER_CALL.search(c["source"])]
        if calls and counts["explorers"] == 0:
            problems.append(
                f"{len(calls)} cell(s) call an explorer but the page shows none "
                f"(an explorer is a widget with a slider and a picture)"
            )
    news = NEWS_PROMPT.search(page.evaluate("() => document.body.innerText"))
    if news:
        problems.append(f"a pop-up asks about {news.group(0)!r}")
    excused = pages.NOTEBOOK7_OWN_ERRORS if app == "notebook" else []
    problems += [p for p in tab.problems() if not any(e.search(p) for e in excused)]
    facts["total_s"] = time.perf_counter() - started
    return problems, facts


def report(problems: list[str], title: str) -> str:
    return f"{title}:\n" + "\n".join(f"- {p}" for p in problems)


def summary(front_end: str, name: str, facts: dict) -> str:
    return (
        f"{front_end} {name}: {facts['total_s']:.1f} s; {facts['explorers']} explorer(s), "
        f"{facts['sliders']} slider(s), {facts['moves']} moves"
    )


@pytest.mark.parametrize("name", NOTEBOOK_NAMES)
def test_notebook_in_lab(lab, lab_tab, lab_root, name, record_property):
    problems, facts = run_notebook(lab_tab, lab, lab_root, name)
    record_property("summary", summary("JupyterLab", name, facts))
    assert not problems, report(problems, f"{name} in JupyterLab")


# What the keypress test asserts, printed beside the figure. Generous on purpose: a
# loaded CI machine must not flake. The explorers aim much lower (issue 9: 80 ms).
KEYPRESS_LIMIT_MS = 1000


def test_main_explorer_keypress_to_picture(lab, lab_tab, lab_root, record_property):
    """attnlib.explorer at n = 32: time from keydown to the new picture on screen,
    over 20 moves of its seed (or d_k) slider, after one warm-up move."""
    name = "_browser_tests/main_explorer_n32.ipynb"
    notebooks.write_notebook(lab_root / name, ["import attnlib\nattnlib.explorer(n=32)"])
    page = lab_tab.page
    cells = pages.read_cells(lab_root / name)
    pages.open_notebook(page, lab, name, len(cells))
    pages.run_all_from_menu(page)
    problems = pages.wait_until_run(page, cells) + pages.output_problems(page, cells)
    assert not problems, report(problems, "attnlib.explorer(n=32)")
    assert pages.mark_explorers(page) == 1, "attnlib.explorer(n=32) shows no explorer"

    sliders = pages.sliders(page, 0)
    by_label = {s.label: k for k, s in enumerate(sliders)}
    n = next((s for s in sliders if s.label.strip() == "n"), None)
    assert n is None or n.value == 32, f"the n slider shows {n and n.value:g}, not 32"
    target = next(
        (k for lab_, k in by_label.items() if re.search(r"seed", lab_, re.I)),
        next((k for lab_, k in by_label.items() if re.search(r"d.?k", lab_, re.I)), None),
    )
    assert target is not None, f"no seed or d_k slider among {list(by_label)}"

    explorer = page.locator('[data-bt-explorer="0"]')
    explorer.scroll_into_view_if_needed()
    latencies = []
    for move in range(21):
        problem, ms = pages.move(page, 0, target)
        assert problem is None, f"move {move + 1} of {sliders[target].label!r}: {problem}"
        if move:  # the first move warms up caches and the websocket; not counted
            latencies.append(ms)
    median, p95 = pages.timing(latencies)
    explorer.screenshot(path=artifact("lab-main-explorer-n32.png"))
    page.screenshot(path=artifact("lab-main-explorer-n32-page.png"))
    record_property("keypress_to_picture_median_ms", round(median, 1))
    record_property("keypress_to_picture_p95_ms", round(p95, 1))
    record_property(
        "summary",
        f"attnlib.explorer(n=32), {len(latencies)} moves of "
        f"{sliders[target].label!r}: keypress-to-picture median "
        f"{median:.0f} ms, p95 {p95:.0f} ms (asserted: median < {KEYPRESS_LIMIT_MS} ms)",
    )
    watched = lab_tab.problems()
    assert not watched, report(watched, "browser console and requests")
    assert median < KEYPRESS_LIMIT_MS, (
        f"keypress-to-picture median {median:.0f} ms (p95 {p95:.0f} ms)"
    )


# --------------------------------------------------------------------------- the detectors


def test_detectors_on_a_broken_notebook(lab, lab_tab, lab_root):
    """One notebook, one kernel: a working stand-in explorer must pass (the harness
    works without the real notebooks), and each defect must be reported: sliders
    wired to nothing (a stand-in and attnlib's own explorer), a redraw that raises,
    a widget shown as text, a console error, a request off this machine, a raising
    cell. Dead pictures are waited for 2 s, not 5."""
    name = "_browser_tests/broken.ipynb"
    notebooks.fixture_broken(lab_root / name)
    problems, facts = run_notebook(lab_tab, lab, lab_root, name, timeout_ms=2000)
    text = "\n".join(problems)
    assert facts["explorers"] == 4, facts
    assert "explorer 1," not in text, f"the working stand-in explorer was flagged:\n{text}"
    expected = {
        "stand-in slider wired to nothing": r"explorer 2, slider 'n': ArrowRight moved the "
        r"slider 8 -> 9 but the picture did not change",
        "attnlib explorer wired to nothing": r"explorer 3, slider 'n': ArrowRight moved the "
        r"slider 8 -> 9 but the picture did not change",
        "attnlib explorer whose redraw raises": r"explorer 4, slider 'n': .* did not change",
        "its traceback under the picture": r"after the slider moves, cell 5 .*error output:"
        r"[\s\S]*ZeroDivisionError",
        "widget as text": r"cell 6 .*a widget shown as text: 'IntSlider\(value=4",
        "browser console error": r"console\.error: deliberate console error for the detector",
        "request off this machine": r"a request off this machine \(blocked\): "
        r"https://example\.invalid/pixel\.png",
        "error output": r"cell 9 .*error output:[\s\S]*ValueError: deliberate error",
    }
    missed = [what for what, pattern in expected.items() if not re.search(pattern, text)]
    assert not missed, f"detectors missed {missed}; they reported:\n{text}"
