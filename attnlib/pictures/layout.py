"""Panels in a row or a grid: what a panel holds, where each one goes, and the figure holding them.

A :class:`~.panel.Panel` is one heatmap to draw, built with keywords. :func:`geometry`
computes, once per arrangement (it is cached), the figure size and where
each heatmap and its colorbar go, from the measured widths of the labels.
Up to three panels stand side by side in one row; four or more (one per
head, say) are small multiples: smaller boxes in a grid of at most
``MAX_COLUMNS`` per row (see :func:`grid_shape`).
:class:`PanelFigure` draws panels on a figure it owns and, when only the
numbers, shapes or labels change, re-dresses the same Axes instead of
building new ones. :func:`draw_panels` is the one-shot form.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from ..i18n import tr
from .heatmap import (
    READABLE_PX,
    READABLE_VALUE_CELL,
    Heatmap,
    heatmap,
    label_style,
    share_limit,
)
from .panel import LAYOUT_FIELDS, Panel
from .text_size import text_inches as _text_inches

__all__ = [
    "FIT_HEIGHT",
    "FIT_WIDTH",
    "MAX_COLUMNS",
    "READABLE_PX",
    "READABLE_VALUE_CELL",
    "SIZES",
    "Geometry",
    "Panel",
    "PanelFigure",
    "check_size",
    "draw_panels",
    "geometry",
    "grid_shape",
]

#: size -> geometry in inches and points: heatmap box side, base font size, dpi.
#: "large" is for a 1080p projector: a 32-token heatmap about 640 px high.
SIZES = {
    "normal": {"box": 3.8, "font": 10.0, "dpi": 100},
    "large": {"box": 6.4, "font": 17.0, "dpi": 100},
}
#: size -> the widest a picture of panels may be, in pixels, so that it is shown at its
#: own size: JupyterLab's notebook column at 1366 × 768 with the file browser open is about
#: 930 px wide (a wider picture is shrunk to fit, and its text with it); "large" is for the
#: classroom page on a 1920 × 1080 projector.
FIT_WIDTH = {"normal": 920, "large": 1840}
#: size -> the tallest a picture of panels may be, in pixels: JupyterLab shows about
#: 650 px of a notebook on a 768 px screen, and a click's summary line goes under the picture.
FIT_HEIGHT = {"normal": 560, "large": 880}
MAX_COLUMNS = 4  # small multiples: at most this many panels in a row
MAX_ONE_ROW = 3  # up to this many panels: one row of full-size boxes, as always
SMALL_BOX = 0.7  # the largest box side of small multiples, as a share of the full box


def check_size(size: str) -> str:
    """Return `size` if it is one of SIZES, else raise a ValueError naming the choices."""
    if not isinstance(size, str) or size not in SIZES:
        raise ValueError(
            tr(
                "{name} must be one of {allowed}, got {value!r}",
                name="size",
                allowed=sorted(SIZES),
                value=size,
            )
        )
    return size


@dataclass(frozen=True)
class Geometry:
    """Where everything goes, for one arrangement of panels.

    Attributes
    ----------
    width, height : float
        Figure size in inches.
    dpi, font : float
        Dots per inch; base font size in points.
    boxes, bars : tuple of (left, bottom, width, height)
        Each heatmap's box and its colorbar's, in figure fractions.
    """

    width: float
    height: float
    dpi: float
    font: float
    boxes: tuple[tuple[float, float, float, float], ...]
    bars: tuple[tuple[float, float, float, float], ...]


def grid_shape(count: int) -> tuple[int, int]:
    """Rows and columns of the grid that holds `count` panels.

    Up to ``MAX_ONE_ROW`` panels: one row. More: at least two rows (4
    panels: 2 × 2), as few as hold them at most ``MAX_COLUMNS`` a row,
    filled evenly (7 panels: 4 + 3, not 4 + 3 in a 4-wide grid with a hole
    in the middle of a row; 6 panels: 3 + 3).

    Examples
    --------
    >>> [grid_shape(k) for k in (1, 3, 4, 5, 6, 8)]
    [(1, 1), (1, 3), (2, 2), (2, 3), (2, 3), (2, 4)]
    """
    if count <= MAX_ONE_ROW:
        return 1, count
    rows = max(2, -(-count // MAX_COLUMNS))  # ceil; 4 panels: 2 × 2, not one long row
    return rows, -(-count // rows)


def geometry(panels: Sequence[Panel], size: str = "normal") -> Geometry:
    """The figure size and each panel's box, for `panels` in a grid (cached by layout).

    Each panel gets a square box (rows and cols equal) or a box whose height
    follows its rows, and its colorbar on the right with room for tick
    labels of any width up to 5 characters. Up to three panels stand in one
    row; four or more are small multiples, smaller boxes filled row by row
    into :func:`grid_shape`'s grid, their columns aligned.

    Examples
    --------
    >>> import numpy as np
    >>> g = geometry([Panel(matrix=np.zeros((4, 4))), Panel(matrix=np.zeros((4, 4)))])
    >>> len(g.boxes), g.boxes[0][2] == g.boxes[1][2]
    (2, True)
    """
    size = check_size(size)
    if not panels:
        raise ValueError(tr("panels must hold at least one Panel"))
    return _geometry(size, tuple(p.layout_key() for p in panels))


_KEY_NAMES = ("shape", *(f.name for f in LAYOUT_FIELDS))  # the names of Panel.layout_key()


@lru_cache(maxsize=256)
def _geometry(size: str, keys: tuple[tuple, ...]) -> Geometry:
    panels = [dict(zip(_KEY_NAMES, key, strict=True)) for key in keys]
    box, font, dpi = (SIZES[size][k] for k in ("box", "font", "dpi"))
    grid_rows, grid_cols = grid_shape(len(panels))
    if len(panels) > MAX_ONE_ROW:  # small multiples: the whole grid about as wide as 3 panels
        box *= SMALL_BOX

    # Heights: square cells where possible, within [0.45, 1.3] of the box side,
    # and rows tall enough for a readable token label (0.011 in per point of font).
    # Small multiples have no such floor: they must fit the screen, and where their
    # rows are too thin for a label per row, every second or third row is labelled
    # (heatmap.label_steps).
    per_row = 0.0 if len(panels) > MAX_ONE_ROW else 0.011 * font

    def box_height(rows: int, cols: int) -> float:
        low = max(0.45 * box, min(rows * per_row, 1.3 * box))
        return min(max(box * rows / cols, low), 1.3 * box)

    height = max(box_height(*p["shape"]) for p in panels)
    line = font / 72 * 1.25  # one line of text, inches

    def margins(box: float, height: float) -> tuple[list[float], list[float]]:
        # Each panel's room for its row labels (left) and column labels (below), inches.
        lefts, bottoms = [], []
        for p in panels:
            rows, cols = p["shape"]
            row_size, col_size, rotation = label_style(
                p["row_labels"], p["col_labels"], box / cols, height / rows, font
            )
            row_texts = p["row_labels"] or [str(rows - 1)]
            rows_w = _text_inches(row_texts, row_size, dpi)
            lefts.append(rows_w + 0.3 * font / 72 + (line if p["ylabel"] else 0) + 0.1)
            col_texts = p["col_labels"] or [str(cols - 1)]
            cols_h = _text_inches(col_texts, col_size, dpi) if rotation else col_size / 72 * 1.2
            bottoms.append(cols_h + 0.3 * font / 72 + (line if p["xlabel"] else 0) + 0.12)
        return lefts, bottoms

    lefts, bottoms = margins(box, height)
    bar_w, bar_gap = 0.14 * font / 10, 0.12 * font / 10
    bar_labels = _text_inches(["\u22120.25", "\u2212150"], 0.9 * font, dpi) + 0.45 * font / 72
    right_pad = 0.15 * font / 10
    top = line * 1.1 + 0.6 * font / 72 + 0.08
    bottom = max(bottoms)
    band = top + height + bottom  # one row of the grid, inches
    # Panel k sits in row k // grid_cols, column k % grid_cols; a column is as
    # wide as the widest row labels in it, so that the boxes line up.
    column_left = [max(lefts[c::grid_cols]) for c in range(grid_cols)]
    # A column has room for a colorbar if one of its panels has one.
    bar_room = [
        bar_gap + bar_w + bar_labels if any(p["colorbar"] for p in panels[c::grid_cols]) else 0.0
        for c in range(grid_cols)
    ]
    fit, fit_height = FIT_WIDTH[size], FIT_HEIGHT[size]
    if fit is not None:  # shown at their own size in a laptop's notebook column, text unshrunk
        for _ in range(2):  # twice: the labels' room changes with the cells (turned, thinned)
            room = (fit / dpi - right_pad - sum(column_left) - sum(bar_room)) / grid_cols
            if fit_height is not None:  # and the grid with a line under it on the screen
                tallest = max(rows / cols for rows, cols in (p["shape"] for p in panels))
                tallest = min(max(tallest, 1.0), 1.3)  # a box is at most 1.3 times as tall
                room = min(room, (fit_height / dpi / grid_rows - top - bottom) / tallest)
            if room >= box:
                break
            box = max(room, 0.25 * SIZES[size]["box"])
            height = max(box_height(*p["shape"]) for p in panels)
            lefts, bottoms = margins(box, height)  # labels may shrink with the cells
            column_left = [max(lefts[c::grid_cols]) for c in range(grid_cols)]
            bottom, band = max(bottoms), top + height + max(bottoms)
    column_width = [left + box + bar for left, bar in zip(column_left, bar_room, strict=True)]
    width = sum(column_width) + right_pad
    fig_height = grid_rows * band

    boxes, bars = [], []
    for k in range(len(panels)):
        r, c = divmod(k, grid_cols)
        x = sum(column_width[:c]) + column_left[c]
        y = (grid_rows - 1 - r) * band + bottom  # the box's lower edge; row 0 on top
        boxes.append((x / width, y / fig_height, box / width, height / fig_height))
        bar_x = x + box + bar_gap
        bars.append((bar_x / width, y / fig_height, bar_w / width, height / fig_height))
    return Geometry(width, fig_height, dpi, font, tuple(boxes), tuple(bars))


class PanelFigure:
    """A matplotlib Figure of panels side by side, and the Heatmaps drawn on it.

    :meth:`draw` re-dresses the same Axes when the panels have the same kinds
    as last time (new numbers, shapes, labels or titles), and builds new ones
    otherwise. The figure never moves to another PanelFigure.

    Attributes
    ----------
    figure : matplotlib.figure.Figure
    size : str
    heatmaps : list of Heatmap
        One per panel of the last :meth:`draw`, in order.
    geometry : Geometry or None
        The layout of the last draw.
    """

    def __init__(self, figure: Figure, size: str = "normal"):
        self.figure = figure
        self.size = check_size(size)
        self.heatmaps: list[Heatmap] = []
        self.geometry: Geometry | None = None
        self._kinds: tuple[str, ...] | None = None  # the kinds the current Axes were built for
        if not isinstance(figure.canvas, FigureCanvasAgg):
            FigureCanvasAgg(figure)

    def draw(self, panels: Sequence[Panel]) -> list[Heatmap]:
        """Lay out `panels` and draw them (nothing is rendered until the canvas draws)."""
        g = geometry(panels, self.size)
        fig = self.figure
        kinds = tuple((p.kind, p.colorbar) for p in panels)
        reuse = kinds == self._kinds
        if not reuse:
            fig.clear()
            self._kinds, self.heatmaps = None, []
        fig.set_dpi(g.dpi)
        fig.patch.set_facecolor("white")
        if fig.get_size_inches().tolist() != [g.width, g.height]:
            fig.set_size_inches(g.width, g.height)

        made = []
        for k, p in enumerate(panels):
            if reuse:
                h = self.heatmaps[k]
                h.ax.set_position(g.boxes[k])
                if h.colorbar is not None:
                    h.colorbar.ax.set_position(g.bars[k])
                h.shared = []  # the group is made again below, from this draw's panels
                h.update(p)
            else:
                ax = fig.add_axes(g.boxes[k])
                cax = fig.add_axes(g.bars[k]) if p.colorbar else None
                h = heatmap(ax, p, cax=cax, colorbar=p.colorbar, fontsize=g.font)
            made.append(h)
        share_limit([h for h, p in zip(made, panels, strict=True) if p.share_limit])
        self.heatmaps, self._kinds, self.geometry = made, kinds, g
        return made


def draw_panels(fig: Figure, panels: Sequence[Panel], *, size: str = "normal") -> list[Heatmap]:
    """Clear `fig`, size it, and draw `panels` side by side with a fixed layout.

    The layout is computed from the measured widths of the labels (see
    :func:`geometry`) and is not changed by drawing, so that parts of the
    figure can be redrawn in place.

    Parameters
    ----------
    fig : matplotlib.figure.Figure
    panels : sequence of Panel
    size : {"normal", "large"}, default "normal"
        "large" is for a projector: bigger fonts and boxes.

    Returns
    -------
    list of Heatmap
        One per panel, in order.

    Examples
    --------
    >>> fig = Figure()
    >>> panels = [Panel(matrix=[[1.0, -1.0]], title="a"),
    ...           Panel(matrix=[[0.5], [0.5]], title="b", kind="weights")]
    >>> heatmaps = draw_panels(fig, panels)
    >>> len(heatmaps), len(fig.axes)       # two heatmaps and their colorbars
    (2, 4)
    """
    fig.clear()
    return PanelFigure(fig, size).draw(panels)
