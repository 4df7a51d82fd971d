"""What every exercise check must do, whatever its exercise: one table, three tests.

The table is each module's list of (check, worked solution), kept beside that
module's specific tests; here every check must pass its solution, answer a stub,
a function that raises and a non-function with a message (no traceback), and
report a return value that is no array of numbers.
"""

from __future__ import annotations

import pytest

from attnlib.i18n import LANGUAGES
from attnlib.lessons import solutions_in

from . import test_formulas, test_inputs, test_layer, test_learned
from .helpers import assert_fails_kindly, fails_with, passes

EXERCISES = [*test_inputs.SOLVED, *test_formulas.SOLVED, *test_layer.SOLVED, *test_learned.SOLVED]
CHECKS = [check for check, _ in EXERCISES]


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize(("check", "solution"), EXERCISES, ids=lambda x: x.__name__)
def test_the_worked_solution_passes(check, solution, language):
    # in every language's solutions (lessons/solutions_<code>.py), not only the English
    passes(check(getattr(solutions_in(language), solution.__name__)))


@pytest.mark.parametrize("check", CHECKS, ids=lambda c: c.__name__)
def test_stub_exception_and_non_function_give_a_message_not_a_traceback(check):
    assert_fails_kindly(check)


@pytest.mark.parametrize("check", CHECKS, ids=lambda c: c.__name__)
def test_a_return_that_is_no_array_is_reported(check):
    # each check names what came back (a str); most say "not an array of numbers"
    fails_with(check(lambda *args: "some text"), "str")
