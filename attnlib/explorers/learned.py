"""The learned explorer: a trained lookup layer, scrubbed through its checkpoints."""

from __future__ import annotations

import ipywidgets as widgets

from ..i18n import tr
from ..lessons import lookup
from ..maths.validation import as_size
from . import views
from .controller import LIMITS, Explorer, caption

__all__ = ["REPLAY_SECONDS", "LearnedExplorer", "TrainingProgress", "learned_explorer"]

#: How long the replay button takes to play every checkpoint, seconds.
REPLAY_SECONDS = 4.0


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
        self.replay = self._make_replay()
        bar = self.children.index(self.image) - (2 if self.query_i is not None else 1)
        row = self.children[bar]  # the controls' row: the replay button goes first in it
        # Play draws its buttons only (no description): say what they do beside them
        label = widgets.Label(tr("replay training"), layout=widgets.Layout(margin="0 4px 0 0"))
        row.children = (widgets.HBox([label, self.replay]), *row.children)

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
            description=caption("step"),
            tooltip=tr("training step of the checkpoint"),
            continuous_update=True,
            layout=widgets.Layout(width="460px" if large else "300px"),
            style={"description_width": self.caption_width()},
        )

    def make_control(self, name: str, value: int) -> widgets.ValueWidget:
        control = self._make_step_or_example(name, value)
        if name == "example":  # "example" is wider than the 40 px of n, d_k, seed
            control.style.description_width = "initial"
        return control

    def _make_replay(self) -> widgets.Play:
        # Play steps the step slider through every checkpoint in REPLAY_SECONDS: the query's
        # row sharpening as training goes on. Linked in the kernel (not jslink), so that the
        # picture follows each frame and code can drive it too.
        steps = self.controls["step"]
        interval = max(50, round(1000 * REPLAY_SECONDS / max(1, len(steps.options))))
        play = widgets.Play(
            value=steps.index,
            min=0,
            max=len(steps.options) - 1,
            interval=interval,
            description=tr("replay training"),
            tooltip=tr("replay training"),
            layout=widgets.Layout(width="auto"),
            style={"description_width": "initial"},  # the whole label, never cut off
        )
        widgets.link((play, "value"), (steps, "index"))
        return play

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


class TrainingProgress(widgets.HBox):
    """A progress bar that shows the step and the live loss; pass it as ``train``'s callback.

    ``lookup.train(..., callback=progress)`` calls ``progress(step, loss)``
    after each step; the bar and the text "step 120 / 200 · loss 0.153" follow,
    redrawn every `every` steps (a message per step would slow training).

    Examples
    --------
    >>> from attnlib import lookup
    >>> progress = TrainingProgress(steps=4, every=2)
    >>> history = lookup.train(lookup.init_params(), lookup.make_task(32), steps=4,
    ...                        callback=progress)
    >>> progress.bar.value, "step 4 / 4" in progress.text.value
    (4, True)
    """

    def __init__(self, steps: int, *, every: int = 5):
        super().__init__()
        self.steps = as_size("steps", steps, minimum=1)
        self.every = as_size("every", every, minimum=1)
        self.bar = widgets.IntProgress(value=0, min=0, max=self.steps)
        self.text = widgets.HTML(tr("step {step} / {steps}", step=0, steps=self.steps))
        self.children = (self.bar, self.text)

    def __call__(self, step: int, loss: float) -> None:
        if step % self.every and step != self.steps:
            return
        self.bar.value = min(step, self.steps)
        self.text.value = tr(
            "step {step} / {steps} · loss {loss:.3f} nats", step=step, steps=self.steps, loss=loss
        )


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
