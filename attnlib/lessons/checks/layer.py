"""The check of notebook 05's capstone: the learner's whole self-attention layer.

:func:`check_self_attention` runs ``my_self_attention(X, W_Q, W_K, W_V)`` and
compares its Z with :func:`attnlib.self_attention`. A wrong Z is compared with
the Z of each usual slip, computed here from the same inputs: the softmax taken
down the columns, the scores left unscaled or divided by d_k, the product
transposed (K Qᵀ), one weight matrix used for the keys too, X mixed instead of
V, the weights returned instead of Z, and an unshifted softmax that overflows on
large scores. Each slip is named with a hint that says what to look at, not what
to write. How a check runs and reports is :mod:`attnlib.checks.runner`.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ...i18n import tr
from ...maths.core import self_attention, softmax
from .runner import Failure, call, check, close, compare, expect_array


def _inputs(scale: float) -> tuple[np.ndarray, ...]:
    # n = 4 tokens, d = 5, d_k = 9, d_v = 3: no two sizes alike, so that a transposed or
    # mixed-up product shows in its shape or its numbers; √9 = 3 tells d_k from √d_k apart
    rng = np.random.default_rng([2024, 51])
    X = scale * rng.standard_normal((4, 5))  # (n, d)
    W_Q, W_K = rng.standard_normal((5, 9)), rng.standard_normal((5, 9))  # (d, d_k) each
    W_V = rng.standard_normal((5, 3))  # (d, d_v)
    return X, W_Q, W_K, W_V


def _slips(X, W_Q, W_K, W_V) -> list[tuple[np.ndarray, str, str]]:
    """(the Z a slip gives, what the slip is, a hint that names where to look), for each slip."""
    Q, K, V = X @ W_Q, X @ W_K, X @ W_V  # (n, d_k), (n, d_k), (n, d_v)
    d_k = Q.shape[1]
    raw = Q @ K.T  # (n, d_k) @ (d_k, n) -> (n, n)
    axis_hint = tr(
        "each query shares out one unit of attention over the keys: which way must the "
        "rows of your weights sum to 1?"
    )
    scale_hint = tr("the chapter divides q_i · k_j by √d_k, the square root of their length")
    return [
        (
            softmax(raw / np.sqrt(d_k), axis=0) @ V,
            tr("your softmax runs down the columns (axis=0): each column of weights sums to 1"),
            axis_hint,
        ),
        (
            softmax(raw.T / np.sqrt(d_k)) @ V,
            tr(
                "your scores are transposed (K Qᵀ): row i holds how every query rates key i, "
                "not the scores of query i"
            ),
            tr("row i of the scores must pair query i with every key: which factor comes first?"),
        ),
        (
            softmax(raw) @ V,
            tr("you did not scale the scores: these weights come from the raw q_i · k_j"),
            scale_hint,
        ),
        (
            softmax(raw / d_k) @ V,
            tr(
                "you divided the scores by d_k = {d_k}, not by √d_k = {root:g}",
                d_k=d_k,
                root=np.sqrt(d_k),
            ),
            scale_hint,
        ),
        (
            softmax(Q @ Q.T / np.sqrt(d_k)) @ V,
            tr("your keys are X @ W_Q: the queries were used as keys"),
            tr("each of Q, K, V has its own weight matrix"),
        ),
        (
            softmax(raw / np.sqrt(d_k)) @ X,
            tr("you mixed the rows of X, not the values"),
            tr("the weighted sum mixes the value vectors: what are they made from?"),
        ),
    ]


@check
def check_self_attention(func: Callable) -> str:
    """Check ``func(X, W_Q, W_K, W_V) -> Z``: a whole self-attention layer (05, capstone).

    ``Z = softmax(Q Kᵀ / √d_k) V`` with ``Q, K, V = X W_Q, X W_K, X W_V``
    and the softmax along each row. Tested on 4 tokens with d = 5, d_k = 9,
    d_v = 3, then on the same inputs times 30, whose scores reach the
    thousands (a softmax that does not subtract each row's maximum overflows).

    Parameters
    ----------
    func : callable
        ``func(X, W_Q, W_K, W_V)`` with X of shape (n, d), W_Q and W_K of
        shape (d, d_k), W_V of shape (d, d_v); returns Z of shape (n, d_v).

    Returns
    -------
    CheckResult
        Passed, or what went wrong and a hint.

    Examples
    --------
    >>> from attnlib import self_attention
    >>> check_self_attention(lambda X, W_Q, W_K, W_V: self_attention(X, W_Q, W_K, W_V).Z)
    ✓ check_self_attention: ...
    """
    what = tr("4 tokens with d = 5, d_k = 9, d_v = 3")
    hint = tr(
        "write each line's shapes beside it, as the notebooks do: (n, d) @ (d, d_k) -> "
        "(n, d_k); the scores and the weights are (n, n), Z is (n, d_v)"
    )
    X, W_Q, W_K, W_V = _inputs(1.0)
    expected = self_attention(X, W_Q, W_K, W_V).Z  # (n, d_v)
    got = expect_array(call(func, X.copy(), W_Q.copy(), W_K.copy(), W_V.copy(), hint=hint), what)
    n = len(X)
    if got.shape == (n, n):
        raise Failure(
            tr(
                "for {what} you returned shape {got}, one number per (query, key) pair: "
                "the weights, not Z",
                what=what,
                got=got.shape,
            ),
            tr("Z has one row per token and d_v columns: the weights still have to mix something"),
        )
    if close(got, expected.T):
        raise Failure(
            tr(
                "for {what} your Z is transposed: shape {got}, expected {want} (one row per token)",
                what=what,
                got=got.shape,
                want=expected.shape,
            ),
            tr("row i of Z mixes the values for query i: which factor of the product comes first?"),
        )
    for slip_Z, said, slip_hint in _slips(X, W_Q, W_K, W_V):
        if close(got, slip_Z) and not close(got, expected):
            raise Failure(tr("for {what}, {said}", what=what, said=said), slip_hint)
    compare(got, expected, what, hint, atol=1e-8)

    big = tr("the same inputs times 30 (scores in the thousands)")
    X, W_Q, W_K, W_V = _inputs(30.0)
    expected = self_attention(X, W_Q, W_K, W_V).Z
    got = expect_array(call(func, X.copy(), W_Q.copy(), W_K.copy(), W_V.copy(), hint=hint), big)
    if got.shape == expected.shape and not np.isfinite(got).all():
        raise Failure(
            tr("for {what} your result contains nan or inf: the softmax overflowed", what=big),
            tr("np.exp(1000) is inf: what can each row of scores lose before np.exp, unchanged?"),
        )
    compare(got, expected, big, hint, atol=1e-8)
    return tr(
        "your layer matches attnlib.self_attention, on small scores and on scores in the thousands"
    )
