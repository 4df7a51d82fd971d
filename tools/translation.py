"""Keep a translated edition (the Chinese one, notebooks/zh/) in step with the English notebooks.

    python tools/translation.py sync [NAME ...]             # rebuild the skeletons
    python tools/translation.py apply NAME texts.json       # set translated prose
    python tools/translation.py status [NAME ...]           # what needs translating
    python tools/translation.py --language CODE ...         # another edition than the first

The editions, their folders and set-up lines are the records of
attnlib/i18n/languages.py. A translated notebook has the English notebook's
cells in the same order. Its code cells are the English code, character for
character, except one set-up line, such as ``attnlib.set_language("zh")``,
after the first ``import attnlib``; its outputs
come from running that code. Each markdown cell carries, in its metadata,
``translation = {"of": <English cell id>, "en_sha": <hash of the English text
it translates>}``. When an English cell changes, its hash no longer matches,
and tests/test_translation.py names the cell until a translator revisits it
(``apply`` records the new hash). ``sync`` keeps every translation whose
English cell still exists and puts a new English cell in as it is, with an
empty hash, so it shows up as untranslated.
"""

from __future__ import annotations

import ast
import hashlib
import json
import sys
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "attnlib" / "i18n"))  # the records only: no attnlib import
from languages import EDITIONS, edition  # noqa: E402

EN = ROOT / EDITIONS["en"].notebooks
#: the editions translated from the English notebooks (a set-up line switches the language)
TRANSLATED = [language for language in EDITIONS.values() if language.setup_line is not None]
LANGUAGE = TRANSLATED[0]  # the edition this run edits (--language CODE)
TARGET = ROOT / LANGUAGE.notebooks  # its folder
COLLAPSED = "jp-MarkdownHeadingCollapsed"  # JupyterLab: the heading opens collapsed


def sha(text: str) -> str:
    """A short hash of an English cell's text: which version a translation is of."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def english_names() -> list[str]:
    return sorted(p.stem for p in EN.glob("*.ipynb"))


def with_setup(source: str) -> str:
    """The English code with the language line after its ``import attnlib``."""
    lines = source.split("\n")
    for k, line in enumerate(lines):
        if line.strip() == "import attnlib":
            return "\n".join([*lines[: k + 1], LANGUAGE.setup_line, *lines[k + 1 :]])
    raise ValueError("no 'import attnlib' line in this cell")


# ------------------------------------------------------------- code, strings aside
# A Chinese code cell may translate its strings and comments (printed sentences,
# titles, labels) and nothing else: tests/test_zh_code.py holds every cell to that,
# and sync keeps a translated cell whose code is still the English code.

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
    """``attnlib.set_language("<code>")`` for a translated edition, as a statement of its own."""
    return (
        isinstance(node, ast.Expr)
        and isinstance(node.value, ast.Call)
        and isinstance(node.value.func, ast.Attribute)
        and node.value.func.attr == "set_language"
        and isinstance(node.value.func.value, ast.Name)
        and node.value.func.value.id == "attnlib"
        and [ast.literal_eval(a) for a in node.value.args if isinstance(a, ast.Constant)]
        in [[code] for code, language in EDITIONS.items() if language.setup_line]
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


def same_code(english: str, chinese: str) -> bool:
    """True if the two cells differ only in strings, comments and the language line."""
    try:
        zh_tree = normalised(chinese, drop_language_line=True)
    except SyntaxError:
        return False
    return ast.dump(normalised(english, drop_language_line=True)) == ast.dump(zh_tree)


def expected_code(english: nbformat.NotebookNode) -> list[str]:
    """The code cells a Chinese notebook must hold, in order."""
    out, done = [], False
    for cell in english.cells:
        if cell.cell_type != "code":
            continue
        source = cell.source
        if not done and any(line.strip() == "import attnlib" for line in source.split("\n")):
            source, done = with_setup(source), True
        out.append(source)
    if not done:
        raise ValueError("the notebook never runs 'import attnlib'")
    return out


def sync(name: str) -> Path:
    english = nbformat.read(EN / f"{name}.ipynb", as_version=4)
    path = TARGET / f"{name}.ipynb"
    old = nbformat.read(path, as_version=4) if path.exists() else None
    kept = {}
    if old is not None:
        for cell in old.cells:
            info = cell.metadata.get("translation")
            if cell.cell_type == "markdown" and info:
                kept[info["of"]] = cell
    translated = {}  # the Chinese code cells, by English cell id: kept if still the same code
    if old is not None:
        for cell in old.cells:
            if cell.cell_type == "code" and "translation" in cell.metadata:
                translated[cell.metadata["translation"]["of"]] = cell
    codes = iter(expected_code(english))
    cells = []
    for cell in english.cells:
        if cell.cell_type == "code":
            source = next(codes)
            previous = translated.get(cell.id)
            if previous is not None and same_code(source, previous.source):
                source = previous.source  # its translated strings and comments stay
            new = nbformat.v4.new_code_cell(source)
            if previous is not None:
                new.id = previous.id  # the same cell: no diff of a new random id
            # tags, and how JupyterLab shows the cell (e.g. outputs stored collapsed)
            new.metadata = {k: v for k, v in cell.metadata.items() if k in ("tags", "jupyter")}
            new.metadata["translation"] = {"of": cell.id}
            cells.append(new)
        else:
            if cell.id in kept:
                new = kept[cell.id]
            else:
                new = nbformat.v4.new_markdown_cell(cell.source)
                new.metadata["translation"] = {"of": cell.id, "en_sha": ""}
            # a heading that opens collapsed in English opens collapsed in Chinese
            new.metadata.pop(COLLAPSED, None)
            if cell.metadata.get(COLLAPSED):
                new.metadata[COLLAPSED] = True
            cells.append(new)
    nb = nbformat.v4.new_notebook(cells=cells, metadata=english.metadata)
    if old is not None:  # keep the outputs of unchanged code cells until the next execution
        outputs = {
            c.metadata.get("translation", {}).get("of"): c
            for c in old.cells
            if c.cell_type == "code"
        }
        for cell in nb.cells:
            prev = outputs.get(cell.metadata["translation"]["of"])
            if cell.cell_type == "code" and prev is not None and prev.source == cell.source:
                cell.outputs, cell.execution_count = prev.outputs, prev.execution_count
    TARGET.mkdir(exist_ok=True)
    nbformat.write(nb, path)
    return path


def apply(name: str, texts: dict[str, str]) -> int:
    """Set the Chinese text of the markdown cells named by English cell id; record the hash."""
    english = {c.id: c for c in nbformat.read(EN / f"{name}.ipynb", as_version=4).cells}
    path = TARGET / f"{name}.ipynb"
    nb = nbformat.read(path, as_version=4)
    done = 0
    for cell in nb.cells:
        info = cell.metadata.get("translation", {})
        if cell.cell_type == "markdown" and info.get("of") in texts:
            cell.source = texts[info["of"]].strip("\n")
            info["en_sha"] = sha(english[info["of"]].source)
            done += 1
    unknown = set(texts) - {c.metadata["translation"]["of"] for c in nb.cells}
    if unknown:
        raise SystemExit(f"{name}: no markdown cell translates {sorted(unknown)}")
    nbformat.write(nb, path)
    return done


def untranslated(name: str) -> list[str]:
    """English cell ids whose Chinese is missing or of an older English text."""
    english = {c.id: c for c in nbformat.read(EN / f"{name}.ipynb", as_version=4).cells}
    path = TARGET / f"{name}.ipynb"
    if not path.exists():
        return [cid for cid, c in english.items() if c.cell_type == "markdown"]
    out = []
    for cell in nbformat.read(path, as_version=4).cells:
        info = cell.metadata.get("translation", {})
        if cell.cell_type == "markdown":
            source = english.get(info.get("of"))
            if source is None or info.get("en_sha") != sha(source.source):
                out.append(info.get("of"))
    return out


def main(argv: list[str]) -> int:
    global LANGUAGE, TARGET
    if argv[:1] == ["--language"] and len(argv) > 1:
        LANGUAGE = edition(argv[1])
        if LANGUAGE.setup_line is None:
            raise SystemExit(f"{LANGUAGE.name} is the edition the others are translated from")
        TARGET, argv = ROOT / LANGUAGE.notebooks, argv[2:]
    if not argv or argv[0] not in {"sync", "apply", "status"}:
        print(__doc__)
        return 2
    command, rest = argv[0], argv[1:]
    if command == "apply":
        name, texts = rest[0], json.loads(Path(rest[1]).read_text(encoding="utf-8"))
        print(f"{name}: {apply(name, texts)} cells translated")
        return 0
    for name in rest or english_names():
        if command == "sync":
            print(f"{sync(name).relative_to(ROOT)}: {len(untranslated(name))} cells to translate")
        else:
            todo = untranslated(name)
            print(f"{name}: {len(todo)} to translate" + (f" {todo}" if todo else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
