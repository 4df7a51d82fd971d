"""What one heatmap shows and how: :class:`Panel`, the one description of a heatmap.

:func:`.heatmap.heatmap` draws a Panel, :meth:`.heatmap.Heatmap.update` dresses
an existing heatmap as another Panel, :class:`.layout.PanelFigure` lays out
several, and an explorer's view returns a list of them. A new option of a
heatmap is a new field here and the code in :mod:`.heatmap` that draws it:
every other place reads the fields (``dataclasses.fields``), never a list.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields

import numpy as np

from ..i18n import tr
from ..maths.validation import as_matrix

__all__ = ["KINDS", "LAYOUT_FIELDS", "Panel", "check_kind"]

#: kind -> (colormap, how the colour limits are set)
KINDS = {
    "diverging": ("RdBu_r", "symmetric limits around 0 that follow the data, in nice steps"),
    "weights": ("viridis", "fixed to [0, 1]"),
    "sequential": ("viridis", "the data's minimum and maximum"),
}

_NUMBERS = {"layout": False}  # field metadata: changes the numbers drawn, not the layout


def check_kind(kind: str) -> str:
    """Return `kind` if it is one of KINDS, else raise a ValueError naming the choices."""
    if not isinstance(kind, str) or kind not in KINDS:
        raise ValueError(
            tr(
                "{name} must be one of {allowed}, got {value!r}",
                name="kind",
                allowed=sorted(KINDS),
                value=kind,
            )
        )
    return kind


@dataclass(frozen=True, kw_only=True)
class Panel:
    """One heatmap: the matrix, and every option of how it is drawn (keywords only).

    Parameters
    ----------
    matrix : array_like, shape (rows, cols)
        One cell per entry, row 0 at the top.
    title, xlabel, ylabel : str
    row_labels : sequence of str, length rows, optional
        Labels down the left side (e.g. the query tokens); integers if omitted.
    col_labels : sequence of str, length cols, optional
        Labels along the bottom (e.g. the key tokens); integers if omitted.
        Rotated upright when they do not fit under their cells.
    kind : {"diverging", "weights", "sequential"}, default "diverging"
        "diverging": ``RdBu_r`` centred on 0 with symmetric limits (scores,
        X, Q, K, V). "weights": ``viridis`` fixed to [0, 1]. "sequential":
        ``viridis`` from the data's minimum to its maximum.
    diagonal : bool, default False
        Outline the cells (i, i): each token scoring itself.
    values : bool, optional
        Write each cell's value in it. Default: when rows and cols are both
        at most 8, so the numbers stay readable.
    min_value_cell : float, optional
        Write no values in cells narrower or shorter than this many points
        (1/72 inch), where a number would be too small to read; 0: no
        minimum. Default: ``READABLE_VALUE_CELL``, the smallest cell whose
        numbers are as large as the notebook's text one step down (a picture
        fitted to a laptop's notebook column, a grid of heads).
    limit : float, optional
        Diverging only: fixed colour limits ``(-limit, limit)`` instead of
        limits that follow the data, so that a colour means the same number
        whatever the matrix holds (an explorer that scrubs through training
        steps); say so in the title.
    colorbar : bool, default True
        Draw its colorbar beside it. Small multiples of one scale (each
        head's weights, all from 0 to 1) need it once, at the end of a row.
    share_limit : bool, default False
        Diverging only, in a figure of several panels: those that set it get
        one symmetric colour limit, the largest of their own, so that a colour
        means the same number in each of them, also after an update.
    selectable : bool, default False
        An explorer's selected cell is outlined in this panel.
    mask : array_like of bool, shape (rows, cols), optional
        True where a cell is shown (where a query may attend); False cells are
        grey and hatched, and may hold anything (a masked score is -inf).

    `matrix` and `mask` are the numbers; every other field is layout (see
    :meth:`layout_key`).

    Examples
    --------
    >>> Panel(matrix=[[1.0, 0.0], [0.0, 1.0]], title="I (2 × 2)", kind="weights").shape
    (2, 2)
    """

    matrix: np.ndarray = field(metadata=_NUMBERS)
    title: str = ""
    row_labels: tuple[str, ...] | None = None
    col_labels: tuple[str, ...] | None = None
    xlabel: str = ""
    ylabel: str = ""
    kind: str = "diverging"
    diagonal: bool = False
    values: bool | None = None
    min_value_cell: float | None = None
    limit: float | None = None
    colorbar: bool = True
    share_limit: bool = False
    selectable: bool = False
    mask: np.ndarray | None = field(default=None, metadata=_NUMBERS)

    def __post_init__(self):
        if self.mask is None:
            matrix = as_matrix("matrix", self.matrix, rows_name="rows", cols_name="cols")
        else:  # masked entries may be -inf: the heatmap checks the rest
            matrix = np.asarray(self.matrix, dtype=float)
            object.__setattr__(self, "mask", np.asarray(self.mask))
        object.__setattr__(self, "matrix", matrix)
        for name in ("row_labels", "col_labels"):
            labels = getattr(self, name)
            if labels is not None:
                object.__setattr__(self, name, tuple(str(s) for s in labels))
        check_kind(self.kind)
        if self.limit is not None:
            if self.kind != "diverging":
                raise ValueError(
                    tr("limit is for kind 'diverging' only, not {kind!r}", kind=self.kind)
                )
            if not (np.isfinite(self.limit) and self.limit > 0):
                raise ValueError(
                    tr(
                        "{name} must be a positive number, got {value!r}",
                        name="limit",
                        value=self.limit,
                    )
                )
            object.__setattr__(self, "limit", float(self.limit))
        if self.share_limit and self.kind != "diverging":
            raise ValueError(
                tr("share_limit is for kind 'diverging' only, not {kind!r}", kind=self.kind)
            )

    @property
    def shape(self) -> tuple[int, int]:
        return self.matrix.shape

    def layout_key(self) -> tuple:
        """Everything but the numbers: two panels with equal keys share a layout.

        Read from the dataclass fields, so a new field is in the key unless
        it is marked as numbers.
        """
        return (self.shape, *(getattr(self, f.name) for f in LAYOUT_FIELDS))

    @classmethod
    def of(cls, matrix, options: dict) -> Panel:
        """``Panel(matrix=matrix, **options)``, with an error naming the options if one is wrong.

        Examples
        --------
        >>> Panel.of([[1.0]], {"colour": "red"})
        Traceback (most recent call last):
        ...
        TypeError: 'colour' is not an option of a heatmap; the options are Panel's fields: ...
        """
        names = [f.name for f in fields(cls) if f.name != "matrix"]
        unknown = sorted(set(options) - set(names))
        if unknown:
            raise TypeError(
                tr(
                    "{unknown} is not an option of a heatmap; the options are Panel's fields: "
                    "{names}",
                    unknown=", ".join(map(repr, unknown)),
                    names=", ".join(names),
                )
            )
        return cls(matrix=matrix, **options)


#: The fields that make a panel's layout, in order: all but those marked as numbers.
LAYOUT_FIELDS = tuple(f for f in fields(Panel) if f.metadata.get("layout", True))
