"""Draw one :class:`~.panel.Panel` as a heatmap on a given Axes; the :class:`Heatmap` owns it.

:func:`heatmap` is the one helper every notebook picture goes through. What
it returns is an object of ours, not a bare matplotlib artist: it holds the
image, its colorbar, the outlines and the cell values it made, remembers the
rules it was drawn with (kind, fixed limit, a limit shared with other
heatmaps), and knows how to show new numbers or another Panel on the same
Axes (:meth:`Heatmap.update`) and a selected cell (:meth:`Heatmap.select`).
What a heatmap shows and how is the Panel's alone: this module has no list of
options of its own.

Everything is drawn with matplotlib's public API: ``ax.imshow`` for the
cells, a colorbar of the image, tick labels for the token names, ``ax.text``
for the cell values and patches for the outlines and the masked cells.

Colours mean the same thing everywhere: scores and other signed matrices use
a diverging map centred on 0 with symmetric limits (``RdBu_r``), weights a
sequential map fixed to [0, 1] (``viridis``); both are colourblind-safe.
Masked cells (a ``mask`` False there) are grey and hatched, and count for
neither the colour limits nor the cell values.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
from matplotlib import colormaps
from matplotlib.axes import Axes
from matplotlib.colors import Normalize
from matplotlib.patches import PathPatch, Rectangle
from matplotlib.path import Path
from matplotlib.text import Text
from matplotlib.ticker import FixedFormatter, FixedLocator, MaxNLocator, ScalarFormatter

from ..i18n import tr
from ..maths.validation import as_float_array, as_matrix
from .panel import KINDS, Panel, check_kind
from .text_size import text_inches

__all__ = [
    "KINDS",
    "MAX_VALUES_N",
    "Heatmap",
    "check_cell",
    "check_kind",
    "format_value",
    "heatmap",
    "label_steps",
    "label_style",
    "share_limit",
    "symmetric_limit",
]

MAX_VALUES_N = 8  # cell values are written when both sides of the matrix are at most this
MASKED_COLOUR = "#d9d9d9"  # light grey under the hatching of masked cells
SELECTION_COLOUR = "#ff7f0e"  # the selected cell's outline, on a white halo
WEIGHT_TICKS = (0.0, 0.25, 0.5, 0.75, 1.0)  # a weights colorbar's scale, whatever the data

_STEPS = (1.0, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0, 6.0, 8.0, 10.0)
_LUMA = np.array([0.2126, 0.7152, 0.0722])  # relative luminance (Rec. 709) of an RGB colour
_DARK = 0.45  # a cell at or below this luminance is dark: its value is written in white

# Drawing order (Axes.draw sorts by zorder): cells, hatching, diagonal, selection, values.
_Z_IMAGE, _Z_HATCH, _Z_DIAGONAL, _Z_SELECTION, _Z_VALUES = 0.0, 0.5, 1.0, 2.6, 3.0


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


def check_cell(cell, shape: tuple[int, int]) -> tuple[int, int]:
    """`cell` as a pair of ints (i, j) inside `shape`, else an error naming the valid range.

    Examples
    --------
    >>> check_cell((1, 2), (3, 3))
    (1, 2)
    """
    try:
        i, j = cell
    except (TypeError, ValueError):
        raise TypeError(tr("cell must be a pair (i, j), got {cell!r}", cell=cell)) from None
    for name, value, size in (("i", i, shape[0]), ("j", j, shape[1])):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
            said = tr("cell {name} must be an integer, got {value!r}")
            raise TypeError(said.format(name=name, value=value))
        if not 0 <= value < size:
            said = tr("cell {name} must be from 0 to {last}, got {value}")
            raise ValueError(said.format(name=name, last=size - 1, value=value))
    return int(i), int(j)


def symmetric_limit(matrix) -> float:
    """The smallest 'nice' number >= max |matrix|: 1, 1.5, 2, 2.5, 3, 4, 5, 6 or 8 times 10**k.

    Diverging heatmaps use ``(-limit, limit)``, so 0 is always the middle
    colour, and the colorbar only changes when the data crosses a step.
    Masked entries of a numpy masked array are left out.

    Examples
    --------
    >>> symmetric_limit([[0.3, -1.7]]), symmetric_limit([[12.0]]), symmetric_limit([[0.0]])
    (2.0, 15.0, 1.0)
    """
    top = float(np.ma.max(np.ma.abs(matrix))) if np.ma.count(matrix) else 0.0
    if not top > 0:
        return 1.0
    power = 10.0 ** math.floor(math.log10(top))
    for step in _STEPS:
        if step * power >= top:
            return step * power
    return 10.0 * power  # pragma: no cover


def _limits(kind: str, data: np.ndarray, limit: float | None) -> tuple[float, float]:
    if kind == "weights":
        return 0.0, 1.0
    if kind == "diverging":
        top = symmetric_limit(data) if limit is None else float(limit)
        return -top, top
    if not np.ma.count(data):
        return -0.5, 0.5
    low, high = float(data.min()), float(data.max())
    return (low, high) if high > low else (low - 0.5, high + 0.5)


def _masked(matrix, mask) -> np.ndarray:
    # The matrix as a masked float array; entries where `mask` is False may be
    # anything (a masked score is -inf), the others must be finite.
    if mask is None:  # a plain array: matplotlib resamples a mask too, at a cost
        return as_matrix("matrix", matrix, rows_name="rows", cols_name="cols")
    raw = as_float_array("matrix", matrix)
    mask = np.asarray(mask)
    if mask.dtype != bool or mask.shape != raw.shape:
        said = tr(
            "mask must be a boolean array of the matrix's shape {want}, "
            "got dtype {dtype} and shape {shape}"
        )
        raise ValueError(said.format(want=raw.shape, dtype=mask.dtype, shape=mask.shape))
    shown = as_matrix("matrix", np.where(mask, raw, 0.0), rows_name="rows", cols_name="cols")
    return np.ma.MaskedArray(shown, mask=~mask) if not mask.all() else shown


_SQUARE = np.array([(0, 0), (1, 0), (1, 1), (0, 1), (0, 0)], dtype=float)  # (5, 2) corners (x, y)
_SQUARE_CODES = np.array(
    [Path.MOVETO, Path.LINETO, Path.LINETO, Path.LINETO, Path.CLOSEPOLY], dtype=Path.code_type
)


def _cells_path(cells: Sequence[tuple[int, int]]) -> Path:
    # One closed square per (i, j), in data coordinates (cell (i, j) spans j ± 0.5, i ± 0.5).
    cells = np.asarray(cells, dtype=float).reshape(-1, 2)  # (k, 2), rows (i, j)
    if not len(cells):
        return Path(np.zeros((0, 2)))
    corner = cells[:, ::-1] - 0.5  # (k, 2): each square's (x, y) = (j - 0.5, i - 0.5)
    vertices = (corner[:, None, :] + _SQUARE[None]).reshape(-1, 2)  # (k, 5, 2) -> (5k, 2)
    return Path(vertices, np.tile(_SQUARE_CODES, len(cells)))


#: The smallest text a picture may draw, in CSS pixels: JupyterLab's body text (14 px) one step
#: down its type scale (÷ 1.2). A PNG pixel is a CSS pixel when the picture is not shrunk.
READABLE_PX = 14 / 1.2
#: READABLE_PX in points at the pictures' 100 dpi: no tick label is drawn smaller
MIN_LABEL_PT = READABLE_PX * 72 / 100
#: The smallest cell (points) whose numbers are drawn at READABLE_PX or more: a heatmap
#: writes them at 0.85 × cell / 3.1 (five characters in 85 % of the cell), at 100 dpi.
#: A Panel's ``min_value_cell`` unless it gives its own.
READABLE_VALUE_CELL = MIN_LABEL_PT * 3.1 / 0.85


def label_steps(row_labels, col_labels, cell_w: float, cell_h: float, fontsize: float):
    """Every how many rows and columns a token label is written (1: every one).

    A label must fit its row (or, turned, its column): when the cells are too
    small for a readable label (``MIN_LABEL_PT``), every second, third, ... token
    is labelled instead, at a readable size. Numbered axes are thinned by their
    locator and return 1.
    """

    def step(labels, cell: float) -> int:
        if labels is None:
            return 1
        return max(1, math.ceil(MIN_LABEL_PT / (0.78 * cell * 72)))

    return step(row_labels, cell_h), step(col_labels, cell_w)


def label_style(row_labels, col_labels, cell_w: float, cell_h: float, fontsize: float):
    """Tick label sizes in points (1/4 pt steps) and the column labels' rotation (0 or 90).

    From the cell size in inches: a label per row must fit its row (per labelled
    row, when :func:`label_steps` thins them); numbered axes (labels None) are
    thinned by a locator and keep a fixed size.
    """
    row_step, col_step = label_steps(row_labels, col_labels, cell_w, cell_h, fontsize)
    cell_w, cell_h = cell_w * col_step, cell_h * row_step

    def fit(cell: float) -> float:
        return math.floor(4 * min(fontsize, 0.78 * cell * 72)) / 4

    row_size = fit(cell_h) if row_labels is not None else 0.9 * fontsize
    col_size = fit(cell_w) if col_labels is not None else 0.9 * fontsize
    rotation = 0
    if col_labels is not None:
        # Measured in the font they are drawn in, with a quarter of an em between
        # neighbours (an estimate by letter count let "the" and "mat" touch at 8
        # heads). Too wide: a little smaller (to 0.9 of the font, as numbered axes),
        # and turned upright if that is not enough.
        needed = text_inches([str(s) for s in col_labels[::col_step]], col_size) + 0.25 * (
            col_size / 72
        )
        if needed > cell_w:
            shrunk = math.floor(4 * col_size * cell_w / needed) / 4
            if shrunk >= max(0.9 * fontsize, MIN_LABEL_PT):
                col_size = shrunk
            else:
                rotation = 90
    return row_size, col_size, rotation


def _set_ticks(axis, labels, count: int, step: int = 1) -> None:
    # Token names as tick labels, every `step`-th one; numbered axes thinned by a locator.
    if labels is None:
        axis.set_major_locator(MaxNLocator(nbins=min(count, 8), integer=True, min_n_ticks=1))
        axis.set_major_formatter(ScalarFormatter())
    else:
        axis.set_major_locator(FixedLocator(np.arange(0, count, step)))
        axis.set_major_formatter(FixedFormatter([str(s) for s in labels[::step]]))


class Heatmap:
    """One heatmap on one Axes: the artists drawn for it and the rules they follow.

    Made by :func:`heatmap`; do not build it directly.

    Attributes
    ----------
    ax : matplotlib.axes.Axes
    image : matplotlib.image.AxesImage
        Its array is the matrix shown (masked where `mask` is False).
    colorbar : matplotlib.colorbar.Colorbar or None
        The image's colorbar; it follows the image's colour limits.
    cell_values : list of matplotlib.text.Text
        The value written in each cell, row by row (a masked cell's is empty);
        no Text when the cells are too small or the Panel says ``values=False``.
    kind : str
    limit : float or None
        A fixed colour limit ("diverging" only), kept by :meth:`update`.
    shared : list of Heatmap
        The heatmaps (this one among them) that share one colour limit, the
        largest of their own; empty when this one keeps its own.
    selection : tuple of int or None
        The outlined cell (i, j), see :meth:`select`.
    """

    def __init__(
        self, ax: Axes, data: np.ndarray, *, kind: str, fontsize: float, limit: float | None
    ):
        self.ax = ax
        self.kind = kind
        self.fontsize = float(fontsize)
        self.limit = None if limit is None else float(limit)
        self._given_limit = self.limit  # heatmap(limit=...): kept when a Panel sets none
        self.shared: list[Heatmap] = []
        self.colorbar = None
        self.selection: tuple[int, int] | None = None
        self.cell_values: list[Text] = []
        self.image = ax.imshow(
            data,
            cmap=colormaps[KINDS[kind][0]].with_extremes(bad=MASKED_COLOUR),
            norm=Normalize(*_limits(kind, data, self.limit)),
            interpolation="nearest",
            aspect="auto",
            zorder=_Z_IMAGE,
        )
        style = {"facecolor": "none", "linewidth": 0, "zorder": _Z_HATCH}
        self._hatch = ax.add_patch(
            PathPatch(_cells_path([]), hatch="///", edgecolor="#8c8c8c", **style)
        )
        self._diagonal: list[PathPatch] = []
        self._outline = [  # the selected cell: an orange line on a white one, unlike the
            # diagonal's black, so that a selected diagonal cell still stands out
            ax.add_patch(
                Rectangle((0, 0), 1, 1, facecolor="none", edgecolor=c, zorder=_Z_SELECTION + k / 10)
            )
            for k, c in enumerate(("white", SELECTION_COLOUR))
        ]
        for patch in self._outline:
            patch.set_visible(False)

    # --- what is shown ---

    @property
    def matrix(self) -> np.ndarray:
        """The numbers shown, shape (rows, cols) (masked cells hold 0)."""
        return np.ma.getdata(self.image.get_array())

    @property
    def mask(self) -> np.ndarray:
        """Boolean (rows, cols): True where a cell is shown, False where it is masked."""
        return ~np.ma.getmaskarray(self.image.get_array())

    @property
    def shape(self) -> tuple[int, int]:
        return self.image.get_array().shape

    # --- changes ---

    def update(self, panel, *, mask=None) -> None:
        """Show `panel` on the same Axes; or, given a matrix, new numbers of the same shape.

        A :class:`~.panel.Panel` (of this heatmap's kind) may have any shape,
        labels and options: the heatmap is dressed anew for its current
        position. The selection is clamped to the new shape. A bare matrix
        changes the numbers only. Either way the colour limits follow the
        heatmap's rules, and nothing is drawn until the figure is.

        Parameters
        ----------
        panel : Panel, or array_like of shape (rows, cols)
        mask : array_like of bool, shape (rows, cols), optional
            With a matrix only: True where a cell is shown; the others are
            greyed and hatched. (A Panel has its own.)

        Examples
        --------
        >>> from matplotlib.figure import Figure
        >>> h = heatmap(Figure().add_subplot(), [[0.0, 1.0], [2.0, -3.0]])
        >>> h.update([[0.5, 0.5], [0.5, -0.5]])
        >>> h.image.get_clim()
        (-0.5, 0.5)
        """
        if isinstance(panel, Panel):
            if mask is not None:
                raise TypeError(tr("mask goes in the Panel (Panel(..., mask=...)), not beside it"))
            if panel.kind != self.kind:
                said = tr(
                    "the heatmap is of kind {kind!r}, the panel {other!r}: "
                    "draw a new heatmap for another kind"
                )
                raise ValueError(said.format(kind=self.kind, other=panel.kind))
            self._dress(panel)
            return
        data = _masked(panel, mask)
        if data.shape != self.shape:
            said = tr(
                "matrix has shape {shape} but the heatmap shows {shown}: "
                "pass a Panel (or draw a new heatmap) for a new shape"
            )
            raise ValueError(said.format(shape=data.shape, shown=self.shape))
        self._set_data(data)

    def _set_data(self, data: np.ndarray) -> None:
        self.image.set_data(data)
        hidden = np.argwhere(np.ma.getmaskarray(data))  # (cells, 2): the masked (i, j)
        self._hatch.set_path(_cells_path(hidden))
        self._hatch.set_visible(len(hidden) > 0)
        self._follow_limits()

    def _follow_limits(self) -> None:
        # New limits recolour the image, its colorbar and the values' ink
        members = self.shared or [self]
        if self.shared:  # all follow the largest limit among them
            top = max(symmetric_limit(member.image.get_array()) for member in self.shared)
            for member in self.shared:
                member.image.set_clim(-top, top)
        else:
            self.image.set_clim(*_limits(self.kind, self.image.get_array(), self.limit))
        for member in members:
            member._write_values()

    def _write_values(self) -> None:
        # Each cell's number, black on a light cell and white on a dark one
        if not self.cell_values:
            return
        data = self.image.get_array()
        rgba = self.image.to_rgba(data)  # (rows, cols, 4)
        dark = rgba[..., :3] @ _LUMA <= _DARK  # (rows, cols, 3) @ (3,) -> (rows, cols)
        blank = np.ma.getmaskarray(data)
        for text, value, hidden, on_dark in zip(
            self.cell_values, np.ma.getdata(data).ravel(), blank.ravel(), dark.ravel(), strict=True
        ):
            text.set_text("" if hidden else format_value(value))
            text.set_color("white" if on_dark else "black")

    def select(self, cell: tuple[int, int] | None) -> None:
        """Outline cell ``(i, j)`` (row i, column j), or nothing if `cell` is None.

        Examples
        --------
        >>> from matplotlib.figure import Figure
        >>> h = heatmap(Figure().add_subplot(), [[0.0, 1.0], [2.0, -3.0]])
        >>> h.select((1, 0)); h.selection
        (1, 0)
        """
        if cell is not None:
            cell = check_cell(cell, self.shape)
            for patch in self._outline:
                patch.set_xy((cell[1] - 0.5, cell[0] - 0.5))
        self.selection = cell
        for patch in self._outline:
            patch.set_visible(cell is not None)

    def _dress(self, panel: Panel) -> None:
        # Everything of `panel` drawn on this heatmap's Axes, for their current position.
        data = _masked(panel.matrix, panel.mask)
        rows, cols = data.shape
        row_labels, col_labels = panel.row_labels, panel.col_labels
        by_rows = tr("row_labels has {got} labels but matrix has {count} rows ({shape})")
        by_cols = tr("col_labels has {got} labels but matrix has {count} columns ({shape})")
        for labels, count, said in ((row_labels, rows, by_rows), (col_labels, cols, by_cols)):
            if labels is not None and len(labels) != count:
                raise ValueError(said.format(got=len(labels), count=count, shape=data.shape))
        if panel.diagonal and rows != cols:
            raise ValueError(
                tr("diagonal=True needs a square matrix, got shape {shape}", shape=(rows, cols))
            )
        ax, fig, fontsize = self.ax, self.ax.figure, self.fontsize
        self.image.set_extent((-0.5, cols - 0.5, rows - 0.5, -0.5))
        ax.set_xlim(-0.5, cols - 0.5)
        ax.set_ylim(rows - 0.5, -0.5)
        self.limit = self._given_limit if panel.limit is None else panel.limit

        box = ax.get_position()
        cell_w = box.width * fig.get_figwidth() / cols  # inches
        cell_h = box.height * fig.get_figheight() / rows
        cell_px = min(cell_w, cell_h) * fig.dpi
        row_size, col_size, rotation = label_style(row_labels, col_labels, cell_w, cell_h, fontsize)
        row_step, col_step = label_steps(row_labels, col_labels, cell_w, cell_h, fontsize)
        for axis, labels, count, step, size, turn in (
            (ax.yaxis, row_labels, rows, row_step, row_size, 0),
            (ax.xaxis, col_labels, cols, col_step, col_size, rotation),
        ):
            axis.set_tick_params(length=0, labelsize=size, pad=0.3 * fontsize, labelrotation=turn)
            _set_ticks(axis, labels, count, step)
        # y fixed at the top: nothing is drawn above the axes
        ax.set_title(panel.title, fontsize=fontsize * 1.1, pad=0.6 * fontsize, y=1.0)
        ax.set_xlabel(panel.xlabel, fontsize=fontsize)
        ax.set_ylabel(panel.ylabel, fontsize=fontsize)

        width = fontsize / 10 * min(1.0, cell_px / 25)  # outlines thinner on small cells
        for patch in self._diagonal:
            patch.remove()
        self._diagonal = []
        if panel.diagonal:
            path = _cells_path([(i, i) for i in range(rows)])
            for colour, lw, z in (("white", 2.6, _Z_DIAGONAL), ("black", 1.1, _Z_DIAGONAL + 0.1)):
                patch = PathPatch(
                    path, facecolor="none", edgecolor=colour, linewidth=lw * width, zorder=z
                )
                self._diagonal.append(ax.add_patch(patch))
        for patch, lw in zip(self._outline, (4.2, 2.2), strict=True):
            patch.set_linewidth(lw * width)
        if self.selection is not None:
            i, j = self.selection
            self.select((min(i, rows - 1), min(j, cols - 1)))

        for text in self.cell_values:
            text.remove()
        self.cell_values = []
        values = panel.values
        if values is None:
            values = rows <= MAX_VALUES_N and cols <= MAX_VALUES_N
        floor = READABLE_VALUE_CELL if panel.min_value_cell is None else panel.min_value_cell
        if min(cell_w, cell_h) * 72 < floor:  # too small to read
            values = False
        if values:
            size = min(fontsize, 0.85 * cell_px / 3.1 * 72 / fig.dpi)  # 5 characters in 85%
            style = {"ha": "center", "va": "center_baseline", "fontsize": size, "zorder": _Z_VALUES}
            self.cell_values = [
                ax.text(j, i, "", clip_on=True, **style) for i in range(rows) for j in range(cols)
            ]
        self._set_data(data)  # the numbers, the hatching, the limits and the values' text


def share_limit(heatmaps: Sequence[Heatmap]) -> None:
    """Give `heatmaps` one symmetric colour limit, the largest of their own, kept by updates.

    So that a colour means the same number in each (Q, K and V side by side).

    Examples
    --------
    >>> from matplotlib.figure import Figure
    >>> fig = Figure()
    >>> a, b = heatmap(fig.add_subplot(121), [[0.5]]), heatmap(fig.add_subplot(122), [[3.0]])
    >>> share_limit([a, b]); a.image.get_clim()
    (-3.0, 3.0)
    """
    heatmaps = list(heatmaps)
    for h in heatmaps:
        if h.kind != "diverging":
            raise ValueError(
                tr("share_limit is for kind 'diverging' only, not {kind!r}", kind=h.kind)
            )
        h.shared = heatmaps
    if heatmaps:
        heatmaps[0]._follow_limits()


def heatmap(
    ax: Axes,
    panel,
    *,
    colorbar: bool = True,
    cax: Axes | None = None,
    fontsize: float = 10.0,
    limit: float | None = None,
    **options,
) -> Heatmap:
    """Draw `panel` as a heatmap on `ax`, one cell per entry, row 0 at the top.

    Parameters
    ----------
    ax : matplotlib.axes.Axes
        Where to draw.
    panel : Panel, or array_like of shape (rows, cols)
        What to draw and how (see :class:`~.panel.Panel` for every option).
        A bare matrix is drawn as ``Panel(matrix=panel, **options)``.
    colorbar : bool, default True
        Add a colorbar (in `cax` if given, else beside `ax`), unless the
        Panel says ``colorbar=False``.
    cax : matplotlib.axes.Axes, optional
        Axes for the colorbar.
    fontsize : float, default 10
        Base font size in points; tick labels shrink to fit their cells.
    limit : float, optional
        "diverging" only: colour limits ``(-limit, limit)`` instead of the
        data's own, so that several heatmaps share one colour scale; kept by
        :meth:`Heatmap.update`.
    **options
        With a bare matrix: the fields of :class:`~.panel.Panel` (``title``,
        ``row_labels``, ``kind``, ``mask``, ...).

    Returns
    -------
    Heatmap
        ``h.image`` is the AxesImage (``h.image.get_array()`` holds the
        matrix); ``h.update(new)`` shows new numbers, or another Panel, on
        the same Axes.

    Examples
    --------
    >>> from matplotlib.figure import Figure
    >>> from attnlib import self_attention, toy_example
    >>> ex = toy_example(n=4)
    >>> att = self_attention(*ex[1:])
    >>> fig = Figure()
    >>> h = heatmap(fig.add_subplot(), att.weights, row_labels=ex.tokens,
    ...             col_labels=ex.tokens, title="weights", kind="weights")
    >>> h.matrix.shape, h.image.get_clim()
    ((4, 4), (0.0, 1.0))
    """
    if isinstance(panel, Panel):
        if options:
            said = tr("give the options in the Panel, not beside it: {options}")
            raise TypeError(said.format(options=sorted(options)))
    else:
        panel = Panel.of(panel, options)
    data = _masked(panel.matrix, panel.mask)
    made = Heatmap(ax, data, kind=panel.kind, fontsize=fontsize, limit=limit)
    made.update(panel)
    if colorbar and panel.colorbar:
        bar = ax.figure.colorbar(made.image, cax=cax, ax=None if cax is not None else ax)
        if panel.kind == "weights":
            bar.set_ticks(WEIGHT_TICKS)
        bar.minorticks_off()
        bar.outline.set_linewidth(0.8)
        bar.ax.tick_params(labelsize=0.9 * fontsize, length=0.3 * fontsize, pad=0.2 * fontsize)
        made.colorbar = bar
    return made
