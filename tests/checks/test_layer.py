"""attnlib.checks.layer: the capstone of 05, a learner's whole self-attention layer.

The layers below are written as a learner would write them, in plain numpy (no
attnlib), each with one of the usual slips; each must fail with its own words
and a hint that points to it without handing over the code, never with a
traceback. The right layer, written twice (with matrices, and with the
chapter's loops), must pass.
"""

from __future__ import annotations

import numpy as np
import pytest

from attnlib import checks, solutions
from attnlib.checks import layer

from .helpers import fails_with, passes

SOLVED = [(checks.check_self_attention, solutions.my_self_attention)]


def test_every_check_of_the_module_is_listed():
    assert {check.__name__ for check, _ in SOLVED} == {
        name for name in dir(layer) if name.startswith("check_")
    }


def rows_softmax(S, axis=-1, shift=True):
    """A learner's softmax: exponentials over their sum along `axis`."""
    if shift:
        S = S - S.max(axis=axis, keepdims=True)
    E = np.exp(S)
    return E / E.sum(axis=axis, keepdims=True)


def layer_with(*, axis=-1, divide_by="root", transpose=False, keys="W_K", mix="V", shift=True):
    """A layer in numpy with one step changed from the chapter's."""

    def my_self_attention(X, W_Q, W_K, W_V):
        Q, V = X @ W_Q, X @ W_V
        K = X @ (W_K if keys == "W_K" else W_Q)
        d_k = Q.shape[1]
        raw = K @ Q.T if transpose else Q @ K.T
        divisor = {"root": np.sqrt(d_k), "d_k": d_k, "none": 1.0}[divide_by]
        weights = rows_softmax(raw / divisor, axis=axis, shift=shift)
        return weights @ (V if mix == "V" else X)

    return my_self_attention


def loops(X, W_Q, W_K, W_V):
    """The chapter's formulas element by element: another way to the same Z."""
    n, d_k = len(X), W_Q.shape[1]
    Q, K, V = X @ W_Q, X @ W_K, X @ W_V
    Z = np.zeros((n, V.shape[1]))
    for i in range(n):
        s = [sum(Q[i, c] * K[j, c] for c in range(d_k)) / d_k**0.5 for j in range(n)]
        e = [np.exp(s_j - max(s)) for s_j in s]
        for j in range(n):
            Z[i] += e[j] / sum(e) * V[j]
    return Z


def test_the_chapters_layer_passes_written_with_matrices_or_loops():
    passes(checks.check_self_attention(layer_with()))
    passes(checks.check_self_attention(loops))
    passes(checks.check_self_attention(solutions.my_self_attention))


@pytest.mark.parametrize(
    ("wrong", "said", "hint"),
    [
        (layer_with(axis=0), "runs down the columns (axis=0)", "which way must the rows"),
        (layer_with(transpose=True), "scores are transposed (K Qᵀ)", "which factor comes first"),
        (layer_with(divide_by="none"), "did not scale the scores", "√d_k, the square root"),
        (layer_with(divide_by="d_k"), "divided the scores by d_k = 9, not by √d_k = 3", "√d_k"),
        (layer_with(keys="W_Q"), "your keys are X @ W_Q", "its own weight matrix"),
        (layer_with(mix="X"), "mixed the rows of X", "what are they made from"),
        (layer_with(shift=False), "nan or inf: the softmax overflowed", "before np.exp"),
    ],
)
def test_each_usual_slip_is_named_with_a_hint_that_is_no_solution(wrong, said, hint):
    result = checks.check_self_attention(wrong)
    fails_with(result, said, hint)
    for code in ("axis=-1", "Q @ K.T", "/ np.sqrt", "X @ W_K", "@ V", ".max("):
        assert code not in result.hint  # the hint names the slip, it does not write the line


def test_the_overflow_is_found_on_the_large_case_only():
    # an unshifted softmax is right on small scores: the first case passes, the second names it
    result = checks.check_self_attention(layer_with(shift=False))
    fails_with(result, "times 30 (scores in the thousands)")


def test_returning_the_weights_or_a_transposed_z_is_named():
    def weights_only(X, W_Q, W_K, W_V):
        Q, K = X @ W_Q, X @ W_K
        return rows_softmax(Q @ K.T / np.sqrt(Q.shape[1]))

    fails_with(checks.check_self_attention(weights_only), "shape (4, 4)", "the weights, not Z")

    def transposed_z(X, W_Q, W_K, W_V):
        return layer_with()(X, W_Q, W_K, W_V).T

    fails_with(checks.check_self_attention(transposed_z), "Z is transposed", "(3, 4)", "(4, 3)")


def test_a_product_of_coordinates_raises_and_is_reported_with_the_shapes_hint():
    def coordinates(X, W_Q, W_K, W_V):
        Q, K, V = X @ W_Q, X @ W_K, X @ W_V
        return rows_softmax(Q.T @ K / 3.0) @ V  # (9, 9) @ (4, 3): numpy refuses

    fails_with(
        checks.check_self_attention(coordinates), "your function raised ValueError", "(n, d_k)"
    )


def test_the_check_gives_the_learner_copies():
    seen = []

    def spoils_its_inputs(X, W_Q, W_K, W_V):
        Z = layer_with()(X, W_Q, W_K, W_V)
        seen.append(X.copy())
        X[:] = 0.0
        return Z

    passes(checks.check_self_attention(spoils_its_inputs))
    assert not np.array_equal(seen[0], 0.0) and not np.array_equal(seen[1], 0.0)


def test_its_messages_are_chinese_in_the_chinese_edition():
    import attnlib

    attnlib.set_language("zh")
    try:
        result = checks.check_self_attention(layer_with(axis=0))
    finally:
        attnlib.set_language("en")
    fails_with(result, "沿列做的", "注意力权重应该沿哪个方向")
