"""Fixtures for the browser tests: one JupyterLab server and one headless Chromium
for the whole session, a fresh page per test, screenshots of failures.

The servers run from this interpreter's environment (the project's .venv under
`make test`) with their config, data, runtime and settings folders in a temporary
directory, on a temporary copy of notebooks/, so that the tests neither read a
user's settings nor change the repo's notebooks.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from . import servers
from .pages import Console

_REPORT = pytest.StashKey[dict]()
ARTIFACTS = servers.ARTIFACTS
LOCAL = ("http://127.0.0.1:", "ws://127.0.0.1:", "blob:", "data:", "about:")


def skip_or_fail(reason: str):
    """Skip with one line; under CI a missing browser is a failure, not a pass."""
    if servers.in_ci():
        pytest.fail(f"{reason} (CI=true: the browser tests must run, not skip)", pytrace=False)
    pytest.skip(reason)


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item, call):
    report = yield
    item.stash.setdefault(_REPORT, {})[report.when] = report
    return report


def failed(request) -> bool:
    reports = request.node.stash.get(_REPORT, {})
    return any(r.failed for r in reports.values())


def artifact(name: str) -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS / name


# --------------------------------------------------------------------------- browser


@pytest.fixture(scope="session")
def browser():
    for old in ARTIFACTS.glob("FAILED-*.png"):  # only this run's failures stay
        old.unlink()
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        skip_or_fail("playwright is not installed: pip install -e '.[test]'")
    with sync_playwright() as playwright:
        chromium, description = servers.launch_chromium(playwright)
        if chromium is None:
            skip_or_fail(description)
        chromium.description = description
        try:
            yield chromium
        finally:
            chromium.close()


def new_page(browser, request, width=1280, height=900):
    """A page in its own context (used by test_voila.py too), with its console
    collected from the first request."""
    context = browser.new_context(viewport={"width": width, "height": height})
    context.set_default_timeout(30_000)
    # The tests run on a closed network: requests that leave this machine are
    # blocked here (so a machine with internet behaves the same) and listed.
    context.outside = []

    def block(route):
        context.outside.append(route.request.url)
        route.abort()

    context.route(lambda url: not url.startswith(LOCAL), block)
    page = context.new_page()
    page.console = Console()
    page.console.attach(page)
    return context, page


def close_page(context, page, request) -> None:
    if failed(request):
        name = request.node.name.replace("/", "_").replace("[", "-").rstrip("]")
        try:
            page.screenshot(path=artifact(f"FAILED-{name}.png"), full_page=True)
        except Exception as err:
            print(f"could not save a screenshot: {err}")
    context.close()


# --------------------------------------------------------------------------- JupyterLab


@pytest.fixture(scope="session")
def lab_root(tmp_path_factory) -> Path:
    """A temporary copy of notebooks/ (the tests run and save cells freely there),
    plus a folder for the notebooks that the tests write themselves."""
    root = tmp_path_factory.mktemp("lab") / "notebooks"
    shutil.copytree(
        servers.NOTEBOOKS, root, ignore=shutil.ignore_patterns(".ipynb_checkpoints", "__pycache__")
    )
    (root / "_browser_tests").mkdir()
    return root


@pytest.fixture(scope="session")
def lab(browser, lab_root, tmp_path_factory):
    home = tmp_path_factory.mktemp("lab-home")
    server = servers.start_lab(lab_root, home, artifact("jupyter-lab.log"))
    try:
        yield server
    finally:
        leftovers = server.stop(graceful="/api/shutdown")
        if leftovers:
            print(f"jupyter lab: killed {len(leftovers)} process(es) left after shutdown")


@pytest.fixture
def lab_page(browser, lab, request):
    """A page for one notebook; its kernels are shut down afterwards, so that the
    next notebook gets the machine's two cores to itself."""
    context, page = new_page(browser, request)
    yield page
    close_page(context, page, request)
    lab.remember_children()
    try:
        from .pages import shut_down_kernels

        shut_down_kernels(lab)
    except Exception as err:
        print(f"could not shut kernels down: {err}")


# --------------------------------------------------------------------------- report


def pytest_terminal_summary(terminalreporter):
    """One line per figure that the browser tests measured (record_property)."""
    lines, total = [], 0.0
    for reports in terminalreporter.stats.values():
        for rep in reports:
            nodeid = getattr(rep, "nodeid", "")
            if "browser/" not in nodeid.replace(os.sep, "/"):
                continue
            total += getattr(rep, "duration", 0.0)
            if getattr(rep, "when", None) == "call":
                for key, value in getattr(rep, "user_properties", []):
                    if key == "summary":
                        lines.append(value)
    if lines or total:
        terminalreporter.section("browser tests")
        for line in lines:
            terminalreporter.write_line(line)
        terminalreporter.write_line(f"browser tests took {total:.1f} s (setup, calls and teardown)")
