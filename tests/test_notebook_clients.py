"""Every notebook runs to the end under the tools teachers use: papermill and
``jupyter nbconvert --execute``. Both must exit 0 and leave no error output.

nbval (run on notebooks/ by the default test selection) checks the stored
outputs; these tests check that nothing stops a run, including cells that raise
on purpose, which papermill does not excuse. Marked ``clients``: deselect with
``-m "not clients"`` when iterating on something else.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
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


def papermill(source: Path, out: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "papermill", str(source), str(out), "--kernel", "python3",
         "--cwd", str(source.parent), "--no-progress-bar"],
        capture_output=True, text=True, timeout=600,
    )  # fmt: skip


def nbconvert(source: Path, out: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "jupyter", "nbconvert", "--to", "notebook", "--execute",
         "--ExecutePreprocessor.kernel_name=python3", "--ExecutePreprocessor.timeout=600",
         f"--output-dir={out.parent}", f"--output={out.stem}", str(source)],
        capture_output=True, text=True, timeout=600,
    )  # fmt: skip


@pytest.fixture
def copy(tmp_path):
    """notebooks/ copied, so that a notebook that writes a file writes it there."""
    root = tmp_path / "notebooks"
    shutil.copytree(NOTEBOOKS, root, ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    return root


@pytest.mark.clients
@pytest.mark.parametrize("name", NAMES)
def test_notebook_runs_under_papermill_and_nbconvert(name, copy, tmp_path):
    source = copy / name
    outs = {"papermill": tmp_path / "papermill.ipynb", "nbconvert": tmp_path / "nbconvert.ipynb"}
    # the two runs are independent kernels: side by side they take the time of one
    with ThreadPoolExecutor(2) as pool:
        runs = {
            tool: pool.submit(run, source, outs[tool])
            for tool, run in (("papermill", papermill), ("nbconvert", nbconvert))
        }
        results = {tool: future.result() for tool, future in runs.items()}
    problems = []
    for tool, result in results.items():
        if result.returncode != 0:
            problems.append(f"{tool} exited {result.returncode}:\n{result.stderr[-2000:]}")
        elif not outs[tool].is_file():
            problems.append(f"{tool} wrote no notebook")
        else:
            problems += [f"{tool}, {e}" for e in error_outputs(outs[tool])]
    assert not problems, f"{name}:\n" + "\n".join(problems)


def test_no_cell_is_allowed_to_raise():
    """papermill ignores the `raises-exception` tag and stops there (exit 1): a
    lesson shows an error with attnlib.show_error instead."""
    tagged = [
        f"{name} cell {k}"
        for name in NAMES
        for k, cell in enumerate(json.loads((NOTEBOOKS / name).read_text())["cells"], start=1)
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
