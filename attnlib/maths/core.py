"""The maths of (self-)attention, in matrix form, with rows as tokens.

X is (n, d): one row per token. Q = X @ W_Q, so q_i, the i-th row of Q, is
x_i @ W_Q. Every other module (plots, widgets, notebooks, checks) reads its
numbers from the functions here.

dtypes, for every function here: float32 in gives float32 out, every
intermediate included; float16 is computed (and returned) in float32;
integers, lists and float64 give float64. Arguments of mixed precision
follow numpy's promotion, so one float64 (or integer) argument makes the
whole pass float64. Booleans are refused where numbers belong (convert with
``.astype(float)``); the only boolean argument is `mask`.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from .validation import as_float_array, as_matrix, as_size, common_float, tr


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
        ``scores[i, j] = q_i . k_j / sqrt(d_k)`` (no division when unscaled),
        and ``-inf`` where the mask blocks query i from key j.
    weights : ndarray, shape (n_q, n_kv)
        Softmax of each row of ``scores``: ``weights[i, j]`` is alpha_ij,
        exactly 0 where the mask blocks.
    Z : ndarray, shape (n_q, d_v)
        Outputs, ``z_i = sum_j alpha_ij v_j``.
    scaled : bool
        Whether ``scores`` were divided by sqrt(d_k); titles and readouts
        read it, so an unscaled pass is never labelled "/ √d_k".
    mask : ndarray of bool, shape (n_q, n_kv), or None
        The mask the pass used (True = may attend), or None for no mask.
    """

    Q: np.ndarray
    K: np.ndarray
    V: np.ndarray
    scores: np.ndarray
    weights: np.ndarray
    Z: np.ndarray
    scaled: bool = True
    mask: np.ndarray | None = None


class MultiHead(NamedTuple):
    """Every intermediate of one multi-head self-attention pass.

    Attributes
    ----------
    heads : tuple of Attention, length heads
        One self-attention pass per head, each with its own Q, K, V of
        width d_k (d_v for V) and its own (n, n) weights.
    Z : ndarray, shape (n, heads * d_v)
        The heads' outputs side by side: columns ``h*d_v ... (h+1)*d_v - 1``
        are ``heads[h].Z``.
    output : ndarray, shape (n, d_out)
        ``Z @ W_O``: the heads mixed back to one vector per token.
    """

    heads: tuple[Attention, ...]
    Z: np.ndarray
    output: np.ndarray


def softmax(scores, axis: int = -1) -> np.ndarray:
    """Numerically stable softmax along `axis`.

    The largest entry of each row is subtracted before exponentiating, so
    finite scores of any size (even 1e300) give no overflow. ``-inf`` entries
    get weight 0 (this is how a mask works); a row with no finite entry has
    no distribution and raises ValueError.

    Parameters
    ----------
    scores : array_like, shape (..., m, ...)
        Real numbers. NaN and +inf are rejected. float32 stays float32
        (float16 becomes float32); anything else is computed in float64.
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
    scores = as_float_array("scores", scores, keep_float32=True)
    if scores.ndim == 0:
        raise ValueError(tr("scores must have at least one dimension, got a scalar"))
    if not -scores.ndim <= axis < scores.ndim:
        raise ValueError(
            tr(
                "axis {axis} is out of range for scores of shape {shape}",
                axis=axis,
                shape=scores.shape,
            )
        )
    if scores.shape[axis] == 0:
        raise ValueError(
            tr(
                "scores has no entries along axis {axis} (shape {shape})",
                axis=axis,
                shape=scores.shape,
            )
        )
    return _softmax(scores, axis)


def _softmax(scores: np.ndarray, axis: int, *, overflowed: bool = False) -> np.ndarray:
    # The row maximum is computed anyway for stability; it is also enough to
    # find every bad row (NaN or +inf anywhere, or no finite entry), so the
    # check costs (n, 1) work instead of a second pass over (n, n).
    top = scores.max(axis=axis, keepdims=True)
    if not np.isfinite(top).all():
        _raise_bad_row(scores, top, axis, overflowed=overflowed)
    with np.errstate(over="ignore"):  # finite - finite may overflow to -inf: exp gives 0
        shifted = scores - top
    weights = np.exp(shifted, out=shifted)
    weights /= weights.sum(axis=axis, keepdims=True)
    return weights


def _raise_bad_row(scores: np.ndarray, top: np.ndarray, axis: int, *, overflowed: bool) -> None:
    axis %= scores.ndim
    bad = tuple(int(i) for i in np.argwhere(~np.isfinite(top))[0])
    value = top[bad]
    line = scores[(*bad[:axis], slice(None), *bad[axis + 1 :])]  # the bad row, shape (m,)
    if np.isnan(value):
        reason, culprit = tr("contains NaN"), np.isnan(line)
    elif value > 0:
        reason, culprit = tr("contains +inf"), np.isposinf(line)
    else:
        reason = tr("has no finite entry (all -inf), so no weight can be positive")
        culprit = None
    row = bad[:axis] + bad[axis + 1 :]
    where = tr("scores")
    if row:
        where = tr("row {row} of scores", row=row[0] if len(row) == 1 else row)
    if culprit is not None:  # name the first bad entry, e.g. scores[1, 3]
        entry = (*bad[:axis], int(np.argmax(culprit)), *bad[axis + 1 :])
        at = f"scores[{', '.join(map(str, entry))}]"
        if scores.ndim == 1:
            at = tr("index {i}", i=entry[0])
        reason += tr(" at {at}", at=at)
    if overflowed:  # the inputs were checked finite, so only overflow can have made these
        detail = tr("{where} {reason}", where=where, reason=reason)
        _raise_overflow(tr("the scores"), scores.dtype, detail=detail)
    raise ValueError(tr("softmax: {where} {reason}", where=where, reason=reason))


def _raise_overflow(what: str, dtype: np.dtype, *, detail: str = "") -> None:
    raise ValueError(
        tr("{what} overflowed: ", what=what)
        + (tr("{detail}, ", detail=detail) if detail else "")
        + tr(
            "although every input is finite, some number is beyond the largest {dtype} "
            "({largest:.3g}), so the inputs are too large. Scale them down "
            "(e.g. X / np.abs(X).max(), or weights with entries about 1/sqrt(d))",
            dtype=dtype,
            largest=np.finfo(dtype).max,
        )
        + (tr(", or pass float64 arrays") if dtype != np.float64 else "")
    )


def causal_mask(n: int) -> np.ndarray:
    """The mask of a decoder: token i may attend to tokens 0 ... i, not to later ones.

    Parameters
    ----------
    n : int
        Number of tokens, 1 or more.

    Returns
    -------
    ndarray of bool, shape (n, n)
        True on and below the diagonal (``j <= i``), False above it.

    Examples
    --------
    >>> causal_mask(3)
    array([[ True, False, False],
           [ True,  True, False],
           [ True,  True,  True]])
    """
    n = as_size("n", n)
    return np.tri(n, dtype=bool)  # (n, n), row i is True for j <= i


def padding_mask(length: int, n: int, *, n_q: int | None = None) -> np.ndarray:
    """The mask of one sentence of `length` real tokens padded to `n` tokens.

    Sentences of a batch are padded to a common n; this mask blocks every
    key j >= length (the padding), so no real token gathers anything from
    it. Padding *query* rows (i >= length) are left free to attend to the
    real keys, as PyTorch's ``key_padding_mask`` does: their rows stay valid
    distributions, but their outputs mean nothing, so keep ``Z[:length]``
    and drop the rest. Combine with ``&``, e.g.
    ``causal_mask(n) & padding_mask(length, n)``.

    Parameters
    ----------
    length : int
        Real tokens of this sentence, from 1 to n.
    n : int
        Padded length: the number of keys (columns of the mask).
    n_q : int, optional
        Number of queries (rows), for cross-attention to a padded sequence;
        defaults to `n`.

    Returns
    -------
    ndarray of bool, shape (n_q, n)
        True in columns ``j < length``.

    Examples
    --------
    >>> padding_mask(2, 3)
    array([[ True,  True, False],
           [ True,  True, False],
           [ True,  True, False]])
    >>> lengths = [3, 1]                                  # a batch of two sentences, n = 3
    >>> [padding_mask(length, 3)[0].tolist() for length in lengths]
    [[True, True, True], [True, False, False]]
    """
    n = as_size("n", n)
    length = as_size("length", length, maximum=n)
    n_q = n if n_q is None else as_size("n_q", n_q)
    keys = np.arange(n) < length  # (n,), True for the real tokens
    return np.broadcast_to(keys, (n_q, n)).copy()  # (n,) -> (n_q, n), every row alike


def attention(X_q, X_kv, W_Q, W_K, W_V, *, mask=None, scaled: bool = True) -> Attention:
    """General (cross) attention: queries from `X_q`, keys and values from `X_kv`.

    Parameters
    ----------
    X_q : array_like, shape (n_q, d_q)
        The tokens that ask: one row each.
    X_kv : array_like, shape (n_kv, d_kv)
        The tokens that are looked at: one row each. d_kv may differ from
        d_q (words attending to image regions, say).
    W_Q : array_like, shape (d_q, d_k)
    W_K : array_like, shape (d_kv, d_k)
        Query and key projections. They must share d_k, since q_i . k_j
        needs vectors of the same length.
    W_V : array_like, shape (d_kv, d_v)
        Value projection; d_v may differ from d_k.
    mask : array_like of bool, shape (n_q, n_kv), optional
        True where query i may attend to key j (the convention of PyTorch's
        ``scaled_dot_product_attention``; ``nn.MultiheadAttention``'s
        ``attn_mask`` runs the other way, True = blocked: pass ``~m``).
        Blocked scores become -inf, so their weights are exactly 0 and each
        row's remaining weights still sum to 1. Every row needs a True.
    scaled : bool, default True
        Divide the scores by sqrt(d_k). ``False`` gives the raw Q Kᵀ.

    Returns
    -------
    Attention
        ``(Q, K, V, scores, weights, Z, scaled, mask)``; float32 if every
        array argument is float32 or float16, else float64 (see the module
        docstring).

    Examples
    --------
    >>> X_q, X_kv = np.ones((2, 3)), np.eye(4)        # n_q = 2, d_q = 3; n_kv = 4, d_kv = 4
    >>> W_Q, W_K, W_V = np.ones((3, 2)), np.ones((4, 2)), np.eye(4)   # d_k = 2, d_v = 4
    >>> att = attention(X_q, X_kv, W_Q, W_K, W_V)
    >>> att.scores.shape, att.Z.shape
    ((2, 4), (2, 4))
    >>> attention(X_q, X_kv, W_Q, W_K, W_V, mask=[[True, True, False, False]] * 2).weights
    array([[0.5, 0.5, 0. , 0. ],
           [0.5, 0.5, 0. , 0. ]])
    """
    batch = (
        "np.stack([attention(x_q, x_kv, W_Q, W_K, W_V).Z for x_q, x_kv in zip(X_q, X_kv)])"
        " -> (b, n_q, d_v)"
    )
    X_q = _as_tokens("X_q", X_q, rows_name="n_q", cols_name="d_q", batch=batch)
    X_kv = _as_tokens("X_kv", X_kv, rows_name="n_kv", cols_name="d_kv", batch=batch)
    W_Q, W_K, W_V = _check_weights(X_q, X_kv, W_Q, W_K, W_V, names=("X_q", "d_q", "X_kv", "d_kv"))
    X_q, X_kv, W_Q, W_K, W_V = common_float(X_q, X_kv, W_Q, W_K, W_V)
    mask = _check_mask(mask, X_q.shape[0], X_kv.shape[0])
    return _attention(X_q, X_kv, W_Q, W_K, W_V, _check_scaled(scaled), mask)


def self_attention(X, W_Q, W_K, W_V, *, mask=None, scaled: bool = True) -> Attention:
    """Self-attention: queries, keys and values all come from the one sequence `X`.

    Parameters
    ----------
    X : array_like, shape (n, d)
        One row per token (one sequence: for a batch, call once per sequence).
    W_Q, W_K : array_like, shape (d, d_k)
    W_V : array_like, shape (d, d_v)
    mask : array_like of bool, shape (n, n), optional
        True where token i may attend to token j, as in PyTorch's
        ``scaled_dot_product_attention`` (``nn.MultiheadAttention`` uses the
        opposite, True = blocked). Blocked scores are -inf and their weights
        exactly 0; e.g. ``causal_mask(n)``.
    scaled : bool, default True
        Divide the scores by sqrt(d_k).

    Returns
    -------
    Attention
        ``(Q, K, V, scores, weights, Z, scaled, mask)`` with scores and
        weights (n, n); float32 if every array argument is float32 or
        float16, else float64.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> X = rng.standard_normal((5, 8))                 # n = 5 tokens, d = 8
    >>> W_Q, W_K, W_V = rng.standard_normal((3, 8, 4))  # d_k = d_v = 4
    >>> att = self_attention(X, W_Q, W_K, W_V)
    >>> att.Q.shape, att.scores.shape, att.Z.shape
    ((5, 4), (5, 5), (5, 4))
    >>> causal = self_attention(X, W_Q, W_K, W_V, mask=causal_mask(5))
    >>> causal.weights[0]                               # token 0 sees only itself
    array([1., 0., 0., 0., 0.])
    """
    batch = "np.stack([self_attention(x, W_Q, W_K, W_V).Z for x in X]) -> (b, n, d_v)"
    X = _as_tokens("X", X, batch=batch)
    W_Q, W_K, W_V = _check_weights(X, X, W_Q, W_K, W_V, names=("X", "d", "X", "d"))
    X, W_Q, W_K, W_V = common_float(X, W_Q, W_K, W_V)
    mask = _check_mask(mask, X.shape[0], X.shape[0])
    return _attention(X, X, W_Q, W_K, W_V, _check_scaled(scaled), mask)


def multi_head_attention(
    X, W_Q, W_K, W_V, W_O, *, heads: int, mask=None, scaled: bool = True
) -> MultiHead:
    """Multi-head self-attention: `heads` passes side by side, then mixed by W_O.

    Head h uses columns ``h*d_k ... (h+1)*d_k - 1`` of W_Q and W_K and
    columns ``h*d_v ... (h+1)*d_v - 1`` of W_V, and divides its scores by
    sqrt(d_k), the width of its own queries (not of all heads together).

    Parameters
    ----------
    X : array_like, shape (n, d)
        One row per token.
    W_Q, W_K : array_like, shape (d, heads * d_k)
        Every head's query and key projections, side by side.
    W_V : array_like, shape (d, heads * d_v)
    W_O : array_like, shape (heads * d_v, d_out)
        Output projection of the concatenated heads.
    heads : int
        Number of heads, 1 or more; it must divide the widths above.
    mask : array_like of bool, shape (n, n), optional
        As in `self_attention` (True = may attend); every head uses it.
    scaled : bool, default True
        Divide each head's scores by sqrt(d_k).

    Returns
    -------
    MultiHead
        ``(heads, Z, output)``: the per-head Attention tuples, their outputs
        concatenated (n, heads * d_v), and ``Z @ W_O`` (n, d_out). float32
        if every array argument is float32 or float16, else float64.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> X = rng.standard_normal((5, 8))                        # n = 5, d = 8
    >>> W_Q, W_K, W_V = rng.standard_normal((3, 8, 2 * 4))     # 2 heads, d_k = d_v = 4
    >>> W_O = rng.standard_normal((2 * 4, 8))                  # d_out = 8
    >>> mh = multi_head_attention(X, W_Q, W_K, W_V, W_O, heads=2)
    >>> len(mh.heads), mh.heads[0].Q.shape, mh.Z.shape, mh.output.shape
    (2, (5, 4), (5, 8), (5, 8))
    """
    heads = as_size("heads", heads)
    batch = (
        "np.stack([multi_head_attention(x, W_Q, W_K, W_V, W_O, heads=heads).output"
        " for x in X]) -> (b, n, d_out)"
    )
    X = _as_tokens("X", X, batch=batch)
    # A 3-D weight is usually one matrix per head: show how to put them side by side.
    W_Q, W_K, W_V = (
        as_matrix(
            name,
            W,
            rows_name="d",
            cols_name=f"heads * {width}",
            keep_float32=True,
            hint_3d=tr(
                "For one matrix per head, (heads, d, {width}), put them side by side: "
                "np.concatenate(list({name}), axis=1) -> (d, heads * {width})",
                width=width,
                name=name,
            ),
        )
        for name, W, width in (("W_Q", W_Q, "d_k"), ("W_K", W_K, "d_k"), ("W_V", W_V, "d_v"))
    )
    W_O = as_matrix("W_O", W_O, rows_name="heads * d_v", cols_name="d_out", keep_float32=True)
    for name, W in (("W_Q", W_Q), ("W_K", W_K), ("W_V", W_V)):
        _check_rows(name, W, "X", "d", X.shape[1])
    for name, W, width in (("W_Q", W_Q, "d_k"), ("W_V", W_V, "d_v")):
        if W.shape[1] % heads:
            raise ValueError(
                tr(
                    "{name} has {columns} columns, which do not split into heads = {heads} "
                    "blocks of equal width: it needs heads * {width} columns, e.g. {example}",
                    name=name,
                    columns=W.shape[1],
                    heads=heads,
                    width=width,
                    example=heads * max(1, W.shape[1] // heads),
                )
            )
    if W_K.shape[1] != W_Q.shape[1]:
        raise ValueError(
            tr(
                "W_K has shape {shape_k} but W_Q has {shape_q}: both need heads * d_k "
                "columns, because each head's scores are dot products q_i . k_j of length d_k",
                shape_k=W_K.shape,
                shape_q=W_Q.shape,
            )
        )
    if W_O.shape[0] != W_V.shape[1]:
        raise ValueError(
            tr(
                "W_O has shape {shape_o} but the heads' outputs Z have heads * d_v = "
                "{columns} columns (W_V has shape {shape_v}): W_O needs {columns} rows",
                shape_o=W_O.shape,
                columns=W_V.shape[1],
                shape_v=W_V.shape,
            )
        )
    X, W_Q, W_K, W_V, W_O = common_float(X, W_Q, W_K, W_V, W_O)
    scaled = _check_scaled(scaled)
    mask = _check_mask(mask, X.shape[0], X.shape[0])
    d_k, d_v = W_Q.shape[1] // heads, W_V.shape[1] // heads
    per_head = []
    for h in range(heads):
        k = slice(h * d_k, (h + 1) * d_k)  # head h's columns of W_Q and W_K
        v = slice(h * d_v, (h + 1) * d_v)  # and of W_V
        # (d, d_k), (d, d_k), (d, d_v): a plain self-attention of width d_k
        per_head.append(_attention(X, X, W_Q[:, k], W_K[:, k], W_V[:, v], scaled, mask))
    Z = np.concatenate([att.Z for att in per_head], axis=1)  # heads x (n, d_v) -> (n, heads*d_v)
    output = Z @ W_O  # (n, heads*d_v) @ (heads*d_v, d_out) -> (n, d_out)
    return MultiHead(tuple(per_head), Z, output)


def _as_tokens(name: str, X, *, rows_name: str = "n", cols_name: str = "d", batch: str):
    # X, X_q, X_kv: 3-D is almost always a batch, so the message shows the loop.
    hint = tr(
        "attnlib works on one sequence at a time: for a batch of shape (b, {rows}, "
        "{cols}), run each sequence and stack the results, e.g. {batch}",
        rows=rows_name,
        cols=cols_name,
        batch=batch,
    )
    return as_matrix(
        name, X, rows_name=rows_name, cols_name=cols_name, keep_float32=True, hint_3d=hint
    )


def _check_weights(X_q, X_kv, W_Q, W_K, W_V, *, names: tuple[str, str, str, str]):
    q_name, d_q, kv_name, d_kv = names  # ("X", "d", "X", "d") for self-attention
    W_Q = as_matrix("W_Q", W_Q, rows_name=d_q, cols_name="d_k", keep_float32=True)
    W_K = as_matrix("W_K", W_K, rows_name=d_kv, cols_name="d_k", keep_float32=True)
    W_V = as_matrix("W_V", W_V, rows_name=d_kv, cols_name="d_v", keep_float32=True)
    _check_rows("W_Q", W_Q, q_name, d_q, X_q.shape[1])
    _check_rows("W_K", W_K, kv_name, d_kv, X_kv.shape[1])
    _check_rows("W_V", W_V, kv_name, d_kv, X_kv.shape[1])
    if W_K.shape[1] != W_Q.shape[1]:
        raise ValueError(
            tr(
                "W_K has shape {shape_k} but W_Q has {shape_q}: d_k must match, "
                "because each score is a dot product q_i . k_j of two vectors of length d_k",
                shape_k=W_K.shape,
                shape_q=W_Q.shape,
            )
        )
    return W_Q, W_K, W_V


def _check_rows(name: str, W: np.ndarray, x_name: str, d_name: str, d: int) -> None:
    if W.shape[0] != d:
        raise ValueError(
            tr(
                "{name} has shape {shape} but {x_name} has {d_name} = {d} columns: "
                "{name} needs {d} rows, shape ({d}, {columns})",
                name=name,
                shape=W.shape,
                x_name=x_name,
                d_name=d_name,
                d=d,
                columns=W.shape[1],
            )
        )


def _check_scaled(scaled) -> bool:
    if not isinstance(scaled, (bool, np.bool_)):
        raise TypeError(tr("scaled must be True or False, got {value!r}", value=scaled))
    return bool(scaled)


def _check_mask(mask, n_q: int, n_kv: int) -> np.ndarray | None:
    if mask is None:
        return None
    if isinstance(mask, (str, bytes)):
        raise TypeError(tr("mask must be a boolean array, got a {kind}", kind=type(mask).__name__))
    try:
        mask = np.array(mask)  # a copy: the Attention records it, unchanged by later edits
    except ValueError as exc:  # ragged nested lists
        raise ValueError(
            tr("mask must be a rectangular boolean array: {error}", error=exc)
        ) from None
    if mask.dtype != bool:
        raise TypeError(
            tr(
                "mask must be a boolean array, True where query i may attend to key j, "
                "got dtype {dtype}. Convert first: an additive mask of 0 and -inf with "
                "mask = (m == 0); a 0/1 mask with mask = (m == 1) if 1 means 'may attend', "
                "or (m == 0) if 1 means 'blocked' (as True does in nn.MultiheadAttention)",
                dtype=mask.dtype,
            )
        )
    if mask.shape != (n_q, n_kv):
        raise ValueError(
            tr(
                "mask has shape {shape} but the scores are (n_q, n_kv) = ({n_q}, {n_kv}): "
                "one row per query, one column per key",
                shape=mask.shape,
                n_q=n_q,
                n_kv=n_kv,
            )
            + (tr(" (transposed?)") if mask.shape == (n_kv, n_q) else "")
        )
    allowed = mask.any(axis=1)  # (n_q, n_kv) -> (n_q,): does query i see any key?
    if not allowed.all():
        empty = np.flatnonzero(~allowed)
        if empty.size == 1:
            message = tr("mask row {rows} is all False: query {query} ")
        else:
            message = tr("mask rows {rows} are all False: query {query} ")
        raise ValueError(
            message.format(rows=empty[0] if empty.size == 1 else empty[:5].tolist(), query=empty[0])
            + tr(
                "may attend to no key, so its weights cannot sum to 1. Every row needs at "
                "least one True (causal_mask and padding_mask always keep one)"
            )
        )
    return mask


def _attention(X_q, X_kv, W_Q, W_K, W_V, scaled: bool, mask: np.ndarray | None) -> Attention:
    d_k = W_Q.shape[1]
    # Inputs are finite (checked), so inf or NaN below can only be overflow;
    # numpy's warning about it is replaced by our error, which says what to do.
    with np.errstate(over="ignore", invalid="ignore"):
        Q = X_q @ W_Q  # (n_q, d_q) @ (d_q, d_k) -> (n_q, d_k)
        K = X_kv @ W_K  # (n_kv, d_kv) @ (d_kv, d_k) -> (n_kv, d_k)
        V = X_kv @ W_V  # (n_kv, d_kv) @ (d_kv, d_v) -> (n_kv, d_v)
        scores = Q @ K.T  # (n_q, d_k) @ (d_k, n_kv) -> (n_q, n_kv)
    if not np.isfinite(V).all():  # (n_kv, d_v): cheap next to the (n_q, n_kv) scores
        _raise_overflow(tr("the values V"), V.dtype)
    if scaled:
        scores /= math.sqrt(d_k)  # a Python float keeps float32 scores float32
    if mask is not None:
        np.copyto(scores, -np.inf, where=~mask)  # blocked: exp(-inf) = 0, exactly
    # Every row keeps a key (the mask was checked), so a bad row here is overflow too.
    weights = _softmax(scores, axis=-1, overflowed=True)  # (n_q, n_kv), rows sum to 1
    Z = weights @ V  # (n_q, n_kv) @ (n_kv, d_v) -> (n_q, d_v)
    return Attention(Q, K, V, scores, weights, Z, scaled=scaled, mask=mask)
