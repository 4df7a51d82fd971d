"""One meaning per letter across the course (issue 33), read from the notebooks themselves.

The start page's notation tables (notebook 00: the core table and its deeper
continuation) list every letter the formulas of the lessons use, each with one
meaning. These tests find the letters of every formula (``$...$`` in markdown,
words such as ``\\text{score}`` and subscripts left out) and ask that each is
listed there; a lowercase letter with an index is a row of its capital (q_i of Q),
as the tables say. And h, which once meant a hidden state, a finite-difference
step, a block's index and the number of heads, is the number of heads only: a
code cell binds the name ``h`` only to pass it on as ``heads=h``, and the hidden state h_t of
01's recurrence (the chapter's letter) appears nowhere else.
"""

from __future__ import annotations

import ast
import json
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
import translation  # noqa: E402

EDITIONS = {"en": ROOT / "notebooks", "zh": ROOT / "notebooks" / "zh"}
#: the header of a notation table of notebook 00, in each edition (the glossary's differs)
TABLE_HEAD = {"en": "| symbol | meaning |", "zh": "| 符号 | 含义 |"}

MATH = re.compile(r"\$\$(.+?)\$\$|\$(.+?)\$", re.S)
WORDS = re.compile(r"\\(?:text|operatorname|mathrm|mathbb|mathtt)\{[^{}]*\}")  # words, code, ℝ
SUBSCRIPT = re.compile(r"_(\{[^{}]*\}|\\?[A-Za-z0-9]+)")
COMMAND = re.compile(r"\\([A-Za-z]+)")
GREEK = {"alpha", "beta", "gamma", "delta", "varepsilon", "epsilon", "ell", "lambda", "mu"}
GREEK |= {"pi", "rho", "sigma", "tau", "theta", "phi", "omega", "Delta", "Sigma"}
HIDDEN_STATE = re.compile(r"(?<![A-Za-z\\])h_")


def markdown(path: Path) -> list[str]:
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return ["".join(c["source"]) for c in cells if c["cell_type"] == "markdown"]


def formulas(text: str) -> list[str]:
    return [m.group(1) or m.group(2) for m in MATH.finditer(text)]


def letters(formula: str) -> set[str]:
    """The letters a formula uses: Latin letters and Greek commands, subscripts left out."""
    bare = SUBSCRIPT.sub(" ", WORDS.sub(" ", formula))
    greek = {"\\" + name for name in COMMAND.findall(bare) if name in GREEK}
    return greek | set(re.findall(r"[A-Za-z]", COMMAND.sub(" ", bare)))


def lessons(edition: str) -> list[Path]:
    return sorted(EDITIONS[edition].glob("0*.ipynb"))


def listed(edition: str) -> set[str]:
    """The letters of the first column of notebook 00's notation tables."""
    found = set()
    start = next(EDITIONS[edition].glob("00_*.ipynb"))
    for text in markdown(start):
        lines = text.split("\n")
        for k, line in enumerate(lines):
            if not line.startswith(TABLE_HEAD[edition]):
                continue
            for row in lines[k + 2 :]:
                if not row.startswith("|"):
                    break
                for formula in formulas(row.split("|")[1]):
                    found |= letters(formula)
    return found


@pytest.mark.parametrize("edition", EDITIONS)
def test_notebook_00_lists_every_letter_the_formulas_use(edition):
    known = listed(edition)
    assert {"n", "d", "h", "\\tau", "\\varepsilon", "\\ell"} <= known  # the tables were found
    missing = {}
    for path in lessons(edition):
        for text in markdown(path):
            for formula in formulas(text):
                for letter in letters(formula):
                    if letter in known or (letter.islower() and letter.upper() in known):
                        continue
                    missing.setdefault(letter, set()).add(f"{path.stem}: ${formula}$")
    assert not missing, (
        f"letters not listed in 00's notation tables ({edition}): give each one meaning there, "
        f"or use a letter that has it: {missing}"
    )


def test_the_letter_test_sees_what_it_should():
    assert letters(r"\text{score}_{ij} = q_i \cdot k_j / \sqrt{d_k}") == {"q", "k", "d"}
    assert letters(r"\operatorname{softmax}(s / \tau)") == {"s", "\\tau"}
    assert letters(r"h_{t-1} U + b_{\text{out}}") == {"h", "U", "b"}
    assert letters(r"\mathbf{W}_Q \in \mathbb{R}^{d\times d_k}") == {"W", "d"}


def bound_names(source: str) -> set[str]:
    """Every name a cell binds: assignments, loop and comprehension targets, parameters."""
    tree = ast.parse(translation.python_source(source))
    nodes = list(ast.walk(tree))
    names = {n.id for n in nodes if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
    return names | {n.arg for n in nodes if isinstance(n, ast.arg)}


@pytest.mark.parametrize("edition", EDITIONS)
def test_h_is_the_number_of_heads_and_nothing_else(edition):
    # every cell that binds the name h passes it on as the number of heads (heads=h)
    binds_h, other = [], []
    for path in lessons(edition):
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        for k, cell in enumerate(cells):
            source = "".join(cell["source"])
            if cell["cell_type"] == "code" and "h" in bound_names(source):
                binds_h.append(path.stem)
                if not re.search(r"\bheads=h\b", source):
                    other.append(f"{path.stem} cell {k}")
    assert not other, f"the name h is bound, not as the number of heads, in {other}"
    assert "07_next_steps" in binds_h  # the test sees 07's heads


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_hidden_state_h_t_appears_only_with_the_recurrence(edition):
    # 01 reads a sentence with a recurrence, 07 replays it beside a causal mask; 00 lists it
    where = {
        path.stem
        for path in lessons(edition)
        for text in markdown(path)
        for formula in formulas(text)
        if HIDDEN_STATE.search(formula)
    }
    assert where <= {"00_start_here", "01_what_is_self_attention", "07_next_steps"}, where
    assert "01_what_is_self_attention" in where
