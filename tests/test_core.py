"""attnlib.core: the matrix form against the chapter's loops, properties, and bad input."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import attnlib
from attnlib import reference

# --- the matrix form against the per-element loops (an independent oracle) ---


def _random_case(rng, n_q, n_kv, d, d_k, d_v):
    X_q = rng.standard_normal((n_q, d))
    X_kv = rng.standard_normal((n_kv, d))
    W_Q, W_K = rng.standard_normal((2, d, d_k))
    W_V = rng.standard_normal((d, d_v))
    return X_q, X_kv, W_Q, W_K, W_V


SHAPES = [  # (n_q, n_kv, d, d_k, d_v)
    (1, 1, 1, 1, 1),
    (2, 5, 3, 1, 4),
    (6, 6, 8, 4, 4),
    (4, 9, 5, 7, 2),
    (7, 3, 16, 16, 3),
    (12, 12, 6, 2, 6),
]


@pytest.mark.parametrize("scaled", [True, False])
@pytest.mark.parametrize("shape", SHAPES)
def test_cross_attention_matches_loops(shape, scaled):
    rng = np.random.default_rng(sum(shape))
    args = _random_case(rng, *shape)
    got = attnlib.attention(*args, scaled=scaled)
    want = reference.attention(*args, scaled=scaled)
    for field in attnlib.Attention._fields:
        np.testing.assert_allclose(getattr(got, field), getattr(want, field),
                                   rtol=1e-10, atol=1e-12, err_msg=field)


@pytest.mark.parametrize("scaled", [True, False])
@pytest.mark.parametrize("shape", SHAPES)
def test_self_attention_matches_loops(shape, scaled):
    n, _, d, d_k, d_v = shape
    X, _, W_Q, W_K, W_V = _random_case(np.random.default_rng(n * d), n, 1, d, d_k, d_v)
    got = attnlib.self_attention(X, W_Q, W_K, W_V, scaled=scaled)
    want = reference.self_attention(X, W_Q, W_K, W_V, scaled=scaled)
    for field in attnlib.Attention._fields:
        np.testing.assert_allclose(getattr(got, field), getattr(want, field),
                                   rtol=1e-10, atol=1e-12, err_msg=field)


def test_self_attention_is_attention_with_X_twice():
    ex = attnlib.toy_example(n=7, d=5, d_k=3, d_v=2, seed=4)
    a = attnlib.self_attention(*ex[1:])
    b = attnlib.attention(ex.X, ex.X, *ex[2:])
    for x, y in zip(a, b, strict=True):
        np.testing.assert_array_equal(x, y)


def test_shapes_of_every_intermediate():
    X_q, X_kv, W_Q, W_K, W_V = _random_case(np.random.default_rng(0), 3, 5, 4, 2, 6)
    att = attnlib.attention(X_q, X_kv, W_Q, W_K, W_V)
    shapes = [getattr(att, name).shape for name in ("Q", "K", "V", "scores", "weights", "Z")]
    assert shapes == [(3, 2), (5, 2), (5, 6), (3, 5), (3, 5), (3, 6)]


def test_scaling_divides_by_sqrt_dk_not_dk():
    # One query, one key, d_k = 4: q . k = 4, so the scaled score is 4 / 2 = 2.
    X = np.ones((1, 4))
    W = np.eye(4)
    att = attnlib.self_attention(X, W, W, W)
    assert att.scores[0, 0] == pytest.approx(2.0)


def test_inputs_are_not_modified():
    X_q, X_kv, W_Q, W_K, W_V = _random_case(np.random.default_rng(1), 4, 4, 3, 2, 2)
    copies = [a.copy() for a in (X_q, X_kv, W_Q, W_K, W_V)]
    attnlib.attention(X_q, X_kv, W_Q, W_K, W_V)
    for a, b in zip((X_q, X_kv, W_Q, W_K, W_V), copies, strict=True):
        np.testing.assert_array_equal(a, b)


def test_accepts_lists_and_ints():
    att = attnlib.self_attention([[1, 0], [0, 1]], [[1, 0], [0, 1]], [[1, 0], [0, 1]],
                                 [[1], [2]])
    np.testing.assert_allclose(att.weights.sum(axis=1), 1.0)
    assert att.Z.shape == (2, 1)


# --- softmax ---


def test_softmax_known_values():
    w = attnlib.softmax([0.0, math.log(3.0)])
    np.testing.assert_allclose(w, [0.25, 0.75])


@pytest.mark.parametrize("big", [1e3, 1e100, 1e300])
def test_softmax_huge_scores_do_not_overflow(big):
    scores = np.array([[big, -big, 0.0], [big, big, big], [-big, -big, -big]])
    with np.errstate(over="raise", invalid="raise", divide="raise"):  # any overflow fails
        w = attnlib.softmax(scores)
    assert np.isfinite(w).all()
    np.testing.assert_allclose(w.sum(axis=1), 1.0)
    np.testing.assert_allclose(w[0], [1.0, 0.0, 0.0])
    np.testing.assert_allclose(w[1], [1 / 3] * 3)


def test_softmax_minus_inf_gets_zero_weight():
    w = attnlib.softmax([[0.0, -np.inf, 0.0]])
    np.testing.assert_allclose(w, [[0.5, 0.0, 0.5]])


def test_softmax_axis():
    s = np.array([[1.0, 2.0], [3.0, 5.0]])
    np.testing.assert_allclose(attnlib.softmax(s, axis=0), attnlib.softmax(s.T).T)
    np.testing.assert_allclose(attnlib.softmax(s, axis=0).sum(axis=0), 1.0)


def test_softmax_does_not_modify_its_input():
    s = np.array([[1.0, 2.0, 3.0]])
    attnlib.softmax(s)
    np.testing.assert_array_equal(s, [[1.0, 2.0, 3.0]])


@pytest.mark.parametrize(
    ("scores", "fragment"),
    [
        ([[0.0, 1.0], [-np.inf, -np.inf]], "row 1 of scores has no finite entry"),
        ([[0.0, np.nan]], "row 0 of scores contains NaN"),
        ([[0.0, 1.0], [np.inf, 1.0]], "row 1 of scores contains +inf"),
        (np.full((2, 3, 4), -np.inf), "row (0, 0) of scores has no finite entry"),
    ],
)
def test_softmax_bad_rows_are_named(scores, fragment):
    with pytest.raises(ValueError, match=_literal(fragment)):
        attnlib.softmax(scores)


@pytest.mark.parametrize(
    ("scores", "kwargs", "error", "fragment"),
    [
        (["a", "b"], {}, TypeError, "scores must hold real numbers"),
        ("ab", {}, TypeError, "scores must be an array of numbers"),
        (3.0, {}, ValueError, "at least one dimension"),
        (np.zeros((2, 0)), {}, ValueError, "no entries along axis -1"),
        ([1.0, 2.0], {"axis": 1}, ValueError, "axis 1 is out of range"),
        ([[1.0, 2.0], [3.0]], {}, ValueError, "rectangular"),
    ],
)
def test_softmax_bad_input(scores, kwargs, error, fragment):
    with pytest.raises(error, match=_literal(fragment)):
        attnlib.softmax(scores, **kwargs)


# --- properties, for any input hypothesis can find ---

finite = st.floats(-50, 50, allow_nan=False, allow_infinity=False)
sizes = st.integers(1, 6)


@st.composite
def self_attention_inputs(draw):
    n, d, d_k, d_v = draw(sizes), draw(sizes), draw(sizes), draw(sizes)
    X = draw(hnp.arrays(float, (n, d), elements=finite))
    W_Q = draw(hnp.arrays(float, (d, d_k), elements=finite))
    W_K = draw(hnp.arrays(float, (d, d_k), elements=finite))
    W_V = draw(hnp.arrays(float, (d, d_v), elements=finite))
    return X, W_Q, W_K, W_V


@settings(max_examples=60, deadline=None)
@given(self_attention_inputs())
def test_weights_are_distributions(args):
    w = attnlib.self_attention(*args).weights
    assert ((w >= 0) & (w <= 1)).all()
    np.testing.assert_allclose(w.sum(axis=1), 1.0, rtol=1e-12)


@settings(max_examples=60, deadline=None)
@given(self_attention_inputs(), st.randoms(use_true_random=False))
def test_permuting_tokens_permutes_outputs(args, random):
    X, W_Q, W_K, W_V = args
    perm = list(range(len(X)))
    random.shuffle(perm)
    a = attnlib.self_attention(X, W_Q, W_K, W_V)
    b = attnlib.self_attention(X[perm], W_Q, W_K, W_V)
    np.testing.assert_allclose(b.Z, a.Z[perm], rtol=1e-9, atol=1e-9)
    np.testing.assert_allclose(b.Q, a.Q[perm], rtol=1e-9, atol=1e-9)
    # the weight matrix is permuted on both sides: query rows and key columns
    np.testing.assert_allclose(b.weights, a.weights[np.ix_(perm, perm)], rtol=1e-9, atol=1e-9)


@settings(max_examples=60, deadline=None)
@given(hnp.arrays(float, st.tuples(sizes, sizes), elements=finite),
       st.lists(finite, min_size=6, max_size=6))
def test_adding_a_constant_to_a_row_changes_nothing(scores, shifts):
    shifted = scores + np.array(shifts[: scores.shape[0]])[:, None]
    np.testing.assert_allclose(attnlib.softmax(shifted), attnlib.softmax(scores),
                               rtol=1e-9, atol=1e-12)


@settings(max_examples=60, deadline=None)
@given(self_attention_inputs())
def test_outputs_lie_between_the_smallest_and_largest_value(args):
    att = attnlib.self_attention(*args)
    low, high = att.V.min(axis=0), att.V.max(axis=0)  # (d_v,) each
    slack = 1e-9 * (1 + np.abs(att.V).max())
    assert (att.Z >= low - slack).all()
    assert (att.Z <= high + slack).all()


@settings(max_examples=60, deadline=None)
@given(self_attention_inputs())
def test_unscaled_scores_are_scaled_times_sqrt_dk(args):
    d_k = args[1].shape[1]
    scaled = attnlib.self_attention(*args, scaled=True).scores
    unscaled = attnlib.self_attention(*args, scaled=False).scores
    np.testing.assert_allclose(unscaled, scaled * math.sqrt(d_k), rtol=1e-12, atol=1e-9)


@pytest.mark.parametrize("scaled", [True, False])
def test_attention_records_whether_it_was_scaled(scaled):
    # Titles and readouts read att.scaled; the reference loops record it too.
    ex = attnlib.toy_example(n=3, d=4, d_k=2, seed=0)
    assert attnlib.self_attention(ex.X, ex.W_Q, ex.W_K, ex.W_V, scaled=scaled).scaled is scaled
    assert reference.self_attention(ex.X, ex.W_Q, ex.W_K, ex.W_V, scaled=scaled).scaled is scaled


# --- bad input is named at the boundary ---

GOOD = attnlib.toy_example(n=4, d=8, d_k=4, d_v=3, seed=0)


def _with(**changes):
    args = {"X": GOOD.X, "W_Q": GOOD.W_Q, "W_K": GOOD.W_K, "W_V": GOOD.W_V}
    args.update(changes)
    return args


@pytest.mark.parametrize(
    ("args", "error", "fragment"),
    [
        (_with(X=GOOD.X[0]), ValueError, "X must be a 2-D array of shape (n, d), got 1-D"),
        (_with(X=GOOD.X[None]), ValueError, "X must be a 2-D array of shape (n, d), got 3-D"),
        (_with(X=np.zeros((0, 8))), ValueError, "X is empty"),
        (_with(W_Q=GOOD.W_Q[:5]), ValueError, "W_Q has shape (5, 4) but X has d = 8 columns"),
        (_with(W_K=GOOD.W_K[:7]), ValueError, "W_K has shape (7, 4) but X has d = 8"),
        (_with(W_V=np.ones((9, 3))), ValueError, "W_V has shape (9, 3) but X has d = 8"),
        (_with(W_K=GOOD.W_K[:, :3]), ValueError,
         "W_K has shape (8, 3) but W_Q has (8, 4): d_k must match"),
        (_with(X=np.where(np.eye(4, 8) > 0, np.nan, 1.0)), ValueError,
         "X must be finite, but X[0, 0] is nan"),
        (_with(W_V=np.full((8, 3), np.inf)), ValueError, "W_V must be finite"),
        (_with(X=[["a"] * 8] * 4), TypeError, "X must hold real numbers"),
        (_with(W_Q="W_Q"), TypeError, "W_Q must be an array of numbers, got a str"),
        (_with(X=GOOD.X.astype(complex)), TypeError, "got dtype complex128"),
        (_with(W_Q=None), TypeError, "W_Q must hold real numbers"),
    ],
)
def test_self_attention_bad_input(args, error, fragment):
    with pytest.raises(error, match=_literal(fragment)):
        attnlib.self_attention(**args)


def test_attention_kv_with_other_d():
    with pytest.raises(ValueError, match="X_kv has d = 5 columns but X_q has d = 8"):
        attnlib.attention(GOOD.X, np.ones((3, 5)), GOOD.W_Q, GOOD.W_K, GOOD.W_V)


def test_attention_names_its_arguments():
    with pytest.raises(ValueError, match=_literal("X_q must be a 2-D array of shape (n_q, d)")):
        attnlib.attention(np.ones(8), GOOD.X, GOOD.W_Q, GOOD.W_K, GOOD.W_V)
    with pytest.raises(ValueError, match=_literal("X_kv is empty")):
        attnlib.attention(GOOD.X, np.ones((0, 8)), GOOD.W_Q, GOOD.W_K, GOOD.W_V)


def test_scaled_must_be_a_bool():
    with pytest.raises(TypeError, match="scaled must be True or False"):
        attnlib.self_attention(GOOD.X, GOOD.W_Q, GOOD.W_K, GOOD.W_V, scaled="yes")


def _literal(text):
    import re

    return re.escape(text)
