"""How a prediction is read: a shape, a number, an index or a word, as the learner wrote it.

Every ``check_prediction_*`` reads the learner's answer with one of these
helpers before it grades it; each raises :class:`~.runner.Failure` with what
is wrong with the *form* of the answer, so that the grading never sees an
answer of the wrong kind. Two slips get words of their own:

- a number written in quotes (``"5"``, ``"0.25"``) is text, not a number: the
  message says so and shows the answer without the quotes, rather than
  calling ``"5"`` out of range;
- a word may be written in any language attnlib speaks: ``"sharper"`` and
  ``"更集中"`` are the same choice in either edition. A choice is compared
  after :func:`folded`, so case, spaces, full-width letters and the
  punctuation around it (``"更集中。"``, ``"“一样多”"``) do not matter. The
  choices are listed back in the learner's language.

A wrong prediction is reported by :func:`wrong`: a first wrong try is told what
went wrong, the slip the check recognised, in words that give away no number of
the answer; the answer and its working come with the second; see :mod:`.runner`.

Examples
--------
>>> as_choice(" Sharper ", {"sharper": "sharper", "flatter": "flatter"})
'sharper'
>>> as_choice("更集中", {"sharper": "sharper", "flatter": "flatter"})
'sharper'
>>> folded("“ＯＮＥ  Head”。")
'onehead'
"""

from __future__ import annotations

import ast
import numbers
import re
import unicodedata

from ...i18n import LANGUAGES, catalog, tr
from .runner import Failure

__all__ = [
    "as_choice",
    "as_index",
    "as_number",
    "as_shape",
    "folded",
    "spellings",
    "written",
    "wrong",
]

# punctuation and symbols at either end of an answer: quotes typed inside the
# string, a full stop, brackets ("\W" is every character that is no letter or digit,
# in any script, so 更 and 集 stay)
_AROUND = re.compile(r"^[\W_]+|[\W_]+$")


def require_cell(i: int, j: int, shape: tuple[int, int]) -> None:
    """Refuse a query i or key j outside a (n_q, n_kv) matrix: the caller's argument, not
    the learner's answer, so a ValueError rather than a failed check."""
    n_q, n_kv = shape
    if not (0 <= i < n_q and 0 <= j < n_kv):
        raise ValueError(
            tr(
                "i must be from 0 to {last_i} and j from 0 to {last_j}, got i = {i}, j = {j}",
                last_i=n_q - 1,
                last_j=n_kv - 1,
                i=i,
                j=j,
            )
        )


def written(answer) -> None:
    """Raise Failure if no prediction is written yet (``...`` or None)."""
    if answer is None or answer is Ellipsis:
        raise Failure(
            tr("you have not written a prediction yet"),
            tr("replace ... with your prediction, then run the cell again"),
        )


def _unquoted(text: str):
    # What the learner meant, if the text is a Python value (a number, a tuple): "5" -> 5.
    try:
        return ast.literal_eval(unicodedata.normalize("NFKC", text).strip())
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        return None


def _is_int(value) -> bool:
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


def _is_number(value) -> bool:
    return isinstance(value, numbers.Real) and not isinstance(value, bool)


def as_shape(answer) -> tuple[int, ...]:
    """The prediction as a tuple of ints, or Failure."""
    written(answer)
    if isinstance(answer, str):
        meant = _unquoted(answer)
        is_shape = isinstance(meant, tuple) and all(_is_int(s) for s in meant)
        raise Failure(
            tr("your prediction {answer!r} is text (a str), not a shape", answer=answer),
            tr(
                "write the shape without quotes, as a tuple of ints: {example}",
                example=meant if is_shape else (3, 5),
            ),
        )
    try:
        shape = tuple(answer)
        if all(_is_int(s) for s in shape):
            return tuple(int(s) for s in shape)
    except TypeError:
        pass
    raise Failure(
        tr("your prediction {answer!r} is not a shape", answer=answer),
        tr("a shape is a tuple of ints, such as (3, 5)"),
    )


def as_number(answer) -> float:
    """The prediction as a float (not a bool, not a string), or Failure."""
    written(answer)
    if _is_number(answer):
        return float(answer)
    if isinstance(answer, str):
        meant = _unquoted(answer)
        raise Failure(
            tr("your prediction {answer!r} is text (a str), not a number", answer=answer),
            tr(
                "write the number without quotes: {example}",
                example=meant if _is_number(meant) else 0.25,
            ),
        )
    raise Failure(
        tr(
            "your prediction {answer!r} is of type {kind}, not a number",
            answer=answer,
            kind=type(answer).__name__,
        ),
        tr("write a number such as 0.25 (no quotes)"),
    )


def as_index(answer, n: int) -> int:
    """The prediction as an index from 0 to n - 1, or Failure."""
    written(answer)
    if _is_int(answer) and 0 <= answer < n:
        return int(answer)
    if isinstance(answer, str):
        meant = _unquoted(answer)
        raise Failure(
            tr("your prediction {answer!r} is text (a str), not an index", answer=answer),
            tr(
                "write the index without quotes, as an int from 0 to {last}: {example}",
                last=n - 1,
                example=meant if _is_int(meant) else 0,
            ),
        )
    if _is_number(answer) and not _is_int(answer):
        raise Failure(
            tr(
                "your prediction {answer!r} is of type {kind}, not an index",
                answer=answer,
                kind=type(answer).__name__,
            ),
            tr("write the index as an int, counting from 0"),
        )
    raise Failure(
        tr(
            "your prediction {answer!r} is not an index from 0 to {last}", answer=answer, last=n - 1
        ),
        tr("write the index as an int, counting from 0"),
    )


def folded(text: str) -> str:
    """`text` as a word answer is compared: full-width forms as ASCII (NFKC), in lower case,
    with no spaces and no punctuation around it."""
    text = "".join(unicodedata.normalize("NFKC", text).casefold().split())
    return _AROUND.sub("", text)


def spellings(word: str) -> set[str]:
    """`word` (an English choice) and its name in every language attnlib speaks, folded."""
    return {folded(word)} | {folded(catalog(code).get(word, word)) for code in LANGUAGES}


def listed(names) -> str:
    """Choices as the learner's language lists them: 'a', 'b', 'c' (or 'a'、'b'、'c')."""
    return tr(", ").join(repr(name) for name in names)


def as_choice(answer, names: dict[str, str]) -> str:
    """The English word of a prediction that must be one of `names`, or Failure.

    Parameters
    ----------
    answer : str
        What the learner wrote: an English choice or its name in any language
        attnlib speaks, in any case, with spaces or punctuation around it.
    names : dict of str to str
        Each English choice -> its name in the learner's language (``tr(word)``),
        listed back when the answer is none of them.

    Returns
    -------
    str
        The English choice, which the check compares with the right one.
    """
    written(answer)
    if not isinstance(answer, str):
        raise Failure(
            tr(
                "your prediction {answer!r} is of type {kind}, not a word",
                answer=answer,
                kind=type(answer).__name__,
            ),
            tr("write one of {choices}, in quotes", choices=listed(names.values())),
        )
    said = folded(answer)
    for word in names:
        if said and said in spellings(word):
            return word
    raise Failure(
        tr("your prediction {answer!r} is not one of the choices", answer=answer),
        tr("answer one of {choices}", choices=listed(names.values())),
    )


def wrong(answer, said: str, why: str, slip: str) -> Failure:
    """A wrong prediction: first the slip, without the answer; then the answer and the reason.

    Parameters
    ----------
    answer : object
        The prediction as the learner wrote it, echoed on the first wrong try.
    said, why : str
        The message and hint of a second wrong try (or of ``reveal=True``): the right
        answer, and why, with the working.
    slip : str
        The hint of a first wrong try: the slip the check recognised in `answer`
        (``"that is q_0 · k_1 before the scaling"``), worded without the right answer's
        number and without a number it follows from at once; where no slip is
        recognised, the step to redo.
    """
    return Failure(
        said, why, first=(tr("your prediction {answer!r} is not right yet", answer=answer), slip)
    )
