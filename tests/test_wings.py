"""attnlib's wings: every import in the package, read from the source, runs the allowed way.

The wings are folders (maths, pictures, explorers, lessons, i18n), each
``__init__`` saying what it may import. These tests read every import
statement (at module level or inside a function, since a late import is
still a dependency) and hold them to those rules, so a wrong arrow fails here
rather than in a reviewer's head. They also keep every module small enough to
read in one sitting.
"""

from __future__ import annotations

import ast
import importlib
import io
import tokenize
from pathlib import Path

import pytest

import attnlib

PACKAGE = Path(attnlib.__file__).parent
WINGS = ("maths", "pictures", "explorers", "lessons", "i18n")
WIDGETS = ("ipywidgets", "anywidget")

#: wing -> what it must not import (attnlib's wings by name, other packages by top-level name)
FORBIDDEN = {
    "maths": {"pictures", "explorers", "lessons", "i18n", "matplotlib", *WIDGETS},
    "pictures": {"explorers", "lessons", *WIDGETS},
    "lessons": {"explorers", *WIDGETS},
    "i18n": {"maths", "pictures", "explorers", "lessons", "matplotlib", *WIDGETS},
}
#: who may import the lessons wing: the explorers, the top level, and the lessons themselves
LESSONS_IMPORTERS = {"explorers", "lessons", "top"}

MAX_CODE_LINES = 350
#: modules allowed over MAX_CODE_LINES, each with its reason
LARGE = {
    # a catalogue: one sentence and its translation per entry
    "i18n/zh/checks.py": "language catalogue",
    "i18n/zh/errors.py": "language catalogue (every wing's errors)",
}


def wing(path: Path) -> str:
    """The wing a module belongs to, or "top" for attnlib/__init__.py, __main__.py, _moved.py."""
    first = path.relative_to(PACKAGE).parts[0]
    return first if first in WINGS else "top"


def imported(path: Path) -> list[tuple[str, int]]:
    """Every module `path` imports, as (absolute dotted name, line)."""
    package = ".".join(("attnlib", *path.relative_to(PACKAGE).parent.parts))
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(alias.name, node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: climb level - 1 packages from this module's own
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module
            # `from . import views` imports the module attnlib.<...>.views
            found += [(f"{module}.{alias.name}", node.lineno) for alias in node.names]
    return found


def target(name: str) -> str:
    """What an import reaches: a wing's name, "top", or another package's top-level name."""
    parts = name.split(".")
    if parts[0] != "attnlib":
        return parts[0]
    return parts[1] if len(parts) > 1 and parts[1] in WINGS else "top"


def modules():
    return sorted(PACKAGE.rglob("*.py"))


def test_the_wings_are_folders_with_a_paragraph_on_what_they_may_import():
    for name in WINGS:
        doc = ast.get_docstring(ast.parse((PACKAGE / name / "__init__.py").read_text()))
        assert doc and "import" in doc, f"attnlib/{name}/__init__.py must say what it may import"


def test_no_import_runs_against_the_wings():
    wrong = []
    for path in modules():
        here = wing(path)
        for name, line in imported(path):
            to = target(name)
            if to in FORBIDDEN.get(here, ()):
                wrong.append(f"{path.relative_to(PACKAGE)}:{line} ({here}) imports {name}")
            if to == "lessons" and here not in LESSONS_IMPORTERS:
                wrong.append(f"{path.relative_to(PACKAGE)}:{line}: only explorers import lessons")
            if to in WIDGETS and here != "explorers":
                wrong.append(f"{path.relative_to(PACKAGE)}:{line}: only explorers import {to}")
    assert not wrong, "\n".join(wrong)


def test_inside_the_package_modules_are_imported_by_their_own_paths():
    # attnlib.stats still works for readers (attnlib/_moved.py), but the package itself
    # names attnlib.maths.stats, so that the arrows above are the real ones.
    from attnlib._moved import MOVED

    old = [
        f"{path.relative_to(PACKAGE)}:{line} imports {name}"
        for path in modules()
        if path.name != "__init__.py" or path.parent != PACKAGE
        for name, line in imported(path)
        if name.split(".")[0] == "attnlib"
        and len(name.split(".")) > 1
        and name.split(".")[1] in MOVED
    ]
    assert not old, "\n".join(old)


def test_no_module_imports_a_private_name_of_another():
    for path in modules():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                private = [a.name for a in node.names if a.name.startswith("_")]
                assert not private, f"{path.relative_to(PACKAGE)} imports {private}"


#: names with a leading underscore that are another library's public API
PUBLIC_UNDERSCORED = {
    *("_replace", "_asdict", "_fields", "_make"),  # a NamedTuple's
    *("_repr_png_", "_repr_mimebundle_", "_repr_html_"),  # IPython's display protocol
}


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")  # __future__ is not private


def _root(node: ast.expr) -> str | None:
    # the name an attribute chain starts from: mimage for mimage.AxesImage._make_image
    while isinstance(node, ast.Attribute):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def _foreign_names(tree: ast.Module) -> set[str]:
    # the names a module binds to another package's modules and objects (matplotlib, numpy, ...)
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {a.asname or a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            if node.module.split(".")[0] not in ("attnlib", "__future__"):
                names |= {a.asname or a.name for a in node.names}
    return names


def _inherited(path: Path, cls: str, name: str) -> bool:
    # whether class `cls` of module `path` has `name` from a class that is not attnlib's
    dotted = ".".join(("attnlib", *path.relative_to(PACKAGE).with_suffix("").parts))
    made = getattr(importlib.import_module(dotted.removesuffix(".__init__")), cls)
    return any(
        name in vars(base) for base in made.__mro__[1:] if not base.__module__.startswith("attnlib")
    )


def test_attnlib_uses_no_private_name_of_another_library():
    # Not imported (from matplotlib._api, import _x); not read from another package's
    # name (mimage._resample, FT2Font._layout, getattr(mimage, "_resample")); not
    # overridden in a subclass of another package's class (RendererAgg._draw_text_glyphs_
    # and_boxes); and every other `x._name` attnlib reads is one attnlib defines itself
    # (a method, an attribute it sets). A private name read from a variable whose name
    # attnlib happens to define too (font._layout, beside a _layout of ours) goes unseen.
    trees = {path: ast.parse(path.read_text(encoding="utf-8")) for path in modules()}
    ours = set(PUBLIC_UNDERSCORED)
    for tree in trees.values():
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                ours.add(node.name)
            elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
                ours.add(node.attr)
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                ours.add(node.id)
            elif isinstance(node, ast.arg):
                ours.add(node.arg)
    found = []
    for path, tree in trees.items():
        where, foreign = path.relative_to(PACKAGE), _foreign_names(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and _private(node.attr):
                if node.attr not in ours or _root(node) in foreign - PUBLIC_UNDERSCORED:
                    found.append(f"{where}:{node.lineno}: .{node.attr}")
            elif (  # getattr(mimage, "_resample", None), hasattr(RendererAgg, "_...")
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id in ("getattr", "hasattr")
                and len(node.args) >= 2
                and isinstance(node.args[1], ast.Constant)
                and _private(str(node.args[1].value))
                and (node.args[1].value not in ours or _root(node.args[0]) in foreign)
            ):
                found.append(f"{where}:{node.lineno}: {node.func.id}(..., {node.args[1].value!r})")
            elif isinstance(node, ast.ClassDef) and any(_root(b) in foreign for b in node.bases):
                found += [
                    f"{where}:{item.lineno}: {node.name} overrides {item.name}"
                    for item in node.body
                    if isinstance(item, ast.FunctionDef)
                    and _private(item.name)
                    and item.name not in PUBLIC_UNDERSCORED
                    and _inherited(path, node.name, item.name)
                ]
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                private = [a.name for a in node.names if _private(a.name)]
                if node.module.split(".")[0] != "attnlib" and (
                    private or any(map(_private, node.module.split(".")))
                ):
                    found.append(f"{where}:{node.lineno}: from {node.module} import {private}")
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if any(map(_private, alias.name.split("."))):
                        found.append(f"{where}:{node.lineno}: import {alias.name}")
    assert not found, "\n".join(found)


def code_lines(source: str) -> int:
    """Lines holding code: no docstring, comment or blank line counts."""
    docstrings = set()
    for node in ast.walk(ast.parse(source)):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr):
            value = body[0].value
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                docstrings.update(range(body[0].lineno, body[0].end_lineno + 1))
    lines = set()
    skip = {tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT}
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type not in skip and token.type != tokenize.ENDMARKER:
            lines.update(range(token.start[0], token.end[0] + 1))
    return len(lines - docstrings)


def test_code_lines_counts_code_only():
    source = (
        '"""Doc.\n\nMore."""\n\n# a comment\nx = (\n    1,\n)\n\n\n'
        'def f():\n    """Doc."""\n    return x\n'
    )
    assert code_lines(source) == 5


@pytest.mark.parametrize("path", modules(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_every_module_reads_in_one_sitting(path):
    name = path.relative_to(PACKAGE).as_posix()
    count = code_lines(path.read_text(encoding="utf-8"))
    if name in LARGE:
        return
    assert count <= MAX_CODE_LINES, f"{name}: {count} lines of code, more than {MAX_CODE_LINES}"
