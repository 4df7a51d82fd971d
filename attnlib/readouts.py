"""The text under each explorer's picture, as HTML: plain functions of attnlib's numbers.

No widgets here: a test or a notebook calls these directly, and gets the
same text an explorer shows. Every readout that mentions scores reads
``att.scaled``, so an unscaled pass is never described as divided by √d_k.
"""

from __future__ import annotations

import numpy as np

from .core import Attention, MultiHead
from .data import Example
from .lookup import VALUES, Sequence
from .stats import ScalingComparison, max_weight, row_entropy

__all__ = [
    "attention_readout",
    "embedding_readout",
    "heads_readout",
    "learned_readout",
    "mask_readout",
    "qkv_readout",
    "scaling_readout",
]


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
    d_k = att.Q.shape[1]
    entropy = row_entropy(att.weights)
    scaling = (
        f"scores = q·k / √d_k, √{d_k} = {np.sqrt(d_k):.2f}"
        if att.scaled
        else "scores = q·k, not divided by √d_k (unscaled)"
    )
    return (
        f"Q {_shape(att.Q)} · K {_shape(att.K)} · V {_shape(att.V)} · "
        f"scores and weights {_shape(att.weights)} · {scaling}<br>"
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
        f"each head divides by √d_k = √{d_k} = {np.sqrt(d_k):.2f}, its own width"
        if first.scaled
        else "scores not divided by √d_k (unscaled)"
    )
    entropies = [float(row_entropy(att.weights).mean()) for att in mh.heads]
    return (
        f"heads = {heads}: per head Q, K {_shape(first.Q)}, V {_shape(first.V)}, "
        f"weights {_shape(first.weights)} · {scaling}<br>"
        f"Z = the heads side by side {_shape(mh.Z)} = (n, heads·d_v = {heads}·{d_v}) · "
        f"output Z W_O {_shape(mh.output)}<br>"
        f"mean row entropy per head: <code>{_numbers(np.array(entropies))}</code> nats "
        f"(0 = all weight on one key, {np.log(n):.2f} = spread evenly over {n})"
    )


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
    return (
        f"<br>mask: {blocked} of {mask.size} scores blocked (grey): −∞ before the softmax, "
        "weight 0 after it; each row's remaining weights still sum to 1"
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
    verdict = "right" if guess == seq.answer else f"wrong: the answer is {VALUES[seq.answer]}"
    return (
        f"step {step} · <code>{' '.join(tokens)}</code> → {VALUES[seq.answer]}<br>"
        f"the query {tokens[-1]} puts {row[seq.match]:.2f} of its weight on the matching pair "
        f"{tokens[seq.match]} (j = {seq.match}); its largest weight, {row[top]:.2f}, "
        f"is on {tokens[top]} (j = {top})<br>"
        f"the model answers {VALUES[guess]} with probability {probs[guess]:.2f} ({verdict})"
    )
