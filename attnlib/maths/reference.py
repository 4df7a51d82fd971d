"""The chapter's formulas one element at a time, as plain Python loops.

Read these beside sections 2.2.2-2.2.4: each function is one formula, with i
running over query tokens, j over key tokens and c over vector coordinates.
They are slow on purpose and share no code with attnlib.core, which makes
them an independent check of the matrix form (the tests and the notebooks
compare the two).
"""

from __future__ import annotations

import math

import numpy as np

from .core import Attention, MultiHead


def project(X, W) -> np.ndarray:
    """Row i of the result is x_i W: ``out[i][c] = sum_a X[i][a] * W[a][c]``.

    Parameters
    ----------
    X : array_like, shape (n, d)
    W : array_like, shape (d, m)

    Returns
    -------
    ndarray, shape (n, m)
    """
    n, d, m = len(X), len(W), len(W[0])
    out = np.zeros((n, m))
    for i in range(n):
        for c in range(m):
            out[i, c] = math.fsum(float(X[i][a]) * float(W[a][c]) for a in range(d))
    return out


def dot(u, v) -> float:
    """``u . v = sum_c u[c] * v[c]``."""
    return math.fsum(float(a) * float(b) for a, b in zip(u, v, strict=True))


def score_matrix(Q, K, *, scaled: bool = True) -> np.ndarray:
    """``score[i][j] = q_i . k_j / sqrt(d_k)`` for every i and every j, itself included."""
    d_k = len(Q[0])
    out = np.zeros((len(Q), len(K)))
    for i in range(len(Q)):
        for j in range(len(K)):
            out[i, j] = dot(Q[i], K[j]) / (math.sqrt(d_k) if scaled else 1.0)
    return out


def masked_scores(scores, mask) -> np.ndarray:
    """``score[i][j]`` where ``mask[i][j]`` is True (may attend), else -inf."""
    out = np.zeros((len(scores), len(scores[0])))
    for i in range(len(scores)):
        for j in range(len(scores[0])):
            out[i, j] = float(scores[i][j]) if mask[i][j] else -math.inf
    return out


def softmax_rows(scores) -> np.ndarray:
    """``alpha[i][j] = exp(score_ij) / sum_j' exp(score_ij')``, row by row.

    The row's largest score is subtracted first (it cancels in the fraction)
    so that exp never overflows. A -inf score (a blocked key) is left out of
    the sum and gets weight exactly 0.
    """
    out = np.zeros((len(scores), len(scores[0])))
    for i, row in enumerate(scores):
        top = max(s for s in row if s != -math.inf)
        exps = [0.0 if s == -math.inf else math.exp(s - top) for s in row]
        total = math.fsum(exps)
        for j, e in enumerate(exps):
            out[i, j] = e / total
    return out


def weighted_sum(weights, V) -> np.ndarray:
    """``z_i[c] = sum_j alpha_ij * v_j[c]``."""
    n_kv, d_v = len(V), len(V[0])
    out = np.zeros((len(weights), d_v))
    for i in range(len(weights)):
        for c in range(d_v):
            out[i, c] = math.fsum(weights[i][j] * float(V[j][c]) for j in range(n_kv))
    return out


def causal_mask(n: int) -> list[list[bool]]:
    """``mask[i][j] = j <= i``: token i may attend to itself and the tokens before it."""
    return [[j <= i for j in range(n)] for i in range(n)]


def attention(X_q, X_kv, W_Q, W_K, W_V, *, mask=None, scaled: bool = True) -> Attention:
    """Attention by the loops above: the same result as attnlib.attention, slowly.

    X_q may be (n_q, d_q) and X_kv (n_kv, d_kv) with d_q != d_kv; `mask`
    (True = may attend) blocks a key by setting its score to -inf.
    """
    Q, K, V = project(X_q, W_Q), project(X_kv, W_K), project(X_kv, W_V)
    scores = score_matrix(Q, K, scaled=scaled)
    if mask is not None:
        scores = masked_scores(scores, mask)
    weights = softmax_rows(scores)
    Z = weighted_sum(weights, V)
    recorded = None if mask is None else np.array(mask, dtype=bool)
    return Attention(Q, K, V, scores, weights, Z, scaled=bool(scaled), mask=recorded)


def self_attention(X, W_Q, W_K, W_V, *, mask=None, scaled: bool = True) -> Attention:
    """Self-attention by the loops above.

    Examples
    --------
    >>> X = [[1.0, 0.0], [0.0, 1.0]]
    >>> I = [[1.0, 0.0], [0.0, 1.0]]
    >>> self_attention(X, I, I, I, scaled=False).weights.round(3)
    array([[0.731, 0.269],
           [0.269, 0.731]])
    >>> self_attention(X, I, I, I, mask=causal_mask(2), scaled=False).weights.round(3)
    array([[1.   , 0.   ],
           [0.269, 0.731]])
    """
    return attention(X, X, W_Q, W_K, W_V, mask=mask, scaled=scaled)


def columns(W, first: int, count: int) -> list[list[float]]:
    """Columns ``first ... first + count - 1`` of every row of W."""
    return [[float(W[a][c]) for c in range(first, first + count)] for a in range(len(W))]


def multi_head_attention(
    X, W_Q, W_K, W_V, W_O, *, heads: int, mask=None, scaled: bool = True
) -> MultiHead:
    """Multi-head self-attention by the loops above, one head after another.

    Head h takes columns ``h*d_k ... (h+1)*d_k - 1`` of W_Q and W_K (and the
    matching d_v columns of W_V) and runs self-attention with them, dividing
    by sqrt of its own d_k; ``Z[i]`` is the heads' ``z_i`` one after
    another, and ``output[i][c] = sum_m Z[i][m] * W_O[m][c]``.
    """
    d_k, d_v = len(W_Q[0]) // heads, len(W_V[0]) // heads
    per_head = []
    for h in range(heads):
        per_head.append(
            self_attention(
                X,
                columns(W_Q, h * d_k, d_k),
                columns(W_K, h * d_k, d_k),
                columns(W_V, h * d_v, d_v),
                mask=mask,
                scaled=scaled,
            )
        )
    Z = np.zeros((len(X), heads * d_v))
    for i in range(len(X)):
        for h, att in enumerate(per_head):
            for c in range(d_v):
                Z[i, h * d_v + c] = att.Z[i, c]
    return MultiHead(tuple(per_head), Z, project(Z, W_O))
