"""attnlib.checks.formulas: the checks of 2.2.2 to 2.2.4.

Each solution in attnlib.solutions must pass its check, and each typical
wrong answer must fail with the hint written for it, never with a traceback.
"""

from __future__ import annotations

import numpy as np
import pytest

from attnlib import checks, solutions
from attnlib.checks import formulas

from .helpers import fails_with

SOLVED = [
    (checks.check_softmax, solutions.my_softmax),
    (checks.check_qkv, solutions.my_qkv),
    (checks.check_column_form, solutions.my_column_form),
    (checks.check_scores, solutions.my_scores),
    (checks.check_row_entropy, solutions.my_row_entropy),
    (checks.check_weighted_sum, solutions.my_weighted_sum),
    (checks.check_fused_qkv, solutions.my_fused_qkv),
    (checks.check_softmax_temperature, solutions.my_softmax_temperature),
]


def test_every_check_of_the_module_is_listed():
    assert {check.__name__ for check, _ in SOLVED} == {
        name for name in dir(formulas) if name.startswith("check_")
    }


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
    assert "np.exp(1000) is inf" in result.hint and "lose before np.exp" in result.hint


def test_softmax_over_the_wrong_axis_fails():
    result = checks.check_softmax(lambda s: solutions.my_softmax(np.asarray(s).T).T)
    assert not result
    assert "down the columns (axis=0)" in result.message
    assert "every row must sum to 1" in result.hint


# --- check_qkv and check_column_form -----------------------------------------


def test_qkv_transposed_is_named():
    result = checks.check_qkv(lambda X, W_Q, W_K, W_V: (W_Q.T @ X.T, W_K.T @ X.T, W_V.T @ X.T))
    assert not result
    assert "transposed" in result.message
    assert "rows are tokens" in result.hint and "in which order" in result.hint


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
    assert "inner sizes must match" in result.hint and "which form of W_Q" in result.hint


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
    assert "transposed" in transposed.message and "which factor" in transposed.hint
    gram = checks.check_scores(lambda Q, K: Q.T @ K / np.sqrt(Q.shape[1]))
    assert not gram
    assert "(d_k, d_k)" in gram.message and "not coordinates" in gram.hint


def test_scores_square_only_answer_fails_on_cross_case():
    # correct for n_q = n_kv but uses len(Q) where it needs len(K)
    def square_only(Q, K):
        return np.array([[Q[i] @ K[j] for j in range(len(Q))] for i in range(len(Q))]) / np.sqrt(
            Q.shape[1]
        )

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
    np.testing.assert_allclose(
        solutions.my_weighted_sum(weights, V), reference.weighted_sum(weights, V)
    )


# --- transfer exercises: a fused W_QKV (03), a softmax temperature (05) ---


def test_fused_qkv_slips_are_named():
    def swapped(X, W, d_k):
        QKV = X @ W
        return QKV[:, d_k : 2 * d_k], QKV[:, :d_k], QKV[:, 2 * d_k :]

    fails_with(checks.check_fused_qkv(swapped), "your Q equals the true K", "order Q, K, V")

    def rows_split(X, W, d_k):
        W_Q, W_K, W_V = np.split(W, 3, axis=0)  # (2, 9) each: the rows of W, not its columns
        return X @ W_Q, X @ W_K, X @ W_V

    fails_with(checks.check_fused_qkv(rows_split), "raised ValueError", "which columns")

    fails_with(checks.check_fused_qkv(lambda X, W, d_k: X @ W), "expected three arrays")


def test_softmax_temperature_slips_are_named():
    fails_with(
        checks.check_softmax_temperature(lambda s, tau: solutions.my_softmax(s * tau)),
        "multiplied by τ",
        "flatten",
    )
    fails_with(
        checks.check_softmax_temperature(lambda s, tau: solutions.my_softmax(s) / tau),
        "do not sum to 1",
    )

    def naive(s, tau):
        e = np.exp(s / tau)
        return e / e.sum(axis=-1, keepdims=True)

    fails_with(checks.check_softmax_temperature(naive), "size 1000", "nan")
