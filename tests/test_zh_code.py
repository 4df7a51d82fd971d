"""The Chinese edition runs the English code: only strings and comments may differ.

A Chinese code cell may translate its comments, printed sentences, titles, labels
and legends, but nothing else (issue 23). Both cells are parsed, every string
literal is replaced by the placeholder "S" (docstrings included; of an f-string only
the expressions it formats are kept), comments vanish with the parse, and the two
trees must be equal, apart from the one language line ``attnlib.set_language("zh")``
that tools/translation.py puts after the first ``import attnlib``.

IPython syntax (``%matplotlib inline``, ``!pip ...``) is first turned into the Python
it stands for by IPython's own TransformerManager; the arguments of a magic or shell
command are code, not prose, and are compared as they are.
"""

from __future__ import annotations

import ast
import difflib
import sys
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parent.parent
EN, ZH = ROOT / "notebooks", ROOT / "notebooks" / "zh"
NAMES = sorted(p.stem for p in EN.glob("*.ipynb") if (ZH / p.name).exists())

sys.path.insert(0, str(ROOT / "tools"))
from translation import is_language_line, normalised, python_source  # noqa: E402


def code_cells(nb: nbformat.NotebookNode) -> list[tuple[int, str]]:
    """(cell number in the notebook, source) of each code cell."""
    return [(k, c.source) for k, c in enumerate(nb.cells) if c.cell_type == "code"]


def differences(english: nbformat.NotebookNode, chinese: nbformat.NotebookNode) -> list[str]:
    """One message per code cell whose Chinese differs in more than strings and comments."""
    en, zh = code_cells(english), code_cells(chinese)
    if len(en) != len(zh):
        return [f"{len(en)} code cells in English, {len(zh)} in Chinese"]
    found = []
    for (_, en_source), (k_zh, zh_source) in zip(en, zh, strict=True):
        try:
            zh_tree = normalised(zh_source, drop_language_line=True)
        except SyntaxError as error:
            found.append(f"cell {k_zh}: the Chinese code does not parse: {error}")
            continue
        en_tree = normalised(en_source)
        if ast.dump(en_tree) == ast.dump(zh_tree):
            continue
        diff = difflib.unified_diff(
            ast.unparse(en_tree).splitlines(),
            ast.unparse(zh_tree).splitlines(),
            "English (strings as 'S')",
            "Chinese (strings as 'S')",
            n=1,
            lineterm="",
        )
        found.append(f"cell {k_zh}:\n" + "\n".join(list(diff)[:20]))
    return found


def language_lines(nb: nbformat.NotebookNode) -> int:
    return sum(
        is_language_line(stmt)
        for _, source in code_cells(nb)
        for stmt in ast.parse(python_source(source)).body
    )


@pytest.mark.parametrize("name", NAMES)
def test_chinese_code_differs_only_in_strings_and_comments(name):
    english = nbformat.read(EN / f"{name}.ipynb", as_version=4)
    chinese = nbformat.read(ZH / f"{name}.ipynb", as_version=4)
    found = differences(english, chinese)
    assert not found, f"notebooks/zh/{name}.ipynb differs from the English code:\n" + "\n\n".join(
        found
    )
    assert language_lines(chinese) == 1, f"notebooks/zh/{name}.ipynb: one set_language line"
    assert language_lines(english) == 0, f"notebooks/{name}.ipynb sets a language"


def test_strings_and_comments_may_differ():
    en = '# compute\nx = f(3, label="weights")  # the weights\nprint(f"sum {x.sum():.2f} of {n}")'
    zh = '# 计算\nx = f(3, label="权重")\nprint(f"{n} 的和为 {x.sum():.2f}")'
    assert ast.dump(normalised(en)) == ast.dump(normalised(zh))
    docstring = 'def g():\n    """Return one."""\n    return 1'
    assert ast.dump(normalised(docstring)) == ast.dump(
        normalised(docstring.replace("Return one.", "返回 1。"))
    )


@pytest.mark.parametrize(
    ("en", "zh"),
    [
        ("x = f(3)", "x = f(4)"),  # a number
        ("x = f(a)", "x = f(b)"),  # a name
        ('print(f"{x}")', 'print(f"{y}")'),  # what an f-string formats
        ('print(f"{x:.3f}")', 'print(f"{x:.2f}")'),  # how it formats it
        ("print(x)", "print(x, y)"),  # an argument more
        ("%matplotlib inline", "%matplotlib widget"),  # a magic's argument
    ],
)
def test_anything_else_is_a_difference(en, zh):
    assert ast.dump(normalised(en)) != ast.dump(normalised(zh))


def test_a_changed_number_in_a_chinese_cell_is_named():
    english = nbformat.v4.new_notebook(
        cells=[nbformat.v4.new_code_cell("import attnlib"), nbformat.v4.new_code_cell("n = 6")]
    )
    chinese = nbformat.v4.new_notebook(
        cells=[
            nbformat.v4.new_code_cell('import attnlib\nattnlib.set_language("zh")  # 中文'),
            nbformat.v4.new_markdown_cell("说明"),
            nbformat.v4.new_code_cell("n = 7  # 词元个数"),
        ]
    )
    (message,) = differences(english, chinese)
    assert message.startswith("cell 2:")
    assert "-n = 6" in message and "+n = 7" in message
