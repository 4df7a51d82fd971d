"""The classroom page (issue 6): Voilà serves the classroom notebook, headless
Chromium opens it at 1920x1080 (a projector), every explorer redraws when a
slider moves, and the page shows no code and no error. Screenshots go to
test-artifacts/: look at them at full size.
"""

from __future__ import annotations

import shutil
import time

from . import pages, servers
from .conftest import artifact, open_tab
from .test_lab import EXPLORER_CALL, check_cell_click, report, unmoved

CLASSROOM = "classroom.ipynb"  # what `make present` serves
# Voilà's log lines that mean the page is not served as `make present` intends
VOILA_LOG_WARNINGS = ("is not trusted",)


def test_classroom_page_in_voila(new_context, tmp_path_factory, record_property):
    root = tmp_path_factory.mktemp("voila") / "notebooks"
    shutil.copytree(
        servers.NOTEBOOKS, root, ignore=shutil.ignore_patterns(".ipynb_checkpoints", "__pycache__")
    )
    name = CLASSROOM
    cells = pages.read_cells(root / name)
    stem = name.removesuffix(".ipynb")
    started = time.perf_counter()
    server = servers.start_voila(
        root / name, tmp_path_factory.mktemp("voila-home"), artifact(f"voila-{stem}.log")
    )
    try:
        tab = open_tab(new_context, width=1920, height=1080)
        page = tab.page
        problems, counts = run_page(page, server, name, cells)
        clicked, click_ms = click_a_cell(page)
        problems += clicked
        problems += show_32_tokens(page, counts["explorers"])
        problems += pages.axe_problems(page)  # the whole classroom page, Voila's own included
        problems += tab.problems()
        shoot(page, stem, counts["explorers"])
        problems += [
            f"Voilà's log: {line.strip()}"
            for line in server.log_tail(100_000).splitlines()
            if any(w in line for w in VOILA_LOG_WARNINGS)
        ]
        record_property(
            "summary",
            f"Voilà {name}: {time.perf_counter() - started:.1f} s; "
            f"{counts['explorers']} explorer(s), {counts['sliders']} slider(s), "
            f"{counts['moves']} moves; a click on a cell: "
            f"{'no picture' if click_ms is None else f'{click_ms:.0f} ms'} to the new picture; "
            f"screenshots test-artifacts/voila-{stem}-*.png",
        )
        assert not problems, report(problems, f"{name} in Voilà")
    finally:
        server.stop()


def run_page(page, server, name: str, cells: list[dict]) -> tuple[list[str], dict]:
    """Open Voilà's page of `name` (its cells: `cells`), wait until every cell has run
    and the explorers are shown, move every slider both ways; return (problems, the
    explorers' counts). Shared by the English and the Chinese classroom pages."""
    response = page.goto(server.url + "/", timeout=90_000)
    assert response is not None and response.status == 200, (
        f"Voilà answered {response and response.status} for {name}"
    )
    # Voilà removes its spinner when every cell has run; the widgets render a moment later
    page.wait_for_selector("#loading", state="detached", timeout=90_000)
    calls = [c for c in cells if c["type"] == "code" and EXPLORER_CALL.search(c["source"])]
    wait_for_widgets(page, len(calls))
    server.remember_children()
    problems = pages.page_problems(page, cells)
    found, counts = pages.check_explorers(page)
    problems += found + unmoved(name, counts["names"])
    if counts["explorers"] < len(calls):
        problems.append(
            f"{len(calls)} cell(s) call an explorer, the page shows {counts['explorers']}"
        )
    problems += [
        f"after the slider moves, {p}"
        for p in pages.page_problems(page, cells)
        if p not in problems
    ]
    problems += [
        f"at {page.viewport_size['width']} px wide: {p}" for p in pages.layout_problems(page)
    ]
    return problems, counts


# The classroom's main explorer: attnlib.explorer(**MAIN), large
MAIN = dict(n=6, d_k=4, seed=0, size="large")


def click_a_cell(page) -> tuple[list[str], float | None]:
    """Click cell (2, 4) of the main explorer's scores, as a teacher would, and check the
    breakdown; a screenshot shows the selection and the breakdown at 1080p."""
    i = pages.find_explorer(page, "heads")
    if i is None:
        return ["no explorer with a heads slider (attnlib.explorer) on the page"], None
    values = {s.name: s.value for s in pages.sliders(page, i)}
    if any(values.get(k) != v for k, v in MAIN.items() if k != "size"):
        return [f"the main explorer shows {values}, not {MAIN}"], None
    problems, ms = check_cell_click(page, i, MAIN, (2, 4), 0)
    page.evaluate(
        'i => document.querySelector(`[data-bt-explorer="${i}"] .attnlib-picture`)'
        ".scrollIntoView({block: 'start'})",
        i,
    )
    page.screenshot(path=artifact("voila-classroom-1080p-selected.png"))
    return problems, ms


def wait_for_widgets(page, explorers: int, timeout_s: float = 30) -> None:
    """Until no widget says "Loading widget..." and the explorers are on the page
    (bounded: what is missing then is reported by the checks)."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        loading = page.evaluate("() => document.body.innerText.includes('Loading widget')")
        if not loading and pages.mark_explorers(page) >= explorers:
            return
        time.sleep(0.25)


def show_32_tokens(page, explorers: int) -> list[str]:
    """Take the attention explorer (sliders n and d_k) to n = 32 (its largest) with
    the keyboard, as a teacher would: End, then arrow keys if need be; so that the
    screenshots show a 32-token heatmap."""
    for i in reversed(range(explorers)):
        names = [s.name for s in pages.sliders(page, i)]
        if "n" in names and "d_k" in names:
            k = names.index("n")
            for attempt in range(40):
                value = pages.sliders(page, i)[k].value
                if value == 32:
                    return []
                key = "End" if attempt == 0 else "ArrowRight" if value < 32 else "ArrowLeft"
                problem, _ = pages.move(page, i, k, key)
                if problem:
                    return [f"explorer {i + 1}, taking n to 32: {problem}"]
            return [f"explorer {i + 1}: n did not reach 32"]
    return []


def shoot(page, stem: str, explorers: int) -> None:
    """What the projector shows: the first screen, each explorer scrolled into
    view, and the whole page at 1920 wide."""
    page.screenshot(path=artifact(f"voila-{stem}-1080p.png"))
    for i in range(explorers):
        # as a teacher would scroll: the explorer's sliders at the top of the screen
        page.evaluate(
            'i => document.querySelector(`[data-bt-explorer="${i}"]`)'
            ".scrollIntoView({block: 'start'})",
            i,
        )
        page.screenshot(path=artifact(f"voila-{stem}-1080p-explorer{i + 1}.png"))
    # Voilà scrolls an inner panel, so a "full page" shot is one screen high:
    # make the window as tall as the content instead.
    height = page.evaluate(
        "() => Math.max(...Array.from(document.querySelectorAll('*')).map(e => e.scrollHeight))"
    )
    page.set_viewport_size({"width": 1920, "height": min(int(height), 16_000)})
    page.screenshot(path=artifact(f"voila-{stem}-full.png"))
    page.set_viewport_size({"width": 1920, "height": 1080})
