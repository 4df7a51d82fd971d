"""Every language's characters in figures on any machine: small fonts that attnlib carries.

matplotlib ships no Chinese font, and most Linux machines and CI images have
none, so Chinese titles would come out as empty boxes. A language whose
record (:data:`attnlib.i18n.EDITIONS`) names a font gets a subset of it in
``font_files/``, holding the characters its figures can draw, made by
``tools/make_cjk_font.py``; for Chinese, Noto Sans CJK SC (SIL Open Font
License, ``font_files/OFL.txt``).

Figures are built inside :func:`figure_fonts`. For a language without a font
(English) it does nothing, so those figures are drawn as before. Otherwise it
registers the language's subset with matplotlib (once) and, for the figure
being built only, asks for DejaVu Sans (matplotlib's own font, for Latin
letters and digits) with the subset as fallback for every character DejaVu
lacks; the global rcParams are left alone.
"""

from __future__ import annotations

import contextlib
import functools
from functools import cache
from pathlib import Path

from ..i18n import Font, edition, get_language

__all__ = [
    "FONT_DIR",
    "figure_families",
    "figure_fonts",
    "font_file",
    "in_figure_fonts",
    "licence_file",
]

#: Where the subsets and their licences are, shipped as package data.
FONT_DIR = Path(__file__).parent / "font_files"


def font_file(font: Font) -> Path:
    """The shipped subset of `font` (a language record's ``font``)."""
    return FONT_DIR / font.file


def licence_file(font: Font) -> Path:
    """The licence shipped beside the subset of `font`."""
    return FONT_DIR / font.licence_file


@cache
def _register(path: str) -> None:
    from matplotlib import font_manager

    font_manager.fontManager.addfont(path)


@cache
def first_font_characters() -> frozenset[str]:
    """The characters DejaVu Sans (matplotlib's own font, first in the list) draws itself.

    The subset needs only the others: a character such as ᵀ, which DejaVu has
    and Noto Sans CJK lacks, never falls back to it.
    """
    from fontTools.ttLib import TTFont
    from matplotlib import font_manager

    path = font_manager.findfont(font_manager.FontProperties(family="DejaVu Sans"))
    return frozenset(chr(code) for code in TTFont(path)["cmap"].getBestCmap())


def figure_families() -> list[str] | None:
    """The font families a figure uses in the current language; None means matplotlib's default.

    Examples
    --------
    >>> from attnlib import set_language
    >>> figure_families() is None
    True
    >>> set_language("zh")
    >>> figure_families()
    ['DejaVu Sans', 'Noto Sans SC attnlib subset']
    >>> set_language("en")
    """
    font = edition(get_language()).font
    return None if font is None else ["DejaVu Sans", font.family]


def figure_fonts() -> contextlib.AbstractContextManager:
    """A context in which new figures, axes and texts get the current language's fonts.

    Text objects take their font when they are made, so a figure built inside
    this context keeps it when it is drawn or saved later, outside.
    """
    font = edition(get_language()).font
    if font is None:
        return contextlib.nullcontext()
    import matplotlib

    _register(str(font_file(font)))
    return matplotlib.rc_context({"font.family": figure_families()})


def in_figure_fonts(plot):
    """Decorate a function that builds a figure so that it builds it inside :func:`figure_fonts`."""

    @functools.wraps(plot)
    def build(*args, **kwargs):
        with figure_fonts():
            return plot(*args, **kwargs)

    return build
