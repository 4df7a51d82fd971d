"""Checks for the exercises of notebook 07 (next steps): a causal mask, masked weights, heads.

Each check compares the learner's answer with attnlib (``causal_mask``,
``padding_mask``, ``self_attention(..., mask=...)``, ``multi_head_attention``)
and names the usual slip with a hint of its own: the mask's convention turned
round (True = blocked, as in ``nn.MultiheadAttention``), the triangle on the
wrong side, padded query rows taken for blocked ones, columns of the heads
interleaved instead of taken in blocks. How a check runs and reports is
:mod:`attnlib.checks.runner`.

==============================  ============================================================
check                           the question
==============================  ============================================================
check_causal_mask               ``func(n)``: True where query i may attend to key j <= i
check_prediction_zero_weights   which weights are 0 for a sentence of 3 tokens padded to 5,
                                under a causal mask
check_split_heads               ``func(M, heads)``: (n, heads·d_k) -> (heads, n, d_k), in blocks
check_merge_heads               ``func(parts)``: (heads, n, d_v) -> (n, heads·d_v), the way back
check_window_mask               ``func(n, w)``: a sliding window, i - w <= j <= i (transfer)
==============================  ============================================================

The notebook's predictions are :mod:`.next_predictions`. A first wrong try is told
the slip (or the step to redo); the answer comes with the second (or with ``reveal=True``), as
:mod:`.runner` arranges.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ...i18n import tr
from ...maths.core import (
    causal_mask,
    multi_head_attention,
    padding_mask,
    self_attention,
)
from ...maths.data import toy_example, toy_multi_head
from .reading import written, wrong
from .runner import Failure, call, check, close, compare, expect_array, expect_value

SIZES = (4, 7, 1)  # the n a causal mask is checked at; 4 first, where every slip differs


def _pairs(cells: np.ndarray) -> str:
    # (rows, cols) bool -> "(0, 1), (0, 2), ..." with at most 8 pairs
    found = [f"({int(i)}, {int(j)})" for i, j in np.argwhere(cells)]
    return ", ".join(found[:8]) + (", ..." if len(found) > 8 else "") if found else tr("none")


@check
def check_causal_mask(func: Callable) -> str:
    """Check ``func(n) -> mask``: the causal mask of n tokens, True where query i may see key j.

    attnlib's convention (and PyTorch's ``scaled_dot_product_attention``'s):
    True means *may attend*. Query i sees keys 0 ... i, so the mask is True on
    and below the diagonal. Tested at n = 4, 7 and 1.

    Parameters
    ----------
    func : callable
        ``func(n)`` returns a boolean array of shape (n, n).

    Returns
    -------
    CheckResult
        Passed, or what went wrong and a hint.

    Examples
    --------
    >>> check_causal_mask(lambda n: np.triu(np.ones((n, n), dtype=bool)))
    ✗ check_causal_mask: for n = 4 your mask is True above the diagonal: query 0 would see every later key
      Hint: row i is query i and may see keys j <= i: on and below the diagonal, not above
    """  # noqa: E501
    hint = tr("True where query i may attend to key j, that is where j <= i: print your mask")
    for n in SIZES:
        got = call(func, n, hint=hint)
        got = expect_value(got, f"n = {n}", tr("end with `return mask`"))
        arr = np.asarray(got)
        right = causal_mask(n)  # (n, n) bool
        if arr.shape != right.shape:
            raise Failure(
                tr(
                    "for n = {n} you returned shape {got}, expected {want}",
                    n=n,
                    got=arr.shape,
                    want=right.shape,
                ),
                hint,
            )
        if arr.dtype != bool:
            values = expect_array(arr, f"n = {n}", hint)
            if set(np.unique(values)) <= {0.0, 1.0} and np.array_equal(values == 1, right):
                raise Failure(
                    tr(
                        "for n = {n} your mask holds the right 1s and 0s but as {dtype}",
                        n=n,
                        dtype=arr.dtype,
                    ),
                    tr(
                        "attnlib wants booleans (True = may attend): your mask holds numbers; "
                        "what dtype must it have?"
                    ),
                )
            raise Failure(
                tr("for n = {n} your mask has dtype {dtype}, not bool", n=n, dtype=arr.dtype),
                hint,
            )
        if n > 1 and np.array_equal(arr, ~right):
            raise Failure(
                tr(
                    "for n = {n} your mask is True where the query may NOT look: the convention "
                    "of nn.MultiheadAttention's attn_mask",
                    n=n,
                ),
                tr(
                    "attnlib, like scaled_dot_product_attention, uses True = may attend: "
                    "your True and False are the other way round"
                ),
            )
        if n > 1 and np.array_equal(arr, right.T):
            raise Failure(
                tr(
                    "for n = {n} your mask is True above the diagonal: query 0 would see every "
                    "later key",
                    n=n,
                ),
                tr(
                    "row i is query i and may see keys j <= i: on and below the diagonal, not above"
                ),
            )
        if np.array_equal(arr, right & ~np.eye(n, dtype=bool)):
            raise Failure(
                tr(
                    "for n = {n} your mask leaves out the diagonal: query i may not see itself",
                    n=n,
                )
                + (tr(", and row 0 has no key at all") if n else ""),
                tr("each token may attend to itself: j <= i, not j < i"),
            )
        wrong = arr != right
        if wrong.any():
            raise Failure(
                tr(
                    "for n = {n} your mask differs from the causal mask at (i, j) = {pairs}",
                    n=n,
                    pairs=_pairs(wrong),
                ),
                hint,
            )
    return tr("True on and below the diagonal for n = 4, 7 and 1: query i sees keys 0 … i")


@check
def check_prediction_zero_weights(answer, length: int = 3, n: int = 5, causal: bool = True) -> str:
    """Check a prediction of which weights are exactly 0 under ``causal_mask(n) & padding_mask``.

    The question of notebook 07: a sentence of `length` real tokens padded to
    `n`, with a causal mask too. Which entries (i, j) of the weights are 0?

    Parameters
    ----------
    answer : boolean array of shape (n, n), or a collection of pairs (i, j)
        True (or listed) where you predict the weight is exactly 0.
    length, n : int, default 3 and 5
    causal : bool, default True
        With the causal mask too (the exercise), or the padding mask alone.

    Returns
    -------
    CheckResult
        Passed (exact match), or the right cells and why.

    Examples
    --------
    >>> from attnlib import causal_mask
    >>> bool(check_prediction_zero_weights(~causal_mask(5)))
    False
    """
    written(answer)
    mask = padding_mask(length, n)  # (n, n), True = may attend
    if causal:
        mask = mask & causal_mask(n)
    ex = toy_example(n, seed=0)
    right = self_attention(*ex[1:], mask=mask).weights == 0  # (n, n): the zeros, computed
    guess = _as_cells(answer, n)
    if np.array_equal(guess, right) and not causal:
        return tr(
            "right: {count} zeros, the padded keys (columns j >= {length}) in every row; "
            "the padded queries' rows keep weights on the real keys",
            count=int(right.sum()),
            length=length,
        )
    if np.array_equal(guess, right):
        return tr(
            "right: {count} zeros: every key after the query (j > i) and every "
            "padded key (j >= {length}); the padded queries' rows keep weights on the real keys",
            count=int(right.sum()),
            length=length,
        )
    said = tr(
        "you predicted zeros at {guess}; the zeros are at {right}",
        guess=_pairs(guess),
        right=_pairs(right),
    )
    padded_rows = np.zeros((n, n), dtype=bool)
    padded_rows[length:] = True
    if causal and np.array_equal(guess, ~causal_mask(n)):
        why = tr(
            "the causal triangle is right, but keys {length} … {last} are padding: "
            "every query gets weight 0 on them too",
            length=length,
            last=n - 1,
        )
        slip = tr(
            "the causal triangle is right, but the padded keys get weight 0 too, from every query"
        )
    elif causal and np.array_equal(guess, ~padding_mask(length, n)):
        why = slip = tr(
            "the padded keys are right, but the causal mask also hides every later key (j > i)"
        )
    elif np.array_equal(guess, right.T):
        why = slip = tr(
            "row i is the query, column j the key: transposed, your zeros are the right ones"
        )
    elif np.array_equal(guess, right | padded_rows):
        why = tr(
            "a padded query (row i >= {length}) is not blocked: padding_mask blocks keys "
            "(columns) only, so its row still has weights that sum to 1; its output is "
            "simply thrown away",
            length=length,
        )
        slip = tr(
            "a padded query is not blocked: padding_mask blocks keys (columns) only, so a "
            "padded token's row still has weights; its output is simply thrown away"
        )
    elif causal:
        why = tr("a weight is 0 exactly where the mask is False: j > i (causal) or j is padding")
        slip = tr("print the mask: a weight is 0 exactly where its entry is False")
    else:
        why = tr(
            "a weight is 0 exactly where the mask is False: the padded keys j >= {length}",
            length=length,
        )
        slip = tr("print the mask: a weight is 0 exactly where its entry is False")
    raise wrong(answer, said, why, slip)


def _as_cells(answer, n: int) -> np.ndarray:
    # The learner's zeros as an (n, n) bool array: either that array, or pairs (i, j).
    if isinstance(answer, str):  # "[(0, 1), (0, 2)]": the pairs typed in quotes
        raise Failure(
            tr("your prediction {answer!r} is text (a str), not pairs (i, j)", answer=answer),
            tr("write the pairs without quotes, such as [(0, 1), (0, 2)]"),
        )
    arr = np.asarray(answer, dtype=object) if not isinstance(answer, np.ndarray) else answer
    if arr.shape == (n, n) and all(isinstance(v, (bool, np.bool_)) for v in arr.flat):
        return np.asarray(arr, dtype=bool)
    cells = np.zeros((n, n), dtype=bool)
    try:
        for i, j in answer:
            if isinstance(i, bool) or isinstance(j, bool) or not (0 <= i < n and 0 <= j < n):
                raise ValueError
            cells[int(i), int(j)] = True
    except (TypeError, ValueError):
        raise Failure(
            tr(
                "your prediction {answer!r} is neither a boolean ({n}, {n}) array nor pairs (i, j)",
                answer=answer,
                n=n,
            ),
            tr(
                "write pairs such as [(0, 1), (0, 2)] with i, j from 0 to {last}, "
                "or a boolean array of shape ({n}, {n}), True where the weight is 0",
                last=n - 1,
                n=n,
            ),
        ) from None
    return cells


def _heads_case() -> tuple[np.ndarray, int, int]:
    # W_Q of toy_multi_head with 3 heads of width 2: head ℓ is columns 2ℓ, 2ℓ + 1.
    ex = toy_multi_head(n=4, d=6, d_k=2, heads=3, seed=7)
    return ex.W_Q, 3, 2


@check
def check_split_heads(func: Callable) -> str:
    """Check ``func(M, heads) -> parts``: (n, heads·d_k) cut into `heads` blocks of d_k columns.

    ``parts[ℓ]`` must be ``M[:, ℓ·d_k:(ℓ+1)·d_k]``, the columns head ℓ uses in
    :func:`attnlib.multi_head_attention`. Tested on a (6, 6) W_Q of 3 heads of
    width 2, so rows, columns and heads are told apart.

    Parameters
    ----------
    func : callable
        ``func(M, heads)`` with M of shape (n, heads * d_k); returns an array
        of shape (heads, n, d_k).

    Returns
    -------
    CheckResult

    Examples
    --------
    >>> check_split_heads(lambda M, heads: M.reshape(heads, M.shape[0], -1))
    ✗ check_split_heads: parts[0] mixes rows of M: reshape reads M row by row, ...
      Hint: head ℓ takes the block of columns ℓ·d_k … (ℓ+1)·d_k − 1 of every row: ...
    """
    M, heads, d_k = _heads_case()
    n = M.shape[0]
    blocks = [M[:, head * d_k : (head + 1) * d_k] for head in range(heads)]  # heads x (n, d_k)
    right = np.stack(blocks)  # (heads, n, d_k)
    hint = tr(
        "head ℓ takes the block of columns ℓ·d_k … (ℓ+1)·d_k − 1 of every row: print "
        "parts[0] and compare it with those columns of M"
    )
    what = tr("M of shape {shape} and heads = {heads}", shape=M.shape, heads=heads)
    got = expect_array(call(func, M.copy(), heads, hint=hint), what, hint)
    if close(got, M.reshape(heads, n, d_k)):
        raise Failure(
            tr(
                "parts[0] mixes rows of M: reshape reads M row by row, so the first block "
                "takes rows 0 and 1 whole instead of columns 0 … {last} of every row",
                last=d_k - 1,
            ),
            hint,
        )
    if close(got, M.reshape(n, d_k, heads).transpose(2, 0, 1)):
        raise Failure(
            tr(
                "your head 0 takes the columns 0, {heads}, {twice}, …, one in every {heads}: "
                "interleaved, not a block",
                heads=heads,
                twice=2 * heads,
            ),
            hint,
        )
    if got.shape == (n, heads, d_k):
        raise Failure(
            tr(
                "you returned shape {got}, (n, heads, d_k); expected {want}, "
                "one (n, d_k) matrix per head",
                got=got.shape,
                want=right.shape,
            ),
            tr("the heads axis must come first: which two axes trade places?"),
        )
    compare(got, right, what, hint)
    return tr(
        "parts[ℓ] = M[:, {d_k}ℓ : {d_k}(ℓ+1)]: {heads} heads of shape {shape}",
        d_k=d_k,
        heads=heads,
        shape=right.shape[1:],
    )


@check
def check_merge_heads(func: Callable) -> str:
    """Check ``func(parts) -> M``: the heads' (n, d_v) blocks put back side by side, (n, heads·d_v).

    The way back from :func:`check_split_heads`, and what
    :func:`attnlib.multi_head_attention` does with the heads' outputs: its
    ``Z`` is the concatenation of every ``heads[h].Z``. Tested on the heads'
    outputs of a 3-head pass and on a split W_Q.

    Parameters
    ----------
    func : callable
        ``func(parts)`` with parts of shape (heads, n, d_v); returns (n, heads * d_v).

    Returns
    -------
    CheckResult

    Examples
    --------
    >>> check_merge_heads(lambda parts: np.concatenate(list(parts), axis=1))
    ✓ check_merge_heads: ...
    """
    hint = tr(
        "put the blocks side by side, head 0 first: row i of the result holds token i's "
        "row of every head; print your row 0 and compare it with parts[:, 0]"
    )
    ex = toy_multi_head(n=5, d=8, d_k=2, d_v=3, heads=3, seed=4)
    mh = multi_head_attention(*ex[1:6], heads=ex.heads)
    M, heads, w = _heads_case()
    cases = [
        (
            tr("the outputs of 3 heads, each (5, 3)"),
            np.stack([att.Z for att in mh.heads]),
            mh.Z,
        ),
        (
            tr("W_Q split into {heads} blocks of {w}", heads=heads, w=w),
            np.stack(np.split(M, heads, axis=1)),
            M,
        ),
    ]
    for what, parts, right in cases:
        got = expect_array(call(func, parts.copy(), hint=hint), what, hint)
        heads_, n, w_ = parts.shape
        if got.shape == (heads_ * n, w_):
            raise Failure(
                tr(
                    "for {what} you returned shape {got}: the heads stacked as rows",
                    what=what,
                    got=got.shape,
                ),
                tr(
                    "each token keeps one row: the heads go side by side along the "
                    "columns, not below each other"
                ),
            )
        if close(got, parts.reshape(n, heads_ * w_)):
            raise Failure(
                tr(
                    "for {what} your rows mix tokens: reshape reads the parts head by head",
                    what=what,
                ),
                hint,
            )
        compare(got, right, what, hint)
    return tr("the heads side by side, head 0 first: equal to multi_head_attention's Z")


WINDOW_SIZES = ((6, 2), (5, 0), (4, 10))  # (n, w): a window inside, no window, wider than n


@check
def check_window_mask(func: Callable) -> str:
    """Check ``func(n, w) -> mask``: query i may attend to itself and the w tokens before it.

    A sliding-window mask, a causal mask that also hides keys more than w
    back: True where i - w <= j <= i. Tested at (n, w) = (6, 2), (5, 0) and (4, 10).

    Examples
    --------
    >>> bool(check_window_mask(lambda n, w: causal_mask(n)))
    False
    """
    hint = tr("start from the causal mask and also block the keys with j < i - w")
    for n, w in WINDOW_SIZES:
        got = expect_value(call(func, n, w, hint=hint), f"n = {n}, w = {w}")
        arr = np.asarray(got)
        right = np.array([[i - w <= j <= i for j in range(n)] for i in range(n)])  # by loops
        if arr.shape != right.shape:
            raise Failure(
                tr(
                    "for n = {n}, w = {w} you returned shape {got}, expected {want}",
                    n=n,
                    w=w,
                    got=arr.shape,
                    want=right.shape,
                ),
                hint,
            )
        if arr.dtype != bool:
            raise Failure(
                tr("your mask is {dtype}, not boolean", dtype=arr.dtype),
                tr("masks are True/False: your mask holds numbers"),
            )
        if np.array_equal(arr, right):
            continue
        if np.array_equal(arr, causal_mask(n)):
            raise Failure(
                tr("for n = {n}, w = {w} you returned the whole causal mask", n=n, w=w),
                tr("query i may not see keys more than w = {w} back (j < i - w)", w=w),
            )
        if np.array_equal(arr, right.T):
            raise Failure(
                tr("for n = {n}, w = {w} your window looks forward, not back", n=n, w=w),
                tr("row i is the query: it sees keys j <= i, below the diagonal"),
            )
        wrong_cell = tuple(int(k) for k in np.argwhere(arr != right)[0])
        raise Failure(
            tr(
                "for n = {n}, w = {w}, entry {cell} is {got} but should be {want}",
                n=n,
                w=w,
                cell=wrong_cell,
                got=bool(arr[wrong_cell]),
                want=bool(right[wrong_cell]),
            ),
            tr("query i sees itself and the w tokens before it: j from i - w to i"),
        )
    return tr("passed: query i sees keys i - w … i, for (n, w) = (6, 2), (5, 0) and (4, 10)")
