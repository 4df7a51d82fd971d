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
browser tests, the papermill and nbconvert runs, the notebooks under nbval, then the
rest, whose many short files even out the workers' finishing times.
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
    if path.startswith("tests/browser/"):
        return 0
    if path == "tests/test_notebook_clients.py":
        return 1
    if path.startswith("notebooks/"):
        return 2
    return 3


def notebook_cell(nodeid: str) -> tuple[str, int] | None:
    """(notebook, cell number) of an nbval test, whose cells must run in order."""
    path, _, name = nodeid.partition("::")
    if path.endswith(".ipynb") and name.startswith("Cell "):
        return path, int(name.split()[1])
    return None


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


def pytest_xdist_make_scheduler(config, log):
    """--dist loadfile, but with the tests of one notebook each spread out."""
    if config.getvalue("dist") != "loadfile":
        return None  # pytest-xdist chooses
    from xdist.scheduler import LoadFileScheduling

    class LoadFileNotebooksApart(LoadFileScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return work_unit(nodeid)

    return LoadFileNotebooksApart(config, log)
