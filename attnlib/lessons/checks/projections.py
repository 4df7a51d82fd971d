"""Checks of 03's predictions: the shapes of Q, K and V, and of one fused product.

Read and graded as in :mod:`.predictions`: the right answer is computed with
attnlib, a first wrong try is told its slip (a transposed shape, a weight
matrix's shape, one block taken for another) without the answer, and the answer
comes with the second wrong try or with ``reveal=True``.

========================================  ========  =======================================
check                                     notebook  the question (defaults)
========================================  ========  =======================================
check_prediction_qkv_shapes               03        Q, K, V for n = 5, d = 6, d_k = 3, d_v = 2
check_prediction_fused_shape              03        X @ W_QKV: its shape, and K's columns
========================================  ========  =======================================

Examples
--------
>>> bool(check_prediction_fused_shape(((5, 9), [3, 4, 5])))
True
"""

from __future__ import annotations

import numbers

import numpy as np

from ...i18n import tr
from ...maths.core import self_attention
from ...maths.data import toy_example
from .predictions import shape_reason
from .reading import as_shape, written, wrong
from .runner import Failure, check


@check
def check_prediction_qkv_shapes(
    answer: tuple | dict, n: int = 5, d: int = 6, d_k: int = 3, d_v: int = 2
) -> str:
    """Check predicted shapes of Q, K and V for the given sizes (03).

    Parameters
    ----------
    answer : tuple of three shapes, or dict with keys "Q", "K", "V"
        The predicted shapes, e.g. ``((5, 3), (5, 3), (5, 2))``.
    n, d, d_k, d_v : int, default 5, 6, 3 and 2
        Tokens, embedding length, columns of W_Q and W_K, columns of W_V.

    Returns
    -------
    CheckResult
        Passed (exact match), or the first wrong shape and why.

    Examples
    --------
    >>> bool(check_prediction_qkv_shapes(((5, 3), (5, 3), (5, 2))))
    True
    """
    written(answer)
    if isinstance(answer, str):  # "((5, 3), (5, 3), (5, 2))": the shapes typed in quotes
        raise Failure(
            tr("your prediction {answer!r} is text (a str), not three shapes", answer=answer),
            tr("write the shapes without quotes: ((1, 2), (1, 2), (1, 2))"),
        )
    if isinstance(answer, dict):
        answer = tuple(answer.get(key) for key in "QKV")
    if not isinstance(answer, (tuple, list)) or len(answer) != 3:
        raise Failure(
            tr("your prediction {answer!r} is not three shapes", answer=answer),
            tr("write (shape of Q, shape of K, shape of V), e.g. ((1, 2), (1, 2), (1, 2))"),
        )
    att = self_attention(*toy_example(n=n, d=d, d_k=d_k, d_v=d_v)[1:])
    sizes = f"n = {n}, d = {d}, d_k = {d_k}, d_v = {d_v}"
    for label, predicted, W in zip("QKV", answer, ("W_Q", "W_K", "W_V"), strict=True):
        shape = as_shape(predicted)
        right = getattr(att, label).shape
        if shape == right:
            continue
        said = tr(
            "for {sizes} you predicted {label} has shape {got}, but it is {want}",
            sizes=sizes,
            label=label,
            got=shape,
            want=right,
        )
        known = {
            (d, right[1]): tr(
                "that is {W}'s shape; {label} = X @ {W}: (n, d) @ (d, {m})",
                W=W,
                label=label,
                m=right[1],
            ),
            (n, d): tr(
                "that is X's shape; {W} turns each row of length d into one of length {m}",
                W=W,
                m=right[1],
            ),
        }
        slips = {
            (d, right[1]): tr(
                "{label}: that is {W}'s shape; {label} = X @ {W}: which factor gives "
                "the rows, and which the columns?",
                label=label,
                W=W,
            ),
            (n, d): tr(
                "{label}: that is X's shape; {label} = X @ {W} keeps X's rows but takes "
                "its columns from {W}",
                label=label,
                W=W,
            ),
        }
        if label == "V" and right[1] != d_k:
            known[(n, d_k)] = slips[(n, d_k)] = tr(
                "V takes its columns from W_V, which has d_v columns; only Q and K need d_k"
            )
        otherwise = f"{label} = X @ {W}: (n, d) @ (d, {right[1]}) -> (n, {right[1]})"
        why = shape_reason(shape, right, known, otherwise)
        if shape == right[::-1]:
            slip = tr("{label}: rows are tokens: the first number counts the tokens", label=label)
        else:
            slip = slips.get(
                shape,
                tr(
                    "{label}: each of Q, K, V is X times a weight matrix: the rows come from X, "
                    "the columns from W",
                    label=label,
                ),
            )
        raise wrong(answer, said, why, slip)
    return tr(
        "right: Q and K are {qk}, V is {v}: one row per token, columns from W_Q, W_K and W_V",
        qk=att.Q.shape,
        v=att.V.shape,
    )


def _columns(columns, width: int) -> list[int]:
    """The learner's columns as sorted ints (a list, a range or a slice), or Failure."""
    if isinstance(columns, slice):
        return list(range(*columns.indices(width)))
    try:
        found = list(columns)
    except TypeError:
        found = None
    if found is None or not all(
        isinstance(c, numbers.Integral) and not isinstance(c, bool) for c in found
    ):
        raise Failure(
            tr("your columns {columns!r} are not a list of column indices", columns=columns),
            tr("write the columns as a list of ints, counting from 0, e.g. [0, 1, 2]"),
        )
    return sorted(int(c) for c in found)


@check
def check_prediction_fused_shape(answer, n: int = 5, d: int = 6, d_k: int = 3) -> str:
    """Check a prediction of ``X @ W_QKV``: its shape, and which of its columns are K (03).

    ``W_QKV = [W_Q | W_K | W_V]`` holds the three (d, d_k) matrices side by side, so
    one product ``X @ W_QKV`` holds Q, K and V side by side. The right answer is
    found by computing that product and looking for the columns equal to K's.

    Parameters
    ----------
    answer : pair
        (the shape of ``X @ W_QKV``, the columns of it that belong to K), the
        columns as a list, a range or a slice, counting from 0: e.g.
        ``((5, 9), [3, 4, 5])``.
    n, d, d_k : int, default 5, 6 and 3
        Tokens, embedding length, columns of each of W_Q, W_K and W_V.

    Returns
    -------
    CheckResult
        Passed (exact match), or the right shape and columns, and why.

    Examples
    --------
    >>> check_prediction_fused_shape(((5, 9), [0, 1, 2]), reveal=True)
    ✗ check_prediction_fused_shape: you predicted (5, 9) and columns [0, 1, 2], but ...
      Hint: those are Q's columns: ...
    """
    written(answer)
    if isinstance(answer, str):  # "((5, 9), [3, 4, 5])": the answer typed in quotes
        raise Failure(
            tr(
                "your prediction {answer!r} is text (a str), not a shape and columns", answer=answer
            ),
            tr("write it without quotes: (shape, columns), e.g. ((1, 2), [0, 1])"),
        )
    try:
        predicted, columns = answer
        if isinstance(predicted, numbers.Integral):  # (5, 9): a shape alone, no columns
            raise ValueError
    except (TypeError, ValueError):
        raise Failure(
            tr("your prediction {answer!r} is not a shape and a list of columns", answer=answer),
            tr("write (the shape of X @ W_QKV, the columns of K), e.g. ((1, 2), [0, 1])"),
        ) from None
    shape = as_shape(predicted)
    ex = toy_example(n=n, d=d, d_k=d_k, d_v=d_k)
    W_QKV = np.concatenate([ex.W_Q, ex.W_K, ex.W_V], axis=1)  # (d, 3 d_k): side by side
    QKV = ex.X @ W_QKV  # (n, d) @ (d, 3 d_k) -> (n, 3 d_k)
    K = self_attention(ex.X, ex.W_Q, ex.W_K, ex.W_V).K  # (n, d_k), from its own product
    width = QKV.shape[1]
    owns = [  # the columns of the product equal to a column of K: found, not typed
        c for c in range(width) if any(np.allclose(QKV[:, c], K[:, k]) for k in range(d_k))
    ]
    cols = _columns(columns, width)
    if shape == QKV.shape and cols == owns:
        return tr(
            "right: X @ W_QKV has shape {shape}, and K is columns {cols}: the second block "
            "of d_k = {d_k} columns, after Q's",
            shape=QKV.shape,
            cols=owns,
            d_k=d_k,
        )
    said = tr(
        "you predicted {got} and columns {got_cols}, but X @ W_QKV has shape {shape} and "
        "K is columns {cols}",
        got=shape,
        got_cols=cols,
        shape=QKV.shape,
        cols=owns,
    )
    blocks = [list(range(b * d_k, (b + 1) * d_k)) for b in range(3)]  # Q's, K's, V's columns
    if shape != QKV.shape:
        known = {
            (n, d_k): (
                tr(
                    "that is the shape of one of Q, K, V; the one product holds all three "
                    "side by side"
                ),
            )
            * 2,
            (d, width): (
                tr("that is W_QKV's shape; X @ W_QKV keeps X's rows and takes W_QKV's columns"),
            )
            * 2,
            (n, d): (tr("that is X's shape; X @ W_QKV takes its columns from W_QKV"),) * 2,
        }
        step = tr("X @ W_QKV: which factor gives the rows, and which the columns?")
        why, slip = known.get(
            shape, (tr("(n, d) @ (d, 3 d_k) -> (n, 3 d_k): one row per token"), step)
        )
        if shape == QKV.shape[::-1]:
            why = slip = tr("rows are tokens: the first number counts the tokens")
    elif cols == blocks[0]:
        why = slip = tr("those are Q's columns: W_QKV holds W_Q, W_K and W_V in that order")
    elif cols == blocks[2]:
        why = slip = tr("those are V's columns: W_QKV holds W_Q, W_K and W_V in that order")
    elif cols == list(range(1, width, 3)) or cols == list(range(0, width, 3)):
        why = slip = tr(
            "those columns are one in every three, interleaved; W_Q, W_K and W_V sit side "
            "by side as blocks of d_k columns each"
        )
    elif cols == [c + 1 for c in owns]:
        why = tr("the columns count from 0: K's are {cols}", cols=owns)
        slip = tr("did you count the columns from 1? Python counts them from 0")
    else:
        why = tr(
            "W_QKV = [W_Q | W_K | W_V]: Q is columns {q}, K is columns {k}, V is columns {v}",
            q=blocks[0],
            k=blocks[1],
            v=blocks[2],
        )
        slip = tr(
            "W_QKV = [W_Q | W_K | W_V], each block d_k columns wide: which columns does "
            "the second block take, counting from 0?"
        )
    raise wrong(answer, said, why, slip)
