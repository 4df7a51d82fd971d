"""Fixture notebooks the browser tests write to a temporary folder.

One notebook holds a working stand-in explorer (the harness is proven without the
real notebooks) and one broken thing for each detector (each detector can fail).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path


def write_notebook(path: Path, cells: Sequence[str | tuple[str, list[str]]]) -> Path:
    """Write a notebook of code cells (source, or (source, tags)) without outputs."""
    import nbformat

    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {
        "name": "python3",
        "display_name": "Python 3",
        "language": "python",
    }
    for cell in cells:
        source, tags = (cell, []) if isinstance(cell, str) else cell
        code = nbformat.v4.new_code_cell(source)
        if tags:
            code.metadata["tags"] = tags
        nb.cells.append(code)
    nbformat.write(nb, path)
    return path


# A stand-in for attnlib's explorers: a box of IntSliders and one Image whose
# PNG is redrawn in place on every change. `wired=False` leaves the sliders
# connected to nothing, the bug the change detector must catch.
_FIXTURE_EXPLORER = """
import io
import ipywidgets as widgets
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np

class FixtureExplorer(widgets.VBox):
    def __init__(self, n=8, wired=True):
        self.n = widgets.IntSlider(value=n, min=2, max=32, description="n")
        self.seed = widgets.IntSlider(value=0, min=0, max=50, description="seed")
        self.image = widgets.Image(format="png")
        self.fig, ax = plt.subplots(figsize=(4, 4), dpi=72)
        self.artist = ax.imshow(np.zeros((n, n)), vmin=0, vmax=1, cmap="viridis")
        plt.close(self.fig)
        super().__init__([self.n, self.seed, self.image])
        if wired:
            for s in (self.n, self.seed):
                s.observe(lambda change: self.redraw(), names="value")
        self.redraw()

    def redraw(self):
        n, rng = self.n.value, np.random.default_rng(self.seed.value)
        scores = rng.normal(size=(n, n))
        weights = np.exp(scores) / np.exp(scores).sum(axis=1, keepdims=True)
        self.artist.set_data(weights)
        self.artist.set_extent((-0.5, n - 0.5, n - 0.5, -0.5))
        buf = io.BytesIO()
        self.fig.savefig(buf, format="png")
        self.image.value = buf.getvalue()
"""


def fixture_broken(path: Path) -> Path:
    """A working explorer, then each defect that a detector must report, in one
    notebook (one kernel run). The raising cell is last: Run All stops there."""
    return write_notebook(
        path,
        [
            _FIXTURE_EXPLORER,
            "FixtureExplorer()  # works: must pass",
            "FixtureExplorer(wired=False)  # sliders move, picture never changes",
            # attnlib's own explorer whose kernel never sends a new seed's numbers: the
            # page draws n and d_k itself, but a seed must come from the kernel
            "import attnlib\n"
            "dead = attnlib.explorer(n=8)\n"
            "dead._refresh_data = lambda controls: None\n"
            "dead",
            # ... and one whose kernel raises on a new seed: the explorer shows the error
            # under its picture and keeps the old numbers
            "failing = attnlib.explorer(n=8)\nfailing.numbers = lambda *a, **k: 1 / 0\nfailing",
            # what a widget looks like when the front end cannot render it
            "from IPython.display import display\n"
            "display({'text/plain': 'IntSlider(value=4, description=\"d_k\", max=8, min=1)'},"
            " raw=True)",
            # the front end logs an error (JupyterLab runs JavaScript in trusted outputs)
            "from IPython.display import Javascript\n"
            "display(Javascript(\"console.error('deliberate console error for the detector')\"))",
            # a picture from the internet (the page must not ask anything off this machine)
            "from IPython.display import HTML\n"
            'display(HTML(\'<img src="https://example.invalid/pixel.png" alt="offline?">\'))',
            # text with a merge conflict left in it
            "from IPython.display import Markdown\n"
            "display(Markdown('<<<<<<< local\\nold words\\n=======\\nnew words\\n>>>>>>> remote'))",
            # a figure title in a font without Chinese: matplotlib draws boxes and warns
            "import matplotlib.pyplot as plt\n"
            "fig, ax = plt.subplots()\n"
            "ax.set_title('\u6ce8\u610f\u529b', family='DejaVu Sans')\n"
            "fig.canvas.draw()\n"
            "plt.close(fig)",
            # text on the page in a character that no font has (private use)
            "display(HTML('<p>no font draws this: \\U000f0000</p>'))",
            "raise ValueError('deliberate error for the detector')",
        ],
    )


def fixture_answers(path: Path) -> Path:
    """Answers that Run All must not show, given away in the three ways the detector
    knows: one closed as it should be whose line is also printed in plain view, and one
    open section (which the notebook's sources do not account for)."""
    return write_notebook(
        path,
        [
            "import attnlib\nwith attnlib.answer():\n    print('alpha_12 = 0.4223 exactly')",
            "print('as computed above, alpha_12 = 0.4223 exactly')",
            "from IPython.display import HTML\n"
            'HTML(\'<details class="attnlib-answer" open><summary>Answer</summary>'
            '<pre class="attnlib-answer-text">the count is 21</pre></details>\')',
        ],
    )
