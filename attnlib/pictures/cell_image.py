"""A heatmap's image that colours each cell once, not each pixel, and draws the same pixels.

To draw an n × n matrix on a few hundred pixels with ``interpolation="nearest"``,
matplotlib resamples the numbers to the screen's pixels, resamples a mask
beside them, then normalises and colours every pixel: for an explorer's
380 × 380 px panel, 144,400 colour look-ups for at most 1,024 cells, on every
redraw (about 45 % of a slider move's redraw). :class:`CellImage` colours the
cells and copies each one's colour to its pixels, through a map (which cell
each pixel row and column shows) that matplotlib's own resampler makes once
per position and size (the last few dozen are kept: an explorer's n goes back
and forth). So the pixels are the ones matplotlib draws; where they might not
be (a pixel only partly covered by the image, cells under 3 pixels, an
image alpha, another interpolation, a matplotlib older than 3.11), the image is
drawn by matplotlib as usual.
"""

from __future__ import annotations

import math

import matplotlib
import numpy as np
from matplotlib import image as mimage
from matplotlib.transforms import Affine2D, Bbox, IdentityTransform

__all__ = ["CellImage"]

# matplotlib's own resampler, so that the map is its own; on the matplotlib whose drawing
# steps _placement follows (3.11: tests/test_cell_image.py checks the pixels), else none
_resample = (
    getattr(mimage, "_resample", None)
    if tuple(int(p) for p in matplotlib.__version__.split(".")[:2]) >= (3, 11)
    else None
)
MAX_MAPS = 64  # maps kept per image, a few kB each


class CellImage(mimage.AxesImage):
    """An AxesImage whose redraw costs one colour per cell plus one copy per pixel.

    Made like an AxesImage (``CellImage(ax, cmap=..., norm=..., interpolation="nearest")``)
    and added with ``ax.add_image``; everything else about it is matplotlib's.

    Attributes
    ----------
    fast_draws, usual_draws : int
        How many times it was drawn through the cell map, and by matplotlib.
    """

    def __init__(self, ax, **kwargs):
        super().__init__(ax, **kwargs)
        # geometry -> (row of each pixel row, column of each pixel column), or None: not exact
        self._maps: dict[tuple, tuple[np.ndarray, np.ndarray] | None] = {}
        self.fast_draws = 0
        self.usual_draws = 0
        self._last_given, self._last_placement = None, None  # the last placement and its inputs

    def make_image(self, renderer, magnification=1.0, unsampled=False):
        data = self.get_array()
        where = None if unsampled else self._placement(data, magnification)
        if where is None:
            self.usual_draws += 1
            return super().make_image(renderer, magnification, unsampled)
        (row_of, col_of), x0, y0, transform = where
        colours = self.to_rgba(data, bytes=True)  # (rows, cols, 4) uint8; masked: the 'bad' colour
        cells = np.ascontiguousarray(colours).view(np.uint32)[..., 0]  # (rows, cols): one word each
        pixels = cells.take(row_of, axis=0).take(col_of, axis=1)  # (h, w)
        rgba = pixels.view(np.uint8).reshape(*pixels.shape, 4)  # (h, w) -> (h, w, 4)
        self.fast_draws += 1
        return rgba, x0 / magnification, y0 / magnification, transform

    def _placement(self, data, magnification):
        # The map and where it goes, or None where matplotlib must draw. The geometry
        # below is AxesImage.make_image's and _ImageBase._make_image's, step by step.
        if (
            _resample is None
            or self.get_interpolation() != "nearest"
            or self.get_alpha() is not None
            or data.ndim != 2
            or data.dtype.kind != "f"
            or not self.get_transform().is_affine
        ):
            return None
        rows, cols = data.shape
        if self.get_clip_on():
            clip = self.get_clip_box() or self.axes.bbox
        else:
            clip = self.get_figure(root=True).bbox
        # what the placement below follows from: the same, the same placement (a slider
        # move that keeps n redraws the image where it was, 0.2 ms of transforms saved)
        transform = self.get_transform()
        given = (
            rows,
            cols,
            tuple(self.get_extent()),
            transform.get_affine().get_matrix().tobytes(),
            tuple(clip.extents),
            magnification,
            self.origin,
            self.get_interpolation_stage(),
            self.get_resample(),
        )
        if given == self._last_given:
            return self._last_placement
        placement = self._place(data, rows, cols, clip, magnification)
        self._last_given, self._last_placement = given, placement
        return placement

    def _place(self, data, rows, cols, clip, magnification):
        left, right, bottom, top = self.get_extent()
        in_bbox = Bbox([[left, bottom], [right, top]])
        out_bbox = in_bbox.transformed(self.get_transform())
        clipped = Bbox.intersection(out_bbox, clip)
        if clipped is None:
            return None
        e = clipped.extents * magnification
        x0, y0 = math.floor(e[0] + 0.5), math.ceil(e[1] - 0.5 - 1e-8)
        x1, y1 = math.floor(e[2] + 0.5 + 1e-8), math.ceil(e[3] - 0.5)
        if x1 <= x0 or y1 <= y0:
            return None
        # grouped as matplotlib groups them: the last bits decide a pixel on a cell's edge
        flip = Affine2D().translate(0, -rows).scale(1, -1)
        to_figure = (flip if self.origin == "upper" else IdentityTransform()) + (
            Affine2D()
            .scale(in_bbox.width / cols, in_bbox.height / rows)
            .translate(in_bbox.x0, in_bbox.y0)
            + self.get_transform()
        )
        transform = to_figure + Affine2D().scale(magnification).translate(-x0, -y0)
        shape = (y1 - y0, x1 - x0)
        # matplotlib colours the resampled numbers ("data" stage) only when every cell
        # spans 3 pixels or more; below that it resamples colours, which this does not do
        stage = self.get_interpolation_stage()
        corner = transform.transform([[0, 0], [cols, rows]])  # (2, 2) display px
        cell_x, cell_y = np.abs(np.diff(corner, axis=0))[0] / (cols, rows)
        if stage == "rgba" or (stage != "data" and (cell_x < 3 or cell_y < 3)):
            return None
        key = (rows, cols, shape, tuple(transform.get_matrix().ravel()), self.get_resample())
        if key not in self._maps:
            if len(self._maps) >= MAX_MAPS:
                self._maps.pop(next(iter(self._maps)))  # the oldest
            self._maps[key] = self._make_map(rows, cols, shape, transform)
        found = self._maps[key]
        if found is None:
            return None
        return found, x0, y0, transform

    def _make_map(self, rows, cols, shape, transform):
        # Resample the cell numbers 1..rows*cols as matplotlib resamples the data; a pixel
        # that comes out fractional or 0 is only partly covered (matplotlib blends its
        # colour and alpha there): then no map, matplotlib draws. So does a map in which
        # a pixel's cell does not follow from its row and column alone.
        codes = np.arange(1, rows * cols + 1, dtype=np.float64).reshape(rows, cols)
        out = _resample(self, codes, shape, transform)  # (h, w) float64
        whole = np.rint(out)
        if not np.array_equal(out, whole) or not whole.all():
            return None
        # and the coverage matplotlib multiplies the alpha by, as it computes it
        cover = _resample(self, np.ones((rows, cols), np.float32), shape, transform, resample=True)
        if not (cover == 1).all():
            return None
        index = whole.astype(np.intp) - 1  # (h, w): flat cell index
        row_of, col_of = index[:, 0] // cols, index[0, :] % cols  # (h,), (w,)
        if not np.array_equal(index, row_of[:, None] * cols + col_of[None, :]):
            return None
        return row_of, col_of
