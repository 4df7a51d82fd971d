"""Every test of a check starts with fresh counts of wrong tries (runner.Attempts)."""

from __future__ import annotations

import pytest

from attnlib import checks


@pytest.fixture(autouse=True)
def fresh_attempts():
    for name in checks.__all__:
        reset = getattr(getattr(checks, name), "reset", None)
        if reset is not None:
            reset()
    yield
