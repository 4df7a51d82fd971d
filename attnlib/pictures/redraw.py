"""Redraw a figure of panels in place, fast, and encode it as PNG: the one module that knows how.

Three paths, by what changed since the last picture:

- Only the numbers (or the selected cell): restore the background and draw
  again only the artists that move with the numbers (each
  :meth:`~attnlib.heatmap.Heatmap.moving_artists`: the image, its outlines,
  its cell values, the colorbar's scale), in the order a full
  ``canvas.draw()`` draws them, so that the pixels equal a full draw exactly.
- A layout seen before (an n shown before): re-dress the same Axes, restore
  that layout's background from the cache, draw the moving artists.
- A new layout: draw the figure once without the moving artists, keep those
  pixels (zlib-compressed, about 0.1 MB each) as that layout's background,
  then draw the moving artists on top. Its text is drawn from layouts and
  glyphs kept from earlier backgrounds (:mod:`.agg_text`).

The PNG is encoded from the canvas buffer directly, not with ``savefig``
(which would draw everything again). A colorbar's strip is the same for any
limits (:mod:`.bar_scale`), so it is part of the background; only its scale
is drawn again.
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Sequence

import numpy as np
from matplotlib.figure import Figure

from .agg_text import TextCachingCanvas
from .fonts import in_figure_fonts

try:  # ISA-L's deflate (package isal), when installed: zlib streams, 6-8 times as fast
    from isal import isal_zlib as _fast_zlib
except ImportError:  # pragma: no cover - depends on the environment
    _fast_zlib = None
from .heatmap import Heatmap
from .layout import Geometry, PanelFigure, check_size
from .panel import Panel

MAX_LAYOUTS = 64  # backgrounds kept: every n of an explorer, at about 0.1 MB each


def encode_png(rgba: np.ndarray) -> bytes:
    """PNG bytes of an (h, w, 4) uint8 RGBA picture; lossless, built for speed.

    Each row is stored as its difference from the row above (PNG filter
    "Up"): a heatmap's columns repeat down the picture, so the differences
    are mostly 0 and zlib's fastest level packs them well. The canvas's own
    RGBA bytes are used as they are (dropping alpha would cost a strided
    copy); about twice as fast as Pillow's PNG writer at its fastest level.
    With the package ``isal`` installed, its deflate packs the rows (0.5 ms
    for an explorer's picture where zlib takes 4 ms, about as small): a
    slider move's largest single cost without it.
    """
    height, width, _ = rgba.shape
    flat = rgba.reshape(height, width * 4)  # (h, w, 4) -> (h, 4w), no copy
    rows = np.empty((height, 1 + width * 4), dtype=np.uint8)  # filter byte + row
    rows[:, 0] = 2  # "Up"
    rows[0, 1:] = flat[0]
    np.subtract(flat[1:], flat[:-1], out=rows[1:, 1:])  # wraps modulo 256, as PNG wants

    def chunk(kind: bytes, data: bytes) -> bytes:
        crc = struct.pack(">I", zlib.crc32(kind + data))
        return struct.pack(">I", len(data)) + kind + data + crc

    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)  # 8-bit RGBA
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", deflate(rows))
        + chunk(b"IEND", b"")
    )


def deflate(data) -> bytes:
    """`data` as a zlib stream, at the fastest level of the fastest deflate installed."""
    return (_fast_zlib or zlib).compress(data, 1)


def inflate(packed: bytes) -> bytes:
    """What :func:`deflate` packed (any zlib stream)."""
    return (_fast_zlib or zlib).decompress(packed)


class FastCanvas:
    """One Figure for its whole life; :meth:`show` draws panels and returns the PNG.

    Attributes
    ----------
    figure : matplotlib.figure.Figure
    heatmaps : list of Heatmap
        One per panel shown.
    geometry : Geometry or None
        The layout of the picture shown, to map its pixels to cells.
    full_redraws, layout_redraws, fast_redraws : int
        How many pictures took each path (see the module's docstring).
    """

    def __init__(self, size: str = "normal"):
        self.size = check_size(size)
        self._figure = Figure()
        self.canvas = TextCachingCanvas(self._figure)  # an Agg canvas that keeps its text
        self._panels = PanelFigure(self._figure, self.size)
        self.full_redraws = 0
        self.layout_redraws = 0
        self.fast_redraws = 0
        self._key = None  # the layout on the canvas now
        self._background = None  # its background, ready to paste
        self._backgrounds: dict[tuple, tuple[tuple[int, int], bytes]] = {}

    @property
    def figure(self) -> Figure:
        """The one Figure (``canvas.draw()`` draws what :meth:`show` returned)."""
        return self._figure

    @property
    def heatmaps(self) -> list[Heatmap]:
        return self._panels.heatmaps

    @property
    def geometry(self) -> Geometry | None:
        """Where each panel of the current picture is (None before the first :meth:`show`)."""
        return self._panels.geometry

    @in_figure_fonts
    def show(self, panels: Sequence[Panel], selection: tuple[int, int] | None = None) -> bytes:
        """Draw `panels` by the cheapest path and return the PNG bytes.

        `selection` (i, j) is outlined in the panels marked ``selectable``.
        """
        key = tuple(p.layout_key() for p in panels)
        if key == self._key:
            for h, p in zip(self._panels.heatmaps, panels, strict=True):
                h.update(p.matrix, mask=p.mask)
            self._select(panels, selection)
            self._paste_background(key)
            self.fast_redraws += 1
        elif key in self._backgrounds:
            self._panels.draw(panels)
            self._select(panels, selection)
            self._paste_background(key)
            self.layout_redraws += 1
        else:
            self._panels.draw(panels)
            self._select(panels, selection)
            self._draw_background(key)
            self.full_redraws += 1
        self._key = key
        self._draw_moving()
        return self.png()

    def _select(self, panels, selection) -> None:
        for h, p in zip(self._panels.heatmaps, panels, strict=True):
            h.select(selection if p.selectable else None)

    def _moving(self) -> list:
        return [artist for h in self._panels.heatmaps for artist in h.moving_artists()]

    def _draw_background(self, key) -> None:
        # Everything drawn again on each redraw is left out of the background:
        # an antialiased edge drawn twice would come out darker.
        moving = self._moving()
        visible = [artist.get_visible() for artist in moving]
        for artist in moving:
            artist.set_visible(False)
        try:
            self.canvas.draw()
        finally:
            for artist, shown in zip(moving, visible, strict=True):
                artist.set_visible(shown)
        self._background = self.canvas.copy_from_bbox(self._figure.bbox)
        pixels = np.asarray(self.canvas.buffer_rgba())  # (h, w, 4) uint8
        if len(self._backgrounds) >= MAX_LAYOUTS:
            self._backgrounds.pop(next(iter(self._backgrounds)))  # the oldest
        self._backgrounds[key] = (pixels.shape, deflate(pixels))

    def _paste_background(self, key) -> None:
        if key == self._key:  # the same layout as the last picture
            self.canvas.restore_region(self._background)
            return
        shape, packed = self._backgrounds[key]
        renderer = self.canvas.get_renderer()  # sized for the figure now
        pixels = np.asarray(renderer.buffer_rgba())
        if pixels.shape != shape:  # pragma: no cover - the layout fixes the size
            raise RuntimeError(f"canvas is {pixels.shape}, its background {shape}")
        pixels[...] = np.frombuffer(inflate(packed), dtype=np.uint8).reshape(shape)
        self._background = self.canvas.copy_from_bbox(self._figure.bbox)

    def _draw_moving(self) -> None:
        renderer = self.canvas.get_renderer()
        for h in self._panels.heatmaps:
            # Axes.draw's order (by zorder): image, hatching, diagonal, spines,
            # selection, cell values; then the colorbar's scale. Ticks have
            # length 0 and their labels lie outside the image, so the
            # background holds them.
            for artist in h.moving_artists():
                artist.draw(renderer)
            h.ax.stale = False
            if h.colorbar is not None:
                h.colorbar.ax.stale = False
        self._figure.stale = False

    def png(self) -> bytes:
        """Encode the current canvas (not redrawing it) as PNG."""
        return encode_png(np.asarray(self.canvas.buffer_rgba()))
