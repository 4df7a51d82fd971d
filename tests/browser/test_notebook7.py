"""Notebook 7 (`jupyter notebook`), as in JupyterLab: a notebook opens, runs to the end
with no error output, and every slider of every explorer redraws its picture. A file
of its own, so that `make test` runs it beside test_lab.py.

JupyterLab runs every notebook (test_lab.py). Notebook 7 is built from the same
JupyterLab packages (the notebook widget, the markdown and output renderers, the
widget manager); what differs is its page around them. So it runs the classroom
notebook, which holds one explorer of every kind (attention with its heads and mask
controls, embedding, Q/K/V, √d_k, learned): every widget and picture the other
notebooks show, at a sixth of the time of all nine (about 24 s of the 146 s measured
on 2 cores). EVERY_NOTEBOOK=1 runs all nine here too.
"""

from __future__ import annotations

import os
import re

import pytest

from .servers import NOTEBOOKS
from .test_lab import NOTEBOOK_NAMES, report, run_notebook, summary

# the explorers every notebook shows, by factory: the classroom must show them all
_FACTORY = re.compile(r"attnlib\.(\w*explorer)\(")
CHOSEN = ("classroom.ipynb",)
NAMES = NOTEBOOK_NAMES if os.environ.get("EVERY_NOTEBOOK") == "1" else list(CHOSEN)


def explorer_kinds(name: str) -> set[str]:
    return set(_FACTORY.findall((NOTEBOOKS / name).read_text()))


def test_the_chosen_notebooks_show_every_kind_of_explorer():
    everywhere = set().union(*(explorer_kinds(n) for n in NOTEBOOK_NAMES))
    chosen = set().union(*(explorer_kinds(n) for n in CHOSEN))
    assert everywhere, "no explorer found in the notebooks: the pattern is out of date"
    assert chosen == everywhere, f"not run in Notebook 7: {sorted(everywhere - chosen)}"


@pytest.mark.parametrize("name", NAMES)
def test_notebook_in_notebook7(notebook7, notebook7_tab, notebook7_root, name, record_property):
    problems, facts = run_notebook(notebook7_tab, notebook7, notebook7_root, name, app="notebook")
    record_property("summary", summary("Notebook 7", name, facts))
    assert not problems, report(problems, f"{name} in Notebook 7")
