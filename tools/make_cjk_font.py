"""Make each language's figure font: a subset of its system font that covers what figures draw.

matplotlib ships no Chinese font and most machines have none, so attnlib carries
a subset of one (a full CJK font is ~16 MB). The subset holds three kinds of
characters:

- every character of the encodings and Unicode blocks the language's record names
  (for Chinese, GB2312: its 6763 hanzi, the punctuation and the full-width forms),
  so that a learner's own tokens, titles and labels draw (北京, 天安门, 鸽子), not
  only attnlib's words;
- the characters of the sentences the pictures wing can draw (every ``tr("...")`` in
  attnlib/pictures/, translated), whatever their encoding;
- the characters of every string literal in the edition's notebooks' code cells (the
  titles, labels and legends they pass to a figure; following each string to a
  figure would miss the ones passed on through a variable).

What DejaVu Sans, first in the figures' list of fonts, draws itself is left out. Rerun
after adding or changing a translation of a figure's text, or a string in a notebook
(only a character outside GB2312 changes the subset):

    .venv/bin/python tools/make_cjk_font.py            # every language with a font
    .venv/bin/python tools/make_cjk_font.py zh

The language's record (attnlib/i18n/languages.py) names the font: for Chinese,
Debian's ``fonts-noto-cjk`` (``apt-get install -y fonts-noto-cjk``). fontTools
(a matplotlib dependency) cuts it. It writes into ``attnlib/pictures/font_files/``
the subset, renamed so that it never shadows a full font installed on the
machine, and the licence it is distributed under, with the font's copyright line.
"""

from __future__ import annotations

import ast
import string
import sys
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTCollection

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # the package of this checkout, not another installed one

from attnlib import i18n  # noqa: E402
from attnlib.pictures import fonts  # noqa: E402

#: Where everything a figure draws is written: its tr("...") sentences are the font's text.
FIGURE_CODE = ROOT / "attnlib" / "pictures"


def figure_sentences() -> set[str]:
    """Every English sentence the figures can draw: the literal of each tr(...) in the pictures."""
    found = set()
    for path in sorted(FIGURE_CODE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "tr"
                and node.args
                and isinstance(node.args[0], ast.Constant)
            ):
                found.add(node.args[0].value)
    return found


def notebook_strings(code: str) -> set[str]:
    """Every string literal in the code cells of `code`'s notebooks (titles, labels)."""
    import nbformat

    found = set()
    for path in sorted((ROOT / i18n.edition(code).notebooks).glob("*.ipynb")):
        for cell in nbformat.read(path, as_version=4).cells:
            if cell.cell_type != "code":
                continue
            lines = cell.source.split("\n")  # %magic and !shell lines are no Python
            source = "\n".join(line for line in lines if not line.lstrip().startswith(("%", "!")))
            for node in ast.walk(ast.parse(source)):
                if isinstance(node, ast.Constant) and isinstance(node.value, str):
                    found.add(node.value)
    return found


def coverage(font: i18n.Font) -> set[str]:
    """Every character of the encodings and Unicode blocks `font`'s record names."""
    found = set()
    for codec in font.codecs:
        for point in range(0x80, 0x10000):  # the basic plane: GB2312 lies inside it
            if 0xD800 <= point <= 0xDFFF:  # surrogates: no characters
                continue
            try:
                chr(point).encode(codec)
            except UnicodeEncodeError:
                continue
            found.add(chr(point))
    for first, last in font.blocks:
        found |= {chr(point) for point in range(first, last + 1)}
    return found


def characters(code: str) -> str:
    """Every character the subset of `code`'s font must hold: the record's encodings and
    blocks, its figures' sentences and its notebooks' strings, less what DejaVu Sans draws,
    plus ASCII and the symbols the figures put next to them."""
    wanted = set(string.printable.strip()) | set(" ×−∞√α·‖…")
    font = i18n.edition(code).font
    if font is not None:
        wanted |= coverage(font) - fonts.first_font_characters()
    catalog = i18n.catalog(code)
    for sentence in figure_sentences():
        wanted |= set(catalog.get(sentence, "")) - fonts.first_font_characters()
    if code != "en":
        for literal in notebook_strings(code):
            wanted |= set(literal) - fonts.first_font_characters()
    return "".join(sorted(c for c in wanted if c.isprintable()))


def source_face(font: i18n.Font):
    for face in TTCollection(font.source).fonts:
        if face["name"].getDebugName(1) == font.source_family:
            return face
    raise SystemExit(f"{font.source} holds no {font.source_family!r} face")


def licence_text(font: i18n.Font, copyright_line: str) -> str:
    """The OFL 1.1 as Debian quotes it, under the font's own copyright line."""
    lines = Path(font.source_licence).read_text(encoding="utf-8").splitlines()
    start = next(i for i, line in enumerate(lines) if "SIL OPEN FONT LICENSE Version 1.1" in line)
    body = []
    for line in lines[start:]:
        if line and not line.startswith(" "):
            break  # the next paragraph of the Debian file
        body.append("" if line.strip() == "." else line[1:])
    return (
        f"{font.file}: a subset of {font.source_family} Regular made by\n"
        "tools/make_cjk_font.py, renamed "
        f"{font.family!r}.\n\n{copyright_line}\n\n" + "\n".join(body).rstrip() + "\n"
    )


def make(language: i18n.Language) -> None:
    font = language.font
    if not Path(font.source).exists():
        raise SystemExit(f"{font.source} not found: apt-get install -y {font.system_package}")
    face = source_face(font)
    copyright_line = face["name"].getDebugName(0)
    text = characters(language.code)
    options = subset.Options()
    options.hinting = False  # the Agg renderer does its own; hints only add bytes
    options.layout_features = ["kern", "vert"]
    options.name_IDs = [0, 1, 2, 3, 4, 5, 6, 13, 14, 16, 17]
    subsetter = subset.Subsetter(options)
    subsetter.populate(text=text)
    subsetter.subset(face)
    missing = [c for c in text if ord(c) not in face.getBestCmap()]
    if missing:
        raise SystemExit(f"{font.source_family} has no glyph for {''.join(missing)!r}")
    names = face["name"]
    for name_id in (1, 4, 16):
        names.setName(font.family, name_id, 3, 1, 0x409)
    names.setName(font.family.replace(" ", "") + "-Regular", 6, 3, 1, 0x409)
    names.removeNames(platformID=1)  # keep only the Windows (Unicode) records
    names.setName("Regular", 2, 3, 1, 0x409)
    names.setName("Regular", 17, 3, 1, 0x409)
    fonts.FONT_DIR.mkdir(exist_ok=True)
    face.recalcTimestamp = False  # the same catalogue gives the same bytes: no noise in git
    path = fonts.font_file(font)
    face.save(str(path))
    fonts.licence_file(font).write_text(licence_text(font, copyright_line), encoding="utf-8")
    size = path.stat().st_size
    print(f"{path.relative_to(ROOT)}: {len(text)} characters, {size / 1024:.0f} kB")


def main(codes: list[str]) -> None:
    languages = [i18n.edition(code) for code in codes] or list(i18n.EDITIONS.values())
    for language in languages:
        if language.font is not None:
            make(language)


if __name__ == "__main__":
    main(sys.argv[1:])
