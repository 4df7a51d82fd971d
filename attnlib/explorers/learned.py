"""The learned explorer: a trained lookup layer, scrubbed through its checkpoints."""

from __future__ import annotations

import ipywidgets as widgets

from ..i18n import tr
from ..lessons import lookup
from . import views
from .controller import LIMITS, Explorer

__all__ = ["LearnedExplorer", "learned_explorer"]


class LearnedExplorer(Explorer):
    """The trained lookup layer; sliders step (a checkpoint) and example (see
    :func:`learned_explorer`).

    Attributes: ``history`` and ``task`` (what it shows), and from the view
    (see :func:`attnlib.views.learned_attention_view`) ``attention``,
    ``tokens``, ``sequence`` and ``probs``.
    """

    CONTROLS = ("step", "example")

    def __init__(self, history: lookup.History, task: lookup.Task, *, size="normal", **values):
        if not isinstance(history, lookup.History):
            raise TypeError(
                f"history must be a lookup.History (what lookup.train returns), "
                f"got {type(history).__name__}"
            )
        if not isinstance(task, lookup.Task):
            raise TypeError(
                f"task must be a lookup.Task (what lookup.make_task returns), "
                f"got {type(task).__name__}"
            )
        self.history, self.task = history, task
        self.LIMITS = {**LIMITS, "example": (0, len(task) - 1, "a sequence of the task")}
        super().__init__(size=size, **values)

    def make_control(self, name: str, value: int) -> widgets.ValueWidget:
        """``example``: an IntSlider over the task; ``step``: a SelectionSlider over the
        checkpoints (they need not be evenly spaced)."""
        if name != "step":
            return super().make_control(name, value)
        steps = sorted(self.history.checkpoints)
        if isinstance(value, bool) or value not in steps:
            raise ValueError(f"step must be one of the checkpoints {steps}, got {value!r}")
        large = self.size == "large"
        return widgets.SelectionSlider(
            options=steps,
            value=value,
            description="step",
            tooltip=tr("training step of the checkpoint"),
            continuous_update=True,
            layout=widgets.Layout(width="460px" if large else "300px"),
            style={"description_width": "100px" if large else "40px"},
        )

    def view(self, *, step: int, example: int) -> views.View:
        return views.learned_attention_view(self.history, self.task, step=step, example=example)


def learned_explorer(
    history: lookup.History,
    task: lookup.Task,
    *,
    step: int | None = None,
    example: int = 0,
    size: str = "normal",
) -> LearnedExplorer:
    """A trained attention layer, live: a `step` slider over the training checkpoints and an
    `example` slider over the sequences of `task`, above its scores and weights.

    Each picture is :func:`attnlib.lookup.learned_view` ``(history, task, step,
    example)`` drawn as :func:`explorer` draws (fast redraw, click a cell
    for its breakdown). The bottom row is the query token.

    Parameters
    ----------
    history : attnlib.lookup.History
        From :func:`attnlib.lookup.train`, with the checkpoints to scrub through.
    task : attnlib.lookup.Task
        The sequences to look at, e.g. held-out ones.
    step : int, optional
        The checkpoint shown first; the last one if omitted.
    example : int, default 0
        The sequence shown first, 0 to ``len(task) - 1``.
    size : {"normal", "large"}, default "normal"

    Returns
    -------
    LearnedExplorer

    Examples
    --------
    >>> import numpy as np
    >>> from attnlib import lookup
    >>> history = lookup.train(lookup.init_params(), lookup.make_task(64), steps=4,
    ...                        checkpoints=[2])
    >>> held_out = lookup.make_task(10, seed=1)
    >>> e = learned_explorer(history, held_out, step=2, example=3)
    >>> e
    LearnedExplorer(step=2, example=3)
    >>> e.example.value = 7                              # what moving the slider does
    >>> att, tokens = lookup.learned_view(history, held_out, 2, 7)
    >>> bool(np.array_equal(e.attention.weights, att.weights)), e.tokens == tokens
    (True, True)
    """
    if step is None and isinstance(history, lookup.History):
        step = max(history.checkpoints)
    return LearnedExplorer(history, task, step=step, example=example, size=size)
