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


def test_choose_chromium(monkeypatch, tmp_path):
    fake = tmp_path / "chromium"
    fake.write_text("#!/bin/sh\n")
    fake.chmod(0o755)
    monkeypatch.delenv("ATTNLIB_CHROMIUM", raising=False)
    monkeypatch.setattr(servers.shutil, "which", lambda name: None)
    real_isfile = servers.os.path.isfile
    no_system = lambda path: path != "/usr/bin/chromium" and real_isfile(path)  # noqa: E731
    monkeypatch.setattr(servers.os.path, "isfile", no_system)
    # Playwright's own browser when it is installed ...
    assert servers.choose_chromium(str(fake)) == (None, "Playwright's Chromium")
    # ... none at all: None, and the one-line reason says how to get one
    assert servers.choose_chromium(str(tmp_path / "missing")) is None
    assert "apt-get install chromium" in servers.no_chromium_reason()
    # the system's when Playwright has none
    monkeypatch.setattr(servers.shutil, "which", lambda name: str(fake))
    assert servers.choose_chromium(None) == (str(fake), str(fake))
    # ATTNLIB_CHROMIUM wins, and a wrong one is named in the reason
    monkeypatch.setenv("ATTNLIB_CHROMIUM", str(fake))
    assert servers.choose_chromium(None) == (str(fake), str(fake))
    monkeypatch.setenv("ATTNLIB_CHROMIUM", "/no/such/chromium")
    assert servers.choose_chromium(str(fake)) is None
    assert "ATTNLIB_CHROMIUM=/no/such/chromium" in servers.no_chromium_reason()


def test_launch_args_close_the_network():
    args = servers.launch_args()
    for flag in ("--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run",
                 "--proxy-server=http://127.0.0.1:9"):  # fmt: skip
        assert flag in args
    assert ("--no-sandbox" in args) == (servers.os.geteuid() == 0)


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
    assert servers.alive(child)
    server.stop(timeout=1)
    assert not servers.alive(server.proc.pid)
    assert not servers.alive(child), "the server's child outlived stop()"


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


def test_tab_reports_console_errors_and_requests_off_this_machine():
    tab = pages.Tab(page=None)
    tab.console.append("uncaught: TypeError: x is undefined")
    tab.outside += ["https://cdn.example/a.css", "https://cdn.example/a.css"]
    assert tab.problems() == [
        "uncaught: TypeError: x is undefined",
        "a request off this machine (blocked): https://cdn.example/a.css",
    ]
    # the page kept open for the next notebook: only what happens from now on
    tab.mark()
    assert tab.problems() == []
    tab.console.append("console.error: late (x.js)")
    assert tab.problems() == ["console.error: late (x.js)"]


@pytest.mark.parametrize(
    ("url", "local"),
    [
        ("http://127.0.0.1:8888/lab", True),
        ("ws://127.0.0.1:8888/api/kernels/x/channels", True),
        ("data:image/png;base64,AAAA", True),
        ("https://cdn.jsdelivr.net/npm/@fortawesome/fontawesome-free@5/css/all.min.css", False),
        ("http://localhost:8888/lab", False),  # the servers listen on 127.0.0.1 only
        ("http://127.0.0.1.example.com/", False),
    ],
)
def test_only_this_machine_is_local(url, local):
    assert url.startswith(pages.LOCAL) is local


@pytest.mark.parametrize(
    ("text", "conflict"),
    [
        ("<<<<<<< local Look for: each row of weights", True),
        ("the end. >>>>>>> remote", True),
        ("||||||| base", True),
        ("q_i << k_j, and 1 >> 0.5", False),
        ("a table: |---|---|", False),
    ],
)
def test_conflict_pattern(text, conflict):
    assert bool(pages.CONFLICT.search(text)) is conflict


@pytest.mark.parametrize(
    ("text", "missing"),
    [
        ("UserWarning: Glyph 27880 (\\N{CJK UNIFIED IDEOGRAPH-6CE8}) missing from font(s) "
         "DejaVu Sans.", True),
        ("UserWarning: Glyph 27880 missing from current font.", True),  # matplotlib < 3.6
        ("UserWarning: Tight layout not applied.", False),
    ],
)  # fmt: skip
def test_missing_glyph_pattern(text, missing):
    assert bool(pages.MISSING_GLYPH.search(text)) is missing


def test_a_server_whose_port_was_taken_starts_again_on_another(monkeypatch, tmp_path):
    # free_port() lets go of the port it found; another worker's server may take it first
    ports, started = [], object()

    def start_on(app, root_dir, home, log, settings, env, port):
        ports.append(port)
        if len(ports) == 1:
            raise RuntimeError("jupyter lab exited with 1:\n... port 1 is not available.")
        return started

    monkeypatch.setattr(servers, "_start_jupyter_on", start_on)
    assert servers.start_jupyter("lab", tmp_path, tmp_path, tmp_path / "log") is started
    assert len(ports) == 2
    # any other failure is not retried
    monkeypatch.setattr(
        servers, "_start_jupyter_on", lambda *a: (_ for _ in ()).throw(RuntimeError("broken"))
    )
    with pytest.raises(RuntimeError, match="broken"):
        servers.start_jupyter("lab", tmp_path, tmp_path, tmp_path / "log")
