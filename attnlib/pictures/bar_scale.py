"""A colorbar's scale, its tick marks and their numbers, drawn from its image's limits, cheaply.

Every heatmap fills its colorbar with the whole colour map, bottom to top:
the image maps its lower limit to the map's first colour and its upper limit
to the last, whatever the limits are. So the colour strip never changes with
the numbers, only the scale beside it does. The strip is an ordinary
matplotlib colorbar of a fixed ``Normalize(0, 1)``, drawn once with the
figure's background; :class:`BarScale` writes the scale for the image's
limits of the moment: the tick marks (a pixel row each) and the numbers (from
the glyph cache of :mod:`.glyphs`) in one image, kept for limits seen
before. That costs 0.1-0.5 ms, where matplotlib rebuilt and drew a whole Axis
for each new pair of limits (10-25 ms: a Tick per number, each Text laid out,
measured and drawn).

The ticks and their numbers are the ones matplotlib's own colorbar would show:
:func:`bar_ticks` asks matplotlib's ``MaxNLocator`` with the rule of its
``AutoLocator`` (as many steps as the bar's height holds labels, at most 9),
and :func:`tick_labels` writes them with as many decimals as the finest one
needs, like ``ScalarFormatter``; ``tests/test_bar_scale.py`` compares both
with a matplotlib colorbar. Vector back ends (PDF, SVG) get real text.
"""

from __future__ import annotations

import math

import numpy as np
from matplotlib.artist import Artist
from matplotlib.backends.backend_agg import RendererAgg
from matplotlib.font_manager import FontProperties
from matplotlib.path import Path
from matplotlib.ticker import MaxNLocator
from matplotlib.transforms import Bbox, IdentityTransform

from .glyphs import glyphs, ink_layer

__all__ = ["BarScale", "bar_ticks", "tick_labels"]

TICK_WIDTH = 0.8  # points, matplotlib's default (ytick.major.width)
MAX_LAYERS = 32  # scales kept per bar, ready to paste: a few kB each
_STEPS = [1, 2, 2.5, 5, 10]  # AutoLocator's


def bar_ticks(low: float, high: float, height_pt: float, label_pt: float) -> np.ndarray:
    """The tick values matplotlib's AutoLocator puts on a bar `height_pt` tall, inside [low, high].

    As many intervals as labels of `label_pt` points fit with a label's height
    between them (``YAxis.get_tick_space``), from 1 to 9.

    Examples
    --------
    >>> bar_ticks(-2.0, 2.0, 100, 10).tolist()  # room for 5 labels: 4 intervals
    [-2.0, -1.0, 0.0, 1.0, 2.0]
    """
    bins = min(max(int(height_pt // (2 * label_pt)), 1), 9)
    ticks = MaxNLocator(nbins=bins, steps=_STEPS).tick_values(low, high)
    slack = 1e-10 * (high - low)
    return ticks[(ticks >= low - slack) & (ticks <= high + slack)]


def tick_labels(ticks) -> list[str]:
    """Each tick as text, all with as many decimals as the finest needs, and a true minus.

    Examples
    --------
    >>> tick_labels([-1.5, 0.0, 1.5]), tick_labels([0.0, 0.25, 0.5])
    (['−1.5', '0.0', '1.5'], ['0.00', '0.25', '0.50'])
    """
    ticks = np.asarray(ticks, dtype=float)
    top = float(np.abs(ticks).max()) if ticks.size else 0.0
    if top >= 1e5 or 0 < top < 1e-3:  # where matplotlib would write an exponent
        texts = [f"{t:.3g}" for t in ticks]
    else:
        slack = 1e-9 * max(top, 1.0)
        decimals = next(d for d in range(7) if np.all(np.abs(ticks - np.round(ticks, d)) <= slack))
        texts = [f"{t + 0.0:.{decimals}f}" for t in np.round(ticks, decimals)]  # + 0.0: no -0
    return [text.replace("-", "\u2212") for text in texts]


class BarScale(Artist):
    """The tick marks and numbers on the right of a colorbar's Axes, for `image`'s limits.

    Parameters
    ----------
    cax : Axes
        The colorbar's Axes (the strip of the colour map, bottom to top).
    image : AxesImage
        Whose colour limits (``image.get_clim()``) the scale shows, read at draw time.
    fontsize : float
        The heatmap's font size in points: numbers at 0.9 of it, tick marks
        0.3 of it long, 0.2 of it between mark and number.
    ticks : sequence of float, optional
        Fixed tick values (weights: 0, 0.25, ..., 1) instead of ones that follow the limits.
    """

    def __init__(self, cax, image, fontsize: float, ticks=None):
        super().__init__()
        self.image = image
        self.label_pt = 0.9 * fontsize
        self.length_pt = 0.3 * fontsize
        self.pad_pt = 0.2 * fontsize
        self.fixed = None if ticks is None else np.asarray(ticks, dtype=float)
        self._layers: dict[tuple, tuple[int, int, np.ndarray]] = {}  # (limits, box, dpi) -> image
        self.set_zorder(5)
        self.set_clip_on(False)
        self.axes = cax
        self.set_figure(cax.figure)

    def ticks(self) -> tuple[np.ndarray, list[str]]:
        """The tick values shown now, and their labels."""
        low, high = self.image.get_clim()
        if self.fixed is not None:
            values = self.fixed[(self.fixed >= low) & (self.fixed <= high)]
        else:
            height_pt = self.axes.get_position().height * self.figure.get_figheight() * 72
            values = bar_ticks(low, high, height_pt, self.label_pt)
        return values, tick_labels(values)

    def _layout(self, renderer):
        # each tick's height in display px, where the marks start, end and the numbers begin
        low, high = self.image.get_clim()
        box = self.axes.bbox
        values, labels = self.ticks()
        ys = box.y0 + (values - low) / (high - low) * box.height
        px = renderer.points_to_pixels(1.0)
        mark_end = box.x1 + self.length_pt * px
        return ys, labels, box.x1, mark_end, mark_end + self.pad_pt * px

    def draw(self, renderer) -> None:
        if not self.get_visible():
            return
        gc = renderer.new_gc()
        gc.set_foreground("black")
        if isinstance(renderer, RendererAgg):
            # marks and numbers as one image, kept for limits seen before (a slider move
            # often keeps them): one paste instead of a path and an image per number
            key = (self.image.get_clim(), tuple(self.axes.bbox.bounds), renderer.dpi)
            layer = self._layers.get(key)
            if layer is None:
                layer = self._layer(renderer)
                if len(self._layers) >= MAX_LAYERS:
                    self._layers.pop(next(iter(self._layers)))  # the oldest
                self._layers[key] = layer
            left, bottom, rgba = layer
            if rgba.size:
                renderer.draw_image(gc, left, bottom, rgba)
        else:  # PDF, SVG: a path and real text
            ys, labels, x0, x1, text_x = self._layout(renderer)
            gc.set_linewidth(TICK_WIDTH)
            gc.set_capstyle("butt")
            if len(ys):
                vertices = np.column_stack(
                    [np.repeat([[x0, x1]], len(ys), 0).ravel(), ys.repeat(2)]
                )
                codes = np.tile([Path.MOVETO, Path.LINETO], len(ys))
                renderer.draw_path(gc, Path(vertices, codes), IdentityTransform())
            prop = FontProperties(size=self.label_pt)
            for y, text in zip(ys, labels, strict=True):
                _, h, d = renderer.get_text_width_height_descent(text, prop, False)
                renderer.draw_text(gc, text_x, y - (h - d) / 2, text, prop, 0)
        gc.restore()

    def _layer(self, renderer) -> tuple[int, int, np.ndarray]:
        # black marks, one pixel row each (a 0.8 pt line snapped to the pixel grid), and
        # the numbers beside them, as one image
        ys, labels, x0, x1, text_x = self._layout(renderer)
        pixels = round(self.label_pt * renderer.points_to_pixels(1.0), 3)
        digit_height = glyphs("0", pixels).shape[0]
        thick = max(1, round(TICK_WIDTH * renderer.points_to_pixels(1.0)))
        mark = np.full((thick, round(x1) - round(x0)), 255, dtype=np.uint8)
        pieces = []
        for y, text in zip(ys, labels, strict=True):
            pieces.append((mark, round(x0), round(y + thick / 2)))
            pieces.append((glyphs(text, pixels), round(text_x), round(y + digit_height / 2)))
        return ink_layer(pieces)

    def get_window_extent(self, renderer=None) -> Bbox:
        """The marks and numbers, in display pixels (for ``bbox_inches="tight"``)."""
        if renderer is None:
            renderer = self.figure.canvas.get_renderer()
        ys, labels, x0, _, text_x = self._layout(renderer)
        if not len(ys):
            return Bbox.null()
        pixels = round(self.label_pt * renderer.points_to_pixels(1.0), 3)
        half = glyphs("0", pixels).shape[0] / 2
        right = text_x + max(glyphs(text, pixels).shape[1] for text in labels)
        return Bbox([[x0, float(ys.min()) - half], [math.ceil(right), float(ys.max()) + half]])
