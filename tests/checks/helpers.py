"""What every test of a check asserts: how a pass and a kind failure look."""

from __future__ import annotations

from attnlib.checks import CheckResult


def fails_with(result, *fragments: str) -> None:
    """The check failed, printed as ``✗ ...``, and its text holds every fragment."""
    assert isinstance(result, CheckResult)
    assert not result, f"expected a failure, got: {result}"
    text = str(result)
    assert text.startswith("✗ ")
    for fragment in fragments:
        assert fragment in text, f"{fragment!r} not in {text!r}"


def passes(result) -> None:
    """The check passed, printed as ``✓ ...``."""
    assert isinstance(result, CheckResult)
    assert result, str(result)
    assert str(result).startswith("✓ ")


def stub(*args):
    """The notebooks' unfinished exercise: `...  # your code here`."""


def boom(*args):
    raise KeyError("nope")


def assert_fails_kindly(check) -> None:
    """A stub, a function that raises, and a non-function each fail with a message, no traceback."""
    fails_with(check(stub), "returned None", "Hint:", "`return")
    fails_with(check(boom), "your function raised KeyError: 'nope'", "Hint:")
    fails_with(check("not a function"), "expected a function", "without calling it")
