"""Chinese in figures on any machine: a small font that attnlib carries with it.

matplotlib ships no Chinese font, and most Linux machines and CI images have
none, so Chinese titles would come out as empty boxes. attnlib ships a subset of
Noto Sans CJK SC (SIL Open Font License, ``font_files/OFL.txt``) holding exactly the
characters of its Chinese sentences, made by ``tools/make_cjk_font.py``.

Figures are built inside :func:`figure_fonts`. In English it does nothing, so
English figures are drawn as before. In Chinese it registers the subset with
matplotlib (once) and, for the figure being built only, asks for DejaVu Sans
(matplotlib's own font, for Latin letters and digits) with the subset as
fallback for every character DejaVu lacks; the global rcParams are left alone.
"""

from __future__ import annotations

import contextlib
import functools
from functools import cache
from pathlib import Path

from ..i18n import get_language

__all__ = [
    "FAMILY",
    "FONT_FILE",
    "LICENCE_FILE",
    "figure_families",
    "figure_fonts",
    "in_figure_fonts",
]

#: The subset and its licence, shipped as package data.
FONT_FILE = Path(__file__).parent / "font_files" / "NotoSansSC-attnlib-subset.otf"
LICENCE_FILE = FONT_FILE.with_name("OFL.txt")
#: The subset's family name, different from the full font's so neither shadows the other.
FAMILY = "Noto Sans SC attnlib subset"


@cache
def _register() -> None:
    from matplotlib import font_manager

    font_manager.fontManager.addfont(str(FONT_FILE))


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
    if get_language() == "en":
        return None
    return ["DejaVu Sans", FAMILY]


def figure_fonts() -> contextlib.AbstractContextManager:
    """A context in which new figures, axes and texts get the current language's fonts.

    Text objects take their font when they are made, so a figure built inside
    this context keeps it when it is drawn or saved later, outside.
    """
    families = figure_families()
    if families is None:
        return contextlib.nullcontext()
    import matplotlib

    _register()
    return matplotlib.rc_context({"font.family": families})


def in_figure_fonts(plot):
    """Decorate a function that builds a figure so that it builds it inside :func:`figure_fonts`."""

    @functools.wraps(plot)
    def build(*args, **kwargs):
        with figure_fonts():
            return plot(*args, **kwargs)

    return build
