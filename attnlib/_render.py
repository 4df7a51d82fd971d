"""A persistent Agg figure of heatmap panels that redraws only what changed, and encodes PNG.

Full redraw (new layout: shapes, labels or titles changed): clear the one
figure, lay the panels out again, draw everything except the parts that
change with the numbers (images, cell values, colorbars whose limits follow
the data), and keep that as the background. Then draw the changing parts on
top.

Fast redraw (same layout, new numbers): restore the background and draw the
changing parts again, in the order a full ``canvas.draw()`` draws them
(image, diagonal outline, frame, cell values; then the colorbar), so the
pixels equal a full draw exactly. The PNG is encoded from the canvas buffer
with Pillow at compression level 1, not with ``savefig`` (which redraws all).
"""

from __future__ import annotations

import io
from collections.abc import Sequence

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.transforms import Bbox
from PIL import Image

from .plotting import CellValues, Panel, check_size, draw_panels, update_heatmap


class FastCanvas:
    """One Figure for its whole life; :meth:`show` draws panels and returns the PNG."""

    def __init__(self, size: str = "normal"):
        self.size = check_size(size)
        self.figure = Figure()
        self.canvas = FigureCanvasAgg(self.figure)
        self.images = []
        self.full_redraws = 0
        self.fast_redraws = 0
        self._key = None
        self._background = None
        self._bars = {}  # (panel index, colour limits) -> pixels of that colorbar, drawn

    def show(self, panels: Sequence[Panel]) -> bytes:
        """Draw `panels` (fast if only their numbers changed) and return the PNG bytes."""
        key = tuple(p.layout_key() for p in panels)
        if key == self._key and self._background is not None:
            self._fast(panels)
        else:
            self._full(panels, key)
        return self.png()

    def _dynamic(self, image):
        ax = image.axes
        values = [a for a in ax.artists if isinstance(a, CellValues)]
        bar = getattr(image, "attnlib_colorbar", None)
        moving_bar = bar.ax if bar is not None and image.attnlib_kind != "weights" else None
        return ax, values, moving_bar

    def _full(self, panels, key) -> None:
        self._key = None
        self._background = None
        self._bars.clear()
        self.images = draw_panels(self.figure, panels, size=self.size)
        hidden = []
        for image in self.images:
            ax, values, bar_ax = self._dynamic(image)
            # Everything drawn again on each redraw is left out of the background:
            # an antialiased edge drawn twice would come out darker.
            hidden += [image, *ax.patches, *ax.spines.values(), *values]
            hidden += [bar_ax] if bar_ax is not None else []
        for artist in hidden:
            artist.set_visible(False)
        try:
            self.canvas.draw()
            self._background = self.canvas.copy_from_bbox(self.figure.bbox)
        finally:
            for artist in hidden:
                artist.set_visible(True)
        self._draw_dynamic()
        self._key = key
        self.full_redraws += 1

    def _fast(self, panels) -> None:
        for image, panel in zip(self.images, panels, strict=True):
            update_heatmap(image, panel.matrix)
        self.canvas.restore_region(self._background)
        self._draw_dynamic()
        self.fast_redraws += 1

    def _draw_dynamic(self) -> None:
        renderer = self.canvas.get_renderer()
        for index, image in enumerate(self.images):
            ax, values, bar_ax = self._dynamic(image)
            # The order of Axes.draw (by zorder): image 0, diagonal patches 1,
            # spines 2.5, cell values 3. Axis ticks have length 0 and their
            # labels lie outside the image, so the background holds them.
            image.draw(renderer)
            for patch in ax.patches:
                patch.draw(renderer)
            for spine in ax.spines.values():
                spine.draw(renderer)
            for artist in values:
                artist.draw(renderer)
            if bar_ax is not None:
                self._draw_bar(index, image, bar_ax, renderer)
        for image in self.images:
            image.axes.stale = False
        self.figure.stale = False

    def _draw_bar(self, index, image, bar_ax, renderer) -> None:
        # The limits move in nice steps (plotting.symmetric_limit), so the same
        # colorbar comes back often: paste its pixels instead of drawing it
        # (about 15 ms of tick labels). Nothing else is drawn in its box.
        key = (index, image.get_clim())
        pixels = self._bars.get(key)
        if pixels is not None:
            self.canvas.restore_region(pixels)
            return
        bar_ax.draw(renderer)
        box = Bbox.intersection(bar_ax.get_tightbbox(renderer).padded(2), self.figure.bbox)
        if box is not None and len(self._bars) < 32:  # a few MB at most
            self._bars[key] = self.canvas.copy_from_bbox(box)

    def rgba(self):
        """The canvas pixels, a (height, width, 4) uint8 memoryview."""
        return self.canvas.buffer_rgba()

    def png(self) -> bytes:
        """Encode the current canvas (not redrawing it) as PNG, fast."""
        width, height = self.canvas.get_width_height(physical=True)
        picture = Image.frombuffer(
            "RGBA", (width, height), self.canvas.buffer_rgba(), "raw", "RGBA", 0, 1
        ).convert("RGB")
        buffer = io.BytesIO()
        picture.save(buffer, format="PNG", compress_level=1)
        return buffer.getvalue()
