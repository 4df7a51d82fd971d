"""The Chinese edition (notebooks/zh/) is in step with the English notebooks.

Same cells in the same order; the same code, but for one setup line; every
prose cell translated from the current English text (a hash records which);
and the prose is Chinese. tools/translation.py keeps them in step.
"""

import json
import re
import sys
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
import translation  # noqa: E402

NAMES = translation.english_names()
NOT_PROSE = r"\$\$.*?\$\$|\$[^$]*\$|`[^`]*`|\]\([^)]*\)|<[^>]+>"  # maths, code, link targets, HTML


def _zh(name):
    path = translation.TARGET / f"{name}.ipynb"
    assert path.exists(), (
        f"no Chinese edition of {name}: run python tools/translation.py sync {name}"
    )
    return nbformat.read(path, as_version=4)


def _english(name):
    return nbformat.read(translation.EN / f"{name}.ipynb", as_version=4)


@pytest.mark.parametrize("name", NAMES)
def test_same_cells_in_the_same_order(name):
    english, chinese = _english(name), _zh(name)
    assert [c.id for c in english.cells] == [
        c.metadata.get("translation", {}).get("of") for c in chinese.cells
    ], f"{name}: the cells differ from the English; run tools/translation.py sync {name}"
    assert [c.cell_type for c in english.cells] == [c.cell_type for c in chinese.cells]


@pytest.mark.parametrize("name", NAMES)
def test_same_code_but_the_language_line(name):
    chinese = _zh(name)
    code = [c.source for c in chinese.cells if c.cell_type == "code"]
    expected = translation.expected_code(_english(name))
    assert len(code) == len(expected)
    # strings and comments may be translated (tests/test_zh_code.py says how exactly)
    changed = [
        k
        for k, (a, b) in enumerate(zip(expected, code, strict=True))
        if not translation.same_code(a, b)
    ]
    assert not changed, f"{name}: code cells {changed} differ from the English code"
    assert sum(translation.LANGUAGE.setup_line in s for s in code) == 1


@pytest.mark.parametrize("name", NAMES)
def test_every_prose_cell_translates_the_current_english(name):
    stale = translation.untranslated(name)
    assert not stale, (
        f"{name}: English cells {stale} changed since they were translated (or never were); "
        f"revisit their Chinese and record it with tools/translation.py apply"
    )


def _chinese_share(markdown: str) -> float:
    """CJK characters among the letters of prose, leaving out maths, code and links."""
    text = re.sub(NOT_PROSE, " ", markdown, flags=re.S)
    cjk = len(re.findall(r"[\u4e00-\u9fff]", text))
    latin = len(re.findall(r"[A-Za-z]", text))
    return cjk / max(1, cjk + latin / 4)  # about four Latin letters to a word, one hanzi each


@pytest.mark.parametrize("name", NAMES)
def test_prose_is_mostly_chinese(name):
    for cell in _zh(name).cells:
        if cell.cell_type != "markdown":
            continue
        letters = re.sub(
            r"\$\$.*?\$\$|\$[^$]*\$|`[^`]*`|\]\([^)]*\)|<[^>]+>|[\W\d_]", "", cell.source
        )
        if len(letters) < 12:  # a formula, a link or a table of symbols
            continue
        share = _chinese_share(cell.source)
        assert share > 0.6, f"{name} cell {cell.metadata['translation']['of']}: {share:.0%} Chinese"


def test_the_tool_finds_a_changed_english_cell(tmp_path, monkeypatch):
    # Copy one pair, change an English prose cell, and the tool must name it.
    name = NAMES[0]
    (tmp_path / "zh").mkdir()
    english = _english(name)
    (tmp_path / "zh" / f"{name}.ipynb").write_text(
        json.dumps(nbformat.from_dict(_zh(name))), encoding="utf-8"
    )
    prose = next(c for c in english.cells if c.cell_type == "markdown")
    prose.source += "\n\nOne more sentence."
    nbformat.write(english, tmp_path / f"{name}.ipynb")
    monkeypatch.setattr(translation, "EN", tmp_path)
    monkeypatch.setattr(translation, "TARGET", tmp_path / "zh")
    assert prose.id in translation.untranslated(name)
