"""Checks of 05's predictions: the softmax and the weighted sum of one row, worked out by hand.

Notebook 05 (weighted sum) follows row 1 of the three-token example through
the softmax, by the route it teaches (subtract the row's largest score, take
the exponentials, divide by their sum), and then mixes the values. A first
wrong try is told the slip without the answer's numbers; see :mod:`.predictions`.

========================================  ========  =======================================
check                                     notebook  the question (defaults)
========================================  ========  =======================================
check_prediction_doubled_scores           05        every score doubled: the weights become?
check_prediction_exps                     05        row 1's exps after subtracting its maximum
check_prediction_alpha                    05        α_12 by hand
check_prediction_output                   05        z_1 = Σ_j α_1j v_j by hand
check_prediction_temperature              05        softmax(scores / T), T = 2: flatter or sharper?
========================================  ========  =======================================

Examples
--------
>>> bool(check_prediction_exps([0.93, 0.81, 1.0]))
True
"""

from __future__ import annotations

from numbers import Real

import numpy as np

from ...i18n import tr
from ...maths.core import Attention, softmax
from .reading import as_choice, as_number, require_cell, written, wrong
from .runner import Failure, check
from .worked import SCORE_TOLERANCE, numbers, small_example


def _as_numbers(answer, n: int) -> np.ndarray:
    """The prediction as `n` numbers, or Failure."""
    written(answer)
    if isinstance(answer, str):  # "0.1, 0.2, 0.3": the numbers typed in quotes
        raise Failure(
            tr("your prediction {answer!r} is text (a str), not {n} numbers", answer=answer, n=n),
            tr("write a list of {n} numbers without quotes, such as [0.1, 0.2, 0.3]", n=n),
        )
    try:
        values = np.asarray(answer, dtype=float).reshape(-1)
    except (TypeError, ValueError):
        values = np.array([])
    if values.shape != (n,) or isinstance(answer, bytes):
        raise Failure(
            tr("your prediction {answer!r} is not {n} numbers", answer=answer, n=n),
            tr("write a list of {n} numbers, such as [0.1, 0.2, 0.3]", n=n),
        )
    return values


def _row(att: Attention | None, i: int) -> tuple[Attention, np.ndarray]:
    att = small_example() if att is None else att
    n_q = att.scores.shape[0]
    if not 0 <= i < n_q:
        raise ValueError(tr("i must be from 0 to {last}, got {i}", last=n_q - 1, i=i))
    return att, att.scores[i]


def _choice_names() -> dict[str, str]:
    # check_prediction_doubled_scores's choices (English) -> their names in the learner's
    # language, which they may also answer with
    return {
        "sharper": tr("sharper"),
        "flatter": tr("flatter"),
        "unchanged": tr("unchanged"),
        "doubled": tr("doubled"),
    }


@check
def check_prediction_doubled_scores(answer: str, att: Attention | None = None, i: int = 1) -> str:
    """Check what doubling every score of a row does to its weights (05).

    Parameters
    ----------
    answer : str
        One of "sharper", "flatter", "unchanged", "doubled", or its name in
        another language attnlib speaks ("更集中", "更平缓", "不变", "翻倍").
    att : Attention, optional
        The row to show the numbers on; by default the 3-token example.
    i : int, default 1
        The row.

    Returns
    -------
    CheckResult
        Passed, or the right choice and why, with the row's weights before and after.

    Examples
    --------
    >>> bool(check_prediction_doubled_scores("unchanged"))
    False
    >>> bool(check_prediction_doubled_scores("更集中"))
    True
    """
    att = small_example() if att is None else att
    names = _choice_names()
    choice = as_choice(answer, names)
    before = softmax(att.scores[i])  # (n_kv,)
    after = softmax(2 * att.scores[i])  # (n_kv,)
    top = int(np.argmax(before))
    if after[top] > before[top]:
        right = "sharper"
    elif after[top] < before[top]:
        right = "flatter"
    else:
        right = "unchanged"  # a uniform row
    shown = tr(
        "row {i}: weights {before} become {after}; "
        "the winner's weight {top_before:.3g} -> {top_after:.3g}",
        i=i,
        before=numbers(before),
        after=numbers(after),
        top_before=before[top],
        top_after=after[top],
    )
    if choice == right:
        return tr(
            "right: {right}. {shown}: α_j / α_k = exp(s_j - s_k) is squared "
            "when every score is doubled",
            right=names[right],
            shown=shown,
        )
    said = tr(
        "you predicted {choice!r}, but the weights get {right}: {shown}",
        choice=answer,  # as the learner wrote it
        right=names[right],
        shown=shown,
    )
    # (why, with the answer; the slip, without it) for each wrong choice
    why, slip = {
        "unchanged": (
            tr(
                "adding the same number to every score changes nothing; multiplying "
                "by 2 doubles every gap s_j - s_k, and the weights follow exp of the gaps"
            ),
            tr(
                "adding the same number to every score changes nothing, but doubling "
                "multiplies: what does it do to the gaps s_j - s_k, the only thing the "
                "softmax sees?"
            ),
        ),
        "doubled": (tr("each row of weights still sums to 1, so the weights cannot all double"),)
        * 2,
        "flatter": (
            tr(
                "dividing the scores (as √d_k does) flattens; doubling widens every gap "
                "s_j - s_k, so the largest score takes more of the weight"
            ),
            tr(
                "a flatter row is what dividing the scores does (as √d_k does); doubling "
                "multiplies them: what does that do to the gaps s_j - s_k?"
            ),
        ),
        "sharper": (
            tr("this row is uniform: all its scores are equal, so doubling keeps them equal"),
            tr("look at this row's scores first: are any two of them different?"),
        ),
    }[choice]
    raise wrong(answer, said, why, slip)


@check
def check_prediction_alpha(
    answer: float, att: Attention | None = None, i: int = 1, j: int = 2
) -> str:
    """Check a weight worked out by hand: ``α_ij = exp(score_ij) / Σ_j' exp(score_ij')`` (05).

    Tolerance: within 0.01 of ``att.weights[i, j]``, so two decimals are enough.

    Parameters
    ----------
    answer : number
        The predicted weight.
    att : Attention, optional
        By default the 3-token example with d = d_k = 4 (see
        :func:`check_prediction_score`).
    i, j : int, default 1 and 2
        The query (row) and the key (column).

    Returns
    -------
    CheckResult
        Passed, or the exponentials, their sum and why.

    Examples
    --------
    >>> bool(check_prediction_alpha(0.37))
    True
    """
    att = small_example() if att is None else att
    guess = as_number(answer)
    n_q, n_kv = att.weights.shape
    require_cell(i, j, (n_q, n_kv))
    row = att.scores[i]  # (n_kv,)
    right = float(att.weights[i, j])
    # the route the notebook teaches: subtract the row's maximum (it cancels in the
    # fraction), so that the largest exponential is e^0 = 1
    shifted = row - row.max()
    e = np.exp(shifted)
    working = tr(
        "row {i}'s scores {row} minus their maximum {top:.4g} are {shifted}; their exps are "
        "{exps}, sum {total:.4g}, and {e_j:.4g} / {total:.4g} = {right:.4g}",
        i=i,
        row=numbers(row),
        top=row.max(),
        shifted=numbers(shifted),
        exps=numbers(e),
        total=e.sum(),
        e_j=e[j],
        right=right,
    )
    if abs(guess - right) <= SCORE_TOLERANCE:
        return tr(
            "right: α_{i}{j} = {right:.4g}: {working}", i=i, j=j, right=right, working=working
        )
    said = tr(
        "you predicted {guess:.4g}, but α_{i}{j} = {right:.4g}", guess=guess, i=i, j=j, right=right
    )
    column = softmax(att.scores, axis=0)[i, j]  # normalised down the column: the wrong axis
    if abs(guess - column) <= SCORE_TOLERANCE:
        why = tr(
            "you normalised down column {j}; α sums to 1 along each row: {working}",
            j=j,
            working=working,
        )
        slip = tr(
            "you normalised down column {j}; α sums to 1 along each row: divide by the sum "
            "of row {i}'s exps",
            j=j,
            i=i,
        )
    elif abs(guess - 1 / n_kv) <= SCORE_TOLERANCE:
        why = tr(
            "1/{n_kv} holds only when all the scores of the row are equal: {working}",
            n_kv=n_kv,
            working=working,
        )
        slip = tr(
            "1/{n_kv} holds only when all the scores of the row are equal; these differ",
            n_kv=n_kv,
        )
    elif abs(guess - e[j]) <= SCORE_TOLERANCE or (
        row[j] < 30 and abs(guess - np.exp(row[j])) <= SCORE_TOLERANCE  # exp without the shift
    ):
        why = tr("exp(score) must be divided by the row's sum of exps: {working}", working=working)
        slip = tr("that is an exponential alone: it must still be divided by the row's sum of exps")
    else:
        why = working
        slip = tr(
            "subtract the row's largest score, take the exponential of each, "
            "then divide the one of key {j} by their sum",
            j=j,
        )
    raise wrong(answer, said, why, slip)


@check
def check_prediction_exps(answer, att: Attention | None = None, i: int = 1) -> str:
    """Check the exponentials of row `i`'s scores minus the row's maximum (05).

    Tolerance: each within 0.01, so two decimals are enough.

    Parameters
    ----------
    answer : sequence of numbers
        ``exp(score_ij - max_j score_ij)`` for every key j, in order.
    att : Attention, optional
        By default the 3-token example (see :func:`check_prediction_score`).
    i : int, default 1
        The query (row).

    Returns
    -------
    CheckResult
        Passed, or the shifted scores and their exponentials.

    Examples
    --------
    >>> bool(check_prediction_exps([1.0, 1.0, 1.0]))
    False
    """
    att, row = _row(att, i)
    guess = _as_numbers(answer, len(row))
    shifted = row - row.max()  # (n_kv,): the largest becomes 0
    right = np.exp(shifted)
    if np.all(np.abs(guess - right) <= SCORE_TOLERANCE):
        return tr(
            "right: {exps}, sum {total:.4g}; the largest score gives e^0 = 1",
            exps=numbers(right),
            total=right.sum(),
        )
    said = tr(
        "you predicted {got}, but the exps are {want}", got=numbers(guess), want=numbers(right)
    )
    with np.errstate(over="ignore"):  # huge scores: exp overflows, and cannot match anyway
        unshifted = np.exp(row)
    with np.errstate(over="ignore"):
        turned = np.exp(-shifted)  # max - score: the shift the wrong way round
    if np.all(np.abs(guess - unshifted) <= SCORE_TOLERANCE):
        why = slip = tr("those are exp of the scores themselves; subtract the row's maximum first")
    elif np.all(np.abs(guess - shifted) <= SCORE_TOLERANCE):
        why = slip = tr("those are the shifted scores; the exponential of each is still to take")
    elif np.all(np.abs(guess - turned) <= SCORE_TOLERANCE):
        why = tr(
            "you took the maximum minus each score; it is each score minus the maximum, "
            "{shifted}, so that no exp exceeds 1: {exps}",
            shifted=numbers(shifted),
            exps=numbers(right),
        )
        slip = tr(
            "you took the maximum minus each score; it is each score minus the maximum, "
            "so that no exponential exceeds 1"
        )
    else:
        why = tr(
            "the scores {row} minus their maximum {top:.4g} are {shifted}; exp of each is {exps}",
            row=numbers(row),
            top=row.max(),
            shifted=numbers(shifted),
            exps=numbers(right),
        )
        slip = tr("subtract the row's largest score from each score, then take exp of each")
    raise wrong(answer, said, why, slip)


@check
def check_prediction_output(answer, att: Attention | None = None, i: int = 1) -> str:
    """Check z_i = Σ_j α_ij v_j worked out by hand (05).

    Tolerance: each coordinate within 0.01.

    Parameters
    ----------
    answer : sequence of numbers
        The predicted z_i, one number per column of V.
    att : Attention, optional
        By default the 3-token example (see :func:`check_prediction_score`).
    i : int, default 1
        The query (row of Z).

    Returns
    -------
    CheckResult
        Passed, or z_i term by term.

    Examples
    --------
    >>> check_prediction_output([0.1, 0.2]).passed
    False
    """
    att, _ = _row(att, i)
    right = att.Z[i]  # (d_v,)
    guess = _as_numbers(answer, len(right))
    alpha = att.weights[i]  # (n_kv,)
    terms = "; ".join(
        f"z_{i}[{c}] = "
        + " + ".join(f"{a:.4g}·{v:.4g}" for a, v in zip(alpha, att.V[:, c], strict=True))
        + f" = {right[c]:.4g}"
        for c in range(len(right))
    )
    if np.all(np.abs(guess - right) <= SCORE_TOLERANCE):
        return tr("right: z_{i} = {z}: {terms}", i=i, z=numbers(right), terms=terms)
    said = tr(
        "you predicted {got}, but z_{i} = {want}", got=numbers(guess), i=i, want=numbers(right)
    )
    n_kv = len(alpha)
    if i < n_kv and np.all(np.abs(guess - att.weights[:, i] @ att.V[: len(att.weights)]) <= 1e-2):
        why = tr("you mixed with column {i} of α; z_{i} uses row {i}: {terms}", i=i, terms=terms)
        slip = tr("you mixed with column {i} of α; z_{i} uses the weights of row {i}", i=i)
    elif np.all(np.abs(guess - att.V.mean(axis=0)) <= SCORE_TOLERANCE):
        why = tr(
            "that is the plain average of the values; weigh each v_j by α_{i}j: {terms}",
            i=i,
            terms=terms,
        )
        slip = tr(
            "that is the plain average of the values; weigh each v_j by its weight α_{i}j", i=i
        )
    else:
        why = terms
        slip = tr(
            "for each coordinate c, add α_{i}j · v_j[c] over the keys j: the weights of row {i}",
            i=i,
        )
    raise wrong(answer, said, why, slip)


def _temperature_names() -> dict[str, str]:
    # check_prediction_temperature's choices (English) -> their names in the learner's language
    return {"flatter": tr("flatter"), "sharper": tr("sharper"), "unchanged": tr("unchanged")}


@check
def check_prediction_temperature(
    answer: str, tau: float = 2.0, att: Attention | None = None
) -> str:
    """Check: does dividing every score by a temperature τ (`tau`) flatten or sharpen the rows (05)?

    Compares the largest weight of each row of ``softmax(scores / τ)`` with that of
    ``softmax(scores)``: "flatter" when no row's largest weight grows and one falls,
    "sharper" the other way round, "unchanged" otherwise (τ = 1, or uniform rows).

    Parameters
    ----------
    answer : str
        One of "flatter", "sharper", "unchanged", or its name in another language
        attnlib speaks ("更平缓", "更集中", "不变").
    tau : float, default 2.0
        The temperature τ, > 0.
    att : Attention, optional
        The rows to show the numbers on; by default the 3-token example.

    Returns
    -------
    CheckResult
        Passed, or the right choice and why, with each row's largest weight before
        and after.

    Examples
    --------
    >>> bool(check_prediction_temperature("flatter"))
    True
    >>> bool(check_prediction_temperature("flatter", tau=0.5))
    False
    """
    att = small_example() if att is None else att
    if isinstance(tau, bool) or not isinstance(tau, Real) or not tau > 0:
        raise ValueError(
            tr("{name} must be a positive number, got {value!r}", name="tau", value=tau)
        )
    names = _temperature_names()
    choice = as_choice(answer, names)
    before = softmax(att.scores).max(axis=-1)  # (n_q,): each row's largest weight
    after = softmax(att.scores / tau).max(axis=-1)  # (n_q,)
    if np.all(after <= before + 1e-12) and np.any(after < before - 1e-12):
        right = "flatter"
    elif np.all(after >= before - 1e-12) and np.any(after > before + 1e-12):
        right = "sharper"
    else:
        right = "unchanged"
    shown = tr(
        "the largest weight per row goes from {good} to {bad}",
        good=", ".join(f"{v:.2f}" for v in before),
        bad=", ".join(f"{v:.2f}" for v in after),
    )
    scaling = tr("the scaling of 2.2.3 is this division, with τ = √d_k")
    if choice == right:
        return tr(
            "right: {right}. {shown}; {scaling}", right=names[right], shown=shown, scaling=scaling
        )
    said = tr(
        "you predicted {choice!r}, but the rows get {right}: {shown}",
        choice=answer,  # as the learner wrote it
        right=names[right],
        shown=shown,
    )
    why = tr(
        "dividing by τ = {tau:g} multiplies every gap s_j - s_k between two scores by 1/{tau:g}, "
        "and the weights follow exp of the gaps; {scaling}",
        tau=tau,
        scaling=scaling,
    )
    if choice == "sharper" and right == "flatter":
        slip = tr(
            "that is what a τ below 1 does; dividing by τ = {tau:g} shrinks every score: "
            "what happens to the gaps between them?",
            tau=tau,
        )
    elif choice == "flatter" and right == "sharper":
        slip = tr(
            "that is what a τ above 1 does; dividing by τ = {tau:g} enlarges every score: "
            "what happens to the gaps between them?",
            tau=tau,
        )
    elif choice == "unchanged":
        slip = tr(
            "the softmax ignores a number added to every score, not a factor: dividing "
            "every score by τ changes every gap between them"
        )
    else:
        slip = tr(
            "divide every score by τ = {tau:g}: what happens to the gaps between them, the "
            "only thing the softmax sees?",
            tau=tau,
        )
    raise wrong(answer, said, why, slip)
