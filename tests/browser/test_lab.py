"""Every notebook, run in JupyterLab in headless Chromium as a learner would run it
(run_notebook serves Notebook 7 too: test_notebook7.py).

Run > Run All Cells from the menu; then no error output, no answer in view (each
stays closed until the learner opens it), no widget shown as text,
no browser console error, no request off this machine, no news pop-up; every
slider of every explorer redraws its picture in place. The last tests prove the
detectors: a notebook broken on purpose must trip each of them.
"""

from __future__ import annotations

import re
import statistics
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
# Run > Run All Cells, as the menus say it in English and with the zh-CN language pack
RUN_ALL = {"en": ("Run", "Run All Cells"), "zh": ("运行", "运行所有单元格")}
# Sliders that a notebook's explorers must show (and that check_explorers moves):
# the learned explorer's step and example, the main explorer's heads.
MUST_MOVE = {
    "05_weighted_sum.ipynb": {"n", "d_k", "seed", "heads"},
    "06_learned_attention.ipynb": {"step", "example"},
    "07_next_steps.ipynb": {"n", "d_k", "seed", "heads"},
    "classroom.ipynb": {"step", "example", "heads"},
}


def unmoved(name: str, names: list[str]) -> list[str]:
    """The sliders of MUST_MOVE, by their names in the code, that no move reached."""
    missing = sorted(MUST_MOVE.get(name, set()) - set(names))
    return [f"no explorer slider {m!r} was moved (sliders: {names})" for m in missing]


def run_notebook(
    tab, server, root, name: str, app: str = "lab", timeout_ms: int = 5000, menu=RUN_ALL["en"]
) -> tuple[list[str], dict]:
    """Open `name` (relative to the server's root) in JupyterLab or Notebook 7,
    Run All from the menu (`menu`: its names in the page's language), wait, and
    return (problems, facts). Explorer checks run only if the notebook finished."""
    page = tab.page
    cells = pages.read_cells(root / name)
    started = time.perf_counter()
    pages.open_notebook(page, server, name, len(cells), app=app)
    opened = time.perf_counter()
    pages.run_all_from_menu(page, menu=menu[0], item_name=menu[1])
    problems = pages.wait_until_run(page, cells)
    facts = {
        "open_s": opened - started,
        "run_s": time.perf_counter() - opened,
        "moves_s": 0.0,
        "explorers": 0,
        "sliders": 0,
        "moves": 0,
    }
    problems += pages.output_problems(page, cells)
    # no answer shows until the learner opens it (the Deeper sections' ones too)
    problems += pages.answer_problems(page, cells)
    # the explorers of the collapsed "Deeper" sections too: open them all first
    if pages.expand_all_headings(page) < 0:
        problems.append("a collapsed section did not open when its 'cells hidden' was clicked")
    problems += [p for p in pages.answer_problems(page, cells) if p not in problems]
    if not any(p.startswith(("not finished", "a dialog")) for p in problems):
        # Notebook 7 takes the arrow keys for its own cursor even on a focused slider
        # (they move to the next heading): there, sliders are dragged with the mouse
        moving = time.perf_counter()
        found, counts = pages.check_explorers(page, timeout_ms=timeout_ms, drag=app == "notebook")
        facts["moves_s"] = time.perf_counter() - moving
        problems += found + unmoved(name, counts["names"])
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
    # text drawn as boxes: characters that the page's fonts lack
    moving = time.perf_counter()
    found, facts["characters"] = pages.boxes(page)
    facts["boxes_s"] = time.perf_counter() - moving
    problems += found
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
        f"{front_end} {name}: {facts['total_s']:.1f} s (open {facts['open_s']:.1f}, run "
        f"{facts['run_s']:.1f}, sliders {facts['moves_s']:.1f}); {facts['explorers']} "
        f"explorer(s), {facts['sliders']} slider(s), {facts['moves']} moves"
    )


@pytest.mark.parametrize("name", NOTEBOOK_NAMES)
def test_notebook_in_lab(lab, lab_tab, lab_root, name, record_property):
    problems, facts = run_notebook(lab_tab, lab, lab_root, name)
    record_property("summary", summary("JupyterLab", name, facts))
    assert not problems, report(problems, f"{name} in JupyterLab")


# What the keypress test asserts, printed beside the figure. Generous on purpose: a
# loaded CI machine must not flake. The explorers aim much lower (issues 9, 10: a
# median of 80 ms, with a cell selected).
KEYPRESS_LIMIT_MS = 1000
KEYPRESS_TARGET_MS = 80

# The main explorer's notebook for the click, control and keypress checks: one
# kernel, two explorers (small enough to show the numbers in its cells; n = 32).
MAIN_EXPLORERS = {"small": dict(n=6, d_k=4, seed=0), "n32": dict(n=32)}


def check_cell_click(page, i: int, kwargs: dict, cell, panel: int) -> tuple[list[str], float]:
    """Click `cell` (i, j) of `panel` in explorer `i` (made by ``attnlib.explorer(**kwargs)``);
    the breakdown under the picture must name that query and key and show the cell's
    score, as drawn in the cell. Returns (problems, ms from mouse-down to the outline)."""
    import attnlib
    from attnlib.pictures.heatmap import format_value

    row, col = cell
    ex = attnlib.toy_example(**{k: v for k, v in kwargs.items() if k in ("n", "d_k", "seed")})
    att = attnlib.self_attention(ex.X, ex.W_Q, ex.W_K, ex.W_V)
    problem, ms = pages.click_cell(page, i, cell, panel)
    if problem:
        return [f"cell {cell} of panel {panel}: {problem}"], None
    names = f"query i = {row} '{ex.tokens[row]}', key j = {col} '{ex.tokens[col]}'"
    problem = pages.wait_for_breakdown(page, i, names)
    if problem:
        return [f"after a click on cell {cell} of panel {panel}: {problem}"], ms
    return score_problems(pages.breakdown(page, i), att.scores, cell, format_value), ms


def score_problems(text: str, scores, cell, format_value) -> list[str]:
    """The breakdown's last line `score_ij = s`: s is the score (to the digits shown) and
    rounds to the number drawn in the cell."""
    row, col = cell
    shown = re.findall(rf"score\s*{row},{col} = (-?\d+\.\d+)", text)
    if not shown:
        return [f"the breakdown of {cell} shows no 'score{row},{col} = ...': {text[:200]!r}"]
    value, digits = float(shown[-1]), len(shown[-1].split(".")[1])
    problems = []
    if abs(value - scores[row, col]) > 0.6 * 10**-digits:
        problems.append(
            f"breakdown of {cell}: score {shown[-1]}, scores[{row}, {col}] = {scores[row, col]:.6f}"
        )
    if format_value(value) != format_value(scores[row, col]):
        problems.append(
            f"breakdown of {cell}: score {shown[-1]} but the cell shows "
            f"{format_value(scores[row, col])}"
        )
    return problems


def test_main_explorer_click_controls_and_keypress(lab, lab_tab, lab_root, record_property):
    """attnlib.explorer in JupyterLab, by hand: click a cell of each heatmap and read the
    breakdown; choose a cell with the arrow keys on the focused picture (the keyboard
    route); choose the mask's "causal"; move heads to 2. Then at n = 32, with a cell
    selected, time keydown to the new picture on screen over 20 moves of seed and 20 of
    d_k, after one warm-up each."""
    import attnlib

    name = "_browser_tests/main_explorer.ipynb"
    notebooks.write_notebook(
        lab_root / name,
        [
            "import attnlib\nfrom IPython.display import display",
            *(
                f"display(attnlib.explorer({', '.join(f'{k}={v}' for k, v in kw.items())}))"
                for kw in MAIN_EXPLORERS.values()
            ),
        ],
    )
    page = lab_tab.page
    cells = pages.read_cells(lab_root / name)
    pages.open_notebook(page, lab, name, len(cells))
    pages.run_all_from_menu(page)
    problems = pages.wait_until_run(page, cells) + pages.output_problems(page, cells)
    assert not problems, report(problems, "attnlib.explorer notebook")
    assert pages.mark_explorers(page) == 2, "the notebook does not show two explorers"
    small, big = 0, 1

    # click a cell of the scores, then one of the weights
    click_ms = []
    for cell, panel in (((2, 4), 0), ((4, 1), 1)):
        found, ms = check_cell_click(page, small, MAIN_EXPLORERS["small"], cell, panel)
        problems += found
        click_ms += [ms] if ms is not None else []
    page.locator('[data-bt-explorer="0"]').screenshot(
        path=artifact("lab-main-explorer-selected.png")
    )
    # the keyboard route
    ex = attnlib.toy_example(**MAIN_EXPLORERS["small"])
    pages.choose_cell(page, small, 3, 0)
    problem = pages.wait_for_breakdown(page, small, f"query i = 3 '{ex.tokens[3]}', key j = 0")
    problems += [f"the query i / key j menus: {problem}"] if problem else []
    if not problem:
        att = attnlib.self_attention(ex.X, ex.W_Q, ex.W_K, ex.W_V)
        from attnlib.pictures.heatmap import format_value

        problems += score_problems(pages.breakdown(page, small), att.scores, (3, 0), format_value)
    # the mask and heads controls (issue 12)
    problem = pages.choose(page, small, "mask", "causal")
    problems += [f"mask: {problem}"] if problem else []
    if "scores blocked" not in pages.explorer_text(page, small):
        problems.append("mask 'causal': the readout does not say 'scores blocked'")
    heads = pages.slider_index(page, small, "heads")
    if heads is None:
        problems.append("no heads slider in attnlib.explorer()")
    else:
        problem, _ = pages.move(page, small, heads, "ArrowRight")
        problems += [f"heads 1 -> 2: {problem}"] if problem else []
        if "heads = 2" not in pages.explorer_text(page, small):
            problems.append("heads 2: the readout does not say 'heads = 2'")
    page.locator('[data-bt-explorer="0"]').screenshot(
        path=artifact("lab-main-explorer-causal-2heads.png")
    )

    # n = 32 with a cell selected: keypress to picture, d_k (drawn in the page) and seed
    # (the kernel sends the new seed's numbers)
    sliders = pages.sliders(page, big)
    n = next((s for s in sliders if s.name == "n"), None)
    assert n is not None and n.value == 32, f"the n slider shows {n and n.value:g}, not 32"
    target = pages.slider_index(page, big, "seed")
    assert target is not None, f"no seed slider among {[s.name for s in sliders]}"
    in_page = pages.slider_index(page, big, "d_k")
    pages.choose_cell(page, big, 20, 7)
    problem = pages.wait_for_breakdown(page, big, "query i = 20")
    assert problem is None, f"n = 32, choosing cell (20, 7): {problem}"
    explorer = page.locator('[data-bt-explorer="1"]')
    explorer.scroll_into_view_if_needed()
    latencies, steps, d_k_ms = [], [], []
    for move in range(21):
        problem, ms = pages.move(page, big, target)
        assert problem is None, f"move {move + 1} of 'seed': {problem}"
        if move:  # the first move warms up caches and the websocket; not counted
            latencies.append(ms)
            steps.append(pages.move_steps(page))
    for move in range(21):
        problem, ms = pages.move(page, big, in_page)
        assert problem is None, f"move {move + 1} of 'd_k': {problem}"
        if move:
            d_k_ms.append(ms)
    d_k_median, d_k_p95 = pages.timing(d_k_ms)
    record_property("keypress_d_k_median_ms", round(d_k_median, 1))
    if "query i = 20" not in pages.breakdown(page, big):
        problems.append("n = 32: the selection was lost while seed moved")
    median, p95 = pages.timing(latencies)
    explorer.screenshot(path=artifact("lab-main-explorer-n32.png"))
    page.screenshot(path=artifact("lab-main-explorer-n32-page.png"))
    record_property("keypress_to_picture_median_ms", round(median, 1))
    # where the time goes: the median of each step's time after the keydown
    step_medians = {
        k: round(statistics.median(v), 1)
        for k in pages.MOVE_STEPS
        if (v := [s[k] for s in steps if s[k] is not None])
    }
    record_property("keypress_steps_median_ms", step_medians)
    record_property("keypress_to_picture_p95_ms", round(p95, 1))
    record_property("click_to_picture_ms", [round(ms) for ms in click_ms])
    record_property(
        "summary",
        f"attnlib.explorer: clicks on 2 cells ({', '.join(f'{ms:.0f}' for ms in click_ms)} ms "
        f"to the outline), the keyboard, mask, heads; n = 32 with a cell selected, "
        f"{len(d_k_ms)} moves of d_k: keypress-to-picture median {d_k_median:.1f} ms, "
        f"p95 {d_k_p95:.1f} ms; {len(latencies)} moves of seed: median {median:.0f} ms, "
        f"p95 {p95:.0f} ms (target median <= {KEYPRESS_TARGET_MS} ms; asserted: "
        f"< {KEYPRESS_LIMIT_MS} ms); medians after the keydown: "
        + ", ".join(f"{k} {v:.0f}" for k, v in step_medians.items()),
    )
    problems += lab_tab.problems()
    assert not problems, report(problems, "attnlib.explorer by hand")
    assert median < KEYPRESS_LIMIT_MS, (
        f"keypress-to-picture median {median:.0f} ms (p95 {p95:.0f} ms)"
    )


# --------------------------------------------------------------------------- the detectors


def test_answer_detector_finds_answers_in_view(lab, lab_tab, lab_root):
    """After Run All an answer must stay closed: a line of a closed answer printed in
    plain view, an open answer section, one the sources do not account for and the
    code of an answer cell left in view are each reported (the real notebooks' runs
    above must report none)."""
    name = "_browser_tests/answers.ipynb"
    notebooks.fixture_answers(lab_root / name)
    cells = pages.read_cells(lab_root / name)
    page = lab_tab.page
    pages.open_notebook(page, lab, name, len(cells))
    pages.run_all_from_menu(page)
    assert not pages.wait_until_run(page, cells)
    text = "\n".join(pages.answer_problems(page, cells))
    expected = {
        "a line shown twice": r"an answer's line shows outside its closed section: "
        r"'alpha_12 = 0\.4223 exactly'",
        "an open section": r"1 answer section\(s\) open after Run All",
        "a section no source made": r"2 closed answer sections on the page, expected 1",
        "the code of an answer cell in view": r"the code of 2 answer cell\(s\) shows after Run All",
    }
    missed = [what for what, pattern in expected.items() if not re.search(pattern, text)]
    assert not missed, f"the answer detector missed {missed}; it reported:\n{text}"


def test_detectors_on_a_broken_notebook(lab, lab_tab, lab_root):
    """One notebook, one kernel: a working stand-in explorer must pass (the harness
    works without the real notebooks), and each defect must be reported: sliders
    wired to nothing (a stand-in), an attnlib explorer whose new seed never comes and
    one whose kernel raises on it (its error shown under the picture),
    a widget shown as text, a console error, a request off this machine, a merge
    conflict left in the text, Chinese in a figure font without it, a character that
    no font has, a raising cell. Dead pictures are waited for 2 s, not 5."""
    name = "_browser_tests/broken.ipynb"
    notebooks.fixture_broken(lab_root / name)
    problems, facts = run_notebook(lab_tab, lab, lab_root, name, timeout_ms=2000)
    text = "\n".join(problems)
    assert facts["explorers"] == 4, facts
    assert "explorer 1," not in text, f"the working stand-in explorer was flagged:\n{text}"
    expected = {
        "stand-in slider wired to nothing": r"explorer 2, slider 'n': ArrowRight moved the "
        r"slider 8 -> 9 but the picture did not change",
        "attnlib explorer whose seed never comes": r"explorer 3, slider 'seed': ArrowRight "
        r"moved the slider 0 -> 1 but the picture did not change",
        "attnlib explorer whose kernel raises": r"explorer 4, slider 'seed': .* did not change",
        "its traceback under the picture": r"after the slider moves, cell 5 .*error output:"
        r"[\s\S]*ZeroDivisionError",
        "widget as text": r"cell 6 .*a widget shown as text: 'IntSlider\(value=4",
        "browser console error": r"console\.error: deliberate console error for the detector",
        "request off this machine": r"a request off this machine \(blocked\): "
        r"https://example\.invalid/pixel\.png",
        "merge conflict marker": r"cell 9 .*a merge conflict marker in the text shown: "
        r"'<<<<<<< local'",
        "matplotlib's missing-glyph warning": r"cell 10 .*a character drawn as a box in a "
        r"figure:[\s\S]*Glyph 27880 .*missing from font",
        "a character no font has": r"drawn as a box: \S+ \(U\+F0000\) in "
        r"'no font draws this: ",
        "error output": r"cell 12 .*error output:[\s\S]*ValueError: deliberate error",
    }
    missed = [what for what, pattern in expected.items() if not re.search(pattern, text)]
    assert not missed, f"detectors missed {missed}; they reported:\n{text}"

    # The mouse drags that Notebook 7's tests use: a drag moves the working stand-in,
    # and a handle the pointer cannot take hold of is reported, not dragged blind
    page = lab_tab.page
    assert pages.move(page, 0, 0, drag=True)[0] is None, "dragging the stand-in failed"
    page.evaluate(
        "() => { const d = document.createElement('div'); d.className = 'bt-cover';"
        " d.style.cssText = 'position: fixed; inset: 0; z-index: 10000';"
        " document.body.appendChild(d); }"
    )
    covered, _ = pages.move(page, 0, 0, drag=True)
    assert covered == (
        "dragging right: the pointer cannot take hold of the handle: div.bt-cover is over it"
    ), covered
    page.evaluate(
        "() => { document.querySelector('.bt-cover').remove();"
        " document.querySelector('[data-bt-explorer=\"0\"] .noUi-target')"
        ".setAttribute('disabled', ''); }"
    )
    disabled, _ = pages.move(page, 0, 0, drag=True)
    assert disabled is not None and disabled.startswith(
        "dragging right: the pointer cannot take hold of the handle: a press at its centre"
    ), disabled
