"""attnlib.demo.show_error: the error shown on purpose, without a raising cell."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

import attnlib
from attnlib.lessons.demo import CaughtError, show_error


def _mismatched():
    example = attnlib.toy_example(n=6, d=8, d_k=4, seed=0)
    W_K_3 = attnlib.toy_example(n=6, d=8, d_k=3, seed=0).W_K  # (8, 3): one column short
    return example.X, example.W_Q, W_K_3, example.W_V


def test_catches_the_error_that_the_call_raises():
    args = _mismatched()
    with pytest.raises(ValueError) as direct:  # what the call raises when not caught
        attnlib.self_attention(*args)
    shown = show_error(attnlib.self_attention, *args)
    assert isinstance(shown.error, ValueError)
    assert shown.error_type == "ValueError"
    assert shown.message == str(direct.value)
    assert shown.call == "self_attention"


def test_passes_keyword_arguments_through():
    shown = show_error(attnlib.softmax, np.array([[1.0, np.nan]]), axis=-1)
    assert shown.error is not None and "NaN" in shown.message
    assert show_error(attnlib.softmax, np.zeros((2, 3)), axis=-1).error is None


def test_plain_text_box_holds_type_and_whole_message():
    message = "a long message " * 12 + "END"
    shown = show_error(_raise, ValueError(message))
    text = str(shown)
    lines = text.splitlines()
    assert lines[0] == "┌─ _raise raised ValueError"
    assert lines[-1] == "└─"
    assert all(line.startswith("│ ") and len(line) <= 2 + 76 for line in lines[1:-1])
    assert len(lines) > 3  # wrapped, not one long line
    body = " ".join(line[2:] for line in lines[1:-1])
    assert body.split() == message.split()
    assert repr(shown) == text  # what a terminal or IPython's text view shows


def test_html_box_escapes_the_message():
    shown = show_error(_raise, TypeError("X must be <ndarray> & 2-D"))
    page = shown._repr_html_()
    assert "_raise raised TypeError" in page
    assert "X must be &lt;ndarray&gt; &amp; 2-D" in page
    assert "<ndarray>" not in page


def test_a_call_that_works_says_so_instead_of_pretending():
    shown = show_error(sum, [1, 2, 3])
    assert shown.error is None and shown.error_type is None and shown.result == 6
    assert "ran without an error" in str(shown) and "returned 6" in str(shown)


def test_keyboard_interrupt_is_not_swallowed():
    with pytest.raises(KeyboardInterrupt):
        show_error(_raise, KeyboardInterrupt())


def test_a_result_instead_of_a_function_is_a_clear_type_error():
    with pytest.raises(TypeError, match=r"needs a function to call, got int .*show_error\(f, x\)"):
        show_error(6)


def test_exported_lazily_from_attnlib():
    assert attnlib.show_error is show_error
    assert isinstance(attnlib.show_error(int, "x"), CaughtError)
    code = "import sys, attnlib\nattnlib.show_error\nprint('matplotlib' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def _raise(error: BaseException):
    raise error
