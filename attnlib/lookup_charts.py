"""Loss curves of notebook 06 (matplotlib, object-oriented API).

Kept apart from :mod:`attnlib.charts` while that module is being rebuilt; the
function belongs there and can move as it is. Heatmaps of notebook 06 use
:mod:`attnlib.plotting`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg

from .plotting import StaticFigure

__all__ = ["plot_losses"]


def plot_losses(
    curves: Mapping[str, np.ndarray | Sequence[np.ndarray]],
    *,
    title: str = "training loss",
    chance: float | None = math.log(10),
) -> StaticFigure:
    """Training loss against step, on a log scale, one colour per label.

    Parameters
    ----------
    curves : mapping of str to array_like
        label -> the losses of one run, shape (steps,), or a list of runs
        (e.g. several seeds), drawn as thin lines of the same colour.
    title : str
    chance : float or None, default log(10)
        Draw a dotted line at this loss: the loss of guessing uniformly
        among the 10 values, log 10 ≈ 2.30 nats.

    Returns
    -------
    StaticFigure

    Examples
    --------
    >>> runs = [[2.3, 2.2, 2.0], [2.4, 2.0, 1.5]]                      # two seeds
    >>> fig = plot_losses({"scaled": [2.3, 1.0, 0.1], "unscaled": runs})
    >>> fig.axes[0].get_title(), len(fig.axes[0].get_lines())
    ('training loss', 4)
    """
    if not curves:
        raise ValueError("curves is empty: give at least one label -> losses")
    fig = StaticFigure(figsize=(6.4, 3.6), layout="constrained")
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    for colour, (label, runs) in enumerate(curves.items()):
        runs = np.asarray(runs, dtype=float)
        runs = runs[None, :] if runs.ndim == 1 else runs  # (runs, steps)
        if runs.ndim != 2 or runs.shape[1] == 0 or not (runs > 0).all():
            raise ValueError(
                f"curves[{label!r}] must hold positive losses, one run or a list of runs "
                f"of equal length; got shape {runs.shape}"
            )
        steps = np.arange(1, runs.shape[1] + 1)  # (steps,): step s has loss runs[:, s - 1]
        width = 2.0 if len(runs) == 1 else 1.2
        for r, losses in enumerate(runs):
            ax.plot(
                steps,
                losses,
                color=f"C{colour}",
                lw=width,
                alpha=0.9,
                label=label if r == 0 else None,
            )
    if chance is not None:
        ax.axhline(chance, color="grey", ls=":", lw=1.2, label=f"guessing: {chance:.2f} nats")
    ax.set_yscale("log")
    ax.set_title(title)
    ax.set_xlabel("training step")
    ax.set_ylabel("cross-entropy (nats, log scale)")
    ax.legend()
    return fig
