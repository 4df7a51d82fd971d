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
"""

from __future__ import annotations

import functools
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
    # how the hint is introduced, in the language the check ran in (as its message is)
    hint_line: str = field(default_factory=lambda: tr("Hint: {hint}"), compare=False, repr=False)

    def __str__(self) -> str:
        mark = "✓" if self.passed else "✗"
        text = f"{mark} {self.name}: {self.message}"
        if self.hint and not self.passed:
            text += "\n  " + self.hint_line.format(hint=self.hint)
        return text

    __repr__ = __str__

    def __bool__(self) -> bool:
        return self.passed


class Failure(Exception):
    """A failed step of a check: what went wrong, and a hint for the learner."""

    def __init__(self, message: str, hint: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint


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

    @functools.wraps(body)
    def run(*args, **kwargs) -> CheckResult:
        try:
            message = body(*args, **kwargs)
        except Failure as failure:
            return CheckResult(body.__name__, False, failure.message, failure.hint)
        return CheckResult(body.__name__, True, message)

    # help() shows what the caller gets: the body returns a str, the check a CheckResult
    run.__annotations__ = {**body.__annotations__, "return": "CheckResult"}
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
