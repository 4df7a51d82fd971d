"""Notebook 07's predictions, each written before the cell that shows its answer.

==================================  ========================================================
check                               the question
==================================  ========================================================
check_prediction_causal_count       how many of the n² entries of causal_mask(n) are True
check_prediction_flipped_mask       which row of ~causal_mask(n) sees no key at all
check_prediction_head_shapes        W_Q, one head's Q, the joined Z, the output, for 4 heads
check_prediction_head_parameters    one head of width d or d heads of width 1: more parameters?
check_prediction_wrong_d            a head divided by √d, not √d_k: flatter or sharper?
==================================  ========================================================

The exercises of the same notebook (masks and heads written by the learner) are
:mod:`.next_steps`. A first wrong try is told the slip (or the step to redo); the
answer comes with the second (or with ``reveal=True``), as :mod:`.runner` arranges.
"""

from __future__ import annotations

import numpy as np

from ...i18n import tr
from ...maths.core import (
    causal_mask,
    multi_head_attention,
    softmax,
)
from ...maths.data import toy_multi_head
from .reading import as_choice, as_index, as_number, as_shape, written, wrong
from .runner import Failure, check


def _parameter_names() -> dict[str, str]:
    # check_prediction_head_parameters's choices (English) -> their names in the learner's
    # language, which they may also answer with
    return {
        "one head": tr("one head"),
        "eight heads": tr("eight heads"),
        "the same": tr("the same"),
    }


def _sharpness_names() -> dict[str, str]:
    # check_prediction_wrong_d's choices, as above
    return {"flatter": tr("flatter"), "sharper": tr("sharper"), "unchanged": tr("unchanged")}


@check
def check_prediction_causal_count(answer: int, n: int = 6) -> str:
    """Check a predicted number of True entries in ``causal_mask(n)`` (07).

    Examples
    --------
    >>> check_prediction_causal_count(15, reveal=True)
    ✗ check_prediction_causal_count: you predicted 15, but causal_mask(6) has 21 True entries of 36
      Hint: that leaves out the diagonal: each token may also attend to itself
    """
    guess = as_number(answer)
    right = int(causal_mask(n).sum())  # computed, not typed
    if guess == right:
        return tr(
            "right: row i has i + 1 Trues, so 1 + 2 + … + {n} = {right} of {all}",
            n=n,
            right=right,
            all=n * n,
        )
    said = tr(
        "you predicted {guess:g}, but causal_mask({n}) has {right} True entries of {all}",
        guess=guess,
        n=n,
        right=right,
        all=n * n,
    )
    if guess == n * (n - 1) // 2:
        why = slip = tr("that leaves out the diagonal: each token may also attend to itself")
    elif guess == n * n:
        why = slip = tr("that is every entry: query i may not see the keys after it (j > i)")
    elif guess == n * n / 2:
        why = tr(
            "half of the entries would cut the diagonal in two; the whole diagonal is True "
            "(each token sees itself): query i sees keys 0 … i, that is i + 1 of them"
        )
        slip = tr(
            "half of the entries would cut the diagonal in two; the whole diagonal is True, "
            "since each token sees itself"
        )
    else:
        why = tr("count row by row: query i sees keys 0 … i, that is i + 1 of them")
        slip = tr("count row by row: how many keys may query 0 see, query 1, …?")
    raise wrong(answer, said, why, slip)


@check
def check_prediction_flipped_mask(answer: int, n: int = 6) -> str:
    """Check which query row of ``~causal_mask(n)`` (a mask turned round) sees no key at all (07).

    Examples
    --------
    >>> bool(check_prediction_flipped_mask(5))
    True
    """
    guess = as_index(answer, n)
    flipped = ~causal_mask(n)  # (n, n): True above the diagonal only
    empty = np.flatnonzero(~flipped.any(axis=1))  # rows with no True: no key to attend to
    right = int(empty[0])
    if guess == right:
        return tr(
            "right: row {right} is all False; its softmax would divide 0 by 0, so attnlib "
            "refuses the mask (PyTorch returns nan for that row)",
            right=right,
        )
    said = tr(
        "you predicted row {guess}, but row {right} is the one with no True: "
        "turned round, query i may see only the keys after it (j > i)",
        guess=guess,
        right=right,
    )
    why = tr("row {guess} still sees {count} keys", guess=guess, count=int(flipped[guess].sum()))
    if guess == 0:
        slip = tr(
            "under the causal mask row 0 sees only itself, but ~ turns every entry round: "
            "row 0 now sees every key except itself"
        )
    else:
        slip = tr(
            "row {guess} still sees the keys after it: turned round, True means j > i; "
            "which query has no key after it?",
            guess=guess,
        )
    raise wrong(answer, said, why, slip)


@check
def check_prediction_head_shapes(answer, n: int = 6, d: int = 8, heads: int = 4) -> str:
    """Check predicted shapes of W_Q, one head's Q, the joined Z and the output (07).

    `answer` is four shapes in that order, for ``heads`` heads of width d / heads
    on n tokens of width d.

    Examples
    --------
    >>> bool(check_prediction_head_shapes([(8, 8), (6, 2), (6, 8), (6, 8)]))
    True
    """
    written(answer)
    if isinstance(answer, str):  # "[(8, 8), ...]": the shapes typed in quotes
        raise Failure(
            tr("your prediction {answer!r} is text (a str), not four shapes", answer=answer),
            tr("write the four shapes without quotes: [W_Q, Q of one head, Z, output]"),
        )
    try:
        shapes = [as_shape(shape) for shape in answer]
    except Failure:
        shapes = []
    if len(shapes) != 4:
        raise Failure(
            tr("your prediction {answer!r} is not four shapes", answer=answer),
            tr("write four shapes in order: [W_Q, Q of one head, Z, output], e.g. (3, 5) each"),
        )
    ex = toy_multi_head(n=n, d=d, d_k=d // heads, heads=heads, seed=0)
    mh = multi_head_attention(ex.X, ex.W_Q, ex.W_K, ex.W_V, ex.W_O, heads=heads)
    right = [ex.W_Q.shape, mh.heads[0].Q.shape, mh.Z.shape, mh.output.shape]
    names = ("W_Q", "Q_h", "Z", "output")
    if shapes == right:
        return tr(
            "right: W_Q {w}, one head's Q {q}, Z {z}, output {o}",
            w=right[0],
            q=right[1],
            z=right[2],
            o=right[3],
        )
    first = next(k for k in range(4) if shapes[k] != right[k])
    said = tr(
        "{name}: you predicted {got}, but it is {want}",
        name=names[first],
        got=shapes[first],
        want=right[first],
    )
    why = (
        tr("W_Q holds every head's columns side by side: d × (h · d_k)"),
        tr("one head's Q has d_k = d / h columns, its own block of X W_Q"),
        tr("Z joins the heads' outputs side by side: n × (h · d_v)"),
        tr("W_O maps each token back to width d: n × d"),
    )[first]
    got, one_head = shapes[first], right[1]  # one head's Q: (n, d_k)
    if got == right[first][::-1]:
        slip = tr("{name}: rows and columns are the wrong way round", name=names[first])
    elif first == 0 and got == (d, one_head[1]):  # one head's block of W_Q: (d, d_k)
        slip = tr("W_Q: that is one head's block; W_Q holds every head's block side by side")
    elif first == 1 and got == (n, d):  # X W_Q: every head's Q side by side
        slip = tr("Q_h: that is Q of all the heads together; one head takes only its own block")
    elif first == 2 and got == one_head:
        slip = tr("Z: that is one head's Z; Z joins the heads' outputs side by side")
    elif first == 3:
        slip = tr("output: W_O maps each token's row of Z to a new row: how wide is W_O?")
    else:
        slip = tr(
            "{name}: go through the formulas above one at a time: which sizes multiply?",
            name=names[first],
        )
    raise wrong(answer, said, why, slip)


@check
def check_prediction_head_parameters(answer: str, d: int = 8) -> str:
    """Check: one head of width d, or d heads of width 1, which has more parameters (07)?

    Counts W_Q, W_K, W_V and W_O of ``toy_multi_head`` for both.

    Examples
    --------
    >>> bool(check_prediction_head_parameters("the same"))
    True
    """
    names = _parameter_names()
    choice = as_choice(answer, names)
    counts = []
    for heads in (1, d):
        m = toy_multi_head(n=6, d=d, d_k=d // heads, heads=heads, seed=0)
        counts.append(m.W_Q.size + m.W_K.size + m.W_V.size + m.W_O.size)
    right = (
        "the same"
        if counts[0] == counts[1]
        else ("one head" if counts[0] > counts[1] else "eight heads")
    )
    shown = tr(
        "one head of width {d}: {one} numbers; {d} heads of width 1: {many}",
        d=d,
        one=counts[0],
        many=counts[1],
    )
    if choice == right:
        return tr("right: {right}. {shown}", right=names[right], shown=shown)
    said = tr("you predicted {choice!r}, but: {shown}", choice=answer, shown=shown)
    why = tr(
        "the heads only cut the same W_Q, W_K, W_V into blocks of columns: "
        "d × (h · d/h) = d × d each, and W_O is d × d either way"
    )
    if choice == "one head" and right == "the same":
        slip = tr(
            "one wide head has wide blocks, but there is only one of them: count the "
            "columns of W_Q over all the heads together"
        )
    elif choice == "eight heads" and right == "the same":
        slip = tr(
            "more heads give more blocks, but each block is narrower: count the columns "
            "of W_Q over all the heads together"
        )
    else:
        slip = tr("write the shape of W_Q for h heads of width d/h, and count its entries")
    raise wrong(answer, said, why, slip)


@check
def check_prediction_wrong_d(answer: str, d: int = 8, heads: int = 4) -> str:
    """Check: dividing a head's scores by √d instead of √d_k makes its rows flatter or sharper (07)?

    Compares the largest weight of each row of head 0 of
    ``toy_multi_head(n=6, d=8, d_k=2, heads=4)``, divided by √d_k and by √d.

    Examples
    --------
    >>> bool(check_prediction_wrong_d("flatter"))
    True
    """
    names = _sharpness_names()
    choice = as_choice(answer, names)
    d_k = d // heads
    ex = toy_multi_head(n=6, d=d, d_k=d_k, heads=heads, seed=0)
    head0 = multi_head_attention(ex.X, ex.W_Q, ex.W_K, ex.W_V, ex.W_O, heads=heads).heads[0]
    raw = head0.Q @ head0.K.T  # (n, d_k) @ (d_k, n) -> (n, n)
    good = softmax(raw / np.sqrt(d_k)).max(axis=1)  # (n,)
    bad = softmax(raw / np.sqrt(d)).max(axis=1)  # (n,)
    if (bad < good).all():
        right = "flatter"
    elif (bad > good).all():
        right = "sharper"
    else:
        right = "unchanged"
    shown = tr(
        "the largest weight per row goes from {good} to {bad}",
        good=", ".join(f"{v:.2f}" for v in good),
        bad=", ".join(f"{v:.2f}" for v in bad),
    )
    if choice == right:
        return tr("right: {right}. {shown}", right=names[right], shown=shown)
    said = tr(
        "you predicted {choice!r}, but the rows get {right}: {shown}",
        choice=answer,  # as the learner wrote it
        right=names[right],
        shown=shown,
    )
    why = tr(
        "√{d} is larger than √{d_k}: every score shrinks, and smaller gaps between "
        "scores give a more even softmax",
        d=d,
        d_k=d_k,
    )
    slip = {
        "sharper": tr(
            "that is what dividing by a smaller number would do; √d is larger than √d_k: "
            "what happens to the gaps between the scores?"
        ),
        "unchanged": tr(
            "the softmax ignores a number added to every score, not a factor: dividing by "
            "√d instead of √d_k changes every gap between the scores"
        ),
    }.get(
        choice,
        tr("dividing by a larger number shrinks every score: what does the softmax do then?"),
    )
    raise wrong(answer, said, why, slip)
