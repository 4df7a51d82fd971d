"""attnlib.pictures.cell_image: an image coloured per cell draws matplotlib's own pixels."""

from __future__ import annotations

import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from attnlib.pictures import cell_image
from attnlib.pictures.cell_image import CellImage
from attnlib.pictures.heatmap import heatmap

MAPPED = cell_image._resample is not None  # matplotlib >= 3.11; before, matplotlib draws


def both_ways(fig, monkeypatch) -> tuple[np.ndarray, np.ndarray]:
    """The figure's pixels drawn through the cell map, then by matplotlib alone."""
    if not isinstance(fig.canvas, FigureCanvasAgg):
        FigureCanvasAgg(fig)
    fig.canvas.draw()
    fast = np.asarray(fig.canvas.buffer_rgba()).copy()
    with monkeypatch.context() as m:
        m.setattr(cell_image, "_resample", None)  # no map: AxesImage's own drawing
        fig.canvas.draw()
        usual = np.asarray(fig.canvas.buffer_rgba()).copy()
    return fast, usual


def images(fig) -> list[CellImage]:
    return [im for ax in fig.axes for im in ax.images]


def test_masked_cells_and_new_numbers_keep_matplotlibs_pixels(monkeypatch):
    fig = Figure(figsize=(3, 3), dpi=100)
    matrix = np.arange(20.0).reshape(4, 5) - 7
    mask = np.ones((4, 5), dtype=bool)
    mask[0, 1] = mask[3, 4] = False
    h = heatmap(fig.add_axes((0.13, 0.11, 0.71, 0.77)), matrix, mask=mask, colorbar=False)
    fast, usual = both_ways(fig, monkeypatch)
    assert np.array_equal(fast, usual)
    h.update(-matrix, mask=mask)
    fast_again, usual_again = both_ways(fig, monkeypatch)
    assert np.array_equal(fast_again, usual_again)
    assert not np.array_equal(fast, fast_again)  # the new numbers were drawn
    assert h.image.fast_draws == (2 if MAPPED else 0)


def test_cells_under_three_pixels_are_left_to_matplotlib(monkeypatch):
    # There matplotlib colours before it resamples, which the map does not copy.
    fig = Figure(figsize=(1, 1), dpi=100)
    h = heatmap(
        fig.add_axes((0, 0, 1, 1)), np.random.default_rng(0).normal(size=(50, 50)), colorbar=False
    )
    fast, usual = both_ways(fig, monkeypatch)
    assert np.array_equal(fast, usual)
    assert h.image.fast_draws == 0 and h.image.usual_draws == 2


def test_a_moved_or_resized_image_is_placed_anew(monkeypatch):
    # The placement is kept while what it follows from holds; each change below moves
    # the image, and the pixels must follow it as matplotlib's do.
    fig = Figure(figsize=(3, 3), dpi=100)
    ax = fig.add_axes((0.1, 0.1, 0.7, 0.7))
    h = heatmap(ax, np.arange(12.0).reshape(3, 4), colorbar=False)
    changes = [
        lambda: None,  # nothing: the kept placement
        lambda: ax.set_position((0.2, 0.15, 0.6, 0.6)),
        lambda: h.image.set_extent((-0.5, 3.5, 3.5, -0.5)),
        lambda: ax.set_xlim(-1.0, 3.0),
        lambda: fig.set_dpi(90),
        lambda: h.image.set_clip_box(None) or h.image.set_clip_on(False),
    ]
    placed = []
    real = CellImage._place
    monkeypatch.setattr(CellImage, "_place", lambda *a: placed.append(1) or real(*a))
    both_ways(fig, monkeypatch)
    seen = []
    for change in changes:
        placed.clear()
        change()
        fast, usual = both_ways(fig, monkeypatch)
        assert np.array_equal(fast, usual)
        seen.append(fast)
        if MAPPED:  # placed again exactly when something it follows from changed
            assert len(placed) == (change is not changes[0]), changes.index(change)
    assert not np.array_equal(seen[0], seen[1])  # the image did move
