"""One record per language: everything that differs between the editions, in one place.

The library (``set_language``, the figure fonts), the tools (the font subset,
the notebooks' translation and execution), the tests and the Makefile
(``make lab EDITION=zh``) all read :data:`EDITIONS`; none of them names a
language. A third language is a new record here, a catalogue package beside
``zh/``, and its notebooks (CONTRIBUTING.md lists the steps).

This module imports nothing of attnlib, so that the Makefile can ask it
about an edition before anything is installed::

    python3 attnlib/i18n/languages.py zh    # -> notebooks/zh jupyter/lab/settings-zh zh
"""

from __future__ import annotations

import sys
from dataclasses import dataclass

__all__ = ["EDITIONS", "Font", "Language", "edition"]


@dataclass(frozen=True, kw_only=True)
class Font:
    """A font a language's figures need beyond matplotlib's own, shipped as a subset.

    ``file`` (in ``attnlib/pictures/font_files/``, with its licence in
    ``licence_file``) is cut by ``tools/make_cjk_font.py`` from ``source``
    (face ``source_family``), which the system package ``system_package``
    installs with its licence text in ``source_licence``; ``family`` is the
    subset's own name, so that it never shadows a full installation of the font.

    The subset holds every character of the encodings ``codecs`` (for Chinese,
    GB2312: its 6763 hanzi and its punctuation) and of the Unicode ``blocks``
    (first, last code point), so that a learner's own text draws too, besides
    what attnlib's figures and the edition's notebooks draw. Beyond it, the first
    of ``system_families`` that the machine has fills in (a rare character).
    """

    file: str
    licence_file: str
    family: str
    source: str
    source_family: str
    system_package: str
    source_licence: str
    codecs: tuple[str, ...] = ()
    blocks: tuple[tuple[int, int], ...] = ()
    system_families: tuple[str, ...] = ()


@dataclass(frozen=True, kw_only=True)
class Language:
    """What one edition of the notebooks needs.

    Attributes
    ----------
    code : str
        ``set_language``'s argument, ``ATTNLIB_LANG``'s value, the catalogue
        package ``attnlib.i18n.<code>`` (none for English), ``EDITION=<code>``.
    name : str
        In English, for messages.
    notebooks : str
        The folder of its notebooks, from the repository's root.
    setup_line : str or None
        The line its notebooks run after ``import attnlib`` (None: English,
        the notebooks as written).
    font : Font or None
        The font its figures need; None: matplotlib's DejaVu Sans suffices.
    lab_locale : str or None
        JupyterLab's locale for its menus, from a language pack.
    lab_settings : str
        The JupyterLab settings folder ``make lab`` uses, from the root.
    lab_extra : str or None
        The pip extra of pyproject.toml that installs the language pack.
    readme : str
        Its README, from the root (README.md for English).
    deeper : str
        How a notebook heading of a "deeper" section starts (``tools/study_time.py``:
        everything else is the core path).
    table_words : (str, str)
        The study-time table's header row and its total's label, as notebook 00 and
        the README show them (``tools/study_time.py --write``).
    script : str
        A regular-expression character class of the language's own script: a
        translation of an English sentence holds at least one such character
        (``tests/test_i18n.py``); empty for English.
    """

    code: str
    name: str
    notebooks: str
    setup_line: str | None = None
    font: Font | None = None
    lab_locale: str | None = None
    lab_settings: str = "jupyter/lab/settings"
    lab_extra: str | None = None
    readme: str
    deeper: str
    table_words: tuple[str, str]
    script: str = ""


#: code -> Language, English first (the default).
EDITIONS = {
    "en": Language(
        code="en",
        name="English",
        notebooks="notebooks",
        readme="README.md",
        deeper="Deeper · 深入:",
        table_words=("| notebook | core path, min | deeper sections, min |", "**total**"),
    ),
    "zh": Language(
        code="zh",
        name="Chinese (simplified)",
        notebooks="notebooks/zh",
        setup_line='attnlib.set_language("zh")  # 中文版：attnlib 的输出用中文',
        font=Font(
            file="NotoSansSC-attnlib-subset.otf",
            licence_file="OFL.txt",
            family="Noto Sans SC attnlib subset",
            source="/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
            source_family="Noto Sans CJK SC",
            system_package="fonts-noto-cjk",
            source_licence="/usr/share/doc/fonts-noto-cjk/copyright",
            codecs=("gb2312",),
            blocks=(
                (0x3000, 0x303F),  # CJK symbols and punctuation: 。、「」《》【】
                (0xFF01, 0xFF60),  # full-width forms: ，：；！？（）０-９Ａ-Ｚ
                (0xFFE0, 0xFFE6),  # full-width signs: ￥ ￡
                (0x2010, 0x2027),  # general punctuation: — ‘’ “” … ·
            ),
            # sans-serif faces for simplified Chinese, the likeliest first (Linux, macOS,
            # Windows): the first one installed draws what the subset lacks
            system_families=(
                "Noto Sans CJK SC",
                "Source Han Sans SC",
                "Noto Sans SC",
                "WenQuanYi Zen Hei",
                "WenQuanYi Micro Hei",
                "PingFang SC",
                "Hiragino Sans GB",
                "Heiti SC",
                "Microsoft YaHei",
                "SimHei",
                "Droid Sans Fallback",
            ),
        ),
        lab_locale="zh_CN",
        lab_settings="jupyter/lab/settings-zh",
        lab_extra="zh",
        readme="README.zh.md",
        deeper="深入：",
        table_words=("| 笔记本 | 核心路径（分钟） | 深入部分（分钟） |", "**合计**"),
        script=r"[\u4e00-\u9fff]",
    ),
}


def edition(code: str) -> Language:
    """The record of `code`, or a ValueError naming the editions there are.

    Examples
    --------
    >>> edition("zh").notebooks
    'notebooks/zh'
    >>> edition("fr")
    Traceback (most recent call last):
    ...
    ValueError: language must be one of 'en', 'zh', got 'fr'
    """
    if code not in EDITIONS:
        raise ValueError(f"language must be one of {', '.join(map(repr, EDITIONS))}, got {code!r}")
    return EDITIONS[code]


def _main(argv: list[str]) -> int:
    # For the Makefile: "<notebooks> <lab settings> <pip extra or ->" of one edition.
    try:
        language = edition(argv[0] if argv else "en")
    except ValueError as error:
        print(f"EDITION: {error}", file=sys.stderr)
        return 1
    print(language.notebooks, language.lab_settings, language.lab_extra or "-")
    return 0


if __name__ == "__main__":
    sys.exit(_main(sys.argv[1:]))
