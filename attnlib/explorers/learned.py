"""The learned explorer: a trained lookup layer, scrubbed through its checkpoints."""

from __future__ import annotations

import ipywidgets as widgets

from ..i18n import tr
from ..lessons import lookup
from ..maths.validation import as_size
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

    def __init__(
        self,
        history: lookup.History,
        task: lookup.Task,
        *,
        examples: int | None = 8,
        size="normal",
        **values,
    ):
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
        if examples is not None:
            examples = as_size("examples", examples, minimum=1)
        self.history, self.task = history, task
        # A handful of examples by default, so that a drag steps through them one by one
        # (500 values on a 165-pixel slider jumped 90 at a time); examples=None: all of them.
        self.examples = len(task) if examples is None else min(examples, len(task))
        self.LIMITS = {**LIMITS, "example": (0, self.examples - 1, "a sequence of the task")}
        self.limit = views.score_limit(history, task, self.examples)  # one colour scale
        self._example = None  # the example the selection was made on
        super().__init__(size=size, **values)

    def _make_step_or_example(self, name: str, value: int) -> widgets.ValueWidget:
        # ``example``: an IntSlider over the examples shown; ``step``: a SelectionSlider
        # over the checkpoints (they need not be evenly spaced).
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

    def make_control(self, name: str, value: int) -> widgets.ValueWidget:
        control = self._make_step_or_example(name, value)
        if name == "example":  # "example" is wider than the 40 px of n, d_k, seed
            control.style.description_width = "initial"
        return control

    def view(self, *, step: int, example: int) -> views.View:
        return views.learned_attention_view(
            self.history, self.task, step=step, example=example, limit=self.limit
        )

    def redraw(self) -> None:
        """Recompute and redraw; on a new example, a selection on the old matching key
        follows to the new one (any other selected cell stays, and the readout says so)."""
        view = self.view(**self.values())
        cell, example = self.selection, self.controls["example"].value
        note = ""
        if cell is not None and self._example is not None and example != self._example:
            before, now = self.task[self._example].match, self.task[example].match
            if cell[1] == before:
                cell = (cell[0], now)
            elif cell[1] != now:
                note = "<br>" + tr(
                    "the selected cell kept its column j = {j}; "
                    "this example's matching pair is at j = {match}",
                    j=cell[1],
                    match=now,
                )
        self._example = example
        view = view.select(cell)
        self._show(view._replace(readout=view.readout + note))


def learned_explorer(
    history: lookup.History,
    task: lookup.Task,
    *,
    step: int | None = None,
    example: int = 0,
    examples: int | None = 8,
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
    examples : int or None, default 8
        How many sequences of `task` the `example` slider steps through (the
        first ones; at least ``example + 1``): a handful, one per slider
        position. None: every sequence of `task`.
    size : {"normal", "large"}, default "normal"

    The scores' colour scale is fixed, symmetric to the largest |score| over
    every checkpoint and the examples shown (:func:`attnlib.views.score_limit`),
    and stated in its title, so that a colour means the same at every step.

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
    if examples is not None and isinstance(example, int) and not isinstance(example, bool):
        examples = max(examples, example + 1)
    return LearnedExplorer(history, task, step=step, example=example, examples=examples, size=size)
