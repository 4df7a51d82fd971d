"""attnlib.pictures.glyphs: strings rasterised as matplotlib's Agg renderer draws them."""

from __future__ import annotations

import random

import numpy as np
import pytest
from matplotlib import ft2font
from matplotlib.backends.backend_agg import get_hinting_flag
from matplotlib.font_manager import FontProperties, findfont, get_font

from attnlib import set_language
from attnlib.pictures import glyphs
from attnlib.pictures.cell_values import format_value
from attnlib.pictures.fonts import figure_fonts

SIZES = (6.5, 9.722, 10.0, 13.889, 16.0)


def matplotlib_bitmap(text: str, pixels: float, families: tuple[str, ...]) -> np.ndarray:
    """`text` as matplotlib lays out and renders the whole string, every glyph afresh."""
    files = []
    for family in families:
        path = findfont(FontProperties(family=[family]))
        files += [path] if path not in files else []
    font = get_font(files)
    font.clear()
    font.set_size(pixels, 72)
    if not hasattr(font, "_layout"):  # matplotlib < 3.11
        font.set_text(text, 0.0, flags=get_hinting_flag())
        font.draw_glyphs_to_bitmap(antialiased=True)
        return np.asarray(font.get_image())
    pieces = []
    for item in font._layout(text, flags=get_hinting_flag()):
        item.ft_object.set_size(pixels, 72)
        item.ft_object._set_transform(
            [[0x10000, 0], [0, 0x10000]], [round(0x40 * item.x), round(0x40 * item.y)]
        )
        bitmap = item.ft_object._render_glyph(
            item.glyph_index, get_hinting_flag(), ft2font.RenderMode.NORMAL
        )
        if np.asarray(bitmap.buffer).size:
            pieces.append((bitmap.left, -bitmap.top, np.asarray(bitmap.buffer)))
    left, top = min(p[0] for p in pieces), min(p[1] for p in pieces)
    right = max(p[0] + p[2].shape[1] for p in pieces)
    bottom = max(p[1] + p[2].shape[0] for p in pieces)
    mask = np.zeros((bottom - top, right - left), dtype=np.uint8)
    for x, y, coverage in pieces:
        h, w = coverage.shape
        np.maximum(
            mask[y - top : y - top + h, x - left : x - left + w],
            coverage,
            out=mask[y - top : y - top + h, x - left : x - left + w],
        )
    return mask


def numbers(count: int, seed: int = 0) -> list[str]:
    rng = random.Random(seed)
    drawn = {format_value(rng.uniform(-1, 1) * 10.0 ** rng.randint(-2, 4)) for _ in range(count)}
    return sorted(drawn | {"0", "1", "\u22121", "0.5", "\u22120.25", "10", "+1", "-2"})


@pytest.mark.parametrize("language", ["en", "zh"])
def test_numbers_come_out_as_matplotlib_draws_them(language):
    glyphs.text_bitmap.cache_clear()
    set_language(language)
    try:
        with figure_fonts():
            families = glyphs.current_families()
            for pixels in SIZES:
                for text in numbers(150, seed=round(pixels)):
                    got = glyphs.text_bitmap(text, pixels, families)[0]
                    expected = matplotlib_bitmap(text, pixels, families)
                    assert np.array_equal(got, expected), (language, pixels, text)
    finally:
        set_language("en")


@pytest.mark.parametrize("text", ["query i", "extraordinarily", "fi ff", "注意力", "−0.5 key"])
def test_other_strings_come_out_as_matplotlib_draws_them(text):
    glyphs.text_bitmap.cache_clear()
    set_language("zh")
    try:
        with figure_fonts():
            families = glyphs.current_families()
            for pixels in SIZES:
                got = glyphs.text_bitmap(text, pixels, families)[0]
                assert np.array_equal(got, matplotlib_bitmap(text, pixels, families)), pixels
    finally:
        set_language("en")


@pytest.mark.skipif(
    not hasattr(ft2font.FT2Font, "_layout"),
    reason="matplotlib < 3.11 lays "
    "out whole strings with set_text; numbers have no layout of their own there",
)
def test_numbers_are_laid_out_from_steps_only_where_that_is_matplotlibs_layout(monkeypatch):
    families = ("DejaVu Sans",)
    laid_out = []
    real = glyphs._layout

    def counted(font, text):
        laid_out.append(text)
        return real(font, text)

    monkeypatch.setattr(glyphs, "_layout", counted)
    glyphs._number_table.cache_clear()
    glyphs.text_bitmap.cache_clear()
    try:
        glyphs.text_bitmap("0", 10.0, families)  # the table is made (and checked) once
        laid_out.clear()
        for text in numbers(40):
            glyphs.text_bitmap(text, 10.0, families)
        assert laid_out == []  # no number needed matplotlib's layout of its whole string

        # A font whose layout of three characters is not the sum of its pairs (kerning
        # over three characters, say): the probes find it, and each number is laid out
        # by matplotlib as a whole.
        def three_way_kerning(font, text):
            laid_out.append(text)
            return [
                (f, i, x + 0.5 * (k >= 2), y) for k, (f, i, x, y) in enumerate(real(font, text))
            ]

        monkeypatch.setattr(glyphs, "_layout", three_way_kerning)
        glyphs._number_table.cache_clear()
        glyphs.text_bitmap.cache_clear()
        assert glyphs._numeric_layout("\u22121.25", 10.0, families) is None
        laid_out.clear()
        for text in numbers(40):
            glyphs.text_bitmap(text, 10.0, families)
        assert sorted(laid_out) == numbers(40)
    finally:
        glyphs._number_table.cache_clear()
        glyphs.text_bitmap.cache_clear()
