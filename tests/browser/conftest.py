"""Fixtures for the browser tests: pytest-playwright's browser, one JupyterLab and
one Notebook 7 server for the session (per xdist worker), and the pages.

JupyterLab is loaded once per session in one page, and each test opens its notebook
in it, as a learner goes from lesson to lesson; Notebook 7, one notebook per page,
gets a new page per test in a context kept for the session (its scripts cached).
Voilà's pages come from pytest-playwright's contexts. A failed test leaves a
screenshot in test-artifacts/ (failed-*.png, or playwright/ for Voilà's pages).

The servers run from this interpreter's environment (the project's .venv under
`make test`) with their config, data, runtime and settings folders in a temporary
directory, on a temporary copy of notebooks/, so that the tests neither read a
user's settings nor change the repo's notebooks. They use the project's own
Jupyter settings (jupyter/), as `make lab` and `make present` do.
"""

from __future__ import annotations

import shutil
from contextlib import contextmanager
from pathlib import Path

import pytest

from . import pages, servers
from .pages import Tab

ARTIFACTS = servers.ARTIFACTS


def skip_or_fail(reason: str):
    """Skip with one line; under CI a missing browser is a failure, not a pass."""
    if servers.in_ci():
        pytest.fail(f"{reason} (CI=true: the browser tests must run, not skip)", pytrace=False)
    pytest.skip(reason)


def artifact(name: str) -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS / name


# --------------------------------------------------------------------------- browser

try:
    import pytest_playwright  # noqa: F401  (its fixtures: browser, new_context, ...)
except ImportError:

    @pytest.fixture(scope="session")
    def browser():
        skip_or_fail("pytest-playwright is not installed: pip install -e '.[test]'")

    @pytest.fixture
    def new_context(browser):
        return None

else:

    @pytest.fixture(scope="session")
    def browser_type_launch_args(browser_type_launch_args, browser_type):
        """pytest-playwright's launch options plus ours: which Chromium, and flags."""
        chromium = servers.choose_chromium(browser_type.executable_path)
        if chromium is None:
            skip_or_fail(servers.no_chromium_reason())
        options = {**browser_type_launch_args, "args": servers.launch_args(), "timeout": 30_000}
        if chromium.executable:
            options["executable_path"] = chromium.executable
        return options


def open_tab(new_context, width: int = 1280, height: int = 900) -> Tab:
    """A page in a context of its own, watched from its first request: console
    errors, uncaught errors, and requests that leave this machine (blocked by the
    browser's dead proxy, so that a machine with internet behaves like a classroom
    without)."""
    context = new_context(viewport={"width": width, "height": height})
    context.set_default_timeout(30_000)
    return _watched_page(context)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """Keep each phase's report on the item: a page kept for the session is
    screenshot at the end of a test that failed (_screenshot_if_failed)."""
    outcome = yield
    setattr(item, f"report_{call.when}", outcome.get_result())


# --------------------------------------------------------------------------- servers


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


@contextmanager
def _serving(app: str, root: Path, tmp_path_factory, settings=servers.LAB_SETTINGS, log=None):
    home = tmp_path_factory.mktemp(f"{app}-home")
    log = artifact(log or f"jupyter-{app}.log")
    server = servers.start_jupyter(app, root, home, log, settings=settings)
    try:
        yield server
    finally:
        leftovers = server.stop(graceful="/api/shutdown")
        if leftovers:
            print(f"jupyter {app}: killed {len(leftovers)} process(es) left after shutdown")


@pytest.fixture(scope="session")
def lab(browser, lab_root, tmp_path_factory):
    with _serving("lab", lab_root, tmp_path_factory) as server:
        yield server


@pytest.fixture(scope="session")
def lab_zh_root(tmp_path_factory) -> Path:
    """A temporary copy of notebooks/zh, the Chinese edition."""
    root = tmp_path_factory.mktemp("lab-zh") / "zh"
    shutil.copytree(
        servers.NOTEBOOKS / "zh",
        root,
        ignore=shutil.ignore_patterns(".ipynb_checkpoints", "__pycache__"),
    )
    return root


@pytest.fixture(scope="session")
def lab_zh(browser, lab_zh_root, tmp_path_factory):
    """JupyterLab as `make lab EDITION=zh` serves it: the Chinese edition, menus in Chinese."""
    settings, log = servers.LAB_SETTINGS_ZH, "jupyter-lab-zh.log"
    with _serving("lab", lab_zh_root, tmp_path_factory, settings=settings, log=log) as server:
        yield server


@pytest.fixture(scope="session")
def notebook7_root(tmp_path_factory) -> Path:
    """Notebook 7's own copy of notebooks/."""
    root = tmp_path_factory.mktemp("notebook7") / "notebooks"
    shutil.copytree(
        servers.NOTEBOOKS, root, ignore=shutil.ignore_patterns(".ipynb_checkpoints", "__pycache__")
    )
    return root


@pytest.fixture(scope="session")
def notebook7(browser, notebook7_root, tmp_path_factory):
    with _serving("notebook", notebook7_root, tmp_path_factory) as server:
        yield server


def _tab_on(server, context, request):
    """A tab for one notebook, in the session's `context` (its cache warm: the
    front end's scripts load once); afterwards its kernels are shut down, so that
    the next notebook gets the machine's two cores to itself."""
    tab = _watched_page(context)
    yield tab
    _screenshot_if_failed(tab, request)
    tab.page.close()
    _end_notebook(server)


def _watched_page(context) -> Tab:
    tab = Tab(context.new_page())
    tab.watch()
    return tab


def _screenshot_if_failed(tab: Tab, request) -> None:
    report = getattr(request.node, "report_call", None)
    if report is not None and report.failed:
        name = "".join(c if c.isalnum() or c in "-_." else "-" for c in request.node.name)
        try:
            tab.page.screenshot(path=artifact(f"failed-{name}.png"), full_page=True)
        except Exception as err:  # the page may be gone with what failed
            print(f"no screenshot of {request.node.name}: {err}")


def _end_notebook(server) -> None:
    server.remember_children()
    try:
        from .pages import shut_down_kernels

        shut_down_kernels(server)
    except Exception as err:
        print(f"could not shut kernels down: {err}")


@pytest.fixture(scope="session")
def _contexts(browser):
    """One browser context per front end for the session (per xdist worker): its
    HTTP cache keeps the front end's scripts, so the next page loads them from here."""
    made = {}

    def context(key: str):
        if key not in made:
            made[key] = browser.new_context(viewport={"width": 1280, "height": 900})
            made[key].set_default_timeout(30_000)
            made[key].add_init_script(pages.TIMING_INIT_JS)  # times the steps of a move
        return made[key]

    yield context
    for ctx in made.values():
        ctx.close()


def _lab_session(server, context):
    """One JupyterLab page for the session: each test opens its notebook in it, as a
    learner goes from lesson to lesson (pages.open_notebook), and closes it after."""
    tab = _watched_page(context)
    from .pages import open_lab

    open_lab(tab.page, server)
    return tab


def _lab_tab(server, tab: Tab, request):
    """The session's JupyterLab page for one test: what it reports starts now; after
    the test its notebooks are saved and closed, its kernels shut down. If JupyterLab
    cannot close them, or a dialog stays open (after a failure), the page loads Lab
    afresh for the next test."""
    from .pages import close_notebooks, open_lab

    tab.mark()
    yield tab
    _screenshot_if_failed(tab, request)
    try:
        left = close_notebooks(tab.page)
        if tab.page.locator(".jp-Dialog").count():
            left = "a dialog"
    except Exception as err:
        left = f"{err}"
    _end_notebook(server)
    if left:
        print(f"JupyterLab kept {left} open: loading it again")
        open_lab(tab.page, server)


@pytest.fixture(scope="session")
def _lab_page(lab, _contexts):
    return _lab_session(lab, _contexts("lab"))


@pytest.fixture
def lab_tab(lab, _lab_page, request):
    yield from _lab_tab(lab, _lab_page, request)


@pytest.fixture(scope="session")
def _lab_zh_page(lab_zh, _contexts):
    return _lab_session(lab_zh, _contexts("lab-zh"))


@pytest.fixture
def lab_zh_tab(lab_zh, _lab_zh_page, request):
    yield from _lab_tab(lab_zh, _lab_zh_page, request)


@pytest.fixture
def notebook7_tab(notebook7, _contexts, request):
    """Notebook 7 shows one notebook per page: a new page for each, in the session's
    Notebook 7 context."""
    yield from _tab_on(notebook7, _contexts("notebook7"), request)
