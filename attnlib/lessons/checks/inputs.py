"""Checks for the exercises of 2.1 and 2.2.1: two sequences, reordered tokens, embeddings, shapes.

Each ``check_*`` takes the learner's function, runs it on fixed inputs and
compares it with attnlib, naming the usual slip (a transposed matrix, keys
taken from the queries, a sentence position used as a vocabulary index) with
a hint of its own. How a check runs and reports is :mod:`attnlib.checks.runner`.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ...i18n import tr
from ...maths.core import attention, self_attention
from ...maths.data import embed, embedding_table, local, vocabulary
from .runner import Failure, call, check, close, compare, expect_array, expect_value


def _two_sequences():
    """Fixed test input for the 2.1 checks: n_q = 3, n_kv = 5, d = 6, d_k = 4, d_v = 2."""
    rng = np.random.default_rng(21)
    X_q = rng.standard_normal((3, 6))  # (n_q, d)
    X_kv = rng.standard_normal((5, 6))  # (n_kv, d)
    W_Q, W_K = rng.standard_normal((2, 6, 4)) / np.sqrt(6)  # (d, d_k) each
    W_V = rng.standard_normal((6, 2)) / np.sqrt(6)  # (d, d_v)
    return X_q, X_kv, W_Q, W_K, W_V


@check
def check_cross_scores(func: Callable) -> str:
    """Check a learner's ``func(X_q, X_kv, W_Q, W_K) -> scores`` for general attention.

    Queries come from `X_q` (n_q rows) and keys from `X_kv` (n_kv rows), so
    the answer must be the (n_q, n_kv) matrix ``(X_q W_Q)(X_kv W_K)ᵀ / √d_k``,
    equal to ``attnlib.attention(...).scores``. Typical slips (keys taken from
    `X_q`, the matrix transposed, no scaling, dividing by d_k) get their own hint.

    Parameters
    ----------
    func : callable
        ``func(X_q, X_kv, W_Q, W_K)`` with X_q (n_q, d), X_kv (n_kv, d),
        W_Q and W_K (d, d_k); returns an array of shape (n_q, n_kv).

    Returns
    -------
    CheckResult
        Truthy when the scores match.

    Examples
    --------
    >>> check_cross_scores(lambda X_q, X_kv, W_Q, W_K: (X_q @ W_Q) @ (X_kv @ W_K).T)
    ✗ check_cross_scores: your scores are Q Kᵀ without the scaling
      Hint: the chapter divides q_i · k_j by √d_k, the square root of their length
    """
    X_q, X_kv, W_Q, W_K, W_V = _two_sequences()
    n_q, n_kv, d_k = len(X_q), len(X_kv), W_Q.shape[1]
    inputs = (X_q.copy(), X_kv.copy(), W_Q.copy(), W_K.copy())  # copies: the learner may edit
    got = call(
        func,
        *inputs,
        hint=tr("queries come from X_q, keys from X_kv, each through its own weight matrix"),
    )
    hint = tr(
        "score_ij = q_i · k_j / √d_k, with q_i from X_q and k_j from X_kv: print the "
        "shapes of your queries, keys and scores"
    )
    got = expect_array(got, hint=hint)
    expected = attention(X_q, X_kv, W_Q, W_K, W_V).scores  # (n_q, n_kv)
    what = tr("n_q = {n_q} queries and n_kv = {n_kv} keys", n_q=n_q, n_kv=n_kv)
    if got.shape == (n_kv, n_q):
        raise Failure(
            tr(
                "for {what} you returned shape {got}, the transpose of ({n_q}, {n_kv})",
                what=what,
                got=got.shape,
                n_q=n_q,
                n_kv=n_kv,
            ),
            tr("one row per query: which factor of the product comes first?"),
        )
    if got.shape in {(n_q, n_q), (n_kv, n_kv)}:
        raise Failure(
            tr(
                "for {what} you returned shape {got}, expected ({n_q}, {n_kv})",
                what=what,
                got=got.shape,
                n_q=n_q,
                n_kv=n_kv,
            ),
            tr("queries come from X_q but keys from X_kv: where did your keys come from?"),
        )
    if close(got, expected * np.sqrt(d_k)):
        raise Failure(
            tr("your scores are Q Kᵀ without the scaling"),
            tr("the chapter divides q_i · k_j by √d_k, the square root of their length"),
        )
    if close(got, expected / np.sqrt(d_k)):
        raise Failure(
            tr("your scores are divided by d_k instead of √d_k"),
            tr("the chapter divides by the square root of d_k, not by d_k itself"),
        )
    compare(got, expected, what, hint)
    return tr(
        "passed: {n_q} queries against {n_kv} keys give a "
        "({n_q}, {n_kv}) score matrix, scaled by √d_k",
        n_q=n_q,
        n_kv=n_kv,
    )


@check
def check_permutation(func: Callable) -> str:
    """Check a learner's ``func(Z, perm) -> Z_new``: the outputs after reordering the tokens.

    If the tokens are reordered, ``X_new = X[perm]``, self-attention gives
    ``Z_new = Z[perm]``: every output moves with its token and nothing else
    changes. The check runs self-attention on the reordered input itself and
    compares it with the learner's prediction, for a permutation that is not
    its own inverse (so that ``Z[perm]`` and its inverse differ).

    Parameters
    ----------
    func : callable
        ``func(Z, perm)`` with Z (n, d_v) and perm a permutation of
        ``range(n)`` (an int array); returns an array of shape (n, d_v).

    Returns
    -------
    CheckResult

    Examples
    --------
    >>> check_permutation(lambda Z, perm: Z)
    ✗ check_permutation: your prediction is the old Z, unchanged
      Hint: the outputs move with their tokens: which token is row i of X[perm], and ...
    """
    rng = np.random.default_rng(3)
    X = rng.standard_normal((5, 6))  # (n, d)
    W_Q, W_K, W_V = rng.standard_normal((3, 6, 4)) / np.sqrt(6)  # (d, d_k) each
    Z = self_attention(X, W_Q, W_K, W_V).Z  # (n, d_v)
    perm = np.array([1, 2, 0, 4, 3])  # a 3-cycle and a swap: not its own inverse
    what = f"perm = {perm.tolist()}"
    hint = tr("row i of X[perm] is old token perm[i]: whose output belongs in row i?")
    got = call(func, Z.copy(), perm.copy(), hint=tr("row i of X[perm] is token perm[i]"))
    got = expect_array(got, what, hint)
    expected = self_attention(X[perm], W_Q, W_K, W_V).Z  # attention run on the new order
    if close(got, Z) and not np.allclose(Z, expected):
        raise Failure(
            tr("your prediction is the old Z, unchanged"),
            tr(
                "the outputs move with their tokens: which token is row i of X[perm], and "
                "whose output belongs there?"
            ),
        )
    if close(got, Z[np.argsort(perm)]):
        raise Failure(
            tr("your rows are reordered the wrong way round (by the inverse permutation)"),
            tr("X_new = X[perm]: compare the way you indexed Z with the way X was indexed"),
        )
    compare(got, expected, what, hint)
    return tr(
        "passed: for {what}, self-attention on X[perm] gives exactly your prediction", what=what
    )


@check
def check_embedding_lookup(func: Callable) -> str:
    """Check a learner's ``func(words, table) -> X``: look each word up in the table.

    The rows of `table` follow the order of ``attnlib.data.VOCABULARY``, so row
    i of X must be the row of the i-th word; the answer must equal
    ``attnlib.data.embed(words, table)``, shape (n, d).

    Parameters
    ----------
    func : callable
        ``func(words, table)`` with words a tuple of n strings and table of
        shape (len(VOCABULARY), d); returns an array of shape (n, d).

    Returns
    -------
    CheckResult

    Examples
    --------
    >>> check_embedding_lookup(lambda words, table: table[: len(words)])
    ✗ check_embedding_lookup: you returned the first 7 rows of the table, not the rows of the 7 words
      Hint: row k of the table belongs to VOCABULARY[k]: which row holds each word?
    """  # noqa: E501
    words = local(("sat", "on", "the", "mat", "because", "the", "cat"))  # "the" twice
    table = embedding_table(d=5, seed=7)  # (n_vocab, d)
    n, d = len(words), table.shape[1]
    what = tr(
        "the words {words!r} (vocabulary of {size} words, d = {d})",
        words=" ".join(words),
        size=len(vocabulary()),
        d=d,
    )
    hint = tr("row k of the table belongs to VOCABULARY[k]: which row holds each word?")
    got = expect_array(call(func, words, table.copy(), hint=hint), what, hint)
    expected = embed(words, table)  # (n, d)
    if got.shape == (d, n):
        raise Failure(
            tr("you returned shape {got}, the transpose of ({a}, {b})", got=got.shape, a=n, b=d),
            tr("one row per token: X has shape (n, d)"),
        )
    if close(got, table[:n]):
        raise Failure(
            tr("you returned the first {n} rows of the table, not the rows of the {n} words", n=n),
            hint,
        )
    compare(got, expected, what, hint)
    return tr(
        "passed: {n} words looked up, X has shape ({n}, {d}), and the two {word!r} rows "
        "are identical",
        n=n,
        d=d,
        word=words[2],
    )


@check
def check_one_hot(func: Callable) -> str:
    """Check a learner's ``func(words) -> one_hot``: one-hot rows, so that one_hot @ table is X.

    Row i of the one-hot matrix has a single 1, in the column of the i-th word's index in
    ``VOCABULARY``; then ``one_hot @ table`` equals ``embed(words, table)`` for any
    table, which shows that looking up an embedding is a matrix product.

    Parameters
    ----------
    func : callable
        ``func(words)`` with words a tuple of n strings; returns an array of
        shape (n, len(VOCABULARY)).

    Returns
    -------
    CheckResult

    Examples
    --------
    >>> from attnlib.solutions import my_one_hot
    >>> check_one_hot(my_one_hot)
    ✓ check_one_hot: passed: the one-hot matrix has shape (5, 45), one 1 per row, and one_hot @ table equals the lookup
    """  # noqa: E501
    words = local(("it", "was", "warm", "it", "was"))
    n, size = len(words), len(vocabulary())
    hint = tr(
        "the one-hot matrix has one row per word and one column per vocabulary entry; row i "
        "is all zeros but for one 1, in the column of word i's place in VOCABULARY"
    )
    one_hot = expect_array(call(func, words, hint=hint), hint=hint)
    if one_hot.shape == (size, n):
        raise Failure(
            tr(
                "you returned shape {got}, the transpose of ({a}, {b})",
                got=one_hot.shape,
                a=n,
                b=size,
            ),
            tr("one row per word, one column per vocabulary entry"),
        )
    if one_hot.shape != (n, size):
        raise Failure(
            tr(
                "you returned shape {got}, expected ({n}, {size}): "
                "{n} words by {size} vocabulary entries",
                got=one_hot.shape,
                n=n,
                size=size,
            ),
            hint,
        )
    ones_per_row = (one_hot == 1).sum(axis=1)
    if not (np.isin(one_hot, (0.0, 1.0)).all() and (ones_per_row == 1).all()):
        bad = int(np.argmax(~(ones_per_row == 1) | ~np.isin(one_hot, (0.0, 1.0)).all(axis=1)))
        raise Failure(
            tr(
                "row {bad} ({word!r}) is not one-hot: it should hold "
                "a single 1 and zeros elsewhere",
                bad=bad,
                word=words[bad],
            ),
            hint,
        )
    table = embedding_table(d=3, seed=1)  # (n_vocab, d)
    compare(
        one_hot @ table,
        embed(words, table),  # (n, n_vocab) @ (n_vocab, d) -> (n, d)
        "one_hot @ table",
        tr("the 1 of row i goes in the column of word i's place in VOCABULARY"),
    )
    return tr(
        "passed: the one-hot matrix has shape ({n}, {size}), one 1 per row, "
        "and one_hot @ table equals the lookup",
        n=n,
        size=size,
    )


def _shape_hint(key: str, got: tuple, expected: tuple, n: int, d: int, d_k: int) -> str:
    """A hint for the usual wrong answer of check_shapes, else a general one."""
    if got[::-1] == expected:
        return tr("rows are tokens: the first number is the number of rows")
    if key == "Q":
        if got == (n, d):
            return tr("that is X's shape; Q = X W_Q: which factor gives Q its columns?")
        return tr("Q = X W_Q: write the two factors' shapes and see which sizes the product keeps")
    if key == "scores":
        return tr("each score pairs one query (row i) with one key (column j): how many of each?")
    if got == (n, d_k):
        return tr("that is Q's shape; Z = α V takes its columns from V: how many has V?")
    return tr("Z = α V: write the two factors' shapes and see which sizes the product keeps")


@check
def check_shapes(func: Callable) -> str:
    """Check a learner's ``func(n, d, d_k, d_v) -> {"Q": shape, "scores": shape, "Z": shape}``.

    The predicted shapes are compared with those of ``attnlib.self_attention``
    run on random inputs of the given sizes, for two sets of sizes in which
    n, d, d_k and d_v all differ (so that mixing two of them up is caught).

    Parameters
    ----------
    func : callable
        ``func(n, d, d_k, d_v)`` with four ints; returns a dict with the keys
        "Q", "scores" and "Z", each a tuple such as ``(n, d_k)``.

    Returns
    -------
    CheckResult

    Examples
    --------
    >>> check_shapes(lambda n, d, d_k, d_v: {"Q": (n, d), "scores": (n, n), "Z": (n, d_v)})
    ✗ check_shapes: for n = 5, d = 8, d_k = 3, d_v = 2 you said Q has shape (5, 8), but it is (5, 3)
      Hint: that is X's shape; Q = X W_Q: which factor gives Q its columns?
    """
    rng = np.random.default_rng(0)
    dict_hint = tr("return a dict: {example}", example="{'Q': (..., ...), 'scores': ..., 'Z': ...}")
    for n, d, d_k, d_v in ((5, 8, 3, 2), (7, 4, 6, 9)):
        sizes = f"n = {n}, d = {d}, d_k = {d_k}, d_v = {d_v}"
        got = expect_value(call(func, n, d, d_k, d_v, hint=dict_hint))
        if not isinstance(got, dict):
            raise Failure(
                tr("your function returned a {kind}, not a dict", kind=type(got).__name__),
                dict_hint,
            )
        att = self_attention(
            rng.standard_normal((n, d)),
            rng.standard_normal((d, d_k)),
            rng.standard_normal((d, d_k)),
            rng.standard_normal((d, d_v)),
        )
        for key in ("Q", "scores", "Z"):
            if key not in got:
                raise Failure(
                    tr("your dict has no key {key!r}", key=key),
                    tr("use the keys 'Q', 'scores' and 'Z'"),
                )
            try:
                shape = tuple(int(s) for s in got[key])
            except (TypeError, ValueError):
                raise Failure(
                    tr(
                        "for {sizes}, {key} is {value!r}, not a shape",
                        sizes=sizes,
                        key=key,
                        value=got[key],
                    ),
                    tr("a shape is a tuple of two ints, such as (n, d)"),
                ) from None
            expected = getattr(att, key).shape
            if shape != expected:
                raise Failure(
                    tr(
                        "for {sizes} you said {key} has shape {got}, but it is {want}",
                        sizes=sizes,
                        key=key,
                        got=shape,
                        want=expected,
                    ),
                    _shape_hint(key, shape, expected, n, d, d_k),
                )
    return tr(
        "passed: for n = 5, d = 8, d_k = 3, d_v = 2 and for n = 7, d = 4, "
        "d_k = 6, d_v = 9 your shapes are those of self_attention"
    )
