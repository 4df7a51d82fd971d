"""The backward pass of self-attention, by hand: how a small change of each input
changes the output, which is what training needs.

Training asks one question of the layer: if the outputs Z should move by a
small amount in the direction dZ, how should X, W_Q, W_K and W_V move? The
answer is the gradient of the single number ``L = sum(Z * dZ)`` with respect
to each of them. Every step of the forward pass is undone in reverse order,
each with the chain rule, so that the algebra can be checked line by line
against the forward pass in :mod:`attnlib.core`.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from .core import self_attention
from .validation import as_matrix, tr


class Gradients(NamedTuple):
    """The gradients of ``L = sum(Z * dZ)``, each shaped like its input.

    Attributes
    ----------
    X : ndarray, shape (n, d)
        dL/dX: how L changes when an entry of X moves.
    W_Q, W_K : ndarray, shape (d, d_k)
    W_V : ndarray, shape (d, d_v)
    """

    X: np.ndarray
    W_Q: np.ndarray
    W_K: np.ndarray
    W_V: np.ndarray


def self_attention_backward(X, W_Q, W_K, W_V, dZ, *, scaled: bool = True) -> Gradients:
    """Gradients of ``L = sum(Z * dZ)`` for ``Z = self_attention(X, W_Q, W_K, W_V).Z``.

    `dZ` is the gradient that arrives from above (from the loss) at the
    layer's output: ``dZ[i, c] = dL/dZ[i, c]``. The forward pass is
    recomputed with :func:`attnlib.self_attention`, then undone step by step:

    1. ``Z = weights @ V`` is a matrix product, so
       ``d_weights = dZ @ V.T`` and ``dV = weights.T @ dZ``.
    2. ``weights = softmax(scores)``, row by row. Row i of the weights
       depends on row i of the scores only, through the softmax's Jacobian
       ``J = diag(α) - α αᵀ`` (notebook 2.2.3 measures it). Multiplying a
       row of upstream gradients g by J gives ``α * (g - (g · α))``: each
       score's gradient is its weight times how much its own upstream
       gradient beats the weighted average of the row. For all rows at once::

           d_scores = weights * (d_weights - sum(d_weights * weights, axis=-1, keepdims=True))

       When a row is saturated (one weight near 1, the others near 0) both
       factors vanish, and so does the gradient: what √d_k guards against.
    3. ``scores = Q @ K.T / √d_k``, so ``dQ = d_scores @ K / √d_k`` and
       ``dK = d_scores.T @ Q / √d_k``.
    4. ``Q = X @ W_Q`` (and the same for K and V), so
       ``dW_Q = X.T @ dQ``; X is used three times, and its gradient adds
       the three paths: ``dX = dQ @ W_Q.T + dK @ W_K.T + dV @ W_V.T``.

    Parameters
    ----------
    X : array_like, shape (n, d)
    W_Q, W_K : array_like, shape (d, d_k)
    W_V : array_like, shape (d, d_v)
    dZ : array_like, shape (n, d_v)
        The gradient of the loss with respect to the layer's output Z.
    scaled : bool, default True
        Whether the forward pass divides the scores by √d_k.

    Returns
    -------
    Gradients
        ``(X, W_Q, W_K, W_V)``, arrays shaped like the inputs.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> X = rng.standard_normal((4, 6))                     # n = 4, d = 6
    >>> W_Q, W_K = rng.standard_normal((2, 6, 3))           # d_k = 3
    >>> W_V = rng.standard_normal((6, 2))                   # d_v = 2
    >>> dZ = np.zeros((4, 2)); dZ[0, 1] = 1.0               # L = Z[0, 1]
    >>> grads = self_attention_backward(X, W_Q, W_K, W_V, dZ)
    >>> grads.X.shape, grads.W_Q.shape, grads.W_V.shape
    ((4, 6), (6, 3), (6, 2))
    >>> eps = 1e-6; X_eps = X.copy(); X_eps[2, 5] += eps     # nudge one entry of X
    >>> Z, Z_eps = (self_attention(x, W_Q, W_K, W_V).Z for x in (X, X_eps))
    >>> bool(np.isclose((Z_eps[0, 1] - Z[0, 1]) / eps, grads.X[2, 5], atol=1e-5))
    True
    """
    att = self_attention(X, W_Q, W_K, W_V, scaled=scaled)  # checks X, the W and `scaled`
    # ... so these conversions cannot fail; they only give float arrays
    X, W_Q, W_K, W_V = (np.asarray(M, dtype=np.float64) for M in (X, W_Q, W_K, W_V))
    Q, K, V, weights = att.Q, att.K, att.V, att.weights
    n, d_v = att.Z.shape
    dZ = as_matrix("dZ", dZ, rows_name="n", cols_name="d_v")
    if dZ.shape != (n, d_v):
        raise ValueError(
            tr(
                "dZ has shape {shape} but Z has ({n}, {d_v}): the gradient of the output "
                "must have the output's shape (n, d_v)",
                shape=dZ.shape,
                n=n,
                d_v=d_v,
            )
        )
    c = 1 / math.sqrt(Q.shape[1]) if att.scaled else 1.0  # the factor in scores = c Q Kᵀ

    # 1. Z = weights @ V
    d_weights = dZ @ V.T  # (n, d_v) @ (d_v, n) -> (n, n)
    dV = weights.T @ dZ  # (n, n) @ (n, d_v) -> (n, d_v)
    # 2. weights = softmax(scores), each row through its Jacobian diag(α) - α αᵀ
    row_average = (d_weights * weights).sum(axis=-1, keepdims=True)  # (n, n) -> (n, 1)
    d_scores = weights * (d_weights - row_average)  # (n, n) * ((n, n) - (n, 1)) -> (n, n)
    # 3. scores = c Q Kᵀ
    dQ = c * d_scores @ K  # (n, n) @ (n, d_k) -> (n, d_k)
    dK = c * d_scores.T @ Q  # (n, n) @ (n, d_k) -> (n, d_k)
    # 4. Q = X W_Q, K = X W_K, V = X W_V
    dW_Q = X.T @ dQ  # (d, n) @ (n, d_k) -> (d, d_k)
    dW_K = X.T @ dK  # (d, n) @ (n, d_k) -> (d, d_k)
    dW_V = X.T @ dV  # (d, n) @ (n, d_v) -> (d, d_v)
    dX = dQ @ W_Q.T + dK @ W_K.T + dV @ W_V.T  # three (n, d_*) @ (d_*, d) -> (n, d)
    return Gradients(X=dX, W_Q=dW_Q, W_K=dW_K, W_V=dW_V)
