"""Readouts of attention weights, and the experiment behind dividing by √d_k (numpy only).

The explorers print these numbers under their pictures and the notebooks call
the same functions, so both show the very same values.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from .core import Attention, self_attention, softmax
from .validation import as_matrix, as_positive_vector, as_size, tr

__all__ = [
    "Saturation",
    "ScalingComparison",
    "ScoreVariance",
    "Spread",
    "loglog_slope",
    "max_weight",
    "row_entropy",
    "saturation",
    "scaling_comparison",
    "score_variance",
    "spread",
]


def _as_weights(weights) -> np.ndarray:
    weights = as_matrix("weights", weights, rows_name="n_q", cols_name="n_kv")
    if (weights < 0).any():
        where = tuple(int(i) for i in np.argwhere(weights < 0)[0])
        raise ValueError(
            tr(
                "weights must be >= 0 (a softmax output), but weights{index} is {value}",
                index=list(where),
                value=weights[where],
            )
        )
    sums = weights.sum(axis=1)  # (n_q, n_kv) -> (n_q,)
    bad = np.flatnonzero(np.abs(sums - 1) > 1e-6)
    if bad.size:
        raise ValueError(
            tr(
                "each row of weights must sum to 1 (a softmax output), "
                "but row {row} sums to {total:.6g}",
                row=int(bad[0]),
                total=sums[bad[0]],
            )
        )
    return weights


def row_entropy(weights) -> np.ndarray:
    """Entropy of each row of `weights`, in nats.

    0 means the query puts all its weight on one key; ``log(n_kv)`` means it
    spreads its weight evenly over all of them.

    Parameters
    ----------
    weights : array_like, shape (n_q, n_kv)
        Non-negative rows that sum to 1, e.g. ``Attention.weights``.

    Returns
    -------
    ndarray, shape (n_q,)
        ``-sum_j alpha_ij log alpha_ij`` for each row i (with 0 log 0 = 0).

    Examples
    --------
    >>> row_entropy([[0.25, 0.25, 0.25, 0.25], [1.0, 0.0, 0.0, 0.0]]).round(4)
    array([1.3863, 0.    ])
    """
    weights = _as_weights(weights)
    logs = np.log(weights, out=np.zeros_like(weights), where=weights > 0)  # (n_q, n_kv)
    return 0.0 - (weights * logs).sum(axis=1)  # (n_q, n_kv) -> (n_q,); 0.0 - turns -0 into 0


def max_weight(weights) -> np.ndarray:
    """The largest weight in each row: how much of its attention a query gives its favourite key.

    Parameters
    ----------
    weights : array_like, shape (n_q, n_kv)
        Non-negative rows that sum to 1.

    Returns
    -------
    ndarray, shape (n_q,)
        Between ``1 / n_kv`` (even spread) and 1 (all on one key).

    Examples
    --------
    >>> max_weight([[0.2, 0.5, 0.3], [1.0, 0.0, 0.0]])
    array([0.5, 1. ])
    """
    return _as_weights(weights).max(axis=1)  # (n_q, n_kv) -> (n_q,)


class ScoreVariance(NamedTuple):
    """Sample variance of q·k over random draws, for each d_k.

    Attributes
    ----------
    d_k : ndarray of int, shape (m,)
    unscaled : ndarray, shape (m,)
        Variance of ``q . k``: grows like d_k.
    scaled : ndarray, shape (m,)
        Variance of ``q . k / sqrt(d_k)``: stays near 1.
    """

    d_k: np.ndarray
    unscaled: np.ndarray
    scaled: np.ndarray


def _as_sizes(name: str, values) -> np.ndarray:
    if isinstance(values, (int, np.integer)):
        values = [values]
    sizes = [as_size(f"{name}[{i}]", v) for i, v in enumerate(values)]
    if not sizes:
        raise ValueError(tr("{name} must list at least one size", name=name))
    return np.array(sizes)


def score_variance(
    d_ks=(1, 2, 4, 8, 16, 32, 64, 128), *, trials: int = 10_000, seed: int = 0
) -> ScoreVariance:
    """Variance of a score q·k between random vectors, unscaled and divided by √d_k.

    q and k have independent standard-normal entries, as queries and keys of
    a well-initialised layer roughly do. Then ``var(q . k) = d_k``: the
    unscaled scores spread further apart as d_k grows, while ``q . k / sqrt(d_k)``
    keeps variance 1.

    Parameters
    ----------
    d_ks : int or sequence of int, default (1, 2, 4, ..., 128)
        The key sizes to try, each 1 or more.
    trials : int, default 10000
        Random (q, k) pairs per d_k, 2 or more.
    seed : int, default 0
        Same seed, same numbers.

    Returns
    -------
    ScoreVariance
        ``(d_k, unscaled, scaled)``, one entry per d_k.

    Examples
    --------
    >>> result = score_variance([1, 16, 64], trials=20_000, seed=0)
    >>> result.unscaled.round(0)              # about d_k
    array([ 1., 16., 65.])
    >>> result.scaled.round(1)                # about 1
    array([1., 1., 1.])
    """
    d_ks = _as_sizes("d_ks", d_ks)
    trials = as_size("trials", trials, minimum=2)
    seed = as_size("seed", seed, minimum=0)
    unscaled = np.empty(len(d_ks))
    for m, d_k in enumerate(d_ks):
        rng = np.random.default_rng([seed, int(d_k)])
        q = rng.standard_normal((trials, d_k))  # (trials, d_k)
        k = rng.standard_normal((trials, d_k))  # (trials, d_k)
        dots = np.einsum("td,td->t", q, k)  # (trials, d_k) . (trials, d_k) -> (trials,)
        unscaled[m] = dots.var(ddof=1)
    return ScoreVariance(d_ks, unscaled, unscaled / d_ks)  # var(x / c) = var(x) / c²


class Saturation(NamedTuple):
    """How peaked the softmax gets as d_k grows, averaged over rows and draws.

    Attributes
    ----------
    d_k : ndarray of int, shape (m,)
    max_weight_unscaled, max_weight_scaled : ndarray, shape (m,)
        Mean largest weight of a row: near 1 means saturated (one-hot).
    entropy_unscaled, entropy_scaled : ndarray, shape (m,)
        Mean row entropy in nats: near 0 means saturated.
    """

    d_k: np.ndarray
    max_weight_unscaled: np.ndarray
    max_weight_scaled: np.ndarray
    entropy_unscaled: np.ndarray
    entropy_scaled: np.ndarray


def saturation(
    d_ks=(1, 2, 4, 8, 16, 32, 64, 128, 256), *, n: int = 8, trials: int = 200, seed: int = 0
) -> Saturation:
    """Mean max weight and row entropy of softmax(Q Kᵀ) and softmax(Q Kᵀ / √d_k) as d_k grows.

    Q and K are (n, d_k) with standard-normal entries. Without the scaling the
    rows of weights become one-hot as d_k grows (max weight -> 1, entropy -> 0);
    with it they keep the same spread for every d_k.

    Parameters
    ----------
    d_ks : int or sequence of int
        Key sizes to try.
    n : int, default 8
        Tokens per draw (each row has n weights; entropy is at most log n).
    trials : int, default 200
        Random draws of (Q, K) per d_k.
    seed : int, default 0

    Returns
    -------
    Saturation

    Examples
    --------
    >>> s = saturation([1, 256], n=8, trials=100, seed=0)
    >>> bool(s.max_weight_unscaled[1] > 0.9 > s.max_weight_scaled[1])
    True
    >>> bool(abs(s.entropy_scaled[0] - s.entropy_scaled[1]) < 0.2)
    True
    """
    d_ks = _as_sizes("d_ks", d_ks)
    n = as_size("n", n)
    trials = as_size("trials", trials)
    seed = as_size("seed", seed, minimum=0)
    out = np.empty((4, len(d_ks)))
    for m, d_k in enumerate(d_ks):
        rng = np.random.default_rng([seed, int(d_k)])
        Q = rng.standard_normal((trials, n, d_k))  # (trials, n, d_k)
        K = rng.standard_normal((trials, n, d_k))  # (trials, n, d_k)
        raw = Q @ K.transpose(0, 2, 1)  # (trials, n, d_k) @ (trials, d_k, n) -> (trials, n, n)
        for r, scores in enumerate((raw, raw / math.sqrt(d_k))):
            weights = softmax(scores, axis=-1)  # (trials, n, n), rows sum to 1
            logs = np.log(weights, out=np.zeros_like(weights), where=weights > 0)
            out[r, m] = weights.max(axis=-1).mean()  # (trials, n, n) -> (trials, n) -> ()
            out[2 + r, m] = -(weights * logs).sum(axis=-1).mean()  # (trials, n, n) -> ()
    return Saturation(d_ks, *out)


class ScalingComparison(NamedTuple):
    """The same example attended to with and without the √d_k scaling.

    Attributes
    ----------
    unscaled, scaled : Attention
        ``self_attention(..., scaled=False)`` and ``(..., scaled=True)``.
    score_variance_unscaled, score_variance_scaled : float
        Variance of all n² entries of each score matrix.
    max_weight_unscaled, max_weight_scaled : float
        Mean over rows of the largest weight.
    entropy_unscaled, entropy_scaled : float
        Mean row entropy in nats.
    """

    unscaled: Attention
    scaled: Attention
    score_variance_unscaled: float
    score_variance_scaled: float
    max_weight_unscaled: float
    max_weight_scaled: float
    entropy_unscaled: float
    entropy_scaled: float


def scaling_comparison(X, W_Q, W_K, W_V) -> ScalingComparison:
    """Self-attention on `X` with and without dividing the scores by √d_k, and the readouts.

    This is what ``attnlib.scaling_explorer`` shows for its current d_k.

    Parameters
    ----------
    X : array_like, shape (n, d)
    W_Q, W_K : array_like, shape (d, d_k)
    W_V : array_like, shape (d, d_v)

    Returns
    -------
    ScalingComparison

    Examples
    --------
    >>> from attnlib import toy_example
    >>> c = scaling_comparison(*toy_example(n=8, d_k=64, seed=0)[1:])
    >>> bool(c.score_variance_unscaled > 10 * c.score_variance_scaled)
    True
    >>> bool(c.max_weight_unscaled > c.max_weight_scaled)
    True
    """
    unscaled = self_attention(X, W_Q, W_K, W_V, scaled=False)
    scaled = self_attention(X, W_Q, W_K, W_V, scaled=True)
    return ScalingComparison(
        unscaled,
        scaled,
        float(unscaled.scores.var()),
        float(scaled.scores.var()),
        float(max_weight(unscaled.weights).mean()),
        float(max_weight(scaled.weights).mean()),
        float(row_entropy(unscaled.weights).mean()),
        float(row_entropy(scaled.weights).mean()),
    )


# --- a heavy-tailed sample, summarised (the gradients of 2.2.3 and 06) ---


class Spread(NamedTuple):
    """Where the values of a sample lie: quartiles, mean, and the share near zero.

    Attributes
    ----------
    q1, median, q3 : float
        The 25th, 50th and 75th percentiles.
    mean : float
    near_zero : float
        Share of the values below the threshold given to :func:`spread`, from 0 to 1.
    """

    q1: float
    median: float
    q3: float
    mean: float
    near_zero: float


def spread(values, near_zero: float = 0.01) -> Spread:
    """Quartiles, mean and share below `near_zero` of a sample of non-negative sizes.

    A heavy-tailed sample (most values tiny, a few large) has a mean that
    describes almost none of its values; its median, its quartiles and the
    share of values near zero do. The gradients that a softmax passes back
    through its rows are such a sample once the rows saturate.

    Parameters
    ----------
    values : array_like, shape (m,)
        Sizes (norms, say), m >= 1, each >= 0 and finite.
    near_zero : float, default 0.01
        Values strictly below this count as near zero (positive).

    Returns
    -------
    Spread

    Examples
    --------
    >>> s = spread([0.0, 0.001, 0.002, 0.5, 9.0], near_zero=0.01)
    >>> s.median, s.mean, s.near_zero
    (0.002, 1.9006, 0.6)
    """
    values = np.asarray(values, dtype=float)
    if values.ndim != 1 or values.size == 0 or not np.isfinite(values).all() or (values < 0).any():
        raise ValueError(
            tr(
                "values must be a 1-D array of finite sizes >= 0, got shape {shape}",
                shape=values.shape,
            )
        )
    if not (isinstance(near_zero, (int, float)) and math.isfinite(near_zero) and near_zero > 0):
        raise ValueError(
            tr("{name} must be a positive number, got {value!r}", name="near_zero", value=near_zero)
        )
    q1, median, q3 = np.percentile(values, [25, 50, 75])  # (m,) -> three numbers
    return Spread(
        float(q1),
        float(median),
        float(q3),
        float(values.mean()),
        float((values < near_zero).mean()),
    )


# --- fitted power laws (the n² cost of 2.1) ---


def loglog_slope(ns, values) -> float:
    """The slope p of the line fitted to log(values) against log(ns): values ≈ c · ns**p.

    Parameters
    ----------
    ns : array_like, shape (m,)
        Positive sizes, m >= 2.
    values : array_like, shape (m,)
        Positive measurements, one per size.

    Returns
    -------
    float

    Examples
    --------
    >>> round(loglog_slope([10, 20, 40], [3 * 10**2, 3 * 20**2, 3 * 40**2]), 6)
    2.0
    """
    ns = as_positive_vector("ns", ns)
    values = as_positive_vector("values", values, len(ns))
    return float(np.polyfit(np.log(ns), np.log(values), 1)[0])
