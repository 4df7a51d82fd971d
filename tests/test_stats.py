"""attnlib.stats against per-element loops and properties that hold for any input."""

from __future__ import annotations

import math
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from attnlib import self_attention, softmax, toy_example
from attnlib.maths.stats import (
    max_weight,
    row_entropy,
    saturation,
    scaling_comparison,
    score_variance,
    spread,
)


def entropy_loop(weights):
    out = []
    for row in weights:
        h = 0.0
        for a in row:
            if a > 0:
                h -= a * math.log(a)
        out.append(h)
    return out


@given(st.integers(1, 6), st.integers(1, 6), st.integers(0, 2**16))
def test_row_entropy_and_max_weight_match_loops(n_q, n_kv, seed):
    weights = softmax(np.random.default_rng(seed).normal(scale=3, size=(n_q, n_kv)))
    np.testing.assert_allclose(row_entropy(weights), entropy_loop(weights), atol=1e-12)
    np.testing.assert_array_equal(max_weight(weights), [max(row) for row in weights])
    assert (row_entropy(weights) <= math.log(n_kv) + 1e-12).all()
    assert (max_weight(weights) >= 1 / n_kv - 1e-12).all()


def test_entropy_extremes():
    np.testing.assert_allclose(row_entropy(np.full((2, 5), 0.2)), [math.log(5)] * 2)
    np.testing.assert_array_equal(row_entropy(np.eye(3)), [0.0, 0.0, 0.0])
    assert not np.signbit(row_entropy(np.eye(3))).any()  # 0, not -0, in a printed readout


@pytest.mark.parametrize(
    ("weights", "error", "words"),
    [
        ([[0.5, 0.6]], ValueError, "row 0 sums to 1.1"),
        ([[1.5, -0.5]], ValueError, "weights must be >= 0"),
        ("abc", TypeError, "weights"),
        ([1.0], ValueError, "2-D"),
    ],
)
def test_bad_weights_are_named(weights, error, words):
    for function in (row_entropy, max_weight):
        with pytest.raises(error, match=words):
            function(weights)


def test_score_variance_grows_with_d_k_unscaled_and_stays_near_1_scaled():
    result = score_variance([1, 4, 16, 64, 256], trials=4000, seed=1)
    np.testing.assert_array_equal(result.d_k, [1, 4, 16, 64, 256])
    np.testing.assert_allclose(result.unscaled / result.d_k, 1, rtol=0.1)
    np.testing.assert_allclose(result.scaled, 1, rtol=0.1)
    np.testing.assert_allclose(result.scaled * result.d_k, result.unscaled)
    again = score_variance([1, 4, 16, 64, 256], trials=4000, seed=1)
    np.testing.assert_array_equal(again.unscaled, result.unscaled)  # seeded
    assert (score_variance(16, trials=4000, seed=2).unscaled != result.unscaled[2]).all()


def test_saturation_unscaled_softmax_saturates_and_scaled_does_not():
    s = saturation([1, 16, 256], n=8, trials=100, seed=0)
    assert s.max_weight_unscaled[0] < s.max_weight_unscaled[1] < s.max_weight_unscaled[2]
    assert s.max_weight_unscaled[2] > 0.9 and s.entropy_unscaled[2] < 0.3
    assert (
        np.ptp(s.max_weight_scaled) < 0.1 and np.ptp(s.entropy_scaled) < 0.1
    )  # d_k = 1: q·k not normal
    assert (s.entropy_scaled <= math.log(8)).all()


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"d_ks": [4, 0]}, ValueError),
        ({"d_ks": []}, ValueError),
        ({"trials": 1}, ValueError),
        ({"seed": "0"}, TypeError),
        ({"d_ks": [2.5]}, TypeError),
    ],
)
def test_score_variance_rejects_bad_arguments(kwargs, error):
    with pytest.raises(error):
        score_variance(**kwargs)


def test_scaling_comparison_is_two_self_attention_calls():
    ex = toy_example(n=8, d_k=32, seed=4)
    c = scaling_comparison(*ex[1:])
    raw, scaled = self_attention(*ex[1:], scaled=False), self_attention(*ex[1:])
    np.testing.assert_array_equal(c.unscaled.weights, raw.weights)
    np.testing.assert_array_equal(c.scaled.weights, scaled.weights)
    assert c.score_variance_unscaled == pytest.approx(raw.scores.var())
    assert c.score_variance_scaled == pytest.approx(raw.scores.var() / 32)
    assert c.max_weight_scaled == pytest.approx(max_weight(scaled.weights).mean())
    assert c.entropy_unscaled == pytest.approx(row_entropy(raw.weights).mean())


def test_stats_imports_no_matplotlib():
    code = (
        "import sys, attnlib.stats; print('matplotlib' in sys.modules, 'ipywidgets' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False"]


def test_spread_against_sorting_by_hand():
    values = np.random.default_rng(3).exponential(size=101) ** 4  # heavy-tailed: mean >> median
    s = spread(values, near_zero=0.05)
    ordered = np.sort(values)
    assert s.median == ordered[50]  # 101 values: the 51st is the median
    assert s.q1 == ordered[25] and s.q3 == ordered[75]  # 25 % and 75 % of the way, exactly
    assert s.near_zero == np.count_nonzero(values < 0.05) / 101
    assert s.mean == pytest.approx(values.sum() / 101)
    assert s.mean > 2 * s.median


@pytest.mark.parametrize(
    ("values", "near_zero", "words"),
    [
        ([], 0.01, "1-D array of finite sizes"),
        ([[0.1, 0.2]], 0.01, "1-D array of finite sizes"),
        ([0.1, -0.2], 0.01, "finite sizes >= 0"),
        ([0.1, np.nan], 0.01, "finite sizes"),
        ([0.1, 0.2], 0.0, "near_zero must be a positive number"),
    ],
)
def test_spread_names_bad_input(values, near_zero, words):
    with pytest.raises(ValueError, match=words):
        spread(values, near_zero=near_zero)
