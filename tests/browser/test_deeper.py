"""The deeper sections open collapsed in JupyterLab (notebook 04, English and Chinese).

A "Deeper · 深入" heading (Chinese "深入：") is saved with
``jp-MarkdownHeadingCollapsed``; JupyterLab must open it collapsed, with its
collapse button, and hide every cell up to the next heading of its level or
higher, while the core path after it stays visible. Read through JupyterLab's
own notebook widget (the cells' ``headingCollapsed`` and ``isHidden``), so that
the test does not depend on how a theme draws a hidden cell.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from . import pages, servers

NAME = "04_attention_scores.ipynb"

# For each markdown heading cell of the open notebook: its level and text, whether
# JupyterLab holds it collapsed and shows its collapse button, and for every cell
# whether it is hidden.
_STATE_JS = """() => {
  const panel = window.jupyterapp.shell.currentWidget;
  return panel.content.widgets.map(cell => ({
    level: cell.headingInfo ? cell.headingInfo.level : -1,
    text: cell.headingInfo ? cell.headingInfo.text : '',
    collapsed: !!cell.headingCollapsed,
    button: !!cell.node.querySelector('.jp-collapseHeadingButton'),
    hidden: cell.isHidden,
  }));
}"""


def deeper_sections(cells: list[dict], prefix: str) -> list[tuple[int, int]]:
    """(heading index, index after the section) for every deeper heading."""
    out = []
    for i, cell in enumerate(cells):
        if cell["level"] in (2, 3) and cell["text"].startswith(prefix):
            end = next(
                (
                    k
                    for k in range(i + 1, len(cells))
                    if 0
                    < cells[k]["level"]
                    <= cell["level"]  # a deeper one too: it shows, collapsed
                ),
                len(cells),
            )
            out.append((i, end))
    return out


def check_collapsed(tab, server, root, source: Path, prefix: str) -> list[str]:
    """Open a fresh copy of `source` (the repository's notebook): the session's own
    copy may have been run, opened out and saved by another test already."""
    page = tab.page
    name = f"_browser_tests/deeper_{source.name}"
    (root / "_browser_tests").mkdir(exist_ok=True)
    shutil.copyfile(source, root / name)
    pages.open_notebook(page, server, name, len(pages.read_cells(root / name)))
    cells = page.evaluate(_STATE_JS)
    sections = deeper_sections(cells, prefix)
    problems = [] if sections else [f"{name}: no heading starting {prefix!r}"]
    inside = set()
    for start, end in sections:
        heading = cells[start]
        if not (heading["collapsed"] and heading["button"]):
            problems.append(f"{name}: {heading['text']!r} opens expanded (or has no button)")
        shown = [k for k in range(start + 1, end) if not cells[k]["hidden"]]
        if shown:
            problems.append(f"{name}: under {heading['text']!r}, cells {shown} are visible")
        inside.update(range(start + 1, end))
    outside = [k for k in range(len(cells)) if k not in inside and cells[k]["hidden"]]
    if outside:
        problems.append(f"{name}: cells {outside} of the core path are hidden")
    return problems + tab.problems()


def test_deeper_sections_open_collapsed(lab, lab_tab, lab_root):
    source = servers.NOTEBOOKS / NAME
    assert check_collapsed(lab_tab, lab, lab_root, source, "Deeper · 深入:") == []


def test_deeper_sections_open_collapsed_in_chinese(lab_zh, lab_zh_tab, lab_zh_root):
    source = servers.NOTEBOOKS / "zh" / NAME
    assert check_collapsed(lab_zh_tab, lab_zh, lab_zh_root, source, "深入：") == []
