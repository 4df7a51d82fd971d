"""Checks of predictions: shapes and counts of 01 and 02.

Every ``check_prediction_*(answer, ...)`` takes the learner's prediction
first; the keywords after it set the question (sizes, an Attention, a row),
and their defaults are the question the notebook asks. The right answer is
computed with attnlib, never typed in. A wrong prediction fails with the
right answer in the message and the reason in the hint; typical slips (a
transposed shape, d_k instead of √d_k, a column read instead of a row) get a
reason of their own. A first wrong try is told the slip in words that give no number of the
answer (or, where no slip is recognised, the step to redo); the answer comes
with the second wrong try, or at once with ``reveal=True``.
``...`` (the notebooks' placeholder) or None says that no prediction is
written yet.

Shapes and indices must be exact. Numbers pass within the tolerance stated
in each docstring (two decimals for a score or a weight worked out by hand).

========================================  ========  =======================================
check                                     notebook  the question (defaults)
========================================  ========  =======================================
check_prediction_cross_shape              01        scores of 3 queries against 5 keys
check_prediction_cost_ratio               01        n doubles: how many times more scores?
check_prediction_X_shape                  02        X for 6 tokens with d = 8
check_prediction_embedding_row            02        the table row token 4 ("the") picks
========================================  ========  =======================================

Examples
--------
>>> check_prediction_cross_shape((3, 5))
✓ check_prediction_cross_shape: right: (3, 5), one row per query and one column per key
>>> check_prediction_cross_shape((5, 3))
✗ check_prediction_cross_shape: your prediction (5, 3) is not right yet
  Hint: rows and columns are the wrong way round: row i holds query i's scores against every key
  Try again; a second wrong try, or reveal=True, shows the worked answer.
>>> check_prediction_cross_shape((5, 3))
✗ check_prediction_cross_shape: you predicted (5, 3), but the scores of 3 queries against 5 keys have shape (3, 5)
  Hint: that is the transpose: row i holds query i's scores against every key, so there are n_q = 3 rows

03's predictions (the shapes of Q, K, V and of a fused product) are checked in
:mod:`.projections`, those of 04 and 05, worked out by hand, in :mod:`.worked`
and :mod:`.weights`; every module reads the learner's answer with the helpers of
:mod:`.reading`.
"""  # noqa: E501

from __future__ import annotations

import numpy as np

from ...i18n import tr
from ...maths.core import attention, self_attention
from ...maths.data import embedding_table, toy_example, vocabulary
from .reading import as_index, as_number, as_shape, wrong
from .runner import check


def shape_reason(shape, right, known: dict, otherwise: str) -> str:
    """Why `shape` is not `right`: the transpose, a shape from the `known` table, or `otherwise`."""
    if shape == tuple(right)[::-1] and shape != tuple(right):
        return tr("rows are tokens: the first number counts the tokens")
    return known.get(shape, otherwise)


# --- 01 what is self-attention ---


@check
def check_prediction_cross_shape(answer: tuple[int, ...], n_q: int = 3, n_kv: int = 5) -> str:
    """Check a predicted shape of the score matrix of `n_q` queries against `n_kv` keys (01).

    Parameters
    ----------
    answer : tuple of int
        The predicted shape.
    n_q, n_kv : int, default 3 and 5
        Queries come from a sequence of n_q tokens, keys from one of n_kv tokens.

    Returns
    -------
    CheckResult
        Passed (exact match), or the right shape and why.

    Examples
    --------
    >>> bool(check_prediction_cross_shape((4, 2), n_q=4, n_kv=2))
    True
    """
    shape = as_shape(answer)
    queries, keys = toy_example(n=n_q, seed=1), toy_example(n=n_kv, seed=2)
    d_k = queries.W_Q.shape[1]
    right = attention(queries.X, keys.X, queries.W_Q, queries.W_K, queries.W_V).scores.shape
    if shape == right:
        return tr("right: {right}, one row per query and one column per key", right=right)
    said = tr(
        "you predicted {got}, but the scores of {n_q} queries against {n_kv} keys "
        "have shape {want}",
        got=shape,
        n_q=n_q,
        n_kv=n_kv,
        want=right,
    )
    # (why, with the answer; the slip, without it), for each shape a usual slip gives
    square = (
        tr(
            "a square matrix pairs a sequence with itself; here queries come from one "
            "sequence and keys from the other: n_q rows, n_kv columns"
        ),
        tr(
            "a square matrix pairs a sequence with itself; here queries come from one "
            "sequence and keys from the other"
        ),
    )
    qk = (tr("that is the shape of Q or K; the scores Q Kᵀ pair every query with every key"),) * 2
    # later entries win where two coincide: the transpose is the likeliest slip
    known = {(n_q, d_k): qk, (n_kv, d_k): qk, (n_q, n_q): square, (n_kv, n_kv): square}
    known[right[::-1]] = (
        tr(
            "that is the transpose: row i holds query i's scores against every key, "
            "so there are n_q = {n_q} rows",
            n_q=n_q,
        ),
        tr(
            "rows and columns are the wrong way round: row i holds query i's scores "
            "against every key"
        ),
    )
    step = tr("which sequence gives the rows of the scores, and which the columns?")
    why, slip = known.get(
        shape, (tr("one score per (query, key) pair: n_q rows and n_kv columns"), step)
    )
    raise wrong(answer, said, why, slip)


@check
def check_prediction_cost_ratio(answer: float, factor: int = 2) -> str:
    """Check a predicted growth of the number of scores when n grows `factor` times (01).

    Parameters
    ----------
    answer : number
        How many times more scores (entries of the n × n score matrix).
    factor : int, default 2
        The sequence becomes `factor` times longer.

    Returns
    -------
    CheckResult
        Passed (exact: the ratio is a whole number), or the right ratio and why.

    Examples
    --------
    >>> check_prediction_cost_ratio(4)
    ✓ check_prediction_cost_ratio: right: 4 times, because the score matrix is n × n: ...
    """
    ratio = as_number(answer)
    n = 6
    short = self_attention(*toy_example(n=n)[1:]).scores
    long = self_attention(*toy_example(n=factor * n)[1:]).scores
    right = long.size // short.size
    if np.isclose(ratio, right, rtol=0, atol=1e-9):
        return tr(
            "right: {right} times, because the score matrix is n × n: "
            "{n} tokens give {short} scores, {n_long} give {long}",
            right=right,
            n=n,
            short=short.size,
            n_long=factor * n,
            long=long.size,
        )
    said = tr(
        "you predicted {got:g}, but {n_long} tokens have {right} times the scores "
        "of {n} ({long} against {short})",
        got=ratio,
        n_long=factor * n,
        right=right,
        n=n,
        long=long.size,
        short=short.size,
    )
    if np.isclose(ratio, factor):
        why = tr(
            "that is how Q, K and V grow (one row per token); the scores pair every "
            "token with every token, so rows and columns both grow {factor} times",
            factor=factor,
        )
        slip = tr(
            "that is how Q, K and V grow, one row per token; the scores pair every token "
            "with every token: what happens to their rows, and to their columns?"
        )
    else:
        why = tr(
            "the score matrix is n × n: {factor} times more rows and {factor} times more columns",
            factor=factor,
        )
        slip = tr("count the scores: how many rows and how many columns?")
    raise wrong(answer, said, why, slip)


@check
def check_prediction_moved_token(answer: int, perm=(5, 3, 0, 4, 1, 2), i: int = 1) -> str:
    """Check where token `i`'s output lands when the tokens are reordered by `perm` (01).

    ``X_new = X[perm]``: row r of X_new is old token ``perm[r]``. The right
    answer is found by running self-attention on X_new and looking for the row
    that equals the old z_i.

    Parameters
    ----------
    answer : int
        The predicted row of the new Z that holds token i's output.
    perm : sequence of int, default (5, 3, 0, 4, 1, 2)
        The new order, as in notebook 01.
    i : int, default 1
        The old position of the token ("cat" in the toy sentence).

    Returns
    -------
    CheckResult
        Passed, or the new row and why.

    Examples
    --------
    >>> bool(check_prediction_moved_token(4))
    True
    """
    perm = np.asarray(perm)
    n = len(perm)
    if sorted(perm.tolist()) != list(range(n)) or not 0 <= i < n:
        raise ValueError(
            tr(
                "perm must reorder 0 to {last} and i be one of them, got {perm}, {i}",
                last=n - 1,
                perm=perm,
                i=i,
            )
        )
    ex = toy_example(n=n)
    old = self_attention(ex.X, ex.W_Q, ex.W_K, ex.W_V).Z  # (n, d_v)
    new = self_attention(ex.X[perm], ex.W_Q, ex.W_K, ex.W_V).Z  # (n, d_v): the reordered tokens
    rows = [r for r in range(n) if np.allclose(new[r], old[i])]
    r = as_index(answer, n)
    word = ex.tokens[i]
    if r in rows:
        return tr(
            "right: row {r}, because perm[{r}] = {i}: {word!r} keeps its output, z moves with it",
            r=r,
            i=i,
            word=word,
        )
    said = tr(
        "you predicted row {r}, but the output of {word!r} is now in row {right}",
        r=r,
        word=word,
        right=rows[0],
    )
    if r == perm[i]:
        why = tr(
            "perm[{i}] = {p} says which old token goes to row {i}; you need the row r "
            "with perm[r] = {i}",
            i=i,
            p=int(perm[i]),
        )
        slip = tr(
            "you read perm the other way round: perm[{i}] says which old token goes to "
            "row {i}, not where token {i} goes",
            i=i,
        )
    elif r == i:
        why = slip = tr("the token moved: row r of X[perm] is old token perm[r]")
    else:
        why = tr("row r of X[perm] is old token perm[r]: find the r with perm[r] = {i}", i=i)
        slip = tr("row r of X[perm] is old token perm[r]: which r holds token {i}?", i=i)
    raise wrong(answer, said, why, slip)


# --- 02 input embedding ---


@check
def check_prediction_X_shape(answer: tuple[int, ...], n: int = 6, d: int = 8) -> str:
    """Check a predicted shape of X for a sentence of `n` tokens embedded in length `d` (02).

    Parameters
    ----------
    answer : tuple of int
        The predicted shape.
    n, d : int, default 6 and 8
        Tokens in the sentence and length of each embedding.

    Returns
    -------
    CheckResult
        Passed (exact match), or the right shape and why.

    Examples
    --------
    >>> bool(check_prediction_X_shape((6, 8))), bool(check_prediction_X_shape((8, 6)))
    (True, False)
    """
    shape = as_shape(answer)
    right = toy_example(n=n, d=d).X.shape
    V = len(vocabulary())
    if shape == right:
        return tr("right: {right}, one row of length d = {d} per token", right=right, d=d)
    said = tr(
        "you predicted {got}, but X for {n} tokens with d = {d} has shape {want}",
        got=shape,
        n=n,
        d=d,
        want=right,
    )
    known = {
        (V, d): tr(
            "that is the embedding table, one row for each of the {V} vocabulary words; "
            "X holds only the rows of the {n} tokens",
            V=V,
            n=n,
        ),
        (n, V): tr("that is the one-hot matrix; X = one_hot @ table has the table's d columns"),
    }
    why = shape_reason(
        shape,
        right,
        known,
        tr("one row per token, and each row is that token's embedding of length d"),
    )
    slips = {
        (V, d): tr(
            "that is the embedding table, one row for each vocabulary word; "
            "X holds only the rows of the sentence's tokens"
        ),
        (n, V): known[(n, V)],
    }
    slip = shape_reason(
        shape,
        right,
        slips,
        tr("what does one row of X hold, and how many rows are there?"),
    )
    raise wrong(answer, said, why, slip)


@check
def check_prediction_embedding_row(answer: int, i: int = 4) -> str:
    """Check a predicted row of the embedding table that token `i` of the toy sentence picks (02).

    Parameters
    ----------
    answer : int
        The predicted row of the table, so that x_i is ``table[answer]``.
    i : int, default 4
        A position in the toy sentence ("the cat sat on the mat ..."): token 4
        is the second "the".

    Returns
    -------
    CheckResult
        Passed (exact match), or the right row and why.

    Examples
    --------
    >>> from attnlib.data import VOCABULARY
    >>> bool(check_prediction_embedding_row(VOCABULARY.index("the")))
    True
    """
    ex = toy_example(n=i + 1)
    word = ex.tokens[i]
    table = embedding_table()  # (V, d), the table toy_example looks X up in
    right = int(np.flatnonzero((table == ex.X[i]).all(axis=1))[0])
    v = as_index(answer, len(vocabulary()))
    first = ex.tokens.index(word)
    if v == right:
        extra = (
            tr("; token {first} is {word!r} too and gets the same row", first=first, word=word)
            if first != i
            else ""
        )
        return tr(
            "right: row {right}, because VOCABULARY[{right}] is {word!r}{extra}",
            right=right,
            word=word,
            extra=extra,
        )
    said = tr(
        "you predicted row {v}, but token {i} ({word!r}) picks row {right} of the table",
        v=v,
        i=i,
        word=word,
        right=right,
    )
    if v == first != i:
        why = tr(
            "token {first} is {word!r} too, so both tokens share one row, but rows are "
            "numbered by the vocabulary (sorted words): VOCABULARY.index({word!r}) = {right}",
            first=first,
            word=word,
            right=right,
        )
        slip = tr(
            "token {first} is {word!r} too, so both tokens share one row, but that row is "
            "numbered by the vocabulary (sorted words), not by a position in the sentence",
            first=first,
            word=word,
        )
    elif v == i:
        why = tr(
            "{v} is the position in the sentence; the table is indexed by the vocabulary "
            "(sorted words): VOCABULARY.index({word!r}) = {right}",
            v=v,
            word=word,
            right=right,
        )
        slip = tr(
            "{v} is the position in the sentence; the table is indexed by the vocabulary "
            "(sorted words): where does {word!r} stand in VOCABULARY?",
            v=v,
            word=word,
        )
    elif v == right + 1:
        why = tr(
            "row {v} is {other!r}, the word after {word!r}: rows count from 0, "
            "and VOCABULARY.index({word!r}) = {right}",
            v=v,
            other=vocabulary()[v],
            word=word,
            right=right,
        )
        slip = tr(
            "row {v} is {other!r}, not {word!r}: did you count the rows from 1? "
            "Python counts them from 0",
            v=v,
            other=vocabulary()[v],
            word=word,
        )
    else:
        why = tr(
            "row {v} is {other!r}; the row of {word!r} is VOCABULARY.index({word!r})",
            v=v,
            other=vocabulary()[v],
            word=word,
        )
        slip = tr(
            "row {v} of the table is {other!r}, not {word!r}: the rows follow VOCABULARY, "
            "whose words are sorted",
            v=v,
            other=vocabulary()[v],
            word=word,
        )
    raise wrong(answer, said, why, slip)
