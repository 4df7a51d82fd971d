"""The main explorer: scores and weights of the toy sentence, with heads and a mask."""

from __future__ import annotations

from typing import ClassVar

from ..i18n import tr
from .page import MAX_HEADS, PageExplorer

__all__ = ["AttentionExplorer", "explorer"]


class AttentionExplorer(PageExplorer):
    """Scores and weights of the toy sentence; sliders n, d_k, seed, heads and a mask menu,
    drawn in the page (see :func:`explorer`).

    Attributes: ``example``, ``attention`` and ``multi_head`` (see
    :func:`attnlib.explorers.views.attention_view`).
    """

    FAMILY = "attention"
    CONTROLS = ("n", "d_k", "seed", "heads", "mask")
    FIXED = ("d",)
    EXTRA_LIMITS: ClassVar[dict[str, tuple[int, int, str]]] = {
        "heads": (1, MAX_HEADS, "number of heads, each of width d_k"),
    }
    DEFAULTS: ClassVar[dict[str, object]] = {"heads": 1, "mask": "none"}  # left out of repr

    def choices(self) -> dict[str, tuple[tuple[str, str, str], ...]]:
        return {
            "mask": (
                ("none", tr("none"), tr("every query sees every key")),
                ("causal", tr("causal"), tr("query i sees keys 0 … i only")),
            )
        }

    def __repr__(self) -> str:
        # Reads as it always did at the defaults; heads and mask appear once moved.
        parts = [
            f"{name}={value!r}"
            for name, value in self.controls.items()
            if name not in self.DEFAULTS or value != self.DEFAULTS[name]
        ]
        return f"{type(self).__name__}({', '.join(parts)})"


def explorer(
    n: int = 6,
    d_k: int = 4,
    seed: int = 0,
    d: int = 8,
    *,
    heads: int = 1,
    mask: str = "none",
    size: str = "normal",
) -> AttentionExplorer:
    """The chapter's computation, live: sliders n, d_k, seed above the scores and weights heatmaps.

    The page holds X and W_Q, W_K at their widest and draws each move itself:
    a smaller n shows the first n tokens (the same rows of X), a smaller d_k
    the first d_k columns of the same W_Q and W_K, so that each step of d_k
    adds one product q_i[c]·k_j[c] to every score. A new seed draws a new
    embedding table and new weights, which the kernel sends. What is drawn is
    ``self_attention(*toy_example(n, d=d, d_k=d_k, seed=seed)[1:])``, held
    equal to it in the browser tests. Two more controls go beyond the chapter:
    ``mask`` ("none" or "causal": blocked cells grey, −∞ among the scores, 0
    among the weights) and ``heads`` (2 or more: each head's weights, from
    ``multi_head_attention`` on ``toy_multi_head``, head 0 being the one-head
    example). Clicking a cell (or focusing the picture and pressing the arrow
    keys) outlines it and shows every number behind its score
    (:func:`attnlib.explain`); ``e.select((i, j))`` does the same from code.

    Parameters
    ----------
    n : int, default 6
        Tokens, 2 to 32 (cell values are written up to 8).
    d_k : int, default 4
        Query/key size, 1 to 64.
    seed : int, default 0
        0 to 99.
    d : int, default 8
        Embedding size (fixed while exploring), 1 to 512.
    heads : int, default 1
        Heads, 1 to 8, each of width d_k.
    mask : {"none", "causal"}, default "none"
        "causal": query i may attend to keys 0 … i only.
    size : {"normal", "large"}, default "normal"
        "large" scales fonts and the picture for a projector.

    Returns
    -------
    AttentionExplorer
        Displays itself in Jupyter (with a PNG fallback where no kernel runs).

    Examples
    --------
    >>> import numpy as np
    >>> from attnlib import self_attention, toy_example
    >>> e = explorer(n=6, d_k=4, seed=0)
    >>> e
    AttentionExplorer(n=6, d_k=4, seed=0)
    >>> e.d_k.value = 8                                  # what moving the slider does
    >>> bool(np.allclose(e.attention.weights, self_attention(*toy_example(6, d_k=8)[1:]).weights))
    True
    >>> e.mask.value, e.heads.value = "causal", 3        # a mask, and three heads
    >>> e, len(e.multi_head.heads), float(e.multi_head.heads[2].weights[0, 1])
    (AttentionExplorer(n=6, d_k=8, seed=0, heads=3, mask='causal'), 3, 0.0)
    """
    return AttentionExplorer(n=n, d_k=d_k, seed=seed, d=d, heads=heads, mask=mask, size=size)
