"""Inputs and comparisons shared by the maths tests (test_core.py, test_masks_and_heads.py)."""

import numpy as np
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import attnlib


def random_case(rng, n_q, n_kv, d, d_k, d_v, d_kv=None):
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


# a good call of self_attention and of multi_head_attention, for the bad-input tests
GOOD = attnlib.toy_example(n=4, d=8, d_k=4, d_v=3, seed=0)
MH = attnlib.toy_multi_head(n=4, d=8, d_k=3, d_v=2, heads=2, d_out=5, seed=0)


def mh_args(**changes):
    """multi_head_attention's arguments for MH, with `changes`."""
    args = {"X": MH.X, "W_Q": MH.W_Q, "W_K": MH.W_K, "W_V": MH.W_V, "W_O": MH.W_O, "heads": 2}
    args.update(changes)
    return args
