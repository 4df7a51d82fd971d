"""Checks of 04's predictions, worked out by hand or by reasoning: a score, a variance, a winner.

Notebook 04 (attention scores) asks for these before the cell that computes
them; the answer is read as in :mod:`.predictions`, and a first wrong try is
told the slip without the answer's numbers. Notebook 05's are in :mod:`.weights`.

========================================  ========  =======================================
check                                     notebook  the question (defaults)
========================================  ========  =======================================
check_prediction_score                    04        score_01 by hand
check_prediction_score_variance           04        var(q · k) at d_k = 64, unscaled
check_prediction_winner                   04        which key wins row 1
========================================  ========  =======================================

Examples
--------
>>> bool(check_prediction_winner(2))
True
"""

from __future__ import annotations

import numpy as np

from ...i18n import tr
from ...maths.core import Attention, self_attention
from ...maths.data import toy_example
from ...maths.stats import score_variance
from .reading import as_index, as_number, require_cell, wrong
from .runner import Failure, check

SCORE_TOLERANCE = 0.01  # absolute: a score or a weight worked out by hand, to two decimals
VARIANCE_TOLERANCE = 0.10  # relative: a variance estimated by a simulation also counts


def small_example() -> Attention:
    """The default question of the by-hand checks: 3 tokens, d = d_k = 4 (seed 0)."""
    ex = toy_example(n=3, d=4, d_k=4, seed=0)
    return self_attention(ex.X, ex.W_Q, ex.W_K, ex.W_V)


def numbers(values) -> str:
    """Numbers as the checks write them: four significant digits, comma-separated."""
    return ", ".join(f"{v:.4g}" for v in values)


# --- 04 attention scores ---


@check
def check_prediction_score(
    answer: float, att: Attention | None = None, i: int = 0, j: int = 1
) -> str:
    """Check a score worked out by hand: ``score_ij = q_i · k_j / √d_k`` (04).

    Tolerance: within 0.01 of ``att.scores[i, j]``, so two decimals are enough.

    Parameters
    ----------
    answer : number
        The predicted score.
    att : Attention, optional
        The pass to read q_i and k_j from; by default a 3-token example with
        d = d_k = 4 (``toy_example(n=3, d=4, d_k=4)``). If it was computed
        with ``scaled=False`` the score is q_i · k_j itself.
    i, j : int, default 0 and 1
        The query (row) and the key (column).

    Returns
    -------
    CheckResult
        Passed, or the sum term by term and why.

    Examples
    --------
    >>> check_prediction_score(0.34, reveal=True)
    ✗ check_prediction_score: you predicted 0.34, but score_01 = 0.171
      Hint: that is q_0 · k_1 = 0.342 before the scaling; divide it by √d_k = 2
    """
    att = small_example() if att is None else att
    guess = as_number(answer)
    n_q, n_kv = att.scores.shape
    require_cell(i, j, (n_q, n_kv))
    q, k = att.Q[i], att.K[j]
    d_k = len(q)
    terms = q * k  # (d_k,): q_i[c] * k_j[c], coordinate by coordinate
    dot = float(terms.sum())
    right = float(att.scores[i, j])
    root = float(np.sqrt(d_k)) if att.scaled else 1.0
    working = " + ".join(f"({a:.3g})({b:.3g})" for a, b in zip(q, k, strict=True)) + f" = {dot:.4g}"
    if att.scaled:
        working += tr(", divided by √d_k = √{d_k} = {root:.4g}", d_k=d_k, root=root)
    if abs(guess - right) <= SCORE_TOLERANCE:
        return tr(
            "right: score_{i}{j} = {right:.4g}: q_{i} · k_{j} = {working}",
            i=i,
            j=j,
            right=right,
            working=working,
        )
    said = tr(
        "you predicted {guess:.4g}, but score_{i}{j} = {right:.4g}",
        guess=guess,
        i=i,
        j=j,
        right=right,
    )
    if att.scaled and abs(guess - dot) <= SCORE_TOLERANCE:
        why = tr(
            "that is q_{i} · k_{j} = {dot:.4g} before the scaling; divide it by √d_k = {root:.4g}",
            i=i,
            j=j,
            dot=dot,
            root=root,
        )
        slip = tr(
            "that is q_{i} · k_{j} before the scaling: the score still divides it by √d_k",
            i=i,
            j=j,
        )
    elif att.scaled and abs(guess - dot / d_k) <= SCORE_TOLERANCE:
        why = tr(
            "you divided by d_k = {d_k}; the scaling divides by its square root, {root:.4g}",
            d_k=d_k,
            root=root,
        )
        slip = tr("you divided by d_k, not by √d_k: the scaling divides by the square root")
    elif i < n_kv and j < n_q and abs(guess - float(att.scores[j, i])) <= SCORE_TOLERANCE:
        why = slip = tr(
            "that is score_{j}{i}, query {j} against key {i}; score_{i}{j} takes q from "
            "row {i} of Q and k from row {j} of K",
            i=i,
            j=j,
        )
    elif abs(guess + right) <= SCORE_TOLERANCE and abs(right) > SCORE_TOLERANCE:
        why = tr("the sign is turned round: q_{i} · k_{j} = {working}", i=i, j=j, working=working)
        slip = tr(
            "the sign is turned round: check the sign of each product q_{i}[c] k_{j}[c]",
            i=i,
            j=j,
        )
    else:
        why = tr(
            "multiply q_{i} and k_{j} coordinate by coordinate and add: {working}",
            i=i,
            j=j,
            working=working,
        )
        slip = tr(
            "redo it in three steps: the products q_{i}[c] k_{j}[c], their sum, then the scaling",
            i=i,
            j=j,
        )
    raise wrong(answer, said, why, slip)


@check
def check_prediction_score_variance(answer: float, d_k: int = 64) -> str:
    """Check the predicted variance of an unscaled score q · k at the given d_k (04).

    q and k have d_k independent entries of mean 0 and variance 1, so q · k is
    a sum of d_k products of variance 1 each: its variance is d_k. Tolerance:
    within 10% of d_k, so an estimate from a simulation also passes.

    Parameters
    ----------
    answer : number
        The predicted variance of q · k (not divided by √d_k).
    d_k : int, default 64
        Length of q and k.

    Returns
    -------
    CheckResult
        Passed, or the right variance and why.

    Examples
    --------
    >>> check_prediction_score_variance(8, reveal=True)
    ✗ check_prediction_score_variance: you predicted 8, but var(q · k) at d_k = 64 is about 64 ...
      Hint: √64 = 8 is the standard deviation; the variance is its square
    """
    guess = as_number(answer)
    measured = float(score_variance([d_k], trials=20_000, seed=0).unscaled[0])
    right = d_k
    if abs(guess - right) <= VARIANCE_TOLERANCE * right:
        return tr(
            "right: about {right}, the sum of {d_k} products of variance 1 "
            "(20,000 random pairs give {measured:.3g})",
            right=right,
            d_k=d_k,
            measured=measured,
        )
    said = tr(
        "you predicted {guess:g}, but var(q · k) at d_k = {d_k} is about {right} "
        "(20,000 random pairs give {measured:.3g})",
        guess=guess,
        d_k=d_k,
        right=right,
        measured=measured,
    )
    step = tr(
        "q · k is a sum of d_k independent products: how do the variances of such terms combine?"
    )
    if np.isclose(guess, 1.0):
        why = tr(
            "1 is the variance after dividing by √d_k; unscaled, the d_k products of "
            "variance 1 add up their variances"
        )
        slip = tr(
            "1 is the variance after dividing by √d_k; here q · k is not divided: "
            "how do the variances of its d_k products combine?"
        )
    elif np.isclose(guess, np.sqrt(d_k)):
        why = tr(
            "√{d_k} = {root:g} is the standard deviation; the variance is its square",
            d_k=d_k,
            root=np.sqrt(d_k),
        )
        slip = tr("that is the standard deviation of q · k; the variance is its square")
    elif np.isclose(guess, 0.0):
        why = tr(
            "0 is the mean of q · k; its variance, the spread around that mean, adds up the "
            "variances of its d_k = {d_k} products",
            d_k=d_k,
        )
        slip = tr("0 is the mean of q · k; the variance measures its spread around that mean")
    else:
        why = tr(
            "q · k adds d_k = {d_k} independent products q_c k_c, each of variance 1, "
            "and variances of independent terms add",
            d_k=d_k,
        )
        slip = step
    raise wrong(answer, said, why, slip)


@check
def check_prediction_winner(
    answer: int | str, att: Attention | None = None, i: int = 1, tokens=None
) -> str:
    """Check which key gets the largest weight in row `i`, the key j a query attends to most (04).

    Parameters
    ----------
    answer : int or str
        The predicted key: its index j, or its token as printed (e.g. ``"mice"``).
    att : Attention, optional
        By default the 3-token example with d = d_k = 4 (see
        :func:`check_prediction_score`).
    i : int, default 1
        The query (row).
    tokens : sequence of str, optional
        The keys' tokens, so that a token's name is accepted; by default those
        of the 3-token example when `att` is not given.

    Returns
    -------
    CheckResult
        Passed (exact match), or the winning key and why.

    Examples
    --------
    >>> bool(check_prediction_winner(2))
    True
    """
    if att is None:
        att = small_example()
        tokens = toy_example(n=3, d=4, d_k=4, seed=0).tokens if tokens is None else tokens
    n_q, n_kv = att.weights.shape
    if not 0 <= i < n_q:
        raise ValueError(tr("i must be from 0 to {last}, got {i}", last=n_q - 1, i=i))
    names = list(tokens) if tokens is not None else []
    if isinstance(answer, str) and answer.strip() in names:
        if names.count(answer.strip()) > 1:
            raise Failure(
                tr("{token!r} appears more than once among the keys", token=answer.strip()),
                tr("write the key's index instead, counting from 0"),
            )
        j = names.index(answer.strip())
    elif isinstance(answer, str) and names and not answer.strip().isdecimal():
        raise Failure(
            tr(
                "your prediction {answer!r} is not one of the keys' tokens: {tokens}",
                answer=answer,
                tokens=", ".join(map(repr, names)),
            ),
            tr("write a key's token as printed, or its index counting from 0"),
        )
    else:
        j = as_index(answer, n_kv)  # a number in quotes is told apart here
    right = int(np.argmax(att.weights[i]))
    row = att.scores[i]
    if j == right:
        return tr(
            "right: key {right}, the largest score of row {i} ({score:.3g}), "
            "so the largest weight ({weight:.3g})",
            right=right,
            i=i,
            score=row[right],
            weight=att.weights[i, right],
        )
    said = tr("you predicted key {j}, but row {i} is won by key {right}", j=j, i=i, right=right)
    why = tr(
        "row {i}'s scores are {row}; the largest score gets the largest weight",
        i=i,
        row=numbers(row),
    )
    if j == i:
        why = tr(
            "a token does not always attend most to itself: q_{i} and k_{i} come from "
            "different matrices (W_Q, W_K); {why}",
            i=i,
            why=why,
        )
        slip = tr(
            "a token does not always attend most to itself: q_{i} and k_{i} come from "
            "different matrices (W_Q, W_K); compare the scores of row {i}",
            i=i,
        )
    elif i < n_kv and j == int(np.argmax(att.scores[:, i])):
        why = tr("you read column {i}, the queries' scores against key {i}; {why}", i=i, why=why)
        slip = tr(
            "you read column {i}, the queries' scores against key {i}; query {i}'s own "
            "scores are row {i}",
            i=i,
        )
    elif n_kv > 2 and j == int(np.argmin(row)):
        why = tr("key {j} has the smallest score of row {i}; {why}", j=j, i=i, why=why)
        slip = tr(
            "key {j} has the smallest score of row {i}: the softmax gives the largest weight "
            "to the largest score",
            j=j,
            i=i,
        )
    else:
        slip = tr(
            "compare the scores of row {i} with each other: the softmax keeps their order", i=i
        )
    raise wrong(answer, said, why, slip)
