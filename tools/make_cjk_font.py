"""Make attnlib's Chinese figure font: a subset of Noto Sans CJK SC that covers the catalogue.

matplotlib ships no Chinese font and most machines have none, so attnlib carries
the few hundred characters its Chinese sentences use (a full CJK font is ~16 MB,
the subset is a few dozen kB). Rerun after adding or changing a translation:

    .venv/bin/python tools/make_cjk_font.py

It needs Debian's ``fonts-noto-cjk`` (``apt-get install -y fonts-noto-cjk``) and
fontTools (a matplotlib dependency). It writes ``attnlib/pictures/font_files/`` : the subset,
renamed so that it never shadows a full Noto installed on the machine, and the
SIL Open Font License it is distributed under, with the font's copyright line.
"""

from __future__ import annotations

import string
import sys
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTCollection

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # the package of this checkout, not another installed one

from attnlib import fonts, i18n  # noqa: E402

SOURCE = Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc")
DEBIAN_COPYRIGHT = Path("/usr/share/doc/fonts-noto-cjk/copyright")
SOURCE_FAMILY = "Noto Sans CJK SC"


def characters() -> str:
    """Every character the subset must hold: the catalogue's that DejaVu Sans lacks, plus
    ASCII and the symbols the figures put next to Chinese (×, −, ∞, √, α, ·, ‖)."""
    wanted = set(string.printable.strip()) | set(" ×−∞√α·‖…")
    for chinese in i18n.catalog("zh").values():
        wanted |= set(chinese) - fonts.first_font_characters()  # DejaVu draws those itself
    return "".join(sorted(c for c in wanted if c.isprintable()))


def simplified_chinese_face():
    for face in TTCollection(str(SOURCE)).fonts:
        if face["name"].getDebugName(1) == SOURCE_FAMILY:
            return face
    raise SystemExit(f"{SOURCE} holds no {SOURCE_FAMILY!r} face")


def licence_text(copyright_line: str) -> str:
    """The OFL 1.1 as Debian quotes it, under the font's own copyright line."""
    lines = DEBIAN_COPYRIGHT.read_text(encoding="utf-8").splitlines()
    start = next(i for i, line in enumerate(lines) if "SIL OPEN FONT LICENSE Version 1.1" in line)
    body = []
    for line in lines[start:]:
        if line and not line.startswith(" "):
            break  # the next paragraph of the Debian file
        body.append("" if line.strip() == "." else line[1:])
    return (
        f"{fonts.FONT_FILE.name}: a subset of Noto Sans CJK SC Regular made by\n"
        "tools/make_cjk_font.py, renamed "
        f"{fonts.FAMILY!r}.\n\n{copyright_line}\n\n" + "\n".join(body).rstrip() + "\n"
    )


def main() -> None:
    if not SOURCE.exists():
        raise SystemExit(f"{SOURCE} not found: apt-get install -y fonts-noto-cjk")
    face = simplified_chinese_face()
    copyright_line = face["name"].getDebugName(0)
    text = characters()
    options = subset.Options()
    options.hinting = False  # the Agg renderer does its own; hints only add bytes
    options.layout_features = ["kern", "vert"]
    options.name_IDs = [0, 1, 2, 3, 4, 5, 6, 13, 14, 16, 17]
    subsetter = subset.Subsetter(options)
    subsetter.populate(text=text)
    subsetter.subset(face)
    missing = [c for c in text if ord(c) not in face.getBestCmap()]
    if missing:
        raise SystemExit(f"{SOURCE_FAMILY} has no glyph for {''.join(missing)!r}")
    names = face["name"]
    for name_id in (1, 4, 16):
        names.setName(fonts.FAMILY, name_id, 3, 1, 0x409)
    names.setName(fonts.FAMILY.replace(" ", "") + "-Regular", 6, 3, 1, 0x409)
    names.removeNames(platformID=1)  # keep only the Windows (Unicode) records
    names.setName("Regular", 2, 3, 1, 0x409)
    names.setName("Regular", 17, 3, 1, 0x409)
    fonts.FONT_FILE.parent.mkdir(exist_ok=True)
    face.recalcTimestamp = False  # the same catalogue gives the same bytes: no noise in git
    face.save(str(fonts.FONT_FILE))
    fonts.LICENCE_FILE.write_text(licence_text(copyright_line), encoding="utf-8")
    size = fonts.FONT_FILE.stat().st_size
    print(f"{fonts.FONT_FILE.relative_to(ROOT)}: {len(text)} characters, {size / 1024:.0f} kB")


if __name__ == "__main__":
    main()
