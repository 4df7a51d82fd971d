"""attnlib.reference: the loops themselves, against numbers worked out by hand.

test_core compares attnlib.core with these loops; here the loops are checked
on cases small enough to do with pencil and paper, so that the oracle is
not only trusted because it agrees with the code it checks.
"""

import math

import numpy as np
import pytest

from attnlib import reference


def test_project_is_rows_times_columns():
    X = [[1, 2], [3, 4]]
    W = [[1, 0, 2], [0, 1, 1]]
    # row 0: (1, 2) W = (1, 2, 1*2 + 2*1) = (1, 2, 4); row 1: (3, 4, 10)
    np.testing.assert_array_equal(reference.project(X, W), [[1, 2, 4], [3, 4, 10]])


def test_scores_divide_by_sqrt_dk():
    Q = [[1.0, 1.0, 1.0, 1.0]]
    K = [[1.0, 1.0, 1.0, 1.0], [2.0, 0.0, 0.0, 0.0]]
    # q . k_0 = 4, q . k_1 = 2; d_k = 4, sqrt(d_k) = 2
    np.testing.assert_array_equal(reference.score_matrix(Q, K), [[2.0, 1.0]])
    np.testing.assert_array_equal(reference.score_matrix(Q, K, scaled=False), [[4.0, 2.0]])


def test_softmax_rows_by_hand():
    w = reference.softmax_rows([[0.0, math.log(3.0)]])  # e^0 : e^log 3 = 1 : 3
    np.testing.assert_allclose(w, [[0.25, 0.75]], rtol=1e-15)


def test_a_blocked_key_gets_weight_exactly_zero():
    scores = reference.masked_scores([[1.0, 5.0, 1.0]], [[True, False, True]])
    assert scores[0, 1] == -math.inf
    w = reference.softmax_rows(scores)
    assert w[0, 1] == 0.0
    np.testing.assert_allclose(w, [[0.5, 0.0, 0.5]], rtol=1e-15)


def test_causal_mask_by_hand():
    assert reference.causal_mask(3) == [
        [True, False, False],
        [True, True, False],
        [True, True, True],
    ]


def test_causal_self_attention_by_hand():
    # X and every W the 2 x 2 identity: unscaled scores X Xᵀ = [[1, 0], [0, 1]]. Token 0
    # sees only itself; token 1 splits e^0 : e^1 between tokens 0 and 1: z_1 = (1, e) / (1 + e).
    eye = [[1.0, 0.0], [0.0, 1.0]]
    att = reference.self_attention(eye, eye, eye, eye, mask=reference.causal_mask(2), scaled=False)
    e = math.e
    np.testing.assert_allclose(att.weights, [[1.0, 0.0], [1 / (1 + e), e / (1 + e)]])
    np.testing.assert_allclose(att.Z, [[1.0, 0.0], [1 / (1 + e), e / (1 + e)]])
    assert att.mask.dtype == bool and att.mask.tolist() == reference.causal_mask(2)


def test_cross_attention_with_another_width_by_hand():
    # one query of width 1, two keys of width 3: d_q = 1, d_kv = 3, d_k = 1
    X_q, X_kv = [[2.0]], [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]
    W_Q, W_K, W_V = [[1.0]], [[0.0], [0.0], [0.0]], [[1.0], [2.0], [3.0]]
    att = reference.attention(X_q, X_kv, W_Q, W_K, W_V)
    np.testing.assert_allclose(att.weights, [[0.5, 0.5]])  # every key scores 0
    np.testing.assert_allclose(att.Z, [[1.5]])  # (1 + 2) / 2


def test_columns_picks_a_head():
    W = [[0, 1, 2, 3], [4, 5, 6, 7]]
    assert reference.columns(W, 2, 2) == [[2.0, 3.0], [6.0, 7.0]]


def test_multi_head_by_hand():
    # Two heads of width 1 on two tokens. Head 0 reads coordinate 0, head 1 coordinate 1.
    X = [[1.0, 0.0], [0.0, 1.0]]
    W = [[1.0, 0.0], [0.0, 1.0]]  # (d, heads * d_k) with d_k = d_v = 1
    W_O = [[1.0], [10.0]]  # output = z^(0) + 10 z^(1)
    mh = reference.multi_head_attention(X, W, W, W, W_O, heads=2, scaled=False)
    e = math.e
    # head 0: q = k = v = (1, 0) per token; token 0 scores (1, 0), token 1 scores (0, 0)
    np.testing.assert_allclose(mh.heads[0].weights, [[e / (1 + e), 1 / (1 + e)], [0.5, 0.5]])
    np.testing.assert_allclose(mh.heads[0].Z, [[e / (1 + e)], [0.5]])
    np.testing.assert_allclose(mh.heads[1].Z, [[0.5], [e / (1 + e)]])
    np.testing.assert_allclose(mh.Z, [[e / (1 + e), 0.5], [0.5, e / (1 + e)]])
    np.testing.assert_allclose(mh.output, [[e / (1 + e) + 5], [0.5 + 10 * e / (1 + e)]])


@pytest.mark.parametrize("heads", [1, 2, 4])
def test_each_reference_head_divides_by_its_own_width(heads):
    d_k = 4
    X = [[1.0] * 4]
    W = [[1.0 if c % d_k == a else 0.0 for c in range(heads * d_k)] for a in range(4)]
    W_O = [[1.0] for _ in range(heads * d_k)]
    mh = reference.multi_head_attention(X, W, W, W, W_O, heads=heads)
    assert [att.scores[0, 0] for att in mh.heads] == [2.0] * heads  # 4 / sqrt(4)
