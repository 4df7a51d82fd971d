"""attnlib.data.hand_example: the pencil-and-paper numbers, worked out by hand, against attnlib.

Every literal below was computed on paper from the X and W printed in
hand_example's source, not read from attnlib; math.exp is the only help.
(It lives in its own file so that it does not collide with other changes to
tests/test_data.py; it belongs with the data tests.)
"""

import math

import numpy as np

import attnlib
from attnlib import reference
from attnlib.maths.data import Example, hand_example


def test_shapes_tokens_and_small_integers():
    ex = hand_example()
    assert isinstance(ex, Example)
    assert ex.tokens == ("cats", "chase", "mice")
    assert ex.X.shape == (3, 4) and ex.W_Q.shape == ex.W_K.shape == (4, 4)
    assert ex.W_V.shape == (4, 2)
    for M in ex[1:]:
        assert M.dtype == np.float64
        assert set(np.unique(M)) <= {-1.0, 0.0, 1.0}


def test_fresh_arrays_on_every_call():
    a, b = hand_example(), hand_example()
    a.X[0, 0] = 99.0
    assert b.X[0, 0] == 1.0 and hand_example().X[0, 0] == 1.0


def _unscaled_scores():
    return attnlib.self_attention(*hand_example()[1:], scaled=False).scores


def test_q1_dot_k2_term_by_term_by_hand():
    att = attnlib.self_attention(*hand_example()[1:])
    # x_1 = (1, 0, 0, 1): q_1 = row 0 + row 3 of W_Q = (0, 1, 1, 0) + (-1, 0, 0, -1)
    q_1 = [-1, 1, 1, -1]
    # x_2 = (1, 1, 0, 1): k_2 = rows 0, 1, 3 of W_K = (1, 1, 0, 0) + (-1, 0, 1, -1) + (1, 0, 1, 0)
    k_2 = [1, 1, 2, -1]
    products = [-1, 1, 2, 1]  # (-1)(1), (1)(1), (1)(2), (-1)(-1)
    dot = 3  # -1 + 1 + 2 + 1
    score = 1.5  # 3 / sqrt(4) = 3 / 2
    np.testing.assert_array_equal(att.Q[1], q_1)
    np.testing.assert_array_equal(att.K[2], k_2)
    np.testing.assert_array_equal(att.Q[1] * att.K[2], products)
    assert att.Q[1] @ att.K[2] == dot
    assert att.scores[1, 2] == score
    assert _unscaled_scores()[1, 2] == dot  # no division when unscaled


def test_every_q_k_v_and_score_by_hand():
    att = attnlib.self_attention(*hand_example()[1:])
    Q = [[-1, 0, 0, 1], [-1, 1, 1, -1], [-1, 2, 1, 0]]
    K = [[1, 1, 0, 1], [2, 1, 1, 0], [1, 1, 2, -1]]
    V = [[1, 0], [0, 1], [1, 1]]
    dots = [[0, -2, -2], [-1, 0, 3], [1, 1, 3]]  # q_i . k_j, worked out one by one
    scores = [[0, -1, -1], [-0.5, 0, 1.5], [0.5, 0.5, 1.5]]  # dots / 2
    np.testing.assert_array_equal(att.Q, Q)
    np.testing.assert_array_equal(att.K, K)
    np.testing.assert_array_equal(att.V, V)
    np.testing.assert_array_equal(_unscaled_scores(), dots)
    np.testing.assert_array_equal(att.scores, scores)


def test_the_lessons_the_numbers_were_chosen_for():
    S = attnlib.self_attention(*hand_example()[1:]).scores
    assert S[1].argmax() == 2 and S[1, 1] < S[1, 2]  # chase prefers mice, not itself
    assert S[0, 1] == S[0, 2] and S[2, 0] == S[2, 1]  # two ties
    assert (S * 2 == np.round(S * 2)).all()  # every score a multiple of 0.5


def test_softmax_of_row_1_and_z_1_by_hand():
    att = attnlib.self_attention(*hand_example()[1:])
    shifted = [-2.0, -1.5, 0.0]  # (-0.5, 0, 1.5) minus the row maximum 1.5
    exps = [math.exp(-2.0), math.exp(-1.5), 1.0]  # 0.1353, 0.2231, 1
    total = math.exp(-2.0) + math.exp(-1.5) + 1.0  # 1.3585
    alpha = [e / total for e in exps]  # 0.0996, 0.1643, 0.7361
    np.testing.assert_allclose(alpha, [0.0996, 0.1643, 0.7361], atol=5e-5)  # the rounded ones
    np.testing.assert_array_equal(att.scores[1] - att.scores[1].max(), shifted)
    np.testing.assert_allclose(att.weights[1], alpha, rtol=1e-14)
    # v_0 = (1, 0), v_1 = (0, 1), v_2 = (1, 1): z_1 = (alpha_0 + alpha_2, alpha_1 + alpha_2)
    z_1 = [alpha[0] + alpha[2], alpha[1] + alpha[2]]  # about (0.8357, 0.9004)
    np.testing.assert_allclose(z_1, [0.8357, 0.9004], atol=5e-5)
    np.testing.assert_allclose(att.Z[1], z_1, rtol=1e-14)


def test_rows_0_and_2_share_their_weights_in_another_order():
    # (0, -1, -1) and (0.5, 0.5, 1.5) differ, but minus their maxima both are
    # a 0 and two -1s: only differences count, so the weights are the same numbers.
    w = attnlib.self_attention(*hand_example()[1:]).weights
    e = math.exp(-1.0)
    big, small = 1 / (1 + 2 * e), e / (1 + 2 * e)  # 0.5761, 0.2119
    np.testing.assert_allclose(w[0], [big, small, small], rtol=1e-14)
    np.testing.assert_allclose(w[2], [small, small, big], rtol=1e-14)


def test_matches_the_reference_loops():
    ex = hand_example()
    fast = attnlib.self_attention(*ex[1:])
    slow = reference.self_attention(*ex[1:])
    for name in ("Q", "K", "V", "scores", "weights", "Z"):
        np.testing.assert_allclose(getattr(fast, name), getattr(slow, name), rtol=1e-14)
