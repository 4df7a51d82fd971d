"""Notebooks run to the end under the tools teachers use: papermill and
``jupyter nbconvert --execute`` (which notebooks each runs, and why: see
PAPERMILL_NAMES). Neither may stop, and no notebook may be left with an error output.

nbval (run on notebooks/ and notebooks/zh/ by the default test selection) checks
the stored outputs; these tests check that nothing stops a run, including cells
that raise on purpose, which papermill does not excuse. The Chinese edition runs
the same code (plus one set_language line) and is held to the same rule by the
raises-exception check and nbval. Marked ``clients``: deselect with
``-m "not clients"`` when iterating on something else.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
NAMES = sorted(p.name for p in NOTEBOOKS.glob("*.ipynb"))


def error_outputs(path: Path) -> list[str]:
    """Each error output and each stderr stream, as 'cell k: text' (k counts from 1)."""
    nb = json.loads(path.read_text())
    found = []
    for k, cell in enumerate(nb["cells"], start=1):
        for out in cell.get("outputs", []):
            if out["output_type"] == "error":
                found.append(f"cell {k}: {out['ename']}: {out['evalue']}")
            elif out["output_type"] == "stream" and out["name"] == "stderr":
                text = out["text"] if isinstance(out["text"], str) else "".join(out["text"])
                found.append(f"cell {k}: stderr: {text.strip()[:300]}")
    return found


@pytest.fixture(scope="module")
def copy(tmp_path_factory):
    """notebooks/ copied, so that a notebook that writes a file writes it there."""
    root = tmp_path_factory.mktemp("clients") / "notebooks"
    shutil.copytree(NOTEBOOKS, root, ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    return root


# Which notebooks each tool runs. nbval executes every notebook of both editions on
# every `make test` and fails on an error or a stderr line (neither is in the stored
# outputs), and JupyterLab runs every English one in the browser tests; papermill and
# nbconvert execute with the same engine (nbclient) and kernel. What each tool adds is
# its own way of running: papermill's engine and its refusal of cells that raise,
# nbconvert's command line over a folder, its exit code and the notebooks it writes.
# So each runs two notebooks: the start page (an explorer) and, for papermill, the
# longest one (06: training with a live progress display); for nbconvert, a second
# short one. About 26 s on 2 cores where all nine under both took 109 s.
# EVERY_NOTEBOOK=1 runs all nine under both.
EVERY_NOTEBOOK = os.environ.get("EVERY_NOTEBOOK") == "1"
PAPERMILL_NAMES = NAMES if EVERY_NOTEBOOK else ["00_start_here.ipynb", "06_learned_attention.ipynb"]
NBCONVERT_NAMES = NAMES if EVERY_NOTEBOOK else ["00_start_here.ipynb", "02_input_embedding.ipynb"]


def test_the_clients_run_notebooks_that_exist():
    assert set(PAPERMILL_NAMES) <= set(NAMES) and set(NBCONVERT_NAMES) <= set(NAMES)


@pytest.mark.clients
@pytest.mark.parametrize("name", PAPERMILL_NAMES)
def test_notebook_runs_under_papermill(name, copy, tmp_path):
    """papermill's own engine, as its command line (`papermill in.ipynb out.ipynb`)
    runs it, called here in-process: the command line would only add a Python start
    and papermill's imports per notebook. It raises where the command exits 1."""
    import papermill

    out = tmp_path / name
    try:
        papermill.execute_notebook(
            copy / name, out, kernel_name="python3", cwd=copy, progress_bar=False
        )
    except papermill.PapermillExecutionError as err:
        pytest.fail(f"papermill stopped {name} at cell {err.cell_index + 1}: {err.ename}: "
                    f"{err.evalue}", pytrace=False)  # fmt: skip
    problems = error_outputs(out)
    assert not problems, f"{name} under papermill:\n" + "\n".join(problems)


@pytest.mark.clients
def test_notebooks_run_under_nbconvert(copy, tmp_path):
    """`jupyter nbconvert --to notebook --execute` on several notebooks at once, as a
    teacher would run a folder of lessons: exit 0, every notebook written, no error
    output in any."""
    result = subprocess.run(
        [sys.executable, "-m", "jupyter", "nbconvert", "--to", "notebook", "--execute",
         "--ExecutePreprocessor.kernel_name=python3", "--ExecutePreprocessor.timeout=600",
         f"--output-dir={tmp_path}", *(str(copy / name) for name in NBCONVERT_NAMES)],
        capture_output=True, text=True, timeout=1200,
    )  # fmt: skip
    assert result.returncode == 0, f"nbconvert exited {result.returncode}:\n{result.stderr[-3000:]}"
    problems = []
    for name in NBCONVERT_NAMES:
        out = tmp_path / name
        if not out.is_file():
            problems.append(f"{name}: nbconvert wrote no notebook")
        else:
            problems += [f"{name}, {e}" for e in error_outputs(out)]
    assert not problems, "under nbconvert:\n" + "\n".join(problems)


def test_no_cell_is_allowed_to_raise():
    """papermill ignores the `raises-exception` tag and stops there (exit 1): a
    lesson shows an error with attnlib.show_error instead."""
    tagged = [
        f"{path.relative_to(NOTEBOOKS)} cell {k}"
        for path in sorted(NOTEBOOKS.glob("**/*.ipynb"))
        for k, cell in enumerate(json.loads(path.read_text())["cells"], start=1)
        if "raises-exception" in cell.get("metadata", {}).get("tags", [])
    ]
    assert not tagged, f"cells tagged raises-exception: {tagged}"


def test_error_outputs_are_found(tmp_path):
    """The detector above reports an error output and a stderr stream (it can fail)."""
    nb = {
        "cells": [
            {"cell_type": "code", "outputs": [{"output_type": "stream", "name": "stdout",
                                               "text": "fine"}]},
            {"cell_type": "markdown", "source": "text"},
            {"cell_type": "code", "outputs": [{"output_type": "error", "ename": "ValueError",
                                               "evalue": "bad", "traceback": []}]},
            {"cell_type": "code", "outputs": [{"output_type": "stream", "name": "stderr",
                                               "text": ["Warn", "ing\n"]}]},
        ]
    }  # fmt: skip
    path = tmp_path / "nb.ipynb"
    path.write_text(json.dumps(nb))
    assert error_outputs(path) == ["cell 3: ValueError: bad", "cell 4: stderr: Warning"]
