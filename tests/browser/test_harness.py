"""The harness's own helpers, without a browser: the CI rule for a missing
browser, the process clean-up, the timing figures and the text detectors."""

from __future__ import annotations

import sys
import time

import pytest

from . import pages, servers
from .conftest import skip_or_fail


def test_missing_browser_skips_locally_and_fails_under_ci(monkeypatch):
    monkeypatch.setenv("CI", "false")
    with pytest.raises(pytest.skip.Exception, match="apt-get install chromium"):
        skip_or_fail(servers.HOW_TO_GET_A_BROWSER)
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="CI=true"):
        skip_or_fail(servers.HOW_TO_GET_A_BROWSER)


def test_no_browser_found_gives_the_one_line_reason(monkeypatch):
    class NoChromium:  # Playwright without its browser, and none on the system
        def launch(self, **kwargs):
            raise RuntimeError("Executable doesn't exist at /nowhere/chrome")

    class FakePlaywright:
        chromium = NoChromium()

    monkeypatch.delenv("ATTNLIB_CHROMIUM", raising=False)
    monkeypatch.setattr(servers.os.path, "isfile", lambda path: False)
    monkeypatch.setattr(servers.shutil, "which", lambda name: None)
    assert servers.launch_chromium(FakePlaywright()) == (None, servers.HOW_TO_GET_A_BROWSER)
    monkeypatch.setenv("ATTNLIB_CHROMIUM", "/no/such/chromium")
    browser, reason = servers.launch_chromium(FakePlaywright())
    assert browser is None and "ATTNLIB_CHROMIUM=/no/such/chromium" in reason


def test_stop_leaves_no_process_behind(tmp_path):
    """A server whose child runs in a session of its own (as kernels do) and
    ignores SIGTERM: stop() must still end both."""
    script = (
        "import signal, subprocess, sys, time\n"
        "child = subprocess.Popen([sys.executable, '-c', 'import signal, time; "
        "signal.signal(signal.SIGTERM, signal.SIG_IGN); time.sleep(60)'], "
        "start_new_session=True)\n"
        "print(child.pid, flush=True)\n"
        "time.sleep(60)\n"
    )
    server = servers.Server(
        "fake", [sys.executable, "-c", script], {}, tmp_path, 0, "", tmp_path / "fake.log"
    )
    deadline = time.monotonic() + 10
    while not (tmp_path / "fake.log").read_text().strip() and time.monotonic() < deadline:
        time.sleep(0.05)
    child = int((tmp_path / "fake.log").read_text().split()[0])
    assert servers._alive(child)
    server.stop(timeout=1)
    assert not servers._alive(server.proc.pid)
    assert not servers._alive(child), "the server's child outlived stop()"


def test_timing_median_and_p95():
    assert pages.timing([float(ms) for ms in range(1, 21)]) == (10.5, 19.0)
    assert pages.timing([5.0]) == (5.0, 5.0)


@pytest.mark.parametrize(
    ("text", "is_widget"),
    [
        ("IntSlider(value=4, description='d_k', max=8, min=1)", True),
        ("VBox(children=(IntSlider(value=6),))", True),
        ("AttentionExplorer(n=6, d_k=4, seed=0)", True),
        ("ipywidgets.widgets.widget_box.HBox(children=())", True),
        ("(6, 4)", False),
        ("array([[0.1, 0.9]])", False),
        ("Attention(Q=array([[1.]]), K=...)", False),
    ],
)
def test_widget_as_text_pattern(text, is_widget):
    assert bool(pages.WIDGET_AS_TEXT.search(text)) is is_widget


def test_benign_console_list_is_narrow():
    console = pages.Console(
        messages=[
            "console.error: Failed to load resource: net::ERR_FAILED (https://cdn.jsdelivr.net/"
            "npm/@fortawesome/fontawesome-free@%5E5/css/all.min.css)",
            "console.error: Failed to load resource: net::ERR_FAILED (https://cdn.jsdelivr.net/"
            "npm/some-widget@1/dist/index.js)",
            "uncaught: TypeError: Cannot read properties of undefined",
        ]
    )
    assert console.problems() == console.messages[1:]
