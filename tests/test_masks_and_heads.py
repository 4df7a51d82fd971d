"""attnlib's masks and heads: masked attention and multi_head_attention against the
chapter's loops, properties of masked rows, and bad masks and heads named at the
boundary (the rest of attnlib.core is tests/test_core.py)."""

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
)

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
    X, _, W_Q, W_K, W_V = random_case(rng, n, 1, d, d_k, d_v)
    mask = _masks(n, rng)[kind]
    got = attnlib.self_attention(X, W_Q, W_K, W_V, mask=mask, scaled=scaled)
    want = reference.self_attention(X, W_Q, W_K, W_V, mask=mask.tolist(), scaled=scaled)
    assert_same_attention(got, want)  # to 1e-12


def test_masked_cross_attention_matches_loops():
    rng = np.random.default_rng(7)
    args = random_case(rng, 4, 6, 5, 3, 2, d_kv=9)  # n_q = 4, n_kv = 6, d_q = 5, d_kv = 9
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
    X, _, W_Q, W_K, W_V = random_case(rng, n, 1, 5, 3, 4)
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
    with pytest.raises(error, match=re.escape(fragment)):
        attnlib.self_attention(GOOD.X, GOOD.W_Q, GOOD.W_K, GOOD.W_V, mask=mask)


def test_a_transposed_mask_is_suspected():
    with pytest.raises(ValueError, match=re.escape("(transposed?)")):
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
    with pytest.raises(error, match=re.escape(fragment)):
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


@pytest.mark.parametrize(
    ("args", "error", "fragment"),
    [
        (
            mh_args(heads=4),
            ValueError,
            "W_Q has 6 columns, which do not split into heads = 4 blocks of equal width",
        ),
        (
            mh_args(W_V=np.ones((8, 5)), W_O=np.ones((5, 5))),
            ValueError,
            "W_V has 5 columns, which do not split into heads = 2",
        ),
        (mh_args(W_K=MH.W_K[:, :4]), ValueError, "W_K has shape (8, 4) but W_Q has (8, 6)"),
        (
            mh_args(W_O=MH.W_O[:3]),
            ValueError,
            "W_O has shape (3, 5) but the heads' outputs Z have heads * d_v = 4 columns",
        ),
        (mh_args(W_Q=MH.W_Q[:7]), ValueError, "W_Q has shape (7, 6) but X has d = 8 columns"),
        (mh_args(heads=0), ValueError, "heads must be an integer >= 1, got 0"),
        (mh_args(heads=2.0), TypeError, "heads must be an integer, got 2.0"),
        (mh_args(mask=np.ones((4, 5), dtype=bool)), ValueError, "mask has shape (4, 5)"),
        (mh_args(scaled=1), TypeError, "scaled must be True or False"),
        (
            mh_args(W_O=np.ones(4)),
            ValueError,
            "W_O must be a 2-D array of shape (heads * d_v, d_out)",
        ),
    ],
)
def test_multi_head_bad_input(args, error, fragment):
    with pytest.raises(error, match=re.escape(fragment)):
        attnlib.multi_head_attention(**args)


def test_per_head_weights_stacked_in_3d_get_the_concatenate_hint():
    per_head = np.stack([MH.W_Q[:, :3], MH.W_Q[:, 3:]])  # (heads, d, d_k)
    with pytest.raises(ValueError, match=r"np\.concatenate\(list\(W_Q\), axis=1\)") as info:
        attnlib.multi_head_attention(**mh_args(W_Q=per_head))
    # the suggested fix works: it gives back the side-by-side matrix
    fix = re.search(r"np\.concatenate\(list\(W_Q\), axis=1\)", str(info.value)).group()
    np.testing.assert_array_equal(eval(fix, {"np": np, "W_Q": per_head}), MH.W_Q)
