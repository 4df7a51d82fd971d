"""How wide a string is when drawn: the one measure the layout and the tick labels share."""

from __future__ import annotations

from functools import lru_cache

from matplotlib.backends.backend_agg import RendererAgg
from matplotlib.font_manager import FontProperties

__all__ = ["text_inches", "width_px"]


@lru_cache(maxsize=8192)
def width_px(text: str, size: float, dpi: float) -> float:
    """Width of `text` at `size` points on a canvas of `dpi`, in pixels (the current font)."""
    renderer = RendererAgg(1, 1, dpi)  # cheap: a 1 × 1 canvas, text widths only
    return renderer.get_text_width_height_descent(text, FontProperties(size=size), False)[0]


def text_inches(texts, size: float, dpi: float = 72.0) -> float:
    """The widest of `texts` at `size` points, in inches.

    Measuring a string costs about 1 ms: they are ranked once at 10 pt (cached
    across sizes) and only the three widest are measured at the size wanted.
    """
    ranked = sorted(set(texts), key=lambda s: width_px(s, 10.0, dpi), reverse=True)
    return max((width_px(s, size, dpi) for s in ranked[:3]), default=0.0) / dpi
