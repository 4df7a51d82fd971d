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

# the tests that run one notebook each
ONE_NOTEBOOK_EACH = (
    "::test_notebook_in_lab[",
    "::test_notebook_in_notebook7[",
    "::test_notebook_runs_under_papermill[",
)


def work_unit(nodeid: str) -> str:
    """The unit of work of a test: itself if it runs one notebook, else its file."""
    if any(part in nodeid for part in ONE_NOTEBOOK_EACH):
        return nodeid
    return nodeid.split("::", 1)[0]


def running_order(nodeid: str) -> int:
    """0 for the longest kinds of test, 3 for the short ones (collection order within)."""
    path = nodeid.split("::", 1)[0]
    # test_no_make: a fresh venv installed as the README says, then JupyterLab (1-2 min)
    if path.startswith("tests/browser/") or path == "tests/test_no_make.py":
        return 0
    if path == "tests/test_notebook_clients.py":
        return 1
    if path.startswith("notebooks/"):
        return 2
    return 3


def pytest_collection_modifyitems(config, items):
    """The longest tests first (a stable sort: a file's tests keep their order)."""
    items.sort(key=lambda item: running_order(item.nodeid))


def pytest_xdist_make_scheduler(config, log):
    """--dist loadfile, but with the tests of one notebook each spread out."""
    if config.getvalue("dist") != "loadfile":
        return None  # pytest-xdist chooses
    from xdist.scheduler import LoadFileScheduling

    class LoadFileNotebooksApart(LoadFileScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return work_unit(nodeid)

    return LoadFileNotebooksApart(config, log)
