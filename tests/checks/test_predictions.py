"""attnlib.checks.predictions: a right prediction passes, a wrong one is told the answer and why."""

from __future__ import annotations

import numpy as np
import pytest

import attnlib
from attnlib import checks, solutions
from attnlib.checks import predictions, projections, weights, worked
from attnlib.data import VOCABULARY
from attnlib.i18n import LANGUAGES
from attnlib.lessons import solutions_in

from .helpers import fails_with, passes


def small():
    """The by-hand checks' default question: 3 tokens, d = d_k = 4, seed 0."""
    ex = attnlib.toy_example(n=3, d=4, d_k=4, seed=0)
    return attnlib.self_attention(ex.X, ex.W_Q, ex.W_K, ex.W_V)


def peaked():
    """3 tokens, d = d_k = 4, seed 8: row 1 peaked enough that each slip gives its own number.

    (Seed 0's row 1 is nearly even, 0.34, 0.29, 0.37: normalising down the column gives
    almost the right weight there, so the slips could not be told apart.)
    """
    ex = attnlib.toy_example(n=3, d=4, d_k=4, seed=8)
    return attnlib.self_attention(ex.X, ex.W_Q, ex.W_K, ex.W_V)


def predicted(solutions):
    """(check, the right answer from `solutions`) for the questions the notebooks ask."""
    return [
        (checks.check_prediction_cross_shape, solutions.predict_cross_shape()),
        (checks.check_prediction_cost_ratio, solutions.predict_cost_ratio()),
        (checks.check_prediction_X_shape, solutions.predict_X_shape()),
        (checks.check_prediction_embedding_row, solutions.predict_embedding_row()),
        (checks.check_prediction_qkv_shapes, solutions.predict_qkv_shapes()),
        (checks.check_prediction_fused_shape, solutions.predict_fused_shape()),
        (checks.check_prediction_score, solutions.predict_score(small())),
        (checks.check_prediction_score_variance, solutions.predict_score_variance()),
        (checks.check_prediction_winner, solutions.predict_winner(small())),
        (checks.check_prediction_doubled_scores, solutions.predict_doubled_scores()),
        (checks.check_prediction_alpha, solutions.predict_alpha(small())),
        (checks.check_prediction_moved_token, solutions.predict_moved_token()),
        (checks.check_prediction_exps, solutions.predict_exps(small())),
        (checks.check_prediction_output, solutions.predict_output(small())),
        (checks.check_prediction_temperature, solutions.predict_temperature()),
    ]


PREDICTED = predicted(solutions)


def test_every_check_of_the_module_is_listed():
    assert {check.__name__ for check, _ in PREDICTED} == {
        name
        for module in (predictions, projections, worked, weights)
        for name in dir(module)
        if name.startswith("check_")
    }


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("k", range(len(PREDICTED)), ids=[c.__name__ for c, _ in PREDICTED])
def test_the_right_prediction_passes(k, language):
    # every language's solutions (lessons/solutions_<code>.py) predict right, not only the English
    check, answer = predicted(solutions_in(language))[k]
    passes(check(answer))


@pytest.mark.parametrize("check", [check for check, _ in PREDICTED])
def test_no_prediction_yet_and_answers_of_the_wrong_kind_fail_kindly(check):
    for placeholder in (..., None):
        fails_with(check(placeholder), "you have not written a prediction yet", "replace ...")
    # a function, not a prediction; text that is no answer: each named, with what is wanted
    fails_with(check(solutions.predict_score), "<function predict_score", "not")
    fails_with(check("12x"), "your prediction '12x'", "not")


# --- typical wrong predictions: the right answer and the reason ---


@pytest.mark.parametrize(
    ("check", "wrong", "said"),
    [
        (checks.check_prediction_cross_shape, (5, 3), ["shape (3, 5)", "transpose"]),
        (checks.check_prediction_cross_shape, (3, 3), ["a square matrix pairs a sequence"]),
        (checks.check_prediction_cross_shape, (3, 4), ["shape of Q or K"]),
        (checks.check_prediction_cross_shape, (3, 5, 1), ["one score per (query, key) pair"]),
        (checks.check_prediction_cost_ratio, 2, ["4 times", "rows and columns both grow"]),
        (checks.check_prediction_cost_ratio, 8, ["4 times", "n × n"]),
        (checks.check_prediction_X_shape, (8, 6), ["(6, 8)", "rows are tokens"]),
        (checks.check_prediction_X_shape, (len(VOCABULARY), 8), ["the embedding table"]),
        (checks.check_prediction_X_shape, (6, len(VOCABULARY)), ["one_hot @ table"]),
        (checks.check_prediction_embedding_row, 4, ["position in the sentence", "VOCABULARY"]),
        (checks.check_prediction_embedding_row, 0, ["token 0 is 'the' too", "share one row"]),
        (checks.check_prediction_embedding_row, 1, ["row 1 is", "VOCABULARY.index('the')"]),
        (checks.check_prediction_qkv_shapes, ((6, 3), (6, 3), (6, 2)), ["W_Q's shape"]),
        (checks.check_prediction_qkv_shapes, ((3, 5), (3, 5), (2, 5)), ["rows are tokens"]),
        (checks.check_prediction_qkv_shapes, ((5, 6), (5, 3), (5, 2)), ["X's shape"]),
        (
            checks.check_prediction_qkv_shapes,
            ((5, 3), (5, 3), (5, 3)),
            ["V has shape (5, 3)", "d_v columns"],
        ),
        (checks.check_prediction_qkv_shapes, ((5, 3), (5, 3)), ["not three shapes"]),
        (checks.check_prediction_score_variance, 1, ["about 64", "after dividing by √d_k"]),
        (checks.check_prediction_score_variance, 8, ["standard deviation"]),
        (checks.check_prediction_score_variance, 32, ["variances of independent terms add"]),
        (checks.check_prediction_doubled_scores, "unchanged", ["sharper", "adding the same"]),
        (checks.check_prediction_doubled_scores, "doubled", ["still sums to 1"]),
        (checks.check_prediction_doubled_scores, "flatter", ["widens every gap"]),
        (checks.check_prediction_doubled_scores, "bigger", ["not one of the choices", "'sharper'"]),
    ],
)
def test_typical_wrong_predictions_are_explained(check, wrong, said):
    fails_with(check(wrong, reveal=True), *said)


def test_the_qkv_shapes_may_be_a_dict_and_other_sizes():
    passes(checks.check_prediction_qkv_shapes({"Q": (5, 3), "K": (5, 3), "V": (5, 2)}, reveal=True))
    sizes = {"n": 7, "d": 4, "d_k": 6, "d_v": 9}
    passes(
        checks.check_prediction_qkv_shapes(
            solutions.predict_qkv_shapes(**sizes), **sizes, reveal=True
        )
    )
    fails_with(
        checks.check_prediction_qkv_shapes(((7, 6), (7, 6), (7, 6)), **sizes, reveal=True),
        "V has shape (7, 6), but it is (7, 9)",
    )


def test_the_shape_questions_take_other_sizes():
    passes(checks.check_prediction_cross_shape((4, 2), n_q=4, n_kv=2, reveal=True))
    fails_with(checks.check_prediction_cross_shape((2, 4), n_q=4, n_kv=2, reveal=True), "transpose")
    passes(checks.check_prediction_X_shape((10, 3), n=10, d=3, reveal=True))
    passes(checks.check_prediction_cost_ratio(9.0, factor=3, reveal=True))
    passes(checks.check_prediction_embedding_row(VOCABULARY.index("cat"), i=1, reveal=True))


# --- a score by hand (04) ---


def test_score_slips_are_named():
    att = small()
    dot = float(att.Q[0] @ att.K[1])  # the unscaled q_0 · k_1; d_k = 4, √d_k = 2
    fails_with(checks.check_prediction_score(dot, reveal=True), "before the scaling", "√d_k = 2")
    fails_with(
        checks.check_prediction_score(dot / 4, reveal=True), "divided by d_k = 4", "square root, 2"
    )
    fails_with(
        checks.check_prediction_score(float(att.scores[1, 0]), reveal=True), "that is score_10"
    )
    fails_with(
        checks.check_prediction_score(dot / 2 + 0.3, reveal=True),
        "coordinate by coordinate",
        f"= {dot:.4g}",
    )


def test_score_tolerance_is_two_decimals():
    right = float(small().scores[0, 1])
    step = worked.SCORE_TOLERANCE
    passes(checks.check_prediction_score(round(right, 2), reveal=True))
    passes(checks.check_prediction_score(right + 0.9 * step, reveal=True))
    fails_with(checks.check_prediction_score(right + 1.5 * step, reveal=True), "you predicted")


def test_score_of_any_pair_any_pass_scaled_or_not_and_cross_attention():
    queries, keys = attnlib.toy_example(2, d=4, seed=5), attnlib.toy_example(4, d=4, seed=6)
    passes_ = [
        small(),
        attnlib.self_attention(*attnlib.toy_example(3, d=4, d_k=4)[1:], scaled=False),
        attnlib.attention(queries.X, keys.X, queries.W_Q, queries.W_K, queries.W_V),
    ]
    for att in passes_:
        n_q, n_kv = att.scores.shape
        for i in range(n_q):
            for j in range(n_kv):
                answer = solutions.predict_score(att, i, j)  # a plain loop over coordinates
                passes(checks.check_prediction_score(answer, att, i, j, reveal=True))
    unscaled = passes_[1]
    text = str(checks.check_prediction_score(0.0, unscaled, 0, 1, reveal=True))
    assert "√d_k" not in text  # nothing to divide by when the pass was not scaled


def test_a_question_out_of_range_is_the_notebooks_error_not_the_learners():
    with pytest.raises(ValueError, match="i must be from 0 to 2 and j from 0 to 2, got i = 3"):
        checks.check_prediction_score(0.1, small(), 3, 0, reveal=True)
    with pytest.raises(ValueError, match="i must be from 0 to 2"):
        checks.check_prediction_winner(0, small(), i=-1, reveal=True)


# --- which key wins a row (04) and α by hand (05) ---


def test_winner_slips_are_named():
    att = peaked()  # row 1: key 2 wins; the query itself is 1; column 1 peaks at query 0
    assert int(np.argmax(att.scores[1])) == 2 and int(np.argmax(att.scores[:, 1])) == 0
    fails_with(
        checks.check_prediction_winner(1, att, reveal=True),
        "won by key 2",
        "does not always attend",
    )
    fails_with(
        checks.check_prediction_winner(0, att, reveal=True), "won by key 2", "you read column 1"
    )
    fails_with(checks.check_prediction_winner(3, att, reveal=True), "not an index from 0 to 2")


def test_winner_and_alpha_on_every_row_of_a_longer_sentence():
    ex = attnlib.toy_example(n=6, seed=2)
    att = attnlib.self_attention(*ex[1:])
    for i in range(6):
        passes(
            checks.check_prediction_winner(solutions.predict_winner(att, i), att, i, reveal=True)
        )
        for j in range(6):
            passes(
                checks.check_prediction_alpha(
                    solutions.predict_alpha(att, i, j), att, i, j, reveal=True
                )
            )


def test_alpha_slips_are_named():
    att = peaked()  # row 1 of the weights: 0.303, 0.081, 0.615
    right = float(att.weights[1, 2])
    fails_with(
        checks.check_prediction_alpha(1 / 3, att, reveal=True),
        "only when all the scores",
        f"{right:.4g}",
    )
    fails_with(
        checks.check_prediction_alpha(float(np.exp(att.scores[1, 2])), att, reveal=True),
        "divided by the row's sum",
    )
    column = float(attnlib.softmax(att.scores, axis=0)[1, 2])
    fails_with(checks.check_prediction_alpha(column, att, reveal=True), "down column 2")
    fails_with(checks.check_prediction_alpha(0.5, att, reveal=True), "sum", f"= {right:.4g}")


def test_alpha_of_huge_scores_is_explained_without_overflow():
    att = attnlib.self_attention(*attnlib.toy_example(n=3, d=4, d_k=4)[1:])
    huge = att._replace(scores=att.scores * 1000, weights=attnlib.softmax(att.scores * 1000))
    fails_with(checks.check_prediction_alpha(0.5, huge, 1, 2, reveal=True), "minus their maximum")
    assert "inf" not in str(checks.check_prediction_alpha(0.5, huge, 1, 2, reveal=True))


# --- doubling every score (05) ---


def test_doubled_scores_accepts_any_case_and_spaces():
    passes(checks.check_prediction_doubled_scores("  Sharper ", reveal=True))


def test_doubled_scores_is_read_from_the_numbers():
    att = small()
    before, after = attnlib.softmax(att.scores[1]), attnlib.softmax(2 * att.scores[1])
    assert after.max() > before.max()  # the claim the check makes, by an independent route
    uniform = att._replace(scores=np.zeros_like(att.scores))  # equal scores stay equal
    passes(checks.check_prediction_doubled_scores("unchanged", uniform, reveal=True))
    fails_with(
        checks.check_prediction_doubled_scores("sharper", uniform, reveal=True), "row is uniform"
    )


# --- the variance of an unscaled score (04) ---


def test_variance_rule_and_tolerance():
    passes(checks.check_prediction_score_variance(16, d_k=16, reveal=True))
    passes(checks.check_prediction_score_variance(65.2, reveal=True))  # a simulation's estimate
    fails_with(checks.check_prediction_score_variance(4, d_k=16, reveal=True), "standard deviation")
    fails_with(checks.check_prediction_score_variance(64 * 1.15, reveal=True), "about 64")
    # the message's simulated variance comes from attnlib.stats and is near d_k
    measured = attnlib.stats.score_variance([64], trials=20_000, seed=0).unscaled[0]
    assert abs(measured - 64) < 0.1 * 64
    assert f"{measured:.3g}" in str(checks.check_prediction_score_variance(1, reveal=True))


# --- 03: one fused product, X @ W_QKV ----------------------------------------------


@pytest.mark.parametrize(
    "columns", [[3, 4, 5], (5, 4, 3), range(3, 6), slice(3, 6), np.arange(3, 6)]
)
def test_fused_shape_takes_the_columns_as_a_list_a_range_or_a_slice(columns):
    passes(checks.check_prediction_fused_shape(((5, 9), columns)))


def test_fused_shape_other_sizes_are_computed_not_typed():
    passes(checks.check_prediction_fused_shape(((4, 6), [2, 3]), n=4, d=8, d_k=2))
    fails_with(
        checks.check_prediction_fused_shape(((5, 9), [3, 4, 5]), n=4, d=8, d_k=2, reveal=True),
        "X @ W_QKV has shape (4, 6) and K is columns [2, 3]",
    )


@pytest.mark.parametrize(
    ("answer", "words"),
    [
        (((5, 3), [3, 4, 5]), "the shape of one of Q, K, V"),
        (((9, 5), [3, 4, 5]), "rows are tokens"),
        (((6, 9), [3, 4, 5]), "W_QKV's shape"),
        (((5, 6), [3, 4, 5]), "that is X's shape"),
        (((5, 9), [0, 1, 2]), "those are Q's columns"),
        (((5, 9), [6, 7, 8]), "those are V's columns"),
        (((5, 9), [1, 4, 7]), "one in every three"),
        (((5, 9), [4, 5, 6]), "count the columns from 1"),
        (((5, 9), [3, 4]), "each block d_k columns wide"),
    ],
)
def test_fused_shape_names_each_slip_then_gives_the_answer(answer, words):
    check = checks.check_prediction_fused_shape
    check.reset()
    first = check(answer)
    fails_with(first, "is not right yet", words)
    assert "[3, 4, 5]" not in first.hint and "(5, 9)" not in first.hint
    fails_with(check(answer), "X @ W_QKV has shape (5, 9) and K is columns [3, 4, 5]")
    check.reset()


@pytest.mark.parametrize(
    ("answer", "words"),
    [
        ("((5, 9), [3, 4, 5])", "is text (a str)"),
        ((5, 9), "not a shape and a list of columns"),
        (((5, 9), 3), "not a list of column indices"),
        (((5, 9), "345"), "not a list of column indices"),
        (((5, 9), [3.0, 4, 5]), "not a list of column indices"),
        (..., "not written a prediction"),
    ],
)
def test_fused_shape_of_the_wrong_form_is_no_wrong_try(answer, words):
    check = checks.check_prediction_fused_shape
    fails_with(check(answer), words)
    assert check.attempts.wrong == 0


# --- 05: a temperature ---------------------------------------------------------------


def test_temperature_flattens_above_1_sharpens_below_and_names_the_scaling():
    check = checks.check_prediction_temperature
    passes(check("flatter"))
    passes(check("更平缓"))
    passes(check("sharper", tau=0.5))
    passes(check("unchanged", tau=1))
    assert "τ = √d_k" in check("flatter").message  # the prompt's second question, answered
    hand = attnlib.self_attention(*attnlib.data.hand_example()[1:])
    passes(check("flatter", att=hand))


def test_temperature_slips_first_without_the_answer_then_with_it():
    check = checks.check_prediction_temperature
    check.reset()
    first = check("sharper")
    fails_with(first, "is not right yet", "a τ below 1", "shrinks every score")
    assert "flatter" not in str(first)
    fails_with(check("sharper"), "the rows get flatter", "largest weight per row", "1/2")
    check.reset()
    fails_with(check("unchanged"), "not a factor")
    check.reset()
    fails_with(check("flatter", tau=0.5), "a τ above 1")
    check.reset()


@pytest.mark.parametrize("tau", [0, -1.0, "2", True, None])
def test_temperature_needs_a_positive_number(tau):
    with pytest.raises(ValueError, match="tau must be a positive number"):
        checks.check_prediction_temperature("flatter", tau=tau)
