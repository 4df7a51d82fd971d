"""A first wrong prediction is told its slip, with no number of the answer; the second, the answer.

One case for each prediction check (each ``raise wrong(...)`` of attnlib.checks): a
wrong answer that makes a usual slip, a fragment of the words that name it, and the
right answer as the check would print it. The first wrong try must name the slip and
hold none of the right answer's numbers (nor its word, for a choice); the second
wrong try must show them. The same in Chinese: the slip in Chinese, no number of the
answer, and the same numbers as the English first try.
"""

from __future__ import annotations

import re
from collections import Counter

import numpy as np
import pytest

import attnlib
from attnlib import causal_mask, checks
from attnlib.lessons.checks.worked import small_example

from .helpers import fails_with

CJK = re.compile(r"[\u4e00-\u9fff]")
NUMBER = re.compile(r"\d+(?:\.\d+)?")


def _hand():
    ex = attnlib.data.hand_example()
    return attnlib.self_attention(ex.X, ex.W_Q, ex.W_K, ex.W_V)


HAND = _hand()  # chase's row: scores -0.5, 0, 1.5; α_12 = 0.7361; z_1 = (0.8357, 0.9004)
SMALL = small_example()  # the default question of check_prediction_score
Q0K1 = float(SMALL.Q[0] @ SMALL.K[1])  # q_0 · k_1, before the scaling
SCORE_01 = float(SMALL.scores[0, 1])
ALPHA_12 = float(HAND.weights[1, 2])
EXPS = np.exp(HAND.scores[1] - HAND.scores[1].max())  # (3,): e^-2, e^-1.5, 1
Z_1 = HAND.Z[1]


def _g(x: float) -> list[str]:
    # a number as the checks print it (4 significant digits) and as a learner writes it
    return [f"{x:.4g}", f"{x:.2f}"]


# (check, answer, keywords, a fragment of the slip's words, the right answer as printed)
CASES = {
    "cross_shape, transposed": (
        checks.check_prediction_cross_shape,
        (5, 3),
        {},
        "the wrong way round",
        ["(3, 5)"],
    ),
    "cost_ratio, as Q grows": (
        checks.check_prediction_cost_ratio,
        2,
        {},
        "how Q, K and V grow",
        ["4"],
    ),
    "moved_token, perm read the other way": (
        checks.check_prediction_moved_token,
        3,
        {},
        "read perm the other way round",
        ["4"],
    ),
    "X_shape, the table": (
        checks.check_prediction_X_shape,
        (45, 8),
        {},
        "that is the embedding table",
        ["(6, 8)"],
    ),
    "embedding_row, the position": (
        checks.check_prediction_embedding_row,
        4,
        {},
        "the position in the sentence",
        ["35"],
    ),
    "embedding_row, counted from 1": (
        checks.check_prediction_embedding_row,
        36,
        {},
        "count the rows from 1",
        ["35"],
    ),
    "qkv_shapes, the weight matrices' shapes": (
        checks.check_prediction_qkv_shapes,
        ((6, 3), (6, 3), (6, 2)),
        {},
        "that is W_Q's shape",
        ["(5, 3)"],
    ),
    "fused_shape, Q's columns": (
        checks.check_prediction_fused_shape,
        ((5, 9), [0, 1, 2]),
        {},
        "those are Q's columns",
        ["[3, 4, 5]"],
    ),
    "fused_shape, one projection's shape": (
        checks.check_prediction_fused_shape,
        ((5, 3), [3, 4, 5]),
        {},
        "the shape of one of Q, K, V",
        ["(5, 9)"],
    ),
    "score, before the scaling": (
        checks.check_prediction_score,
        round(Q0K1, 3),
        {},
        "before the scaling",
        _g(SCORE_01),
    ),
    "score, divided by d_k": (
        checks.check_prediction_score,
        round(Q0K1 / 4, 3),
        {},
        "divided by d_k, not by √d_k",
        _g(SCORE_01),
    ),
    "score, the transposed pair": (
        checks.check_prediction_score,
        round(float(SMALL.scores[1, 0]), 3),
        {},
        "that is score_10",
        _g(SCORE_01),
    ),
    "score_variance, the standard deviation": (
        checks.check_prediction_score_variance,
        8,
        {},
        "standard deviation",
        ["64"],
    ),
    "score_variance, after the scaling": (
        checks.check_prediction_score_variance,
        1,
        {},
        "after dividing by √d_k",
        ["64"],
    ),
    "winner, itself": (
        checks.check_prediction_winner,
        1,
        {"att": HAND, "tokens": ("cats", "chase", "mice")},
        "does not always attend most to itself",
        ["2", "mice"],
    ),
    "doubled_scores, unchanged": (
        checks.check_prediction_doubled_scores,
        "unchanged",
        {},
        "doubling multiplies",
        ["sharper"],
    ),
    "doubled_scores, flatter": (
        checks.check_prediction_doubled_scores,
        "flatter",
        {},
        "what dividing the scores does",
        ["sharper"],
    ),
    "alpha, 1/n": (
        checks.check_prediction_alpha,
        round(1 / 3, 3),
        {"att": HAND},
        "1/3 holds only when",
        _g(ALPHA_12),
    ),
    "alpha, an exponential alone": (
        checks.check_prediction_alpha,
        1.0,
        {"att": HAND},
        "an exponential alone",
        _g(ALPHA_12),
    ),
    "exps, not shifted": (
        checks.check_prediction_exps,
        list(np.exp(HAND.scores[1]).round(3)),
        {"att": HAND},
        "exp of the scores themselves",
        [*_g(EXPS[0]), *_g(EXPS[1])],
    ),
    "exps, shifted the wrong way": (
        checks.check_prediction_exps,
        list(np.exp(HAND.scores[1].max() - HAND.scores[1]).round(3)),
        {"att": HAND},
        "the maximum minus each score",
        [*_g(EXPS[0]), *_g(EXPS[1])],
    ),
    "output, the plain average": (
        checks.check_prediction_output,
        list(HAND.V.mean(axis=0).round(3)),
        {"att": HAND},
        "plain average",
        [*_g(Z_1[0]), *_g(Z_1[1])],
    ),
    "temperature, sharper": (
        checks.check_prediction_temperature,
        "sharper",
        {},
        "a τ below 1",
        ["flatter"],
    ),
    "uniform_loss, the probability": (
        checks.check_prediction_uniform_loss,
        0.1,
        {},
        "the probability of the right answer",
        ["2.303", "2.30"],
    ),
    "gradient_size, saturation": (
        checks.check_prediction_gradient_size,
        "smaller",
        {},
        "one of two effects",
        ["larger"],
    ),
    "spread_growth, the variance's growth": (
        checks.check_prediction_spread_growth,
        4,
        {},
        "how much the variance grows",
        ["2"],
    ),
    "loss_gradient, p alone": (
        checks.check_prediction_loss_gradient,
        (0.1, 0.1),
        {},
        "that is p alone",
        ["-0.9"],
    ),
    "causal_count, no diagonal": (
        checks.check_prediction_causal_count,
        15,
        {},
        "leaves out the diagonal",
        ["21"],
    ),
    "flipped_mask, the causal mask's row": (
        checks.check_prediction_flipped_mask,
        0,
        {},
        "row 0 sees only itself",
        ["5"],
    ),
    "head_shapes, one head's W_Q": (
        checks.check_prediction_head_shapes,
        [(8, 2), (6, 2), (6, 8), (6, 8)],
        {},
        "one head's block",
        ["(8, 8)"],
    ),
    "head_parameters, more heads": (
        checks.check_prediction_head_parameters,
        "eight heads",
        {},
        "each block is narrower",
        ["the same"],
    ),
    "wrong_d, sharper": (
        checks.check_prediction_wrong_d,
        "sharper",
        {},
        "dividing by a smaller number",
        ["flatter"],
    ),
    "zero_weights, no padding": (
        checks.check_prediction_zero_weights,
        ~causal_mask(5),
        {},
        "the causal triangle is right",
        ["(0, 1), (0, 2)", "(3, 4)"],
    ),
}


def _holds(text: str, value: str) -> bool:
    """Whether `value` is in `text` as a number of its own (not "2" of "256"), or as words."""
    if re.fullmatch(r"[-(\d][\d., ()-]*", value):
        return re.search(rf"(?<![\d.]){re.escape(value)}(?![\d])", text) is not None
    return value in text


def _hint(result) -> str:
    # what a first try says beyond echoing the learner's own answer: the hint and the last line
    return "\n".join(result.lines()[1:])


@pytest.mark.parametrize("case", CASES)
def test_the_first_wrong_try_names_the_slip_without_the_answer(case):
    check, answer, kwargs, slip, right = CASES[case]
    check.reset()
    first = check(answer, **kwargs)
    fails_with(first, "is not right yet", slip, "reveal=True")
    for value in right:
        assert not _holds(_hint(first), value), f"{value!r} gives the answer away: {first}"
    second = check(answer, **kwargs)
    assert not second
    assert any(_holds(str(second), value) for value in right), str(second)
    check.reset()


def test_every_prediction_check_has_a_case():
    # each check that raises wrong(...): a new prediction check gets its case here
    named = {check.__name__ for check, *_ in CASES.values()}
    predictions = {name for name in checks.__all__ if name.startswith("check_prediction_")}
    assert predictions <= named, predictions - named


pytestmark = pytest.mark.usefixtures("english_afterwards")  # tests/conftest.py


@pytest.mark.parametrize("case", CASES)
def test_the_first_wrong_try_in_chinese(case):
    check, answer, kwargs, _, right = CASES[case]
    check.reset()
    english = check(answer, **kwargs)
    check.reset()
    attnlib.set_language("zh")
    try:
        first = check(answer, **kwargs)
        second = check(answer, **kwargs)
    finally:
        attnlib.set_language("en")
        check.reset()
    assert not first and CJK.search(first.hint), str(first)
    assert "还不对" in first.message and "reveal=True" in str(first)
    for value in right:
        if not CJK.search(value) and not value.isalpha():  # numbers and shapes
            assert not _holds(_hint(first), value), f"{value!r} gives the answer away: {first}"
    assert Counter(NUMBER.findall(_hint(first))) == Counter(NUMBER.findall(_hint(english)))
    assert not second and CJK.search(second.message)


def test_a_chosen_word_is_not_given_away_in_chinese_either():
    names = {"sharper": "更集中", "flatter": "更平缓", "larger": "更大", "the same": "一样多"}
    assert sum(1 for case in CASES.values() if case[4][0] in names) >= 5
    for case in CASES.values():
        check, answer, kwargs, _, right = case
        if not (isinstance(answer, str) and right[0] in names):
            continue
        check.reset()
        attnlib.set_language("zh")
        try:
            first = check(answer, **kwargs)
        finally:
            attnlib.set_language("en")
            check.reset()
        assert names[right[0]] not in _hint(first), str(first)


def test_no_slip_recognised_gives_the_step_to_redo():
    check = checks.check_prediction_score
    check.reset()
    first = check(5.0)
    fails_with(first, "is not right yet", "redo it in three steps")
    assert not any(_holds(_hint(first), value) for value in _g(SCORE_01))
    check.reset()


def test_more_slips_are_named_on_the_first_try():
    # slips beyond the table above, each with the words that name it
    ex = attnlib.toy_example(n=3, d=4, d_k=4, seed=8)  # score_01 = 1.595, score_10 = 0.818
    peaked = attnlib.self_attention(ex.X, ex.W_Q, ex.W_K, ex.W_V)
    score = float(peaked.scores[0, 1])
    for check, answer, kwargs, words in [
        (checks.check_prediction_score, round(-score, 3), {"att": peaked}, "sign is turned round"),
        (checks.check_prediction_score_variance, 0, {}, "0 is the mean"),
        (checks.check_prediction_uniform_loss, -2.303, {}, "sign is turned round"),
        (checks.check_prediction_uniform_loss, round(float(np.log2(10)), 2), {}, "log base 2"),
        (checks.check_prediction_spread_growth, 16, {}, "the spread at one d_k"),
        (checks.check_prediction_loss_gradient, (-1, 0), {}, "-one_hot(answer) alone"),
        (checks.check_prediction_causal_count, 18, {}, "cut the diagonal in two"),
        (checks.check_prediction_fused_shape, ((5, 9), [1, 4, 7]), {}, "one in every three"),
        (checks.check_prediction_head_parameters, "one head", {}, "only one of them"),
        (checks.check_prediction_exps, [7.39, 4.48, 1.0], {"att": HAND}, "maximum minus each"),
    ]:
        check.reset()
        first = check(answer, **kwargs)
        fails_with(first, "is not right yet", words)
        check.reset()
    first = checks.check_prediction_score(round(-score, 3), att=peaked)
    assert f"{score:.4g}" not in _hint(first) and "-" + f"{score:.4g}" in first.message
    checks.check_prediction_score.reset()
