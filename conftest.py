"""How `make test` shares the tests out between its pytest-xdist workers (--dist
loadgroup): a file's tests go to one worker, as with --dist loadfile (nbval runs a
notebook's cells in order in one kernel; a test file's module fixtures start once),
except the browser tests that run one notebook each. Those are the longest tests of
the suite; one group each, they spread over the workers, and each worker starts its
own JupyterLab and Notebook 7 (a few seconds) instead of one worker running them all
while the other waits.

Only under --dist loadgroup: with -n 0 or another --dist, nothing changes.
"""

from __future__ import annotations

import pytest

# the browser tests that run one notebook each (tests/browser/test_lab.py, ...)
ONE_NOTEBOOK_EACH = ("test_notebook_in_lab[", "test_notebook_in_notebook7[")


def xdist_group(item: pytest.Item) -> str:
    """The worker group of a test: its own for a notebook in a browser, else its file."""
    if item.name.startswith(ONE_NOTEBOOK_EACH):
        return item.nodeid
    return item.nodeid.split("::", 1)[0]


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist reads the groups
def pytest_collection_modifyitems(config, items):
    if not getattr(config.option, "loadgroup", False):
        return
    for item in items:
        if item.get_closest_marker("xdist_group") is None:
            item.add_marker(pytest.mark.xdist_group(xdist_group(item)))
