"""Strings rasterised once, as matplotlib's Agg renderer would draw them: the text attnlib pastes.

A heatmap's cell values (:mod:`.cell_values`), its colorbar's numbers
(:mod:`.bar_scale`) and its token names (:mod:`.token_labels`) are drawn from
here instead of as matplotlib Text: a Text costs about 0.4 ms to lay out and
draw, a cached string a paste. One rasteriser for all three, so that the same
string looks the same wherever it is written.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
from matplotlib import ft2font, rcParams
from matplotlib.backends.backend_agg import get_hinting_flag
from matplotlib.font_manager import FontProperties, findfont, get_font

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


@lru_cache(maxsize=4096)
def text_bitmap(text: str, pixels: float, families: tuple[str, ...]) -> tuple[np.ndarray, int]:
    """`text` at `pixels` px in `families`: its coverage, a (h, w) uint8 array with row 0 at
    the top, and how many of its rows lie below the baseline.

    Laid out and rendered as matplotlib's Agg renderer does it in this version
    (glyph by glyph from ``FT2Font._layout`` since matplotlib 3.11, the whole
    string with ``set_text`` before), from a whole-pixel origin.
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
    pieces = []  # (left, top measured downwards from the baseline, coverage)
    for item in font._layout(text, flags=flags):
        glyph_font = item.ft_object
        glyph_font.set_size(pixels, 72)
        glyph_font._set_transform(
            [[0x10000, 0], [0, 0x10000]], [round(0x40 * item.x), round(0x40 * item.y)]
        )
        bitmap = glyph_font._render_glyph(item.glyph_index, flags, ft2font.RenderMode.NORMAL)
        pieces.append((bitmap.left, -bitmap.top, np.asarray(bitmap.buffer)))
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
