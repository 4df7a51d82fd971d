"""attnlib.pictures.token_labels: a heatmap's token names where matplotlib would draw them."""

from __future__ import annotations

import io

import numpy as np
import pytest
from matplotlib.axis import Axis
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from attnlib import set_language, toy_example
from attnlib.pictures.fonts import figure_fonts
from attnlib.pictures.glyphs import text_bitmap
from attnlib.pictures.heatmap import heatmap
from attnlib.pictures.token_labels import TokenLabels

LONG = ["the", "cat", "because", "it", "was", "warm", "and", "extraordinarily"]


def figure(n: int, labels, size=(6.0, 6.0)):
    fig = Figure(figsize=size, dpi=100)
    FigureCanvasAgg(fig)
    ax = fig.add_axes((0.3, 0.35, 0.5, 0.5))  # room for every name in the figure
    h = heatmap(
        ax, np.eye(n), row_labels=labels, col_labels=labels, xlabel="key j", ylabel="query i"
    )
    return fig, h


def ink(fig) -> np.ndarray:
    fig.canvas.draw()
    return np.asarray(fig.canvas.buffer_rgba())[..., :3].min(axis=-1) < 110  # dark pixels


def as_matplotlib_draws_it(h) -> None:
    """Hide our names and let matplotlib draw its own tick labels and axis names."""
    h.labels.set_visible(False)
    h.ax.xaxis.set_visible(True)
    h.ax.yaxis.set_visible(True)


def near(a: np.ndarray, b: np.ndarray, reach: int) -> float:
    """The share of a's ink within `reach` pixels of b's ink."""
    grown = np.zeros_like(b)
    for dy in range(-reach, reach + 1):
        for dx in range(-reach, reach + 1):
            grown |= np.roll(np.roll(b, dy, axis=0), dx, axis=1)
    return (a & grown).sum() / max(a.sum(), 1)


@pytest.mark.parametrize(
    ("n", "labels", "turned"),
    [(6, list(toy_example(6).tokens), False), (8, LONG, True)],
    ids=["upright", "turned"],
)
def test_the_names_and_axis_names_are_where_matplotlib_draws_them(n, labels, turned):
    ours, h = figure(n, labels)
    assert bool(h.labels.cols.rotation) is turned
    theirs, h2 = figure(n, labels)
    as_matplotlib_draws_it(h2)
    a, b = ink(ours), ink(theirs)
    box, height = h.ax.bbox, ours.bbox.height
    top, bottom = round(height - box.y1), round(height - box.y0)  # the Axes, in pixel rows
    regions = {  # the margins, where the names are; the cells are the same in both
        "row names": (slice(top, bottom), slice(0, round(box.x0))),
        "column names": (slice(bottom, None), slice(None)),
    }
    for name, region in regions.items():
        ours_ink, their_ink = a[region], b[region]
        assert ours_ink.sum() > 0.5 * their_ink.sum(), name
        # every dark pixel of ours within 2 px of one of matplotlib's, and the other way round
        assert near(ours_ink, their_ink, 2) > 0.97, name
        assert near(their_ink, ours_ink, 2) > 0.97, name


def test_matplotlib_keeps_the_ticks_and_draws_no_axis_for_names(monkeypatch):
    fig, h = figure(10, [f"t{i}" for i in range(10)])
    assert [t.get_text() for t in h.ax.get_xticklabels()] == [f"t{i}" for i in range(10)]
    assert not h.ax.xaxis.get_visible() and not h.ax.yaxis.get_visible()
    drawn = []
    original = Axis.draw
    monkeypatch.setattr(Axis, "draw", lambda self, r: (drawn.append(self), original(self, r)))
    fig.canvas.draw()
    assert not [axis for axis in drawn if axis.axes is h.ax and axis.get_visible()]
    assert h.labels.texts() == [f"t{i}" for i in range(10)] * 2


def test_a_numbered_axis_is_left_to_matplotlib():
    fig = Figure()
    FigureCanvasAgg(fig)
    h = heatmap(fig.add_subplot(), np.ones((3, 4)), row_labels=["a", "b", "c"])
    assert h.labels.rows is not None and h.labels.cols is None
    assert h.ax.xaxis.get_visible() and not h.ax.yaxis.get_visible()
    h.update(heatmap.__globals__["Panel"](matrix=np.ones((3, 4))))  # labels gone: numbered
    assert h.ax.yaxis.get_visible() and h.labels.rows is None


def test_a_tight_box_keeps_every_name():
    fig, _ = figure(8, LONG)
    out = io.BytesIO()
    fig.savefig(out, format="png", bbox_inches="tight")
    theirs, h2 = figure(8, LONG)
    as_matplotlib_draws_it(h2)
    out2 = io.BytesIO()
    theirs.savefig(out2, format="png", bbox_inches="tight")
    from PIL import Image

    ours_size = Image.open(io.BytesIO(out.getvalue())).size
    their_size = Image.open(io.BytesIO(out2.getvalue())).size
    assert abs(ours_size[0] - their_size[0]) <= 3 and abs(ours_size[1] - their_size[1]) <= 3


def test_vector_files_get_the_names_as_text():
    fig, _ = figure(4, ["alpha", "beta", "gamma", "delta"])
    out = io.BytesIO()
    fig.savefig(out, format="svg")
    for name in ("alpha", "beta", "gamma", "delta", "key j", "query i"):
        assert f"<!-- {name} -->".encode() in out.getvalue()
    fig.savefig(io.BytesIO(), format="pdf")  # and a PDF draws without error


def test_chinese_names_take_the_figure_font():
    try:
        set_language("zh")
        with figure_fonts():
            fig, h = figure(3, ["注意", "力", "机制"])
    finally:
        set_language("en")
    assert "Noto Sans SC attnlib subset" in h.labels.rows.families
    mask, _ = text_bitmap("注意", 14.0, h.labels.rows.families)
    tofu, _ = text_bitmap("注意", 14.0, ("DejaVu Sans",))  # DejaVu has no such glyphs
    assert mask.shape != tofu.shape or (mask != tofu).any()
    assert ink(fig).any()


def test_the_names_are_an_artist_of_their_axes():
    _, h = figure(3, ["a", "b", "c"])
    assert isinstance(h.labels, TokenLabels) and h.labels in h.ax.artists
