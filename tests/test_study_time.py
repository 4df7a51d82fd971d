"""tools/study_time.py: the time rule, the deeper sections, and the core path of 00–07.

The rule (stated in notebook 00 and in the tool): minutes = words / 100 + 1 per
code cell + 4 per exercise + 2 per prediction; Chinese text 250 characters a
minute. A deeper section starts at a ## or ### heading "Deeper · 深入: ..." (in
Chinese "深入：...") and runs to the next heading of its level or higher.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
spec = importlib.util.spec_from_file_location("study_time", ROOT / "tools" / "study_time.py")
study_time = importlib.util.module_from_spec(spec)
sys.modules["study_time"] = study_time
spec.loader.exec_module(study_time)

CORE_PATH_LIMIT = 180  # minutes over 00–07, the three hours


def notebook(tmp_path, *cells) -> Path:
    """A notebook file of (kind, text) cells."""
    path = tmp_path / "nb.ipynb"
    body = [{"cell_type": kind, "metadata": {}, "source": [text]} for kind, text in cells]
    path.write_text(json.dumps({"cells": body}), encoding="utf-8")
    return path


def words(k: int) -> str:
    return " ".join(["word"] * k)


def test_the_rule_counts_words_code_cells_exercises_and_predictions(tmp_path):
    t = study_time.study_time(
        notebook(
            tmp_path,
            ("markdown", "# Title\n\n" + words(198)),  # 200 words with the heading's two
            ("code", "x = 1"),
            ("code", "attnlib.checks.check_prediction_score(my_score)"),
            ("code", "attnlib.checks.check_softmax(my_softmax)"),
        )
    )
    assert (t.core.words, t.core.code_cells, t.core.predictions, t.core.exercises) == (200, 3, 1, 1)
    assert t.core.minutes == pytest.approx(200 / 100 + 3 + 2 + 4)
    assert t.deeper.minutes == 0


def test_a_deeper_section_runs_to_the_next_heading_of_its_level(tmp_path):
    t = study_time.study_time(
        notebook(
            tmp_path,
            ("markdown", "## Part\n\n" + words(8)),
            ("markdown", "### Deeper · 深入: more\n\n" + words(96)),
            ("code", "y = 2"),
            ("markdown", "#### a smaller heading stays inside\n\n" + words(10)),
            ("code", "attnlib.checks.check_scores(f)"),
            ("markdown", "text before the next heading stays inside\n\n### Back\n\n" + words(50)),
            ("code", "z = 3"),
        )
    )
    assert t.deeper.code_cells == 2 and t.deeper.exercises == 1
    assert t.core.code_cells == 1 and t.core.exercises == 0
    # core: "## Part" + 8 words, "### Back" + 50; the rest is deeper
    assert t.core.words == 2 + 8 + 2 + 50
    assert t.deeper.words == 6 + 96 + 5 + 10 + 7


def test_only_level_two_or_three_and_the_exact_prefix_open_a_deeper_section(tmp_path):
    t = study_time.study_time(
        notebook(
            tmp_path,
            ("markdown", "#### Deeper · 深入: too deep a level\n\n" + words(10)),
            ("markdown", "## Deeper: no Chinese, not the convention\n\n" + words(10)),
            ("code", "x = 1"),
        )
    )
    assert t.deeper.minutes == 0 and t.core.code_cells == 1


def test_chinese_is_read_by_characters(tmp_path):
    t = study_time.study_time(
        notebook(
            tmp_path,
            ("markdown", "注意力" * 250 + " softmax"),  # 750 characters and one Latin word
            ("markdown", "## 深入：更多\n\n" + "字" * 500),
        )
    )
    assert (t.core.characters, t.core.words) == (750, 1)
    assert t.core.minutes == pytest.approx(750 / 250 + 1 / 100)
    assert t.deeper.characters == 2 + 1 + 2 + 500  # 深入, the full-width colon, 更多, the text
    assert t.deeper.minutes == pytest.approx(505 / 250 + 1 / 100)  # and "##"


@pytest.mark.parametrize("edition", list(study_time.EDITIONS))
def test_the_table_in_notebook_00_is_the_tools(edition):
    path = study_time.lesson_paths(edition)[0]
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    shown = "".join(study_time.table_cell(cells, edition)["source"])
    assert shown == study_time.markdown(edition), (
        "run: python tools/study_time.py --write  (and re-execute nothing: it is markdown)"
    )


@pytest.mark.parametrize("edition", list(study_time.EDITIONS))
def test_deeper_headings_follow_the_convention_and_open_collapsed(edition):
    prefix = study_time.EDITIONS[edition].deeper
    others = tuple(p for p in study_time.DEEPER if p != prefix)
    for path in study_time.lesson_paths(edition):
        for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
            if cell["cell_type"] != "markdown":
                continue
            first = "".join(cell["source"]).split("\n", 1)[0]
            title = first.lstrip("#").strip()
            collapsed = cell["metadata"].get("jp-MarkdownHeadingCollapsed", False)
            assert not (others and title.startswith(others)), (
                f"{path.name}: {first!r} is another edition's"
            )
            if title.startswith(prefix):
                assert first.startswith(("## ", "### ")), f"{path.name}: {first!r}"
                assert collapsed, f"{path.name}: {first!r} would open expanded"
            else:
                assert not collapsed, f"{path.name}: collapsed but no deeper heading: {first!r}"


def test_notebooks_00_to_05_have_deeper_sections_and_a_shorter_core_path():
    for path in study_time.lesson_paths("en")[:6]:
        t = study_time.study_time(path)
        assert t.deeper.minutes > 0, path.name
        assert t.core.minutes < 45, path.name  # the longest core path of 00–05 is under 45 min


@pytest.mark.parametrize("edition", list(study_time.EDITIONS))
def test_the_core_path_over_00_to_07_takes_at_most_three_hours(edition):
    total = sum(
        study_time.study_time(path).core.minutes for path in study_time.lesson_paths(edition)
    )
    assert total <= CORE_PATH_LIMIT, f"core path {total:.0f} min > {CORE_PATH_LIMIT}"


def test_every_edition_has_the_tables_words():
    assert set(study_time.TABLE_WORDS) == set(study_time.EDITIONS)
    for code, head in study_time.TABLE_HEAD.items():
        assert study_time.TABLE_WORDS[code][0].startswith(head)


def _core_texts(path) -> list[str]:
    """The markdown of a notebook's core path, part by part, by study_time's rule."""
    deeper_level, core = 0, []
    for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
        if cell["cell_type"] != "markdown":
            continue
        for line in "".join(cell["source"]).split("\n"):
            match = study_time.HEADING.match(line)
            if match:
                level, title = len(match.group(1)), match.group(2).strip()
                if title.startswith(study_time.DEEPER) and level in (2, 3):
                    deeper_level = level
                elif deeper_level and level <= deeper_level:
                    deeper_level = 0
            if not deeper_level:
                core.append(line)
    return core


@pytest.mark.parametrize("edition", list(study_time.EDITIONS))
def test_every_core_path_ends_with_the_way_to_the_next_notebook(edition):
    # a learner on the core path alone must not need a Deeper section to go on
    paths = study_time.lesson_paths(edition)
    for k, path in enumerate(paths):
        after = paths[k + 1].name if k + 1 < len(paths) else "08_pytorch.ipynb"
        tail = "\n".join(_core_texts(path)[-8:])
        assert f"]({after})" in tail, f"{path.name}: its core path ends without a link to {after}"
