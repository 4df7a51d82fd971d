"""Explorers: controls, a picture and a readout, wired together (the only ipywidgets module).

An explorer is its controls plus a pure function from their values to a
:class:`~attnlib.views.View` (panels, readout, data), see :mod:`attnlib.views`.
Moving a control calls that function and redraws the picture in place on one
persistent figure (:class:`attnlib._render.FastCanvas`), shown as a PNG in
an ``ipywidgets.Image``. Everything an explorer shows is reachable without
widgets, by calling the same view function.
"""

from __future__ import annotations

import traceback
from collections.abc import Callable
from typing import ClassVar

import ipywidgets as widgets

from . import views
from ._render import FastCanvas
from ._validate import as_size
from .heatmap import check_cell
from .layout import check_size

__all__ = [
    "LIMITS",
    "AttentionExplorer",
    "EmbeddingExplorer",
    "Explorer",
    "QKVExplorer",
    "ScalingExplorer",
    "embedding_explorer",
    "explorer",
    "qkv_explorer",
    "scaling_explorer",
]

#: name -> (minimum, maximum, what it is), for sliders and fixed arguments alike
LIMITS = {
    "n": (2, 32, "sequence length"),
    "d": (1, 64, "embedding size"),
    "d_k": (1, 64, "query/key size"),
    "d_v": (1, 64, "value size"),
    "seed": (0, 99, "random seed"),
}
MAX_D = 512  # d when it is a fixed argument rather than a slider

_LARGE_CSS = """<style>
.attnlib-large .widget-label, .attnlib-large .widget-readout { font-size: 22px !important; }
.attnlib-large .widget-slider { height: 40px; }
.attnlib-large .widget-html-content { font-size: 20px; }
.attnlib-large .widget-html-content table { font-size: inherit; }
.attnlib-large .widget-html-content :is(td, th) { padding: 2px 14px; }
</style>"""


class Explorer(widgets.VBox):
    """Controls, a picture and a readout; the base of every explorer.

    A subclass sets three class attributes and nothing else:

    - ``CONTROLS``: the names of its sliders (see ``LIMITS``), in order;
    - ``FIXED``: the names of its fixed arguments (not sliders);
    - ``view``: a pure function taking all of those by keyword and returning
      a :class:`~attnlib.views.View`.

    Each slider is also an attribute of the same name (``e.n.value = 8``);
    the fixed arguments are in ``e.fixed``; each entry of the view's
    ``data`` becomes an attribute (``e.example``, ``e.attention``, ...).

    Parameters
    ----------
    size : {"normal", "large"}, default "normal"
    **values : int
        One value per name in CONTROLS and FIXED.

    Attributes
    ----------
    controls : dict of str to ipywidgets.ValueWidget
    fixed : dict of str to int
    selection : tuple of int or None
        The cell (i, j) outlined in the selectable panels (see :meth:`select`).
    figure : matplotlib.figure.Figure
        The one figure drawn on for the explorer's whole life.
    image : ipywidgets.Image
        The current picture, PNG bytes in ``image.value``.
    readout : ipywidgets.HTML
        The numbers under the picture.
    errors : ipywidgets.Output
        Shows the traceback if a redraw fails (empty otherwise).
    last_error : Exception or None
        The exception of the last failed redraw, None after a good one.
    """

    CONTROLS: ClassVar[tuple[str, ...]] = ()
    FIXED: ClassVar[tuple[str, ...]] = ()
    LIMITS: ClassVar[dict[str, tuple[int, int, str]]] = LIMITS  # extend for new slider names
    view: ClassVar[Callable[..., views.View]]

    def __init__(self, *, size: str = "normal", **values: int):
        super().__init__()
        wanted = (*self.CONTROLS, *self.FIXED)
        if sorted(values) != sorted(wanted):
            raise TypeError(
                f"{type(self).__name__} takes {', '.join(wanted)} by keyword, got {sorted(values)}"
            )
        self.size = check_size(size)
        large = self.size == "large"
        self.fixed = {
            name: as_size(
                name,
                values[name],
                minimum=self.LIMITS[name][0],
                maximum=MAX_D if name == "d" else self.LIMITS[name][1],
            )
            for name in self.FIXED
        }
        self.controls = {name: self.make_control(name, values[name]) for name in self.CONTROLS}
        for name, control in self.controls.items():
            setattr(self, name, control)
        self.selection: tuple[int, int] | None = None
        self.last_error = None
        self._canvas = FastCanvas(self.size)
        self.image = widgets.Image(
            # flex-start: a VBox stretches its children to its width, which would
            # upscale (and blur) the picture; keep its own size, shrink if narrower
            format="png",
            layout=widgets.Layout(max_width="100%", height="auto", align_self="flex-start"),
        )
        self.readout = widgets.HTML(layout=widgets.Layout(margin="0 0 0 12px"))
        self._font = "1em" if large else "0.95em"  # large: 20px from _LARGE_CSS
        self.errors = widgets.Output()
        self.redraw()  # a bad argument raises here, in the user's cell
        for control in self.controls.values():
            control.observe(self._on_change, names="value")
        self.add_class("attnlib-explorer")
        extra = []
        if large:  # slider labels have no font-size style: scale them with CSS, for a projector
            self.add_class("attnlib-large")
            extra = [widgets.HTML(_LARGE_CSS, layout=widgets.Layout(display="none"))]
        self.children = (
            *extra,
            widgets.HBox(list(self.controls.values()), layout=widgets.Layout(flex_flow="row wrap")),
            self.image,
            self.readout,
            self.errors,
        )

    def make_control(self, name: str, value: int) -> widgets.ValueWidget:
        """The control for `name`: an IntSlider over ``self.LIMITS[name]``. Override for others
        (a Dropdown for a mask choice, say); any ipywidgets ValueWidget will do."""
        low, high, what = self.LIMITS[name]
        large = self.size == "large"
        return widgets.IntSlider(
            value=as_size(name, value, minimum=low, maximum=high),
            min=low,
            max=high,
            description=name,
            tooltip=what,
            continuous_update=True,
            layout=widgets.Layout(width="420px" if large else "300px"),
            style={"description_width": "60px" if large else "40px"},
        )

    @property
    def figure(self):
        """The matplotlib Figure (the same object after every redraw)."""
        return self._canvas.figure

    @property
    def canvas(self) -> FastCanvas:
        """What draws the picture: its Heatmaps, and counters of the redraw paths taken."""
        return self._canvas

    def values(self) -> dict[str, int]:
        """The controls' current values, by name."""
        return {name: control.value for name, control in self.controls.items()}

    def redraw(self) -> None:
        """Recompute from the controls and redraw (fast when only the numbers changed)."""
        view = self.view(**self.values(), **self.fixed)
        shapes = [p.shape for p in view.panels if p.selectable]
        if self.selection is not None and shapes:  # clamp: n may have shrunk
            (rows, cols), (i, j) = shapes[0], self.selection
            self.selection = (min(i, rows - 1), min(j, cols - 1))
        png = self._canvas.show(view.panels, self.selection)
        self._view = view
        for name, value in view.data.items():
            setattr(self, name, value)
        self.image.value = png
        text = view.readout + self.describe_selection()
        self.readout.value = f'<div style="font-size: {self._font}; line-height: 1.5">{text}</div>'

    def describe_selection(self) -> str:
        """HTML shown under the readout for the selected cell; none here. Runs after the view's
        data are set (``self.attention``, ...), so a subclass can explain ``self.selection``."""
        return ""

    def select(self, cell: tuple[int, int] | None) -> None:
        """Outline cell (i, j) in every selectable panel (None: no outline), and redraw.

        The selection stays while the sliders move (clamped when n shrinks).
        """
        if cell is not None:
            shapes = [p.shape for p in self._view.panels if p.selectable]
            if not shapes:
                raise ValueError(f"{type(self).__name__} has no panel in which to select a cell")
            cell = check_cell(cell, shapes[0])
        self.selection = cell
        self.redraw()

    def _on_change(self, change) -> None:
        # An exception in a traitlets observer would end in the kernel's log,
        # unseen: show it under the picture instead, and keep the old picture.
        try:
            self.redraw()
        except Exception as exc:
            self.last_error = exc
            text = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
            self.errors.outputs = ()
            self.errors.append_stderr(f"redraw failed for {self!r}:\n{text}")
        else:
            if self.last_error is not None or self.errors.outputs:
                self.last_error = None
                self.errors.outputs = ()

    def __repr__(self) -> str:
        args = ", ".join(f"{name}={value}" for name, value in self.values().items())
        return f"{type(self).__name__}({args})"

    def _repr_mimebundle_(self, **kwargs):
        # The widget view for a live kernel; a PNG of the current picture for
        # GitHub, nbviewer and PDF; a short, stable text/plain for nbval.
        bundle = super()._repr_mimebundle_(**kwargs)
        bundle["text/plain"] = repr(self)
        bundle["image/png"] = bytes(self.image.value)
        return bundle


class AttentionExplorer(Explorer):
    """Scores and weights of the toy sentence; sliders n, d_k, seed, heads and a mask choice
    (see :func:`explorer`).

    Attributes: ``example``, ``attention`` and ``multi_head`` (see
    :func:`attnlib.views.attention_view`); ``mask`` is a ToggleButtons over
    ``views.MASKS``.
    """

    CONTROLS = ("n", "d_k", "seed", "heads", "mask")
    FIXED = ("d",)
    LIMITS: ClassVar[dict[str, tuple[int, int, str]]] = {
        **LIMITS,
        "heads": (1, 8, "number of heads, each of width d_k"),
    }
    DEFAULTS: ClassVar[dict[str, object]] = {"heads": 1, "mask": "none"}  # left out of repr
    view = staticmethod(views.attention_view)

    def make_control(self, name: str, value) -> widgets.ValueWidget:
        if name != "mask":
            return super().make_control(name, value)
        if not isinstance(value, str) or value not in views.MASKS:
            raise ValueError(f"mask must be one of {list(views.MASKS)}, got {value!r}")
        return widgets.ToggleButtons(
            options=list(views.MASKS),
            value=value,
            description="mask",
            tooltips=["every query sees every key", "query i sees keys 0 … i only"],
            style={"description_width": "60px" if self.size == "large" else "40px"},
        )

    def __init__(self, *, heads: int = 1, mask: str = "none", **values):
        super().__init__(heads=heads, mask=mask, **values)

    def __repr__(self) -> str:
        # Reads as it always did at the defaults; heads and mask appear once moved.
        parts = [
            f"{name}={value!r}"
            for name, value in self.values().items()
            if name not in self.DEFAULTS or value != self.DEFAULTS[name]
        ]
        return f"{type(self).__name__}({', '.join(parts)})"


class EmbeddingExplorer(Explorer):
    """The embedding X; sliders n, d, seed (see :func:`embedding_explorer`).

    Attribute: ``example`` (see :func:`attnlib.views.embedding_view`).
    """

    CONTROLS = ("n", "d", "seed")
    view = staticmethod(views.embedding_view)


class QKVExplorer(Explorer):
    """Q, K and V; sliders d_k, d_v, seed (see :func:`qkv_explorer`).

    Attributes: ``example`` and ``attention`` (see :func:`attnlib.views.qkv_view`).
    """

    CONTROLS = ("d_k", "d_v", "seed")
    FIXED = ("n", "d")
    view = staticmethod(views.qkv_view)


class ScalingExplorer(Explorer):
    """Weights without and with the √d_k scaling; sliders d_k, seed (see :func:`scaling_explorer`).

    Attributes: ``example`` and ``comparison`` (see :func:`attnlib.views.scaling_view`).
    """

    CONTROLS = ("d_k", "seed")
    FIXED = ("n", "d")
    view = staticmethod(views.scaling_view)


def explorer(
    n: int = 6,
    d_k: int = 4,
    seed: int = 0,
    d: int = 8,
    *,
    heads: int = 1,
    mask: str = "none",
    size: str = "normal",
) -> AttentionExplorer:
    """The chapter's computation, live: sliders n, d_k, seed above the scores and weights heatmaps.

    Moving a slider recomputes ``self_attention(*toy_example(n, d=d, d_k=d_k,
    seed=seed)[1:])`` and redraws both heatmaps in place on one figure. Two
    more controls go beyond the chapter: ``mask`` ("none" or "causal": blocked
    cells grey, −∞ among the scores, 0 among the weights) and ``heads`` (2 or
    more: each head's weights, from ``multi_head_attention`` on
    ``toy_multi_head``, head 0 being the one-head example).

    Parameters
    ----------
    n : int, default 6
        Tokens, 2 to 32 (cell values are written up to 8).
    d_k : int, default 4
        Query/key size, 1 to 64.
    seed : int, default 0
        0 to 99.
    d : int, default 8
        Embedding size (fixed while exploring), 1 to 512.
    heads : int, default 1
        Heads, 1 to 8, each of width d_k.
    mask : {"none", "causal"}, default "none"
        "causal": query i may attend to keys 0 … i only.
    size : {"normal", "large"}, default "normal"
        "large" scales fonts and the picture for a projector.

    Returns
    -------
    AttentionExplorer
        Displays itself in Jupyter (with a PNG fallback where no kernel runs).

    Examples
    --------
    >>> import numpy as np
    >>> from attnlib import self_attention, toy_example
    >>> e = explorer(n=6, d_k=4, seed=0)
    >>> e
    AttentionExplorer(n=6, d_k=4, seed=0)
    >>> e.d_k.value = 8                                  # what moving the slider does
    >>> bool(np.allclose(e.attention.weights, self_attention(*toy_example(6, d_k=8)[1:]).weights))
    True
    >>> e.mask.value, e.heads.value = "causal", 3        # a mask, and three heads
    >>> e, len(e.multi_head.heads), float(e.multi_head.heads[2].weights[0, 1])
    (AttentionExplorer(n=6, d_k=8, seed=0, heads=3, mask='causal'), 3, 0.0)
    """
    return AttentionExplorer(n=n, d_k=d_k, seed=seed, d=d, heads=heads, mask=mask, size=size)


def embedding_explorer(
    n: int = 6, d: int = 8, seed: int = 0, *, size: str = "normal"
) -> EmbeddingExplorer:
    """The embedding X (n × d) as a heatmap with a token on each row; sliders n, d, seed (claim C4).

    Parameters
    ----------
    n : int, default 6
        Tokens, 2 to 32.
    d : int, default 8
        Embedding size, 1 to 64.
    seed : int, default 0
        0 to 99.
    size : {"normal", "large"}, default "normal"

    Returns
    -------
    EmbeddingExplorer

    Examples
    --------
    >>> e = embedding_explorer(n=5, d=3)
    >>> e.example.X.shape
    (5, 3)
    """
    return EmbeddingExplorer(n=n, d=d, seed=seed, size=size)


def qkv_explorer(
    d_k: int = 4, d_v: int = 4, seed: int = 0, *, n: int = 6, d: int = 8, size: str = "normal"
) -> QKVExplorer:
    """Q, K and V side by side; sliders d_k, d_v, seed (claims C5, C6).

    Parameters
    ----------
    d_k : int, default 4
        Columns of Q and K, 1 to 64.
    d_v : int, default 4
        Columns of V, 1 to 64.
    seed : int, default 0
    n : int, default 6
        Tokens (fixed), 2 to 32.
    d : int, default 8
        Embedding size (fixed).
    size : {"normal", "large"}, default "normal"

    Returns
    -------
    QKVExplorer

    Examples
    --------
    >>> e = qkv_explorer(d_k=4, d_v=2)
    >>> e.attention.Q.shape, e.attention.V.shape
    ((6, 4), (6, 2))
    """
    return QKVExplorer(d_k=d_k, d_v=d_v, seed=seed, n=n, d=d, size=size)


def scaling_explorer(
    d_k: int = 4, *, seed: int = 0, n: int = 8, d: int = 8, size: str = "normal"
) -> ScalingExplorer:
    """Weights with and without dividing by √d_k, side by side, with live readouts (claim C10).

    Parameters
    ----------
    d_k : int, default 4
        Query/key size, 1 to 64.
    seed : int, default 0
    n : int, default 8
        Tokens (fixed), 2 to 32.
    d : int, default 8
        Embedding size (fixed).
    size : {"normal", "large"}, default "normal"

    Returns
    -------
    ScalingExplorer
        ``.comparison`` holds both attentions and the numbers shown.

    Examples
    --------
    >>> e = scaling_explorer(d_k=64)
    >>> c = e.comparison
    >>> bool(c.max_weight_unscaled > c.max_weight_scaled)
    True
    """
    return ScalingExplorer(d_k=d_k, seed=seed, n=n, d=d, size=size)
