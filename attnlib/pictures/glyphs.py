"""Strings rasterised once, as matplotlib's Agg renderer would draw them: the text attnlib pastes.

A heatmap's cell values (:mod:`.cell_values`), its colorbar's numbers
(:mod:`.bar_scale`) and its token names (:mod:`.token_labels`) are drawn from
here instead of as matplotlib Text: a Text costs about 0.4 ms to lay out and
draw, a cached string a paste. One rasteriser for all three, so that the same
string looks the same wherever it is written; its glyphs are the ones the
explorer's matplotlib text is pasted from (:func:`.agg_text.glyph_bitmap`).
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
from matplotlib import rcParams
from matplotlib.backends.backend_agg import get_hinting_flag
from matplotlib.font_manager import FontProperties, findfont, get_font

from .agg_text import UPRIGHT, glyph_bitmap

__all__ = ["current_families", "glyphs", "ink_layer", "text_bitmap"]


def current_families() -> tuple[str, ...]:
    """The font families text takes now (``font.family``: attnlib's figure fonts set them)."""
    return tuple(rcParams["font.family"])


@lru_cache(maxsize=64)
def _font_files(families: tuple[str, ...]) -> tuple[str, ...]:
    # first choice first; the later ones fill in the characters it lacks, as in matplotlib
    files = []
    for family in families:
        path = findfont(FontProperties(family=[family]))
        if path not in files:
            files.append(path)
    return tuple(files)


#: The characters numbers are written with. A string of only these is laid out from
#: each character's step to the next (:func:`_numeric_layout`): matplotlib's
#: layout of a whole string costs about 0.15 ms, and a slider move that brings new
#: numbers writes dozens of strings never seen before.
NUMERIC = frozenset("0123456789.\u2212-+")

#: Strings whose layout from neighbouring steps is checked against matplotlib's own,
#: once per font and size, before any number is laid out that way (every character of
#: NUMERIC after every other, at several places in a string).
_PROBES = (
    "\u22120.123456789",
    "9876543210.\u2212",
    "1.05",
    "\u221212.3",
    "\u2212150",
    "+0.5-7",
    "13579.02468",
    "0.00",
    "99.9",
    "11",
    "77.7",
    "4.44",
    "\u2212\u22121",
    "-.-+",
)


@lru_cache(maxsize=4096)
def text_bitmap(text: str, pixels: float, families: tuple[str, ...]) -> tuple[np.ndarray, int]:
    """`text` at `pixels` px in `families`: its coverage, a (h, w) uint8 array with row 0 at
    the top, and how many of its rows lie below the baseline.

    Laid out and rendered as matplotlib's Agg renderer does it in this version
    (glyph by glyph from ``FT2Font._layout`` since matplotlib 3.11, the whole
    string with ``set_text`` before), from a whole-pixel origin. Each glyph is
    rendered once per sub-pixel position, and a number (:data:`NUMERIC`) is laid
    out from its neighbouring characters' steps where that gives matplotlib's
    layout (:func:`_numeric_layout`).
    """
    font = get_font(list(_font_files(families)))
    font.clear()
    font.set_size(pixels, 72)  # `pixels` pt at 72 dpi
    if not hasattr(font, "_layout"):  # matplotlib < 3.11: its own text is drawn this way
        font.set_text(text, 0.0, flags=get_hinting_flag())
        font.draw_glyphs_to_bitmap(antialiased=True)
        mask = np.asarray(font.get_image()).copy()
        mask.setflags(write=False)
        return mask, round(font.get_descent() / 64)
    flags = get_hinting_flag()
    placed = _numeric_layout(text, pixels, families) if NUMERIC.issuperset(text) else None
    if placed is None:
        placed = _layout(font, text)
    pieces = []  # (left, top measured downwards from the baseline, coverage)
    for glyph_font, index, x, y in placed:
        dx, dy = round(0x40 * x), round(0x40 * y)  # 26.6 fixed point, as matplotlib sets it
        left, top, coverage = glyph_bitmap(  # `pixels` pt at 72 dpi, as the font was sized
            glyph_font, pixels, 72, index, flags, UPRIGHT, dx % 0x40, dy % 0x40
        )
        pieces.append((left + dx // 0x40, -top - dy // 0x40, coverage))
    pieces = [p for p in pieces if p[2].size]
    if not pieces:
        return np.zeros((0, 0), dtype=np.uint8), 0
    left = min(p[0] for p in pieces)
    top = min(p[1] for p in pieces)
    right = max(p[0] + p[2].shape[1] for p in pieces)
    bottom = max(p[1] + p[2].shape[0] for p in pieces)
    mask = np.zeros((bottom - top, right - left), dtype=np.uint8)
    for x, y, coverage in pieces:
        h, w = coverage.shape
        window = mask[y - top : y - top + h, x - left : x - left + w]
        np.maximum(window, coverage, out=window)
    mask.setflags(write=False)  # shared by every caller through the cache
    return mask, max(bottom, 0)


def _layout(font, text: str) -> list[tuple]:
    # matplotlib's own layout: (font of the glyph, glyph index, x, y) per character
    items = font._layout(text, flags=get_hinting_flag())
    return [(item.ft_object, item.glyph_index, item.x, item.y) for item in items]


def _compose(text: str, table: tuple[dict, dict]) -> list[tuple]:
    # `text` laid out from each character's glyph and the step from one character to the next
    glyph, step = table
    placed, x = [], 0.0
    for k, char in enumerate(text):
        if k:
            x += step[text[k - 1 : k + 1]]
        placed.append((*glyph[char], x, 0.0))
    return placed


@lru_cache(maxsize=64)
def _number_table(pixels: float, families: tuple[str, ...]) -> tuple[dict, dict] | None:
    # The glyph (font, index) of each NUMERIC character and the step (advance and kerning)
    # between each ordered pair, read from matplotlib's layout of one string that holds
    # every pair; None where numbers laid out from them would not come out as matplotlib
    # lays them out (a ligature, kerning over three characters), checked on _PROBES.
    font = get_font(list(_font_files(families)))
    font.clear()
    font.set_size(pixels, 72)
    chars = sorted(NUMERIC)
    every_pair = "".join(a + b for a in chars for b in chars)
    placed = _layout(font, every_pair)
    if len(placed) != len(every_pair) or any(p[3] != 0.0 for p in placed):
        return None
    glyph, step = {}, {}
    for k, char in enumerate(every_pair):
        if glyph.setdefault(char, placed[k][:2]) != placed[k][:2]:
            return None
        if k:
            pair, size = every_pair[k - 1 : k + 1], placed[k][2] - placed[k - 1][2]
            if step.setdefault(pair, size) != size:
                return None
    table = (glyph, step)
    if any(_compose(text, table) != _layout(font, text) for text in _PROBES):
        return None
    return table


def _numeric_layout(text: str, pixels: float, families: tuple[str, ...]) -> list[tuple] | None:
    """A number's layout without matplotlib's whole-string layout, or None where it would
    not be the same (checked once per font and size, :func:`_number_table`)."""
    table = _number_table(pixels, families) if text else None
    return None if table is None else _compose(text, table)


def glyphs(text: str, pixels: float) -> np.ndarray:
    """`text` at `pixels` px in the current fonts: its coverage, (h, w) uint8, row 0 at the top."""
    return text_bitmap(text, pixels, current_families())[0]


def ink_layer(pieces) -> tuple[int, int, np.ndarray]:
    """Coverages pasted into one black image, ready for ``renderer.draw_image``.

    `pieces` are ``(mask, left, top)``: a (h, w) uint8 coverage (row 0 at the
    top) and the display pixel of its top-left corner (y upwards). Returns
    ``(left, bottom, rgba)``, the image with row 0 at the bottom, as
    ``draw_image`` wants it; where pieces overlap, the darker ink wins.
    """
    pieces = [p for p in pieces if p[0].size]
    if not pieces:
        return 0, 0, np.zeros((0, 0, 4), dtype=np.uint8)
    left = min(x for _, x, _ in pieces)
    right = max(x + mask.shape[1] for mask, x, _ in pieces)
    top = max(y for _, _, y in pieces)
    bottom = min(y - mask.shape[0] for mask, _, y in pieces)
    alpha = np.zeros((top - bottom, right - left), dtype=np.uint8)  # row 0 at the top
    for mask, x, y in pieces:
        h, w = mask.shape
        window = alpha[top - y : top - y + h, x - left : x - left + w]
        np.maximum(window, mask, out=window)
    rgba = np.zeros((*alpha.shape, 4), dtype=np.uint8)  # black, as opaque as the ink
    rgba[..., 3] = alpha
    return left, bottom, rgba[::-1].copy()
