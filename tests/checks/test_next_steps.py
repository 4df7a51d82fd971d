"""attnlib.checks.next_steps: notebook 07's exercises pass when right and name the usual slips."""

from __future__ import annotations

import numpy as np
import pytest

import attnlib
from attnlib import causal_mask, checks, padding_mask, solutions
from attnlib.checks import next_steps

from .helpers import assert_fails_kindly, fails_with, passes


def test_every_check_of_the_module_is_exported():
    mine = {name for name in dir(next_steps) if name.startswith("check_")}
    assert mine == {
        "check_causal_mask",
        "check_prediction_zero_weights",
        "check_split_heads",
        "check_merge_heads",
    }
    assert mine <= set(checks.__all__)


# --- the causal mask ---


def test_the_solution_and_attnlib_pass_the_causal_mask_check():
    passes(checks.check_causal_mask(solutions.my_causal_mask))
    passes(checks.check_causal_mask(causal_mask))


@pytest.mark.parametrize(
    ("func", "said"),
    [
        (lambda n: ~causal_mask(n), ["True where the query may NOT look", "return ~your_mask"]),
        (lambda n: np.triu(np.ones((n, n), dtype=bool)), ["above the diagonal", "np.tril"]),
        (lambda n: np.tril(np.ones((n, n), dtype=bool), k=-1), ["leaves out the diagonal"]),
        (lambda n: np.tril(np.ones((n, n))), ["as float64", ".astype(bool)"]),
        (
            lambda n: np.ones((n, n), dtype=bool),
            ["differs from the causal mask at (i, j) = (0, 1)"],
        ),
        (lambda n: np.ones((n, n + 1), dtype=bool), ["shape (4, 5), expected (4, 4)"]),
        (lambda n: "mask", ["you returned shape (), expected (4, 4)"]),
        (lambda n: np.full((n, n), "x"), ["not an array of numbers"]),
    ],
)
def test_causal_mask_slips_get_their_own_message(func, said):
    fails_with(checks.check_causal_mask(func), *said)


def test_causal_mask_check_fails_kindly():
    assert_fails_kindly(checks.check_causal_mask)


# --- which weights become 0 ---


def true_zeros(length=3, n=5):
    """The zeros computed by attnlib, independently of the check's own computation."""
    ex = attnlib.toy_example(n, seed=5)
    mask = causal_mask(n) & padding_mask(length, n)
    return attnlib.self_attention(*ex[1:], mask=mask).weights == 0


def test_the_right_zeros_pass_as_an_array_or_as_pairs():
    right = solutions.predict_zero_weights()
    np.testing.assert_array_equal(right, true_zeros())
    passes(checks.check_prediction_zero_weights(right))
    passes(checks.check_prediction_zero_weights([tuple(p) for p in np.argwhere(right)]))
    passes(checks.check_prediction_zero_weights(true_zeros(2, 4), length=2, n=4))


@pytest.mark.parametrize(
    ("wrong", "said"),
    [
        (~causal_mask(5), ["keys 3 … 4 are padding"]),
        (~padding_mask(3, 5), ["also hides every later key"]),
        (true_zeros().T, ["transposed"]),
        (
            true_zeros() | (np.arange(5) >= 3)[:, None],
            ["a padded query (row i >= 3) is not blocked"],
        ),
        (np.zeros((5, 5), dtype=bool), ["you predicted zeros at none"]),
    ],
)
def test_typical_wrong_zeros_are_told_the_reason(wrong, said):
    fails_with(checks.check_prediction_zero_weights(wrong), "the zeros are at (0, 1)", *said)


@pytest.mark.parametrize("answer", [..., None, "(0, 1)", [(0, 9)], [(True, 1)], 3])
def test_no_prediction_or_a_malformed_one_fails_kindly(answer):
    fails_with(checks.check_prediction_zero_weights(answer), "Hint:")


# --- split into heads and back ---


def test_the_solutions_split_and_merge_like_multi_head_attention():
    passes(checks.check_split_heads(solutions.my_split_heads))
    passes(checks.check_merge_heads(solutions.my_merge_heads))
    ex = attnlib.toy_multi_head(n=4, d=6, d_k=2, heads=3, seed=1)
    mh = attnlib.multi_head_attention(*ex[1:6], heads=3)
    parts = solutions.my_split_heads(ex.W_Q, 3)  # head h's W_Q block gives head h's Q
    for h, att in enumerate(mh.heads):
        np.testing.assert_allclose(ex.X @ parts[h], att.Q, rtol=0, atol=1e-12)
    np.testing.assert_array_equal(solutions.my_merge_heads(parts), ex.W_Q)


@pytest.mark.parametrize(
    ("func", "said"),
    [
        (lambda M, heads: M.reshape(heads, M.shape[0], -1), ["mixes rows of M"]),
        (lambda M, heads: M.reshape(M.shape[0], -1, heads).transpose(2, 0, 1), ["interleaved"]),
        (lambda M, heads: M.reshape(M.shape[0], heads, -1), ["(n, heads, w)", "transpose"]),
        (lambda M, heads: M[:, ::-1].reshape(M.shape[0], heads, -1).transpose(1, 0, 2), ["entry"]),
    ],
)
def test_split_slips_get_their_own_message(func, said):
    fails_with(checks.check_split_heads(func), *said)


@pytest.mark.parametrize(
    ("func", "said"),
    [
        (lambda parts: np.concatenate(list(parts), axis=0), ["the heads stacked as rows"]),
        (lambda parts: parts.reshape(parts.shape[1], -1), ["your rows mix tokens"]),
        (lambda parts: np.concatenate(list(parts[::-1]), axis=1), ["entry"]),
    ],
)
def test_merge_slips_get_their_own_message(func, said):
    fails_with(checks.check_merge_heads(func), *said)


def test_split_and_merge_checks_fail_kindly():
    fails_with(checks.check_split_heads(lambda M, heads: None), "returned None")
    fails_with(checks.check_merge_heads(lambda parts: None), "returned None")
    fails_with(checks.check_split_heads("split"), "expected a function")
    fails_with(checks.check_merge_heads(lambda parts: 1 / 0), "ZeroDivisionError")
