"""Checks of predictions: a shape, a number or an index written down before the cell that computes it.

Every ``check_prediction_*(answer, ...)`` takes the learner's prediction
first; the keywords after it set the question (sizes, an Attention, a row),
and their defaults are the question the notebook asks. The right answer is
computed with attnlib, never typed in. A wrong prediction fails with the
right answer in the message and the reason in the hint; typical slips (a
transposed shape, d_k instead of √d_k, a column read instead of a row) get a
reason of their own. A first wrong try is told only which step to redo; the
answer comes with the second wrong try, or at once with ``reveal=True``. ``...`` (the notebooks' placeholder) or None says that no
prediction is written yet.

Shapes and indices must be exact. Numbers pass within the tolerance stated
in each docstring (two decimals for a score or a weight worked out by hand).

========================================  ========  =======================================
check                                     notebook  the question (defaults)
========================================  ========  =======================================
check_prediction_cross_shape              01        scores of 3 queries against 5 keys
check_prediction_cost_ratio               01        n doubles: how many times more scores?
check_prediction_X_shape                  02        X for 6 tokens with d = 8
check_prediction_embedding_row            02        the table row token 4 ("the") picks
check_prediction_qkv_shapes               03        Q, K, V for n = 5, d = 6, d_k = 3, d_v = 2
check_prediction_score                    04        score_01 by hand
check_prediction_score_variance           04        var(q · k) at d_k = 64, unscaled
check_prediction_winner                   04        which key wins row 1
check_prediction_doubled_scores           05        every score doubled: the weights become?
check_prediction_alpha                    05        α_12 by hand
========================================  ========  =======================================

Examples
--------
>>> check_prediction_cross_shape((3, 5))
✓ check_prediction_cross_shape: right: (3, 5), one row per query and one column per key
>>> check_prediction_cross_shape((5, 3))
✗ check_prediction_cross_shape: your prediction (5, 3) is not right yet
  Hint: which sequence gives the rows of the scores, and which the columns?
  Try again; a second wrong try, or reveal=True, shows the worked answer.
>>> check_prediction_cross_shape((5, 3))
✗ check_prediction_cross_shape: you predicted (5, 3), but the scores of 3 queries against 5 keys have shape (3, 5)
  Hint: that is the transpose: row i holds query i's scores against every key, so there are n_q = 3 rows
"""  # noqa: E501

from __future__ import annotations

import numbers

import numpy as np

from ..core import Attention, attention, self_attention, softmax
from ..data import VOCABULARY, embedding_table, toy_example
from ..i18n import tr
from ..stats import score_variance
from .runner import Failure, check

#: Choices for check_prediction_doubled_scores.
DOUBLED_CHOICES = ("sharper", "flatter", "unchanged", "doubled")

SCORE_TOLERANCE = 0.01  # absolute: a score or a weight worked out by hand, to two decimals
VARIANCE_TOLERANCE = 0.10  # relative: a variance estimated by a simulation also counts


# --- reading the learner's answer ---


def _written(answer) -> None:
    if answer is None or answer is Ellipsis:
        raise Failure(
            tr("you have not written a prediction yet"),
            tr("replace ... with your prediction, then run the cell again"),
        )


def _as_shape(answer) -> tuple[int, ...]:
    _written(answer)
    try:
        shape = tuple(answer)
        if all(isinstance(s, numbers.Integral) and not isinstance(s, bool) for s in shape):
            return tuple(int(s) for s in shape)
    except TypeError:
        pass
    raise Failure(
        tr("your prediction {answer!r} is not a shape", answer=answer),
        tr("a shape is a tuple of ints, such as (3, 5)"),
    )


def _as_number(answer) -> float:
    _written(answer)
    if isinstance(answer, numbers.Real) and not isinstance(answer, bool):
        return float(answer)
    raise Failure(
        tr("your prediction {answer!r} is not a number", answer=answer),
        tr("write a number such as 0.25 (no quotes)"),
    )


def _as_index(answer, n: int) -> int:
    _written(answer)
    if isinstance(answer, numbers.Integral) and not isinstance(answer, bool) and 0 <= answer < n:
        return int(answer)
    raise Failure(
        tr(
            "your prediction {answer!r} is not an index from 0 to {last}", answer=answer, last=n - 1
        ),
        tr("write the index as an int, counting from 0"),
    )


def _wrong(answer, said: str, why: str, step: str) -> Failure:
    """A wrong prediction: first only the step to redo, then the answer and the reason."""
    return Failure(
        said, why, first=(tr("your prediction {answer!r} is not right yet", answer=answer), step)
    )


def _shape_reason(shape, right, known: dict, otherwise: str) -> str:
    """Why `shape` is not `right`: the transpose, a shape from the `known` table, or `otherwise`."""
    if shape == tuple(right)[::-1] and shape != tuple(right):
        return tr("rows are tokens: the first number counts the tokens")
    return known.get(shape, otherwise)


def _small_example() -> Attention:
    """The default question of the by-hand checks: 3 tokens, d = d_k = 4 (seed 0)."""
    ex = toy_example(n=3, d=4, d_k=4, seed=0)
    return self_attention(ex.X, ex.W_Q, ex.W_K, ex.W_V)


def _numbers(values) -> str:
    return ", ".join(f"{v:.4g}" for v in values)


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
    shape = _as_shape(answer)
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
    square = tr(
        "a square matrix pairs a sequence with itself; here queries come from one "
        "sequence and keys from the other: n_q rows, n_kv columns"
    )
    qk = tr("that is the shape of Q or K; the scores Q Kᵀ pair every query with every key")
    # later entries win where two coincide: the transpose is the likeliest slip
    known = {(n_q, d_k): qk, (n_kv, d_k): qk, (n_q, n_q): square, (n_kv, n_kv): square}
    known[right[::-1]] = tr(
        "that is the transpose: row i holds query i's scores against every key, "
        "so there are n_q = {n_q} rows",
        n_q=n_q,
    )
    why = known.get(shape, tr("one score per (query, key) pair: n_q rows and n_kv columns"))
    step = tr("which sequence gives the rows of the scores, and which the columns?")
    raise _wrong(answer, said, why, step)


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
    ratio = _as_number(answer)
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
    else:
        why = tr(
            "the score matrix is n × n: {factor} times more rows and {factor} times more columns",
            factor=factor,
        )
    raise _wrong(answer, said, why, tr("count the scores: how many rows and how many columns?"))


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
    shape = _as_shape(answer)
    right = toy_example(n=n, d=d).X.shape
    V = len(VOCABULARY)
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
        (n, V): tr("that is the one-hot matrix H; X = H @ table has the table's d columns"),
    }
    why = _shape_reason(
        shape,
        right,
        known,
        tr("one row per token, and each row is that token's embedding of length d"),
    )
    raise _wrong(answer, said, why, tr("what does one row of X hold, and how many rows are there?"))


@check
def check_prediction_embedding_row(answer: int, i: int = 4) -> str:
    """Check a predicted row of the embedding table that token `i` of the toy sentence picks (02).

    Parameters
    ----------
    answer : int
        The predicted row index v, so that x_i is ``table[v]``.
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
    v = _as_index(answer, len(VOCABULARY))
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
    elif v == i:
        why = tr(
            "{v} is the position in the sentence; the table is indexed by the vocabulary "
            "(sorted words): VOCABULARY.index({word!r}) = {right}",
            v=v,
            word=word,
            right=right,
        )
    else:
        why = tr(
            "row {v} is {other!r}; the row of {word!r} is VOCABULARY.index({word!r})",
            v=v,
            other=VOCABULARY[v],
            word=word,
        )
    step = tr(
        "the table's rows are numbered by the vocabulary, not by the position in the sentence"
    )
    raise _wrong(answer, said, why, step)


# --- 03 Q, K, V ---


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
    _written(answer)
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
        shape = _as_shape(predicted)
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
        if label == "V" and right[1] != d_k:
            known[(n, d_k)] = tr(
                "V takes its columns from W_V, which has d_v columns; only Q and K need d_k"
            )
        otherwise = f"{label} = X @ {W}: (n, d) @ (d, {right[1]}) -> (n, {right[1]})"
        why = _shape_reason(shape, right, known, otherwise)
        step = tr("each is X times a weight matrix: the rows come from X, the columns from W")
        raise _wrong(answer, said, why, step)
    return tr(
        "right: Q and K are {qk}, V is {v}: one row per token, columns from W_Q, W_K and W_V",
        qk=att.Q.shape,
        v=att.V.shape,
    )


# --- 04 attention scores ---


@check
def check_prediction_score(
    answer: float, att: Attention | None = None, i: int = 0, j: int = 1
) -> str:
    """Check a score worked out by hand: ``score_ij = q_i · k_j / √d_k`` (04).

    Tolerance: within 0.01 of ``att.scores[i, j]``, so two decimals are enough.

    Parameters
    ----------
    answer : number
        The predicted score.
    att : Attention, optional
        The pass to read q_i and k_j from; by default a 3-token example with
        d = d_k = 4 (``toy_example(n=3, d=4, d_k=4)``). If it was computed
        with ``scaled=False`` the score is q_i · k_j itself.
    i, j : int, default 0 and 1
        The query (row) and the key (column).

    Returns
    -------
    CheckResult
        Passed, or the sum term by term and why.

    Examples
    --------
    >>> check_prediction_score(0.21, reveal=True)
    ✗ check_prediction_score: you predicted 0.21, but score_01 = 0.1069
      Hint: that is q_0 · k_1 = 0.2139 before the scaling; divide it by √d_k = 2
    """
    att = _small_example() if att is None else att
    guess = _as_number(answer)
    n_q, n_kv = att.scores.shape
    if not (0 <= i < n_q and 0 <= j < n_kv):
        raise ValueError(
            f"i must be from 0 to {n_q - 1} and j from 0 to {n_kv - 1}, got i = {i}, j = {j}"
        )
    q, k = att.Q[i], att.K[j]
    d_k = len(q)
    terms = q * k  # (d_k,): q_i[c] * k_j[c], coordinate by coordinate
    dot = float(terms.sum())
    right = float(att.scores[i, j])
    root = float(np.sqrt(d_k)) if att.scaled else 1.0
    working = " + ".join(f"({a:.3g})({b:.3g})" for a, b in zip(q, k, strict=True)) + f" = {dot:.4g}"
    if att.scaled:
        working += tr(", divided by √d_k = √{d_k} = {root:.4g}", d_k=d_k, root=root)
    if abs(guess - right) <= SCORE_TOLERANCE:
        return tr(
            "right: score_{i}{j} = {right:.4g}: q_{i} · k_{j} = {working}",
            i=i,
            j=j,
            right=right,
            working=working,
        )
    said = tr(
        "you predicted {guess:.4g}, but score_{i}{j} = {right:.4g}",
        guess=guess,
        i=i,
        j=j,
        right=right,
    )
    if att.scaled and abs(guess - dot) <= SCORE_TOLERANCE:
        why = tr(
            "that is q_{i} · k_{j} = {dot:.4g} before the scaling; divide it by √d_k = {root:.4g}",
            i=i,
            j=j,
            dot=dot,
            root=root,
        )
    elif att.scaled and abs(guess - dot / d_k) <= SCORE_TOLERANCE:
        why = tr(
            "you divided by d_k = {d_k}; the scaling divides by its square root, {root:.4g}",
            d_k=d_k,
            root=root,
        )
    elif i < n_kv and j < n_q and abs(guess - float(att.scores[j, i])) <= SCORE_TOLERANCE:
        why = tr(
            "that is score_{j}{i}, query {j} against key {i}; score_{i}{j} takes q from "
            "row {i} of Q and k from row {j} of K",
            i=i,
            j=j,
        )
    else:
        why = tr(
            "multiply q_{i} and k_{j} coordinate by coordinate and add: {working}",
            i=i,
            j=j,
            working=working,
        )
    step = tr(
        "redo it in three steps: the products q_{i}[c] k_{j}[c], their sum, then the scaling",
        i=i,
        j=j,
    )
    raise _wrong(answer, said, why, step)


@check
def check_prediction_score_variance(answer: float, d_k: int = 64) -> str:
    """Check the predicted variance of an unscaled score q · k at the given d_k (04).

    q and k have d_k independent entries of mean 0 and variance 1, so q · k is
    a sum of d_k products of variance 1 each: its variance is d_k. Tolerance:
    within 10% of d_k, so an estimate from a simulation also passes.

    Parameters
    ----------
    answer : number
        The predicted variance of q · k (not divided by √d_k).
    d_k : int, default 64
        Length of q and k.

    Returns
    -------
    CheckResult
        Passed, or the right variance and why.

    Examples
    --------
    >>> check_prediction_score_variance(8, reveal=True)
    ✗ check_prediction_score_variance: you predicted 8, but var(q · k) at d_k = 64 is about 64 ...
      Hint: √64 = 8 is the standard deviation; the variance is its square
    """
    guess = _as_number(answer)
    measured = float(score_variance([d_k], trials=20_000, seed=0).unscaled[0])
    right = d_k
    if abs(guess - right) <= VARIANCE_TOLERANCE * right:
        return tr(
            "right: about {right}, the sum of {d_k} products of variance 1 "
            "(20,000 random pairs give {measured:.3g})",
            right=right,
            d_k=d_k,
            measured=measured,
        )
    said = tr(
        "you predicted {guess:g}, but var(q · k) at d_k = {d_k} is about {right} "
        "(20,000 random pairs give {measured:.3g})",
        guess=guess,
        d_k=d_k,
        right=right,
        measured=measured,
    )
    if np.isclose(guess, 1.0):
        why = tr(
            "1 is the variance after dividing by √d_k; unscaled, the d_k products of "
            "variance 1 add up their variances"
        )
    elif np.isclose(guess, np.sqrt(d_k)):
        why = tr(
            "√{d_k} = {root:g} is the standard deviation; the variance is its square",
            d_k=d_k,
            root=np.sqrt(d_k),
        )
    else:
        why = tr(
            "q · k adds d_k = {d_k} independent products q_c k_c, each of variance 1, "
            "and variances of independent terms add",
            d_k=d_k,
        )
    step = tr(
        "q · k is a sum of d_k independent products: how do the variances of such terms combine?"
    )
    raise _wrong(answer, said, why, step)


@check
def check_prediction_winner(
    answer: int | str, att: Attention | None = None, i: int = 1, tokens=None
) -> str:
    """Check which key gets the largest weight in row `i`, the key j a query attends to most (04).

    Parameters
    ----------
    answer : int or str
        The predicted key: its index j, or its token as printed (e.g. ``"mice"``).
    att : Attention, optional
        By default the 3-token example with d = d_k = 4 (see
        :func:`check_prediction_score`).
    i : int, default 1
        The query (row).
    tokens : sequence of str, optional
        The keys' tokens, so that a token's name is accepted; by default those
        of the 3-token example when `att` is not given.

    Returns
    -------
    CheckResult
        Passed (exact match), or the winning key and why.

    Examples
    --------
    >>> bool(check_prediction_winner(2))
    True
    """
    if att is None:
        att = _small_example()
        tokens = toy_example(n=3, d=4, d_k=4, seed=0).tokens if tokens is None else tokens
    n_q, n_kv = att.weights.shape
    if not 0 <= i < n_q:
        raise ValueError(f"i must be from 0 to {n_q - 1}, got {i}")
    names = list(tokens) if tokens is not None else []
    if isinstance(answer, str) and answer.strip() in names:
        if names.count(answer.strip()) > 1:
            raise Failure(
                tr("{token!r} appears more than once among the keys", token=answer.strip()),
                tr("write the key's index instead, counting from 0"),
            )
        answer = names.index(answer.strip())
    j = _as_index(answer, n_kv)
    right = int(np.argmax(att.weights[i]))
    row = att.scores[i]
    if j == right:
        return tr(
            "right: key {right}, the largest score of row {i} ({score:.3g}), "
            "so the largest weight ({weight:.3g})",
            right=right,
            i=i,
            score=row[right],
            weight=att.weights[i, right],
        )
    said = tr("you predicted key {j}, but row {i} is won by key {right}", j=j, i=i, right=right)
    why = tr(
        "row {i}'s scores are {row}; the largest score gets the largest weight",
        i=i,
        row=_numbers(row),
    )
    if j == i:
        why = tr(
            "a token does not always attend most to itself: q_{i} and k_{i} come from "
            "different matrices (W_Q, W_K); {why}",
            i=i,
            why=why,
        )
    elif i < n_kv and j == int(np.argmax(att.scores[:, i])):
        why = tr("you read column {i}, the queries' scores against key {i}; {why}", i=i, why=why)
    step = tr("compare the scores of row {i} with each other: the softmax keeps their order", i=i)
    raise _wrong(answer, said, why, step)


# --- 05 weighted sum ---


def _choice_name(choice: str) -> str:
    # the choice as the learner types it stays English; its name is shown in their language
    return {
        "sharper": tr("sharper"),
        "flatter": tr("flatter"),
        "unchanged": tr("unchanged"),
        "doubled": tr("doubled"),
    }[choice]


@check
def check_prediction_doubled_scores(answer: str, att: Attention | None = None, i: int = 1) -> str:
    """Check what doubling every score of a row does to its weights (05).

    Parameters
    ----------
    answer : str
        One of "sharper", "flatter", "unchanged", "doubled".
    att : Attention, optional
        The row to show the numbers on; by default the 3-token example.
    i : int, default 1
        The row.

    Returns
    -------
    CheckResult
        Passed, or the right choice and why, with the row's weights before and after.

    Examples
    --------
    >>> bool(check_prediction_doubled_scores("unchanged"))
    False
    """
    att = _small_example() if att is None else att
    _written(answer)
    choice = str(answer).strip().lower()
    if choice not in DOUBLED_CHOICES:
        raise Failure(
            tr("your prediction {answer!r} is not one of the choices", answer=answer),
            tr("answer one of {choices}", choices=", ".join(repr(c) for c in DOUBLED_CHOICES)),
        )
    before = softmax(att.scores[i])  # (n_kv,)
    after = softmax(2 * att.scores[i])  # (n_kv,)
    top = int(np.argmax(before))
    if after[top] > before[top]:
        right = "sharper"
    elif after[top] < before[top]:
        right = "flatter"
    else:
        right = "unchanged"  # a uniform row
    shown = tr(
        "row {i}: weights {before} become {after}; "
        "the winner's weight {top_before:.3g} -> {top_after:.3g}",
        i=i,
        before=_numbers(before),
        after=_numbers(after),
        top_before=before[top],
        top_after=after[top],
    )
    if choice == right:
        return tr(
            "right: {right}. {shown}: α_j / α_k = exp(s_j - s_k) is squared "
            "when every score is doubled",
            right=_choice_name(right),
            shown=shown,
        )
    said = tr(
        "you predicted {choice!r}, but the weights get {right}: {shown}",
        choice=choice,
        right=_choice_name(right),
        shown=shown,
    )
    why = {
        "unchanged": tr(
            "adding the same number to every score changes nothing; multiplying "
            "by 2 doubles every gap s_j - s_k, and the weights follow exp of the gaps"
        ),
        "doubled": tr("each row of weights still sums to 1, so the weights cannot all double"),
        "flatter": tr(
            "dividing the scores (as √d_k does) flattens; doubling widens every gap "
            "s_j - s_k, so the largest score takes more of the weight"
        ),
        "sharper": tr(
            "this row is uniform: all its scores are equal, so doubling keeps them equal"
        ),
    }[choice]
    step = tr(
        "what does doubling do to the gaps between the scores, and the softmax sees only gaps"
    )
    raise _wrong(answer, said, why, step)


@check
def check_prediction_alpha(
    answer: float, att: Attention | None = None, i: int = 1, j: int = 2
) -> str:
    """Check a weight worked out by hand: ``α_ij = exp(score_ij) / Σ_j' exp(score_ij')`` (05).

    Tolerance: within 0.01 of ``att.weights[i, j]``, so two decimals are enough.

    Parameters
    ----------
    answer : number
        The predicted weight.
    att : Attention, optional
        By default the 3-token example with d = d_k = 4 (see
        :func:`check_prediction_score`).
    i, j : int, default 1 and 2
        The query (row) and the key (column).

    Returns
    -------
    CheckResult
        Passed, or the exponentials, their sum and why.

    Examples
    --------
    >>> bool(check_prediction_alpha(0.70))
    True
    """
    att = _small_example() if att is None else att
    guess = _as_number(answer)
    n_q, n_kv = att.weights.shape
    if not (0 <= i < n_q and 0 <= j < n_kv):
        raise ValueError(
            f"i must be from 0 to {n_q - 1} and j from 0 to {n_kv - 1}, got i = {i}, j = {j}"
        )
    row = att.scores[i]  # (n_kv,)
    right = float(att.weights[i, j])
    # the route the notebook teaches: subtract the row's maximum (it cancels in the
    # fraction), so that the largest exponential is e^0 = 1
    shifted = row - row.max()
    e = np.exp(shifted)
    working = tr(
        "row {i}'s scores {row} minus their maximum {top:.4g} are {shifted}; their exps are "
        "{exps}, sum {total:.4g}, and {e_j:.4g} / {total:.4g} = {right:.4g}",
        i=i,
        row=_numbers(row),
        top=row.max(),
        shifted=_numbers(shifted),
        exps=_numbers(e),
        total=e.sum(),
        e_j=e[j],
        right=right,
    )
    if abs(guess - right) <= SCORE_TOLERANCE:
        return tr(
            "right: α_{i}{j} = {right:.4g}: {working}", i=i, j=j, right=right, working=working
        )
    said = tr(
        "you predicted {guess:.4g}, but α_{i}{j} = {right:.4g}", guess=guess, i=i, j=j, right=right
    )
    column = softmax(att.scores, axis=0)[i, j]  # normalised down the column: the wrong axis
    if abs(guess - column) <= SCORE_TOLERANCE:
        why = tr(
            "you normalised down column {j}; α sums to 1 along each row: {working}",
            j=j,
            working=working,
        )
    elif abs(guess - 1 / n_kv) <= SCORE_TOLERANCE:
        why = tr(
            "1/{n_kv} holds only when all the scores of the row are equal: {working}",
            n_kv=n_kv,
            working=working,
        )
    elif abs(guess - e[j]) <= SCORE_TOLERANCE or abs(guess - np.exp(row[j])) <= SCORE_TOLERANCE:
        why = tr("exp(score) must be divided by the row's sum of exps: {working}", working=working)
    else:
        why = working
    step = tr(
        "subtract the row's largest score, take the exponential of each, "
        "then divide the one of key {j} by their sum",
        j=j,
    )
    raise _wrong(answer, said, why, step)
