"""attnlib.checks in Chinese: after set_language("zh") a result reads in Chinese, same numbers.

A sample from every module of attnlib.checks, one pass and one failure with
its hint each, is run in both languages. The Chinese text must hold Chinese
characters in its message (and in its hint), keep the check's name and its
✓/✗ mark, and carry exactly the numbers of the English text: a translation
that drops, adds or re-rounds a number fails here.
"""

from __future__ import annotations

import re
from collections import Counter

import numpy as np
import pytest

import attnlib
from attnlib import causal_mask, checks, softmax, solutions

from .helpers import boom, stub

CJK = re.compile(r"[\u4e00-\u9fff]")
NUMBER = re.compile(r"\d+(?:\.\d+)?")


pytestmark = pytest.mark.usefixtures("english_afterwards")  # tests/conftest.py


def _numbers(text: str) -> Counter:
    return Counter(NUMBER.findall(text))


SAMPLE = {
    # module: a passing call, then a failing call (each a thunk: run in either language)
    "runner": (
        lambda: checks.check_softmax(softmax),
        lambda: checks.check_softmax(boom),
    ),
    "runner (returned None)": (
        lambda: checks.check_weighted_sum(solutions.my_weighted_sum),
        lambda: checks.check_weighted_sum(stub),
    ),
    "inputs": (
        lambda: checks.check_cross_scores(solutions.my_cross_scores),
        lambda: checks.check_shapes(
            lambda n, d, d_k, d_v: {"Q": (n, d), "scores": (n, n), "Z": (n, d_v)}
        ),
    ),
    "formulas": (
        lambda: checks.check_qkv(solutions.my_qkv),
        lambda: checks.check_scores(lambda Q, K: Q @ K.T / Q.shape[1]),
    ),
    "predictions": (
        lambda: checks.check_prediction_cost_ratio(4, reveal=True),
        lambda: checks.check_prediction_score(0.21, reveal=True),
    ),
    "predictions (working shown)": (
        lambda: checks.check_prediction_alpha(0.37, reveal=True),  # α_12 = 0.366
        lambda: checks.check_prediction_alpha(0.5, reveal=True),
    ),
    "projections (a fused product)": (
        lambda: checks.check_prediction_fused_shape(((5, 9), [3, 4, 5])),
        lambda: checks.check_prediction_fused_shape(((5, 9), [0, 1, 2]), reveal=True),
    ),
    "weights (a temperature)": (
        lambda: checks.check_prediction_temperature("flatter"),
        lambda: checks.check_prediction_temperature("sharper", reveal=True),
    ),
    "learned": (
        lambda: checks.check_softmax_backward(solutions.my_softmax_backward),
        lambda: checks.check_loss_gradient(
            lambda logits, answer: np.eye(10)[answer] - softmax(logits)
        ),
    ),
    "next_steps": (
        lambda: checks.check_causal_mask(causal_mask),
        lambda: checks.check_split_heads(lambda M, heads: M.reshape(heads, M.shape[0], -1)),
    ),
    "next_steps (a prediction)": (
        lambda: checks.check_prediction_zero_weights(
            [(i, j) for i in range(5) for j in range(5) if j > i or j >= 3], reveal=True
        ),
        lambda: checks.check_prediction_zero_weights(~causal_mask(5), reveal=True),
    ),
    "learned (predictions)": (
        lambda: checks.check_prediction_gradient_size("larger"),
        lambda: checks.check_prediction_spread_growth(4, reveal=True),
    ),
    "learned (a pair predicted)": (
        lambda: checks.check_prediction_loss_gradient((-0.9, 0.1)),
        lambda: checks.check_prediction_uniform_loss(0.1, reveal=True),
    ),
    "next_steps (predictions about heads)": (
        lambda: checks.check_prediction_head_shapes([(8, 8), (6, 2), (6, 8), (6, 8)]),
        lambda: checks.check_prediction_wrong_d("sharper", reveal=True),
    ),
    "next_steps (masks predicted)": (
        lambda: checks.check_prediction_causal_count(21),
        lambda: checks.check_prediction_flipped_mask(0, reveal=True),
    ),
    "next_steps (a window mask)": (
        lambda: checks.check_window_mask(solutions.my_window_mask),
        lambda: checks.check_window_mask(lambda n, w: causal_mask(n)),
    ),
}


def _both(thunk):
    attnlib.set_language("en")
    english = thunk()
    attnlib.set_language("zh")
    chinese = thunk()
    attnlib.set_language("en")
    return english, chinese


@pytest.mark.parametrize("module", SAMPLE)
def test_a_pass_reads_in_chinese_with_the_same_numbers(module):
    english, chinese = _both(SAMPLE[module][0])
    assert english and chinese, (str(english), str(chinese))
    assert str(chinese).startswith(f"✓ {english.name}: ")
    assert CJK.search(chinese.message), str(chinese)
    assert not CJK.search(str(english)), str(english)
    assert _numbers(str(chinese)) == _numbers(str(english)), (str(english), str(chinese))


@pytest.mark.parametrize("module", SAMPLE)
def test_a_failure_and_its_hint_read_in_chinese_with_the_same_numbers(module):
    english, chinese = _both(SAMPLE[module][1])
    assert not english and not chinese, (str(english), str(chinese))
    assert str(chinese).startswith(f"✗ {english.name}: ")
    assert CJK.search(chinese.message), str(chinese)
    assert CJK.search(chinese.hint), str(chinese)
    assert "\n  提示：" in str(chinese) and "\n  Hint: " in str(english)
    assert not CJK.search(str(english)), str(english)
    assert _numbers(str(chinese)) == _numbers(str(english)), (str(english), str(chinese))


def test_the_learner_s_own_words_and_code_are_not_translated():
    # what the learner typed, and the code a hint suggests, come back as they were
    attnlib.set_language("zh")
    result = checks.check_prediction_doubled_scores("unchanged", reveal=True)
    assert "'unchanged'" in result.message and "更集中" in result.message
    raised = checks.check_softmax(boom)
    assert "KeyError: 'nope'" in raised.message
    inverse = checks.check_permutation(lambda Z, perm: Z[np.argsort(perm)])
    assert "X_new = X[perm]" in inverse.hint and "Z" in inverse.hint and CJK.search(inverse.hint)
    split = checks.check_split_heads(lambda M, heads: M.reshape(heads, M.shape[0], -1))
    assert "parts[0]" in split.hint and "ℓ·d_k … (ℓ+1)·d_k − 1" in split.hint


def test_a_result_keeps_the_language_it_was_made_in():
    # a result printed after the language changed still reads as one language
    attnlib.set_language("zh")
    chinese = checks.check_prediction_score(0.21, reveal=True)
    attnlib.set_language("en")
    assert "\n  提示：" in str(chinese)
    assert not CJK.search(str(checks.check_prediction_score(0.21, reveal=True)))


def test_the_language_is_read_when_the_check_runs():
    attnlib.set_language("zh")
    chinese = checks.check_prediction_cross_shape(..., reveal=True)
    attnlib.set_language("en")
    english = checks.check_prediction_cross_shape(..., reveal=True)
    assert chinese.message == "你还没有写下预测"
    assert english.message == "you have not written a prediction yet"
