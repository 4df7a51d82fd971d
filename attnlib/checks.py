"""Self-checks for the notebooks' exercises.

Each ``check_*`` function takes the learner's answer (usually a function they
wrote), runs it on test inputs, compares it with attnlib, and returns a
:class:`CheckResult` that prints as a clear pass, or as what went wrong plus a
hint. A check never lets the learner's exception escape as a bare traceback:
it reports it instead.

Examples
--------
>>> import numpy as np
>>> check_softmax(lambda s: np.exp(s) / np.exp(s).sum(axis=-1, keepdims=True))
✗ check_softmax: on scores of size 1000 your softmax gave nan (or inf) ...
>>> check_softmax(softmax)
✓ check_softmax: passed ...
"""

from __future__ import annotations

import traceback
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from .core import softmax


@dataclass(frozen=True)
class CheckResult:
    """The answer of a check: ``passed`` and a message for the learner."""

    name: str
    passed: bool
    message: str
    hint: str = ""

    def __str__(self) -> str:
        mark = "✓" if self.passed else "✗"
        text = f"{mark} {self.name}: {self.message}"
        if self.hint and not self.passed:
            text += f"\n  Hint: {self.hint}"
        return text

    __repr__ = __str__

    def __bool__(self) -> bool:
        return self.passed


def _passed(name: str, message: str) -> CheckResult:
    return CheckResult(name, True, message)


def _failed(name: str, message: str, hint: str = "") -> CheckResult:
    return CheckResult(name, False, message, hint)


def _call(name: str, func: Callable, *args, hint: str = ""):
    """Call the learner's `func`; on an exception return a failed CheckResult instead."""
    if not callable(func):
        return None, _failed(name, f"expected a function, got {type(func).__name__} {func!r}",
                             "pass the function itself, without calling it: check(my_func)")
    try:
        return func(*args), None
    except Exception as exc:  # the learner's code: report, never re-raise
        last = traceback.extract_tb(exc.__traceback__)[-1]
        where = f" (line {last.lineno}: {last.line})" if last.line else ""
        return None, _failed(name, f"your function raised {type(exc).__name__}: {exc}{where}",
                             hint)


def _compare(name: str, got, expected, what: str, hint: str = "", atol: float = 1e-8):
    """Compare the learner's array with attnlib's; None when they agree."""
    got = np.asarray(got, dtype=float) if got is not None else None
    if got is None:
        return _failed(name, f"your function returned None for {what}",
                       "did you forget a `return`?")
    if got.shape != np.shape(expected):
        return _failed(name, f"for {what} you returned shape {got.shape}, expected "
                             f"{np.shape(expected)}", hint)
    if not np.isfinite(got).all():
        return _failed(name, f"for {what} your result contains nan or inf", hint)
    if not np.allclose(got, expected, atol=atol, rtol=1e-6):
        worst = np.unravel_index(np.argmax(np.abs(got - expected)), got.shape)
        return _failed(name, f"for {what}, entry {tuple(int(i) for i in worst)} is "
                             f"{got[worst]:.4g} but should be {expected[worst]:.4g}", hint)
    return None


# --- 2.1 and 2.2.1 ---
# Imports sit inside the functions so that this section stays self-contained
# (the module's import block is shared with the other section).


def _two_sequences():
    """Fixed test input for the 2.1 checks: n_q = 3, n_kv = 5, d = 6, d_k = 4, d_v = 2."""
    rng = np.random.default_rng(21)
    X_q = rng.standard_normal((3, 6))  # (n_q, d)
    X_kv = rng.standard_normal((5, 6))  # (n_kv, d)
    W_Q, W_K = rng.standard_normal((2, 6, 4)) / np.sqrt(6)  # (d, d_k) each
    W_V = rng.standard_normal((6, 2)) / np.sqrt(6)  # (d, d_v)
    return X_q, X_kv, W_Q, W_K, W_V


def check_cross_scores(func: Callable) -> CheckResult:
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
      Hint: divide by √d_k, the square root of the number of columns of W_Q
    """
    from .core import attention

    name = "check_cross_scores"
    X_q, X_kv, W_Q, W_K, W_V = _two_sequences()
    n_q, n_kv, d_k = len(X_q), len(X_kv), W_Q.shape[1]
    got, error = _call(name, func, X_q.copy(), X_kv.copy(), W_Q.copy(), W_K.copy(),
                       hint="queries are X_q @ W_Q, keys are X_kv @ W_K")
    if error is not None:
        return error
    if got is None:
        return _failed(name, "your function returned None", "did you forget a `return`?")
    got = np.asarray(got, dtype=float)
    expected = attention(X_q, X_kv, W_Q, W_K, W_V).scores  # (n_q, n_kv)
    what = f"n_q = {n_q} queries and n_kv = {n_kv} keys"
    if got.shape == (n_kv, n_q):
        return _failed(name, f"for {what} you returned shape {got.shape}, the transpose of "
                             f"({n_q}, {n_kv})",
                       "one row per query: scores = Q @ K.T, not K @ Q.T")
    if got.shape in {(n_q, n_q), (n_kv, n_kv)} and got.shape != expected.shape:
        return _failed(name, f"for {what} you returned shape {got.shape}, expected "
                             f"({n_q}, {n_kv})",
                       "queries come from X_q but keys from X_kv: K = X_kv @ W_K")
    if got.shape == expected.shape and np.isfinite(got).all():
        if np.allclose(got, expected * np.sqrt(d_k)):
            return _failed(name, "your scores are Q Kᵀ without the scaling",
                           "divide by √d_k, the square root of the number of columns of W_Q")
        if np.allclose(got, expected / np.sqrt(d_k)):
            return _failed(name, "your scores are divided by d_k instead of √d_k",
                           "use np.sqrt(d_k): the chapter scales by the square root")
    problem = _compare(name, got, expected, what,
                       "scores = (X_q @ W_Q) @ (X_kv @ W_K).T / np.sqrt(d_k)")
    if problem is not None:
        return problem
    return _passed(name, f"passed: {n_q} queries against {n_kv} keys give a "
                         f"({n_q}, {n_kv}) score matrix, scaled by √d_k")


def check_permutation(func: Callable) -> CheckResult:
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
      Hint: the outputs move with their tokens: row i of the new Z belongs to token perm[i]
    """
    from .core import self_attention

    name = "check_permutation"
    rng = np.random.default_rng(3)
    X = rng.standard_normal((5, 6))  # (n, d)
    W_Q, W_K, W_V = rng.standard_normal((3, 6, 4)) / np.sqrt(6)  # (d, d_k) each
    Z = self_attention(X, W_Q, W_K, W_V).Z  # (n, d_v)
    perm = np.array([1, 2, 0, 4, 3])  # a 3-cycle and a swap: not its own inverse
    got, error = _call(name, func, Z.copy(), perm.copy(),
                       hint="row i of X[perm] is token perm[i]")
    if error is not None:
        return error
    expected = self_attention(X[perm], W_Q, W_K, W_V).Z  # attention run on the new order
    if got is not None and np.shape(got) == Z.shape:
        got = np.asarray(got, dtype=float)
        if np.allclose(got, Z) and not np.allclose(Z, expected):
            return _failed(name, "your prediction is the old Z, unchanged",
                           "the outputs move with their tokens: row i of the new Z "
                           "belongs to token perm[i]")
        if np.allclose(got, Z[np.argsort(perm)]):
            return _failed(name, "your rows are reordered the wrong way round "
                                 "(by the inverse permutation)",
                           "X_new = X[perm], so the new outputs are indexed the same way")
    problem = _compare(name, got, expected, f"perm = {perm.tolist()}",
                       "index the rows of Z with perm")
    if problem is not None:
        return problem
    return _passed(name, f"passed: for perm = {perm.tolist()}, self-attention on X[perm] "
                         "gives exactly your prediction")


def check_embedding_lookup(func: Callable) -> CheckResult:
    """Check a learner's ``func(words, table) -> X``: look each word up in the table.

    Row v of `table` is the vector of ``attnlib.data.VOCABULARY[v]``, so row
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
      Hint: row v of the table belongs to VOCABULARY[v]: find each word's index with VOCABULARY.index(word)
    """  # noqa: E501
    from .data import VOCABULARY, embed, embedding_table

    name = "check_embedding_lookup"
    words = ("sat", "on", "the", "mat", "because", "the", "cat")  # "the" twice
    table = embedding_table(d=5, seed=7)  # (V, d)
    n, d = len(words), table.shape[1]
    hint = "row v of the table belongs to VOCABULARY[v]: find each word's index with " \
           "VOCABULARY.index(word)"
    got, error = _call(name, func, words, table.copy(), hint=hint)
    if error is not None:
        return error
    expected = embed(words, table)  # (n, d)
    if got is not None and np.shape(got) == (d, n):
        return _failed(name, f"you returned shape {np.shape(got)}, the transpose of ({n}, {d})",
                       "one row per token: X has shape (n, d)")
    if got is not None and np.shape(got) == (n, d) and np.allclose(got, table[:n]):
        return _failed(name, f"you returned the first {n} rows of the table, not the rows "
                             f"of the {n} words", hint)
    what = f"the words {' '.join(words)!r} (vocabulary of {len(VOCABULARY)} words, d = {d})"
    problem = _compare(name, got, expected, what, hint)
    if problem is not None:
        return problem
    return _passed(name, f"passed: {n} words looked up, X has shape ({n}, {d}), "
                         "and the two 'the' rows are identical")


def check_one_hot(func: Callable) -> CheckResult:
    """Check a learner's ``func(words) -> H``: one-hot rows, so that H @ table is X.

    Row i of H has a single 1, in the column of the i-th word's index in
    ``VOCABULARY``; then ``H @ table`` equals ``embed(words, table)`` for any
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
    ✓ check_one_hot: passed: H has shape (5, 45), one 1 per row, and H @ table equals the lookup
    """
    from .data import VOCABULARY, embed, embedding_table

    name = "check_one_hot"
    words = ("it", "was", "warm", "it", "was")
    n, size = len(words), len(VOCABULARY)
    hint = ("start from np.zeros((len(words), len(VOCABULARY))) and set "
            "H[i, VOCABULARY.index(w)] = 1")
    got, error = _call(name, func, words, hint=hint)
    if error is not None:
        return error
    if got is None:
        return _failed(name, "your function returned None", "did you forget a `return`?")
    H = np.asarray(got, dtype=float)
    if H.shape == (size, n):
        return _failed(name, f"you returned shape {H.shape}, the transpose of ({n}, {size})",
                       "one row per word, one column per vocabulary entry")
    if H.shape != (n, size):
        return _failed(name, f"you returned shape {H.shape}, expected ({n}, {size}): "
                             f"{n} words by {size} vocabulary entries", hint)
    ones_per_row = (H == 1).sum(axis=1)
    if not (np.isin(H, (0.0, 1.0)).all() and (ones_per_row == 1).all()):
        bad = int(np.argmax(~(ones_per_row == 1) | ~np.isin(H, (0.0, 1.0)).all(axis=1)))
        return _failed(name, f"row {bad} ({words[bad]!r}) is not one-hot: it should hold "
                             "a single 1 and zeros elsewhere", hint)
    table = embedding_table(d=3, seed=1)  # (V, d)
    problem = _compare(name, H @ table, embed(words, table),  # (n, V) @ (V, d) -> (n, d)
                       "H @ table", "the 1 goes in column VOCABULARY.index(word)")
    if problem is not None:
        return problem
    return _passed(name, f"passed: H has shape ({n}, {size}), one 1 per row, "
                         "and H @ table equals the lookup")


def _shape_hint(key: str, got: tuple, expected: tuple, n: int, d: int, d_k: int) -> str:
    """A hint for the usual wrong answer of check_shapes, else a general one."""
    if got[::-1] == expected:
        return "rows are tokens: the first number is the number of rows"
    if key == "Q":
        if got == (n, d):
            return ("that is X's shape; W_Q (d × d_k) turns each row of length d "
                    "into one of length d_k")
        return "Q = X W_Q: (n, d) @ (d, d_k)"
    if key == "scores":
        return "each score pairs one query (row i) with one key (column j): how many of each?"
    if got == (n, d_k):
        return "Z = α V takes its columns from V, and V = X W_V has d_v columns"
    return "Z = α V: (n, n) @ (n, d_v)"


def check_shapes(func: Callable) -> CheckResult:
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
      Hint: that is X's shape; W_Q (d × d_k) turns each row of length d into one of length d_k
    """
    from .core import self_attention

    name = "check_shapes"
    rng = np.random.default_rng(0)
    for n, d, d_k, d_v in ((5, 8, 3, 2), (7, 4, 6, 9)):
        sizes = f"n = {n}, d = {d}, d_k = {d_k}, d_v = {d_v}"
        got, error = _call(name, func, n, d, d_k, d_v,
                           hint="return a dict: {'Q': (..., ...), 'scores': ..., 'Z': ...}")
        if error is not None:
            return error
        if got is None:
            return _failed(name, "your function returned None", "did you forget a `return`?")
        if not isinstance(got, dict):
            return _failed(name, f"your function returned a {type(got).__name__}, not a dict",
                           "return a dict: {'Q': (..., ...), 'scores': ..., 'Z': ...}")
        att = self_attention(rng.standard_normal((n, d)), rng.standard_normal((d, d_k)),
                             rng.standard_normal((d, d_k)), rng.standard_normal((d, d_v)))
        for key in ("Q", "scores", "Z"):
            if key not in got:
                return _failed(name, f"your dict has no key {key!r}",
                               "use the keys 'Q', 'scores' and 'Z'")
            try:
                shape = tuple(int(s) for s in got[key])
            except (TypeError, ValueError):
                return _failed(name, f"for {sizes}, {key} is {got[key]!r}, not a shape",
                               "a shape is a tuple of two ints, such as (n, d_k)")
            expected = getattr(att, key).shape
            if shape != expected:
                return _failed(name, f"for {sizes} you said {key} has shape {shape}, "
                                     f"but it is {expected}",
                               _shape_hint(key, shape, expected, n, d, d_k))
    return _passed(name, "passed: for n = 5, d = 8, d_k = 3, d_v = 2 and for n = 7, d = 4, "
                         "d_k = 6, d_v = 9 your shapes are those of self_attention")


# --- 2.2.2 to 2.2.4 ---

def check_softmax(func: Callable) -> CheckResult:
    """Check a learner's row-wise softmax ``func(scores) -> weights``.

    It must match :func:`attnlib.softmax` along the last axis, including on
    scores as large as 1000 (where a naive exp overflows).
    """
    name = "check_softmax"
    cases = [
        ("a 2 × 3 matrix of small scores", np.array([[1.0, 2.0, 3.0], [0.0, 0.0, 0.0]])),
        ("scores of size 1000", np.array([[1000.0, 999.0, 0.0], [-1000.0, -1000.0, -999.0]])),
    ]
    hints = {
        0: "exponentiate each score, then divide by the sum of its row "
           "(sum over axis=-1 with keepdims=True)",
        1: "subtract each row's maximum before np.exp: it cancels in the fraction "
           "but stops exp from overflowing",
    }
    for k, (what, scores) in enumerate(cases):
        with np.errstate(all="ignore"):
            got, error = _call(name, func, scores.copy(), hint=hints[k])
        if error is not None:
            return error
        if got is not None and not np.isfinite(np.asarray(got, dtype=float)).all():
            return _failed(name, f"on {what} your softmax gave nan (or inf)", hints[k])
        problem = _compare(name, got, softmax(scores), what, hints[k])
        if problem is not None:
            return problem
    return _passed(name, "passed on small scores and on scores of size 1000; "
                         "each row sums to 1")


def _case(seed: int, *shapes: tuple[int, ...]) -> list[np.ndarray]:
    # fixed test inputs: the same numbers on every machine (PCG64 normals)
    rng = np.random.default_rng([2024, seed])
    return [rng.standard_normal(shape) for shape in shapes]


def _close(got, expected) -> bool:
    got = np.asarray(got, dtype=float)
    return got.shape == np.shape(expected) and bool(np.allclose(got, expected, atol=1e-8))


def _as_array(value):
    try:
        return np.asarray(value, dtype=float)
    except (TypeError, ValueError):
        return None


def check_qkv(func: Callable) -> CheckResult:
    """Check ``func(X, W_Q, W_K, W_V) -> (Q, K, V)``, the three projections of 2.2.2.

    Rows are tokens: ``Q = X @ W_Q`` has shape (n, d_k), ``V = X @ W_V`` has
    shape (n, d_v). The test uses n = 5, d = 6, d_k = 3, d_v = 2, so that a
    transposed or mixed-up answer shows in its shape.

    Parameters
    ----------
    func : callable
        ``func(X, W_Q, W_K, W_V)`` with X of shape (n, d), W_Q and W_K of
        shape (d, d_k), W_V of shape (d, d_v); returns the tuple (Q, K, V).

    Returns
    -------
    CheckResult
        Passed, or what went wrong and a hint.
    """
    name = "check_qkv"
    X, W_Q, W_K, W_V = _case(1, (5, 6), (6, 3), (6, 3), (6, 2))
    rows_hint = ("rows are tokens: Q = X @ W_Q, K = X @ W_K, V = X @ W_V, "
                 "shape (n, d) @ (d, d_k) -> (n, d_k)")
    got, error = _call(name, func, X.copy(), W_Q.copy(), W_K.copy(), W_V.copy(),
                       hint="with W_Q of shape (d, d_k), W_Q @ x_i does not fit; "
                            "rows are tokens, so write X @ W_Q")
    if error is not None:
        return error
    if got is None:
        return _failed(name, "your function returned None", "end with `return Q, K, V`")
    if not isinstance(got, (tuple, list)) or len(got) != 3:
        return _failed(name, f"expected three arrays (Q, K, V), got {type(got).__name__}",
                       "end with `return Q, K, V`")
    W = {"W_Q": W_Q, "W_K": W_K, "W_V": W_V}
    for label, mat, own in zip("QKV", got, ("W_Q", "W_K", "W_V"), strict=True):
        expected = X @ W[own]  # (n, d) @ (d, m) -> (n, m)
        arr = _as_array(mat)
        if arr is not None and _close(arr, expected.T):
            return _failed(name, f"your {label} is transposed: shape {arr.shape}, expected "
                                 f"{expected.shape} (one row per token)", rows_hint)
        for other in W:
            if other != own and arr is not None and _close(arr, X @ W[other]):
                return _failed(name, f"your {label} equals X @ {other}",
                               f"each projection has its own matrix: {label} = X @ {own}")
        problem = _compare(name, mat, expected, f"{label} (n = 5, d = 6, d_k = 3, d_v = 2)",
                           rows_hint)
        if problem is not None:
            return problem
    return _passed(name, "Q, K and V match X @ W_Q, X @ W_K, X @ W_V "
                         "(shapes (5, 3), (5, 3), (5, 2))")


def check_column_form(func: Callable) -> CheckResult:
    """Check ``func(X_cols, W_Q) -> Q_cols``: the queries with tokens as columns.

    In the column convention token i is column i of ``X_cols`` (shape (d, n))
    and q_i = W_Qᵀ x_i, so ``Q_cols = W_Q.T @ X_cols`` has shape (d_k, n): the
    transpose of the row form ``X @ W_Q``.

    Parameters
    ----------
    func : callable
        ``func(X_cols, W_Q)`` with X_cols of shape (d, n) and W_Q of shape (d, d_k).

    Returns
    -------
    CheckResult
        Passed, or what went wrong and a hint.
    """
    name = "check_column_form"
    X, W_Q = _case(2, (5, 6), (6, 3))
    X_cols = X.T  # (d, n): token i is column i
    expected = W_Q.T @ X_cols  # (d_k, d) @ (d, n) -> (d_k, n)
    hint = ("W_Q has shape (d, d_k), so W_Q @ x_i does not fit; its transpose does: "
            "W_Q.T @ X_cols, shape (d_k, d) @ (d, n) -> (d_k, n)")
    got, error = _call(name, func, X_cols.copy(), W_Q.copy(), hint=hint)
    if error is not None:
        return error
    arr = _as_array(got)
    if arr is not None and _close(arr, expected.T):
        return _failed(name, f"you returned the row form, shape {arr.shape}; the column form "
                             f"has one column per token, shape {expected.shape}", hint)
    problem = _compare(name, got, expected, "X_cols of shape (6, 5) and W_Q of shape (6, 3)",
                       hint)
    if problem is not None:
        return problem
    return _passed(name, "W_Q.T @ X_cols is (X @ W_Q).T: the same numbers, transposed")


def check_scores(func: Callable) -> CheckResult:
    """Check ``func(Q, K) -> scores`` with ``scores[i, j] = q_i . k_j / sqrt(d_k)``.

    Tested on 4 tokens with d_k = 9 (so dividing by d_k, by 2 or not at all
    is told apart from dividing by √d_k = 3), then on 3 queries and 5 keys.

    Parameters
    ----------
    func : callable
        ``func(Q, K)`` with Q of shape (n_q, d_k) and K of shape (n_kv, d_k);
        returns shape (n_q, n_kv).

    Returns
    -------
    CheckResult
        Passed, or what went wrong and a hint.
    """
    name = "check_scores"
    hint = "score_ij = q_i . k_j / √d_k, i.e. Q @ K.T / np.sqrt(d_k) with d_k = Q.shape[1]"
    cases = [("4 tokens with d_k = 9", *_case(3, (4, 9), (4, 9))),
             ("3 queries and 5 keys with d_k = 4", *_case(4, (3, 4), (5, 4)))]
    for what, Q, K in cases:
        d_k = Q.shape[1]
        raw = Q @ K.T  # (n_q, d_k) @ (d_k, n_kv) -> (n_q, n_kv)
        expected = raw / np.sqrt(d_k)
        got, error = _call(name, func, Q.copy(), K.copy(), hint=hint)
        if error is not None:
            return error
        arr = _as_array(got)
        if arr is not None and arr.shape == (d_k, d_k) and arr.shape != expected.shape:
            return _failed(name, f"for {what} you returned shape {arr.shape}, (d_k, d_k); "
                                 f"expected {expected.shape}, (n_q, n_kv)",
                           "the scores pair tokens, not coordinates: Q @ K.T, not Q.T @ K")
        if arr is not None and _close(arr, expected.T):
            return _failed(name, f"for {what} your matrix is transposed: row i must hold "
                                 "the scores of query i", "Q @ K.T, not K @ Q.T")
        if arr is not None and arr.shape == raw.shape and np.isfinite(arr).all():
            overlap = float(np.sum(raw * arr))
            scale = float(np.sum(raw * raw)) / overlap if overlap > 0 else 0.0
            if scale > 0 and not np.isclose(scale, np.sqrt(d_k)) and _close(arr, raw / scale):
                if np.isclose(scale, 1.0):
                    said = "you did not scale: these are the raw q_i . k_j"
                elif np.isclose(scale, d_k):
                    said = f"you divided by d_k = {d_k}"
                else:
                    said = f"you divided by {scale:.4g}"
                return _failed(name, f"for {what}, {said}; divide by √d_k = "
                                     f"{np.sqrt(d_k):.4g}", hint)
        problem = _compare(name, got, expected, what, hint)
        if problem is not None:
            return problem
    return _passed(name, "matches Q @ K.T / √d_k for 4 × 4 and 3 × 5 score matrices")


def check_row_entropy(func: Callable) -> CheckResult:
    """Check ``func(weights) -> entropy``: ``H_i = -sum_j alpha_ij log(alpha_ij)`` per row.

    Natural logarithm, and ``0 log 0`` counts as 0, so a one-hot row has
    entropy 0 and a uniform row over n keys has entropy log(n).

    Parameters
    ----------
    func : callable
        ``func(weights)`` with weights of shape (n_q, n_kv), rows summing to 1;
        returns shape (n_q,).

    Returns
    -------
    CheckResult
        Passed, or what went wrong and a hint.
    """
    name = "check_row_entropy"
    weights = np.array([[0.25, 0.25, 0.25, 0.25],
                        [1.0, 0.0, 0.0, 0.0],
                        [0.7, 0.1, 0.1, 0.1]])
    p = np.where(weights > 0, weights, 1.0)  # log 1 = 0 stands in for 0 log 0
    expected = -(weights * np.log(p)).sum(axis=1)  # (n_q,)
    hint = "H_i = -Σ_j α_ij ln α_ij along each row (axis=1), with 0·ln 0 = 0"
    with np.errstate(all="ignore"):
        got, error = _call(name, func, weights.copy(), hint=hint)
    if error is not None:
        return error
    arr = _as_array(got)
    what = "rows uniform, one-hot and (0.7, 0.1, 0.1, 0.1)"
    if arr is not None and arr.shape == expected.shape:
        if not np.isfinite(arr[1]) and np.isfinite(arr[[0, 2]]).all():
            return _failed(name, "the one-hot row (1, 0, 0, 0) gave nan: 0 * log 0",
                           "0·ln 0 counts as 0: take the log only where α > 0, e.g. "
                           "np.log(np.where(weights > 0, weights, 1.0))")
        if _close(arr, expected / np.log(2)):
            return _failed(name, "you used log base 2", "use the natural log, np.log")
        if _close(arr, -expected):
            return _failed(name, "your entropies are negative", "H_i = -Σ_j α_ij ln α_ij: "
                                                                "mind the minus sign")
    if arr is not None and arr.shape == (weights.shape[1],):
        return _failed(name, f"you returned shape {arr.shape}, one value per column; "
                             f"expected {expected.shape}, one per row (query)",
                       "sum along each row: axis=1 (or axis=-1)")
    problem = _compare(name, got, expected, what, hint)
    if problem is not None:
        return problem
    return _passed(name, "uniform row ln 4 = 1.386, one-hot row 0, and the mixed row agree")


def check_weighted_sum(func: Callable) -> CheckResult:
    """Check ``func(weights, V) -> Z`` with ``z_i = sum_j alpha_ij v_j``.

    Tested on a 4 × 4 weight matrix with d_v = 3, then on 3 queries and 5
    keys with d_v = 2.

    Parameters
    ----------
    func : callable
        ``func(weights, V)`` with weights of shape (n_q, n_kv) (rows sum to 1)
        and V of shape (n_kv, d_v); returns Z of shape (n_q, d_v).

    Returns
    -------
    CheckResult
        Passed, or what went wrong and a hint.
    """
    name = "check_weighted_sum"
    hint = ("z_i = Σ_j α_ij v_j: row i of the weights mixes the rows of V, i.e. weights @ V, "
            "shape (n_q, n_kv) @ (n_kv, d_v) -> (n_q, d_v)")
    cases = []
    for seed, what, n_q, n_kv, d_v in ((5, "4 tokens with d_v = 3", 4, 4, 3),
                                       (6, "3 queries, 5 keys and d_v = 2", 3, 5, 2)):
        S, V = _case(seed, (n_q, n_kv), (n_kv, d_v))
        cases.append((what, softmax(S), V))
    for what, weights, V in cases:
        expected = weights @ V  # (n_q, n_kv) @ (n_kv, d_v) -> (n_q, d_v)
        got, error = _call(name, func, weights.copy(), V.copy(), hint=hint)
        if error is not None:
            return error
        arr = _as_array(got)
        square = weights.shape[0] == weights.shape[1]
        if arr is not None and square and _close(arr, weights.T @ V):
            return _failed(name, f"for {what} you mixed with the columns of the weights "
                                 "(weights.T @ V)", hint)
        if arr is not None and _close(arr, softmax(weights) @ V):
            return _failed(name, f"for {what} you applied softmax to the weights again",
                           "the weights already sum to 1 along each row: use them as they are")
        problem = _compare(name, got, expected, what, hint)
        if problem is not None:
            return problem
    return _passed(name, "Z = weights @ V for a 4 × 4 and a 3 × 5 weight matrix")
