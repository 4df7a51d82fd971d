"""Test-run reporting shared by the whole suite (also under pytest-xdist, where
only this top-level conftest runs in the controller process that prints)."""

from __future__ import annotations

import os

import pytest

_config = None


@pytest.fixture
def english_afterwards():
    """Whatever language a test chooses, the next test starts in English (the default).

    A module that switches language says ``pytestmark =
    pytest.mark.usefixtures("english_afterwards")``.
    """
    yield
    import attnlib

    attnlib.set_language("en")


def pytest_configure(config):
    global _config
    _config = config


def _browser(nodeid: str) -> bool:
    return "tests/browser/" in nodeid.replace(os.sep, "/")


def pytest_runtest_logreport(report):
    """One line per notebook as the browser tests go (their record_property "summary")."""
    terminal = _config and _config.pluginmanager.get_plugin("terminalreporter")
    if report.when != "call" or terminal is None or not _browser(report.nodeid):
        return
    for key, value in report.user_properties:
        if key == "summary":
            terminal.ensure_newline()
            terminal.write_line(f"{'ok  ' if report.passed else 'FAIL'} {value}")


@pytest.hookimpl(trylast=True)
def pytest_terminal_summary(terminalreporter):
    """The browser tests' time, summed over their setup, calls and teardown."""
    total = sum(
        getattr(rep, "duration", 0.0)
        for reports in terminalreporter.stats.values()
        for rep in reports
        if _browser(getattr(rep, "nodeid", ""))
    )
    if total:
        terminalreporter.write_line(
            f"browser tests: {total:.1f} s of setup, calls and teardown "
            f"(summed; with -n they overlap other tests)"
        )
