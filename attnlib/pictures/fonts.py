"""Every language's characters in figures on any machine: fonts that attnlib carries.

matplotlib ships no Chinese font, and most Linux machines and CI images have
none, so Chinese text would come out as empty boxes. A language whose
record (:data:`attnlib.i18n.EDITIONS`) names a font gets a subset of it in
``font_files/``, made by ``tools/make_cjk_font.py``: for Chinese, Noto Sans CJK
SC (SIL Open Font License, ``font_files/OFL.txt``) cut to every character of
GB2312 (6763 hanzi, punctuation, full-width forms) and whatever else attnlib's
figures and the Chinese notebooks draw, about 1.6 MB. So a learner's own tokens
(北京, 天安门, 鸽子) draw as well as attnlib's words.

The subset comes first, before any CJK font the machine has: every character it
holds is then drawn the same way on every machine (the notebooks' stored figures
do not depend on where they were run), always as simplified Chinese (a system's
first CJK face may be Japanese, whose forms of some hanzi differ) and always sans
serif, like DejaVu Sans beside it. The first font of the record's
``system_families`` that the machine has comes after it, for a character the
subset lacks (a rare or a traditional one), so that it draws rather than a box.

Two places use them:

- attnlib's own figures are built inside :func:`figure_fonts`. For a language
  without a font (English) it does nothing, so those figures are drawn as
  before. Otherwise it registers the subset with matplotlib (once) and, for the
  figure being built only, asks for DejaVu Sans (matplotlib's own font, for
  Latin letters and digits) with the fonts above as fallbacks for every
  character DejaVu lacks.
- a learner's plain matplotlib figures (``plt.title("注意力")``) get the same
  fallbacks from :func:`plain_figure_fonts`, which ``attnlib.set_language``
  calls: it adds them after the families of ``rcParams["font.family"]``, and takes
  them out again for a language without a font, so English figures are drawn
  exactly as matplotlib draws them.
"""

from __future__ import annotations

import contextlib
import functools
import sys
from functools import cache
from pathlib import Path

from ..i18n import Font, edition, get_language

__all__ = [
    "FONT_DIR",
    "fallback_families",
    "figure_families",
    "figure_fonts",
    "font_file",
    "in_figure_fonts",
    "licence_file",
    "plain_figure_fonts",
    "system_family",
]

#: Where the subsets and their licences are, shipped as package data.
FONT_DIR = Path(__file__).parent / "font_files"

# The families plain_figure_fonts added to rcParams["font.family"], to take out again.
_added: list[str] = []


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


@cache
def system_family(font: Font) -> str | None:
    """The first of `font`'s ``system_families`` that matplotlib finds on this machine."""
    from matplotlib import font_manager

    installed = {entry.name for entry in font_manager.fontManager.ttflist}
    return next((family for family in font.system_families if family in installed), None)


def fallback_families(font: Font | None) -> list[str]:
    """The families that draw what DejaVu Sans lacks: the subset, then a system font if any."""
    if font is None:
        return []
    _register(str(font_file(font)))
    system = system_family(font)
    return [font.family] if system is None else [font.family, system]


def figure_families() -> list[str] | None:
    """The font families a figure uses in the current language; None means matplotlib's default.

    Examples
    --------
    >>> from attnlib import set_language
    >>> figure_families() is None
    True
    >>> set_language("zh")
    >>> figure_families()[:2]
    ['DejaVu Sans', 'Noto Sans SC attnlib subset']
    >>> set_language("en")
    """
    font = edition(get_language()).font
    return None if font is None else ["DejaVu Sans", *fallback_families(font)]


def figure_fonts() -> contextlib.AbstractContextManager:
    """A context in which new figures, axes and texts get the current language's fonts.

    Text objects take their font when they are made, so a figure built inside
    this context keeps it when it is drawn or saved later, outside.
    """
    families = figure_families()
    if families is None:
        return contextlib.nullcontext()
    import matplotlib

    return matplotlib.rc_context({"font.family": families})


def in_figure_fonts(plot):
    """Decorate a function that builds a figure so that it builds it inside :func:`figure_fonts`."""

    @functools.wraps(plot)
    def build(*args, **kwargs):
        with figure_fonts():
            return plot(*args, **kwargs)

    return build


def plain_figure_fonts() -> None:
    """Give plain matplotlib text the current language's fallback fonts, or take them away.

    After ``set_language("zh")``, ``rcParams["font.family"]`` is what it was (by
    default ``["sans-serif"]``, DejaVu Sans) followed by the subset and a system
    CJK font, so ``plt.title("注意力")`` draws its characters; Latin letters are
    drawn as before. After ``set_language("en")`` it is what it was again. Does not
    import matplotlib for a language without a font if nothing has imported it yet.

    Examples
    --------
    >>> import matplotlib
    >>> from attnlib import set_language
    >>> before = list(matplotlib.rcParams["font.family"])
    >>> set_language("zh")
    >>> matplotlib.rcParams["font.family"][len(before)]
    'Noto Sans SC attnlib subset'
    >>> set_language("en")
    >>> matplotlib.rcParams["font.family"] == before
    True
    """
    font = edition(get_language()).font
    if font is None and "matplotlib" not in sys.modules:
        return  # nothing was added, and English needs nothing
    import matplotlib

    families = [f for f in matplotlib.rcParams["font.family"] if f not in _added]
    _added[:] = [f for f in fallback_families(font) if f not in families]
    matplotlib.rcParams["font.family"] = families + _added
