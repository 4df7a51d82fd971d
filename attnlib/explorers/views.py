"""What each explorer shows for given slider values: pure functions, no widgets.

An explorer is its controls plus one of these functions: it reads the
controls' values, calls the function, and draws the :class:`View` it returns.
A test or a notebook calls the same function and gets the same panels, text
and data. A new explorer needs a new function here, returning a View.

The selected cell belongs to the view too: a view function takes
``selection=(i, j)`` (or :meth:`View.select` picks one later), clamps it
once into the selectable panel (n may have shrunk since it was chosen) and
returns the breakdown of that cell with the panels. Selecting another cell
changes only that: the panels and the maths behind them stay as they are.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any, NamedTuple

import numpy as np

from ..i18n import tr
from ..maths.core import causal_mask, multi_head_attention, self_attention
from ..maths.data import toy_example, toy_multi_head
from ..maths.lookup import History, Task, forward, learned_view
from ..maths.stats import scaling_comparison
from ..pictures.heatmap import check_cell, symmetric_limit
from ..pictures.panel import Panel
from ..pictures.plotting import (
    attention_panels,
    embedding_panels,
    heads_panels,
    qkv_panels,
    scaling_panels,
    with_fixed_limit,
)
from .readouts import (
    Breakdown,
    attention_readout,
    breakdown,
    embedding_readout,
    heads_readout,
    learned_readout,
    mask_readout,
    qkv_readout,
    scaling_readout,
)

__all__ = [
    "MASKS",
    "View",
    "attention_view",
    "embedding_view",
    "learned_attention_view",
    "qkv_view",
    "scaling_view",
    "score_limit",
]

#: The explorer's mask choices: name -> the boolean (n, n) mask it makes (None: no mask).
MASKS = {"none": lambda n: None, "causal": causal_mask}


class View(NamedTuple):
    """One picture of an explorer: its panels, the HTML under them, and the data behind both.

    ``data`` maps names to what was computed (``example``, ``attention``, ...);
    an explorer reads them as ``e.attention`` (see :class:`.page.PageExplorer`).
    ``explain(i, j, panel)``, when given, is the :class:`.readouts.Breakdown`
    of cell (i, j) as selected in panel `panel` (a click in head h's panel
    explains head h); ``selection`` is the cell selected, ``panel`` the panel
    it was selected in, and ``summary`` and ``details`` its breakdown ("" without
    one). Make a selection with :meth:`select`.
    """

    panels: list[Panel]
    readout: str
    data: dict[str, Any]
    explain: Callable[[int, int, int], Breakdown] | None = None
    selection: tuple[int, int] | None = None
    panel: int = 0
    summary: str = ""
    details: str = ""

    @property
    def breakdown(self) -> str:
        """The selected cell's breakdown as HTML, its summary line first ("" without one)."""
        return self.summary + self.details

    def select(self, cell: tuple[int, int] | None, panel: int | None = None) -> View:
        """This view with `cell` (i, j) selected in `panel`, clamped into it; or none.

        The one place a selection is clamped: a cell chosen at a larger n
        moves to the last row or column still there, and a panel that is gone
        (fewer heads) or not selectable gives way to the first selectable one.
        `panel` None keeps this view's. Only the breakdown is computed; the
        panels and data are this view's own.

        Examples
        --------
        >>> v = attention_view(n=4, d_k=2, seed=0, d=8).select((6, 1))
        >>> v.selection, "query i = 3" in v.breakdown
        ((3, 1), True)
        >>> v = attention_view(n=4, d_k=2, seed=0, d=8, heads=3).select((0, 1), panel=2)
        >>> v.panel, "head 2 of 3" in v.summary
        (2, True)
        """
        panel = self.panel if panel is None else panel
        if cell is None:
            return self._replace(selection=None, panel=panel, summary="", details="")
        selectable = [k for k, p in enumerate(self.panels) if p.selectable]
        if not selectable:
            raise ValueError(tr("this view has no selectable panel in which to select a cell"))
        if isinstance(panel, bool) or not isinstance(panel, int):
            raise TypeError(tr("panel must be an integer, got {value!r}", value=panel))
        if panel not in selectable:
            panel = selectable[0]
        (rows, cols), (i, j) = self.panels[panel].shape, cell
        cell = check_cell((min(i, rows - 1), min(j, cols - 1)), self.panels[panel].shape)
        summary, details = self.explain(*cell, panel) if self.explain is not None else ("", "")
        return self._replace(selection=cell, panel=panel, summary=summary, details=details)


def attention_view(
    *,
    n: int,
    d_k: int,
    seed: int,
    d: int,
    heads: int = 1,
    mask: str = "none",
    selection: tuple[int, int] | None = None,
    panel: int = 0,
) -> View:
    """Scores and weights of the toy sentence, or each head's weights (see :func:`.explorer`).

    One head (``heads=1``): the scores and weights of
    ``self_attention(*toy_example(n, d=d, d_k=d_k, seed=seed)[1:], mask=...)``.
    More heads: the weights of every head of ``multi_head_attention`` on
    ``toy_multi_head(n, d=d, d_k=d_k, heads=heads, seed=seed)``, each head of
    width d_k; head 0 is the one-head example.

    Parameters
    ----------
    n, d_k, seed, d : int
        As in :func:`attnlib.toy_example`.
    heads : int, default 1
    mask : {"none", "causal"}, default "none"
        A key of ``MASKS``.
    selection : tuple of int, optional
        The cell (i, j) selected, clamped to n (see :meth:`View.select`).
    panel : int, default 0
        The panel the cell was selected in: with several heads, the head
        whose numbers its breakdown explains.

    Returns
    -------
    View
        ``data``: ``example`` and ``attention`` (the one-head example and its
        pass: head 0), ``multi_head`` (the MultiHead with `heads` heads).

    Examples
    --------
    >>> v = attention_view(n=4, d_k=2, seed=0, d=8)
    >>> [p.title for p in v.panels][0], v.data["attention"].weights.shape
    ('scores q·k / √d_k  (4 × 4)', (4, 4))
    >>> v = attention_view(n=4, d_k=2, seed=0, d=8, heads=3, mask="causal")
    >>> len(v.panels), v.data["multi_head"].heads[2].weights[0].tolist()
    (3, [1.0, 0.0, 0.0, 0.0])
    """
    if not isinstance(mask, str) or mask not in MASKS:
        raise ValueError(
            tr(
                "{name} must be one of {allowed}, got {value!r}",
                name="mask",
                allowed=list(MASKS),
                value=mask,
            )
        )
    blocked = MASKS[mask](n)  # (n, n) bool, True = may attend; or None
    example = toy_example(n, d=d, d_k=d_k, seed=seed)
    attention = self_attention(*example[1:], mask=blocked)
    many = toy_multi_head(n, d=d, d_k=d_k, heads=heads, seed=seed)
    multi_head = multi_head_attention(*many[1:6], heads=many.heads, mask=blocked)
    data = {"example": example, "attention": attention, "multi_head": multi_head}
    if heads == 1:  # the chapter's picture, exactly as without the heads slider
        panels, readout = attention_panels(attention, example.tokens), attention_readout(attention)
    else:
        panels, readout = heads_panels(multi_head, example.tokens), heads_readout(multi_head)

    def explain(i: int, j: int, panel: int) -> Breakdown:
        if heads == 1:  # scores and weights of one pass: either panel explains it
            return breakdown(attention, example.tokens, i, j)
        return breakdown(multi_head.heads[panel], example.tokens, i, j, head=panel, heads=heads)

    view = View(panels, readout + mask_readout(blocked), data, explain)
    return view.select(selection, panel)


def embedding_view(*, n: int, d: int, seed: int) -> View:
    """The embedding X of the toy sentence (see :func:`attnlib.embedding_explorer`).

    Examples
    --------
    >>> embedding_view(n=5, d=3, seed=0).data["example"].X.shape
    (5, 3)
    """
    example = toy_example(n, d=d, seed=seed)
    return View(
        embedding_panels(example.X, example.tokens),
        embedding_readout(example),
        {"example": example},
    )


def qkv_view(*, d_k: int, d_v: int, seed: int, n: int, d: int) -> View:
    """Q, K and V of the toy sentence (see :func:`attnlib.qkv_explorer`).

    Examples
    --------
    >>> qkv_view(d_k=3, d_v=2, seed=0, n=6, d=8).data["attention"].V.shape
    (6, 2)
    """
    example = toy_example(n, d=d, d_k=d_k, d_v=d_v, seed=seed)
    attention = self_attention(*example[1:])
    return View(
        qkv_panels(attention, example.tokens),
        qkv_readout(example, attention),
        {"example": example, "attention": attention},
    )


def scaling_view(
    *,
    d_k: int,
    seed: int,
    n: int,
    d: int,
    selection: tuple[int, int] | None = None,
    panel: int = 0,
) -> View:
    """Weights without and with the √d_k scaling (see :func:`attnlib.scaling_explorer`).

    A cell selected in the left panel is explained in the unscaled pass, in
    the right one in the scaled pass (`selection`, `panel` as in
    :func:`attention_view`).

    Examples
    --------
    >>> c = scaling_view(d_k=64, seed=0, n=8, d=8).data["comparison"]
    >>> bool(c.max_weight_unscaled > c.max_weight_scaled)
    True
    """
    example = toy_example(n, d=d, d_k=d_k, seed=seed)
    comparison = scaling_comparison(*example[1:])
    passes = (comparison.unscaled, comparison.scaled)  # panel 0, panel 1
    names = (tr("unscaled"), tr("scaled by √d_k"))

    def explain(i: int, j: int, panel: int) -> Breakdown:  # the pass drawn in that panel
        return breakdown(passes[panel], example.tokens, i, j, prefix=names[panel])

    panels = scaling_panels(*passes, example.tokens)
    return View(
        [replace(p, selectable=True) for p in panels],
        scaling_readout(comparison),
        {"example": example, "comparison": comparison},
        explain,
    ).select(selection, panel)


def score_limit(history: History, task: Task, examples: int | None = None) -> float:
    """The colour limit of a learned explorer: a nice number just above the run's largest |score|.

    Over every checkpoint of `history` and the first `examples` sequences of
    `task` (all if None), so that one colour means the same score at every
    step (at step 0 the scores are near 0 and look pale, as they should).

    Examples
    --------
    >>> from attnlib import lookup
    >>> history = lookup.train(lookup.init_params(), lookup.make_task(32), steps=2)
    >>> score_limit(history, lookup.make_task(5, seed=1)) > 0
    True
    """
    count = len(task) if examples is None else min(examples, len(task))
    largest = max(
        float(np.abs(learned_view(history, task, step, k)[0].scores).max())
        for step in history.checkpoints
        for k in range(count)
    )
    return symmetric_limit([[largest]]) if largest > 0 else 1.0


def learned_attention_view(
    history: History,
    task: Task,
    *,
    step: int,
    example: int,
    selection: tuple[int, int] | None = None,
    limit: float | None = None,
) -> View:
    """The trained lookup layer at checkpoint `step` on sequence `example` of `task`.

    The panels are those of :func:`attnlib.lookup.learned_view`'s attention;
    the data are ``attention``, ``tokens``, ``sequence`` (the lookup) and
    ``probs`` (the model's belief about the answer); `selection` as in
    :func:`attention_view`. The breakdown shows every product q_i[c]·k_j[c]
    (up to d_k = 16), so that they add up to the dot product on screen.
    See :func:`attnlib.learned_explorer`.

    Parameters
    ----------
    limit : float, optional
        Fixed colour limits ±limit for the scores (see :func:`score_limit`),
        stated in the panel's title; by default they follow the data.

    Examples
    --------
    >>> from attnlib import lookup
    >>> history = lookup.train(lookup.init_params(), lookup.make_task(32), steps=2)
    >>> v = learned_attention_view(history, lookup.make_task(5, seed=1), step=2, example=4)
    >>> v.data["attention"].weights.shape, v.data["tokens"][-1]
    ((6, 6), '?e')
    """
    att, tokens = learned_view(history, task, step, example)
    seq = task[example]
    probs = forward(history.checkpoints[step], seq, scaled=history.scaled).probs  # (n_values,)
    panels = attention_panels(att, tokens, diagonal=False)
    if limit is not None:
        panels[0] = with_fixed_limit(panels[0], limit)  # the same colours at every step
    every_product = max(6, min(att.Q.shape[1], 16))  # (d_k,) products, all shown up to 16
    return View(
        panels,
        learned_readout(att, seq, probs, step=step),
        {"attention": att, "tokens": tokens, "sequence": seq, "probs": probs},
        lambda i, j, panel: breakdown(att, tokens, i, j, max_items=every_product),
    ).select(selection)
