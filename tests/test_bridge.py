"""Notebook 08's bridge to PyTorch: attnlib.import_torch and check_to_heads.

nbval runs notebook 08 itself (PyTorch is in the test install); here, what a learner
without PyTorch sees, and that the exercise's check names each usual slip.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

import attnlib
from attnlib.i18n import LANGUAGES
from attnlib.lessons import bridge, solutions_in

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize(
    ("language", "said"), [("en", "PyTorch is not installed"), ("zh", "没有安装 PyTorch")]
)
def test_without_torch_the_first_cell_says_how_to_install_it(monkeypatch, language, said):
    monkeypatch.setitem(sys.modules, "torch", None)  # as if PyTorch were not installed
    attnlib.set_language(language)
    try:
        with pytest.raises(ModuleNotFoundError) as caught:
            attnlib.import_torch()
    finally:
        attnlib.set_language("en")
    message = str(caught.value)
    assert said in message and bridge.INSTALL in message and bridge.TORCH_CHECKED in message
    assert caught.value.name == "torch"


def test_the_test_install_pins_the_pytorch_the_outputs_come_from():
    # unpinned, pip on Linux takes the CUDA build (several GB) and the newest version
    lock = (ROOT / "requirements" / "test.txt").read_text()
    assert re.findall(r"^torch==(\S+)", lock, re.M) == [bridge.TORCH_CHECKED]


@pytest.fixture
def torch():
    # in the test install (pyproject's test extra); a learner's machine may lack it
    return pytest.importorskip("torch", reason="PyTorch is not installed: make test installs it")


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_worked_answer_passes(torch, language):
    # in every language's solutions (lessons/solutions_<code>.py), not only the English
    attnlib.checks.check_to_heads.reset()
    assert attnlib.checks.check_to_heads(solutions_in(language).my_to_heads).passed


@pytest.mark.parametrize(
    ("slip", "said"),
    [
        (
            lambda M, h: M.reshape(M.shape[0], h, M.shape[1], -1),
            "right shape and the wrong numbers",
        ),
        (lambda M, h: M.view(M.shape[0], M.shape[1], h, -1), "heads still come after the tokens"),
        (
            lambda M, h: M.view(M.shape[0], M.shape[1], -1, h).permute(0, 3, 1, 2),
            "every heads-th column",
        ),
        (lambda M, h: None, "returned None"),
    ],
)
def test_each_slip_is_named(torch, slip, said):
    attnlib.checks.check_to_heads.reset()
    result = attnlib.checks.check_to_heads(slip)
    assert not result.passed and said in str(result), str(result)


def test_the_check_is_silent_on_the_answer(torch):
    # a hint names where to look, never the line to write
    attnlib.checks.check_to_heads.reset()
    result = str(attnlib.checks.check_to_heads(lambda M, h: M.view(M.shape[0], M.shape[1], h, -1)))
    assert ".transpose(1, 2)" not in result and "transpose(1" not in result
