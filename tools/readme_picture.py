"""The READMEs' picture of an explorer: notebook 05's main explorer as stored.

    python tools/readme_picture.py    # write docs/images/explorer.png and explorer.zh.png

The picture is the PNG that the explorer's cell stores for places where no widgets
run (GitHub, nbconvert), so it is always one the course really draws; each edition
takes its own notebook's (the Chinese one has Chinese titles and axis names).
tests/test_readme.py fails when a stored picture and its file here differ: after
`make notebooks` has drawn a new one, run this again.
"""

from __future__ import annotations

import base64
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "attnlib" / "i18n"))  # the records only: no attnlib import
from languages import EDITIONS  # noqa: E402

NOTEBOOK = "05_weighted_sum.ipynb"
CELL = "attnlib.explorer(n=6, d_k=4, seed=0)"  # the cell's first line


def picture_file(edition: str) -> Path:
    suffix = "" if edition == "en" else f".{edition}"
    return ROOT / "docs" / "images" / f"explorer{suffix}.png"


def stored_picture(edition: str) -> bytes:
    """The PNG that notebook 05's explorer cell stores, in `edition`."""
    path = ROOT / EDITIONS[edition].notebooks / NOTEBOOK
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    found = [
        output["data"]["image/png"]
        for cell in cells
        if cell["cell_type"] == "code" and "".join(cell["source"]).startswith(CELL)
        for output in cell.get("outputs", [])
        if "image/png" in output.get("data", {})
    ]
    if len(found) != 1:
        raise ValueError(f"{path}: expected one stored picture from {CELL!r}, found {len(found)}")
    return base64.b64decode(found[0])


def main() -> int:
    for edition in EDITIONS:
        path = picture_file(edition)
        path.write_bytes(stored_picture(edition))
        print(f"wrote {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
