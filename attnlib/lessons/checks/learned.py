"""Checks for the exercises of notebook 06 (what attention learns).

Two checks take the learner's function and compare it with central finite
differences, an independent computation that shares no formula with the
answer: :func:`check_softmax_backward` (the softmax's backward step) and
:func:`check_loss_gradient` (the gradient of the cross-entropy). Each names
the usual slip (the softmax's second term left out, a sum down the columns,
the probabilities left out, the sign flipped) with a hint of its own.
:func:`check_pick` checks a prediction of the token that the trained layer's
query weights most. How a check runs and reports is :mod:`attnlib.checks.runner`.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ...i18n import tr
from ...maths.core import softmax
from ..lookup import Params, Sequence, attend
from .runner import Failure, call, check, close, compare, expect_array

#: The step of the central finite differences: its error, h² and eps / h, stays near 1e-10.
STEP = 1e-6


@check
def check_softmax_backward(func: Callable) -> str:
    """Check ``func(weights, d_weights) -> d_scores``: the softmax's backward step.

    With ``weights = softmax(scores)`` taken along each row, and `d_weights`
    the gradient of a loss with respect to the weights, the answer is the
    gradient with respect to the scores,
    ``weights * (d_weights - (d_weights * weights).sum(axis=1, keepdims=True))``.
    The check compares it with central finite differences of
    :func:`attnlib.softmax` on a 3 × 4 matrix (3 queries, 4 keys).

    Parameters
    ----------
    func : callable
        ``func(weights, d_weights)`` with both of shape (n_q, n_kv), each row
        of `weights` summing to 1; returns d_scores, shape (n_q, n_kv).

    Returns
    -------
    CheckResult
        Passed, or what went wrong and a hint.

    Examples
    --------
    >>> check_softmax_backward(lambda weights, d_weights: weights * d_weights)
    ✗ check_softmax_backward: your d_scores misses the second term...
    """
    rng = np.random.default_rng(61)
    scores = rng.standard_normal((3, 4))  # (n_q, n_kv)
    d_weights = rng.standard_normal((3, 4))  # (n_q, n_kv)
    weights = softmax(scores)  # (n_q, n_kv)
    expected = np.empty_like(scores)  # finite differences of L = sum(weights * d_weights)
    for index in np.ndindex(scores.shape):
        step = np.zeros_like(scores)
        step[index] = STEP
        expected[index] = ((softmax(scores + step) - softmax(scores - step)) * d_weights).sum()
    expected /= 2 * STEP
    hint = tr("d_scores = weights * (d_weights - row sum of d_weights * weights)")
    got = expect_array(call(func, weights.copy(), d_weights.copy(), hint=hint))
    if close(got, weights * d_weights):
        raise Failure(
            tr("your d_scores misses the second term: it is weights * d_weights"),
            tr(
                "each weight depends on every score of its row: subtract the row's "
                "(d_weights * weights).sum(axis=1, keepdims=True) before multiplying"
            ),
        )
    column_sums = (d_weights * weights).sum(axis=0, keepdims=True)  # (n_q, n_kv) -> (1, n_kv)
    if close(got, weights * (d_weights - column_sums)):
        raise Failure(
            tr("you summed down the columns (axis=0)"),
            tr("the softmax normalises each row, so sum along axis=1"),
        )
    compare(got, expected, tr("3 rows of 4 scores"), hint, atol=1e-6)
    return tr(
        "passed: your d_scores matches finite differences of the softmax on 3 rows of 4 scores"
    )


@check
def check_loss_gradient(func: Callable) -> str:
    """Check ``func(logits, answer) -> d_logits``: the gradient of the cross-entropy.

    For ``loss = -log softmax(logits)[answer]`` the gradient is the
    predicted probabilities minus the one-hot answer. The check compares
    with central finite differences on 10 logits.

    Parameters
    ----------
    func : callable
        ``func(logits, answer)`` with logits of shape (n_values,) and answer an
        int in 0 to n_values - 1; returns d_logits, shape (n_values,).

    Returns
    -------
    CheckResult
        Passed, or what went wrong and a hint.

    Examples
    --------
    >>> check_loss_gradient(lambda logits, answer: -np.eye(10)[answer])
    ✗ check_loss_gradient: your gradient is -one_hot(answer): the probabilities are missing
      Hint: ...
    """
    logits = np.random.default_rng(62).standard_normal(10)  # (n_values,)
    answer = 3

    def loss(z):
        return float(np.log(np.exp(z - z.max()).sum()) + z.max() - z[answer])

    expected = np.array(
        [(loss(logits + STEP * e) - loss(logits - STEP * e)) / (2 * STEP) for e in np.eye(10)]
    )  # (n_values,)
    hint = "d_logits = softmax(logits) - one_hot(answer)"
    got = expect_array(call(func, logits.copy(), answer, hint=hint))
    if close(got, -np.eye(10)[answer]):
        raise Failure(tr("your gradient is -one_hot(answer): the probabilities are missing"), hint)
    if close(got, -expected):
        raise Failure(
            tr("your gradient has the wrong sign"),
            tr("the loss falls when the answer's logit rises: its entry is negative"),
        )
    compare(got, expected, tr("10 logits with answer 3"), hint, atol=1e-6)
    return tr(
        "passed: softmax(logits) - one_hot(answer), as finite differences of the cross-entropy say"
    )


def _position(prediction, tokens: list[str]) -> int:
    # the learner may name the token by its position or as printed
    if prediction is None or prediction is Ellipsis:
        raise Failure(
            tr(
                "replace None with your prediction: a position "
                "(0, 1, ...) or a token such as {example!r}",
                example=tokens[0],
            )
        )
    if isinstance(prediction, str):
        if prediction not in tokens:
            raise Failure(
                tr(
                    "{prediction!r} is not a token of this sequence: {tokens}",
                    prediction=prediction,
                    tokens=" ".join(tokens),
                )
            )
        return tokens.index(prediction)
    if isinstance(prediction, (int, np.integer)) and not isinstance(prediction, bool):
        if not 0 <= prediction < len(tokens):
            raise Failure(
                tr(
                    "position {prediction} is outside 0 to {last}",
                    prediction=prediction,
                    last=len(tokens) - 1,
                )
            )
        return int(prediction)
    raise Failure(tr("give a position or a token, not {prediction!r}", prediction=prediction))


@check
def check_pick(prediction, params: Params, seq: Sequence) -> str:
    """Check a prediction of the pair token that the query's row weights most.

    Parameters
    ----------
    prediction : int or str
        A position (0 for the first token) or a token as printed, e.g. ``"e1"``.
    params : Params
        Trained parameters.
    seq : Sequence
        The sequence shown to the learner.

    Returns
    -------
    CheckResult
        Passed, or what the query really weights and a hint.

    Examples
    --------
    >>> from attnlib import lookup
    >>> seq = lookup.make_task(1, seed=3)[0]
    >>> check_pick(None, lookup.init_params(), seq)
    ✗ check_pick: replace None with your prediction...
    """
    tokens = list(seq.tokens)
    position = _position(prediction, tokens)
    row = attend(params, seq).weights[-1]  # (n,): the query's row of weights
    top = int(row.argmax())
    if position != top:
        raise Failure(
            tr(
                "the query {query!r} puts only {weight:.2f} of its weight on {token!r}",
                query=tokens[-1],
                weight=row[position],
                token=tokens[position],
            ),
            tr("which pair holds the key {key!r}?", key=tokens[-1][1:]),
        )
    return tr(
        "right: the query {query!r} puts {weight:.2f} of its weight on {token!r} (position {top})",
        query=tokens[-1],
        weight=row[top],
        token=tokens[top],
        top=top,
    )
