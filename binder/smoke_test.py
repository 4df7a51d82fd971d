"""The image's smoke test: run notebook 00 (English and Chinese) from a fresh kernel, as a
student's first login would, and fail the build if a cell raises.

binder/postBuild runs it inside the image, after attnlib is installed, with the image's
own Python and kernel: an image whose attnlib, packages or fonts cannot run the first
lesson is never pushed (repo2docker stops at a failing postBuild). It also runs here,
in the test install, the same way (tests/test_deploy_scripts.py):

    python binder/smoke_test.py            # notebook 00, en and zh
    python binder/smoke_test.py PATH ...   # other notebooks

The notebooks are executed in memory and not written back: the image keeps the course's
files as they were committed. Exit status 1 names the notebook and the cell that raised.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError, CellTimeoutError

ROOT = Path(__file__).resolve().parent.parent
START_PAGES = ("notebooks/00_start_here.ipynb", "notebooks/zh/00_start_here.ipynb")
CELL_TIMEOUT_S = 600  # a cell of 00 takes seconds; a hung kernel must still end the build


def run(path: Path) -> str | None:
    """Execute the notebook at `path` in its own folder; None if every cell ran, else what
    went wrong."""
    nb = nbformat.read(path, as_version=4)
    client = NotebookClient(
        nb,
        timeout=CELL_TIMEOUT_S,
        kernel_name="python3",  # the image's (or this venv's) own ipykernel
        resources={"metadata": {"path": str(path.parent)}},  # cwd, as JupyterLab sets it
    )
    try:
        client.execute()
    except (CellExecutionError, CellTimeoutError) as error:
        return str(error)
    return None


def main(argv: list[str]) -> int:
    paths = [Path(p) for p in argv] or [ROOT / p for p in START_PAGES]
    failed = 0
    for path in paths:
        start = time.monotonic()
        problem = run(path)
        took = time.monotonic() - start
        if problem is None:
            print(f"smoke test: {path} ran to the end in {took:.0f} s")
        else:
            failed += 1
            print(f"smoke test: {path} FAILED after {took:.0f} s:\n{problem}", file=sys.stderr)
    if failed:
        print(
            f"smoke test: {failed} of {len(paths)} notebooks failed: this image would break "
            "the first lesson, so the build stops",
            file=sys.stderr,
        )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
