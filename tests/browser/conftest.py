"""Fixtures for the browser tests: pytest-playwright's browser and contexts (a
screenshot of every failed page goes to test-artifacts/playwright/), one JupyterLab
and one Notebook 7 server for the whole session, a fresh page per test.

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

from . import servers
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
    errors, uncaught errors, and requests that leave this machine (blocked, so
    that a machine with internet behaves like a classroom without)."""
    context = new_context(viewport={"width": width, "height": height})
    context.set_default_timeout(30_000)
    tab = Tab(context.new_page())
    tab.watch(context)
    return tab


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
    """JupyterLab as `make lab LANG=zh` serves it: the Chinese edition, menus in Chinese."""
    settings, log = servers.LAB_SETTINGS_ZH, "jupyter-lab-zh.log"
    with _serving("lab", lab_zh_root, tmp_path_factory, settings=settings, log=log) as server:
        yield server


@pytest.fixture
def lab_zh_tab(lab_zh, new_context):
    yield from _tab_on(lab_zh, new_context)


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


def _tab_on(server, new_context):
    """A tab for one notebook; its kernels are shut down afterwards, so that the
    next notebook gets the machine's two cores to itself."""
    tab = open_tab(new_context)
    yield tab
    tab.page.context.close()  # pytest-playwright screenshots it first if the test failed
    server.remember_children()
    try:
        from .pages import shut_down_kernels

        shut_down_kernels(server)
    except Exception as err:
        print(f"could not shut kernels down: {err}")


@pytest.fixture
def lab_tab(lab, new_context):
    yield from _tab_on(lab, new_context)


@pytest.fixture
def notebook7_tab(notebook7, new_context):
    yield from _tab_on(notebook7, new_context)
