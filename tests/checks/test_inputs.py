"""attnlib.checks.inputs: the checks of 2.1 and 2.2.1.

Each solution in attnlib.solutions must pass its check, and each typical
wrong answer must fail with the hint written for it, never with a traceback.
"""

from __future__ import annotations

import numpy as np
import pytest

from attnlib import checks, solutions
from attnlib.checks import inputs
from attnlib.data import VOCABULARY

from .helpers import fails_with

SOLVED = [
    (checks.check_cross_scores, solutions.my_cross_scores),
    (checks.check_permutation, solutions.predict_permuted),
    (checks.check_embedding_lookup, solutions.my_embed),
    (checks.check_one_hot, solutions.my_one_hot),
    (checks.check_shapes, solutions.my_shapes),
]


def test_every_check_of_the_module_is_listed():
    assert {check.__name__ for check, _ in SOLVED} == {
        name for name in dir(inputs) if name.startswith("check_")
    }


# --- check_cross_scores ---


def test_cross_scores_unscaled():
    def unscaled(X_q, X_kv, W_Q, W_K):
        return (X_q @ W_Q) @ (X_kv @ W_K).T

    fails_with(checks.check_cross_scores(unscaled), "without the scaling", "√d_k")


def test_cross_scores_divided_by_d_k():
    def by_d_k(X_q, X_kv, W_Q, W_K):
        return (X_q @ W_Q) @ (X_kv @ W_K).T / W_Q.shape[1]

    fails_with(checks.check_cross_scores(by_d_k), "divided by d_k instead of √d_k")


def test_cross_scores_transposed():
    def transposed(X_q, X_kv, W_Q, W_K):
        return solutions.my_cross_scores(X_q, X_kv, W_Q, W_K).T

    fails_with(checks.check_cross_scores(transposed), "shape (5, 3)", "which factor")


def test_cross_scores_keys_from_the_queries():
    def self_only(X_q, X_kv, W_Q, W_K):
        return solutions.my_cross_scores(X_q, X_q, W_Q, W_K)

    fails_with(checks.check_cross_scores(self_only), "shape (3, 3)", "where did your keys")


def test_cross_scores_softmaxed_instead_of_scores():
    def weights(X_q, X_kv, W_Q, W_K):
        s = solutions.my_cross_scores(X_q, X_kv, W_Q, W_K)
        e = np.exp(s - s.max(axis=1, keepdims=True))
        return e / e.sum(axis=1, keepdims=True)

    fails_with(checks.check_cross_scores(weights), "should be", "score_ij = q_i · k_j / √d_k")


# --- check_permutation ---


def test_permutation_unchanged():
    fails_with(checks.check_permutation(lambda Z, perm: Z), "old Z, unchanged", "row i of X[perm]")


def test_permutation_inverse():
    fails_with(
        checks.check_permutation(lambda Z, perm: Z[np.argsort(perm)]), "wrong way round", "X[perm]"
    )


def test_permutation_is_checked_against_attention_on_the_reordered_input():
    # a prediction that merely has the right shape, with wrong numbers, must fail
    fails_with(checks.check_permutation(lambda Z, perm: Z[perm] + 1e-3), "should be")


# --- check_embedding_lookup ---


def test_embedding_first_rows():
    fails_with(
        checks.check_embedding_lookup(lambda words, table: table[: len(words)]),
        "first 7 rows",
        "which row holds each word",
    )


def test_embedding_transposed():
    fails_with(
        checks.check_embedding_lookup(lambda w, t: solutions.my_embed(w, t).T),
        "transpose of (7, 5)",
        "one row per token",
    )


def test_embedding_position_in_sentence_instead_of_vocabulary():
    def by_sentence_position(words, table):
        from attnlib.data import SENTENCE

        return table[[SENTENCE.index(w) for w in words]]

    fails_with(checks.check_embedding_lookup(by_sentence_position), "should be", "VOCABULARY[k]")


# --- check_one_hot ---


def test_one_hot_transposed():
    fails_with(
        checks.check_one_hot(lambda words: solutions.my_one_hot(words).T),
        f"shape ({len(VOCABULARY)}, 5)",
        "one row per word",
    )


def test_one_hot_wrong_width():
    fails_with(
        checks.check_one_hot(lambda words: np.eye(len(words))), "shape (5, 5)", "one column per"
    )


def test_one_hot_not_one_hot():
    def counts(words):
        H = solutions.my_one_hot(words)
        H[0] *= 2
        return H

    fails_with(checks.check_one_hot(counts), "row 0 ('it') is not one-hot")


def test_one_hot_wrong_column():
    def shifted(words):
        return np.roll(solutions.my_one_hot(words), 1, axis=1)  # the column next door

    fails_with(checks.check_one_hot(shifted), "one_hot @ table", "place in VOCABULARY")


# --- check_shapes ---


def _shapes_with(**wrong):
    """The solution's shapes with some entries replaced: wrong[key](n, d, d_k, d_v) -> shape."""

    def shapes(n, d, d_k, d_v):
        answer = solutions.my_shapes(n, d, d_k, d_v)
        answer.update({key: make(n, d, d_k, d_v) for key, make in wrong.items()})
        return answer

    return shapes


@pytest.mark.parametrize(
    ("wrong", "said"),
    [
        ({"Q": lambda n, d, d_k, d_v: (n, d)}, "Q has shape (5, 8), but it is (5, 3)"),
        ({"Q": lambda n, d, d_k, d_v: (d_k, n)}, "rows are tokens"),
        ({"scores": lambda n, d, d_k, d_v: (n, d_k)}, "one query (row i) with one key"),
        ({"Z": lambda n, d, d_k, d_v: (n, d_k)}, "takes its columns from V"),
        ({"Z": lambda n, d, d_k, d_v: (n, d)}, "Z has shape (5, 8), but it is (5, 2)"),
    ],
)
def test_shapes_typical_mistakes(wrong, said):
    fails_with(checks.check_shapes(_shapes_with(**wrong)), said, "Hint:")


def test_shapes_are_checked_for_a_second_set_of_sizes():
    def fixed(n, d, d_k, d_v):  # right for the first sizes only
        return {"Q": (5, 3), "scores": (5, 5), "Z": (5, 2)}

    fails_with(checks.check_shapes(fixed), "n = 7, d = 4, d_k = 6, d_v = 9", "(7, 6)")


def test_shapes_wants_a_dict_of_shapes():
    fails_with(checks.check_shapes(lambda n, d, d_k, d_v: [(n, d_k)]), "not a dict")
    fails_with(checks.check_shapes(lambda n, d, d_k, d_v: {"Q": (n, d_k)}), "no key 'scores'")
    bad = _shapes_with(Z=lambda n, d, d_k, d_v: "n by d_v")
    fails_with(checks.check_shapes(bad), "not a shape")


def test_shapes_accepts_lists_and_numpy_ints():
    def as_lists(n, d, d_k, d_v):
        return {
            key: [np.int64(s) for s in shape]
            for key, shape in solutions.my_shapes(n, d, d_k, d_v).items()
        }

    assert checks.check_shapes(as_lists)


def test_checks_are_deterministic():
    first = str(checks.check_cross_scores(lambda X_q, X_kv, W_Q, W_K: X_q @ X_kv.T))
    assert first == str(checks.check_cross_scores(lambda X_q, X_kv, W_Q, W_K: X_q @ X_kv.T))


def test_a_wrong_answer_gets_the_entry_that_is_furthest_off():
    def plus_one_at_2_3(X_q, X_kv, W_Q, W_K):
        scores = solutions.my_cross_scores(X_q, X_kv, W_Q, W_K)
        scores[2, 3] += 1.0
        return scores

    fails_with(checks.check_cross_scores(plus_one_at_2_3), "entry (2, 3) is", "should be")
