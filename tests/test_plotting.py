"""attnlib.plotting: what the heatmaps hold, how they are coloured and labelled."""

from __future__ import annotations

import io

import matplotlib.pyplot as plt
import numpy as np
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from PIL import Image

import attnlib
from attnlib import self_attention, toy_example
from attnlib.pictures.plotting import (
    Panel,
    StaticFigure,
    attention_panels,
    draw_panels,
    plot_attention,
    plot_embedding,
    plot_panels,
    plot_qkv,
    plot_scaling,
    qkv_panels,
    symmetric_limit,
)


def example(n=6, d_k=4, seed=0):
    ex = toy_example(n, d_k=d_k, seed=seed)
    return ex, self_attention(*ex[1:])


def render(fig) -> np.ndarray:
    FigureCanvasAgg(fig) if not isinstance(fig.canvas, FigureCanvasAgg) else None
    fig.canvas.draw()
    return np.asarray(fig.canvas.buffer_rgba()).copy()


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
    assert not [p for p in scores_ax.patches if p.get_visible()]  # no diagonal: not its own key


def test_cross_attention_without_key_tokens_is_a_clear_error():
    queries = attnlib.toy_example(n=4, d=6, seed=1)
    att = attnlib.attention(queries.X, np.ones((7, 6)), queries.W_Q, queries.W_K, queries.W_V)
    with pytest.raises(ValueError, match="cross-attention needs key_tokens"):
        attnlib.plotting.plot_attention(att, queries.tokens)


# --- Q, K, V on one colour scale ---


def qkv_limits(fig) -> list[tuple[float, float]]:
    return [ax.images[0].get_clim() for ax in fig.axes if ax.images]


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
    ex = toy_example(6, d_k=3, d_v=2, seed=0)
    fig = Figure()
    heatmaps = draw_panels(fig, qkv_panels(self_attention(*ex[1:]), ex.tokens))
    new = toy_example(6, d_k=3, d_v=2, seed=7)
    new_att = self_attention(*new[1:])
    for h, M in zip(heatmaps, (new_att.Q, new_att.K, new_att.V), strict=True):
        h.update(M)  # one at a time, like attnlib.pictures.redraw's fast path
    fresh = plot_qkv(new_att, new.tokens)
    assert [h.image.get_clim() for h in heatmaps] == qkv_limits(fresh)
    assert len(set(qkv_limits(fresh))) == 1
    assert symmetric_limit(new_att.K) < fresh.axes[2].images[0].get_clim()[1]  # K alone: less


def test_panels_without_share_limit_keep_their_own_limits():
    panels = [Panel(matrix=[[1.0, -0.5]], title="a"), Panel(matrix=[[4.0, 0.0]], title="b")]
    fig = plot_panels(panels)
    assert qkv_limits(fig) == [(-1.0, 1.0), (-4.0, 4.0)]


# --- titles read att.scaled ---


def test_an_unscaled_pass_is_never_titled_divided_by_sqrt_d_k():
    ex, _ = example(n=4, d_k=16)
    raw = self_attention(*ex[1:], scaled=False)
    assert raw.scaled is False
    fig = plot_attention(raw, ex.tokens)
    titles = [ax.get_title() for ax in fig.axes if ax.get_title()]
    assert titles[0] == "scores q·k (unscaled)  (4 × 4)"
    assert not any("√d_k" in t for t in titles)
    assert repr(fig).count("√d_k") == 0
    scaled_titles = [p.title for p in attention_panels(self_attention(*ex[1:]), ex.tokens)]
    assert scaled_titles[0] == "scores q·k / √d_k  (4 × 4)"


def test_plot_scaling_checks_which_pass_is_which():
    ex, att = example(n=4)
    raw = self_attention(*ex[1:], scaled=False)
    with pytest.raises(ValueError, match="unscaled must come from a pass with scaled=False"):
        plot_scaling(att, att, ex.tokens)
    with pytest.raises(ValueError, match="scaled must come from a pass with scaled=True"):
        plot_scaling(raw, raw, ex.tokens)


# --- masks and heads ---


def test_a_masked_pass_shows_its_blocked_cells_masked_in_both_panels():
    ex, _ = example(n=5)
    mask = attnlib.causal_mask(5)
    att = self_attention(*ex[1:], mask=mask)
    fig = plot_attention(att, ex.tokens)
    scores_ax, _, weights_ax, _ = fig.axes
    for ax, numbers in ((scores_ax, att.scores), (weights_ax, att.weights)):
        shown = ax.images[0].get_array()
        np.testing.assert_array_equal(np.ma.getmaskarray(shown), ~mask)  # blocked = masked
        np.testing.assert_array_equal(shown[mask], numbers[mask])
    assert np.isneginf(att.scores[~mask]).all() and (att.weights[~mask] == 0).all()
    assert [h.mask.tolist() for h in fig.heatmaps] == [mask.tolist()] * 2
    assert "masked −∞" in scores_ax.get_title() and "masked 0" in weights_ax.get_title()
    plain = plot_attention(self_attention(*ex[1:]), ex.tokens)
    assert (render(fig) != render(plain)).any()  # the hatching is drawn


def test_heads_panels_hold_each_heads_weights_as_small_multiples():
    ex = attnlib.toy_multi_head(n=6, d_k=2, heads=5, seed=3)
    mh = attnlib.multi_head_attention(*ex[1:6], heads=ex.heads, mask=attnlib.causal_mask(6))
    fig = attnlib.plotting.plot_heads(mh, ex.tokens)
    assert len(fig.heatmaps) == 5
    for h, (heatmap, att) in enumerate(zip(fig.heatmaps, mh.heads, strict=True)):
        np.testing.assert_array_equal(heatmap.matrix, np.where(att.mask, att.weights, 0.0))
        np.testing.assert_array_equal(heatmap.mask, att.mask)
        assert heatmap.ax.get_title() == f"head {h}: α, masked 0  (6 × 6)"
        assert heatmap.image.get_clim() == (0.0, 1.0)
    rows = {round(h.ax.get_position().y0, 6) for h in fig.heatmaps}
    assert len(rows) == 2  # five panels: 3 + 2


def test_heads_panels_reject_a_single_attention():
    ex, att = example(n=4)
    with pytest.raises(TypeError, match="mh must be a MultiHead"):
        attnlib.plotting.heads_panels(att, ex.tokens)


def test_a_figure_in_a_notebook_is_an_image_with_a_text_alternative():
    import attnlib

    ex = attnlib.toy_example(n=3)
    fig = attnlib.plotting.plot_attention(attnlib.self_attention(*ex[1:]), ex.tokens)
    bundle = fig._repr_mimebundle_()
    assert bundle["image/png"].startswith(b"\x89PNG") and bundle["text/plain"] == repr(fig)
    alt = fig.alt_text()
    assert "scores q·k / √d_k" in alt and "query i against key j" in alt
    assert bundle["text/html"].startswith(f'<img alt="{alt}"')
    attnlib.set_language("zh")
    try:
        chinese = fig.alt_text()
    finally:
        attnlib.set_language("en")
    assert chinese.startswith("图：") and "，纵向为query i" in chinese  # labels drawn in English
