"""attnlib.backward: every gradient against central finite differences of attnlib.self_attention."""

import numpy as np
import pytest

import attnlib
from attnlib.maths.backward import Gradients, self_attention_backward

SHAPES = [  # (n, d, d_k, d_v)
    (1, 1, 1, 1),
    (1, 4, 3, 2),
    (2, 3, 1, 4),
    (5, 6, 4, 4),
    (4, 5, 7, 2),
    (7, 8, 3, 5),
]
H = 1e-5  # central differences: error ~ H² × (third derivative), far below 1e-6 here


def _case(shape, seed):
    n, d, d_k, d_v = shape
    rng = np.random.default_rng([seed, *shape])
    X = rng.standard_normal((n, d))
    W_Q, W_K = rng.standard_normal((2, d, d_k))
    W_V = rng.standard_normal((d, d_v))
    dZ = rng.standard_normal((n, d_v))
    return X, W_Q, W_K, W_V, dZ


def _loss(X, W_Q, W_K, W_V, dZ, scaled):
    return float((attnlib.self_attention(X, W_Q, W_K, W_V, scaled=scaled).Z * dZ).sum())


def _numeric_gradients(X, W_Q, W_K, W_V, dZ, scaled):
    """d sum(Z * dZ) / d(each entry), by central differences; shares no code with backward."""
    inputs = [X, W_Q, W_K, W_V]
    grads = []
    for which, M in enumerate(inputs):
        G = np.empty_like(M)
        for index in np.ndindex(M.shape):
            plus = [A.copy() for A in inputs]
            minus = [A.copy() for A in inputs]
            plus[which][index] += H
            minus[which][index] -= H
            G[index] = (_loss(*plus, dZ, scaled) - _loss(*minus, dZ, scaled)) / (2 * H)
        grads.append(G)
    return Gradients(*grads)


def _relative_error(got, want):
    return np.abs(got - want).max() / max(np.abs(want).max(), 1e-12)


@pytest.mark.parametrize("scaled", [True, False])
@pytest.mark.parametrize("shape", SHAPES)
def test_every_gradient_matches_finite_differences(shape, scaled):
    X, W_Q, W_K, W_V, dZ = _case(shape, seed=1)
    got = self_attention_backward(X, W_Q, W_K, W_V, dZ, scaled=scaled)
    want = _numeric_gradients(X, W_Q, W_K, W_V, dZ, scaled)
    for name in Gradients._fields:
        g, w = getattr(got, name), getattr(want, name)
        assert g.shape == w.shape, name
        assert _relative_error(g, w) <= 1e-6, (name, _relative_error(g, w))


def test_gradients_are_shaped_like_the_inputs():
    X, W_Q, W_K, W_V, dZ = _case((4, 5, 7, 2), seed=2)
    grads = self_attention_backward(X, W_Q, W_K, W_V, dZ)
    assert isinstance(grads, Gradients)
    assert [g.shape for g in grads] == [X.shape, W_Q.shape, W_K.shape, W_V.shape]


def test_scaling_changes_the_gradient():
    # the flag reaches the backward pass: unscaled scores give different gradients
    X, W_Q, W_K, W_V, dZ = _case((5, 6, 4, 4), seed=3)
    scaled = self_attention_backward(X, W_Q, W_K, W_V, dZ, scaled=True)
    unscaled = self_attention_backward(X, W_Q, W_K, W_V, dZ, scaled=False)
    assert not np.allclose(scaled.W_Q, unscaled.W_Q)


def test_linear_in_dZ():
    # L = sum(Z * dZ) is linear in dZ, so are its gradients
    X, W_Q, W_K, W_V, dZ = _case((5, 6, 4, 3), seed=4)
    dZ2 = np.random.default_rng(5).standard_normal(dZ.shape)
    one = self_attention_backward(X, W_Q, W_K, W_V, dZ)
    two = self_attention_backward(X, W_Q, W_K, W_V, dZ2)
    both = self_attention_backward(X, W_Q, W_K, W_V, 2 * dZ - 3 * dZ2)
    for a, b, c in zip(one, two, both, strict=True):
        np.testing.assert_allclose(c, 2 * a - 3 * b, rtol=1e-10, atol=1e-12)


def test_softmax_step_is_the_jacobian():
    # the one-line softmax backward equals g @ J with J = diag(α) - α αᵀ, row by row
    X, W_Q, W_K, W_V, dZ = _case((5, 6, 4, 4), seed=6)
    att = attnlib.self_attention(X, W_Q, W_K, W_V)
    d_weights = dZ @ att.V.T
    d_scores = np.stack(
        [
            d_weights[i] @ (np.diag(att.weights[i]) - np.outer(att.weights[i], att.weights[i]))
            for i in range(5)
        ]
    )
    # dW_K = Xᵀ d_scoresᵀ Q / √d_k: rebuild it from the per-row Jacobians
    want = X.T @ (d_scores.T @ att.Q) / np.sqrt(4)
    got = self_attention_backward(X, W_Q, W_K, W_V, dZ).W_K
    np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-12)


def test_zero_upstream_gradient_gives_zero():
    X, W_Q, W_K, W_V, dZ = _case((3, 4, 2, 2), seed=7)
    grads = self_attention_backward(X, W_Q, W_K, W_V, np.zeros_like(dZ))
    assert all((g == 0).all() for g in grads)


def test_exported_from_the_package():
    assert attnlib.self_attention_backward is self_attention_backward
    assert attnlib.Gradients is Gradients


@pytest.mark.parametrize(
    ("bad", "error", "words"),
    [
        ({"dZ": np.ones((4, 3))}, ValueError, "dZ has shape (4, 3) but Z has (5, 2)"),
        ({"dZ": np.ones(5)}, ValueError, "dZ must be a 2-D array"),
        ({"dZ": np.full((5, 2), np.nan)}, ValueError, "dZ must be finite"),
        ({"W_K": np.ones((6, 3))}, ValueError, "d_k must match"),
        ({"X": np.ones((5, 4))}, ValueError, "X has d = 4 columns"),
        ({"X": "abc"}, TypeError, "X must be an array of numbers"),
        ({"scaled": "yes"}, TypeError, "scaled must be True or False"),
    ],
)
def test_bad_input_is_named(bad, error, words):
    X, W_Q, W_K, W_V, dZ = _case((5, 6, 4, 2), seed=8)
    kwargs = {"X": X, "W_Q": W_Q, "W_K": W_K, "W_V": W_V, "dZ": dZ, "scaled": True}
    kwargs.update(bad)
    with pytest.raises(error) as info:
        self_attention_backward(**kwargs)
    assert words in str(info.value)
