"""Write each cell's value in the middle of a heatmap cell, cheaply: one raster layer per frame.

A matplotlib Text costs about 0.4 ms to draw, so the 128 values of two 8 × 8
heatmaps would cost about 50 ms a frame. :class:`CellValues` rasterises each
distinct string once (:mod:`.glyphs`), pastes them all into one
transparent layer the size of the axes, and draws that layer as one image.
Vector back ends (PDF, SVG) get real text instead, sharp at any zoom.
"""

from __future__ import annotations

import math

import numpy as np
from matplotlib.artist import Artist
from matplotlib.backends.backend_agg import RendererAgg
from matplotlib.font_manager import FontProperties
from matplotlib.image import AxesImage

from .glyphs import glyphs

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

    def _cells(self):
        # (rows, cols) values, which are blank, which are dark, and their centres in display px
        data = self.image.get_array()
        blank = np.ma.getmaskarray(data)  # (rows, cols) True where masked
        values = np.ma.getdata(data).astype(float)
        rows, cols = values.shape
        rgba = self.image.cmap(self.image.norm(np.where(blank, 0.0, values)))  # (rows, cols, 4)
        dark = rgba[..., :3] @ _LUMA <= _DARK  # (rows, cols, 3) @ (3,) -> (rows, cols)
        grid = np.stack(np.meshgrid(np.arange(cols), np.arange(rows)), axis=-1)  # (rows, cols, 2)
        centres = self.axes.transData.transform(grid.reshape(-1, 2)).reshape(rows, cols, 2)
        return values, blank, dark, centres

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
        layer = np.zeros((height, width, 4), dtype=np.uint8)  # (H, W, RGBA), row 0 at the top
        pixels = round(self.fontsize * renderer.points_to_pixels(1.0), 3)
        digit_height = glyphs("0", pixels).shape[0]
        for (i, j), value in np.ndenumerate(values):
            if blank[i, j]:
                continue
            mask = glyphs(format_value(value), pixels)  # (h, w) coverage
            h, w = mask.shape
            left = round(centres[i, j, 0] - x0 - w / 2)
            top = round(height - (centres[i, j, 1] - y0) - digit_height / 2)
            window = layer[max(top, 0) : top + h, max(left, 0) : left + w]
            cut = mask[
                max(-top, 0) : max(-top, 0) + window.shape[0],
                max(-left, 0) : max(-left, 0) + window.shape[1],
            ]
            window[..., :3] = 255 if dark[i, j] else 0
            window[..., 3] = np.maximum(window[..., 3], cut)
        renderer.draw_image(gc, x0, y0, layer[::-1])  # draw_image wants row 0 at the bottom
