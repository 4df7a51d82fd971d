"""The Chinese README and guides stand on their own: every command a learner or teacher
finds in the English README or in an English guide written for them (learning,
teaching, the website) is in its Chinese twin too.

A command is a line of a ```bash block (its comment dropped) or a `code span` that
starts with a program (make, conda, jupyter, pip, npm, helm, sudo, python, a script
under deploy/ or .venv/bin/). Words in capitals after it are placeholders (EMAIL,
TAG, REGISTRY/...), as is anything in angle brackets (<mirror>), which the Chinese
writes in Chinese, so the command is compared up to the first of them. LANG=zh may be
written with its newer spelling, EDITION=zh.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PROGRAM = re.compile(r"(make|conda|jupyter|pip|npm|helm|sudo|python|deploy/\S+\.sh|\.venv/bin/)")
PLACEHOLDER = re.compile(r"\s[A-Z][A-Z_]{2,}(?=\s|/|$)|\s?<")  # EMAIL, REGISTRY/..., <mirror>

#: an English document a learner or teacher reads -> its Chinese twin
TWINS = {
    "README.md": "README.zh.md",
    "docs/learning.md": "docs/zh/learning.md",
    "docs/teaching.md": "docs/zh/teaching.md",
    "docs/website.md": "docs/zh/website.md",
}


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
        out.append((command[: cut.start()] if cut else command).rstrip())
    return sorted(set(out))


def flat(text: str) -> str:
    return " ".join(text.split())


def read(path: str) -> str:
    return (ROOT / path).read_text(encoding="utf-8")


ENGLISH = {path: commands(read(path)) for path in TWINS}
CASES = [(path, command) for path, found in ENGLISH.items() for command in found]


def test_the_english_documents_name_the_commands_this_test_is_about():
    # if the documents were emptied or the pattern broke, the test below would pass on nothing
    assert {"make lab", "make test", "make lab EDITION=zh"} <= set(ENGLISH["README.md"])
    assert {"make present", "make class-curve"} <= set(ENGLISH["docs/teaching.md"])
    assert "sudo deploy/tljh/setup.sh class.txt" in ENGLISH["docs/teaching.md"]
    assert "conda env create -f environment.yml" in ENGLISH["docs/learning.md"]
    assert "pip config set global.index-url" in ENGLISH["docs/learning.md"]  # <mirror> cut
    assert "make site" in ENGLISH["docs/website.md"]
    assert len(CASES) >= 40, CASES


@pytest.mark.parametrize(("english", "command"), CASES)
def test_every_command_is_in_the_chinese_twin(english, command):
    chinese = TWINS[english]
    spellings = {command, command.replace("LANG=zh", "EDITION=zh")}
    assert any(flat(s) in flat(read(chinese)) for s in spellings), (
        f"{english} tells a learner or teacher to run `{command}`; {chinese} does not"
    )


def test_a_command_missing_from_the_twin_is_found():
    english = "Run `make lab` then `pip config set global.index-url <mirror>/simple`.\n"
    english += "```bash\nmake present EDITION=zh   # the Chinese page\n```\n"
    assert commands(english) == [
        "make lab",
        "make present EDITION=zh",
        "pip config set global.index-url",
    ]
    chinese = flat("运行 `make lab`，再运行 `pip config set global.index-url <镜像地址>/simple`。")
    assert [c for c in commands(english) if c not in chinese] == ["make present EDITION=zh"]
