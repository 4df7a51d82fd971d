"""Checks for the exercises of notebook 06 (what attention learns).

Two checks take the learner's function and compare it with central finite
differences, an independent computation that shares no formula with the
answer: :func:`check_softmax_backward` (the softmax's backward step) and
:func:`check_loss_gradient` (the gradient of the cross-entropy). Each names
the usual slip (the softmax's second term left out, a sum down the columns,
the probabilities left out, the sign flipped) with a hint of its own.
:func:`check_pick` checks a prediction of the token that the trained layer's
query weights most. The ``check_prediction_*`` checks grade numbers and choices
written before the cell that shows them: the untrained loss, d loss / d logits,
whether the unscaled layer's gradients are larger (measured with
:func:`attnlib.lookup.qk_gradient_norms`), and how the unscaled scores' spread
grows with d_k. How a check runs and reports is :mod:`attnlib.checks.runner`.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ...i18n import tr
from ...maths.core import softmax
from ...maths.lookup import Params, Sequence, attend, init_params, make_task, qk_gradient_norms
from .reading import as_choice, as_number, written, wrong
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
    hint = tr(
        "the formula above, α_l (g_l - Σ_j g_j α_j), for every row at once: one sum per "
        "row, which must line up with its own row"
    )
    got = expect_array(call(func, weights.copy(), d_weights.copy(), hint=hint))
    if close(got, weights * d_weights):
        raise Failure(
            tr("your d_scores misses the second term: it is weights * d_weights"),
            tr(
                "each weight depends on every score of its row: the formula's second "
                "term, Σ_j g_j α_j, one number per row, is missing"
            ),
        )
    column_sums = (d_weights * weights).sum(axis=0, keepdims=True)  # (n_q, n_kv) -> (1, n_kv)
    if close(got, weights * (d_weights - column_sums)):
        raise Failure(
            tr("you summed down the columns (axis=0)"),
            tr(
                "the softmax normalises each row: the sum Σ_j g_j α_j runs along a row, "
                "not down a column"
            ),
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
    hint = tr(
        "compare with step 1 of the backward pass above: which two terms does it have, "
        "and does your gradient have both?"
    )
    got = expect_array(call(func, logits.copy(), answer, hint=hint))
    if close(got, -np.eye(10)[answer]):
        raise Failure(
            tr("your gradient is -one_hot(answer): the probabilities are missing"),
            tr("step 1 of the backward pass has two terms: the model's probabilities are one"),
        )
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
                "replace {placeholder} with your prediction: a position "
                "(0, 1, ...) or a token such as {example!r}",
                placeholder="..." if prediction is Ellipsis else "None",
                example=tokens[0],
            )
        )
    if isinstance(prediction, str):
        if prediction not in tokens and prediction.strip().isdecimal():
            raise Failure(
                tr(
                    "{prediction!r} is text (a str), not a position: write it without "
                    "quotes, {position}, or write a token such as {example!r}",
                    prediction=prediction,
                    position=int(prediction),
                    example=tokens[0],
                )
            )
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


# --- predictions of notebook 06, written before the cell that shows the answer ---


def _size_names() -> dict[str, str]:
    # check_prediction_gradient_size's choices (English) -> their names in the learner's
    # language, which they may also answer with
    return {
        "smaller": tr("smaller"),
        "about the same": tr("about the same"),
        "larger": tr("larger"),
    }


@check
def check_prediction_uniform_loss(answer: float, n_values: int = 10) -> str:
    """Check the loss of a model that believes all `n_values` answers equally (06).

    The loss is the cross-entropy ``-log p[answer]`` in nats, and every p is
    1 / n_values, so the loss is log(n_values). Within 0.01.

    Examples
    --------
    >>> check_prediction_uniform_loss(0.1, reveal=True)
    ✗ check_prediction_uniform_loss: you predicted 0.1, but the loss is -log(1/10) = 2.303 nats
      Hint: 0.1 is the probability of the right answer; the loss is minus its log
    """
    guess = as_number(answer)
    right = float(-np.log(1 / n_values))  # -log p[answer] with p = 1/n_values
    if abs(guess - right) <= 0.01:
        return tr(
            "right: every value gets p = 1/{n}, and -log(1/{n}) = log {n} = {right:.3f} nats",
            n=n_values,
            right=right,
        )
    said = tr(
        "you predicted {guess:g}, but the loss is -log(1/{n}) = {right:.3f} nats",
        guess=guess,
        n=n_values,
        right=right,
    )
    if abs(guess - 1 / n_values) < 1e-9:
        why = slip = tr(
            "{guess:g} is the probability of the right answer; the loss is minus its log",
            guess=guess,
        )
    elif abs(guess - np.log10(n_values)) < 0.01:
        why = slip = tr("that is log base 10; the loss is measured in nats, with the natural log")
    elif abs(guess - np.log2(n_values)) < 0.01:
        why = slip = tr(
            "that is log base 2 (bits); the loss is measured in nats, with the natural log"
        )
    elif abs(guess + right) <= 0.01:
        why = slip = tr(
            "the sign is turned round: the log of a probability is negative, and the loss "
            "is minus that log"
        )
    else:
        why = tr("the loss is -log of the probability the model gives the right answer")
        slip = tr("what probability does the right value get, and what is minus its natural log?")
    raise wrong(answer, said, why, slip)


@check
def check_prediction_gradient_size(answer: str, d_k: int = 64, seeds: int = 6) -> str:
    """Check a prediction: is the unscaled layer's |dW_Q| + |dW_K| smaller at the start (06)?

    The gradients are measured with :func:`attnlib.lookup.qk_gradient_norms`
    at ``d_k`` with q and k of size 1 (``qk_scale=1.0``), scaled and unscaled,
    for `seeds` starting seeds; the answer is "larger" when the unscaled sum
    is more than 1.25 times the scaled one on every seed, "smaller" when it is
    less than 0.8 times on every seed, and "about the same" otherwise.

    Parameters
    ----------
    answer : str
        One of "smaller", "about the same", "larger".

    Examples
    --------
    >>> bool(check_prediction_gradient_size("smaller"))
    False
    """
    names = _size_names()
    choice = as_choice(answer, names)
    task = make_task(4000, seed=0)  # notebook 06's training set (its first two batches are used)
    ratios = []
    for seed in range(seeds):
        start = init_params(d_k=d_k, qk_scale=1.0, seed=seed)
        scaled = sum(qk_gradient_norms(start, task, scaled=True))
        unscaled = sum(qk_gradient_norms(start, task, scaled=False))
        ratios.append(unscaled / scaled)
    if min(ratios) > 1.25:
        right = "larger"
    elif max(ratios) < 0.8:
        right = "smaller"
    else:
        right = "about the same"
    shown = tr(
        "unscaled |dW_Q| + |dW_K| is {ratios} times the scaled one (seeds 0 to {last})",
        ratios=", ".join(f"{r:.1f}" for r in ratios),
        last=seeds - 1,
    )
    if choice == right:
        return tr("right: {right}. {shown}", right=names[right], shown=shown)
    said = tr(
        "you predicted {choice!r}, but it is {right}: {shown}",
        choice=answer,  # as the learner wrote it
        right=names[right],
        shown=shown,
    )
    why = tr(
        "a saturated softmax does pass back less to its scores, but an unscaled score q · k "
        "moves √d_k = {root:g} times more when q or k moves: the rows that are not saturated "
        "pass back a lot, and they make the batch's gradient larger",
        root=np.sqrt(d_k),
    )
    if choice == "smaller":
        slip = tr(
            "a saturated softmax does pass back less to its scores, but that is one of two "
            "effects. The gradient to W_Q also passes through q: how strongly does q · k "
            "depend on q, compared with q · k / √d_k?"
        )
    elif right == "larger":  # "about the same"
        slip = tr(
            "the two layers differ only by one division, and the gradient to W_Q passes "
            "through it: how strongly does q · k depend on q, compared with q · k / √d_k?"
        )
    else:
        slip = tr(
            "a score's gradient reaches W_Q through q: how strongly does q · k depend on q, "
            "compared with q · k / √d_k?"
        )
    raise wrong(answer, said, why, slip)


@check
def check_prediction_spread_growth(answer: float, d_k_from: int = 64, d_k_to: int = 256) -> str:
    """Check how many times the spread (standard deviation) of unscaled scores grows (06).

    For q and k of independent coordinates of variance 1, q · k has variance
    d_k, so its standard deviation grows by √(d_k_to / d_k_from). Within 0.05.

    Examples
    --------
    >>> check_prediction_spread_growth(4, reveal=True)
    ✗ check_prediction_spread_growth: you predicted 4, but the spread grows 2 times: from √64 = 8 to √256 = 16
      Hint: 4 is how much the variance grows; the spread is its square root
    """  # noqa: E501
    guess = as_number(answer)
    right = float(np.sqrt(d_k_to / d_k_from))
    if abs(guess - right) <= 0.05:
        return tr(
            "right: the spread of q · k is √d_k, from √{a} = {sa:g} to √{b} = {sb:g}: "
            "{right:g} times",
            a=d_k_from,
            b=d_k_to,
            sa=np.sqrt(d_k_from),
            sb=np.sqrt(d_k_to),
            right=right,
        )
    said = tr(
        "you predicted {guess:g}, but the spread grows {right:g} times: from √{a} = {sa:g} "
        "to √{b} = {sb:g}",
        guess=guess,
        right=right,
        a=d_k_from,
        b=d_k_to,
        sa=np.sqrt(d_k_from),
        sb=np.sqrt(d_k_to),
    )
    if abs(guess - d_k_to / d_k_from) < 1e-9:
        why = tr(
            "{guess:g} is how much the variance grows; the spread is its square root", guess=guess
        )
        slip = tr(
            "{guess:g} is how much the variance grows, not the spread: how does a standard "
            "deviation follow from a variance?",
            guess=guess,
        )
    elif any(abs(guess - np.sqrt(d)) <= 0.05 for d in (d_k_from, d_k_to)):
        why = tr(
            "{guess:g} is the spread at one d_k; the question is how many times the second "
            "is the first: √{b} / √{a}",
            guess=guess,
            a=d_k_from,
            b=d_k_to,
        )
        slip = tr(
            "{guess:g} is the spread at one d_k; the question is how many times the spread "
            "grows from the first d_k to the second",
            guess=guess,
        )
    else:
        why = tr("the variance of q · k is d_k (2.2.3); the spread is the square root of it")
        slip = tr(
            "what is the variance of q · k at each d_k, and how does a spread follow from it?"
        )
    raise wrong(answer, said, why, slip)


@check
def check_prediction_loss_gradient(answer, n_values: int = 10) -> str:
    """Check d loss / d logits for an untrained model that gives every value 1/n_values (06).

    The gradient is ``p - one_hot(answer)``: at the right value 1/n - 1, at any
    other value 1/n. The answer is the pair (at the right value, at another
    value), each within 0.01.

    Examples
    --------
    >>> check_prediction_loss_gradient((-0.9, 0.1))
    ✓ check_prediction_loss_gradient: right: p - one_hot(answer) is 0.1 - 1 = -0.9 at the answer and 0.1 elsewhere
    """  # noqa: E501
    written(answer)
    if isinstance(answer, str):  # "(-0.9, 0.1)": the pair typed in quotes
        raise Failure(
            tr("your prediction {answer!r} is text (a str), not a pair of numbers", answer=answer),
            tr("write the two numbers without quotes: (at the right value, at any other value)"),
        )
    try:
        at_answer, elsewhere = (float(a) for a in answer)
    except (TypeError, ValueError):
        raise Failure(
            tr("your prediction {answer!r} is not a pair of numbers", answer=answer),
            tr("write two numbers: (at the right value, at any other value)"),
        ) from None
    p = 1 / n_values
    right = (p - 1, p)
    if abs(at_answer - right[0]) <= 0.01 and abs(elsewhere - right[1]) <= 0.01:
        return tr(
            "right: p - one_hot(answer) is {p:g} - 1 = {a:g} at the answer and {p:g} elsewhere",
            p=p,
            a=right[0],
        )
    said = tr(
        "you predicted ({a:g}, {b:g}), but p - one_hot(answer) gives ({ra:g}, {rb:g})",
        a=at_answer,
        b=elsewhere,
        ra=right[0],
        rb=right[1],
    )
    step = tr("step 1 of the backward pass gives the formula: put p = 1/{n} into it", n=n_values)
    if abs(at_answer + right[0]) <= 0.01 and abs(elsewhere + right[1]) <= 0.01:
        why = slip = tr(
            "the signs are turned round: raising the right value's logit lowers the loss"
        )
    elif abs(at_answer - p) <= 0.01 and abs(elsewhere - p) <= 0.01:
        why = tr(
            "that is p alone: p - one_hot(answer) also takes 1 away at the right value, "
            "{p:g} - 1 = {a:g}",
            p=p,
            a=right[0],
        )
        slip = tr(
            "that is p alone, the same at every value: the formula's second term, "
            "one_hot(answer), is missing at the right value"
        )
    elif abs(at_answer + 1) <= 0.01 and abs(elsewhere) <= 0.01:
        why = tr(
            "that is -one_hot(answer) alone: p = {p:g} is missing, at the answer and elsewhere",
            p=p,
        )
        slip = tr("that is -one_hot(answer) alone: the formula's first term, p, is missing")
    else:
        why = tr("step 1 of the backward pass: d loss / d logits = p - one_hot(answer)")
        slip = step
    raise wrong(answer, said, why, slip)
