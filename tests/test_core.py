"""attnlib.core: the matrix form against the chapter's loops, properties, and bad input."""

import math
import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import attnlib
from attnlib import reference

# --- the matrix form against the per-element loops (an independent oracle) ---


def _random_case(rng, n_q, n_kv, d, d_k, d_v, d_kv=None):
    d_kv = d if d_kv is None else d_kv  # width of X_kv; d is the width of X_q
    X_q = rng.standard_normal((n_q, d))
    X_kv = rng.standard_normal((n_kv, d_kv))
    W_Q = rng.standard_normal((d, d_k))
    W_K = rng.standard_normal((d_kv, d_k))
    W_V = rng.standard_normal((d_kv, d_v))
    return X_q, X_kv, W_Q, W_K, W_V


def assert_same_attention(got, want, *, rtol=1e-12, atol=1e-12):
    """Every field of two Attention tuples agrees: arrays to the tolerance, flags exactly."""
    for field in attnlib.Attention._fields:
        a, b = getattr(got, field), getattr(want, field)
        if field == "scaled":
            assert a is b
        elif field == "mask":
            assert (a is None) == (b is None), field
            if b is not None:
                assert a.dtype == bool
                np.testing.assert_array_equal(a, b)
        else:
            np.testing.assert_allclose(a, b, rtol=rtol, atol=atol, err_msg=field)


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
    assert_same_attention(got, want, rtol=1e-10)


@pytest.mark.parametrize(
    ("n_q", "n_kv", "d_q", "d_kv", "d_k", "d_v"),
    [(1, 1, 1, 2, 1, 1), (2, 5, 3, 7, 2, 4), (6, 4, 8, 16, 4, 4), (3, 9, 12, 5, 6, 2)],
)
def test_cross_attention_with_another_width_matches_loops(n_q, n_kv, d_q, d_kv, d_k, d_v):
    # Words (d_q columns) attending to image regions (d_kv columns): W_K, W_V have d_kv rows.
    args = _random_case(np.random.default_rng(d_kv), n_q, n_kv, d_q, d_k, d_v, d_kv=d_kv)
    got = attnlib.attention(*args)
    assert got.Z.shape == (n_q, d_v)
    assert_same_attention(got, reference.attention(*args), rtol=1e-10)


@pytest.mark.parametrize("scaled", [True, False])
@pytest.mark.parametrize("shape", SHAPES)
def test_self_attention_matches_loops(shape, scaled):
    n, _, d, d_k, d_v = shape
    X, _, W_Q, W_K, W_V = _random_case(np.random.default_rng(n * d), n, 1, d, d_k, d_v)
    got = attnlib.self_attention(X, W_Q, W_K, W_V, scaled=scaled)
    want = reference.self_attention(X, W_Q, W_K, W_V, scaled=scaled)
    assert_same_attention(got, want, rtol=1e-10)


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
    att = attnlib.self_attention([[1, 0], [0, 1]], [[1, 0], [0, 1]], [[1, 0], [0, 1]], [[1], [2]])
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
@given(
    hnp.arrays(float, st.tuples(sizes, sizes), elements=finite),
    st.lists(finite, min_size=6, max_size=6),
)
def test_adding_a_constant_to_a_row_changes_nothing(scores, shifts):
    shifted = scores + np.array(shifts[: scores.shape[0]])[:, None]
    np.testing.assert_allclose(
        attnlib.softmax(shifted), attnlib.softmax(scores), rtol=1e-9, atol=1e-12
    )


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
        (
            _with(W_K=GOOD.W_K[:, :3]),
            ValueError,
            "W_K has shape (8, 3) but W_Q has (8, 4): d_k must match",
        ),
        (
            _with(X=np.where(np.eye(4, 8) > 0, np.nan, 1.0)),
            ValueError,
            "X must be finite, but X[0, 0] is nan",
        ),
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


@pytest.mark.parametrize(
    ("X_kv", "W_Q", "W_K", "W_V", "fragment"),
    [
        # X_kv is 5 wide but W_K and W_V were made for the 8-wide X_q: name d_kv, not d_q
        (
            np.ones((3, 5)),
            GOOD.W_Q,
            GOOD.W_K,
            np.ones((5, 3)),
            "W_K has shape (8, 4) but X_kv has d_kv = 5 columns: W_K needs 5 rows, shape (5, 4)",
        ),
        (
            np.ones((3, 5)),
            GOOD.W_Q,
            np.ones((5, 4)),
            GOOD.W_V,
            "W_V has shape (8, 3) but X_kv has d_kv = 5 columns: W_V needs 5 rows",
        ),
        (
            np.ones((3, 5)),
            np.ones((5, 4)),
            np.ones((5, 4)),
            np.ones((5, 3)),
            "W_Q has shape (5, 4) but X_q has d_q = 8 columns: W_Q needs 8 rows",
        ),
        (
            np.ones((3, 5)),
            GOOD.W_Q,
            np.ones((5, 2)),
            np.ones((5, 3)),
            "W_K has shape (5, 2) but W_Q has (8, 4): d_k must match",
        ),
    ],
)
def test_attention_names_the_width_that_does_not_fit(X_kv, W_Q, W_K, W_V, fragment):
    with pytest.raises(ValueError, match=_literal(fragment)):
        attnlib.attention(GOOD.X, X_kv, W_Q, W_K, W_V)


def test_attention_names_its_arguments():
    with pytest.raises(ValueError, match=_literal("X_q must be a 2-D array of shape (n_q, d_q)")):
        attnlib.attention(np.ones(8), GOOD.X, GOOD.W_Q, GOOD.W_K, GOOD.W_V)
    with pytest.raises(ValueError, match=_literal("X_kv is empty")):
        attnlib.attention(GOOD.X, np.ones((0, 8)), GOOD.W_Q, GOOD.W_K, GOOD.W_V)


def test_scaled_must_be_a_bool():
    with pytest.raises(TypeError, match="scaled must be True or False"):
        attnlib.self_attention(GOOD.X, GOOD.W_Q, GOOD.W_K, GOOD.W_V, scaled="yes")


def _literal(text):
    import re

    return re.escape(text)


# --- masks: True = may attend (PyTorch's scaled_dot_product_attention) ---


def _masks(n, rng):
    """Masks of every kind for n tokens, each row with at least one True."""
    random = rng.random((n, n)) < 0.5
    random[np.arange(n), rng.integers(0, n, n)] = True  # every row keeps a key
    return {
        "causal": attnlib.causal_mask(n),
        "padding": attnlib.padding_mask(max(1, n - 2), n),
        "causal & padding": attnlib.causal_mask(n) & attnlib.padding_mask(max(1, n // 2), n),
        "random": random,
        "all True": np.ones((n, n), dtype=bool),
    }


@pytest.mark.parametrize("kind", ["causal", "padding", "causal & padding", "random", "all True"])
@pytest.mark.parametrize("scaled", [True, False])
@pytest.mark.parametrize("shape", SHAPES)
def test_masked_self_attention_matches_loops(shape, scaled, kind):
    n, _, d, d_k, d_v = shape
    rng = np.random.default_rng(n * d + d_v)
    X, _, W_Q, W_K, W_V = _random_case(rng, n, 1, d, d_k, d_v)
    mask = _masks(n, rng)[kind]
    got = attnlib.self_attention(X, W_Q, W_K, W_V, mask=mask, scaled=scaled)
    want = reference.self_attention(X, W_Q, W_K, W_V, mask=mask.tolist(), scaled=scaled)
    assert_same_attention(got, want)  # to 1e-12


def test_masked_cross_attention_matches_loops():
    rng = np.random.default_rng(7)
    args = _random_case(rng, 4, 6, 5, 3, 2, d_kv=9)  # n_q = 4, n_kv = 6, d_q = 5, d_kv = 9
    mask = attnlib.padding_mask(4, 6, n_q=4)  # keys 4 and 5 are padding
    mask[0, 1:] = False  # query 0 sees key 0 only
    assert_same_attention(
        attnlib.attention(*args, mask=mask), reference.attention(*args, mask=mask)
    )


def test_masked_scores_are_minus_inf_and_their_weights_exactly_zero():
    ex = attnlib.toy_example(n=6, seed=1)
    mask = attnlib.causal_mask(6)
    att = attnlib.self_attention(*ex[1:], mask=mask)
    assert np.isneginf(att.scores[~mask]).all()
    assert np.isfinite(att.scores[mask]).all()
    assert (att.weights[~mask] == 0.0).all()  # exactly, not approximately
    assert (att.weights[mask] > 0).all()
    np.testing.assert_allclose(att.weights.sum(axis=1), 1.0, rtol=1e-12)
    np.testing.assert_array_equal(att.weights[0], [1, 0, 0, 0, 0, 0])  # token 0 sees itself


def test_the_mask_is_recorded_as_a_copy():
    ex = attnlib.toy_example(n=4, seed=0)
    mask = attnlib.causal_mask(4)
    att = attnlib.self_attention(*ex[1:], mask=mask)
    mask[3, :] = False  # a later edit of the caller's array
    np.testing.assert_array_equal(att.mask, attnlib.causal_mask(4))
    assert attnlib.self_attention(*ex[1:]).mask is None


def test_mask_accepts_nested_lists_of_bools():
    ex = attnlib.toy_example(n=2, seed=0)
    att = attnlib.self_attention(*ex[1:], mask=[[True, False], [True, True]])
    np.testing.assert_array_equal(att.weights[0], [1.0, 0.0])


@pytest.mark.parametrize("n", [1, 2, 5, 9])
def test_causal_mask_is_the_lower_triangle(n):
    mask = attnlib.causal_mask(n)
    assert mask.dtype == bool
    np.testing.assert_array_equal(mask, reference.causal_mask(n))


@pytest.mark.parametrize(
    ("length", "n", "n_q"), [(1, 1, None), (3, 5, None), (5, 5, None), (2, 6, 3)]
)
def test_padding_mask_blocks_the_padded_keys(length, n, n_q):
    mask = attnlib.padding_mask(length, n, n_q=n_q)
    assert mask.dtype == bool and mask.shape == (n if n_q is None else n_q, n)
    assert mask[:, :length].all()
    assert not mask[:, length:].any()


@pytest.mark.parametrize(("length", "n"), [(1, 4), (3, 7), (6, 6)])
def test_padding_leaves_the_real_tokens_as_if_unpadded(length, n):
    # A sentence of `length` tokens padded to n with arbitrary rows: the real
    # tokens' outputs are those of the unpadded sentence, the padding gets weight 0.
    rng = np.random.default_rng(length * n)
    X, _, W_Q, W_K, W_V = _random_case(rng, n, 1, 5, 3, 4)
    padded = attnlib.self_attention(X, W_Q, W_K, W_V, mask=attnlib.padding_mask(length, n))
    alone = attnlib.self_attention(X[:length], W_Q, W_K, W_V)
    assert (padded.weights[:, length:] == 0.0).all()
    np.testing.assert_allclose(padded.Z[:length], alone.Z, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(padded.weights[:length, :length], alone.weights, rtol=1e-12)


@st.composite
def masked_inputs(draw):
    X, W_Q, W_K, W_V = draw(self_attention_inputs())
    n = len(X)
    mask = draw(hnp.arrays(bool, (n, n)))
    keep = draw(st.lists(st.integers(0, n - 1), min_size=n, max_size=n))
    mask[np.arange(n), keep] = True  # at least one True per row
    return X, W_Q, W_K, W_V, mask


@settings(max_examples=60, deadline=None)
@given(masked_inputs())
def test_masked_rows_are_distributions_over_the_allowed_keys(args):
    *weights_args, mask = args
    att = attnlib.self_attention(*weights_args, mask=mask)
    assert (att.weights[~mask] == 0.0).all()
    assert ((att.weights >= 0) & (att.weights <= 1)).all()
    np.testing.assert_allclose(att.weights.sum(axis=1), 1.0, rtol=1e-12)
    # each row is the softmax of the unmasked scores of its allowed keys only
    free = attnlib.self_attention(*weights_args)
    for i in range(len(mask)):
        np.testing.assert_allclose(
            att.weights[i, mask[i]], attnlib.softmax(free.scores[i, mask[i]]), rtol=1e-9, atol=1e-12
        )


@settings(max_examples=60, deadline=None)
@given(self_attention_inputs(), st.data())
def test_causal_output_ignores_later_tokens(args, data):
    X, W_Q, W_K, W_V = args
    n, d = X.shape
    i = data.draw(st.integers(0, n - 1), label="i")
    later = data.draw(hnp.arrays(float, (n - i - 1, d), elements=finite), label="later")
    X_new = np.concatenate([X[: i + 1], later])  # tokens 0..i kept, later ones replaced
    mask = attnlib.causal_mask(n)
    a = attnlib.self_attention(X, W_Q, W_K, W_V, mask=mask)
    b = attnlib.self_attention(X_new, W_Q, W_K, W_V, mask=mask)
    np.testing.assert_allclose(b.Z[: i + 1], a.Z[: i + 1], rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(b.weights[: i + 1], a.weights[: i + 1], rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize(
    ("mask", "error", "fragment"),
    [
        (
            np.ones((4, 4)),
            TypeError,
            "mask must be a boolean array, True where query i may "
            "attend to key j, got dtype float64",
        ),
        (np.ones((4, 4), dtype=int), TypeError, "nn.MultiheadAttention"),
        (np.zeros((4, 4)), TypeError, "additive mask of 0 and -inf with mask = (m == 0)"),
        (
            np.ones((4, 3), dtype=bool),
            ValueError,
            "mask has shape (4, 3) but the scores are (n_q, n_kv) = (4, 4)",
        ),
        (np.ones((1, 4, 4), dtype=bool), ValueError, "mask has shape (1, 4, 4)"),
        (
            np.tri(4, k=-1, dtype=bool),
            ValueError,
            "mask row 0 is all False: query 0 may attend to no key",
        ),
        (
            np.eye(4, dtype=bool) & np.array([[1], [0], [1], [0]], dtype=bool),
            ValueError,
            "mask rows [1, 3] are all False",
        ),
        ("causal", TypeError, "mask must be a boolean array, got a str"),
        ([[True, False], [True]], ValueError, "mask must be a rectangular boolean array"),
    ],
)
def test_bad_masks_are_named(mask, error, fragment):
    with pytest.raises(error, match=_literal(fragment)):
        attnlib.self_attention(GOOD.X, GOOD.W_Q, GOOD.W_K, GOOD.W_V, mask=mask)


def test_a_transposed_mask_is_suspected():
    with pytest.raises(ValueError, match=_literal("(transposed?)")):
        attnlib.attention(
            GOOD.X, GOOD.X[:3], GOOD.W_Q, GOOD.W_K, GOOD.W_V, mask=np.ones((3, 4), dtype=bool)
        )


@pytest.mark.parametrize(
    ("call", "error", "fragment"),
    [
        (lambda: attnlib.causal_mask(0), ValueError, "n must be an integer >= 1, got 0"),
        (lambda: attnlib.causal_mask(2.0), TypeError, "n must be an integer, got 2.0"),
        (
            lambda: attnlib.padding_mask(0, 4),
            ValueError,
            "length must be an integer from 1 to 4, got 0",
        ),
        (
            lambda: attnlib.padding_mask(5, 4),
            ValueError,
            "length must be an integer from 1 to 4, got 5",
        ),
        (lambda: attnlib.padding_mask(2, 4, n_q=0), ValueError, "n_q must be an integer >= 1"),
    ],
)
def test_mask_helpers_bad_arguments(call, error, fragment):
    with pytest.raises(error, match=_literal(fragment)):
        call()


# --- multiple heads ---

MH_SHAPES = [  # (n, d, d_k, d_v, heads, d_out)
    (1, 1, 1, 1, 1, 1),
    (5, 8, 4, 4, 2, 8),
    (6, 6, 2, 3, 3, 5),
    (4, 5, 3, 1, 4, 2),
    (7, 16, 4, 4, 4, 16),
]


def _multi_head_case(rng, n, d, d_k, d_v, heads, d_out):
    X = rng.standard_normal((n, d))
    W_Q, W_K = rng.standard_normal((2, d, heads * d_k))
    W_V = rng.standard_normal((d, heads * d_v))
    W_O = rng.standard_normal((heads * d_v, d_out))
    return X, W_Q, W_K, W_V, W_O


@pytest.mark.parametrize("masked", [False, True])
@pytest.mark.parametrize("shape", MH_SHAPES)
def test_multi_head_is_a_loop_of_self_attention(shape, masked):
    n, _, d_k, d_v, heads, d_out = shape
    X, W_Q, W_K, W_V, W_O = _multi_head_case(np.random.default_rng(sum(shape)), *shape)
    mask = attnlib.causal_mask(n) if masked else None
    mh = attnlib.multi_head_attention(X, W_Q, W_K, W_V, W_O, heads=heads, mask=mask)
    assert len(mh.heads) == heads
    for h, att in enumerate(mh.heads):
        one = attnlib.self_attention(
            X,
            W_Q[:, h * d_k : (h + 1) * d_k],
            W_K[:, h * d_k : (h + 1) * d_k],
            W_V[:, h * d_v : (h + 1) * d_v],
            mask=mask,
        )
        assert_same_attention(att, one)
        np.testing.assert_array_equal(mh.Z[:, h * d_v : (h + 1) * d_v], one.Z)
    assert mh.Z.shape == (n, heads * d_v) and mh.output.shape == (n, d_out)
    np.testing.assert_allclose(mh.output, mh.Z @ W_O, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("scaled", [True, False])
@pytest.mark.parametrize("masked", [False, True])
@pytest.mark.parametrize("shape", MH_SHAPES)
def test_multi_head_matches_loops(shape, masked, scaled):
    n, *_, heads, _ = shape
    args = _multi_head_case(np.random.default_rng(10 + sum(shape)), *shape)
    mask = attnlib.causal_mask(n) if masked else None
    got = attnlib.multi_head_attention(*args, heads=heads, mask=mask, scaled=scaled)
    want = reference.multi_head_attention(*args, heads=heads, mask=mask, scaled=scaled)
    for a, b in zip(got.heads, want.heads, strict=True):
        assert_same_attention(a, b)
    np.testing.assert_allclose(got.Z, want.Z, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(got.output, want.output, rtol=1e-12, atol=1e-12)


def test_each_head_divides_by_the_sqrt_of_its_own_d_k():
    # Two heads of d_k = 4, where q = k = (1, 1, 1, 1): q . k = 4, so each head's
    # score is 4 / sqrt(4) = 2, not 4 / sqrt(2 * 4) as a division by the full width gives.
    X = np.ones((1, 4))
    W = np.hstack([np.eye(4), np.eye(4)])  # (4, 2 * 4): head 0, then head 1
    mh = attnlib.multi_head_attention(X, W, W, W, np.eye(8), heads=2)
    assert [att.scores[0, 0] for att in mh.heads] == pytest.approx([2.0, 2.0])
    assert [att.Q.shape for att in mh.heads] == [(1, 4), (1, 4)]


def test_heads_attend_differently_on_the_toy_example():
    ex = attnlib.toy_multi_head(n=6, heads=3, seed=0)
    mh = attnlib.multi_head_attention(ex.X, ex.W_Q, ex.W_K, ex.W_V, ex.W_O, heads=ex.heads)
    for a, b in [(0, 1), (0, 2), (1, 2)]:
        assert np.abs(mh.heads[a].weights - mh.heads[b].weights).max() > 0.05


def test_one_head_of_the_toy_multi_head_is_the_toy_example():
    ex = attnlib.toy_multi_head(n=5, d=6, d_k=3, heads=1, seed=2)
    one = attnlib.toy_example(n=5, d=6, d_k=3, seed=2)
    mh = attnlib.multi_head_attention(ex.X, ex.W_Q, ex.W_K, ex.W_V, ex.W_O, heads=1)
    assert_same_attention(mh.heads[0], attnlib.self_attention(*one[1:]), rtol=0, atol=0)


MH = attnlib.toy_multi_head(n=4, d=8, d_k=3, d_v=2, heads=2, d_out=5, seed=0)


def _mh(**changes):
    args = {"X": MH.X, "W_Q": MH.W_Q, "W_K": MH.W_K, "W_V": MH.W_V, "W_O": MH.W_O, "heads": 2}
    args.update(changes)
    return args


@pytest.mark.parametrize(
    ("args", "error", "fragment"),
    [
        (
            _mh(heads=4),
            ValueError,
            "W_Q has 6 columns, which do not split into heads = 4 blocks of equal width",
        ),
        (
            _mh(W_V=np.ones((8, 5)), W_O=np.ones((5, 5))),
            ValueError,
            "W_V has 5 columns, which do not split into heads = 2",
        ),
        (_mh(W_K=MH.W_K[:, :4]), ValueError, "W_K has shape (8, 4) but W_Q has (8, 6)"),
        (
            _mh(W_O=MH.W_O[:3]),
            ValueError,
            "W_O has shape (3, 5) but the heads' outputs Z have heads * d_v = 4 columns",
        ),
        (_mh(W_Q=MH.W_Q[:7]), ValueError, "W_Q has shape (7, 6) but X has d = 8 columns"),
        (_mh(heads=0), ValueError, "heads must be an integer >= 1, got 0"),
        (_mh(heads=2.0), TypeError, "heads must be an integer, got 2.0"),
        (_mh(mask=np.ones((4, 5), dtype=bool)), ValueError, "mask has shape (4, 5)"),
        (_mh(scaled=1), TypeError, "scaled must be True or False"),
        (_mh(W_O=np.ones(4)), ValueError, "W_O must be a 2-D array of shape (heads * d_v, d_out)"),
    ],
)
def test_multi_head_bad_input(args, error, fragment):
    with pytest.raises(error, match=_literal(fragment)):
        attnlib.multi_head_attention(**args)


def test_per_head_weights_stacked_in_3d_get_the_concatenate_hint():
    per_head = np.stack([MH.W_Q[:, :3], MH.W_Q[:, 3:]])  # (heads, d, d_k)
    with pytest.raises(ValueError, match=r"np\.concatenate\(list\(W_Q\), axis=1\)") as info:
        attnlib.multi_head_attention(**_mh(W_Q=per_head))
    # the suggested fix works: it gives back the side-by-side matrix
    fix = re.search(r"np\.concatenate\(list\(W_Q\), axis=1\)", str(info.value)).group()
    np.testing.assert_array_equal(eval(fix, {"np": np, "W_Q": per_head}), MH.W_Q)


# --- dtypes: float32 stays float32; float16 is computed in float32; the rest float64 ---

# float32 keeps about 7 significant digits; a few roundings on these small sizes
# stay well inside rtol 1e-5 (with atol 1e-6 for entries near 0).
F32_TOLERANCE = {"rtol": 1e-5, "atol": 1e-6}

ARRAY_FIELDS = ("Q", "K", "V", "scores", "weights", "Z")


def _as(dtype, arrays):
    return [np.asarray(a, dtype=dtype) for a in arrays]


@pytest.mark.parametrize("masked", [False, True])
@pytest.mark.parametrize(
    ("dtype", "expected"),
    [
        (np.float32, np.float32),
        (np.float16, np.float32),
        (np.float64, np.float64),
        (np.int64, np.float64),
        (np.int32, np.float64),
    ],
)
def test_self_attention_dtype_policy(dtype, expected, masked):
    ex = attnlib.toy_example(n=5, seed=3)
    args = [np.round(a * 4) for a in ex[1:]] if np.dtype(dtype).kind == "i" else ex[1:]
    mask = attnlib.causal_mask(5) if masked else None
    got = attnlib.self_attention(*_as(dtype, args), mask=mask)
    want = attnlib.self_attention(*_as(np.float64, _as(dtype, args)), mask=mask)
    for field in ARRAY_FIELDS:
        assert getattr(got, field).dtype == expected, field
        np.testing.assert_allclose(
            getattr(got, field), getattr(want, field), err_msg=field, **F32_TOLERANCE
        )


def test_float32_matches_the_float64_loops_to_the_float32_tolerance():
    X_q, X_kv, W_Q, W_K, W_V = _random_case(np.random.default_rng(5), 4, 6, 5, 3, 2, d_kv=7)
    mask = attnlib.padding_mask(5, 6, n_q=4)
    got = attnlib.attention(*_as(np.float32, (X_q, X_kv, W_Q, W_K, W_V)), mask=mask)
    want = reference.attention(X_q, X_kv, W_Q, W_K, W_V, mask=mask)
    assert all(getattr(got, f).dtype == np.float32 for f in ARRAY_FIELDS)
    assert_same_attention(got, want, **F32_TOLERANCE)


def test_multi_head_float32_stays_float32():
    args = _as(np.float32, (MH.X, MH.W_Q, MH.W_K, MH.W_V, MH.W_O))
    got = attnlib.multi_head_attention(*args, heads=2, mask=attnlib.causal_mask(4))
    want = reference.multi_head_attention(
        MH.X, MH.W_Q, MH.W_K, MH.W_V, MH.W_O, heads=2, mask=attnlib.causal_mask(4)
    )
    assert got.Z.dtype == got.output.dtype == np.float32
    for att in got.heads:
        assert all(getattr(att, f).dtype == np.float32 for f in ARRAY_FIELDS)
    np.testing.assert_allclose(got.output, want.output, **F32_TOLERANCE)


@pytest.mark.parametrize(
    ("dtype", "expected"),
    [
        (np.float32, np.float32),
        (np.float16, np.float32),
        (np.float64, np.float64),
        (np.int8, np.float64),
    ],
)
def test_softmax_dtype_policy(dtype, expected):
    scores = np.array([[1, 2, 3], [0, -1, 4]], dtype=dtype)
    w = attnlib.softmax(scores)
    assert w.dtype == expected
    np.testing.assert_allclose(w, attnlib.softmax(scores.astype(np.float64)), **F32_TOLERANCE)
    np.testing.assert_allclose(w.sum(axis=1), 1.0, **F32_TOLERANCE)


def test_lists_give_float64():
    assert attnlib.softmax([1, 2]).dtype == np.float64
    att = attnlib.self_attention([[1, 0], [0, 1]], [[1.0], [0.0]], [[1.0], [0.0]], [[1], [1]])
    assert all(getattr(att, f).dtype == np.float64 for f in ARRAY_FIELDS)


@pytest.mark.parametrize("which", [0, 1, 2, 3])
def test_one_float64_argument_makes_the_pass_float64(which):
    # numpy's promotion: float32 with float64 (or with an integer list) is float64
    args = _as(np.float32, GOOD[1:])
    args[which] = args[which].astype(np.float64)
    att = attnlib.self_attention(*args)
    assert all(getattr(att, f).dtype == np.float64 for f in ARRAY_FIELDS)


def test_boolean_numbers_are_refused_with_the_conversion():
    with pytest.raises(
        TypeError,
        match=_literal(
            "X must hold real numbers (int or float), "
            "got dtype bool; to use True/False as 1/0, "
            "convert first: np.asarray(X, dtype=float)"
        ),
    ):
        attnlib.self_attention(GOOD.X > 0, GOOD.W_Q, GOOD.W_K, GOOD.W_V)
    with pytest.raises(TypeError, match="got dtype bool"):
        attnlib.softmax(attnlib.causal_mask(3))


# --- errors that say what to do ---


@pytest.mark.parametrize("scale", [1e160, 1e200, 1e300])
def test_overflowing_scores_name_the_cause_and_the_fix(scale):
    with pytest.raises(ValueError) as info:
        attnlib.self_attention(GOOD.X * scale, GOOD.W_Q, GOOD.W_K, GOOD.W_V)
    message = str(info.value)
    assert message.startswith("the scores overflowed")
    assert "every input is finite" in message and "inputs are too large" in message
    assert "Scale them down" in message and "float64 (1.8e+308)" in message


def test_overflow_in_float32_suggests_float64():
    args = _as(np.float32, (GOOD.X * 1e20, GOOD.W_Q, GOOD.W_K, GOOD.W_V))
    with pytest.raises(ValueError, match=r"overflowed.*float32 \(3\.4e\+38\).*pass float64"):
        attnlib.self_attention(*args)
    # and the float64 suggestion is right: the same numbers in float64 go through
    att = attnlib.self_attention(*_as(np.float64, args))
    assert np.isfinite(att.Z).all()


def test_overflowing_values_are_named():
    with pytest.raises(ValueError, match=r"the values V overflowed.*inputs are too large"):
        attnlib.self_attention(GOOD.X, GOOD.W_Q, GOOD.W_K, GOOD.W_V * 1e308)


def test_overflow_under_a_mask_is_still_called_overflow():
    # row 0 keeps only key 0, whose score overflows: no "mask row" error, an overflow one
    X = np.array([[1e200, 1e200], [1.0, 0.0]])
    mask = np.array([[True, False], [True, True]])
    with pytest.raises(ValueError, match="the scores overflowed: row 0 of scores contains"):
        attnlib.self_attention(X, np.eye(2), np.eye(2), np.eye(2), mask=mask)


@pytest.mark.parametrize(
    ("scores", "message"),
    [
        ([0.0, np.nan, 1.0], "softmax: scores contains NaN at index 1"),
        ([0.0, 1.0, np.inf], "softmax: scores contains +inf at index 2"),
        ([-np.inf, -np.inf], "softmax: scores has no finite entry (all -inf)"),
        ([[0.0, 1.0], [2.0, np.nan]], "softmax: row 1 of scores contains NaN at scores[1, 1]"),
    ],
)
def test_softmax_names_the_bad_index(scores, message):
    with pytest.raises(ValueError, match=_literal(message)) as info:
        attnlib.softmax(scores)
    assert "()" not in str(info.value)


def test_softmax_names_the_entry_along_another_axis():
    scores = np.zeros((2, 3))
    scores[1, 2] = np.nan  # column 2 read down axis 0: the bad entry is scores[1, 2]
    with pytest.raises(ValueError, match=_literal("row 2 of scores contains NaN at scores[1, 2]")):
        attnlib.softmax(scores, axis=0)


def _batch_fix(message):
    """The np.stack(...) expression a batch error message suggests."""
    return re.search(r"np\.stack\(\[.*\]\)", message).group()


def test_a_batch_gets_the_loop_that_runs_it():
    rng = np.random.default_rng(0)
    X = rng.standard_normal((3, 4, 8))  # (b, n, d): three sentences
    W_Q, W_K, W_V = GOOD.W_Q, GOOD.W_K, GOOD.W_V
    with pytest.raises(ValueError) as info:
        attnlib.self_attention(X, W_Q, W_K, W_V)
    message = str(info.value)
    assert "X must be a 2-D array of shape (n, d), got 3-D with shape (3, 4, 8)" in message
    assert "attnlib works on one sequence at a time" in message
    # the loop in the message runs, and gives each sequence's own result
    Z = eval(
        _batch_fix(message),
        {
            "np": np,
            "self_attention": attnlib.self_attention,
            "X": X,
            "W_Q": W_Q,
            "W_K": W_K,
            "W_V": W_V,
        },
    )
    assert Z.shape == (3, 4, 3)
    np.testing.assert_array_equal(Z[1], attnlib.self_attention(X[1], W_Q, W_K, W_V).Z)


def test_a_cross_attention_batch_gets_the_loop_that_runs_it():
    rng = np.random.default_rng(1)
    X_q, X_kv = rng.standard_normal((2, 3, 8)), rng.standard_normal((2, 5, 8))
    with pytest.raises(ValueError, match="one sequence at a time") as info:
        attnlib.attention(X_q, X_kv, GOOD.W_Q, GOOD.W_K, GOOD.W_V)
    Z = eval(
        _batch_fix(str(info.value)),
        {
            "np": np,
            "attention": attnlib.attention,
            "X_q": X_q,
            "X_kv": X_kv,
            "W_Q": GOOD.W_Q,
            "W_K": GOOD.W_K,
            "W_V": GOOD.W_V,
        },
    )
    np.testing.assert_array_equal(Z[0], attnlib.attention(X_q[0], X_kv[0], *GOOD[2:]).Z)


def test_a_multi_head_batch_gets_the_loop_that_runs_it():
    X = np.stack([MH.X, MH.X[::-1]])  # (2, n, d)
    with pytest.raises(ValueError, match="one sequence at a time") as info:
        attnlib.multi_head_attention(**_mh(X=X))
    names = {
        "np": np,
        "multi_head_attention": attnlib.multi_head_attention,
        "X": X,
        "W_Q": MH.W_Q,
        "W_K": MH.W_K,
        "W_V": MH.W_V,
        "W_O": MH.W_O,
        "heads": 2,
    }
    out = eval(_batch_fix(str(info.value)), names)
    np.testing.assert_array_equal(out[1], attnlib.multi_head_attention(**_mh(X=X[1])).output)
