"""Re-execute notebooks in place, each from a fresh kernel, top to bottom.

    python tools/execute_notebooks.py                 # every notebook of every edition
    python tools/execute_notebooks.py notebooks/03*.ipynb

Run it (or `make notebooks`) after changing attnlib, so that the stored
outputs, which nbval compares on every test run, match the code again.
No cell may raise: an error stops the run (a lesson shows an error on purpose
with attnlib.show_error, so that papermill and nbconvert run to the end too).

Explorer outputs are stored as their PNG snapshot and short text only: the
live-widget part of the output (and the widget state) is dropped, because
JupyterLab cannot bring a stored widget back without its kernel and would
show "Error displaying widget: model not found" instead of the picture.
Running the cell shows the live explorer again.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "attnlib" / "i18n"))  # the records only: no attnlib import
from languages import EDITIONS  # noqa: E402

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


def drop_widget_views(nb) -> None:
    """Keep the static fallback of every widget output (its picture, or its text
    for a widget without one, such as a progress bar); drop the live view.
    Also drop the per-cell execution timestamps, which change on every run and
    would make each re-execution a diff of every cell."""
    for cell in nb.cells:
        cell.get("metadata", {}).pop("execution", None)
        for output in cell.get("outputs", []):
            data = output.get("data", {})
            if WIDGET_VIEW in data and ("image/png" in data or "text/plain" in data):
                del data[WIDGET_VIEW]
    nb.metadata.pop("widgets", None)
    for cell in nb.cells:
        if "outputs" in cell:
            cell.outputs = merge_streams(cell.outputs)


def merge_streams(outputs: list) -> list:
    """Consecutive prints to the same stream as one output: how the kernel batched
    them into messages varies from run to run, and would show as a diff."""
    merged = []
    for output in outputs:
        last = merged[-1] if merged else None
        if (
            output.get("output_type") == "stream"
            and last is not None
            and last.get("output_type") == "stream"
            and last.get("name") == output.get("name")
        ):
            last["text"] = "".join(last["text"]) + "".join(output["text"])
        else:
            merged.append(output)
    return merged


def execute(path: Path) -> float:
    nb = nbformat.read(path, as_version=4)
    start = time.perf_counter()
    # kernel_name "python3" is the kernel of the interpreter running this
    # script (ipykernel's own spec), i.e. the project's .venv.
    NotebookClient(
        nb,
        timeout=300,
        kernel_name="python3",
        store_widget_state=False,
        resources={"metadata": {"path": str(path.parent)}},
    ).execute()
    drop_widget_views(nb)
    nbformat.write(nb, path)
    return time.perf_counter() - start


def main(argv: list[str]) -> int:
    paths = [Path(p) for p in argv] or [  # every edition's notebooks, English first
        path
        for language in EDITIONS.values()
        for path in sorted((ROOT / language.notebooks).glob("*.ipynb"))
    ]
    for path in paths:
        print(f"{path.name}: {execute(path):.1f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
