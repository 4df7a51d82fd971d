"""The glossary of notebook 00 (both editions): its "first appears in" column is read
from the notebooks' own text, not typed.

For each row, each term of the edition's column (``查询向量 / 键向量``: each one) is
looked for in the edition's notebooks in course order, in their markdown (00's tables,
the glossary, the notation and the map of the notebooks, not counted, as the glossary
says); the
first notebook that uses one of the row's terms is the one the row must name. A row
that names two notebooks (``层 [00]；Block、堆叠 [05]``) is checked part by part. A
term of one character (头, 熵) is too short to look for in running Chinese and is
skipped, as is a row whose terms the notebooks never use (they are the glossary's own).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from attnlib.i18n.languages import EDITIONS

ROOT = Path(__file__).resolve().parents[1]
TERM_COLUMN = {"en": 0, "zh": 0}  # the edition's own words come first in its table
FIRST_SEEN = re.compile(r"(?:^|；|;)\s*([^\[；;]*?)\s*\[(\d\d)\]\(")


def markdown_cells(path: Path) -> list[str]:
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return ["".join(c["source"]) for c in cells if c["cell_type"] == "markdown"]


def glossary(edition: str) -> tuple[str, list[list[str]]]:
    folder = ROOT / EDITIONS[edition].notebooks
    cells = markdown_cells(folder / "00_start_here.ipynb")
    cell = next(c for c in cells if re.search(r"first appears in|首次出现", c))
    rows = [
        [col.strip() for col in line.strip().strip("|").split("|")]
        for line in cell.splitlines()
        if line.startswith("| ") and not line.startswith(("| term", "| 术语"))
    ]
    return cell, rows


def terms(cell: str, edition: str) -> list[str]:
    """The words a row's term column names: 'query / key / value (vector)' -> query, key, value."""
    words = re.sub(r"[（(][^）)]*[）)]", "", cell)
    found = [w.strip() for w in re.split(r"\s*(?:/|,|，|、| vs )\s*", words) if w.strip()]
    shortest = 2 if edition == "zh" else 3
    return [w for w in found if len(w) >= shortest]


def first_use(edition: str, word: str) -> str | None:
    folder = ROOT / EDITIONS[edition].notebooks
    flags = re.I if edition == "en" else 0
    # English: the word or its plural ("heads", "linear maps")
    english = rf"\b{re.escape(word)}(?:s|es)?\b"
    pattern = re.compile(english if edition == "en" else re.escape(word), flags)
    for path in sorted(folder.glob("0*.ipynb")):
        for text in markdown_cells(path):
            if path.name.startswith("00") and "|---" in text:  # 00's tables: reference, not text
                continue
            if pattern.search(text):
                return path.name[:2]
    return None


@pytest.mark.parametrize("edition", list(EDITIONS))
def test_no_term_is_listed_twice(edition):
    _, rows = glossary(edition)
    seen = [row[0] for row in rows]
    assert len(seen) == len(set(seen)), [t for t in seen if seen.count(t) > 1]


@pytest.mark.parametrize("edition", list(EDITIONS))
def test_first_appears_in_is_the_first_notebook_that_uses_the_term(edition):
    _, rows = glossary(edition)
    wrong = []
    for row in rows:
        parts = FIRST_SEEN.findall(row[-1])
        for label, stated in parts:
            words = terms(label, edition) if label else terms(row[TERM_COLUMN[edition]], edition)
            found = [n for n in (first_use(edition, w) for w in words) if n]
            if found and min(found) != stated:
                wrong.append(f"{label or row[0]!r}: says {stated}, first used in {min(found)}")
    assert not wrong, "\n".join(wrong)
