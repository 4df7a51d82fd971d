"""attnlib.plotting: what the heatmaps hold, how they are coloured and labelled."""

from __future__ import annotations

import io

import matplotlib.pyplot as plt
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from PIL import Image

import attnlib
from attnlib import self_attention, toy_example
from attnlib.plotting import (
    CellValues,
    Panel,
    StaticFigure,
    format_value,
    heatmap,
    plot_attention,
    plot_embedding,
    plot_qkv,
    plot_scaling,
    symmetric_limit,
    update_heatmap,
)


def example(n=6, d_k=4, seed=0):
    ex = toy_example(n, d_k=d_k, seed=seed)
    return ex, self_attention(*ex[1:])


def render(fig) -> np.ndarray:
    FigureCanvasAgg(fig) if not isinstance(fig.canvas, FigureCanvasAgg) else None
    fig.canvas.draw()
    return np.asarray(fig.canvas.buffer_rgba()).copy()


def test_heatmap_holds_the_matrix_with_labels_and_kind_limits():
    ex, att = example()
    fig = Figure()
    image = heatmap(
        fig.add_subplot(),
        att.scores,
        row_labels=ex.tokens,
        col_labels=ex.tokens,
        title="scores",
        xlabel="key j",
        ylabel="query i",
    )
    np.testing.assert_array_equal(image.get_array(), att.scores)
    low, high = image.get_clim()
    assert low == -high  # symmetric around 0
    assert np.abs(att.scores).max() <= high <= 1.5 * np.abs(att.scores).max()
    assert image.get_cmap().name == "RdBu_r"
    ax = image.axes
    assert [t.get_text() for t in ax.get_yticklabels()] == list(ex.tokens)
    assert [t.get_text() for t in ax.get_xticklabels()] == list(ex.tokens)
    assert (ax.get_title(), ax.get_xlabel(), ax.get_ylabel()) == ("scores", "key j", "query i")
    weights = heatmap(Figure().add_subplot(), att.weights, kind="weights")
    assert weights.get_clim() == (0.0, 1.0) and weights.get_cmap().name == "viridis"


def test_heatmap_rejects_bad_arguments():
    ax = Figure().add_subplot()
    with pytest.raises(ValueError, match="row_labels has 2 labels but matrix has 3"):
        heatmap(ax, np.zeros((3, 3)), row_labels=["a", "b"])
    with pytest.raises(ValueError, match="kind must be one of"):
        heatmap(ax, np.zeros((3, 3)), kind="rainbow")
    with pytest.raises(ValueError, match="diagonal=True needs a square matrix"):
        heatmap(ax, np.zeros((3, 4)), diagonal=True)
    with pytest.raises(TypeError, match="matrix"):
        heatmap(ax, "not a matrix")


def test_cell_values_only_when_small_and_they_are_drawn():
    small = heatmap(Figure().add_subplot(), np.eye(8), kind="weights")
    big = heatmap(Figure().add_subplot(), np.eye(9), kind="weights")
    assert any(isinstance(a, CellValues) for a in small.axes.artists)
    assert not any(isinstance(a, CellValues) for a in big.axes.artists)
    with_values = Figure(dpi=50)
    heatmap(with_values.add_subplot(), np.eye(3) * 0.5, kind="weights", values=True)
    without = Figure(dpi=50)
    heatmap(without.add_subplot(), np.eye(3) * 0.5, kind="weights", values=False)
    assert (render(with_values) != render(without)).any()


def test_cell_value_text_is_light_on_dark_cells_and_dark_on_light_cells():
    fig = Figure(figsize=(2, 1), dpi=100)
    ax = fig.add_axes((0, 0, 1, 1))
    image = heatmap(ax, [[0.0, 1.0]], kind="weights", values=True, colorbar=False)
    ax.set_axis_off()
    buffer = render(fig)[..., :3].astype(int)  # (H, W, 3)
    left, right = buffer[:, :100], buffer[:, 100:]
    dark_cell, light_cell = np.array(image.cmap(0.0)[:3]) * 255, np.array(image.cmap(1.0)[:3]) * 255
    # text pixels are those far from the cell colour: brighter on the dark cell, darker on the light
    assert (left.sum(-1) > dark_cell.sum() + 200).any()
    assert (right.sum(-1) < light_cell.sum() - 200).any()


def test_diagonal_outline_is_added():
    image = heatmap(Figure().add_subplot(), np.zeros((4, 4)), diagonal=True)
    assert len(image.axes.patches) == 2
    assert len(image.axes.patches[0].get_path().vertices) == 4 * 5


def test_update_heatmap_keeps_the_artist_and_follows_the_kind():
    image = heatmap(Figure().add_subplot(), [[0.1, -0.2], [0.3, 0.0]])
    update_heatmap(image, [[5.0, -1.0], [0.0, 0.0]])
    np.testing.assert_array_equal(image.get_array(), [[5.0, -1.0], [0.0, 0.0]])
    assert image.get_clim() == (-5.0, 5.0)
    with pytest.raises(ValueError, match="shape"):
        update_heatmap(image, np.zeros((3, 3)))


@given(st.floats(min_value=1e-6, max_value=1e6))
def test_symmetric_limit_is_a_nice_number_just_above_the_data(top):
    limit = symmetric_limit([[top, -top / 2]])
    assert limit >= top
    assert limit <= 1.5 * top  # the steps are at most 1.5 apart
    mantissa = limit / 10 ** np.floor(np.log10(limit) + 1e-12)
    assert min(abs(mantissa - s) for s in (1, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10)) < 1e-9


def test_format_value():
    assert [format_value(v) for v in (0.254, -1.3, 12.345, -150.2)] == [
        "0.25",
        "−1.30",
        "12.3",
        "−150",
    ]


def test_plot_attention_is_the_two_panel_picture():
    ex, att = example(n=6)
    before = plt.get_fignums()
    fig = plot_attention(att, ex.tokens)
    assert plt.get_fignums() == before  # not registered with pyplot: shown once, inline
    assert isinstance(fig, StaticFigure)
    scores_ax, _, weights_ax, _ = fig.axes
    np.testing.assert_array_equal(scores_ax.images[0].get_array(), att.scores)
    np.testing.assert_array_equal(weights_ax.images[0].get_array(), att.weights)
    for ax in (scores_ax, weights_ax):
        assert "(6 × 6)" in ax.get_title()
        assert (ax.get_ylabel(), ax.get_xlabel()) == ("query i", "key j")
    png = fig._repr_png_()
    assert png.startswith(b"\x89PNG")
    width, height = Image.open(io.BytesIO(png)).size
    assert (width, height) == fig.canvas.get_width_height()


def test_section_figures_hold_their_matrices():
    ex, att = example(n=5, d_k=3)
    (X,) = [ax.images[0].get_array() for ax in plot_embedding(ex.X, ex.tokens).axes if ax.images]
    np.testing.assert_array_equal(X, ex.X)
    drawn = [ax.images[0].get_array() for ax in plot_qkv(att, ex.tokens).axes if ax.images]
    for got, want in zip(drawn, (att.Q, att.K, att.V), strict=True):
        np.testing.assert_array_equal(got, want)
    raw = self_attention(*ex[1:], scaled=False)
    drawn = [ax.images[0].get_array() for ax in plot_scaling(raw, att, ex.tokens).axes if ax.images]
    np.testing.assert_array_equal(drawn[0], raw.weights)
    np.testing.assert_array_equal(drawn[1], att.weights)


def test_tokens_must_match_n_and_size_must_be_known():
    ex, att = example(n=4)
    with pytest.raises(ValueError, match="tokens has 3 entries but the matrices have n = 4"):
        plot_attention(att, ex.tokens[:3])
    with pytest.raises(ValueError, match="size must be one of"):
        plot_attention(att, ex.tokens, size="medium")


def test_large_figure_is_bigger_with_bigger_fonts():
    ex, att = example(n=32)
    normal, large = plot_attention(att, ex.tokens), plot_attention(att, ex.tokens, size="large")
    assert large.get_figwidth() > 1.5 * normal.get_figwidth()
    assert large.axes[0].title.get_fontsize() > 1.5 * normal.axes[0].title.get_fontsize()


def test_panel_layout_key_ignores_numbers_only():
    a = Panel(np.zeros((2, 2)), "t", ("a", "b"))
    assert a.layout_key() == Panel(np.ones((2, 2)), "t", ("a", "b")).layout_key()
    assert a.layout_key() != Panel(np.ones((2, 2)), "t", ("a", "c")).layout_key()
    assert a.layout_key() != Panel(np.ones((3, 2)), "t").layout_key()


def test_cell_values_are_real_text_in_vector_output():
    svg = {}
    for values in (True, False):
        fig = Figure()
        heatmap(fig.add_subplot(), np.eye(3) * 0.5, kind="weights", values=values)
        FigureCanvasAgg(fig)
        buffer = io.StringIO()
        fig.savefig(buffer, format="svg")
        svg[values] = buffer.getvalue()
    assert svg[True].count("<image") == svg[False].count("<image")  # no raster layer of values
    assert svg[True].count("<use") >= svg[False].count("<use") + 9 * 4  # 9 values of 4 glyphs


# --- cross-attention pictures ---


def test_plot_attention_labels_cross_attention_keys():
    queries = attnlib.toy_example(n=4, d=6, d_k=3, seed=1)
    keys = attnlib.toy_example(n=7, d=6, seed=2)
    att = attnlib.attention(queries.X, keys.X, queries.W_Q, queries.W_K, queries.W_V)
    fig = attnlib.plotting.plot_attention(att, queries.tokens, key_tokens=keys.tokens)
    scores_ax = fig.axes[0]
    assert [t.get_text() for t in scores_ax.get_xticklabels()] == list(keys.tokens)
    assert [t.get_text() for t in scores_ax.get_yticklabels()] == list(queries.tokens)
    assert "(4 × 7)" in scores_ax.get_title()
    assert not scores_ax.patches  # no diagonal: a query is not its own key here


def test_cross_attention_without_key_tokens_is_a_clear_error():
    queries = attnlib.toy_example(n=4, d=6, seed=1)
    att = attnlib.attention(queries.X, np.ones((7, 6)), queries.W_Q, queries.W_K, queries.W_V)
    with pytest.raises(ValueError, match="cross-attention needs key_tokens"):
        attnlib.plotting.plot_attention(att, queries.tokens)


# --- Q, K, V on one colour scale ---


def qkv_limits(fig) -> list[tuple[float, float]]:
    return [ax.images[0].get_clim() for ax in fig.axes[::2]]


def test_qkv_panels_share_one_symmetric_limit_that_covers_all_three():
    ex = toy_example(6, d_k=4, d_v=2, seed=0)
    att = self_attention(*ex[1:])
    tops = [np.abs(M).max() for M in (att.Q, att.K, att.V)]
    assert symmetric_limit(att.Q) != symmetric_limit(att.V)  # on their own they would differ
    fig = plot_qkv(att, ex.tokens)
    limits = qkv_limits(fig)
    assert len(set(limits)) == 1
    low, high = limits[0]
    assert low == -high == -max(symmetric_limit(M) for M in (att.Q, att.K, att.V))
    assert high >= max(tops)


def test_shared_limit_follows_new_numbers_panel_by_panel_as_the_fast_redraw_does():
    from attnlib.plotting import draw_panels, qkv_panels

    ex = toy_example(6, d_k=3, d_v=2, seed=0)
    fig = Figure()
    images = draw_panels(fig, qkv_panels(self_attention(*ex[1:]), ex.tokens))
    new = toy_example(6, d_k=3, d_v=2, seed=7)
    new_att = self_attention(*new[1:])
    for image, M in zip(images, (new_att.Q, new_att.K, new_att.V), strict=True):
        update_heatmap(image, M)  # one at a time, like attnlib._render's fast path
    fresh = plot_qkv(new_att, new.tokens)
    assert [im.get_clim() for im in images] == qkv_limits(fresh)
    assert len(set(qkv_limits(fresh))) == 1
    assert symmetric_limit(new_att.K) < fresh.axes[2].images[0].get_clim()[1]  # K alone: less


def test_panels_without_share_limit_keep_their_own_limits():
    panels = [Panel([[1.0, -0.5]], "a"), Panel([[4.0, 0.0]], "b", share_limit=False)]
    fig = attnlib.plotting.plot_panels(panels)
    assert qkv_limits(fig) == [(-1.0, 1.0), (-4.0, 4.0)]
    with pytest.raises(ValueError, match="share_limit is for kind 'diverging' only"):
        Panel([[0.5]], "w", kind="weights", share_limit=True)


def test_heatmap_keeps_a_fixed_limit_through_updates():
    image = heatmap(Figure().add_subplot(), [[0.5, -0.5]], limit=3.0)
    assert image.get_clim() == (-3.0, 3.0)
    update_heatmap(image, [[0.1, 0.2]])
    assert image.get_clim() == (-3.0, 3.0)


