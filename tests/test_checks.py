"""attnlib.checks: the self-checks of every notebook's exercises.

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


# --- every check: its solution passes; a stub, an exception, a non-function fail kindly ---

SOLVED = [
    (checks.check_cross_scores, solutions.my_cross_scores),
    (checks.check_permutation, solutions.predict_permuted),
    (checks.check_embedding_lookup, solutions.my_embed),
    (checks.check_one_hot, solutions.my_one_hot),
    (checks.check_shapes, solutions.my_shapes),
    (checks.check_softmax, solutions.my_softmax),
    (checks.check_qkv, solutions.my_qkv),
    (checks.check_column_form, solutions.my_column_form),
    (checks.check_scores, solutions.my_scores),
    (checks.check_row_entropy, solutions.my_row_entropy),
    (checks.check_weighted_sum, solutions.my_weighted_sum),
]


@pytest.mark.parametrize(("check", "solution"), SOLVED)
def test_solution_passes(check, solution):
    result = check(solution)
    assert result, str(result)
    assert str(result).startswith("✓ ")


@pytest.mark.parametrize("check", [check for check, _ in SOLVED])
def test_stub_and_exception_give_a_message_not_a_traceback(check):
    _fails_with(check(_stub), "returned None", "Hint:", "`return")
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
        ({"Z": lambda n, d, d_k, d_v: (n, d_k)}, "V = X W_V has d_v columns"),
        ({"Z": lambda n, d, d_k, d_v: (n, d)}, "Z has shape (5, 8), but it is (5, 2)"),
    ],
)
def test_shapes_typical_mistakes(wrong, said):
    _fails_with(checks.check_shapes(_shapes_with(**wrong)), said, "Hint:")


def test_shapes_are_checked_for_a_second_set_of_sizes():
    def fixed(n, d, d_k, d_v):  # right for the first sizes only
        return {"Q": (5, 3), "scores": (5, 5), "Z": (5, 2)}

    _fails_with(checks.check_shapes(fixed), "n = 7, d = 4, d_k = 6, d_v = 9", "(7, 6)")


def test_shapes_wants_a_dict_of_shapes():
    _fails_with(checks.check_shapes(lambda n, d, d_k, d_v: [(n, d_k)]), "not a dict")
    _fails_with(checks.check_shapes(lambda n, d, d_k, d_v: {"Q": (n, d_k)}), "no key 'scores'")
    bad = _shapes_with(Z=lambda n, d, d_k, d_v: "n by d_v")
    _fails_with(checks.check_shapes(bad), "not a shape")


def test_shapes_accepts_lists_and_numpy_ints():
    def as_lists(n, d, d_k, d_v):
        return {key: [np.int64(s) for s in shape]
                for key, shape in solutions.my_shapes(n, d, d_k, d_v).items()}

    assert checks.check_shapes(as_lists)


def test_checks_are_deterministic():
    first = str(checks.check_cross_scores(lambda X_q, X_kv, W_Q, W_K: X_q @ X_kv.T))
    assert first == str(checks.check_cross_scores(lambda X_q, X_kv, W_Q, W_K: X_q @ X_kv.T))


def test_a_check_reports_the_learners_exception_instead_of_raising():
    def broken(*args):
        raise RuntimeError("boom")

    for check in (checks.check_qkv, checks.check_scores, checks.check_weighted_sum):
        result = check(broken)
        assert not result
        assert "RuntimeError: boom" in result.message


def test_a_check_wants_the_function_not_its_result():
    result = checks.check_scores(np.zeros((3, 3)))
    assert not result
    assert "without calling it" in result.hint


# --- check_softmax ------------------------------------------------------------

def test_softmax_naive_fails_with_the_overflow_hint():
    def naive(scores):
        e = np.exp(scores)
        return e / e.sum(axis=-1, keepdims=True)

    result = checks.check_softmax(naive)
    assert not result
    assert "size 1000" in result.message
    assert "maximum" in result.hint


def test_softmax_over_the_wrong_axis_fails():
    result = checks.check_softmax(lambda s: solutions.my_softmax(np.asarray(s).T).T)
    assert not result
    assert "axis=-1" in result.hint


# --- check_qkv and check_column_form -----------------------------------------

def test_qkv_transposed_is_named():
    result = checks.check_qkv(lambda X, W_Q, W_K, W_V: (W_Q.T @ X.T, W_K.T @ X.T, W_V.T @ X.T))
    assert not result
    assert "transposed" in result.message
    assert "X @ W_Q" in result.hint


def test_qkv_chapter_form_raises_and_is_explained():
    # the chapter's W_Q x_i with W_Q of shape (d, d_k) does not type-check
    result = checks.check_qkv(lambda X, W_Q, W_K, W_V: (W_Q @ X[0], W_K @ X[0], W_V @ X[0]))
    assert not result
    assert "raised ValueError" in result.message
    assert "W_Q @ x_i does not fit" in result.hint


def test_qkv_reusing_one_matrix_is_named():
    result = checks.check_qkv(lambda X, W_Q, W_K, W_V: (X @ W_Q, X @ W_Q, X @ W_V))
    assert not result
    assert "K equals X @ W_Q" in result.message


def test_qkv_must_return_three_arrays():
    result = checks.check_qkv(lambda X, W_Q, W_K, W_V: X @ W_Q)
    assert not result
    assert "three arrays" in result.message


def test_column_form_row_answer_is_named():
    result = checks.check_column_form(lambda X_cols, W_Q: X_cols.T @ W_Q)
    assert not result
    assert "row form" in result.message


def test_column_form_untransposed_weight_is_explained():
    result = checks.check_column_form(lambda X_cols, W_Q: W_Q @ X_cols)
    assert not result
    assert "W_Q.T @ X_cols" in result.hint


# --- check_scores ------------------------------------------------------------

@pytest.mark.parametrize(
    ("wrong", "said"),
    [
        (lambda Q, K: Q @ K.T, "did not scale"),
        (lambda Q, K: Q @ K.T / Q.shape[1], "divided by d_k = 9"),
        (lambda Q, K: Q @ K.T / 2.0, "divided by 2"),  # √4 hard-coded
    ],
)
def test_scores_wrong_scale_is_named(wrong, said):
    result = checks.check_scores(wrong)
    assert not result
    assert said in result.message
    assert "√d_k = 3" in result.message


def test_scores_transposed_and_coordinate_products_are_named():
    transposed = checks.check_scores(lambda Q, K: K @ Q.T / np.sqrt(Q.shape[1]))
    assert not transposed
    assert "K @ Q.T" in transposed.hint
    gram = checks.check_scores(lambda Q, K: Q.T @ K / np.sqrt(Q.shape[1]))
    assert not gram
    assert "Q.T @ K" in gram.hint


def test_scores_square_only_answer_fails_on_cross_case():
    # correct for n_q = n_kv but uses len(Q) where it needs len(K)
    def square_only(Q, K):
        return np.array([[Q[i] @ K[j] for j in range(len(Q))] for i in range(len(Q))]) / np.sqrt(
            Q.shape[1])

    result = checks.check_scores(square_only)
    assert not result
    assert "3 queries and 5 keys" in result.message


# --- check_row_entropy -------------------------------------------------------

@pytest.mark.parametrize(
    ("wrong", "said"),
    [
        (lambda w: -(w * np.log(w)).sum(axis=1), "nan"),
        (lambda w: -(w * np.log2(np.where(w > 0, w, 1.0))).sum(axis=1), "base 2"),
        (lambda w: (w * np.log(np.where(w > 0, w, 1.0))).sum(axis=1), "negative"),
        (lambda w: -(w * np.log(np.where(w > 0, w, 1.0))).sum(axis=0), "one value per column"),
    ],
)
def test_row_entropy_typical_mistakes(wrong, said):
    result = checks.check_row_entropy(wrong)
    assert not result
    assert said in result.message


def test_row_entropy_solution_values():
    H = solutions.my_row_entropy([[0.5, 0.5], [1.0, 0.0]])
    np.testing.assert_allclose(H, [np.log(2), 0.0])


# --- check_weighted_sum ------------------------------------------------------

def test_weighted_sum_transposed_weights_are_named():
    result = checks.check_weighted_sum(lambda w, V: w.T @ V)
    assert not result
    assert "weights.T @ V" in result.message


def test_weighted_sum_second_softmax_is_named():
    result = checks.check_weighted_sum(lambda w, V: solutions.my_softmax(w) @ V)
    assert not result
    assert "softmax" in result.message


def test_weighted_sum_wrong_order_fails_on_shape():
    result = checks.check_weighted_sum(lambda w, V: V.T @ w)
    assert not result
    assert "shape (3, 4), expected (4, 3)" in result.message


def test_checks_agree_with_the_reference_loops():
    # the checks compare with numpy; the chapter's loops give the same answers
    from attnlib import reference

    rng = np.random.default_rng(7)
    Q, K, V = rng.standard_normal((3, 4, 5))
    scores = solutions.my_scores(Q, K)
    np.testing.assert_allclose(scores, reference.score_matrix(Q, K))
    weights = solutions.my_softmax(scores)
    np.testing.assert_allclose(weights, reference.softmax_rows(scores))
    np.testing.assert_allclose(solutions.my_weighted_sum(weights, V),
                               reference.weighted_sum(weights, V))
