"""Keep the Chinese notebooks (notebooks/zh/) in step with the English ones.

    python tools/translation.py sync [NAME ...]             # rebuild the zh skeletons
    python tools/translation.py apply NAME texts.json       # set translated prose
    python tools/translation.py status [NAME ...]           # what needs translating

A Chinese notebook has the English notebook's cells in the same order. Its code
cells are the English code, character for character, except one setup line,
``attnlib.set_language("zh")``, after the first ``import attnlib``; its outputs
come from running that code. Each markdown cell carries, in its metadata,
``translation = {"of": <English cell id>, "en_sha": <hash of the English text
it translates>}``. When an English cell changes, its hash no longer matches,
and tests/test_translation.py names the cell until a translator revisits it
(``apply`` records the new hash). ``sync`` keeps every translation whose
English cell still exists and puts a new English cell in as it is, with an
empty hash, so it shows up as untranslated.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parent.parent
EN = ROOT / "notebooks"
ZH = EN / "zh"
COLLAPSED = "jp-MarkdownHeadingCollapsed"  # JupyterLab: the heading opens collapsed
SETUP = 'attnlib.set_language("zh")  # 中文版：attnlib 的输出用中文'


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
            return "\n".join([*lines[: k + 1], SETUP, *lines[k + 1 :]])
    raise ValueError("no 'import attnlib' line in this cell")


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
    path = ZH / f"{name}.ipynb"
    old = nbformat.read(path, as_version=4) if path.exists() else None
    kept = {}
    if old is not None:
        for cell in old.cells:
            info = cell.metadata.get("translation")
            if cell.cell_type == "markdown" and info:
                kept[info["of"]] = cell
    codes = iter(expected_code(english))
    cells = []
    for cell in english.cells:
        if cell.cell_type == "code":
            new = nbformat.v4.new_code_cell(next(codes))
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
    ZH.mkdir(exist_ok=True)
    nbformat.write(nb, path)
    return path


def apply(name: str, texts: dict[str, str]) -> int:
    """Set the Chinese text of the markdown cells named by English cell id; record the hash."""
    english = {c.id: c for c in nbformat.read(EN / f"{name}.ipynb", as_version=4).cells}
    path = ZH / f"{name}.ipynb"
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
    path = ZH / f"{name}.ipynb"
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
