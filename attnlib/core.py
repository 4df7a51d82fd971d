"""The maths of (self-)attention, in matrix form, with rows as tokens.

X is (n, d): one row per token. Q = X @ W_Q, so q_i, the i-th row of Q, is
x_i @ W_Q. Every other module (plots, widgets, notebooks, checks) reads its
numbers from the functions here.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from ._validate import as_float_array, as_matrix


class Attention(NamedTuple):
    """Every intermediate of one attention pass.

    Attributes
    ----------
    Q : ndarray, shape (n_q, d_k)
        Queries, one row per query token.
    K : ndarray, shape (n_kv, d_k)
        Keys, one row per key token.
    V : ndarray, shape (n_kv, d_v)
        Values, one row per key token.
    scores : ndarray, shape (n_q, n_kv)
        ``scores[i, j] = q_i . k_j / sqrt(d_k)`` (no division when unscaled).
    weights : ndarray, shape (n_q, n_kv)
        Softmax of each row of ``scores``: ``weights[i, j]`` is alpha_ij.
    Z : ndarray, shape (n_q, d_v)
        Outputs, ``z_i = sum_j alpha_ij v_j``.
    scaled : bool
        Whether ``scores`` were divided by sqrt(d_k); titles and readouts
        read it, so an unscaled pass is never labelled "/ √d_k".
    """

    Q: np.ndarray
    K: np.ndarray
    V: np.ndarray
    scores: np.ndarray
    weights: np.ndarray
    Z: np.ndarray
    scaled: bool = True


def softmax(scores, axis: int = -1) -> np.ndarray:
    """Numerically stable softmax along `axis`.

    The largest entry of each row is subtracted before exponentiating, so
    finite scores of any size (even 1e300) give no overflow. ``-inf`` entries
    get weight 0 (this is how a mask works); a row with no finite entry has
    no distribution and raises ValueError.

    Parameters
    ----------
    scores : array_like, shape (..., m, ...)
        Real numbers. NaN and +inf are rejected.
    axis : int, default -1
        The axis that sums to 1 afterwards.

    Returns
    -------
    ndarray, same shape as `scores`
        Non-negative weights summing to 1 along `axis`.

    Examples
    --------
    >>> softmax([1.0, 1.0, 1.0, 1.0])
    array([0.25, 0.25, 0.25, 0.25])
    >>> softmax([[0.0, 1000.0], [0.0, -np.inf]]).round(3)
    array([[0., 1.],
           [1., 0.]])
    """
    scores = as_float_array("scores", scores)
    if scores.ndim == 0:
        raise ValueError("scores must have at least one dimension, got a scalar")
    if not -scores.ndim <= axis < scores.ndim:
        raise ValueError(f"axis {axis} is out of range for scores of shape {scores.shape}")
    if scores.shape[axis] == 0:
        raise ValueError(f"scores has no entries along axis {axis} (shape {scores.shape})")
    return _softmax(scores, axis)


def _softmax(scores: np.ndarray, axis: int) -> np.ndarray:
    # The row maximum is computed anyway for stability; it is also enough to
    # find every bad row (NaN or +inf anywhere, or no finite entry), so the
    # check costs (n, 1) work instead of a second pass over (n, n).
    top = scores.max(axis=axis, keepdims=True)
    if not np.isfinite(top).all():
        _raise_bad_row(scores, top, axis)
    with np.errstate(over="ignore"):  # finite - finite may overflow to -inf: exp gives 0
        shifted = scores - top
    weights = np.exp(shifted, out=shifted)
    weights /= weights.sum(axis=axis, keepdims=True)
    return weights


def _raise_bad_row(scores: np.ndarray, top: np.ndarray, axis: int) -> None:
    bad = tuple(int(i) for i in np.argwhere(~np.isfinite(top))[0])
    row = tuple(i for k, i in enumerate(bad) if k != axis % scores.ndim)
    label = row[0] if len(row) == 1 else row
    value = top[bad]
    if np.isnan(value):
        reason = "contains NaN"
    elif value > 0:
        reason = "contains +inf"
    else:
        reason = "has no finite entry (all -inf), so no weight can be positive"
    raise ValueError(f"softmax: row {label} of scores {reason}")


def attention(X_q, X_kv, W_Q, W_K, W_V, *, scaled: bool = True) -> Attention:
    """General (cross) attention: queries from `X_q`, keys and values from `X_kv`.

    Parameters
    ----------
    X_q : array_like, shape (n_q, d)
        The tokens that ask: one row each.
    X_kv : array_like, shape (n_kv, d)
        The tokens that are looked at: one row each.
    W_Q, W_K : array_like, shape (d, d_k)
        Query and key projections. They must share d_k, since q_i . k_j
        needs vectors of the same length.
    W_V : array_like, shape (d, d_v)
        Value projection; d_v may differ from d_k.
    scaled : bool, default True
        Divide the scores by sqrt(d_k). ``False`` gives the raw Q Kᵀ.

    Returns
    -------
    Attention
        ``(Q, K, V, scores, weights, Z)``.

    Examples
    --------
    >>> X_q, X_kv = np.ones((2, 3)), np.eye(3)          # n_q = 2, n_kv = 3, d = 3
    >>> W = np.eye(3)[:, :2]                            # d_k = d_v = 2
    >>> att = attention(X_q, X_kv, W, W, W)
    >>> att.scores.shape, att.Z.shape
    ((2, 3), (2, 2))
    >>> att.weights.sum(axis=1)
    array([1., 1.])
    """
    X_q = as_matrix("X_q", X_q, rows_name="n_q")
    X_kv = as_matrix("X_kv", X_kv, rows_name="n_kv")
    if X_kv.shape[1] != X_q.shape[1]:
        raise ValueError(
            f"X_kv has d = {X_kv.shape[1]} columns but X_q has d = {X_q.shape[1]}: "
            "queries and keys/values must be embedded with the same size d"
        )
    W_Q, W_K, W_V = _check_weights(X_q.shape[1], W_Q, W_K, W_V, x_name="X_q")
    if not isinstance(scaled, (bool, np.bool_)):
        raise TypeError(f"scaled must be True or False, got {scaled!r}")
    return _attention(X_q, X_kv, W_Q, W_K, W_V, bool(scaled))


def self_attention(X, W_Q, W_K, W_V, *, scaled: bool = True) -> Attention:
    """Self-attention: queries, keys and values all come from the one sequence `X`.

    Parameters
    ----------
    X : array_like, shape (n, d)
        One row per token.
    W_Q, W_K : array_like, shape (d, d_k)
    W_V : array_like, shape (d, d_v)
    scaled : bool, default True
        Divide the scores by sqrt(d_k).

    Returns
    -------
    Attention
        ``(Q, K, V, scores, weights, Z)`` with scores and weights (n, n).

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> X = rng.standard_normal((5, 8))                 # n = 5 tokens, d = 8
    >>> W_Q, W_K, W_V = rng.standard_normal((3, 8, 4))  # d_k = d_v = 4
    >>> att = self_attention(X, W_Q, W_K, W_V)
    >>> att.Q.shape, att.scores.shape, att.Z.shape
    ((5, 4), (5, 5), (5, 4))
    """
    X = as_matrix("X", X)
    W_Q, W_K, W_V = _check_weights(X.shape[1], W_Q, W_K, W_V, x_name="X")
    if not isinstance(scaled, (bool, np.bool_)):
        raise TypeError(f"scaled must be True or False, got {scaled!r}")
    return _attention(X, X, W_Q, W_K, W_V, bool(scaled))


def _check_weights(d: int, W_Q, W_K, W_V, *, x_name: str):
    W_Q = as_matrix("W_Q", W_Q, rows_name="d", cols_name="d_k")
    W_K = as_matrix("W_K", W_K, rows_name="d", cols_name="d_k")
    W_V = as_matrix("W_V", W_V, rows_name="d", cols_name="d_v")
    for name, W in (("W_Q", W_Q), ("W_K", W_K), ("W_V", W_V)):
        if W.shape[0] != d:
            raise ValueError(
                f"{name} has shape {W.shape} but {x_name} has d = {d} columns: "
                f"{name} needs {d} rows, shape ({d}, {W.shape[1]})"
            )
    if W_K.shape[1] != W_Q.shape[1]:
        raise ValueError(
            f"W_K has shape {W_K.shape} but W_Q has {W_Q.shape}: d_k must match, "
            "because each score is a dot product q_i . k_j of two vectors of length d_k"
        )
    return W_Q, W_K, W_V


def _attention(X_q, X_kv, W_Q, W_K, W_V, scaled: bool) -> Attention:
    d_k = W_Q.shape[1]
    Q = X_q @ W_Q  # (n_q, d) @ (d, d_k) -> (n_q, d_k)
    K = X_kv @ W_K  # (n_kv, d) @ (d, d_k) -> (n_kv, d_k)
    V = X_kv @ W_V  # (n_kv, d) @ (d, d_v) -> (n_kv, d_v)
    scores = Q @ K.T  # (n_q, d_k) @ (d_k, n_kv) -> (n_q, n_kv)
    if scaled:
        scores /= math.sqrt(d_k)
    weights = _softmax(scores, axis=-1)  # (n_q, n_kv), each row sums to 1
    Z = weights @ V  # (n_q, n_kv) @ (n_kv, d_v) -> (n_q, d_v)
    return Attention(Q, K, V, scores, weights, Z, scaled=scaled)
