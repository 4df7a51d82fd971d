"""The text under each explorer's picture, as HTML: plain functions of attnlib's numbers.

The readout under each picture, and the breakdown of a selected cell
(:func:`breakdown_html`: every number behind its score, from
:func:`attnlib.explain`).

No widgets here: a test or a notebook calls these directly, and gets the
same text an explorer shows. Every readout that mentions scores reads
``att.scaled``, so an unscaled pass is never described as divided by √d_k.
"""

from __future__ import annotations

import html
from typing import NamedTuple

import numpy as np

from ..i18n import tr
from ..maths.core import Attention, MultiHead
from ..maths.data import Example
from ..maths.lookup import VALUES, Sequence
from ..maths.stats import ScalingComparison, max_weight, row_entropy
from .explanation import explain

__all__ = [
    "Breakdown",
    "attention_readout",
    "breakdown",
    "breakdown_html",
    "embedding_readout",
    "heads_readout",
    "learned_readout",
    "mask_readout",
    "qkv_readout",
    "scaling_readout",
    "summary_html",
]


def _shape(M: np.ndarray) -> str:
    return "(" + ", ".join(str(s) for s in M.shape) + ")"


# Up to this many rows the readout lists each row's largest weight; more, it gives their range
LIST_ROWS = 12


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
    d_k = att.Q.shape[1]
    entropy = row_entropy(att.weights)
    scaling = (
        tr("scores = q·k / √d_k, √{d_k} = {root:.2f}", d_k=d_k, root=np.sqrt(d_k))
        if att.scaled
        else tr("scores = q·k, not divided by √d_k (unscaled)")
    )
    shapes = tr(
        "Q {Q} · K {K} · V {V} · scores and weights {weights} · {scaling}",
        Q=_shape(att.Q),
        K=_shape(att.K),
        V=_shape(att.V),
        weights=_shape(att.weights),
        scaling=scaling,
    )
    top = max_weight(att.weights)
    if n <= LIST_ROWS:
        largest = tr("largest weight in each row: <code>{numbers}</code>", numbers=_numbers(top))
    else:  # a list of n numbers would wrap on a laptop and push the entropy line down
        largest = tr(
            "largest weight in each row: from <code>{low:.2f}</code> to <code>{high:.2f}</code>"
            " (median {median:.2f} over {n} rows)",
            low=top.min(),
            high=top.max(),
            median=np.median(top),
            n=n,
        )
    spread = tr(
        "mean row entropy: {entropy:.2f} nats "
        "(0 = all weight on one key, {ln_n:.2f} = spread evenly over {n})",
        entropy=entropy.mean(),
        ln_n=np.log(n),
        n=n,
    )
    return f"{shapes}<br>{largest}<br>{spread}"


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
    same = (
        tr("; a repeated token gets the same row: {words}", words=", ".join(repeats))
        if repeats
        else ""
    )
    return tr(
        "X {shape}: n = {n} tokens, one row of d = {d} numbers each{same}",
        shape=_shape(example.X),
        n=n,
        d=d,
        same=same,
    )


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
    share = tr(
        "Q and K share d_k = {d_k} (each score is q_i · k_j); V has d_v = {d_v}, free to differ",
        d_k=d_k,
        d_v=d_v,
    )
    return " · ".join(lines) + "<br>" + share


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
        (tr("score variance"), c.score_variance_unscaled, c.score_variance_scaled),
        (tr("mean max weight"), c.max_weight_unscaled, c.max_weight_scaled),
        (tr("mean row entropy (nats)"), c.entropy_unscaled, c.entropy_scaled),
    )
    body = "".join(
        f"<tr><td>{name}</td><td>{a:.2f}</td><td>{b:.2f}</td></tr>" for name, a, b in rows
    )
    saturated = tr(
        "A saturated softmax has max weight near 1 and entropy near 0; "
        "an even one 1/{n} = {even:.2f} and log {n} = {ln_n:.2f}.",
        n=n,
        even=1 / n,
        ln_n=np.log(n),
    )
    return (
        f"<table><tr><th>d_k = {d_k}</th><th>{tr('unscaled')}</th>"
        f"<th>{tr('scaled by √d_k = {root:.2f}', root=np.sqrt(d_k))}</th>"
        f"</tr>{body}</table>{saturated}"
    )


def heads_readout(mh: MultiHead) -> str:
    """The text under :func:`explorer`'s picture with several heads, as HTML.

    The shapes of one head and of the concatenation, the √d_k each head
    divides by, and each head's mean row entropy (different heads, different
    spreads).

    Examples
    --------
    >>> from attnlib import multi_head_attention, toy_multi_head
    >>> ex = toy_multi_head(n=5, d_k=3, heads=2)
    >>> text = heads_readout(multi_head_attention(*ex[1:6], heads=2))
    >>> "each head divides by √d_k = √3" in text and "side by side (5, 6)" in text
    True
    """
    heads = len(mh.heads)
    first = mh.heads[0]
    n = first.weights.shape[1]
    d_k, d_v = first.Q.shape[1], first.V.shape[1]
    scaling = (
        tr(
            "each head divides by √d_k = √{d_k} = {root:.2f}, its own width",
            d_k=d_k,
            root=np.sqrt(d_k),
        )
        if first.scaled
        else tr("scores not divided by √d_k (unscaled)")
    )
    entropies = [float(row_entropy(att.weights).mean()) for att in mh.heads]
    per_head = tr(
        "heads = {heads}: per head Q, K {QK}, V {V}, weights {weights} · {scaling}",
        heads=heads,
        QK=_shape(first.Q),
        V=_shape(first.V),
        weights=_shape(first.weights),
        scaling=scaling,
    )
    joined = tr(
        "Z = the heads side by side {Z} = (n, heads·d_v = {heads}·{d_v}) · output Z W_O {output}",
        Z=_shape(mh.Z),
        heads=heads,
        d_v=d_v,
        output=_shape(mh.output),
    )
    spread = tr(
        "mean row entropy per head: <code>{numbers}</code> nats "
        "(0 = all weight on one key, {ln_n:.2f} = spread evenly over {n})",
        numbers=_numbers(np.array(entropies)),
        ln_n=np.log(n),
        n=n,
    )
    return f"{per_head}<br>{joined}<br>{spread}"


def mask_readout(mask: np.ndarray | None) -> str:
    """One line about the mask under the explorer's picture, as HTML ("" without a mask).

    Examples
    --------
    >>> from attnlib import causal_mask
    >>> mask_readout(None)
    ''
    >>> "6 of 16 scores blocked" in mask_readout(causal_mask(4))
    True
    """
    if mask is None:
        return ""
    blocked = int((~mask).sum())
    return "<br>" + tr(
        "mask: {blocked} of {size} scores blocked (grey): −∞ before the softmax, "
        "weight 0 after it; each row's remaining weights still sum to 1",
        blocked=blocked,
        size=mask.size,
    )


def learned_readout(att: Attention, seq: Sequence, probs: np.ndarray, *, step: int) -> str:
    """The text under :func:`learned_explorer`'s picture: the lookup, the query's row, the answer.

    Parameters
    ----------
    att : Attention
        The layer on `seq` (row -1 is the query token).
    seq : attnlib.lookup.Sequence
    probs : ndarray, shape (len(VALUES),)
        The model's belief about the answer (``lookup.forward(...).probs``).
    step : int
        The training step of the parameters.

    Examples
    --------
    >>> from attnlib import lookup
    >>> params, seq = lookup.init_params(), lookup.make_task(1)[0]
    >>> out = lookup.forward(params, seq)
    >>> "weight on the matching pair" in learned_readout(out.att, seq, out.probs, step=0)
    True
    """
    tokens = seq.tokens
    row = att.weights[-1]  # (n,): the query token's weights
    top = int(row.argmax())
    guess = int(np.argmax(probs))
    verdict = (
        tr("right")
        if guess == seq.answer
        else tr("wrong: the answer is {answer}", answer=VALUES[seq.answer])
    )
    lookup = f"{tr('step {step}', step=step)} · <code>{' '.join(tokens)}</code> → "
    where = tr(
        "the query {query} puts {weight:.2f} of its weight on the matching pair "
        "{pair} (j = {match}); its largest weight, {top_weight:.2f}, "
        "is on {top_token} (j = {top})",
        query=tokens[-1],
        weight=row[seq.match],
        pair=tokens[seq.match],
        match=seq.match,
        top_weight=row[top],
        top_token=tokens[top],
        top=top,
    )
    answer = tr(
        "the model answers {guess} with probability {p:.2f} ({verdict})",
        guess=VALUES[guess],
        p=probs[guess],
        verdict=verdict,
    )
    return f"{lookup}{VALUES[seq.answer]}<br>{where}<br>{answer}"


class Breakdown(NamedTuple):
    """The breakdown of one selected cell, as HTML: a one-line summary, then the full table.

    An explorer shows `summary` directly under its pictures, so that a click's
    answer is on screen without scrolling, and `details` under the readout.
    """

    summary: str
    details: str

    @property
    def html(self) -> str:
        """Both parts, the summary first: what :func:`breakdown_html` returns."""
        return self.summary + self.details


def _dominant_terms(products: np.ndarray, count: int = 2) -> list[int]:
    # The coordinates whose products are largest in size: the terms that make q·k.
    order = np.argsort(-np.abs(products), kind="stable")
    return [int(c) for c in order[:count]]


def summary_html(
    att: Attention,
    tokens,
    i: int,
    j: int,
    *,
    head: int | None = None,
    heads: int = 1,
    prefix: str = "",
) -> str:
    """One line about cell (i, j): its score, its weight and which products q_i[c]·k_j[c] dominate.

    Parameters
    ----------
    att : Attention
        The pass whose cell it is (for several heads, head `head`'s).
    tokens : sequence of str, length n
    i, j : int
    head, heads : int
        With ``heads > 1`` the line starts with "head h of heads".
    prefix : str, optional
        Which picture the cell is in, when an explorer shows two passes
        (e.g. "unscaled"): the line starts with it.

    Examples
    --------
    >>> from attnlib import self_attention
    >>> from attnlib.data import hand_example
    >>> ex = hand_example()
    >>> text = summary_html(self_attention(*ex[1:]), ex.tokens, 1, 2)
    >>> "score 1.50" in text and "c = 2 (2.00)" in text
    True
    """
    e = explain(att, i, j, tokens=tokens)
    where = tr("query {i} {query} → key {j} {key}", i=i, query=tokens[i], j=j, key=tokens[j])
    if heads > 1:
        where = tr("head {h} of {heads}", h=head, heads=heads) + " · " + where
    if prefix:
        where = f"{prefix} · {where}"
    if e.masked[j]:
        numbers = tr("masked: score −∞, weight 0")
    else:
        terms = ", ".join(f"c = {c} ({e.products[c]:.2f})" for c in _dominant_terms(e.products))
        numbers = tr(
            "score {score:.2f}, weight α = {weight:.2f}; q·k = {dot:.2f}, "
            "mostly from {terms} of its {d_k} products",
            score=e.score,
            weight=e.weights[j],
            dot=e.dot,
            terms=terms,
            d_k=e.d_k,
        )
    return f'<div class="attnlib-summary"><b>{html.escape(where)}</b>: {numbers}</div>'


def breakdown(
    att: Attention,
    tokens,
    i: int,
    j: int,
    *,
    head: int | None = None,
    heads: int = 1,
    prefix: str = "",
    max_items: int = 6,
) -> Breakdown:
    """The summary line and every number behind score (i, j) (``explain(...).html()``).

    Parameters
    ----------
    att : Attention
        The pass explained: for several heads, that of head `head` (the head
        whose panel was clicked).
    tokens : sequence of str
    i, j : int
    head : int, optional
        Which head `att` is, when ``heads > 1``.
    heads : int, default 1
    prefix : str, optional
        Starts the summary line (see :func:`summary_html`).
    max_items : int, default 6
        Longest vector shown in full (see :func:`attnlib.explain`).

    Examples
    --------
    >>> from attnlib import multi_head_attention, toy_multi_head
    >>> ex = toy_multi_head(n=4, heads=2)
    >>> mh = multi_head_attention(*ex[1:6], heads=2)
    >>> b = breakdown(mh.heads[1], ex.tokens, 0, 1, head=1, heads=2)
    >>> "head 1 of 2" in b.summary and b.html.startswith(b.summary)
    True
    """
    if heads > 1 and (head is None or not 0 <= head < heads):
        raise ValueError(
            tr(
                "head must be from 0 to {last} with heads = {heads}, got {head!r}",
                last=heads - 1,
                heads=heads,
                head=head,
            )
        )
    table = explain(att, i, j, tokens=tokens, max_items=max_items).html()
    details = '<div style="margin-top: 0.6em">' + table + "</div>"
    summary = summary_html(att, tokens, i, j, head=head, heads=heads, prefix=prefix)
    return Breakdown(summary, details)


def breakdown_html(
    att: Attention, tokens, i: int, j: int, *, head: int | None = None, heads: int = 1
) -> str:
    """Every number behind score (i, j), shown under an explorer: a summary line, then
    ``explain(...).html()`` (see :func:`breakdown`).

    Examples
    --------
    >>> from attnlib import self_attention, toy_example
    >>> ex = toy_example(n=3)
    >>> text = breakdown_html(self_attention(*ex[1:]), ex.tokens, 1, 2)
    >>> "query i = 1 &#x27;cat&#x27;, key j = 2 &#x27;sat&#x27;" in text
    True
    """
    return breakdown(att, tokens, i, j, head=head, heads=heads).html
