"""The chapter's figures: which matrices each picture shows, titled and labelled.

Each ``*_panels`` function turns attnlib's numbers into :class:`~attnlib.layout.Panel`s
(the same ones the explorers draw); each ``plot_*`` function draws them as a
:class:`StaticFigure`, a plain matplotlib Figure on an Agg canvas, never
registered with pyplot, so a notebook shows each one once, as PNG. Titles
read ``att.scaled``: an unscaled pass is never titled "/ √d_k".

The drawing itself is elsewhere: :mod:`attnlib.heatmap` (one heatmap) and
:mod:`attnlib.layout` (panels side by side). Their public names are
re-exported here, where the notebooks have always found them.
"""

from __future__ import annotations

import base64
import html
import io
from collections.abc import Sequence
from dataclasses import replace

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from ..i18n import tr
from ..maths.core import Attention, MultiHead
from ..maths.validation import as_matrix
from .fonts import figure_fonts
from .heatmap import Heatmap, heatmap, symmetric_limit
from .layout import MAX_ONE_ROW, READABLE_VALUE_CELL, SIZES, draw_panels, grid_shape
from .panel import KINDS, Panel

__all__ = [
    "KINDS",
    "SIZES",
    "Heatmap",
    "Panel",
    "StaticFigure",
    "attention_panels",
    "check_tokens",
    "draw_panels",
    "embedding_panels",
    "figure_html",
    "heads_panels",
    "heatmap",
    "plot_attention",
    "plot_embedding",
    "plot_heads",
    "plot_panels",
    "plot_qkv",
    "plot_scaling",
    "qkv_panels",
    "scaling_panels",
    "scores_title",
    "symmetric_limit",
    "with_fixed_limit",
]


class StaticFigure(Figure):
    """A Figure that a notebook shows as PNG without pyplot (``_repr_png_``).

    Its text form names the panels, not the size in pixels, which depends on
    the fonts installed: nbval compares it on every run, on every machine.
    ``heatmaps`` holds the :class:`~attnlib.heatmap.Heatmap` of each panel
    (empty for charts that are not heatmaps).
    """

    heatmaps: Sequence[Heatmap] = ()

    def __repr__(self) -> str:
        titles = "; ".join(ax.get_title() for ax in self.axes if ax.get_title())
        return f"<attnlib figure: {titles}>"

    def _repr_png_(self) -> bytes:
        buffer = io.BytesIO()
        self.savefig(buffer, format="png")
        return buffer.getvalue()

    def alt_text(self) -> str:
        """What the figure shows, in words: each panel's title, and its axes' names.

        Examples
        --------
        >>> from attnlib import self_attention, toy_example
        >>> ex = toy_example(n=3)
        >>> print(plot_attention(self_attention(*ex[1:]), ex.tokens).alt_text())
        Figure: scores q·k / √d_k  (3 × 3), query i against key j; weights α = softmax(scores)
        (3 × 3), query i against key j.
        """
        parts = []
        for ax in self.axes:
            title, x, y = ax.get_title(), ax.get_xlabel(), ax.get_ylabel()
            if not title:
                continue
            axes = tr("{y} against {x}", y=y, x=x) if x and y else x or y
            parts.append(tr("{title}, {axes}", title=title, axes=axes) if axes else title)
        return tr("Figure: {parts}.", parts=tr("; ").join(parts))

    def _repr_mimebundle_(self, include=None, exclude=None):
        # An <img> with a text alternative for JupyterLab and Voila (which show an
        # image/png output without one), and the PNG itself for nbconvert's PDF
        png = self._repr_png_()
        return {
            "text/html": figure_html(png, self.alt_text()),
            "image/png": png,
            "text/plain": repr(self),
        }


def figure_html(png: bytes, alt: str) -> str:
    """An ``<img>`` of `png` with the text alternative `alt`, as a notebook output shows it.

    Examples
    --------
    >>> figure_html(b"PNG", 'a "heatmap"')
    '<img alt="a &quot;heatmap&quot;" src="data:image/png;base64,UE5H"/>'
    """
    data = base64.b64encode(png).decode()
    return f'<img alt="{html.escape(alt)}" src="data:image/png;base64,{data}"/>'


def plot_panels(panels: Sequence[Panel], *, size: str = "normal") -> StaticFigure:
    """A new static figure of `panels` side by side (see :func:`draw_panels`).

    Returns
    -------
    StaticFigure
        A matplotlib Figure on an Agg canvas, not registered with pyplot; a
        notebook displays it inline as PNG; ``fig.savefig(path)`` writes it.

    Examples
    --------
    >>> fig = plot_panels([Panel(matrix=[[0.2, 0.8], [0.5, 0.5]], title="weights (2 × 2)",
    ...                          kind="weights")])
    >>> fig.axes[0].get_title()
    'weights (2 × 2)'
    """
    with figure_fonts():
        fig = StaticFigure()
        FigureCanvasAgg(fig)
        fig.heatmaps = draw_panels(fig, panels, size=size)
    return fig


def check_tokens(tokens, n: int, *, keys: bool = False) -> tuple[str, ...]:
    """`tokens` as a tuple of n strings, else a ValueError naming both lengths.

    `keys`: they label the columns of cross-attention's scores (``key_tokens``),
    not the rows.
    """
    tokens = tuple(str(t) for t in tokens)
    if len(tokens) == n:
        return tokens
    if keys:
        said = tr(
            "key_tokens has {count} entries but the scores have {n} columns: one token per key",
            count=len(tokens),
            n=n,
        )
    else:
        said = tr(
            "tokens has {count} entries but the matrices have n = {n} rows: one token per row",
            count=len(tokens),
            n=n,
        )
    raise ValueError(said)


def _query_key_labels(query_tokens, key_tokens) -> dict:
    # Every score or weight panel: queries down the side, keys along the bottom.
    return {
        "row_labels": query_tokens,
        "col_labels": key_tokens,
        "xlabel": tr("key j"),
        "ylabel": tr("query i"),
    }


def scores_title(att: Attention) -> str:
    """What the scores of `att` are: "scores q·k / √d_k", or "scores q·k" when unscaled.

    Examples
    --------
    >>> from attnlib import self_attention, toy_example
    >>> ex = toy_example(n=3)
    >>> scores_title(self_attention(*ex[1:])), scores_title(self_attention(*ex[1:], scaled=False))
    ('scores q·k / √d_k', 'scores q·k (unscaled)')
    """
    return tr("scores q·k / √d_k") if att.scaled else tr("scores q·k (unscaled)")


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
        Outline each token's score for itself; only for self-attention.

    Returns
    -------
    list of Panel
        With ``att.mask`` (a masked pass), the blocked cells are grey and
        hatched in both panels, and the titles say what they hold: −∞ among
        the scores, 0 among the weights.

    Examples
    --------
    >>> from attnlib import causal_mask, self_attention, toy_example
    >>> ex = toy_example(n=3)
    >>> [p.title for p in attention_panels(self_attention(*ex[1:]), ex.tokens)]
    ['scores q·k / √d_k  (3 × 3)', 'weights α = softmax(scores)  (3 × 3)']
    >>> masked = self_attention(*ex[1:], mask=causal_mask(3))
    >>> [p.title for p in attention_panels(masked, ex.tokens)]
    ['scores q·k / √d_k, masked −∞  (3 × 3)', 'weights α = softmax(scores), masked 0  (3 × 3)']
    """
    n_q, n_kv = att.scores.shape
    tokens = check_tokens(tokens, n_q)
    keys = tokens if key_tokens is None else check_tokens(key_tokens, n_kv, keys=True)
    if key_tokens is None and n_kv != n_q:
        raise ValueError(
            tr(
                "scores are ({n_q} × {n_kv}): cross-attention needs key_tokens "
                "(length {n_kv}) besides the {n_q} query tokens",
                n_q=n_q,
                n_kv=n_kv,
            )
        )
    shape = f"({n_q} × {n_kv})"
    labels = _query_key_labels(tokens, keys)
    diagonal = diagonal and key_tokens is None
    masked = att.mask is not None
    return [
        Panel(
            matrix=att.scores,
            title=f"{scores_title(att)}{tr(', masked −∞') if masked else ''}  {shape}",
            kind="diverging",
            diagonal=diagonal,
            selectable=True,
            mask=att.mask,
            **labels,
        ),
        Panel(
            matrix=att.weights,
            title=tr(
                "weights α = softmax(scores){masked}  {shape}",
                masked=tr(", masked 0") if masked else "",
                shape=shape,
            ),
            kind="weights",
            diagonal=diagonal,
            selectable=True,
            mask=att.mask,
            **labels,
        ),
    ]


def with_fixed_limit(panel: Panel, limit: float) -> Panel:
    """`panel` (diverging) with colour limits fixed to ±limit, and its title saying so.

    For pictures compared across time (a training run's steps): a colour then
    means the same score in every one of them.

    Examples
    --------
    >>> with_fixed_limit(Panel(matrix=[[0.1]], title="scores"), 15.0).title
    'scores · colours fixed ±15'
    """
    fixed = tr("colours fixed ±{limit:g}", limit=limit)
    return replace(panel, limit=limit, title=f"{panel.title} · {fixed}")


def heads_panels(mh: MultiHead, tokens: Sequence[str], *, diagonal: bool = True) -> list[Panel]:
    """One panel per head: its weights, queries down, keys along (small multiples).

    Every head has its own Q, K and so its own (n × n) weights; side by side
    they show that the heads attend differently. Cells blocked by a mask are
    grey and hatched. Four or more panels are laid out as a grid of smaller
    boxes (see :func:`attnlib.layout.grid_shape`) that fits a laptop's
    notebook column: the axis names on the outer panels only, one colorbar a
    row, and no cell numbers in cells too small for readable ones
    (``READABLE_VALUE_CELL``).

    Parameters
    ----------
    mh : MultiHead
        From :func:`attnlib.multi_head_attention`.
    tokens : sequence of str, length n
    diagonal : bool, default True
        Outline each token's weight for itself.

    Returns
    -------
    list of Panel
        ``len(mh.heads)`` panels of kind "weights".

    Examples
    --------
    >>> from attnlib import multi_head_attention, toy_multi_head
    >>> ex = toy_multi_head(n=4, heads=2)
    >>> mh = multi_head_attention(ex.X, ex.W_Q, ex.W_K, ex.W_V, ex.W_O, heads=ex.heads)
    >>> [p.title for p in heads_panels(mh, ex.tokens)]
    ['head 0: α  (4 × 4)', 'head 1: α  (4 × 4)']
    """
    if not isinstance(mh, MultiHead):
        raise TypeError(
            tr(
                "mh must be a MultiHead (from multi_head_attention), got {kind}",
                kind=type(mh).__name__,
            )
        )
    n = mh.Z.shape[0]
    tokens = check_tokens(tokens, n)
    labels = _query_key_labels(tokens, tokens)
    count = len(mh.heads)
    cols = grid_shape(count)[1]
    grid = count > MAX_ONE_ROW  # small multiples: say once what the grid shares

    def shared(h: int) -> dict:
        if not grid:
            return {}
        last_column, bottom_row = h % cols == cols - 1 or h == count - 1, h + cols >= count
        return {
            "ylabel": labels["ylabel"] if h % cols == 0 else "",
            "xlabel": labels["xlabel"] if bottom_row else "",
            "colorbar": last_column,  # every head's weights run from 0 to 1: one bar a row
            "min_value_cell": READABLE_VALUE_CELL,
        }

    return [
        Panel(
            matrix=att.weights,
            title=tr(
                "head {h}: α{masked}  ({n} × {n})",
                h=h,
                masked=tr(", masked 0") if att.mask is not None else "",
                n=n,
            ),
            kind="weights",
            diagonal=diagonal,
            selectable=True,
            mask=att.mask,
            **{**labels, **shared(h)},
        )
        for h, att in enumerate(mh.heads)
    ]


def plot_heads(mh: MultiHead, tokens: Sequence[str], *, size: str = "normal") -> StaticFigure:
    """Each head's weights as small multiples, a static figure (see :func:`heads_panels`).

    Examples
    --------
    >>> from attnlib import multi_head_attention, toy_multi_head
    >>> ex = toy_multi_head(n=6, heads=4)
    >>> mh = multi_head_attention(ex.X, ex.W_Q, ex.W_K, ex.W_V, ex.W_O, heads=ex.heads)
    >>> fig = plot_heads(mh, ex.tokens)
    >>> len(fig.heatmaps), [h.ax.get_title() for h in fig.heatmaps][3]
    (4, 'head 3: α  (6 × 6)')
    """
    return plot_panels(heads_panels(mh, tokens), size=size)


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
    """One panel: the embedding X, a row per token, a column per coordinate.

    Examples
    --------
    >>> from attnlib import toy_example
    >>> ex = toy_example(n=3, d=5)
    >>> embedding_panels(ex.X, ex.tokens)[0].title
    'X  (n × d = 3 × 5)'
    """
    X = as_matrix("X", X)
    n, d = X.shape
    return [
        Panel(
            matrix=X,
            title=f"X  (n × d = {n} × {d})",
            row_labels=check_tokens(tokens, n),
            xlabel=tr("coordinate"),
            ylabel=tr("token"),
        )
    ]


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
    """Three panels: Q, K and V, one row per token.

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
    >>> len({ax.images[0].get_clim() for ax in fig.axes if ax.images})  # one scale, one bar
    1
    """
    panels = []
    for name, M, width in (("Q", att.Q, "d_k"), ("K", att.K, "d_k"), ("V", att.V, "d_v")):
        n, cols = M.shape
        panels.append(
            Panel(
                matrix=M,
                title=f"{name} = X W_{name}  ({n} × {cols})",
                row_labels=check_tokens(tokens, n),
                xlabel=tr("coordinate ({width} = {cols})", width=width, cols=cols),
                # said once: the axis name on the left, the one scale they share on the
                # right; the room saved goes to the cells, big enough for their numbers
                # in a laptop's notebook column
                ylabel=tr("token") if name == "Q" else "",
                colorbar=name == "V",
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
    >>> [ax.images[0].get_array().shape for ax in fig.axes if ax.images]
    [(6, 4), (6, 4), (6, 3)]
    """
    return plot_panels(qkv_panels(att, tokens), size=size)


def scaling_panels(unscaled: Attention, scaled: Attention, tokens: Sequence[str]) -> list[Panel]:
    """Two panels: the weights without and with the √d_k scaling.

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
    tokens = check_tokens(tokens, n)
    for name, att, wanted in (("unscaled", unscaled, False), ("scaled", scaled, True)):
        if att.scaled is not wanted:
            raise ValueError(
                tr(
                    "{name} must come from a pass with scaled={wanted}, got one with scaled={got}",
                    name=name,
                    wanted=wanted,
                    got=att.scaled,
                )
            )
    shape = f"({n} × {unscaled.weights.shape[1]})"
    labels = _query_key_labels(tokens, tokens)
    return [
        Panel(  # one bar for both (weights run from 0 to 1), one name of the query axis
            matrix=unscaled.weights,
            title=tr("weights, unscaled: softmax(q·k)  {shape}", shape=shape),
            kind="weights",
            colorbar=False,
            **labels,
        ),
        Panel(
            matrix=scaled.weights,
            title=tr("weights, scaled: softmax(q·k / √d_k)  {shape}", shape=shape),
            kind="weights",
            **{**labels, "ylabel": ""},
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
    >>> len(fig.axes)                 # two heatmaps and the colorbar they share
    3
    """
    return plot_panels(scaling_panels(unscaled, scaled, tokens), size=size)
