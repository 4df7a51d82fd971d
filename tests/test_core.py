"""attnlib.core: the matrix form against the chapter's loops, properties, and bad input.

Masks and heads are tests/test_masks_and_heads.py; the cases both use are
tests/attention_cases.py. Still a little long (about 420 lines of code): the dtypes and the
errors that say what to do are checked function by function of attnlib.core."""

import math
import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import attnlib
from attnlib import reference
from tests.attention_cases import (
    GOOD,
    MH,
    SHAPES,
    assert_same_attention,
    finite,
    mh_args,
    random_case,
    self_attention_inputs,
    sizes,
)

# --- the matrix form against the per-element loops (an independent oracle) ---


@pytest.mark.parametrize("scaled", [True, False])
@pytest.mark.parametrize("shape", SHAPES)
def test_cross_attention_matches_loops(shape, scaled):
    rng = np.random.default_rng(sum(shape))
    args = random_case(rng, *shape)
    got = attnlib.attention(*args, scaled=scaled)
    want = reference.attention(*args, scaled=scaled)
    assert_same_attention(got, want, rtol=1e-10)


@pytest.mark.parametrize(
    ("n_q", "n_kv", "d_q", "d_kv", "d_k", "d_v"),
    [(1, 1, 1, 2, 1, 1), (2, 5, 3, 7, 2, 4), (6, 4, 8, 16, 4, 4), (3, 9, 12, 5, 6, 2)],
)
def test_cross_attention_with_another_width_matches_loops(n_q, n_kv, d_q, d_kv, d_k, d_v):
    # Words (d_q columns) attending to image regions (d_kv columns): W_K, W_V have d_kv rows.
    args = random_case(np.random.default_rng(d_kv), n_q, n_kv, d_q, d_k, d_v, d_kv=d_kv)
    got = attnlib.attention(*args)
    assert got.Z.shape == (n_q, d_v)
    assert_same_attention(got, reference.attention(*args), rtol=1e-10)


@pytest.mark.parametrize("scaled", [True, False])
@pytest.mark.parametrize("shape", SHAPES)
def test_self_attention_matches_loops(shape, scaled):
    n, _, d, d_k, d_v = shape
    X, _, W_Q, W_K, W_V = random_case(np.random.default_rng(n * d), n, 1, d, d_k, d_v)
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
    X_q, X_kv, W_Q, W_K, W_V = random_case(np.random.default_rng(0), 3, 5, 4, 2, 6)
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
    X_q, X_kv, W_Q, W_K, W_V = random_case(np.random.default_rng(1), 4, 4, 3, 2, 2)
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
    with pytest.raises(ValueError, match=re.escape(fragment)):
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
    with pytest.raises(error, match=re.escape(fragment)):
        attnlib.softmax(scores, **kwargs)


# --- properties, for any input hypothesis can find ---


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
    with pytest.raises(error, match=re.escape(fragment)):
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
    with pytest.raises(ValueError, match=re.escape(fragment)):
        attnlib.attention(GOOD.X, X_kv, W_Q, W_K, W_V)


def test_attention_names_its_arguments():
    with pytest.raises(ValueError, match=re.escape("X_q must be a 2-D array of shape (n_q, d_q)")):
        attnlib.attention(np.ones(8), GOOD.X, GOOD.W_Q, GOOD.W_K, GOOD.W_V)
    with pytest.raises(ValueError, match=re.escape("X_kv is empty")):
        attnlib.attention(GOOD.X, np.ones((0, 8)), GOOD.W_Q, GOOD.W_K, GOOD.W_V)


def test_scaled_must_be_a_bool():
    with pytest.raises(TypeError, match="scaled must be True or False"):
        attnlib.self_attention(GOOD.X, GOOD.W_Q, GOOD.W_K, GOOD.W_V, scaled="yes")


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
    X_q, X_kv, W_Q, W_K, W_V = random_case(np.random.default_rng(5), 4, 6, 5, 3, 2, d_kv=7)
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
        match=re.escape(
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
    # Every entry of V is a sum of d = 8 terms of at least 1e308, beyond float64's 1.8e308,
    # whatever numbers the toy example draws (X positive, W_V all 1e308).
    X = np.abs(GOOD.X) + 1.0
    with pytest.raises(ValueError, match=r"the values V overflowed.*inputs are too large"):
        attnlib.self_attention(X, GOOD.W_Q, GOOD.W_K, np.full_like(GOOD.W_V, 1e308))


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
    with pytest.raises(ValueError, match=re.escape(message)) as info:
        attnlib.softmax(scores)
    assert "()" not in str(info.value)


def test_softmax_names_the_entry_along_another_axis():
    scores = np.zeros((2, 3))
    scores[1, 2] = np.nan  # column 2 read down axis 0: the bad entry is scores[1, 2]
    with pytest.raises(ValueError, match=re.escape("row 2 of scores contains NaN at scores[1, 2]")):
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
        attnlib.multi_head_attention(**mh_args(X=X))
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
    np.testing.assert_array_equal(out[1], attnlib.multi_head_attention(**mh_args(X=X[1])).output)
