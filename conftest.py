"""How `make test` shares the tests out between its pytest-xdist workers.

With --dist loadfile, a file's tests go to one worker: nbval runs a notebook's cells
in order in one kernel, and a test file's module fixtures start once. Here that holds
for every file but three, whose tests each run one whole notebook: in JupyterLab, in
Notebook 7 (tests/browser/test_lab.py, test_notebook7.py) and under papermill
(tests/test_notebook_clients.py). They are the longest tests of the suite, and as one
file each, one worker ran a whole file of them while the other ran out of work. Each
of those tests is a unit of its own instead: they spread over the workers, and each
worker starts its own JupyterLab and Notebook 7 (a few seconds each).

pytest-xdist's own --dist loadgroup would do the same with markers, but it renames
the tests to carry their group, which pytest 9 ignores; so this is a scheduler.

The workers take units in the order of collection, so the longest come first: the
browser tests and the learner's install without make, the papermill and nbconvert
runs, the notebooks under nbval, then the rest, whose many short files even out the
workers' finishing times.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import sys
import tempfile
import uuid
from pathlib import Path

import pytest

from tests.scheduling import after_their_notebooks, notebook_cell, running_order, work_unit

ROOT = Path(__file__).resolve().parent


def pytest_collection_modifyitems(config, items):
    """The longest tests first (a stable sort: a file's tests keep their order).

    pytest-randomly shuffles the tests before this hook runs (a random order each
    run, its seed printed at the top): a test that only passes after another one
    shows up. A notebook's cells are the exception: nbval runs them in one kernel,
    one after the other, so they are put back in order.
    """
    items.sort(key=lambda item: running_order(item.nodeid))
    cells = [i for i, item in enumerate(items) if notebook_cell(item.nodeid)]
    in_order = sorted((items[i] for i in cells), key=lambda item: notebook_cell(item.nodeid))
    for i, item in zip(cells, in_order, strict=True):
        items[i] = item
    items[:] = after_their_notebooks(items)


def pytest_xdist_make_scheduler(config, log):
    """--dist loadfile, but with the tests of one notebook each spread out."""
    if config.getvalue("dist") != "loadfile":
        return None  # pytest-xdist chooses
    from xdist.scheduler import LoadFileScheduling

    class LoadFileNotebooksApart(LoadFileScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return work_unit(nodeid)

    return LoadFileNotebooksApart(config, log)


# --------------------------------------------------------------------------- another CPU
# A stored output must be what any machine prints, not only this one. numpy picks its
# SIMD kernels (AVX2, AVX-512, NEON ...) for the CPU at hand, and results that hang on
# the last bit differ between them. So the Chinese edition, whose code is the English
# code, runs under nbval with numpy held to its baseline kernels and one thread:
# the stored outputs of both editions must come out the same both ways.
ANOTHER_CPU_NOTEBOOKS = ROOT / "notebooks" / "zh"


def another_cpu_env() -> dict[str, str]:
    """Environment variables that make this machine's numpy compute like a plainer CPU:
    every SIMD extension beyond the build's baseline switched off, one thread.
    (OPENBLAS_* is left alone: some machines set it on purpose.)"""
    try:
        from numpy._core import _multiarray_umath as umath  # numpy 2
    except ImportError:  # numpy 1
        from numpy.core import _multiarray_umath as umath
    found = [f for f in umath.__cpu_dispatch__ if umath.__cpu_features__.get(f)]
    env = {"OMP_NUM_THREADS": "1"}
    if found:
        env["NPY_DISABLE_CPU_FEATURES"] = " ".join(found)
    return env


def kernel_env(cwd) -> dict[str, str]:
    """What a notebook's kernel adds to the environment, by the notebook's folder."""
    if cwd is not None and Path(cwd).resolve() == ANOTHER_CPU_NOTEBOOKS:
        return another_cpu_env()
    return {}


# ----------------------------------------------------------------------- English in zh
# While nbval runs a Chinese notebook, a hook in its kernel (tools/english_in_zh.py)
# records every text matplotlib draws and every widget's caption, so that
# tests/test_zh_english.py reads them from the run `make test` makes anyway instead
# of executing the nine notebooks a second time. Each kernel appends to a file of
# its own in a folder of this process (one per xdist worker).
ZH_RECORDS: dict[str, Path] = {}


def english_in_zh():
    """tools/english_in_zh.py as a module (tools/ is no package)."""
    spec = importlib.util.spec_from_file_location("english_in_zh", ROOT / "tools/english_in_zh.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("english_in_zh", module)  # one module, also for the test's import
    spec.loader.exec_module(sys.modules["english_in_zh"])
    return sys.modules["english_in_zh"]


@pytest.fixture(scope="session")
def zh_kernel_records() -> Path | None:
    """The folder where this process's nbval kernels of notebooks/zh left their records."""
    return ZH_RECORDS.get("folder")


def pytest_configure(config):
    try:
        from nbval import kernel
    except ImportError:
        return
    start_new_kernel = kernel.start_new_kernel
    if getattr(start_new_kernel, "another_cpu", False):
        return

    hook = english_in_zh()

    def start_with_env(startup_timeout=60, kernel_name="python", **kwargs):
        extra = kernel_env(kwargs.get("cwd"))
        if extra:
            if "folder" not in ZH_RECORDS:
                ZH_RECORDS["folder"] = Path(tempfile.mkdtemp(prefix="attnlib-zh-records-"))
            records = ZH_RECORDS["folder"] / f"{uuid.uuid4().hex}.jsonl"
            extra = {**extra, **hook.kernel_env(records)}
            kwargs["extra_arguments"] = [
                *kwargs.get("extra_arguments", []),
                *hook.kernel_arguments(),
            ]
            kwargs["env"] = {**os.environ, **extra}
        return start_new_kernel(startup_timeout, kernel_name, **kwargs)

    start_with_env.another_cpu = True
    kernel.start_new_kernel = start_with_env


def pytest_unconfigure(config):
    folder = ZH_RECORDS.pop("folder", None)
    if folder is not None:
        shutil.rmtree(folder, ignore_errors=True)


def pytest_report_header(config):
    env = " ".join(f"{k}={v!r}" for k, v in another_cpu_env().items())
    return f"nbval runs notebooks/zh with {env}"
