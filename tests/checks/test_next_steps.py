"""attnlib.checks.next_steps: notebook 07's exercises pass when right and name the usual slips."""

from __future__ import annotations

import numpy as np
import pytest

import attnlib
from attnlib import causal_mask, checks, padding_mask, solutions
from attnlib.checks import next_predictions, next_steps
from attnlib.i18n import LANGUAGES
from attnlib.lessons import solutions_in

from .helpers import assert_fails_kindly, fails_with, passes


def test_every_check_of_the_module_is_exported():
    mine = {
        name
        for module in (next_steps, next_predictions)
        for name in dir(module)
        if name.startswith("check_")
    }
    assert mine == {
        "check_causal_mask",
        "check_prediction_zero_weights",
        "check_split_heads",
        "check_merge_heads",
        "check_prediction_causal_count",
        "check_prediction_flipped_mask",
        "check_prediction_head_shapes",
        "check_prediction_head_parameters",
        "check_prediction_wrong_d",
        "check_window_mask",
    }
    assert mine <= set(checks.__all__)


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_languages_solutions_pass_the_checks_of_07(language):
    # lessons/solutions_<code>.py as well as the English: the same code, so the same verdicts
    translated = solutions_in(language)
    passes(checks.check_causal_mask(translated.my_causal_mask))
    passes(checks.check_window_mask(translated.my_window_mask))
    passes(checks.check_split_heads(translated.my_split_heads))
    passes(checks.check_merge_heads(translated.my_merge_heads))
    passes(checks.check_prediction_zero_weights(translated.predict_zero_weights()))


# --- the causal mask ---


def test_the_solution_and_attnlib_pass_the_causal_mask_check():
    passes(checks.check_causal_mask(solutions.my_causal_mask))
    passes(checks.check_causal_mask(causal_mask))


@pytest.mark.parametrize(
    ("func", "said"),
    [
        (lambda n: ~causal_mask(n), ["True where the query may NOT look", "the other way round"]),
        (
            lambda n: np.triu(np.ones((n, n), dtype=bool)),
            ["above the diagonal", "on and below the diagonal"],
        ),
        (lambda n: np.tril(np.ones((n, n), dtype=bool), k=-1), ["leaves out the diagonal"]),
        (lambda n: np.tril(np.ones((n, n))), ["as float64", "what dtype"]),
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
    fails_with(
        checks.check_prediction_zero_weights(wrong, reveal=True), "the zeros are at (0, 1)", *said
    )


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
        (
            lambda M, heads: M.reshape(M.shape[0], heads, -1),
            ["(n, heads, d_k)", "which two axes trade places"],
        ),
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


def test_a_first_wrong_zero_prediction_gets_the_slip_not_the_zeros():
    check = checks.check_prediction_zero_weights
    check.reset()
    first = check(~causal_mask(5))
    fails_with(first, "not right yet", "the causal triangle is right", "padded keys")
    assert "(0, 1)" not in str(first)
    check.reset()
    fails_with(check([(0, 4)]), "not right yet", "print the mask")  # no slip recognised: the step
    check.reset()
    check(~causal_mask(5))
    fails_with(check(~causal_mask(5)), "the zeros are at (0, 1)")  # the second try: the answer
    check.reset()


def test_zero_weights_of_a_padding_mask_alone():
    right = ~padding_mask(4, 6)  # (6, 6): the padded columns, in every row
    passes(checks.check_prediction_zero_weights(right, length=4, n=6, causal=False))
    fails_with(
        checks.check_prediction_zero_weights(
            ~causal_mask(6) | right, length=4, n=6, causal=False, reveal=True
        ),
        "the padded keys j >= 4",
    )


# --- predictions: the causal mask's count, the mask turned round ---


def test_causal_count():
    passes(checks.check_prediction_causal_count(21))
    fails_with(
        checks.check_prediction_causal_count(15, reveal=True), "21", "leaves out the diagonal"
    )
    fails_with(checks.check_prediction_causal_count(36, reveal=True), "every entry")
    fails_with(checks.check_prediction_causal_count(20, reveal=True), "count row by row")
    passes(checks.check_prediction_causal_count(10, n=4))
    fails_with(checks.check_prediction_causal_count("21"), "not a number")


def test_flipped_mask_has_an_empty_last_row_and_attnlib_refuses_it():
    passes(checks.check_prediction_flipped_mask(5))
    passes(checks.check_prediction_flipped_mask(3, n=4))
    fails_with(
        checks.check_prediction_flipped_mask(0, reveal=True), "row 5", "row 0 still sees 5 keys"
    )
    fails_with(checks.check_prediction_flipped_mask(6), "not an index from 0 to 5")
    ex = attnlib.toy_example(n=6, seed=0)
    with pytest.raises(ValueError, match="mask row 5 is all False"):
        attnlib.self_attention(*ex[1:], mask=~causal_mask(6))  # what the check's answer says


# --- predictions: heads ---


RIGHT_SHAPES = [(8, 8), (6, 2), (6, 8), (6, 8)]


def test_head_shapes():
    passes(checks.check_prediction_head_shapes(RIGHT_SHAPES))
    passes(
        checks.check_prediction_head_shapes(
            [(12, 12), (5, 4), (5, 12), (5, 12)], n=5, d=12, heads=3
        )
    )
    for k, (wrong, words) in enumerate(
        [
            ((8, 2), "side by side: d × (h · d_k)"),
            ((6, 8), "d_k = d / h columns"),
            ((6, 2), "joins the heads"),
            ((6, 2), "back to width d"),
        ]
    ):
        answer = list(RIGHT_SHAPES)
        answer[k] = wrong
        fails_with(checks.check_prediction_head_shapes(answer, reveal=True), words)
    fails_with(checks.check_prediction_head_shapes([(8, 8)]), "not four shapes")
    fails_with(checks.check_prediction_head_shapes("(8, 8)"), "not four shapes")


def test_head_parameters_are_the_same():
    passes(checks.check_prediction_head_parameters("the same"))
    passes(checks.check_prediction_head_parameters(" The Same "))
    fails_with(
        checks.check_prediction_head_parameters("one head", reveal=True), "256", "blocks of columns"
    )
    fails_with(checks.check_prediction_head_parameters("more"), "not one of the choices")


def test_dividing_by_the_whole_d_flattens():
    passes(checks.check_prediction_wrong_d("flatter"))
    fails_with(
        checks.check_prediction_wrong_d("sharper", reveal=True), "flatter", "√8 is larger than √2"
    )
    first = checks.check_prediction_wrong_d("unchanged")
    fails_with(first, "not right yet", "not a factor", "changes every gap")
    assert "flatter" not in str(first)
    checks.check_prediction_wrong_d.reset()


# --- a sliding-window mask (a transfer exercise) ---


def window_by_loops(n, w):
    return np.array([[i - w <= j <= i for j in range(n)] for i in range(n)])


def test_the_window_solution_passes_and_is_the_loops():
    passes(checks.check_window_mask(solutions.my_window_mask))
    for n, w in ((7, 3), (3, 0), (2, 5)):
        np.testing.assert_array_equal(solutions.my_window_mask(n, w), window_by_loops(n, w))
    assert_fails_kindly(checks.check_window_mask)


@pytest.mark.parametrize(
    ("func", "said"),
    [
        (lambda n, w: causal_mask(n), ["the whole causal mask", "more than w = 2 back"]),
        (lambda n, w: window_by_loops(n, w).T, ["looks forward", "below the diagonal"]),
        (lambda n, w: window_by_loops(n, w + 1), ["entry (3, 0) is True but should be False"]),
        (lambda n, w: window_by_loops(n, w).astype(float), ["not boolean", "holds numbers"]),
        (lambda n, w: window_by_loops(n + 1, w), ["shape (7, 7), expected (6, 6)"]),
    ],
)
def test_window_mask_typical_mistakes(func, said):
    fails_with(checks.check_window_mask(func), *said)
