"""Notebook 06's predictions, each written before the cell that shows its answer.

==================================  ========================================================
check                               the question
==================================  ========================================================
check_prediction_uniform_loss       the loss of an untrained model that believes 10 values alike
check_prediction_loss_gradient      d loss / d logits of that model, at the answer and elsewhere
check_prediction_gradient_size      is the unscaled layer's |dW_Q| + |dW_K| larger at the start?
check_prediction_spread_growth      how many times the unscaled scores' spread grows with d_k
==================================  ========================================================

The gradients' size is measured with :func:`attnlib.lookup.qk_gradient_norms`,
not assumed. The exercises of the same notebook are :mod:`.learned`. A first wrong
try is told the slip (or the step to redo); the answer comes with the second (or
with ``reveal=True``), as :mod:`.runner` arranges.
"""

from __future__ import annotations

import numpy as np

from ...i18n import tr
from ...maths.lookup import init_params, make_task, qk_gradient_norms
from .reading import as_choice, as_number, written, wrong
from .runner import Failure, check


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
