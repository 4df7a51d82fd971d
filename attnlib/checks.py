"""Self-checks for the notebooks' exercises.

Each ``check_*`` function takes the learner's answer (usually a function they
wrote), runs it on test inputs, compares it with attnlib, and returns a
:class:`CheckResult` that prints as a clear pass, or as what went wrong plus a
hint. A check never lets the learner's exception escape as a bare traceback:
it reports it instead.

Examples
--------
>>> import numpy as np
>>> check_softmax(lambda s: np.exp(s) / np.exp(s).sum(axis=-1, keepdims=True))
✗ check_softmax: on scores of size 1000 your softmax gave nan (or inf) ...
>>> check_softmax(softmax)
✓ check_softmax: passed ...
"""

from __future__ import annotations

import traceback
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from .core import softmax


@dataclass(frozen=True)
class CheckResult:
    """The answer of a check: ``passed`` and a message for the learner."""

    name: str
    passed: bool
    message: str
    hint: str = ""

    def __str__(self) -> str:
        mark = "✓" if self.passed else "✗"
        text = f"{mark} {self.name}: {self.message}"
        if self.hint and not self.passed:
            text += f"\n  Hint: {self.hint}"
        return text

    __repr__ = __str__

    def __bool__(self) -> bool:
        return self.passed


def _passed(name: str, message: str) -> CheckResult:
    return CheckResult(name, True, message)


def _failed(name: str, message: str, hint: str = "") -> CheckResult:
    return CheckResult(name, False, message, hint)


def _call(name: str, func: Callable, *args, hint: str = ""):
    """Call the learner's `func`; on an exception return a failed CheckResult instead."""
    if not callable(func):
        return None, _failed(name, f"expected a function, got {type(func).__name__} {func!r}",
                             "pass the function itself, without calling it: check(my_func)")
    try:
        return func(*args), None
    except Exception as exc:  # the learner's code: report, never re-raise
        last = traceback.extract_tb(exc.__traceback__)[-1]
        where = f" (line {last.lineno}: {last.line})" if last.line else ""
        return None, _failed(name, f"your function raised {type(exc).__name__}: {exc}{where}",
                             hint)


def _compare(name: str, got, expected, what: str, hint: str = "", atol: float = 1e-8):
    """Compare the learner's array with attnlib's; None when they agree."""
    got = np.asarray(got, dtype=float) if got is not None else None
    if got is None:
        return _failed(name, f"your function returned None for {what}",
                       "did you forget a `return`?")
    if got.shape != np.shape(expected):
        return _failed(name, f"for {what} you returned shape {got.shape}, expected "
                             f"{np.shape(expected)}", hint)
    if not np.isfinite(got).all():
        return _failed(name, f"for {what} your result contains nan or inf", hint)
    if not np.allclose(got, expected, atol=atol, rtol=1e-6):
        worst = np.unravel_index(np.argmax(np.abs(got - expected)), got.shape)
        return _failed(name, f"for {what}, entry {tuple(int(i) for i in worst)} is "
                             f"{got[worst]:.4g} but should be {expected[worst]:.4g}", hint)
    return None


# --- 2.1 and 2.2.1 ---


# --- 2.2.2 to 2.2.4 ---

def check_softmax(func: Callable) -> CheckResult:
    """Check a learner's row-wise softmax ``func(scores) -> weights``.

    It must match :func:`attnlib.softmax` along the last axis, including on
    scores as large as 1000 (where a naive exp overflows).
    """
    name = "check_softmax"
    cases = [
        ("a 2 × 3 matrix of small scores", np.array([[1.0, 2.0, 3.0], [0.0, 0.0, 0.0]])),
        ("scores of size 1000", np.array([[1000.0, 999.0, 0.0], [-1000.0, -1000.0, -999.0]])),
    ]
    hints = {
        0: "exponentiate each score, then divide by the sum of its row "
           "(sum over axis=-1 with keepdims=True)",
        1: "subtract each row's maximum before np.exp: it cancels in the fraction "
           "but stops exp from overflowing",
    }
    for k, (what, scores) in enumerate(cases):
        with np.errstate(all="ignore"):
            got, error = _call(name, func, scores.copy(), hint=hints[k])
        if error is not None:
            return error
        if got is not None and not np.isfinite(np.asarray(got, dtype=float)).all():
            return _failed(name, f"on {what} your softmax gave nan or inf", hints[k])
        problem = _compare(name, got, softmax(scores), what, hints[k])
        if problem is not None:
            return problem
    return _passed(name, "passed on small scores and on scores of size 1000; "
                         "each row sums to 1")
