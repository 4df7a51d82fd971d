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
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parent.parent
EN, ZH = ROOT / "notebooks", ROOT / "notebooks" / "zh"
NAMES = sorted(p.stem for p in EN.glob("*.ipynb") if (ZH / p.name).exists())
# get_ipython().<method>(...): what IPython's transformers make of %, %% and ! lines
IPYTHON_CALLS = {"run_line_magic", "run_cell_magic", "system", "getoutput"}


def python_source(cell_source: str) -> str:
    """The cell as plain Python: IPython's magics and shell escapes transformed."""
    try:
        from IPython.core.inputtransformer2 import TransformerManager
    except ImportError:  # no IPython: drop the lines no Python parser accepts
        lines = cell_source.split("\n")
        return "\n".join("" if line.lstrip().startswith(("%", "!")) else line for line in lines)
    return TransformerManager().transform_cell(cell_source)


def is_language_line(node: ast.stmt) -> bool:
    """``attnlib.set_language("zh")`` as a statement of its own."""
    return (
        isinstance(node, ast.Expr)
        and isinstance(node.value, ast.Call)
        and isinstance(node.value.func, ast.Attribute)
        and node.value.func.attr == "set_language"
        and isinstance(node.value.func.value, ast.Name)
        and node.value.func.value.id == "attnlib"
        and [ast.literal_eval(a) for a in node.value.args if isinstance(a, ast.Constant)] == ["zh"]
    )


class _Placeholders(ast.NodeTransformer):
    """Every str constant -> "S"; an f-string -> the expressions it formats, in order."""

    def visit_Call(self, node: ast.Call) -> ast.AST:
        func = node.func
        if (
            isinstance(func, ast.Attribute)
            and func.attr in IPYTHON_CALLS
            and isinstance(func.value, ast.Call)
            and isinstance(func.value.func, ast.Name)
            and func.value.func.id == "get_ipython"
        ):
            return node  # %magic arguments are code: compared verbatim
        return self.generic_visit(node)

    def visit_Constant(self, node: ast.Constant) -> ast.AST:
        if isinstance(node.value, str):
            return ast.copy_location(ast.Constant("S"), node)
        return node

    def visit_JoinedStr(self, node: ast.JoinedStr) -> ast.AST:
        parts = [self.visit(v) for v in node.values if isinstance(v, ast.FormattedValue)]
        # the placeholder plus the formatted values; a translation may move them about
        # in the sentence (Chinese word order), so their order is not compared
        parts.sort(key=ast.dump)
        return ast.copy_location(ast.Tuple([ast.Constant("S"), *parts], ast.Load()), node)

    def visit_FormattedValue(self, node: ast.FormattedValue) -> ast.AST:
        node.value = self.visit(node.value)  # {x:.3f}: the spec is code, kept verbatim
        return node


def normalised(cell_source: str, *, drop_language_line: bool = False) -> ast.Module:
    """The cell's syntax tree with strings as placeholders (and the language line gone)."""
    tree = ast.parse(python_source(cell_source))
    if drop_language_line:
        tree.body = [stmt for stmt in tree.body if not is_language_line(stmt)]
    return ast.fix_missing_locations(_Placeholders().visit(tree))


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
