"""attnlib.pictures.agg_blend: ink blended into the canvas as RendererAgg.draw_image would."""

from __future__ import annotations

import io

import numpy as np
import pytest
from matplotlib.backends.backend_agg import RendererAgg
from matplotlib.transforms import Bbox

from attnlib.pictures.agg_blend import blend_ink, clip_window, writable_pixels


def canvas(rng, size=(60, 80), opaque=True) -> RendererAgg:
    """An Agg renderer whose pixels are random colours (and random alpha unless opaque)."""
    renderer = RendererAgg(size[1], size[0], 72)
    pixels = writable_pixels(renderer)
    pixels[...] = rng.integers(0, 256, size=pixels.shape, dtype=np.uint8)
    if opaque:
        pixels[..., 3] = 255
    return renderer


def by_draw_image(renderer, left, bottom, alpha, white, clip) -> np.ndarray:
    """What Agg makes of the same ink as an RGBA image (row 0 at the top of `alpha`)."""
    rgba = np.zeros((*alpha.shape, 4), dtype=np.uint8)  # (h, w, 4)
    rgba[white, :3] = 255
    rgba[..., 3] = alpha
    gc = renderer.new_gc()
    gc.set_clip_rectangle(clip)
    renderer.draw_image(gc, left, bottom, rgba[::-1].copy())  # draw_image: row 0 at the bottom
    gc.restore()
    return writable_pixels(renderer).copy()


def by_blend_ink(renderer, left, bottom, alpha, white, clip) -> np.ndarray:
    pixels = writable_pixels(renderer)
    top = pixels.shape[0] - (bottom + alpha.shape[0])
    ys, xs = np.nonzero(alpha)
    window = clip_window(clip, pixels.shape[:2])
    blend_ink(pixels, ys + top, xs + left, alpha[ys, xs], white[ys, xs], window)
    return pixels.copy()


@pytest.mark.parametrize("opaque", [True, False])
@pytest.mark.parametrize("seed", range(6))
def test_blended_ink_is_what_draw_image_makes_of_it(seed, opaque):
    rng = np.random.default_rng(seed)
    alpha = rng.integers(0, 256, size=(17, 23), dtype=np.uint8)  # (h, w)
    alpha[rng.random(alpha.shape) < 0.3] = 0
    alpha[rng.random(alpha.shape) < 0.1] = 255
    white = rng.random(alpha.shape) < 0.5
    # a clip box with fractional edges, as an Axes' bbox may have, across the ink's corner
    x0, y0 = rng.uniform(0, 40), rng.uniform(0, 30)
    clip = Bbox([[x0, y0], [x0 + rng.uniform(5, 40), y0 + rng.uniform(5, 30)]])
    left, bottom = int(x0) - int(rng.integers(-3, 12)), int(y0) - int(rng.integers(-3, 9))
    expected = by_draw_image(
        canvas(np.random.default_rng(seed), opaque=opaque), left, bottom, alpha, white, clip
    )
    got = by_blend_ink(
        canvas(np.random.default_rng(seed), opaque=opaque), left, bottom, alpha, white, clip
    )
    differ = (got != expected).any(axis=-1)
    assert not differ.any(), f"{differ.sum()} pixels differ, first at {np.argwhere(differ)[:3]}"
    untouched = canvas(np.random.default_rng(seed), opaque=opaque)
    assert (got != writable_pixels(untouched)).any()  # the ink was drawn at all


@pytest.mark.parametrize(
    "edges", [(10.5, 7.49, 30.5, 20.51), (0.2, 0.7, 79.6, 59.4), (-3, -3, 90, 70)]
)
def test_the_clip_window_is_the_pixels_agg_lets_an_image_touch(edges):
    renderer = RendererAgg(80, 60, 72)
    writable_pixels(renderer)[...] = 0
    solid = np.full((60, 80, 4), 255, dtype=np.uint8)
    gc = renderer.new_gc()
    gc.set_clip_rectangle(Bbox.from_extents(*edges))
    renderer.draw_image(gc, 0, 0, solid)
    touched = writable_pixels(renderer)[..., 3] > 0  # (H, W)
    top, bottom, left, right = clip_window(Bbox.from_extents(*edges), (60, 80))
    expected = np.zeros((60, 80), dtype=bool)
    expected[top:bottom, left:right] = True
    assert np.array_equal(touched, expected)


def test_only_an_agg_renderer_is_written_to():
    from matplotlib.backends.backend_svg import RendererSVG

    assert writable_pixels(RendererAgg(4, 4, 72)).shape == (4, 4, 4)
    assert writable_pixels(RendererSVG(4, 4, io.StringIO())) is None
