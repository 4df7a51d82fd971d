"""The projections explorer: Q, K and V side by side."""

from __future__ import annotations

from ..i18n import tr
from .page import PageExplorer

__all__ = ["QKVExplorer", "qkv_explorer"]


class QKVExplorer(PageExplorer):
    """Q, K and V; sliders d_k, d_v, seed, drawn in the page (see :func:`qkv_explorer`).

    Attributes: ``example`` and ``attention`` (see :func:`attnlib.explorers.views.qkv_view`).
    """

    FAMILY = "qkv"
    CONTROLS = ("d_k", "d_v", "seed")
    FIXED = ("n", "d")

    def hint_text(self) -> str:
        return tr(
            "Each entry of Q, K and V is a row of X times a column of W_Q, W_K or W_V; "
            "clicks are answered one step later, on the scores and weights of the "
            "attention explorer."
        )


def qkv_explorer(
    d_k: int = 4, d_v: int = 4, seed: int = 0, *, n: int = 6, d: int = 8, size: str = "normal"
) -> QKVExplorer:
    """Q, K and V side by side; sliders d_k, d_v, seed.

    A larger d_k keeps the first columns of Q and K and adds more (the same
    W_Q and W_K, wider); d_v does the same for V.

    Parameters
    ----------
    d_k : int, default 4
        Columns of Q and K, 1 to 64.
    d_v : int, default 4
        Columns of V, 1 to 64.
    seed : int, default 0
    n : int, default 6
        Tokens (fixed), 2 to 32.
    d : int, default 8
        Embedding size (fixed).
    size : {"normal", "large"}, default "normal"

    Returns
    -------
    QKVExplorer

    Examples
    --------
    >>> e = qkv_explorer(d_k=4, d_v=2)
    >>> e.attention.Q.shape, e.attention.V.shape
    ((6, 4), (6, 2))
    """
    return QKVExplorer(d_k=d_k, d_v=d_v, seed=seed, n=n, d=d, size=size)
