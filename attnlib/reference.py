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

from .core import Attention


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


def softmax_rows(scores) -> np.ndarray:
    """``alpha[i][j] = exp(score_ij) / sum_j' exp(score_ij')``, row by row.

    The row's largest score is subtracted first (it cancels in the fraction)
    so that exp never overflows.
    """
    out = np.zeros((len(scores), len(scores[0])))
    for i, row in enumerate(scores):
        top = max(row)
        exps = [math.exp(s - top) for s in row]
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


def attention(X_q, X_kv, W_Q, W_K, W_V, *, scaled: bool = True) -> Attention:
    """Attention by the loops above: the same result as attnlib.attention, slowly."""
    Q, K, V = project(X_q, W_Q), project(X_kv, W_K), project(X_kv, W_V)
    scores = score_matrix(Q, K, scaled=scaled)
    weights = softmax_rows(scores)
    return Attention(Q, K, V, scores, weights, weighted_sum(weights, V), scaled=bool(scaled))


def self_attention(X, W_Q, W_K, W_V, *, scaled: bool = True) -> Attention:
    """Self-attention by the loops above.

    Examples
    --------
    >>> X = [[1.0, 0.0], [0.0, 1.0]]
    >>> I = [[1.0, 0.0], [0.0, 1.0]]
    >>> self_attention(X, I, I, I, scaled=False).weights.round(3)
    array([[0.731, 0.269],
           [0.269, 0.731]])
    """
    return attention(X, X, W_Q, W_K, W_V, scaled=scaled)
