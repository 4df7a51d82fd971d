"""A heatmap's token names along its rows and columns, and its two axis names, drawn cheaply.

A heatmap names each row and column by its token. matplotlib would draw each
name as a tick label: a Tick with two lines and two Texts, each Text laid out,
measured (to place the axis name clear of it) and drawn, glyph by glyph, at
its sub-pixel position. At n = 10 that is 40 tick labels and about 45 ms, most
of what a new n costs an explorer. :class:`TokenLabels` writes each name from
a cache of rasterised strings (:mod:`.glyphs`, as the cell values and the
colorbar's numbers are), all the names of one side as one image, and
then the axis name beside them with matplotlib's own Text: about 2 ms.

matplotlib keeps the same ticks and labels (``ax.get_xticklabels()`` lists the
tokens, at their size and rotation); only its Axis is not drawn. Numbered axes
(no labels) are left to matplotlib. Vector back ends (PDF, SVG) get real text.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from matplotlib.artist import Artist
from matplotlib.backends.backend_agg import RendererAgg
from matplotlib.font_manager import FontProperties
from matplotlib.transforms import Bbox

from .glyphs import ink_layer, text_bitmap

__all__ = ["Side", "TokenLabels"]


@dataclass(frozen=True)
class Side:
    """The names along one side: at which rows (or columns), which texts, how drawn."""

    positions: tuple[int, ...]
    texts: tuple[str, ...]
    size: float  # points
    rotation: int = 0  # 0 or 90 (columns only)
    families: tuple[str, ...] = ("sans-serif",)


class TokenLabels(Artist):
    """Row names left of the Axes, column names below it, and the axis names beyond them.

    Parameters
    ----------
    ax : Axes
        The heatmap's Axes; cell (i, j) is centred on data (j, i).
    pad : float
        Points between the Axes and the names (matplotlib's tick label pad).
    """

    def __init__(self, ax, pad: float):
        super().__init__()
        self.pad = float(pad)
        self.rows: Side | None = None
        self.cols: Side | None = None
        self.set_zorder(2.5)
        self.set_clip_on(False)
        self.axes = ax
        self.set_figure(ax.figure)

    def texts(self) -> list[str]:
        """Every name this artist draws, rows then columns."""
        return [t for side in (self.rows, self.cols) if side for t in side.texts]

    # --- where everything goes, in display pixels (y up) ---

    def _pieces(self, renderer):
        # [(side, mask, left, top)] for each name: its coverage (rotated if the side is) and
        # where its top-left pixel goes. As matplotlib places tick labels: a row's name
        # right-aligned, its baseline half an ascent below the row's centre; a column's
        # name centred, the top of its line an ascent above its baseline (the ascent of
        # "lp", or the name's own if taller).
        px = renderer.points_to_pixels(1.0)
        box = self.axes.bbox
        pieces = []
        for which, side in ((0, self.rows), (1, self.cols)):
            if not side:
                continue
            pixels = round(side.size * px, 3)
            lp, lp_below = text_bitmap("lp", pixels, side.families)
            at = np.zeros((len(side.positions), 2))
            at[:, 1 - which] = side.positions  # rows: (0, i); columns: (j, 0)
            centres = self.axes.transData.transform(at)[:, 1 - which]
            for text, centre in zip(side.texts, centres, strict=True):
                mask, below = text_bitmap(text, pixels, side.families)
                above = mask.shape[0] - below
                ascent = max(above, lp.shape[0] - lp_below)
                if which == 0:
                    baseline = centre - ascent / 2
                    right = box.x0 - self.pad * px
                    pieces.append((0, mask, round(right - mask.shape[1]), round(baseline + above)))
                elif not side.rotation:
                    baseline = box.y0 - self.pad * px - ascent
                    left = centre - mask.shape[1] / 2
                    pieces.append((1, mask, round(left), round(baseline + above)))
                else:  # reads upwards; its line box (ascent left of the baseline) centred
                    descent = max(below, lp_below)
                    baseline_x = centre + (ascent - descent) / 2
                    turned = np.rot90(mask)  # the text's top row becomes the left column
                    top = box.y0 - self.pad * px
                    pieces.append((1, turned, round(baseline_x - above), round(top)))
        return pieces

    def _place_axis_names(self, renderer, pieces) -> None:
        # matplotlib's rule: the axis name clear of the tick labels by labelpad points
        px = renderer.points_to_pixels(1.0)
        ax = self.axes
        if self.rows:
            left = min((p[2] for p in pieces if p[0] == 0), default=ax.bbox.x0)
            ax.yaxis.label.set_x(left - ax.yaxis.labelpad * px)
        if self.cols:
            bottom = min((p[3] - p[1].shape[0] for p in pieces if p[0] == 1), default=ax.bbox.y0)
            ax.xaxis.label.set_y(bottom - ax.xaxis.labelpad * px)

    def _axis_names(self) -> list:
        ax = self.axes
        return [axis.label for axis, side in ((ax.yaxis, self.rows), (ax.xaxis, self.cols)) if side]

    # --- drawing ---

    def draw(self, renderer) -> None:
        if not self.get_visible() or not (self.rows or self.cols):
            return
        pieces = self._pieces(renderer)
        gc = renderer.new_gc()
        gc.set_foreground("black")
        if isinstance(renderer, RendererAgg):
            for which in (0, 1):  # each side's names as one image
                left, bottom, rgba = ink_layer((m, x, y) for w, m, x, y in pieces if w == which)
                if rgba.size:
                    renderer.draw_image(gc, left, bottom, rgba)
        else:  # PDF, SVG: real text
            self._draw_text(renderer, gc)
        gc.restore()
        self._place_axis_names(renderer, pieces)
        for label in self._axis_names():
            label.draw(renderer)

    def _draw_text(self, renderer, gc) -> None:
        # each name's baseline start in display pixels (y up), as the Agg layer places it
        px = renderer.points_to_pixels(1.0)
        box = self.axes.bbox
        flip = renderer.get_canvas_width_height()[1] if renderer.flipy() else None
        for side, along_rows in ((self.rows, True), (self.cols, False)):
            if not side:
                continue
            prop = FontProperties(size=side.size, family=list(side.families))
            for text, at in zip(side.texts, side.positions, strict=True):
                w, h, d = renderer.get_text_width_height_descent(text, prop, False)
                angle = 0
                if along_rows:
                    y = self.axes.transData.transform((0, at))[1]
                    x, y = box.x0 - self.pad * px - w, y - (h - d) / 2
                else:
                    x = self.axes.transData.transform((at, 0))[0]
                    top = box.y0 - self.pad * px
                    if side.rotation:  # reads upwards: the baseline is a vertical line
                        x, y, angle = x + (h - 2 * d) / 2, top - w, 90
                    else:
                        x, y = x - w / 2, top - (h - d)
                renderer.draw_text(gc, x, y if flip is None else flip - y, text, prop, angle)

    def get_window_extent(self, renderer=None) -> Bbox:
        """The names and the axis names, in display pixels (for ``bbox_inches="tight"``)."""
        if renderer is None:
            renderer = self.figure.canvas.get_renderer()
        pieces = self._pieces(renderer)
        if not pieces:
            return Bbox.null()
        self._place_axis_names(renderer, pieces)
        boxes = [Bbox([[x, y - mask.shape[0]], [x + mask.shape[1], y]]) for _, mask, x, y in pieces]
        boxes += [label.get_window_extent(renderer) for label in self._axis_names()]
        union = Bbox.union([b for b in boxes if b.width or b.height])
        return Bbox([[math.floor(union.x0), math.floor(union.y0)], [union.x1, union.y1]])
