"""The exercise checks of notebooks 01 and 02 (sections 2.1 and 2.2.1).

Each solution in attnlib.solutions must pass its check, and each typical
wrong answer must fail with the hint written for it, never with a traceback.
"""

from __future__ import annotations

import numpy as np
import pytest

from attnlib import checks, solutions
from attnlib.data import VOCABULARY


def _fails_with(result, *fragments):
    """The check failed, and its printed text holds every fragment."""
    assert isinstance(result, checks.CheckResult)
    assert not result, f"expected a failure, got: {result}"
    text = str(result)
    assert text.startswith("✗ ")
    for fragment in fragments:
        assert fragment in text, f"{fragment!r} not in {text!r}"


def _stub(*args):
    """The notebooks' unfinished exercise: `...  # your code here`."""


def _boom(*args):
    raise KeyError("nope")


# --- the solutions pass ---


@pytest.mark.parametrize(
    ("check", "solution"),
    [
        (checks.check_cross_scores, solutions.my_cross_scores),
        (checks.check_permutation, solutions.predict_permuted),
        (checks.check_embedding_lookup, solutions.my_embed),
        (checks.check_one_hot, solutions.my_one_hot),
    ],
)
def test_solution_passes(check, solution):
    result = check(solution)
    assert result, str(result)
    assert str(result).startswith("✓ ")


@pytest.mark.parametrize(
    "check",
    [checks.check_cross_scores, checks.check_permutation, checks.check_embedding_lookup,
     checks.check_one_hot],
)
def test_stub_and_exception_give_a_message_not_a_traceback(check):
    _fails_with(check(_stub), "returned None", "forget a `return`")
    _fails_with(check(_boom), "your function raised KeyError", "Hint:")
    _fails_with(check("not a function"), "expected a function")


# --- check_cross_scores ---


def test_cross_scores_unscaled():
    def unscaled(X_q, X_kv, W_Q, W_K):
        return (X_q @ W_Q) @ (X_kv @ W_K).T

    _fails_with(checks.check_cross_scores(unscaled), "without the scaling", "√d_k")


def test_cross_scores_divided_by_d_k():
    def by_d_k(X_q, X_kv, W_Q, W_K):
        return (X_q @ W_Q) @ (X_kv @ W_K).T / W_Q.shape[1]

    _fails_with(checks.check_cross_scores(by_d_k), "divided by d_k instead of √d_k")


def test_cross_scores_transposed():
    def transposed(X_q, X_kv, W_Q, W_K):
        return solutions.my_cross_scores(X_q, X_kv, W_Q, W_K).T

    _fails_with(checks.check_cross_scores(transposed), "shape (5, 3)", "Q @ K.T")


def test_cross_scores_keys_from_the_queries():
    def self_only(X_q, X_kv, W_Q, W_K):
        return solutions.my_cross_scores(X_q, X_q, W_Q, W_K)

    _fails_with(checks.check_cross_scores(self_only), "shape (3, 3)", "K = X_kv @ W_K")


def test_cross_scores_softmaxed_instead_of_scores():
    def weights(X_q, X_kv, W_Q, W_K):
        s = solutions.my_cross_scores(X_q, X_kv, W_Q, W_K)
        e = np.exp(s - s.max(axis=1, keepdims=True))
        return e / e.sum(axis=1, keepdims=True)

    _fails_with(checks.check_cross_scores(weights), "should be", "np.sqrt(d_k)")


# --- check_permutation ---


def test_permutation_unchanged():
    _fails_with(checks.check_permutation(lambda Z, perm: Z), "old Z, unchanged", "perm[i]")


def test_permutation_inverse():
    _fails_with(checks.check_permutation(lambda Z, perm: Z[np.argsort(perm)]),
                "wrong way round", "X[perm]")


def test_permutation_is_checked_against_attention_on_the_reordered_input():
    # a prediction that merely has the right shape, with wrong numbers, must fail
    _fails_with(checks.check_permutation(lambda Z, perm: Z[perm] + 1e-3), "should be")


# --- check_embedding_lookup ---


def test_embedding_first_rows():
    _fails_with(checks.check_embedding_lookup(lambda words, table: table[: len(words)]),
                "first 7 rows", "VOCABULARY.index")


def test_embedding_transposed():
    _fails_with(checks.check_embedding_lookup(lambda w, t: solutions.my_embed(w, t).T),
                "transpose of (7, 5)", "one row per token")


def test_embedding_position_in_sentence_instead_of_vocabulary():
    def by_sentence_position(words, table):
        from attnlib.data import SENTENCE

        return table[[SENTENCE.index(w) for w in words]]

    _fails_with(checks.check_embedding_lookup(by_sentence_position), "should be",
                "VOCABULARY[v]")


# --- check_one_hot ---


def test_one_hot_transposed():
    _fails_with(checks.check_one_hot(lambda words: solutions.my_one_hot(words).T),
                f"shape ({len(VOCABULARY)}, 5)", "one row per word")


def test_one_hot_wrong_width():
    _fails_with(checks.check_one_hot(lambda words: np.eye(len(words))),
                "shape (5, 5)", "np.zeros")


def test_one_hot_not_one_hot():
    def counts(words):
        H = solutions.my_one_hot(words)
        H[0] *= 2
        return H

    _fails_with(checks.check_one_hot(counts), "row 0 ('it') is not one-hot")


def test_one_hot_wrong_column():
    def shifted(words):
        return np.roll(solutions.my_one_hot(words), 1, axis=1)  # the column next door

    _fails_with(checks.check_one_hot(shifted), "H @ table", "VOCABULARY.index(word)")


def test_checks_are_deterministic():
    first = str(checks.check_cross_scores(lambda X_q, X_kv, W_Q, W_K: X_q @ X_kv.T))
    assert first == str(checks.check_cross_scores(lambda X_q, X_kv, W_Q, W_K: X_q @ X_kv.T))
