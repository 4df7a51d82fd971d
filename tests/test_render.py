"""attnlib.pictures.redraw: the three redraw paths, the layout cache and the PNG encoder."""

from __future__ import annotations

import io

import numpy as np
import pytest
from PIL import Image

from attnlib import self_attention, toy_example
from attnlib.pictures import redraw
from attnlib.pictures.plotting import attention_panels, plot_attention
from attnlib.pictures.redraw import FastCanvas, encode_png


def panels(n, seed=0, d_k=4):
    ex = toy_example(n, d_k=d_k, seed=seed)
    return attention_panels(self_attention(*ex[1:]), ex.tokens)


def decoded(png: bytes) -> np.ndarray:
    return np.asarray(Image.open(io.BytesIO(png)).convert("RGBA"))


def test_encode_png_is_lossless():
    rng = np.random.default_rng(0)
    picture = rng.integers(0, 256, size=(37, 53, 4), dtype=np.uint8)
    picture[..., 3] = 255
    np.testing.assert_array_equal(decoded(encode_png(picture)), picture)
    flat = np.full((20, 30, 4), 200, dtype=np.uint8)
    assert len(encode_png(flat)) < 200  # rows equal to the row above pack to almost nothing


def test_png_pixels_do_not_depend_on_the_deflate_installed(monkeypatch):
    if redraw._fast_zlib is None:
        pytest.skip("isal is not installed (pip install isal): nothing to compare zlib with")
    canvas = FastCanvas()
    canvas.show(panels(6, seed=1))
    fast = canvas.png()
    monkeypatch.setattr(redraw, "_fast_zlib", None)  # the standard library's zlib
    standard = canvas.png()
    assert fast != standard  # two encoders indeed
    np.testing.assert_array_equal(decoded(fast), decoded(standard))
    assert len(fast) < 1.1 * len(standard)  # about as small: what a slider move sends
    shape, packed = next(iter(canvas._backgrounds.values()))
    assert len(redraw.inflate(packed)) == np.prod(shape)  # zlib reads isal's backgrounds


def test_each_path_shows_what_a_static_figure_of_the_same_panels_shows():
    canvas = FastCanvas()
    for n, seed in [(5, 0), (5, 1), (7, 1), (5, 2), (7, 3)]:  # full, fast, full, layout, layout
        png = canvas.show(panels(n, seed))
        fig = plot_attention(
            self_attention(*toy_example(n, seed=seed)[1:]), toy_example(n, seed=seed).tokens
        )
        fig.canvas.draw()
        np.testing.assert_array_equal(decoded(png), np.asarray(fig.canvas.buffer_rgba()))
    assert (canvas.full_redraws, canvas.fast_redraws, canvas.layout_redraws) == (2, 1, 2)


def test_the_layout_cache_is_bounded_and_small(monkeypatch):
    monkeypatch.setattr(redraw, "MAX_LAYOUTS", 3)
    canvas = FastCanvas()
    for n in (2, 3, 4, 5, 6):
        canvas.show(panels(n))
    assert len(canvas._backgrounds) == 3
    assert sum(len(packed) for _, packed in canvas._backgrounds.values()) < 3 * 300_000
    canvas.show(panels(2))  # evicted: drawn in full again, and right
    assert canvas.full_redraws == 6


def test_the_figure_is_the_same_object_through_every_path():
    canvas = FastCanvas()
    figure = canvas.figure
    for n in (4, 4, 9, 4):
        canvas.show(panels(n, seed=n))
    assert canvas.figure is figure and len(figure.axes) == 4


def test_new_limits_on_the_fast_path_draw_no_matplotlib_axis_and_are_right(monkeypatch):
    # the colorbar's strip is the same for any limits and its scale is ours: a move whose
    # limits are new neither rebuilds a Colorbar nor draws an Axis (10-25 ms each time)
    from matplotlib.axis import Axis
    from matplotlib.colorbar import Colorbar

    canvas = FastCanvas()
    canvas.show(panels(6, seed=0))
    work, watching = [], [False]
    for cls, name in ((Colorbar, "update_normal"), (Axis, "draw")):
        original = getattr(cls, name)

        def watched(*args, _original=original, _name=name, **kwargs):
            if watching[0]:
                work.append(_name)
            return _original(*args, **kwargs)

        monkeypatch.setattr(cls, name, watched)
    limits = set()
    for seed in (1, 2, 3):  # the scores' colour limits change from seed to seed
        watching[0] = True
        png = canvas.show(panels(6, seed=seed))
        watching[0] = False
        limits.add(canvas.heatmaps[0].image.get_clim())
        ex = toy_example(6, seed=seed)
        fig = plot_attention(self_attention(*ex[1:]), ex.tokens)
        fig.canvas.draw()
        np.testing.assert_array_equal(decoded(png), np.asarray(fig.canvas.buffer_rgba()))
    assert len(limits) == 3 and canvas.fast_redraws == 3
    assert not work, f"a slider move rebuilt or drew matplotlib's axes: {work}"
