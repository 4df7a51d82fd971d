"""attnlib.checks.runner: a check stops at its first failed step and reports it in words."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from attnlib.checks import runner
from attnlib.checks.runner import CheckResult, Failure, call, check, compare, expect_array

from .helpers import fails_with, passes


def test_check_result_prints_the_hint_only_on_failure():
    ok = CheckResult("check_x", True, "passed", hint="unused")
    bad = CheckResult("check_x", False, "wrong", hint="try this")
    assert bool(ok) and not bool(bad)
    assert str(ok) == "✓ check_x: passed"
    assert str(bad) == "✗ check_x: wrong\n  Hint: try this"
    assert repr(bad) == str(bad)
    assert str(CheckResult("check_x", False, "wrong")) == "✗ check_x: wrong"


def test_the_first_failed_step_is_reported_and_later_steps_do_not_run():
    ran = []

    @check
    def check_steps(first_ok: bool) -> str:
        ran.append(1)
        if not first_ok:
            raise Failure("step 1 failed", "hint 1")
        ran.append(2)
        raise Failure("step 2 failed", "hint 2")

    fails_with(check_steps(False), "check_steps: step 1 failed", "hint 1")
    assert ran == [1]
    fails_with(check_steps(True), "step 2 failed", "hint 2")
    assert ran == [1, 1, 2]


def test_a_check_passes_with_the_sentence_its_body_returns():
    @check
    def check_fine(x) -> str:
        """Its docstring."""
        return f"passed for {x}"

    result = check_fine(3)
    passes(result)
    assert result == CheckResult("check_fine", True, "passed for 3")
    assert check_fine.__name__ == "check_fine" and check_fine.__doc__ == "Its docstring."
    assert check_fine.__annotations__["return"] == "CheckResult"


def test_an_unexpected_error_in_a_check_itself_is_not_swallowed():
    # only Failure means "the learner's answer is wrong"; a bug in the check must show
    @check
    def check_buggy() -> str:
        raise ZeroDivisionError("bug in the check")

    with pytest.raises(ZeroDivisionError):
        check_buggy()


def test_call_reports_the_learners_exception_with_its_line():
    def learner(x):
        return x @ np.ones(3)

    with pytest.raises(Failure) as info:
        call(learner, np.ones(2), hint="shapes must fit")
    assert info.value.message.startswith("your function raised ValueError: ")
    assert "(line " in info.value.message and "return x @ np.ones(3)" in info.value.message
    assert info.value.hint == "shapes must fit"


def test_call_wants_a_function_and_silences_floating_point_warnings():
    with pytest.raises(Failure, match="expected a function, got ndarray"):
        call(np.zeros(2))
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # an overflow warning would raise here
        assert np.isinf(call(lambda s: np.exp(s), 1000.0))


@pytest.mark.parametrize(
    ("got", "said"),
    [
        (None, "your function returned None for x = 2"),
        ("four", "for x = 2 you returned a str, not an array of numbers"),
        ([[1.0, 2.0], [3.0]], "for x = 2 you returned a list, not an array of numbers"),
        (np.ones(3), "for x = 2 you returned shape (3,), expected (2,)"),
        ([np.nan, 1.0], "for x = 2 your result contains nan or inf"),
        ([4.0, 5.5], "for x = 2, entry (1,) is 5.5 but should be 4"),
    ],
)
def test_compare_names_the_first_difference(got, said):
    with pytest.raises(Failure) as info:
        compare(got, np.array([4.0, 4.0]), "x = 2", hint="double it")
    assert info.value.message == said


def test_compare_returns_the_array_when_it_matches():
    np.testing.assert_array_equal(compare([1, 2], np.array([1.0, 2.0]), "x"), [1.0, 2.0])


def test_expect_array_without_a_description_and_the_return_hint():
    with pytest.raises(Failure) as info:
        expect_array(None)
    assert (info.value.message, info.value.hint) == (
        "your function returned None",
        runner.RETURN_HINT,
    )


def test_close_needs_the_same_shape_and_numbers():
    assert runner.close([1.0, 2.0], np.array([1.0, 2.0 + 1e-12]))
    assert not runner.close([1.0, 2.0], np.array([[1.0, 2.0]]))
    assert not runner.close("text", np.array([1.0]))
    assert not runner.close([1.0, 2.1], np.array([1.0, 2.0]))
