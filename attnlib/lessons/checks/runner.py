"""How every check runs and reports: the result type, a failed step, and the decorator.

A check is written as a straight sequence of steps. A step that finds a
mistake raises :class:`Failure` with what went wrong and a hint; the
:func:`check` decorator turns the first Failure into a failed
:class:`CheckResult`, and the sentence the check returns at the end into a
passed one. So no step has to hand its failure back through the steps after
it, and every check reports in the same words.

The helpers below are the steps that several checks share: calling the
learner's function (:func:`call`), insisting on a returned value
(:func:`expect_value`, :func:`expect_array`) and comparing it with attnlib's
(:func:`compare`).

Examples
--------
>>> @check
... def check_double(func):
...     got = expect_array(call(func, 2.0), "x = 2")
...     compare(got, 4.0, "x = 2", hint="multiply by 2")
...     return "passed"
>>> check_double(lambda x: 2 * x)
✓ check_double: passed
>>> check_double(lambda x: x + 1)
✗ check_double: for x = 2, entry () is 3 but should be 4
  Hint: multiply by 2

A step may also say what to show on a first wrong try (``Failure(..., first=...)``):
the slip the step recognised (``you divided by d_k, not √d_k``), or the step to
redo, worded without the answer. The answer comes with the next wrong try of the
same check, or at once with ``reveal=True``. Each check counts its own wrong
tries, and apart for each question it is asked (its arguments after the first, the
learner's answer): 05 asks ``check_prediction_alpha`` of α₁₂ and then of α₂₂, and a
wrong try at the first does not spend the second's. ``check_x.reset()`` starts afresh.
"""

from __future__ import annotations

import functools
import html
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from ...i18n import tr

#: The hint for a function that returns nothing (a stub, or a forgotten `return`); the
#: English sentence, translated when it is shown.
RETURN_HINT = "did you forget a `return`?"


@dataclass(frozen=True)
class CheckResult:
    """The answer of a check: ``passed`` and a message for the learner.

    It prints as ``✓ name: message`` or ``✗ name: message`` with the hint
    on a second line, and it is truthy exactly when the check passed.
    """

    name: str
    passed: bool
    message: str
    hint: str = ""
    #: a last line for a first wrong try: how to get the worked answer
    more: str = ""
    # how the hint is introduced, in the language the check ran in (as its message is)
    hint_line: str = field(default_factory=lambda: tr("Hint: {hint}"), compare=False, repr=False)

    def lines(self) -> list[str]:
        """The printed lines: the verdict, then (on a failure) the hint and what comes next."""
        mark = "✓" if self.passed else "✗"
        out = [f"{mark} {self.name}: {self.message}"]
        if self.hint and not self.passed:
            out.append("  " + self.hint_line.format(hint=self.hint))
        if self.more and not self.passed:
            out.append("  " + self.more)
        return out

    def __str__(self) -> str:
        return "\n".join(self.lines())

    __repr__ = __str__

    def _repr_html_(self) -> str:
        # green for a pass, red for a failure; the ✓ / ✗ and the words carry the same
        # meaning without colour (a colour-blind reader, a black-and-white printout)
        colour = "#1a7f37" if self.passed else "#cf222e"
        first, *rest = [html.escape(line) for line in self.lines()]
        verdict, colon, said = first.partition(":")  # "✗ check_x" : " the message"
        style = f"color: {colour}; font-weight: bold"
        head = f'<span style="{style}">{verdict}</span>'
        body = colon + said
        return (
            '<pre style="white-space: pre-wrap; margin: 0">'
            + "\n".join([head + body, *rest])
            + "</pre>"
        )

    def __bool__(self) -> bool:
        return self.passed


class Failure(Exception):
    """A failed step of a check: what went wrong, and a hint for the learner.

    `first`, when given, is the (message, hint) to show instead on the learner's
    first wrong try: it names the slip (or the step to redo), not the answer. A Failure with
    `first` counts as a wrong try; one without (an answer not written yet, of
    the wrong kind) does not.
    """

    def __init__(self, message: str, hint: str = "", first: tuple[str, str] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint
        self.first = first


def _question(args: tuple, kwargs: dict) -> tuple:
    """What a check is asked, apart from the learner's answer: its other arguments.

    Numbers, text and tuples stand for themselves, an array for its shape and bytes,
    anything else (an Attention, a task) for the object itself.
    """

    def key(value):
        if isinstance(value, np.ndarray):
            return ("array", value.shape, value.dtype.str, value.tobytes())
        if value is None or isinstance(value, (bool, int, float, str, tuple)):
            return repr(value)
        return ("object", id(value))

    return tuple(key(a) for a in args) + tuple((k, key(v)) for k, v in sorted(kwargs.items()))


class Attempts:
    """How many wrong tries one check has seen, for each question it was asked,
    since that question was last answered right or the check was reset.

    ``wrong`` is the count of the question asked last.
    """

    def __init__(self) -> None:
        self.counts: dict[tuple, int] = {}
        self.last: tuple = ()

    @property
    def wrong(self) -> int:
        return self.counts.get(self.last, 0)

    def ask(self, question: tuple) -> None:
        self.last = question

    def miss(self) -> int:
        """One more wrong try at the question asked last; the count so far."""
        self.counts[self.last] = self.wrong + 1
        return self.wrong

    def passed(self) -> None:
        self.counts.pop(self.last, None)

    def reset(self) -> None:
        self.counts.clear()
        self.last = ()


def check(body: Callable[..., str]) -> Callable[..., CheckResult]:
    """Make a check out of `body`, a sequence of steps that raise :class:`Failure`.

    Parameters
    ----------
    body : callable
        Runs the steps of one check and returns the sentence to show when all
        of them passed. Its ``__name__`` names the check in the result.

    Returns
    -------
    callable
        Same arguments and docstring as `body`; returns a :class:`CheckResult`,
        failed with the first Failure's message and hint, or passed.
    """

    attempts = Attempts()  # this check's own count, not shared with any other check

    @functools.wraps(body)
    def run(*args, reveal: bool = False, **kwargs) -> CheckResult:
        attempts.ask(_question(args[1:], kwargs))
        try:
            message = body(*args, **kwargs)
        except Failure as failure:
            if failure.first is None:
                return CheckResult(body.__name__, False, failure.message, failure.hint)
            if reveal:  # asked for the answer: not a try, and the answer is shown
                return CheckResult(body.__name__, False, failure.message, failure.hint)
            if attempts.miss() == 1:
                said, step = failure.first
                more = tr("Try again; a second wrong try, or reveal=True, shows the worked answer.")
                return CheckResult(body.__name__, False, said, step, more)
            return CheckResult(body.__name__, False, failure.message, failure.hint)
        attempts.passed()
        return CheckResult(body.__name__, True, message)

    run.attempts = attempts
    run.reset = attempts.reset
    # help() shows what the caller gets: the body returns a str, the check a CheckResult
    run.__annotations__ = {**body.__annotations__, "reveal": bool, "return": "CheckResult"}
    return run


def call(func: Callable, *args, hint: str = ""):
    """Call the learner's `func` on `args`; raise Failure if it is no function or it raises.

    Floating-point warnings are silenced during the call: a nan or inf that
    results is reported by the check itself, in words.
    """
    if not callable(func):
        raise Failure(
            tr("expected a function, got {kind} {func!r}", kind=type(func).__name__, func=func),
            tr("pass the function itself, without calling it: check(my_func)"),
        )
    try:
        with np.errstate(all="ignore"):
            return func(*args)
    except Exception as exc:  # the learner's code: report, never re-raise
        last = traceback.extract_tb(exc.__traceback__)[-1]
        where = (
            tr(" (line {lineno}: {line})", lineno=last.lineno, line=last.line) if last.line else ""
        )
        raise Failure(
            tr(
                "your function raised {kind}: {exc}{where}",
                kind=type(exc).__name__,
                exc=exc,
                where=where,
            ),
            hint,
        ) from None


def expect_value(got, what: str = "", hint: str | None = None):
    """Return `got`, or raise Failure if the learner's function returned None.

    `what` names the input (already in the learner's language); `hint`
    defaults to :data:`RETURN_HINT`, translated.
    """
    if got is None:
        said = (
            tr("your function returned None for {what}", what=what)
            if what
            else tr("your function returned None")
        )
        raise Failure(said, tr("did you forget a `return`?") if hint is None else hint)
    return got


def as_array(value) -> np.ndarray | None:
    """`value` as a float array, or None when it is not one (a string, ragged lists)."""
    try:
        return np.asarray(value, dtype=float)
    except (TypeError, ValueError):
        return None


def expect_array(got, what: str = "", hint: str = "") -> np.ndarray:
    """`got` as a float array; raise Failure if it is None or not an array of numbers."""
    arr = as_array(expect_value(got, what))
    if arr is None:
        kind = type(got).__name__
        said = (
            tr("for {what} you returned a {kind}, not an array of numbers", what=what, kind=kind)
            if what
            else tr("your function returned a {kind}, not an array of numbers", kind=kind)
        )
        raise Failure(said, hint)
    return arr


def close(got, expected) -> bool:
    """Whether `got` has the shape of `expected` and the same numbers (atol 1e-8)."""
    arr = as_array(got)
    return (
        arr is not None
        and arr.shape == np.shape(expected)
        and bool(np.allclose(arr, expected, atol=1e-8))
    )


def compare(got, expected, what: str, hint: str = "", atol: float = 1e-8) -> np.ndarray:
    """Raise Failure unless the learner's `got` matches attnlib's `expected`.

    The message names the first thing that differs: None, the shape, a nan,
    or the entry that is furthest off. Returns `got` as an array.
    """
    arr = expect_array(got, what, hint)
    if arr.shape != np.shape(expected):
        raise Failure(
            tr(
                "for {what} you returned shape {got}, expected {want}",
                what=what,
                got=arr.shape,
                want=np.shape(expected),
            ),
            hint,
        )
    if not np.isfinite(arr).all():
        raise Failure(tr("for {what} your result contains nan or inf", what=what), hint)
    if not np.allclose(arr, expected, atol=atol, rtol=1e-6):
        worst = np.unravel_index(np.argmax(np.abs(arr - expected)), arr.shape)
        should = np.asarray(expected)[worst]
        raise Failure(
            tr(
                "for {what}, entry {index} is {got:.4g} but should be {want:.4g}",
                what=what,
                index=tuple(int(i) for i in worst),
                got=arr[worst],
                want=should,
            ),
            hint,
        )
    return arr
