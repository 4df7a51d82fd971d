"""Self-checks for the exercises of notebook 06 (what attention learns).

Like :mod:`attnlib.checks`, each ``check_*`` runs the learner's answer on
test inputs, compares it with an independent computation, and returns a
:class:`~attnlib.checks.CheckResult` that prints as a pass, or as what went
wrong plus a hint. The learner's exceptions are reported, never re-raised.
These checks can move into attnlib.checks as they are.
"""

from __future__ import annotations

import traceback
from collections.abc import Callable

import numpy as np

from .checks import CheckResult
from .core import softmax
from .lookup import Params, Sequence, attend

__all__ = ["check_loss_gradient", "check_pick", "check_softmax_backward"]


def _run(name: str, func: Callable, *args):
    """(result, None) or (None, a failed CheckResult naming the learner's exception)."""
    if not callable(func):
        return None, CheckResult(
            name,
            False,
            f"expected a function, got {type(func).__name__}",
            "pass the function itself, without calling it: check(my_func)",
        )
    try:
        return func(*args), None
    except Exception as exc:  # the learner's code: report, never re-raise
        last = traceback.extract_tb(exc.__traceback__)[-1]
        where = f" (line {last.lineno}: {last.line})" if last.line else ""
        return None, CheckResult(
            name, False, f"your function raised {type(exc).__name__}: {exc}{where}"
        )


def _as_answer(name: str, got, shape: tuple[int, ...]):
    """The learner's array, or a failed CheckResult saying why it cannot be compared."""
    if got is None:
        return None, CheckResult(
            name, False, "your function returned None", "did you forget a `return`?"
        )
    try:
        got = np.asarray(got, dtype=float)
    except (TypeError, ValueError):
        return None, CheckResult(
            name, False, f"your function returned {type(got).__name__}, not an array of numbers"
        )
    if got.shape != shape:
        return None, CheckResult(name, False, f"you returned shape {got.shape}, expected {shape}")
    return got, None


def check_softmax_backward(func: Callable) -> CheckResult:
    """Check ``func(weights, d_weights) -> d_scores``: the softmax's backward step.

    With ``weights = softmax(scores)`` taken along each row, and `d_weights`
    the gradient of a loss with respect to the weights, the answer is the
    gradient with respect to the scores,
    ``weights * (d_weights - (d_weights * weights).sum(axis=1, keepdims=True))``.
    The check compares it with central finite differences of
    :func:`attnlib.softmax` on a 3 × 4 matrix (3 queries, 4 keys).

    Examples
    --------
    >>> check_softmax_backward(lambda weights, d_weights: weights * d_weights)
    ✗ check_softmax_backward: your d_scores misses the second term...
    """
    name = "check_softmax_backward"
    rng = np.random.default_rng(61)
    scores = rng.standard_normal((3, 4))  # (n_q, n_kv)
    d_weights = rng.standard_normal((3, 4))  # (n_q, n_kv)
    weights = softmax(scores)
    h = 1e-6
    expected = np.empty_like(scores)  # finite differences of L = sum(weights * d_weights)
    for index in np.ndindex(scores.shape):
        step = np.zeros_like(scores)
        step[index] = h
        expected[index] = ((softmax(scores + step) - softmax(scores - step)) * d_weights).sum()
    expected /= 2 * h
    got, error = _run(name, func, weights.copy(), d_weights.copy())
    if error is None:
        got, error = _as_answer(name, got, weights.shape)
    if error is not None:
        return error
    if np.allclose(got, weights * d_weights, atol=1e-6):
        return CheckResult(
            name,
            False,
            "your d_scores misses the second term: it is weights * d_weights",
            "each weight depends on every score of its row: subtract the row's "
            "(d_weights * weights).sum(axis=1, keepdims=True) before multiplying",
        )
    column = weights * (d_weights - (d_weights * weights).sum(axis=0, keepdims=True))
    if np.allclose(got, column, atol=1e-6):
        return CheckResult(
            name,
            False,
            "you summed down the columns (axis=0)",
            "the softmax normalises each row, so sum along axis=1",
        )
    if not np.allclose(got, expected, atol=1e-6):
        worst = np.unravel_index(np.argmax(np.abs(got - expected)), got.shape)
        return CheckResult(
            name,
            False,
            f"entry {tuple(int(i) for i in worst)} is "
            f"{got[worst]:.4g} but finite differences give "
            f"{expected[worst]:.4g}",
            "d_scores = weights * (d_weights - row sum of d_weights * weights)",
        )
    return CheckResult(
        name,
        True,
        "passed: your d_scores matches finite differences of the softmax on 3 rows of 4 scores",
    )


def check_loss_gradient(func: Callable) -> CheckResult:
    """Check ``func(logits, answer) -> d_logits``: the gradient of the cross-entropy.

    For ``loss = -log softmax(logits)[answer]`` the gradient is the
    predicted probabilities minus the one-hot answer. The check compares
    with central finite differences on 10 logits.

    Examples
    --------
    >>> check_loss_gradient(lambda logits, answer: -np.eye(10)[answer])
    ✗ check_loss_gradient: your gradient is -one_hot(answer): the probabilities are missing
      Hint: ...
    """
    name = "check_loss_gradient"
    logits = np.random.default_rng(62).standard_normal(10)  # (n_values,)
    answer = 3

    def loss(z):
        return float(np.log(np.exp(z - z.max()).sum()) + z.max() - z[answer])

    h = 1e-6
    expected = np.array(
        [(loss(logits + h * e) - loss(logits - h * e)) / (2 * h) for e in np.eye(10)]
    )
    got, error = _run(name, func, logits.copy(), answer)
    if error is None:
        got, error = _as_answer(name, got, logits.shape)
    if error is not None:
        return error
    one_hot = np.eye(10)[answer]
    if np.allclose(got, -one_hot):
        return CheckResult(
            name,
            False,
            "your gradient is -one_hot(answer): the probabilities are missing",
            "d_logits = softmax(logits) - one_hot(answer)",
        )
    if np.allclose(got, -expected, atol=1e-6):
        return CheckResult(
            name,
            False,
            "your gradient has the wrong sign",
            "the loss falls when the answer's logit rises: its entry is negative",
        )
    if not np.allclose(got, expected, atol=1e-6):
        return CheckResult(
            name,
            False,
            "your gradient differs from finite differences of the "
            f"loss: max difference {np.abs(got - expected).max():.3g}",
            "d_logits = softmax(logits) - one_hot(answer)",
        )
    return CheckResult(
        name,
        True,
        "passed: softmax(logits) - one_hot(answer), as finite differences of the cross-entropy say",
    )


def check_pick(prediction, params: Params, seq: Sequence) -> CheckResult:
    """Check a prediction of the pair token that the query's row weights most.

    Parameters
    ----------
    prediction : int or str
        A position (0 for the first token) or a token as printed, e.g. ``"e1"``.
    params : Params
        Trained parameters.
    seq : Sequence
        The sequence shown to the learner.

    Examples
    --------
    >>> from attnlib import lookup
    >>> seq = lookup.make_task(1, seed=3)[0]
    >>> check_pick(None, lookup.init_params(), seq)
    ✗ check_pick: replace None with your prediction...
    """
    name = "check_pick"
    tokens = seq.tokens
    if prediction is None or prediction is Ellipsis:
        return CheckResult(
            name,
            False,
            "replace None with your prediction: a position "
            "(0, 1, ...) or a token such as " + repr(tokens[0]),
        )
    if isinstance(prediction, str):
        if prediction not in tokens:
            return CheckResult(
                name, False, f"{prediction!r} is not a token of this sequence: {' '.join(tokens)}"
            )
        position = tokens.index(prediction)
    elif isinstance(prediction, (int, np.integer)) and not isinstance(prediction, bool):
        if not 0 <= prediction < len(tokens):
            return CheckResult(
                name, False, f"position {prediction} is outside 0 to {len(tokens) - 1}"
            )
        position = int(prediction)
    else:
        return CheckResult(name, False, f"give a position or a token, not {prediction!r}")
    row = attend(params, seq).weights[-1]  # (n,): the query's row of weights
    top = int(row.argmax())
    if position == top:
        return CheckResult(
            name,
            True,
            f"right: the query {tokens[-1]!r} puts {row[top]:.2f} "
            f"of its weight on {tokens[top]!r} (position {top})",
        )
    return CheckResult(
        name,
        False,
        f"the query {tokens[-1]!r} puts only {row[position]:.2f} "
        f"of its weight on {tokens[position]!r}",
        f"which pair holds the key {tokens[-1][1:]!r}?",
    )


# --- worked solutions (to move into attnlib.solutions) ---


def my_softmax_backward(weights, d_weights):
    """d_scores from d_weights through each row's softmax (check_softmax_backward)."""
    row_average = (d_weights * weights).sum(axis=1, keepdims=True)  # (n_q, n_kv) -> (n_q, 1)
    return weights * (d_weights - row_average)  # (n_q, n_kv)


def my_loss_gradient(logits, answer):
    """Gradient of -log softmax(logits)[answer] (check_loss_gradient)."""
    probs = softmax(logits)  # (n_values,)
    return probs - np.eye(len(logits))[answer]  # (n_values,) - one-hot (n_values,)
