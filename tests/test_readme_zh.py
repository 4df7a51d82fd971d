"""README.zh.md stands on its own: every command a learner or teacher finds in
README.md (from "Two commands" to "The simulated class") is in the Chinese README too.

A command is a line of a ```bash block (its comment dropped) or a `code span` that
starts with a program (make, conda, jupyter, pip, npm, helm, sudo, python, a script
under deploy/ or .venv/bin/). Words in capitals after it are placeholders (EMAIL,
TAG, REGISTRY/...), which the Chinese README writes in Chinese, so the command is
compared up to the first of them. LANG=zh may be written with its newer spelling,
EDITION=zh.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PROGRAM = re.compile(r"(make|conda|jupyter|pip|npm|helm|sudo|python|deploy/\S+\.sh|\.venv/bin/)")
PLACEHOLDER = re.compile(r"\s[A-Z][A-Z_]{2,}(?=\s|/|$)")  # EMAIL, REGISTRY/..., not LANG=zh


def learner_and_teacher_part(readme: str) -> str:
    return readme[readme.index("## Two commands") : readme.index("### Capacity")]


def commands(markdown: str) -> list[str]:
    found = []
    for block in re.findall(r"```bash\n(.*?)```", markdown, re.S):
        for line in block.splitlines():
            line = line.split(" #")[0].strip()
            if line:
                found.append(line)
    prose = re.sub(r"```.*?```", "", markdown, flags=re.S)
    for span in re.findall(r"`([^`]+)`", prose):
        span = " ".join(span.split())  # a span may run over two lines
        if PROGRAM.match(span) and " " in span:
            found.append(span)
    out = []
    for command in found:
        cut = PLACEHOLDER.search(command)
        out.append(command[: cut.start()] if cut else command)
    return sorted(set(out))


def flat(text: str) -> str:
    return " ".join(text.split())


ENGLISH = commands(learner_and_teacher_part((ROOT / "README.md").read_text(encoding="utf-8")))
CHINESE = flat((ROOT / "README.zh.md").read_text(encoding="utf-8"))


def test_the_english_readme_names_the_commands_this_test_is_about():
    # if the sections were renamed or emptied, the test below would pass on nothing
    assert {"make lab", "make present", "conda env create -f environment.yml"} <= set(ENGLISH)
    assert "sudo deploy/tljh/setup.sh class.txt" in ENGLISH
    assert len(ENGLISH) >= 20, ENGLISH


@pytest.mark.parametrize("command", ENGLISH)
def test_every_command_is_in_the_chinese_readme(command):
    spellings = {command, command.replace("LANG=zh", "EDITION=zh")}
    assert any(flat(s) in CHINESE for s in spellings), (
        f"README.md tells a learner or teacher to run `{command}`; README.zh.md does not"
    )
