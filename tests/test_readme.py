"""The READMEs are what a newcomer reads in five minutes, in both languages.

Each is at most 12 KB, counted in UTF-8 bytes for both (so the Chinese, three bytes a
character, holds about 4,000 characters of prose: the same content as the English,
not more). Each has the two commands, its edition's notebooks with the minutes of their
core path as tools/study_time.py gives them (the table notebook 00 shows), one picture
of an explorer (notebook 05's stored output, tools/readme_picture.py), the four ways
to teach with the course, and a link to every guide of its language. Dates, timings
and records of runs live in the guides, not here.
"""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
MAX_BYTES = 12 * 1024


def _tool(name: str):
    spec = importlib.util.spec_from_file_location(name, ROOT / "tools" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


study_time = _tool("study_time")
readme_picture = _tool("readme_picture")

#: edition -> its README (the one tools/study_time.py writes), and its guides' folder
READMES = {"en": ("README.md", "docs"), "zh": ("README.zh.md", "docs/zh")}


def readme(edition: str) -> str:
    return (ROOT / READMES[edition][0]).read_text(encoding="utf-8")


def test_every_edition_has_a_readme():
    assert set(READMES) == set(study_time.EDITIONS)
    assert {code: name for code, (name, _) in READMES.items()} == study_time.READMES


@pytest.mark.parametrize("edition", list(READMES))
def test_the_readme_is_at_most_12_kb(edition):
    size = len(readme(edition).encode("utf-8"))
    assert size <= MAX_BYTES, f"{READMES[edition][0]} is {size} bytes, more than {MAX_BYTES}"


def header(text: str, edition: str) -> str | None:
    """The table's header row: its last column named as in the tool's own table."""
    head = study_time.TABLE_WORDS[edition][0].split("|")[2].strip()  # "core path, min"
    return next((line for line in text.splitlines() if line.endswith(f"| {head} |")), None)


@pytest.mark.parametrize("edition", list(READMES))
def test_the_notebooks_table_gives_the_core_minutes_of_the_tool(edition):
    text = readme(edition)
    assert header(text, edition), f"{READMES[edition][0]}: no table with the tool's column"
    expected = [(name, core) for name, core, _ in study_time.table(edition)]
    assert study_time.readme_minutes(text, edition) == expected, (
        "the README's minutes are not tools/study_time.py's: python tools/study_time.py --write"
    )


def test_a_wrong_minute_is_found_and_written_right():
    text = readme("en")
    name, core, _ = study_time.table("en")[3]
    line = next(x for x in text.splitlines() if x.startswith(f"| [`{name}`]"))
    wrong = text.replace(line, line.removesuffix(f"| {core} |") + f"| {core + 1} |")
    assert wrong != text
    found = study_time.readme_minutes(wrong, "en")
    assert (name, core + 1) in found and (name, core) not in found
    assert study_time.with_readme_minutes(wrong, "en") == text


@pytest.mark.parametrize("edition", list(READMES))
def test_the_picture_is_notebook_05s_explorer_as_stored(edition):
    path = readme_picture.picture_file(edition)
    link = path.relative_to(ROOT).as_posix()
    assert re.search(rf"!\[[^\]]{{20,}}\]\({re.escape(link)}\)", readme(edition)), (
        f"{READMES[edition][0]} does not show {link} with a text alternative"
    )
    assert path.read_bytes() == readme_picture.stored_picture(edition), (
        f"{link} is not notebook 05's stored explorer: python tools/readme_picture.py"
    )


@pytest.mark.parametrize("edition", list(READMES))
def test_the_readme_links_every_guide_of_its_language(edition):
    name, folder = READMES[edition]
    text = readme(edition)
    guides = sorted((ROOT / folder).glob("*.md"))
    assert len(guides) >= 3, guides
    missing = [g.name for g in guides if f"]({g.relative_to(ROOT).as_posix()}" not in text]
    assert missing == [], f"{name} does not link {missing}"


@pytest.mark.parametrize("edition", list(READMES))
def test_the_readme_has_the_commands_and_the_four_ways_to_teach(edition):
    text = readme(edition)
    for command in ("make lab", "make test", "make present", "make site"):
        assert f"`{command}" in text or f"\n{command} " in text, command
    assert "pip install -e" in text and "python3 -m venv" in text  # the route without make
    guide = "docs/teaching.md" if edition == "en" else "docs/zh/teaching.md"
    website = "docs/website.md" if edition == "en" else "docs/zh/website.md"
    for target in (guide, "deploy/jupyterhub/README.md#binder", website):
        assert f"]({target}" in text, target
    assert "Binder" in text and "JupyterHub" in text


DATE = re.compile(r"\b20\d\d-\d\d-\d\d\b")
TIMING = re.compile(r"\d\s*(?:ms|毫秒|s\b|秒|MB|GB)")


@pytest.mark.parametrize("edition", list(READMES))
def test_no_date_or_timing_is_in_the_readme(edition):
    # they live in one place, the guides (performance, the simulated class, capacity)
    text = re.sub(r"```.*?```", "", readme(edition), flags=re.S)
    assert DATE.findall(text) == [], READMES[edition][0]
    assert TIMING.findall(text) == [], READMES[edition][0]
    assert DATE.search("measured on 2026-12-04") and TIMING.search("4.3 ms, 6 秒")
