"""Which tests go together to one pytest-xdist worker, and which start first.

The rules, as plain functions of a test's node id (the top-level conftest.py
says why): :func:`work_unit` keeps a file's tests together except those that
run one whole notebook each, :func:`running_order` puts the longest kinds of
test first, and :func:`notebook_cell` finds a notebook's cells, which must
keep their order. conftest.py hands them to pytest and pytest-xdist;
tests/test_scheduling.py checks them.
"""

from __future__ import annotations

# the tests that run one notebook each
ONE_NOTEBOOK_EACH = (
    "::test_notebook_in_lab[",
    "::test_notebook_in_notebook7[",
    "::test_notebook_runs_under_papermill[",
)


# the test that reads what nbval's run of a Chinese notebook drew and printed
# (tests/test_zh_english.py): it runs right after that notebook, on its worker
AFTER_ZH_NOTEBOOK = "tests/test_zh_english.py::test_no_more_english_than_the_baseline["


def work_unit(nodeid: str) -> str:
    """The unit of work of a test: itself if it runs one notebook, else its file;
    the English-word check of a Chinese notebook goes with that notebook."""
    if nodeid.startswith(AFTER_ZH_NOTEBOOK):
        return f"notebooks/zh/{nodeid[len(AFTER_ZH_NOTEBOOK) :].rstrip(']')}.ipynb"
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


def notebook_cell(nodeid: str) -> tuple[str, int] | None:
    """(notebook, cell number) of an nbval test, whose cells must run in order."""
    path, _, name = nodeid.partition("::")
    if path.endswith(".ipynb") and name.startswith("Cell "):
        return path, int(name.split()[1])
    return None


def after_their_notebooks(items: list) -> list:
    """Each English-word check of a Chinese notebook moved right after that notebook's
    last cell (where nbval's kernel has just drawn every figure), when it is collected."""
    last = {}
    for k, item in enumerate(items):
        if notebook_cell(item.nodeid):
            last[work_unit(item.nodeid)] = k
    moving = {
        k: work_unit(item.nodeid)
        for k, item in enumerate(items)
        if item.nodeid.startswith(AFTER_ZH_NOTEBOOK) and work_unit(item.nodeid) in last
    }
    out = []
    for k, item in enumerate(items):
        if k in moving:
            continue
        out.append(item)
        out += [items[m] for m, unit in moving.items() if last[unit] == k]
    return out
