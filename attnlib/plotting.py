"""Heatmaps of the chapter's matrices (matplotlib, object-oriented API only).

One helper, :func:`heatmap`, draws every matrix of the notebooks on the axes
it is given and returns the :class:`~matplotlib.image.AxesImage`. The
``plot_*`` functions build whole static figures from :class:`Panel`s with a
fixed layout, the same layout the explorers redraw in place. Figures are
plain :class:`matplotlib.figure.Figure` objects on an Agg canvas, never
registered with pyplot, so a notebook shows each one once, as PNG.

Colours mean the same thing everywhere: scores and other signed matrices use
a diverging map centred on 0 with symmetric limits (``RdBu_r``), weights a
sequential map fixed to [0, 1] (``viridis``); both are colourblind-safe.
"""

from __future__ import annotations

import io
import math
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

import numpy as np
from matplotlib import colormaps
from matplotlib.artist import Artist
from matplotlib.backends.backend_agg import FigureCanvasAgg, RendererAgg
from matplotlib.colors import Normalize
from matplotlib.figure import Figure
from matplotlib.font_manager import FontProperties, findfont, get_font
from matplotlib.image import AxesImage
from matplotlib.patches import PathPatch
from matplotlib.path import Path
from matplotlib.ticker import FixedLocator, MaxNLocator

from ._validate import as_matrix
from .core import Attention

__all__ = [
    "KINDS",
    "SIZES",
    "CellValues",
    "Panel",
    "StaticFigure",
    "attention_panels",
    "draw_panels",
    "embedding_panels",
    "heatmap",
    "plot_attention",
    "plot_embedding",
    "plot_panels",
    "plot_qkv",
    "plot_scaling",
    "qkv_panels",
    "scaling_panels",
    "symmetric_limit",
    "update_heatmap",
]

#: kind -> (colormap, how the colour limits are set)
KINDS = {
    "diverging": ("RdBu_r", "symmetric limits around 0 that follow the data, in nice steps"),
    "weights": ("viridis", "fixed to [0, 1]"),
    "sequential": ("viridis", "the data's minimum and maximum"),
}

#: size -> geometry in inches and points: heatmap box side, base font size, dpi.
#: "large" is for a 1080p projector: a 32-token heatmap about 640 px high.
SIZES = {
    "normal": {"box": 3.8, "font": 10.0, "dpi": 100},
    "large": {"box": 6.4, "font": 17.0, "dpi": 100},
}

MAX_VALUES_N = 8  # cell values are written when both sides of the matrix are at most this


def check_size(size: str) -> str:
    """Return `size` if it is one of SIZES, else raise a ValueError naming the choices."""
    if not isinstance(size, str) or size not in SIZES:
        raise ValueError(f"size must be one of {sorted(SIZES)}, got {size!r}")
    return size


def check_kind(kind: str) -> str:
    """Return `kind` if it is one of KINDS, else raise a ValueError naming the choices."""
    if not isinstance(kind, str) or kind not in KINDS:
        raise ValueError(f"kind must be one of {sorted(KINDS)}, got {kind!r}")
    return kind


_STEPS = (1.0, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0, 6.0, 8.0, 10.0)


def symmetric_limit(matrix) -> float:
    """The smallest 'nice' number >= max |matrix|: 1, 1.5, 2, 2.5, 3, 4, 5, 6 or 8 times 10**k.

    Diverging heatmaps use ``(-limit, limit)``, so 0 is always the middle
    colour, and the colorbar only changes when the data crosses a step.

    Examples
    --------
    >>> symmetric_limit([[0.3, -1.7]]), symmetric_limit([[12.0]]), symmetric_limit([[0.0]])
    (2.0, 15.0, 1.0)
    """
    top = float(np.max(np.abs(matrix)))
    if not top > 0:
        return 1.0
    power = 10.0 ** math.floor(math.log10(top))
    for step in _STEPS:
        if step * power >= top:
            return step * power
    return 10.0 * power  # pragma: no cover


def _limits(kind: str, matrix: np.ndarray, limit: float | None = None) -> tuple[float, float]:
    if kind == "weights":
        return 0.0, 1.0
    if kind == "diverging":
        top = symmetric_limit(matrix) if limit is None else float(limit)
        return -top, top
    low, high = float(matrix.min()), float(matrix.max())
    return (low, high) if high > low else (low - 0.5, high + 0.5)


def format_value(value: float) -> str:
    """A cell value in at most 5 characters, with a true minus: ``0.25``, ``−1.30``, ``12.5``."""
    size = abs(value)
    text = f"{value:.2f}" if size < 9.995 else f"{value:.1f}" if size < 99.95 else f"{value:.0f}"
    return text.replace("-", "\u2212")


class CellValues(Artist):
    """The value of each cell of a heatmap, written in its middle, drawn cheaply.

    A matplotlib Text costs about 0.4 ms to draw, so 128 of them cost about
    50 ms a frame. This artist rasterises each distinct string once (cached),
    pastes all of them into one transparent RGBA layer the size of the axes,
    and draws that layer as a single image. The text is black on light cells
    and white on dark ones.

    Parameters
    ----------
    image : AxesImage
        The heatmap whose cells are labelled; its data, colormap and norm are
        read at draw time, so ``image.set_data`` is all an update needs.
    fontsize : float
        In points.
    """

    _cache: ClassVar[OrderedDict] = OrderedDict()  # (text, size in px) -> alpha mask, shared
    _CACHE_MAX = 4096

    def __init__(self, image: AxesImage, fontsize: float):
        super().__init__()
        self.image = image
        self.fontsize = float(fontsize)
        self.set_zorder(3)
        self.axes = image.axes
        self.set_figure(image.axes.figure)

    @classmethod
    def _mask(cls, text: str, pixels: float) -> np.ndarray:
        key = (text, round(pixels, 3))
        mask = cls._cache.get(key)
        if mask is None:
            font = get_font(findfont(FontProperties()))
            font.clear()
            font.set_size(pixels, 72)  # size in pixels: pixels pt at 72 dpi
            font.set_text(text, 0.0)
            font.draw_glyphs_to_bitmap(antialiased=True)
            mask = np.asarray(font.get_image()).copy()  # (h, w) uint8 coverage, row 0 at the top
            cls._cache[key] = mask
            if len(cls._cache) > cls._CACHE_MAX:
                cls._cache.popitem(last=False)
        return mask

    def draw(self, renderer) -> None:
        if not self.get_visible():
            return
        data = np.asarray(self.image.get_array(), dtype=float)  # (rows, cols)
        rows, cols = data.shape
        bbox = self.axes.bbox
        rgba = self.image.cmap(self.image.norm(data))  # (rows, cols, 4) cell colours
        weights = np.array([0.2126, 0.7152, 0.0722])
        dark = rgba[..., :3] @ weights <= 0.45  # (rows, cols, 3) -> (rows, cols): white text
        centres = self.axes.transData.transform(
            np.stack(np.meshgrid(np.arange(cols), np.arange(rows)), axis=-1).reshape(-1, 2)
        ).reshape(rows, cols, 2)  # (rows*cols, 2) display px -> (rows, cols, 2)
        gc = renderer.new_gc()
        gc.set_clip_rectangle(bbox)
        if isinstance(renderer, RendererAgg):
            self._draw_layer(renderer, gc, data, dark, centres)
        else:  # PDF, SVG: real text, sharp at any zoom (speed does not matter there)
            prop = FontProperties(size=self.fontsize)
            for i in range(rows):
                for j in range(cols):
                    text = format_value(data[i, j])
                    w, h, d = renderer.get_text_width_height_descent(text, prop, False)
                    gc.set_foreground("white" if dark[i, j] else "black")
                    x, y = centres[i, j]
                    renderer.draw_text(gc, x - w / 2, y - (h - d) / 2, text, prop, 0)
        gc.restore()

    def _draw_layer(self, renderer, gc, data, dark, centres) -> None:
        rows, cols = data.shape
        bbox = self.axes.bbox
        x0, y0 = math.floor(bbox.x0), math.floor(bbox.y0)
        width, height = math.ceil(bbox.x1) - x0, math.ceil(bbox.y1) - y0
        layer = np.zeros((height, width, 4), dtype=np.uint8)  # (H, W, RGBA), row 0 at the top
        pixels = self.fontsize * renderer.points_to_pixels(1.0)
        digit_height = self._mask("0", pixels).shape[0]
        for i in range(rows):
            for j in range(cols):
                mask = self._mask(format_value(data[i, j]), pixels)  # (h, w) coverage
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


def _diagonal_path(n: int) -> Path:
    vertices, codes = [], []
    for i in range(n):
        a, b = i - 0.5, i + 0.5
        vertices += [(a, a), (b, a), (b, b), (a, b), (a, a)]
        codes += [Path.MOVETO, Path.LINETO, Path.LINETO, Path.LINETO, Path.CLOSEPOLY]
    return Path(vertices, codes)


def heatmap(
    ax,
    matrix,
    *,
    row_labels: Sequence[str] | None = None,
    col_labels: Sequence[str] | None = None,
    title: str = "",
    xlabel: str = "",
    ylabel: str = "",
    kind: str = "diverging",
    values: bool | None = None,
    diagonal: bool = False,
    colorbar: bool = True,
    cax=None,
    fontsize: float = 10.0,
    limit: float | None = None,
) -> AxesImage:
    """Draw `matrix` as a heatmap on `ax`, one cell per entry, row 0 at the top.

    Parameters
    ----------
    ax : matplotlib.axes.Axes
        Where to draw.
    matrix : array_like, shape (rows, cols)
    row_labels : sequence of str, length rows, optional
        Labels down the left side (e.g. the query tokens); integers if omitted.
    col_labels : sequence of str, length cols, optional
        Labels along the bottom (e.g. the key tokens); integers if omitted.
        Rotated upright when they do not fit under their cells.
    title, xlabel, ylabel : str
    kind : {"diverging", "weights", "sequential"}, default "diverging"
        "diverging": ``RdBu_r`` centred on 0 with symmetric limits (scores,
        X, Q, K, V). "weights": ``viridis`` fixed to [0, 1]. "sequential":
        ``viridis`` from the data's minimum to its maximum.
    values : bool, optional
        Write each cell's value in it. Default: when rows and cols are both
        at most 8, so the numbers stay readable.
    diagonal : bool, default False
        Outline the cells (i, i): each token scoring itself.
    colorbar : bool, default True
        Add a colorbar (in `cax` if given, else beside `ax`).
    cax : matplotlib.axes.Axes, optional
        Axes for the colorbar.
    fontsize : float, default 10
        Base font size in points; tick labels shrink to fit their cells.
    limit : float, optional
        "diverging" only: colour limits ``(-limit, limit)`` instead of the
        data's own, so that several heatmaps share one colour scale. The
        heatmap keeps it through :func:`update_heatmap`.

    Returns
    -------
    matplotlib.image.AxesImage
        ``image.get_array()`` holds `matrix`; pass it to :func:`update_heatmap`
        to show new numbers on the same axes.

    Examples
    --------
    >>> from matplotlib.figure import Figure
    >>> from attnlib import self_attention, toy_example
    >>> ex = toy_example(n=4)
    >>> att = self_attention(*ex[1:])
    >>> fig = Figure()
    >>> image = heatmap(fig.add_subplot(), att.weights, row_labels=ex.tokens,
    ...                 col_labels=ex.tokens, title="weights", kind="weights")
    >>> image.get_array().shape, image.get_clim()
    ((4, 4), (0.0, 1.0))
    """
    matrix = as_matrix("matrix", matrix, rows_name="rows", cols_name="cols")
    kind = check_kind(kind)
    rows, cols = matrix.shape
    for name, labels, count in (("row_labels", row_labels, rows), ("col_labels", col_labels, cols)):
        if labels is not None and len(labels) != count:
            raise ValueError(
                f"{name} has {len(labels)} labels but matrix has {count} ({matrix.shape})"
            )
    low, high = _limits(kind, matrix, limit)
    image = ax.imshow(
        matrix,
        cmap=colormaps[KINDS[kind][0]],
        norm=Normalize(low, high),
        interpolation="nearest",
        aspect="auto",
    )
    image.attnlib_kind = kind  # update_heatmap reads it
    image.attnlib_limit = limit  # ... and keeps a fixed limit
    _dress(image, row_labels, col_labels, title, xlabel, ylabel, values, diagonal, fontsize)
    fig = ax.figure
    if colorbar:
        bar = fig.colorbar(image, cax=cax, ax=None if cax is not None else ax)
        bar.ax.tick_params(labelsize=fontsize * 0.9, length=0.3 * fontsize, pad=0.2 * fontsize)
        if kind == "weights":
            bar.set_ticks([0, 0.25, 0.5, 0.75, 1.0])
        bar.outline.set_linewidth(0.8)
        image.attnlib_colorbar = bar
    return image


def _dress(
    image, row_labels, col_labels, title, xlabel, ylabel, values, diagonal, fontsize
) -> None:
    # Labels, ticks, diagonal outline and cell values for the image's current
    # data and axes position. Idempotent, so an explorer can re-dress the same
    # axes for a new n instead of building new ones (new Axes cost ~1 ms a tick).
    ax, fig = image.axes, image.axes.figure
    rows, cols = image.get_array().shape
    box = ax.get_position()
    cell_w = box.width * fig.get_figwidth() / cols  # inches
    cell_h = box.height * fig.get_figheight() / rows
    cell_px = min(cell_w, cell_h) * fig.dpi
    row_size, col_size, rotation = _label_style(row_labels, col_labels, cell_w, cell_h, fontsize)
    for axis, size, turn in ((ax.xaxis, col_size, rotation), (ax.yaxis, row_size, 0)):
        params = {"length": 0, "labelsize": size, "pad": 0.3 * fontsize, "labelrotation": turn}
        if getattr(axis, "_attnlib_params", None) != params:  # ~1 ms a tick: skip if unchanged
            axis.set_tick_params(**params)
            axis._attnlib_params = params
    _set_ticks(ax.yaxis, row_labels, rows)
    _set_ticks(ax.xaxis, col_labels, cols)
    ax.set_title(title, fontsize=fontsize * 1.1, pad=0.6 * fontsize)
    ax.set_xlabel(xlabel, fontsize=fontsize)
    ax.set_ylabel(ylabel, fontsize=fontsize)

    for artist in [*ax.patches, *(a for a in ax.artists if isinstance(a, CellValues))]:
        artist.remove()
    if diagonal:
        if rows != cols:
            raise ValueError(f"diagonal=True needs a square matrix, got shape {(rows, cols)}")
        width = fontsize / 10 * min(1.0, cell_px / 25)
        for colour, lw, z in (("white", 2.6 * width, 1.0), ("black", 1.1 * width, 1.1)):
            ax.add_patch(
                PathPatch(
                    _diagonal_path(rows), facecolor="none", edgecolor=colour, linewidth=lw, zorder=z
                )
            )
    if values is None:
        values = rows <= MAX_VALUES_N and cols <= MAX_VALUES_N
    if values:
        value_size = min(
            fontsize, 0.85 * cell_px / 3.1 * 72 / fig.dpi
        )  # 5 characters in 85% of a cell
        ax.add_artist(CellValues(image, value_size))


def _label_style(row_labels, col_labels, cell_w: float, cell_h: float, fontsize: float):
    # Tick label sizes in points (1/4 pt steps) and the rotation of the column
    # labels, from the cell size in inches. A label per row must fit its row;
    # numbered axes (labels None) are thinned by a locator and keep a fixed size.
    def fit(cell: float) -> float:
        return math.floor(4 * min(fontsize, 0.78 * cell * 72)) / 4

    row_size = fit(cell_h) if row_labels is not None else 0.9 * fontsize
    col_size = fit(cell_w) if col_labels is not None else 0.9 * fontsize
    rotation = 0
    if col_labels is not None:
        widest = max(len(str(s)) for s in col_labels)
        if widest * 0.6 * col_size / 72 > 0.95 * cell_w:
            rotation = 90
    return row_size, col_size, rotation


def _set_ticks(axis, labels, count: int) -> None:
    if labels is None:
        axis.set_major_locator(MaxNLocator(nbins=min(count, 8), integer=True, min_n_ticks=1))
    else:
        axis.set_major_locator(FixedLocator(np.arange(count)))
        axis.set_ticklabels([str(s) for s in labels])


def update_heatmap(image: AxesImage, matrix) -> None:
    """Show new numbers of the same shape in a heatmap made by :func:`heatmap`.

    The colour limits follow the rules of the heatmap's kind (a fixed `limit`
    given to :func:`heatmap` is kept; panels drawn with ``share_limit`` by
    :func:`draw_panels` all move to their largest limit); cell values and
    the colorbar follow the image. Nothing is drawn: call ``canvas.draw()``
    (or let an explorer redraw).

    Examples
    --------
    >>> from matplotlib.figure import Figure
    >>> image = heatmap(Figure().add_subplot(), [[0.0, 1.0], [2.0, -3.0]])
    >>> update_heatmap(image, [[0.5, 0.5], [0.5, -0.5]])
    >>> image.get_clim()
    (-0.5, 0.5)
    """
    old = image.get_array()
    matrix = as_matrix("matrix", matrix, rows_name="rows", cols_name="cols")
    if matrix.shape != old.shape:
        raise ValueError(
            f"matrix has shape {matrix.shape} but the heatmap shows {old.shape}: "
            "draw a new heatmap for a new shape"
        )
    image.set_data(matrix)
    group = getattr(image, "attnlib_group", ())
    if group:  # panels with share_limit: all follow the largest limit among them
        top = max(symmetric_limit(member.get_array()) for member in group)
        for member in group:
            if member.get_clim() != (-top, top):
                member.set_clim(-top, top)
        return
    kind = getattr(image, "attnlib_kind", "sequential")
    low, high = _limits(kind, matrix, getattr(image, "attnlib_limit", None))
    if image.get_clim() != (low, high):
        image.set_clim(low, high)


@dataclass(frozen=True)
class Panel:
    """One heatmap of a figure: the matrix and how to label it (see :func:`heatmap`).

    `share_limit` (diverging only): the panels of a figure that set it get
    one symmetric colour limit, the largest of their own, so that a colour
    means the same number in each of them, also after :func:`update_heatmap`.

    Examples
    --------
    >>> Panel([[1.0, 0.0], [0.0, 1.0]], "I (2 × 2)", kind="weights").shape
    (2, 2)
    """

    matrix: np.ndarray
    title: str = ""
    row_labels: tuple[str, ...] | None = None
    col_labels: tuple[str, ...] | None = None
    xlabel: str = ""
    ylabel: str = ""
    kind: str = "diverging"
    diagonal: bool = False
    values: bool | None = None
    share_limit: bool = False

    def __post_init__(self):
        object.__setattr__(
            self, "matrix", as_matrix("matrix", self.matrix, rows_name="rows", cols_name="cols")
        )
        for name in ("row_labels", "col_labels"):
            labels = getattr(self, name)
            if labels is not None:
                object.__setattr__(self, name, tuple(str(s) for s in labels))
        check_kind(self.kind)
        if self.share_limit and self.kind != "diverging":
            raise ValueError(f"share_limit is for kind 'diverging' only, not {self.kind!r}")

    @property
    def shape(self) -> tuple[int, int]:
        return self.matrix.shape

    def layout_key(self) -> tuple:
        """Everything but the numbers: two panels with equal keys share a layout."""
        return (
            self.matrix.shape,
            self.title,
            self.row_labels,
            self.col_labels,
            self.xlabel,
            self.ylabel,
            self.kind,
            self.diagonal,
            self.values,
            self.share_limit,
        )


def _text_inches(renderer, texts, size: float, dpi: float) -> float:
    prop = FontProperties(size=size)
    widest = max(
        (renderer.get_text_width_height_descent(str(s), prop, False)[0] for s in texts), default=0.0
    )
    return widest / dpi


def draw_panels(fig: Figure, panels: Sequence[Panel], *, size: str = "normal") -> list[AxesImage]:
    """Clear `fig`, size it, and draw `panels` side by side with a fixed layout.

    The layout is computed here, once, from the measured widths of the labels,
    and is not changed by drawing, so an explorer can redraw parts of the
    figure in place. Each panel gets a square box (rows and cols equal) or a
    box whose height follows its rows, and its colorbar on the right with
    room for tick labels of any width up to 5 characters.

    Parameters
    ----------
    fig : matplotlib.figure.Figure
    panels : sequence of Panel
    size : {"normal", "large"}, default "normal"
        "large" is for a projector: bigger fonts and boxes.

    Returns
    -------
    list of AxesImage
        One per panel, in order.

    Examples
    --------
    >>> fig = Figure()
    >>> panels = [Panel([[1.0, -1.0]], "a"), Panel([[0.5], [0.5]], "b", kind="weights")]
    >>> images = draw_panels(fig, panels)
    >>> len(images), len(fig.axes)       # two heatmaps and their colorbars
    (2, 4)
    """
    size = check_size(size)
    if not panels:
        raise ValueError("panels must hold at least one Panel")
    geometry = SIZES[size]
    box, font, dpi = geometry["box"], geometry["font"], geometry["dpi"]
    structure = (size, tuple((p.kind, p.values is False) for p in panels))
    reuse = getattr(fig, "_attnlib_structure", None) == structure and len(fig.axes) == 2 * len(
        panels
    )
    if not reuse:
        fig.clear()
        fig._attnlib_structure = None
    fig.set_dpi(dpi)
    fig.patch.set_facecolor("white")
    if not isinstance(fig.canvas, FigureCanvasAgg):
        FigureCanvasAgg(fig)
    renderer = fig.canvas.get_renderer()

    # Heights: square cells where possible, within [0.45, 1.3] of the box side,
    # and rows tall enough for a readable token label (0.011 in per point of font).
    def box_height(rows: int, cols: int) -> float:
        low = max(0.45 * box, min(rows * 0.011 * font, 1.3 * box))
        return min(max(box * rows / cols, low), 1.3 * box)

    height = max(box_height(*p.shape) for p in panels)
    line = font / 72 * 1.25  # one line of text, inches

    lefts, bottoms = [], []
    for p in panels:
        rows, cols = p.shape
        row_size, col_size, rotation = _label_style(
            p.row_labels, p.col_labels, box / cols, height / rows, font
        )
        row_texts = p.row_labels or [str(rows - 1)]
        rows_w = _text_inches(renderer, row_texts, row_size, dpi)
        lefts.append(rows_w + 0.3 * font / 72 + (line if p.ylabel else 0) + 0.1)
        col_texts = p.col_labels or [str(cols - 1)]
        cols_h = (
            _text_inches(renderer, col_texts, col_size, dpi) if rotation else col_size / 72 * 1.2
        )
        bottoms.append(cols_h + 0.3 * font / 72 + (line if p.xlabel else 0) + 0.12)
    bar_w, bar_gap = 0.14 * font / 10, 0.12 * font / 10
    bar_labels = (
        _text_inches(renderer, ["\u22120.25", "\u2212150"], 0.9 * font, dpi) + 0.45 * font / 72
    )
    right_pad = 0.15 * font / 10
    top = line * 1.1 + 0.6 * font / 72 + 0.08
    bottom = max(bottoms)
    width = sum(lefts) + len(panels) * (box + bar_gap + bar_w + bar_labels) + right_pad
    fig_height = top + height + bottom
    fig.set_size_inches(width, fig_height)

    tops = [symmetric_limit(p.matrix) for p in panels if p.share_limit]
    shared = max(tops) if tops else None  # one colour limit for the panels that share it
    images, x = [], 0.0
    for k, (p, left) in enumerate(zip(panels, lefts, strict=True)):
        x += left
        box_position = (x / width, bottom / fig_height, box / width, height / fig_height)
        bar_position = (
            (x + box + bar_gap) / width,
            bottom / fig_height,
            bar_w / width,
            height / fig_height,
        )
        if reuse:  # same panels and kinds, new shapes or labels: re-dress the same axes
            ax, cax = fig.axes[2 * k], fig.axes[2 * k + 1]
            ax.set_position(box_position)
            cax.set_position(bar_position)
            image = ax.images[0]
            rows, cols = p.shape
            image.set_data(p.matrix)
            image.set_extent((-0.5, cols - 0.5, rows - 0.5, -0.5))
            ax.set_xlim(-0.5, cols - 0.5)
            ax.set_ylim(rows - 0.5, -0.5)
            image.attnlib_limit = shared if p.share_limit else None
            image.set_clim(*_limits(p.kind, p.matrix, image.attnlib_limit))
            _dress(
                image,
                p.row_labels,
                p.col_labels,
                p.title,
                p.xlabel,
                p.ylabel,
                p.values,
                p.diagonal,
                font,
            )
        else:
            ax = fig.add_axes(box_position)
            cax = fig.add_axes(bar_position)
            image = heatmap(
                ax,
                p.matrix,
                row_labels=p.row_labels,
                col_labels=p.col_labels,
                title=p.title,
                xlabel=p.xlabel,
                ylabel=p.ylabel,
                kind=p.kind,
                values=p.values,
                diagonal=p.diagonal,
                limit=shared if p.share_limit else None,
                cax=cax,
                fontsize=font,
            )
        images.append(image)
        x += box + bar_gap + bar_w + bar_labels
    group = tuple(image for image, p in zip(images, panels, strict=True) if p.share_limit)
    for image, p in zip(images, panels, strict=True):
        image.attnlib_group = group if p.share_limit else ()  # update_heatmap reads it
    fig._attnlib_structure = structure
    return images


class StaticFigure(Figure):
    """A Figure that a notebook shows as PNG without pyplot (``_repr_png_``).

    Its text form names the panels, not the size in pixels, which depends on
    the fonts installed: nbval compares it on every run, on every machine.
    """

    def __repr__(self) -> str:
        titles = "; ".join(ax.get_title() for ax in self.axes if ax.get_title())
        return f"<attnlib figure: {titles}>"

    def _repr_png_(self) -> bytes:
        buffer = io.BytesIO()
        self.savefig(buffer, format="png")
        return buffer.getvalue()


def plot_panels(panels: Sequence[Panel], *, size: str = "normal") -> StaticFigure:
    """A new static figure of `panels` side by side (see :func:`draw_panels`).

    Returns
    -------
    StaticFigure
        A matplotlib Figure on an Agg canvas, not registered with pyplot; a
        notebook displays it inline as PNG; ``fig.savefig(path)`` writes it.

    Examples
    --------
    >>> fig = plot_panels([Panel([[0.2, 0.8], [0.5, 0.5]], "weights (2 × 2)", kind="weights")])
    >>> fig.axes[0].get_title()
    'weights (2 × 2)'
    """
    fig = StaticFigure()
    FigureCanvasAgg(fig)
    draw_panels(fig, panels, size=size)
    return fig


def _tokens(tokens, n: int) -> tuple[str, ...]:
    tokens = tuple(str(t) for t in tokens)
    if len(tokens) != n:
        raise ValueError(f"tokens has {len(tokens)} entries but the matrices have n = {n} rows")
    return tokens


def attention_panels(
    att: Attention,
    tokens: Sequence[str],
    *,
    key_tokens: Sequence[str] | None = None,
    diagonal: bool = True,
) -> list[Panel]:
    """The two panels of the chapter's picture: scores | weights, queries down, keys along.

    Parameters
    ----------
    att : Attention
        From :func:`attnlib.self_attention` (scores and weights (n, n)) or
        :func:`attnlib.attention` (scores and weights (n_q, n_kv)).
    tokens : sequence of str, length n_q
        The query tokens; also the key tokens in self-attention.
    key_tokens : sequence of str, length n_kv, optional
        The key tokens when they come from another sequence (cross-attention).
    diagonal : bool, default True
        Outline each token's score for itself (claim C9); only for self-attention.

    Returns
    -------
    list of Panel

    Examples
    --------
    >>> from attnlib import self_attention, toy_example
    >>> ex = toy_example(n=3)
    >>> [p.title for p in attention_panels(self_attention(*ex[1:]), ex.tokens)]
    ['scores q·k / √d_k  (3 × 3)', 'weights α = softmax(scores)  (3 × 3)']
    """
    n_q, n_kv = att.scores.shape
    tokens = _tokens(tokens, n_q)
    keys = tokens if key_tokens is None else _tokens(key_tokens, n_kv)
    if key_tokens is None and n_kv != n_q:
        raise ValueError(
            f"scores are ({n_q} × {n_kv}): cross-attention needs key_tokens "
            f"(length {n_kv}) besides the {n_q} query tokens"
        )
    shape = f"({n_q} × {n_kv})"
    diagonal = diagonal and key_tokens is None
    return [
        Panel(
            att.scores,
            f"scores q·k / √d_k  {shape}",
            tokens,
            keys,
            "key j",
            "query i",
            "diverging",
            diagonal,
        ),
        Panel(
            att.weights,
            f"weights α = softmax(scores)  {shape}",
            tokens,
            keys,
            "key j",
            "query i",
            "weights",
            diagonal,
        ),
    ]


def plot_attention(
    att: Attention,
    tokens: Sequence[str],
    *,
    key_tokens: Sequence[str] | None = None,
    size: str = "normal",
    diagonal: bool = True,
) -> StaticFigure:
    """The chapter's two-panel picture as a static figure: scores | weights.

    Scores on a diverging map centred on 0, weights on [0, 1], "query i" down
    the side, "key j" along the bottom, cell values when n <= 8, the diagonal
    outlined. The same picture as :func:`attnlib.explorer`, without sliders.

    Parameters
    ----------
    att : Attention
        Scores and weights of shape (n, n).
    tokens : sequence of str, length n
    key_tokens : sequence of str, optional
        For cross-attention (scores (n_q, n_kv)): the n_kv key tokens.
    size : {"normal", "large"}, default "normal"
    diagonal : bool, default True

    Returns
    -------
    StaticFigure
        Displays inline in a notebook; ``fig.savefig("attention.png")`` writes it.

    Examples
    --------
    >>> from attnlib import self_attention, toy_example
    >>> ex = toy_example(n=6, d_k=4, seed=0)
    >>> fig = plot_attention(self_attention(*ex[1:]), ex.tokens)
    >>> [ax.get_ylabel() for ax in fig.axes[::2]]
    ['query i', 'query i']
    """
    panels = attention_panels(att, tokens, key_tokens=key_tokens, diagonal=diagonal)
    return plot_panels(panels, size=size)


def embedding_panels(X, tokens: Sequence[str]) -> list[Panel]:
    """One panel: the embedding X, a row per token, a column per coordinate (claim C4).

    Examples
    --------
    >>> from attnlib import toy_example
    >>> ex = toy_example(n=3, d=5)
    >>> embedding_panels(ex.X, ex.tokens)[0].title
    'X  (n × d = 3 × 5)'
    """
    X = as_matrix("X", X)
    n, d = X.shape
    return [Panel(X, f"X  (n × d = {n} × {d})", _tokens(tokens, n), None, "coordinate", "token")]


def plot_embedding(X, tokens: Sequence[str], *, size: str = "normal") -> StaticFigure:
    """X as a heatmap with a token label on each row (see :func:`embedding_panels`).

    Examples
    --------
    >>> from attnlib import toy_example
    >>> ex = toy_example(n=6, d=8)
    >>> plot_embedding(ex.X, ex.tokens).axes[0].images[0].get_array().shape
    (6, 8)
    """
    return plot_panels(embedding_panels(X, tokens), size=size)


def qkv_panels(att: Attention, tokens: Sequence[str]) -> list[Panel]:
    """Three panels: Q, K and V, one row per token (claim C5).

    All three share one symmetric colour limit (the largest of the three), so
    a given red means the same number in Q, K and V.

    Examples
    --------
    >>> from attnlib import self_attention, toy_example
    >>> ex = toy_example(n=4, d_k=3, d_v=2)
    >>> panels = qkv_panels(self_attention(*ex[1:]), ex.tokens)
    >>> [p.title for p in panels]
    ['Q = X W_Q  (4 × 3)', 'K = X W_K  (4 × 3)', 'V = X W_V  (4 × 2)']
    >>> fig = plot_panels(panels)
    >>> len({ax.images[0].get_clim() for ax in fig.axes[::2]})
    1
    """
    panels = []
    for name, M, width in (("Q", att.Q, "d_k"), ("K", att.K, "d_k"), ("V", att.V, "d_v")):
        n, cols = M.shape
        panels.append(
            Panel(
                M,
                f"{name} = X W_{name}  ({n} × {cols})",
                _tokens(tokens, n),
                None,
                f"coordinate ({width} = {cols})",
                "token",
                share_limit=True,
            )
        )
    return panels


def plot_qkv(att: Attention, tokens: Sequence[str], *, size: str = "normal") -> StaticFigure:
    """Q, K and V side by side (see :func:`qkv_panels`).

    Examples
    --------
    >>> from attnlib import self_attention, toy_example
    >>> ex = toy_example(n=6, d_k=4, d_v=3)
    >>> fig = plot_qkv(self_attention(*ex[1:]), ex.tokens)
    >>> [ax.images[0].get_array().shape for ax in fig.axes[::2]]
    [(6, 4), (6, 4), (6, 3)]
    """
    return plot_panels(qkv_panels(att, tokens), size=size)


def scaling_panels(unscaled: Attention, scaled: Attention, tokens: Sequence[str]) -> list[Panel]:
    """Two panels: the weights without and with the √d_k scaling (claim C10).

    Examples
    --------
    >>> from attnlib import self_attention, toy_example
    >>> ex = toy_example(n=4, d_k=16)
    >>> raw, scaled = self_attention(*ex[1:], scaled=False), self_attention(*ex[1:])
    >>> panels = scaling_panels(raw, scaled, ex.tokens)
    >>> [p.title for p in panels]
    ['weights, unscaled: softmax(q·k)  (4 × 4)', 'weights, scaled: softmax(q·k / √d_k)  (4 × 4)']
    """
    n = unscaled.weights.shape[0]
    tokens = _tokens(tokens, n)
    shape = f"({n} × {unscaled.weights.shape[1]})"
    return [
        Panel(
            unscaled.weights,
            f"weights, unscaled: softmax(q·k)  {shape}",
            tokens,
            tokens,
            "key j",
            "query i",
            "weights",
        ),
        Panel(
            scaled.weights,
            f"weights, scaled: softmax(q·k / √d_k)  {shape}",
            tokens,
            tokens,
            "key j",
            "query i",
            "weights",
        ),
    ]


def plot_scaling(
    unscaled: Attention, scaled: Attention, tokens: Sequence[str], *, size: str = "normal"
) -> StaticFigure:
    """Weights without and with the √d_k scaling, side by side (see :func:`scaling_panels`).

    Examples
    --------
    >>> from attnlib import self_attention, toy_example
    >>> ex = toy_example(n=6, d_k=64)
    >>> raw, scaled = self_attention(*ex[1:], scaled=False), self_attention(*ex[1:])
    >>> fig = plot_scaling(raw, scaled, ex.tokens)
    >>> len(fig.axes)
    4
    """
    return plot_panels(scaling_panels(unscaled, scaled, tokens), size=size)
