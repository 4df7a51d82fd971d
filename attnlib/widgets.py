"""Explorers: sliders above heatmaps that redraw in place, fast (the only module using ipywidgets).

Each explorer reads its sliders, calls attnlib's pure functions (the same
ones a notebook or a test calls), and shows the result as a PNG in an
``ipywidgets.Image``, drawn on one persistent matplotlib figure by
:class:`attnlib._render.FastCanvas`. Every number it shows is reachable
without widgets: ``toy_example`` + ``self_attention`` for the data,
``attnlib.plotting.*_panels`` for the pictures, and the ``*_readout``
functions here for the text under them.
"""

from __future__ import annotations

import traceback

import ipywidgets as widgets
import numpy as np

from ._render import FastCanvas
from ._validate import as_size
from .core import Attention, self_attention
from .data import Example, toy_example
from .plotting import attention_panels, check_size, embedding_panels, qkv_panels, scaling_panels
from .stats import ScalingComparison, max_weight, row_entropy, scaling_comparison

__all__ = [
    "AttentionExplorer",
    "EmbeddingExplorer",
    "Explorer",
    "QKVExplorer",
    "ScalingExplorer",
    "attention_readout",
    "embedding_explorer",
    "embedding_readout",
    "explorer",
    "qkv_explorer",
    "qkv_readout",
    "scaling_explorer",
    "scaling_readout",
]

#: slider name -> (minimum, maximum, what it is)
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


def _shape(M: np.ndarray) -> str:
    return "(" + ", ".join(str(s) for s in M.shape) + ")"


def _numbers(values: np.ndarray) -> str:
    return " ".join(f"{v:.2f}" for v in values)


def attention_readout(att: Attention) -> str:
    """The text under :func:`explorer`'s picture, as HTML: shapes, max weight per row, entropy.

    Examples
    --------
    >>> from attnlib import self_attention, toy_example
    >>> text = attention_readout(self_attention(*toy_example(n=3, d_k=2)[1:]))
    >>> "Q (3, 2)" in text and "largest weight in each row" in text
    True
    """
    n = att.weights.shape[1]
    entropy = row_entropy(att.weights)
    return (
        f"Q {_shape(att.Q)} · K {_shape(att.K)} · V {_shape(att.V)} · "
        f"scores and weights {_shape(att.weights)}<br>"
        f"largest weight in each row: <code>{_numbers(max_weight(att.weights))}</code><br>"
        f"mean row entropy: {entropy.mean():.2f} nats "
        f"(0 = all weight on one key, {np.log(n):.2f} = spread evenly over {n})"
    )


def embedding_readout(example: Example) -> str:
    """The text under :func:`embedding_explorer`'s picture, as HTML.

    Examples
    --------
    >>> from attnlib import toy_example
    >>> "X (6, 8)" in embedding_readout(toy_example(n=6, d=8))
    True
    """
    n, d = example.X.shape
    words = example.tokens
    repeats = sorted({w for w in words if words.count(w) > 1})
    same = f"; a repeated token gets the same row: {', '.join(repeats)}" if repeats else ""
    return f"X {_shape(example.X)}: n = {n} tokens, one row of d = {d} numbers each{same}"


def qkv_readout(example: Example, att: Attention) -> str:
    """The text under :func:`qkv_explorer`'s picture, as HTML: the shapes of the three maps.

    Examples
    --------
    >>> from attnlib import self_attention, toy_example
    >>> ex = toy_example(n=6, d=8, d_k=4, d_v=3)
    >>> "V = X W_V: (6, 8) @ (8, 3) -> (6, 3)" in qkv_readout(ex, self_attention(*ex[1:]))
    True
    """
    X = example.X
    lines = [
        f"{name} = X W_{name}: {_shape(X)} @ {_shape(W)} -> {_shape(M)}"
        for name, W, M in (
            ("Q", example.W_Q, att.Q),
            ("K", example.W_K, att.K),
            ("V", example.W_V, att.V),
        )
    ]
    d_k, d_v = att.Q.shape[1], att.V.shape[1]
    return (
        " · ".join(lines) + "<br>"
        f"Q and K share d_k = {d_k} (each score is q_i · k_j); V has d_v = {d_v}, free to differ"
    )


def scaling_readout(comparison: ScalingComparison) -> str:
    """The live numbers under :func:`scaling_explorer`: score variance, max weight, row entropy.

    Examples
    --------
    >>> from attnlib import toy_example
    >>> from attnlib.stats import scaling_comparison
    >>> "score variance" in scaling_readout(scaling_comparison(*toy_example(d_k=16)[1:]))
    True
    """
    c = comparison
    d_k = c.scaled.Q.shape[1]
    n = c.scaled.weights.shape[1]
    rows = (
        ("score variance", c.score_variance_unscaled, c.score_variance_scaled),
        ("mean max weight", c.max_weight_unscaled, c.max_weight_scaled),
        ("mean row entropy (nats)", c.entropy_unscaled, c.entropy_scaled),
    )
    body = "".join(
        f"<tr><td>{name}</td><td>{a:.2f}</td><td>{b:.2f}</td></tr>" for name, a, b in rows
    )
    return (
        f"<table><tr><th>d_k = {d_k}</th><th>unscaled</th>"
        f"<th>scaled by √d_k = {np.sqrt(d_k):.2f}</th>"
        f"</tr>{body}</table>"
        f"A saturated softmax has max weight near 1 and entropy near 0; "
        f"an even one 1/{n} = {1 / n:.2f} and log {n} = {np.log(n):.2f}."
    )


class Explorer(widgets.VBox):
    """Sliders, a picture and a readout; the base of every explorer.

    Subclasses list their sliders and implement ``_compute``, which stores
    the current data on the explorer and returns ``(panels, readout_html)``.

    Attributes
    ----------
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

    def __init__(self, sliders: dict[str, int], *, size: str = "normal"):
        super().__init__()
        size = check_size(size)
        self.size = size
        self._canvas = FastCanvas(size)
        self.last_error = None
        large = size == "large"
        self._sliders = {}
        for name, value in sliders.items():
            low, high, what = LIMITS[name]
            slider = widgets.IntSlider(
                value=value,
                min=low,
                max=high,
                description=name,
                tooltip=what,
                continuous_update=True,
                layout=widgets.Layout(width="420px" if large else "300px"),
                style={"description_width": "60px" if large else "40px"},
            )
            self._sliders[name] = slider
            setattr(self, name, slider)
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
        for slider in self._sliders.values():
            slider.observe(self._on_change, names="value")
        self.add_class("attnlib-explorer")
        extra = []
        if large:  # slider labels have no font-size style: scale them with CSS, for a projector
            self.add_class("attnlib-large")
            extra = [widgets.HTML(_LARGE_CSS, layout=widgets.Layout(display="none"))]
        self.children = (
            *extra,
            widgets.HBox(list(self._sliders.values()), layout=widgets.Layout(flex_flow="row wrap")),
            self.image,
            self.readout,
            self.errors,
        )

    @property
    def figure(self):
        """The matplotlib Figure (the same object after every redraw)."""
        return self._canvas.figure

    def values(self) -> dict[str, int]:
        """The sliders' current values, by name."""
        return {name: slider.value for name, slider in self._sliders.items()}

    def _compute(self):  # pragma: no cover - every subclass overrides it
        raise NotImplementedError

    def redraw(self) -> None:
        """Recompute from the sliders and redraw (fast when only the numbers changed)."""
        panels, readout = self._compute()
        self.image.value = self._canvas.show(panels)
        self.readout.value = (
            f'<div style="font-size: {self._font}; line-height: 1.5">{readout}</div>'
        )

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
    """Scores and weights of the toy sentence, with sliders n, d_k and seed (see :func:`explorer`).

    Attributes
    ----------
    n, d_k, seed : ipywidgets.IntSlider
    example : Example
        ``toy_example(n, d=d, d_k=d_k, seed=seed)`` for the sliders' values.
    attention : Attention
        ``self_attention(*example[1:])``.
    figure, image, readout, errors
        See :class:`Explorer`.
    """

    def __init__(
        self, n: int = 6, d_k: int = 4, seed: int = 0, d: int = 8, *, size: str = "normal"
    ):
        self.d = as_size("d", d, maximum=MAX_D)
        super().__init__(_checked(n=n, d_k=d_k, seed=seed), size=size)

    def _compute(self):
        self.example = toy_example(self.n.value, d=self.d, d_k=self.d_k.value, seed=self.seed.value)
        self.attention = self_attention(*self.example[1:])
        return attention_panels(self.attention, self.example.tokens), attention_readout(
            self.attention
        )


class EmbeddingExplorer(Explorer):
    """The embedding X of the toy sentence; sliders n, d and seed (see :func:`embedding_explorer`).

    Attributes
    ----------
    n, d, seed : ipywidgets.IntSlider
    example : Example
        ``toy_example(n, d=d, seed=seed)``; ``example.X`` is what is drawn.
    """

    def __init__(self, n: int = 6, d: int = 8, seed: int = 0, *, size: str = "normal"):
        super().__init__(_checked(n=n, d=d, seed=seed), size=size)

    def _compute(self):
        self.example = toy_example(self.n.value, d=self.d.value, seed=self.seed.value)
        return embedding_panels(self.example.X, self.example.tokens), embedding_readout(
            self.example
        )


class QKVExplorer(Explorer):
    """Q, K and V of the toy sentence, with sliders d_k, d_v and seed (see :func:`qkv_explorer`).

    Attributes
    ----------
    d_k, d_v, seed : ipywidgets.IntSlider
    example : Example
        ``toy_example(n, d=d, d_k=d_k, d_v=d_v, seed=seed)``.
    attention : Attention
        ``self_attention(*example[1:])``; Q, K and V are drawn.
    """

    def __init__(
        self,
        d_k: int = 4,
        d_v: int = 4,
        seed: int = 0,
        *,
        n: int = 6,
        d: int = 8,
        size: str = "normal",
    ):
        self.n_tokens = _checked(n=n)["n"]
        self.d = as_size("d", d, maximum=MAX_D)
        super().__init__(_checked(d_k=d_k, d_v=d_v, seed=seed), size=size)

    def _compute(self):
        self.example = toy_example(
            self.n_tokens, d=self.d, d_k=self.d_k.value, d_v=self.d_v.value, seed=self.seed.value
        )
        self.attention = self_attention(*self.example[1:])
        return qkv_panels(self.attention, self.example.tokens), qkv_readout(
            self.example, self.attention
        )


class ScalingExplorer(Explorer):
    """Weights without and with the √d_k scaling, with a d_k slider (see :func:`scaling_explorer`).

    Attributes
    ----------
    d_k, seed : ipywidgets.IntSlider
    example : Example
        ``toy_example(n, d=d, d_k=d_k, seed=seed)``.
    comparison : ScalingComparison
        ``attnlib.stats.scaling_comparison(*example[1:])``: both attentions and the readouts.
    """

    def __init__(
        self, d_k: int = 4, seed: int = 0, *, n: int = 8, d: int = 8, size: str = "normal"
    ):
        self.n_tokens = _checked(n=n)["n"]
        self.d = as_size("d", d, maximum=MAX_D)
        super().__init__(_checked(d_k=d_k, seed=seed), size=size)

    def _compute(self):
        self.example = toy_example(
            self.n_tokens, d=self.d, d_k=self.d_k.value, seed=self.seed.value
        )
        self.comparison = scaling_comparison(*self.example[1:])
        c = self.comparison
        return scaling_panels(c.unscaled, c.scaled, self.example.tokens), scaling_readout(c)


def _checked(**values) -> dict[str, int]:
    return {
        name: as_size(name, value, minimum=LIMITS[name][0], maximum=LIMITS[name][1])
        for name, value in values.items()
    }


def explorer(
    n: int = 6, d_k: int = 4, seed: int = 0, d: int = 8, *, size: str = "normal"
) -> AttentionExplorer:
    """The chapter's computation, live: sliders n, d_k, seed above the scores and weights heatmaps.

    Moving a slider recomputes ``self_attention(*toy_example(n, d=d, d_k=d_k,
    seed=seed)[1:])`` and redraws both heatmaps in place on one figure.

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
    size : {"normal", "large"}, default "normal"
        "large" scales fonts and the picture for a projector.

    Returns
    -------
    AttentionExplorer
        Displays itself in Jupyter (with a PNG fallback where no kernel runs).

    Examples
    --------
    >>> from attnlib import self_attention, toy_example
    >>> e = explorer(n=6, d_k=4, seed=0)
    >>> e
    AttentionExplorer(n=6, d_k=4, seed=0)
    >>> e.d_k.value = 8                                  # what moving the slider does
    >>> bool(np.allclose(e.attention.weights, self_attention(*toy_example(6, d_k=8)[1:]).weights))
    True
    """
    return AttentionExplorer(n, d_k, seed, d, size=size)


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
    return EmbeddingExplorer(n, d, seed, size=size)


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
    return QKVExplorer(d_k, d_v, seed, n=n, d=d, size=size)


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
    return ScalingExplorer(d_k, seed=seed, n=n, d=d, size=size)
