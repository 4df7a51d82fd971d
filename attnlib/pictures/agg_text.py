"""matplotlib's Agg text, drawn from kept layouts and glyph bitmaps: the same pixels, cheaper.

When an explorer's n changes, its picture gets a new layout and its background
is drawn again: the titles ("scores … (7 × 7)") and the axis names. matplotlib
lays out each string again (``FT2Font._layout``, 0.15 ms to over 1 ms) and
renders each glyph again (about 50 µs each): about 15 ms a background, a third
of such a move. :class:`TextCachingRenderer` is matplotlib's ``RendererAgg``
that keeps both. A glyph is kept per sub-pixel position (FreeType moves an
outline by whole pixels exactly, so the rest is added outside), and pasted with
the call matplotlib makes, so the pixels are the ones ``RendererAgg`` draws;
``tests/test_agg_text.py`` compares them.

It follows the drawing steps of matplotlib 3.11's ``RendererAgg``; with another
matplotlib (:data:`FOLLOWS` false), it draws text as ``RendererAgg`` does.
:class:`TextCachingCanvas` is a ``FigureCanvasAgg`` that draws with it.
"""

from __future__ import annotations

import math
from functools import lru_cache

import matplotlib
import numpy as np
from matplotlib import ft2font
from matplotlib.backends.backend_agg import FigureCanvasAgg, RendererAgg, get_hinting_flag

__all__ = ["FOLLOWS", "UPRIGHT", "TextCachingCanvas", "TextCachingRenderer", "glyph_bitmap"]

#: Whether this matplotlib draws text the way :class:`TextCachingRenderer` follows.
FOLLOWS = (
    tuple(int(p) for p in matplotlib.__version__.split(".")[:2]) == (3, 11)
    and hasattr(ft2font.FT2Font, "_layout")
    and hasattr(RendererAgg, "_draw_text_glyphs_and_boxes")
    and hasattr(RendererAgg, "_prepare_font")
)


class TextCachingRenderer(RendererAgg):
    """A ``RendererAgg`` that lays out each string and renders each glyph once."""

    def draw_text(self, gc, x, y, s, prop, angle, ismath=False, mtext=None):
        if ismath or not FOLLOWS:
            return super().draw_text(gc, x, y, s, prop, angle, ismath, mtext)
        font = self._prepare_font(prop)  # sized for prop at this dpi
        features = mtext.get_fontfeatures() if mtext is not None else None
        language = mtext.get_language() if mtext is not None else None
        size = prop.get_size_in_points()
        placed = _layout(
            font,
            s,
            size,
            self.dpi,
            get_hinting_flag(),
            None if features is None else tuple(features),
            language,
        )
        self._draw_text_glyphs_and_boxes(
            gc, x, y, angle, ((f, size, index, 0, 1, gx, gy) for f, index, gx, gy in placed), []
        )

    def _draw_text_glyphs_and_boxes(self, gc, x, y, angle, glyphs, boxes):
        if not FOLLOWS or not gc.get_antialiased():
            return super()._draw_text_glyphs_and_boxes(gc, x, y, angle, glyphs, boxes)
        # RendererAgg's steps, with each glyph's bitmap kept (y is downwards, dy upwards)
        cos, sin = math.cos(math.radians(angle)), math.sin(math.radians(angle))
        flags = get_hinting_flag()
        for font, size, glyph_index, slant, extend, dx, dy in glyphs:
            matrix = _matrix(cos, sin, slant, extend)
            tx = round(0x40 * (x + dx * cos - dy * sin))  # 26.6 fixed point
            ty = round(0x40 * (self.height - y + dx * sin + dy * cos))  # FreeType's y is upwards
            left, top, buffer = glyph_bitmap(
                font, size, self.dpi, glyph_index, flags, matrix, tx % 0x40, ty % 0x40
            )
            # draw_text_image's y is downwards and the bitmap's bottom side
            self._renderer.draw_text_image(
                buffer,
                left + tx // 0x40,
                int(self.height) - (top + ty // 0x40) + buffer.shape[0],
                0,
                gc,
            )
        if boxes:
            super()._draw_text_glyphs_and_boxes(gc, x, y, angle, (), boxes)

    def get_text_width_height_descent(self, s, prop, ismath):
        if ismath or not FOLLOWS:
            return super().get_text_width_height_descent(s, prop, ismath)
        font = self._prepare_font(prop)
        return _extent(font, s, prop.get_size_in_points(), self.dpi, get_hinting_flag())


class TextCachingCanvas(FigureCanvasAgg):
    """A ``FigureCanvasAgg`` whose renderer is a :class:`TextCachingRenderer`."""

    def get_renderer(self, *args, **kwargs):
        renderer = super().get_renderer(*args, **kwargs)  # sized (and kept) as matplotlib does
        if type(renderer) is RendererAgg:  # a new one: the figure's size or dpi changed
            renderer = TextCachingRenderer(renderer.width, renderer.height, renderer.dpi)
            self.renderer = renderer  # matplotlib hands this one back while the size holds
        return renderer


@lru_cache(maxsize=1024)
def _layout(font, s, size, dpi, flags, features, language) -> tuple:
    # matplotlib's layout of `s` (the font was sized to `size` at `dpi` by _prepare_font):
    # (font of the glyph, glyph index, x, y) per glyph
    items = font._layout(s, flags=flags, features=features, language=language)
    return tuple((item.ft_object, item.glyph_index, item.x, item.y) for item in items)


@lru_cache(maxsize=1024)
def _extent(font, s, size, dpi, flags) -> tuple[float, float, float]:
    # RendererAgg.get_text_width_height_descent's steps, for plain text
    font.set_text(s, 0.0, flags=flags)
    w, h = font.get_width_height()  # width and height of unrotated string
    d = font.get_descent()
    return w / 64.0, h / 64.0, d / 64.0


@lru_cache(maxsize=64)
def _matrix(cos, sin, slant, extend) -> tuple[tuple[int, int], tuple[int, int]]:
    # the glyph transform RendererAgg sets, in 16.16 fixed point
    m = 0x10000 * np.array([[cos, -sin], [sin, cos]]) @ [[extend, extend * slant], [0, 1]]
    return tuple(tuple(int(v) for v in row) for row in m.round().astype(int))


#: The glyph transform of upright, unslanted text, in 16.16 fixed point.
UPRIGHT = ((0x10000, 0), (0, 0x10000))


@lru_cache(maxsize=8192)
def glyph_bitmap(font, size, dpi, glyph_index, flags, matrix, dx, dy):
    """One glyph rendered as ``RendererAgg`` renders it: kept, as every string attnlib
    draws (:mod:`.glyphs`, :class:`TextCachingRenderer`) is pasted from these.

    `font` at `size` points and `dpi`, hinting `flags`, transformed by `matrix`
    (16.16 fixed point, :data:`UPRIGHT` for upright text) and moved by (dx, dy)/64 px,
    0 <= dx, dy < 64: FreeType moves an outline by whole pixels exactly, so a caller
    adds the whole pixels itself. Returns the bitmap's left and top (upwards) edges
    and its coverage, (h, w) uint8, shared by every caller: not to be changed (it is
    writable only because Agg's ``draw_text_image`` asks for that).
    """
    font.set_size(size, dpi)
    font._set_transform([list(row) for row in matrix], [dx, dy])
    bitmap = font._render_glyph(glyph_index, flags, ft2font.RenderMode.NORMAL)
    return bitmap.left, bitmap.top, np.array(bitmap.buffer, dtype=np.uint8)  # (h, w), a copy
