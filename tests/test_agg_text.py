"""attnlib.pictures.agg_text: text drawn from kept layouts and glyphs is RendererAgg's text."""

from __future__ import annotations

import numpy as np
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from attnlib import set_language
from attnlib.pictures import agg_text
from attnlib.pictures.agg_text import TextCachingCanvas, TextCachingRenderer
from attnlib.pictures.fonts import figure_fonts


def texts_figure(canvas_class, left: float) -> Figure:
    """Titles, axis names, tick labels, turned text, mathtext and Chinese, at `left`."""
    fig = Figure(figsize=(4, 3), dpi=97)
    canvas_class(fig)
    ax = fig.add_axes((left, 0.2, 0.6, 0.6))
    ax.set_title("weights α = softmax(scores)  (6 × 6)")
    ax.set_xlabel("key j")
    ax.set_ylabel("query i")  # turned 90°
    ax.text(0.3, 0.4, r"$\frac{q \cdot k}{\sqrt{d_k}}$", fontsize=14)
    ax.text(0.1, 0.7, "注意力权重 −1.25", rotation=30)
    ax.text(0.5, 0.1, "small", fontsize=6.3, color="tab:red")
    return fig


@pytest.fixture(autouse=True)
def chinese_fonts():
    """The figure fonts of the Chinese edition, which has glyphs for every string here."""
    set_language("zh")
    try:
        with figure_fonts():
            yield
    finally:
        set_language("en")


def pixels(fig) -> np.ndarray:
    fig.canvas.draw()
    return np.asarray(fig.canvas.buffer_rgba()).copy()


@pytest.mark.parametrize("left", np.linspace(0.15, 0.2, 6))
def test_text_is_the_pixels_renderer_agg_draws(left):
    # left moves every string by a fraction of a pixel: each glyph's sub-pixel position
    expected = pixels(texts_figure(FigureCanvasAgg, left))
    fig = texts_figure(TextCachingCanvas, left)
    first, again = pixels(fig), pixels(fig)  # again: from what the first draw kept
    assert isinstance(fig.canvas.get_renderer(), TextCachingRenderer)
    for got in (first, again):
        differ = (got != expected).any(axis=-1)
        assert not differ.any(), f"{differ.sum()} pixels differ, first at {np.argwhere(differ)[:3]}"


@pytest.mark.skipif(
    not agg_text.FOLLOWS,
    reason="text is kept only on matplotlib 3.11, whose drawing steps agg_text follows; "
    "others draw as RendererAgg does (tested below)",
)
def test_a_second_draw_lays_out_and_renders_nothing_again():
    fig = texts_figure(TextCachingCanvas, 0.17)
    pixels(fig)
    layouts, glyphs = agg_text._layout.cache_info(), agg_text.glyph_bitmap.cache_info()
    pixels(fig)
    assert agg_text._layout.cache_info().misses == layouts.misses
    assert agg_text.glyph_bitmap.cache_info().misses == glyphs.misses
    assert agg_text.glyph_bitmap.cache_info().hits > glyphs.hits


def test_the_canvas_keeps_a_new_renderer_when_the_size_changes():
    fig = texts_figure(TextCachingCanvas, 0.2)
    first = fig.canvas.get_renderer()
    assert fig.canvas.get_renderer() is first
    fig.set_size_inches(5, 3)
    second = fig.canvas.get_renderer()
    assert isinstance(second, TextCachingRenderer) and second is not first
    assert second.width == 5 * 97


def test_another_matplotlib_draws_text_its_own_way(monkeypatch):
    monkeypatch.setattr(agg_text, "FOLLOWS", False)
    expected = pixels(texts_figure(FigureCanvasAgg, 0.2))
    layouts = agg_text._layout.cache_info()
    assert np.array_equal(pixels(texts_figure(TextCachingCanvas, 0.2)), expected)
    assert agg_text._layout.cache_info() == layouts  # nothing kept
