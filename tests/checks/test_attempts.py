"""A first wrong try names the step; the answer comes on the second try or on request.

Also: each check keeps its own count, a pass or reset() starts it afresh, and the
result shows green or red in a notebook while its text says the same without colour.
"""

from __future__ import annotations

import numpy as np
import pytest

import attnlib
from attnlib import checks

from .helpers import fails_with, passes


def hand():
    ex = attnlib.data.hand_example()
    return attnlib.self_attention(ex.X, ex.W_Q, ex.W_K, ex.W_V), ex.tokens


def test_first_wrong_try_names_the_step_without_the_answer():
    att, _ = hand()
    right = f"{att.weights[1, 2]:.4g}"
    first = checks.check_prediction_alpha(0.5, att=att)
    fails_with(first, "is not right yet", "subtract the row's largest score", "reveal=True")
    assert right not in str(first)
    second = checks.check_prediction_alpha(0.5, att=att)
    fails_with(second, f"= {right}", "minus their maximum")


def test_reveal_shows_the_answer_at_once():
    att, _ = hand()
    fails_with(checks.check_prediction_alpha(0.5, att=att, reveal=True), f"{att.weights[1, 2]:.4g}")
    assert checks.check_prediction_alpha.attempts.wrong == 0  # asking is not a wrong try


def test_each_check_counts_its_own_wrong_tries_and_reset_starts_afresh():
    att, tokens = hand()
    checks.check_prediction_alpha(0.5, att=att)  # one wrong try of alpha
    assert checks.check_prediction_alpha.attempts.wrong == 1
    # winner has not been tried: its first wrong try still hides the answer
    fails_with(checks.check_prediction_winner(0, att=att, tokens=tokens), "is not right yet")
    checks.check_prediction_alpha.reset()
    fails_with(checks.check_prediction_alpha(0.5, att=att), "is not right yet")


def test_a_pass_resets_the_count_and_placeholders_do_not_count():
    att, _ = hand()
    checks.check_prediction_alpha(..., att=att)
    assert checks.check_prediction_alpha.attempts.wrong == 0
    checks.check_prediction_alpha(0.5, att=att)
    passes(checks.check_prediction_alpha(round(float(att.weights[1, 2]), 2), att=att))
    fails_with(checks.check_prediction_alpha(0.5, att=att), "is not right yet")


def test_alpha_is_explained_by_the_shifted_route_of_the_notebook():
    att, _ = hand()
    text = str(checks.check_prediction_alpha(0.9, att=att, reveal=True))
    # chase's scores -0.5, 0, 1.5 minus 1.5: -2, -1.5, 0, whose exps are e^-2, e^-1.5 and 1
    assert "minus their maximum 1.5 are -2, -1.5, 0" in text
    assert f"{np.exp(-2):.4g}, {np.exp(-1.5):.4g}, 1" in text


def test_winner_accepts_the_token_as_check_pick_does():
    att, tokens = hand()
    passes(checks.check_prediction_winner("mice", att=att, tokens=tokens))
    passes(checks.check_prediction_winner(" mice ", att=att, tokens=tokens))
    fails_with(
        checks.check_prediction_winner("chase", att=att, tokens=tokens, reveal=True),
        "won by key 2",
        "does not always attend",
    )
    fails_with(
        checks.check_prediction_winner("dogs", att=att, tokens=tokens),
        "'dogs' is not one of the keys' tokens: 'cats', 'chase', 'mice'",
    )
    # a wrong token is echoed as it was typed, not as the index it stands for
    checks.check_prediction_winner.reset()
    fails_with(
        checks.check_prediction_winner("chase", att=att, tokens=tokens),
        "your prediction 'chase' is not right yet",
    )
    fails_with(
        checks.check_prediction_winner("2", att=att, tokens=tokens),
        "'2' is text (a str), not an index",
        "without quotes",
        ": 2",
    )


def test_winner_refuses_a_repeated_token_and_asks_for_the_index():
    ex = attnlib.toy_example(n=6)  # 'the' at 0 and 4
    att = attnlib.self_attention(ex.X, ex.W_Q, ex.W_K, ex.W_V)
    fails_with(
        checks.check_prediction_winner("the", att=att, tokens=ex.tokens), "more than once", "index"
    )


def test_softmax_down_the_columns_is_named():
    def down_columns(scores):
        e = np.exp(scores - scores.max(axis=0, keepdims=True))
        return e / e.sum(axis=0, keepdims=True)

    result = checks.check_softmax(down_columns)
    fails_with(result, "down the columns (axis=0)", "every row must sum to 1", "which axis")


def test_scores_hint_names_the_formula_not_the_code():
    result = checks.check_scores(lambda Q, K: Q @ K.T)
    fails_with(result, "you did not scale", "square root")
    assert "np.sqrt" not in result.hint and "@" not in result.hint


def test_pass_and_failure_are_coloured_and_readable_without_colour():
    att, _ = hand()
    good = checks.check_prediction_alpha(0.74, att=att)
    bad = checks.check_prediction_alpha(0.5, att=att)
    assert (
        "color: #1a7f37" in good._repr_html_() and "✓ check_prediction_alpha" in good._repr_html_()
    )
    assert "color: #cf222e" in bad._repr_html_() and "✗ check_prediction_alpha" in bad._repr_html_()
    # the words carry the verdict too, and the text is escaped
    assert "not right yet" in bad._repr_html_()
    assert "&#x27;" in checks.check_prediction_alpha(0.5, att=att)._repr_html_()


# --- the new predictions of 01 and 05 ---


def test_moved_token_names_the_inverse_slip():
    passes(checks.check_prediction_moved_token(4))  # perm = (5, 3, 0, 4, 1, 2): cat goes to row 4
    fails_with(
        checks.check_prediction_moved_token(3, reveal=True), "now in row 4", "perm[1] = 3 says"
    )
    fails_with(checks.check_prediction_moved_token(1, reveal=True), "the token moved")
    fails_with(checks.check_prediction_moved_token(0), "is not right yet", "which r holds token 1")
    checks.check_prediction_moved_token.reset()


def test_moved_token_takes_another_permutation():
    passes(checks.check_prediction_moved_token(0, perm=(2, 0, 1), i=2))
    with pytest.raises(ValueError, match="perm must reorder"):
        checks.check_prediction_moved_token(0, perm=(0, 0, 1))


def test_exps_by_the_shifted_route():
    att, _ = hand()  # chase: scores -0.5, 0, 1.5
    checks.check_prediction_exps.reset()
    passes(checks.check_prediction_exps([0.14, 0.22, 1.0], att=att))
    unshifted = np.exp(att.scores[1])
    fails_with(
        checks.check_prediction_exps(unshifted, att=att, reveal=True), "subtract the row's maximum"
    )
    fails_with(checks.check_prediction_exps([-2, -1.5, 0], att=att, reveal=True), "shifted scores")
    fails_with(checks.check_prediction_exps([0.1, 0.2], att=att), "is not 3 numbers")
    fails_with(checks.check_prediction_exps("0.1 0.2 1", att=att), "is text (a str), not 3 numbers")


def test_output_by_hand_and_its_slips():
    att, _ = hand()  # z_1 = (0.8357, 0.9004)
    checks.check_prediction_output.reset()
    passes(checks.check_prediction_output([0.84, 0.90], att=att))
    fails_with(
        checks.check_prediction_output(att.V.mean(axis=0), att=att, reveal=True), "plain average"
    )
    column = att.weights[:, 1] @ att.V
    fails_with(checks.check_prediction_output(column, att=att, reveal=True), "column 1 of α")
    first = checks.check_prediction_output([0.5, 0.5], att=att)
    fails_with(first, "is not right yet", "for each coordinate c")
    assert "0.8357" not in str(first)
    checks.check_prediction_output.reset()


def test_each_question_of_a_check_counts_its_own_wrong_tries():
    """05 asks check_prediction_alpha of α₁₂, then of α₂₂: a wrong try at the first
    does not spend the second's first try (its diagnosis without the answer)."""
    att, _ = hand()
    fails_with(checks.check_prediction_alpha(0.5, att=att, i=1, j=2), "is not right yet")
    first_of_the_second = checks.check_prediction_alpha(0.5, att=att, i=2, j=2)
    fails_with(first_of_the_second, "is not right yet")
    assert f"{att.weights[2, 2]:.4g}" not in str(first_of_the_second)
    # the first question's second try shows its answer; the second's count is still 1
    fails_with(checks.check_prediction_alpha(0.5, att=att, i=1, j=2), f"{att.weights[1, 2]:.4g}")
    assert checks.check_prediction_alpha.attempts.wrong == 2
    checks.check_prediction_alpha(0.5, att=att, i=2, j=2)
    assert checks.check_prediction_alpha.attempts.wrong == 2
    # 07 asks check_prediction_zero_weights twice, with and without its arguments
    checks.check_prediction_zero_weights([(0, 1)])
    fails_with(
        checks.check_prediction_zero_weights([(0, 1)], length=4, n=6, causal=False),
        "is not right yet",
    )


def test_check_pick_never_gives_the_answer_as_its_example():
    """06's puzzle `d6 b7 c8 e6 g7 ?d` asks for d6, its first token: the example
    written into the placeholder's message must be another pair."""
    from attnlib import lookup

    for seed in range(40):
        seq = lookup.make_task(1, seed=seed)[0]
        answer = seq.tokens[seq.match]
        for said in (None, ..., "3"):
            text = str(checks.check_pick(said, lookup.init_params(), seq))
            assert repr(answer) not in text, (seed, text)
