"""attnlib.version_check.require: a notebook newer than the installed attnlib says so
in one line, in the learner's language, and says whom to ask."""

import subprocess
import sys

import pytest

import attnlib
from attnlib import i18n
from attnlib.version_check import AttnlibTooOld, _release, require


def test_new_enough_returns_the_installed_version():
    assert require(attnlib.__version__) == attnlib.__version__
    assert require("0.0.1") == attnlib.__version__


@pytest.mark.parametrize("bump", [(0, 0, 1), (0, 1, 0), (1, 0, 0)])
def test_older_than_needed_stops_with_one_line_naming_both_versions(bump):
    installed = _release(attnlib.__version__) + (0,) * 3
    needed = ".".join(str(a + b) for a, b in zip(installed[:3], bump, strict=True))
    with pytest.raises(AttnlibTooOld) as error:
        require(needed)
    message = str(error.value)
    assert "\n" not in message
    assert f"needs attnlib {needed} or newer" in message
    assert f"this server has {attnlib.__version__}" in message
    assert "ask your teacher" in message
    assert isinstance(error.value, ImportError)  # what a failed import would raise


def test_versions_compare_by_their_numbers_not_as_text():
    assert _release("0.10") > _release("0.9")
    assert _release("0.2") == _release("0.2.0") == _release("0.2.0.dev1")
    assert _release("1.0") > _release("0.99.99")


def test_the_message_follows_the_learners_language():
    i18n.set_language("zh")
    try:
        with pytest.raises(AttnlibTooOld, match="请老师重新构建课程镜像"):
            require("999")
    finally:
        i18n.set_language("en")


@pytest.mark.parametrize("bad", ["", "latest", "0.2-beta", None, 2])
def test_a_minimum_that_is_not_a_version_is_refused(bad):
    with pytest.raises(ValueError, match="minimum must be a version"):
        require(bad)


def test_run_as_a_script_prints_the_installed_version():
    result = subprocess.run(
        [sys.executable, "-m", "attnlib.version_check"], capture_output=True, text=True, check=True
    )
    assert result.stdout == f"attnlib {attnlib.__version__}\n"
