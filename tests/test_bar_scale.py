"""attnlib.pictures.bar_scale: a colorbar's scale, as matplotlib draws it, without an Axis."""

from __future__ import annotations

import io

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.cm import ScalarMappable
from matplotlib.colors import Normalize
from matplotlib.figure import Figure

from attnlib.pictures.bar_scale import bar_ticks, tick_labels
from attnlib.pictures.heatmap import _STEPS, heatmap


def matplotlib_scale(low: float, high: float, height_in: float, label_pt: float):
    """The ticks and labels that matplotlib's own colorbar shows for these limits."""
    fig = Figure(figsize=(2, height_in + 1), dpi=100)
    cax = fig.add_axes((0.3, 0.5 / (height_in + 1), 0.1, height_in / (height_in + 1)))
    bar = fig.colorbar(ScalarMappable(Normalize(low, high), "RdBu_r"), cax=cax)
    bar.ax.tick_params(labelsize=label_pt)
    fig.canvas.draw()
    slack = 1e-10 * (high - low)
    locs = bar.ax.yaxis.get_majorticklocs()
    texts = [label.get_text() for label in bar.ax.yaxis.get_majorticklabels()]
    shown = [
        (loc, text)
        for loc, text in zip(locs, texts, strict=True)
        if low - slack <= loc <= high + slack
    ]
    offset = bar.ax.yaxis.get_major_formatter().get_offset()  # "+1e2" written apart, if any
    return [loc for loc, _ in shown], [text for _, text in shown], offset


SYMMETRIC = sorted({round(step * 10.0**power, 6) for power in (-2, -1, 0, 1, 2) for step in _STEPS})


@pytest.mark.parametrize("limit", SYMMETRIC)
@pytest.mark.parametrize("height_in", [1.2, 3.0, 4.5])
def test_the_scale_of_a_symmetric_limit_is_matplotlibs(limit, height_in):
    ticks, labels, offset = matplotlib_scale(-limit, limit, height_in, 9.0)
    assert not offset
    ours = bar_ticks(-limit, limit, height_in * 72, 9.0)
    np.testing.assert_allclose(ours, ticks, rtol=0, atol=1e-9 * limit)
    assert tick_labels(ours) == labels


@settings(max_examples=60, deadline=None)
@given(
    low=st.floats(-500, 500, allow_nan=False),
    span=st.floats(0.01, 800),
    height_in=st.floats(1.0, 5.0),
)
def test_the_scale_of_any_limits_is_matplotlibs(low, span, height_in):
    high = low + span
    ticks, labels, offset = matplotlib_scale(low, high, height_in, 9.0)
    ours = bar_ticks(low, high, height_in * 72, 9.0)
    np.testing.assert_allclose(ours, ticks, rtol=0, atol=1e-9 * max(abs(low), abs(high)))
    texts = tick_labels(ours)
    if not offset:
        assert texts == labels
    else:  # matplotlib writes "+1e2" once and the ticks less it; we write each number whole
        values = [float(text.replace("\u2212", "-")) for text in texts]
        np.testing.assert_allclose(values, ours, rtol=0, atol=0.51 * np.diff(ours).min())


def test_labels_have_one_number_of_decimals_a_true_minus_and_no_minus_zero():
    assert tick_labels([-1.0, -0.5, 0.0, 0.5, 1.0]) == [
        "\u22121.0",
        "\u22120.5",
        "0.0",
        "0.5",
        "1.0",
    ]
    assert tick_labels([-20.0, 0.0, 20.0]) == ["\u221220", "0", "20"]
    assert tick_labels([-0.0]) == ["0"]
    assert tick_labels([0.0, 0.1 + 0.2]) == ["0.0", "0.3"]  # no float noise
    assert tick_labels([]) == []


def draw(kind, matrix, fmt="png"):
    fig = Figure(figsize=(4, 3), dpi=100)
    FigureCanvasAgg(fig)
    h = heatmap(fig.add_subplot(), np.asarray(matrix, dtype=float), kind=kind)
    out = io.BytesIO()
    fig.savefig(out, format=fmt)
    return fig, h, out.getvalue()


def test_the_strip_is_the_same_for_any_limits_and_the_scale_follows_them():
    _, h, _ = draw("diverging", [[0.3, -1.7], [1.0, 0.2]])
    bar = h.colorbar
    assert bar.mappable.get_clim() == (0.0, 1.0) and bar.cmap.name == h.image.cmap.name
    assert len(bar.ax.yaxis.get_major_ticks()) == 0  # matplotlib's ticks are off
    values, labels = h.scale.ticks()
    assert (values.min(), values.max()) == (-2.0, 2.0) and labels[0].startswith("\u22122")
    h.update([[30.0, -1.0], [1.0, 2.0]])
    values, labels = h.scale.ticks()
    assert (values.min(), values.max()) == (-30.0, 30.0) and labels[-1] == "30"
    assert h.colorbar.mappable.get_clim() == (0.0, 1.0)  # the strip did not change


def test_weights_keep_their_fixed_scale():
    _, h, _ = draw("weights", [[0.2, 0.8], [0.5, 0.5]])
    values, labels = h.scale.ticks()  # the data run from 0.2 to 0.8; the scale from 0 to 1
    assert values.tolist() == [0.0, 0.25, 0.5, 0.75, 1.0]
    assert labels == ["0.00", "0.25", "0.50", "0.75", "1.00"]
    assert not h.colorbar_moves


def test_the_numbers_are_drawn_beside_their_ticks():
    fig, h, _ = draw("diverging", [[0.3, -1.7], [1.0, 0.2]])
    pixels = np.asarray(fig.canvas.buffer_rgba())[::-1, :, :3]  # row 0 at the bottom
    box = h.colorbar.ax.bbox
    renderer = fig.canvas.get_renderer()
    extent = h.scale.get_window_extent(renderer)
    right = pixels[:, int(np.ceil(box.x1)) + 1 : int(np.ceil(extent.x1)) + 1]
    values, _ = h.scale.ticks()
    low, high = h.image.get_clim()
    for value in values:  # ink (dark pixels) on each tick's row, right of the strip
        row = round(box.y0 + (value - low) / (high - low) * box.height)
        assert (right[row - 2 : row + 3] < 100).any(), f"no tick or number at {value}"
    between = round(box.y0 + (values[:2].mean() - low) / (high - low) * box.height)
    assert not (right[between] < 100).any()  # halfway between two ticks: nothing
    assert extent.x1 > box.x1 + 10  # the numbers count in a tight bounding box


@pytest.mark.parametrize("fmt", ["svg", "pdf"])
def test_vector_files_get_real_text(fmt):
    _, h, data = draw("diverging", [[0.3, -1.7], [1.0, 0.2]], fmt)
    assert data.startswith(b"%PDF" if fmt == "pdf" else b"<?xml")
    if fmt == "svg":  # matplotlib's SVG writes each text's glyphs under a comment of it
        for label in h.scale.ticks()[1]:
            assert f"<!-- {label} -->".encode() in data


def test_a_scale_seen_before_is_pasted_and_the_cache_is_bounded(monkeypatch):
    from attnlib.pictures import bar_scale

    fig, h, _ = draw("diverging", [[0.3, -1.7], [1.0, 0.2]])
    built = []
    original = bar_scale.BarScale._layer
    monkeypatch.setattr(
        bar_scale.BarScale, "_layer", lambda self, r: (built.append(1), original(self, r))[1]
    )
    monkeypatch.setattr(bar_scale, "MAX_LAYERS", 3)
    renderer = fig.canvas.get_renderer()
    for top in (2.0, 2.0, 3.0, 2.0, 4.0, 5.0, 6.0):
        h.update([[top, -1.0], [1.0, 0.2]])
        h.scale.draw(renderer)
    # the limits ±2 were drawn by savefig, so 2 is pasted three times; 3, 4, 5 and 6 are
    # built, and the oldest go as the cache holds 3
    assert len(built) == 4 and len(h.scale._layers) == 3
    assert [key[0] for key in h.scale._layers] == [(-4.0, 4.0), (-5.0, 5.0), (-6.0, 6.0)]
