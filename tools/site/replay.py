"""Run the few cells of a notebook that a website page needs, without a kernel.

A page of the course website shows the notebook's stored outputs, except for two
kinds of cell it makes live: an explorer (the site draws it in the page from the
explorer object) and a prediction check (the site needs the check's arguments, such
as ``att=att_hand``, to work out its answers). Neither is in the stored outputs, so
the builder runs the cell again here, after the cells it depends on: for each name
a cell reads, the last cell before it that assigns that name, and so on back to the
imports. Every other cell is left alone (no timing, no training it does not need).

A cell that cannot be run this way (IPython syntax, an error) leaves the cells that
need it with their stored outputs; :class:`Replay` lists why in ``failed``.
"""

from __future__ import annotations

import ast
import builtins
import contextlib
import io
import re
from dataclasses import dataclass, field

__all__ = ["Replay", "names"]

_BUILTINS = set(dir(builtins)) | {"display", "get_ipython"}


def names(tree: ast.AST) -> tuple[set[str], set[str]]:
    """The names a cell assigns (or imports, or defines) and the names it reads."""
    stored, loaded = set(), set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            (stored if isinstance(node.ctx, ast.Store) else loaded).add(node.id)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            stored |= {(a.asname or a.name).split(".")[0] for a in node.names}
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            stored.add(node.name)
        elif isinstance(node, ast.arg):
            stored.add(node.arg)
    return stored, loaded - _BUILTINS


@dataclass
class Replay:
    """The code cells of one notebook (their sources, in order), run on demand.

    ``value(k)`` runs what cell k needs and returns the value of cell k's last
    expression; ``namespace(k)`` runs what cell k needs and returns the names
    before it (for the arguments of a call in cell k). ``setup`` runs first
    (``attnlib.set_language("zh")`` for the Chinese edition).
    """

    sources: list[str]
    setup: str = ""
    failed: dict[int, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.trees: list[ast.Module | None] = []
        for source in self.sources:
            # IPython's magics and shell lines (%matplotlib inline, !pip): not Python, not needed
            source = re.sub(r"(?m)^[ \t]*[%!].*$", "pass", source)
            try:
                self.trees.append(ast.parse(source))
            except SyntaxError:  # IPython syntax (%matplotlib, !pip): never replayed
                self.trees.append(None)
        self.ns: dict = {"display": lambda *a, **k: None}
        exec(self.setup, self.ns)
        self.done: set[int] = set()

    def _needed(self, k: int) -> list[int]:
        # cells before k that assign the names cell k reads, back to the imports
        want = set(names(self.trees[k])[1]) if self.trees[k] else set()
        chosen: set[int] = set()
        for c in range(k - 1, -1, -1):
            tree = self.trees[c]
            if tree is None:
                continue
            stored, loaded = names(tree)
            if stored & want:
                chosen.add(c)
                want = (want - stored) | loaded
        return sorted(chosen)

    def _run(self, cells: list[int]) -> None:
        for c in cells:
            if c in self.done:
                continue
            if c in self.failed:
                raise RuntimeError(self.failed[c])
            try:
                with contextlib.redirect_stdout(io.StringIO()):
                    exec(compile(self.trees[c], f"<cell {c}>", "exec"), self.ns)
            except Exception as exc:
                self.failed[c] = f"cell {c}: {type(exc).__name__}: {exc}"
                raise RuntimeError(self.failed[c]) from exc
            self.done.add(c)

    def namespace(self, k: int) -> dict:
        """The names cell k reads, after running the cells they come from."""
        self._run(self._needed(k))
        return self.ns

    def value(self, k: int):
        """Run cell k (after what it needs) and return its last expression's value."""
        self.namespace(k)
        tree = self.trees[k]
        if tree is None or not tree.body or not isinstance(tree.body[-1], ast.Expr):
            return None
        body = ast.Module(body=tree.body[:-1], type_ignores=[])
        with contextlib.redirect_stdout(io.StringIO()):
            exec(compile(body, f"<cell {k}>", "exec"), self.ns)
            last = ast.Expression(body=tree.body[-1].value)
            value = eval(compile(last, f"<cell {k}>", "eval"), self.ns)
        self.done.add(k)
        return value
