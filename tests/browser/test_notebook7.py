"""Every notebook in Notebook 7 (`jupyter notebook`), as in JupyterLab: it opens,
runs to the end with no error output, and every slider of every explorer redraws
its picture. A file of its own, so that `make test` runs it beside test_lab.py.
"""

from __future__ import annotations

import pytest

from .test_lab import NOTEBOOK_NAMES, report, run_notebook, summary


@pytest.mark.parametrize("name", NOTEBOOK_NAMES)
def test_notebook_in_notebook7(notebook7, notebook7_tab, notebook7_root, name, record_property):
    problems, facts = run_notebook(notebook7_tab, notebook7, notebook7_root, name, app="notebook")
    record_property("summary", summary("Notebook 7", name, facts))
    assert not problems, report(problems, f"{name} in Notebook 7")
