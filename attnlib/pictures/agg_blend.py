"""Write into an Agg canvas's pixels directly: the pixels ``RendererAgg.draw_image`` makes, cheaper.

``draw_image`` walks every pixel of the image it is given. A layer of cell
values the size of the axes (380 × 380 px in an explorer) is almost all
transparent: about 150 of its 144,400 pixels per value carry ink, and
blending the rest cost about 2 ms a heatmap on every slider move.

:func:`blend_ink` blends only the inked pixels, with the integer arithmetic of
matplotlib's Agg blender (``fixed_blender_rgba_plain`` in ``_backend_agg.h``),
so the canvas comes out as ``draw_image`` would leave it;
``tests/test_agg_blend.py`` draws the same layers both ways and compares every
pixel.
"""

from __future__ import annotations

import math
from functools import cache

import numpy as np
from matplotlib.backends.backend_agg import RendererAgg
from matplotlib.transforms import Bbox

__all__ = ["blend_ink", "clip_window", "writable_pixels"]

_RGBA_WORD = np.dtype("<u4")  # 4 bytes R, G, B, A read as one number, on any machine


def writable_pixels(renderer) -> np.ndarray | None:
    """The canvas's pixels, (H, W, 4) uint8 with row 0 at the top, or None if `renderer`
    is not an Agg renderer (PDF, SVG)."""
    if not isinstance(renderer, RendererAgg):
        return None
    return np.asarray(renderer.buffer_rgba())


def clip_window(clip: Bbox, shape: tuple[int, int]) -> tuple[int, int, int, int]:
    """Rows and columns ``(top, bottom, left, right)`` (half-open, row 0 at the top) that
    Agg lets a draw touch when the graphics context clips to `clip` (display px, y up), on a
    canvas of `shape` (H, W): matplotlib's ``set_clipbox`` rounds each edge to the nearest
    pixel and Agg's clip box includes its far edges."""
    height, width = shape
    left = max(math.floor(clip.x0 + 0.5), 0)
    right = min(math.floor(clip.x1 + 0.5), width) + 1  # inclusive in Agg
    top = max(math.floor(height - clip.y1 + 0.5), 0)
    bottom = min(math.floor(height - clip.y0 + 0.5), height) + 1
    return top, min(bottom, height), left, min(right, width)


def blend_ink(
    pixels: np.ndarray,
    ys: np.ndarray,
    xs: np.ndarray,
    cover: np.ndarray,
    white: np.ndarray,
    window: tuple[int, int, int, int],
) -> None:
    """Blend black or white ink into `pixels` at the given pixels, as Agg would.

    Parameters
    ----------
    pixels : ndarray, shape (H, W, 4), uint8
        The canvas (:func:`writable_pixels`), changed in place.
    ys, xs : ndarray of int, shape (k,)
        Canvas row (row 0 at the top) and column of each inked pixel, each pixel once.
    cover : ndarray, shape (k,), uint8
        The ink's coverage there: 0 leaves a pixel alone, 255 paints it.
    white : ndarray, shape (k,), bool
        Where the ink is white; elsewhere it is black.
    window : (top, bottom, left, right)
        The canvas rows and columns the ink may touch (:func:`clip_window`).
    """
    top, bottom, left, right = window
    inside = (ys >= top) & (ys < bottom) & (xs >= left) & (xs < right) & (cover > 0)  # (k,)
    if not inside.all():
        ys, xs, cover, white = ys[inside], xs[inside], cover[inside], white[inside]
    flat = ys * pixels.shape[1] + xs  # (k,) index of each pixel in the canvas's rows
    # each pixel as one little-endian word, R in the lowest byte: (H * W,), a view
    words = pixels.reshape(-1, 4).view(_RGBA_WORD)[:, 0]
    dst = words[flat]  # (k,)
    if ((dst >> 24) == 255).all():  # an opaque canvas, as every attnlib figure's: look it up
        lut = _over_opaque()
        row = (white.astype(np.intp) << 16) | (cover.astype(np.intp) << 8)  # (k,)
        red, green, blue = (
            lut[row + ((dst >> shift) & 255)].astype(np.uint32) for shift in (0, 8, 16)
        )
        words[flat] = red | (green << 8) | (blue << 16) | np.uint32(0xFF000000)
        return
    canvas = pixels.reshape(-1, 4)  # (H * W, 4), a view
    canvas[flat] = _blend(canvas[flat], cover, np.where(white, 255, 0))


def _blend(dst: np.ndarray, cover: np.ndarray, ink: np.ndarray) -> np.ndarray:
    # fixed_blender_rgba_plain::blend_pix on non-premultiplied RGBA, (k, 4), in 32-bit
    # integers as in Agg, and the copy Agg makes instead where the ink is opaque
    dst = dst.astype(np.int32)
    src_a, ink = cover.astype(np.int32), ink.astype(np.int32)  # (k,), (k,)
    dst_a = dst[:, 3]
    r = dst[:, :3] * dst_a[:, None]  # (k, 3)
    a = ((src_a + dst_a) << 8) - src_a * dst_a  # (k,)
    out = np.empty_like(dst)
    out[:, :3] = (((ink[:, None] << 8) - r) * src_a[:, None] + (r << 8)) // a[:, None]
    out[:, 3] = a >> 8
    opaque = src_a == 255
    out[opaque, :3] = ink[opaque, None]
    out[opaque, 3] = 255
    return out.astype(np.uint8)


@cache
def _over_opaque() -> np.ndarray:
    # _blend on an opaque pixel, for every (ink black or white, coverage, channel value):
    # flat, at (white << 16) | (coverage << 8) | value; 128 kB, made once (about 15 ms)
    ink = np.repeat(np.array([0, 255], dtype=np.uint8), 1 << 16)  # (131072,)
    cover = np.tile(np.repeat(np.arange(256, dtype=np.uint8), 256), 2)
    value = np.tile(np.arange(256, dtype=np.uint8), 512)
    dst = np.full((1 << 17, 4), 255, dtype=np.uint8)  # (131072, 4), opaque
    dst[:, :3] = value[:, None]
    return _blend(dst, cover, ink)[:, 0]
