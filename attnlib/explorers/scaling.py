"""The scaling explorer: weights without and with dividing by √d_k."""

from __future__ import annotations

from .page import PageExplorer

__all__ = ["ScalingExplorer", "scaling_explorer"]


class ScalingExplorer(PageExplorer):
    """Weights without and with the √d_k scaling; sliders d_k, seed, drawn in the page
    (see :func:`scaling_explorer`).

    Attributes: ``example`` and ``comparison`` (see :func:`attnlib.explorers.views.scaling_view`).
    """

    FAMILY = "scaling"
    CONTROLS = ("d_k", "seed")
    FIXED = ("n", "d")


def scaling_explorer(
    d_k: int = 4, *, seed: int = 0, n: int = 8, d: int = 8, size: str = "normal"
) -> ScalingExplorer:
    """Weights with and without dividing by √d_k, side by side, with live readouts.

    A larger d_k keeps the first columns of W_Q and W_K and adds more: each
    step adds one product to every dot product, so the unscaled scores spread
    as d_k grows and their softmax saturates, while the scaled ones do not.

    Parameters
    ----------
    d_k : int, default 4
        Query/key size, 1 to 64.
    seed : int, default 0
    n : int, default 8
        Tokens (fixed), 2 to 32.
    d : int, default 8
        Embedding size (fixed).
    size : {"normal", "large"}, default "normal"

    Returns
    -------
    ScalingExplorer
        ``.comparison`` holds both attentions and the numbers shown.

    Examples
    --------
    >>> e = scaling_explorer(d_k=64)
    >>> c = e.comparison
    >>> bool(c.max_weight_unscaled > c.max_weight_scaled)
    True
    """
    return ScalingExplorer(d_k=d_k, seed=seed, n=n, d=d, size=size)
