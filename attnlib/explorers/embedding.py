"""The embedding explorer: X, one row per token."""

from __future__ import annotations

from ..i18n import tr
from .page import PageExplorer

__all__ = ["EmbeddingExplorer", "embedding_explorer"]


class EmbeddingExplorer(PageExplorer):
    """The embedding X; sliders n, d, seed, drawn in the page (see :func:`embedding_explorer`).

    Attribute: ``example`` (see :func:`attnlib.explorers.views.embedding_view`).
    """

    FAMILY = "embedding"
    CONTROLS = ("n", "d", "seed")

    def hint_text(self) -> str:
        return tr(
            "X is where attention starts: its numbers are not computed from others, so a "
            "click has nothing to explain here. Click a score or a weight in the attention "
            "explorer to see where it comes from."
        )


def embedding_explorer(
    n: int = 6, d: int = 8, seed: int = 0, *, size: str = "normal"
) -> EmbeddingExplorer:
    """The embedding X (n × d) as a heatmap with a token on each row; sliders n, d, seed.

    A smaller n shows the first n tokens, a smaller d the first d columns of
    the same embedding table; a new seed draws a new table.

    Parameters
    ----------
    n : int, default 6
        Tokens, 2 to 32.
    d : int, default 8
        Embedding size, 1 to 64.
    seed : int, default 0
        0 to 99.
    size : {"normal", "large"}, default "normal"

    Returns
    -------
    EmbeddingExplorer

    Examples
    --------
    >>> e = embedding_explorer(n=5, d=3)
    >>> e.example.X.shape
    (5, 3)
    """
    return EmbeddingExplorer(n=n, d=d, seed=seed, size=size)
