"""Write each cell's value in the middle of a heatmap cell, cheaply: only the inked pixels.

A matplotlib Text costs about 0.4 ms to draw, so the 128 values of two 8 × 8
heatmaps would cost about 50 ms a frame. :class:`CellValues` rasterises each
distinct string once (:mod:`.glyphs`) and blends the inked pixels of every
value into the canvas (:mod:`.agg_blend`): the pixels that one transparent
layer of all the values, drawn as an image, would give, without walking the
layer's empty pixels. Vector back ends (PDF, SVG) get real text instead, sharp
at any zoom.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import NamedTuple

import numpy as np
from matplotlib.artist import Artist
from matplotlib.backends.backend_agg import RendererAgg
from matplotlib.font_manager import FontProperties
from matplotlib.image import AxesImage

from .agg_blend import blend_ink, clip_window, writable_pixels
from .glyphs import current_families, text_bitmap

__all__ = ["CellValues", "format_value"]

# Relative luminance (Rec. 709) at or below which a cell is dark: white text on it.
_LUMA = np.array([0.2126, 0.7152, 0.0722])
_DARK = 0.45


def format_value(value: float) -> str:
    """A cell value in at most 5 characters, with a true minus: ``0.25``, ``−1.30``, ``12.5``.

    Examples
    --------
    >>> [format_value(v) for v in (0.254, -1.3, 12.345, -150.2)]
    ['0.25', '−1.30', '12.3', '−150']
    """
    size = abs(value)
    text = f"{value:.2f}" if size < 9.995 else f"{value:.1f}" if size < 99.95 else f"{value:.0f}"
    return text.replace("-", "\u2212")


class CellValues(Artist):
    """The value of each cell of a heatmap, written in its middle; black on light, white on dark.

    Parameters
    ----------
    image : AxesImage
        The heatmap whose cells are labelled; its data, colormap and norm are
        read at draw time, so ``image.set_data`` is all an update needs.
        Masked cells (a numpy masked array) are left blank.
    fontsize : float
        In points.
    """

    def __init__(self, image: AxesImage, fontsize: float):
        super().__init__()
        self.image = image
        self.fontsize = float(fontsize)
        self.set_zorder(3)
        self.axes = image.axes
        self.set_figure(image.axes.figure)
        self._centres_key, self._centres_kept = None, None

    def _cells(self):
        # (rows, cols) values, which are blank, which are dark, and their centres in display px
        data = self.image.get_array()
        blank = np.ma.getmaskarray(data)  # (rows, cols) True where masked
        values = np.ma.getdata(data).astype(float)
        rows, cols = values.shape
        rgba = self.image.cmap(self.image.norm(np.where(blank, 0.0, values)))  # (rows, cols, 4)
        dark = rgba[..., :3] @ _LUMA <= _DARK  # (rows, cols, 3) @ (3,) -> (rows, cols)
        return values, blank, dark, self._centres(rows, cols)

    def _centres(self, rows: int, cols: int) -> np.ndarray:
        # (rows, cols, 2) display px of each cell's centre; kept while the shape and the
        # data-to-display transform hold (a slider move that keeps n: 0.15 ms a heatmap)
        to_display = self.axes.transData
        key = None
        if to_display.is_affine:
            key = (rows, cols, to_display.get_affine().get_matrix().tobytes())
            if key == self._centres_key:
                return self._centres_kept
        grid = np.stack(np.meshgrid(np.arange(cols), np.arange(rows)), axis=-1)  # (rows, cols, 2)
        centres = to_display.transform(grid.reshape(-1, 2)).reshape(rows, cols, 2)
        self._centres_key, self._centres_kept = key, centres
        return centres

    def draw(self, renderer) -> None:
        if not self.get_visible():
            return
        values, blank, dark, centres = self._cells()
        gc = renderer.new_gc()
        gc.set_clip_rectangle(self.axes.bbox)
        if isinstance(renderer, RendererAgg):
            self._draw_layer(renderer, gc, values, blank, dark, centres)
        else:  # PDF, SVG: real text (speed does not matter there)
            prop = FontProperties(size=self.fontsize)
            for (i, j), value in np.ndenumerate(values):
                if blank[i, j]:
                    continue
                text = format_value(value)
                w, h, d = renderer.get_text_width_height_descent(text, prop, False)
                gc.set_foreground("white" if dark[i, j] else "black")
                x, y = centres[i, j]
                renderer.draw_text(gc, x - w / 2, y - (h - d) / 2, text, prop, 0)
        gc.restore()

    def _draw_layer(self, renderer, gc, values, blank, dark, centres) -> None:
        bbox = self.axes.bbox
        x0, y0 = math.floor(bbox.x0), math.floor(bbox.y0)
        width, height = math.ceil(bbox.x1) - x0, math.ceil(bbox.y1) - y0
        pixels = round(self.fontsize * renderer.points_to_pixels(1.0), 3)
        families = current_families()
        digit_height = text_bitmap("0", pixels, families)[0].shape[0]
        shown = ~blank.ravel()  # (rows * cols,)
        texts = [format_value(v) for v in values.ravel()[shown]]
        if not texts:  # every cell blank
            return
        inks = [_ink(text, pixels, families) for text in texts]
        sizes = np.array([ink.shape for ink in inks], dtype=float).reshape(-1, 2)  # (m, 2) h, w
        cx, cy = centres.reshape(-1, 2)[shown].T  # (m,), (m,) display px
        # each value's top-left corner in the layer (row 0 at the top); rint rounds as
        # round() does, half to even
        lefts = np.rint(cx - x0 - sizes[:, 1] / 2).astype(np.intp)  # (m,)
        tops = np.rint(height - (cy - y0) - digit_height / 2).astype(np.intp)  # (m,)
        canvas = writable_pixels(renderer)
        if canvas is None or _overlap(lefts, tops, sizes):
            # another renderer, or values wider than their cells: paste a layer and let
            # later values' colour win where their boxes overlap, as a layer does
            alpha, white = _layer((height, width), inks, lefts, tops, dark.ravel()[shown])
            if canvas is None:
                rgba = np.zeros((height, width, 4), dtype=np.uint8)  # (H, W, RGBA)
                rgba[white] = 255
                rgba[..., 3] = alpha
                renderer.draw_image(gc, x0, y0, rgba[::-1])  # row 0 at the bottom
                return
            ys, xs = np.nonzero(alpha)
            cover, white = alpha[ys, xs], white[ys, xs]
        else:  # the inked pixels of each value, moved to its place
            counts = [ink.count for ink in inks]
            ys = np.concatenate([ink.ys for ink in inks]) + np.repeat(tops, counts)  # (k,)
            xs = np.concatenate([ink.xs for ink in inks]) + np.repeat(lefts, counts)  # (k,)
            cover = np.concatenate([ink.cover for ink in inks])  # (k,)
            white = np.repeat(dark.ravel()[shown], counts)  # (k,)
        # the layer's top-left pixel sits at canvas row H - (y0 + height), column x0
        top = canvas.shape[0] - (y0 + height)
        window = clip_window(bbox, canvas.shape[:2])
        blend_ink(canvas, ys + top, xs + x0, cover, white, window)


class _Ink(NamedTuple):
    """A string's inked pixels, from its top-left corner: rows, columns and coverage."""

    ys: np.ndarray  # (k,) intp
    xs: np.ndarray  # (k,) intp
    cover: np.ndarray  # (k,) uint8
    mask: np.ndarray  # (h, w) uint8: the whole string's coverage
    count: int

    @property
    def shape(self) -> tuple[int, int]:
        return self.mask.shape


@lru_cache(maxsize=4096)
def _ink(text: str, pixels: float, families: tuple[str, ...]) -> _Ink:
    mask = text_bitmap(text, pixels, families)[0]  # (h, w) coverage
    ys, xs = np.nonzero(mask)
    return _Ink(ys, xs, mask[ys, xs], mask, len(ys))


def _overlap(lefts, tops, sizes) -> bool:
    # whether any two values' boxes share a pixel (m boxes, m <= 64: all pairs at once)
    rights, bottoms = lefts + sizes[:, 1], tops + sizes[:, 0]  # (m,)
    apart = (rights[:, None] <= lefts) | (rights <= lefts[:, None])  # (m, m)
    apart |= (bottoms[:, None] <= tops) | (bottoms <= tops[:, None])
    np.fill_diagonal(apart, True)
    return not apart.all()


def _layer(shape, inks, lefts, tops, dark):
    # the values pasted in order into one (H, W) coverage and colour; where boxes
    # overlap, the most ink and the later value's colour
    alpha = np.zeros(shape, dtype=np.uint8)  # (H, W), row 0 at the top
    white = np.zeros(shape, dtype=bool)  # (H, W)
    for ink, left, top, is_dark in zip(inks, lefts, tops, dark, strict=True):
        mask = ink.mask  # (h, w)
        h, w = mask.shape
        window = alpha[max(top, 0) : top + h, max(left, 0) : left + w]
        cut = mask[
            max(-top, 0) : max(-top, 0) + window.shape[0],
            max(-left, 0) : max(-left, 0) + window.shape[1],
        ]
        white[max(top, 0) : top + h, max(left, 0) : left + w] = is_dark
        np.maximum(window, cut, out=window)
    return alpha, white
