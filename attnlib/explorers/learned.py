"""The learned explorer: a trained lookup layer, scrubbed through its checkpoints."""

from __future__ import annotations

import ipywidgets as widgets
import numpy as np

from ..i18n import tr
from ..maths import lookup
from ..maths.validation import as_size
from . import views
from .controller import caption
from .page import PageExplorer, panel_for_page

__all__ = ["REPLAY_SECONDS", "LearnedExplorer", "TrainingProgress", "learned_explorer"]

#: How long the replay button takes to play every checkpoint, seconds.
REPLAY_SECONDS = 4.0


def _view_for_the_page(view: views.View, match: int) -> dict:
    # One precomputed picture as the page draws it: panels, the passes behind them, text
    def rows(a: np.ndarray) -> list:
        return [[None if v == -np.inf else float(v) for v in row] for row in a]

    att = view.data["attention"]
    panels = [{**panel_for_page(p), "pass": 0} for p in view.panels]
    passes = [{name: rows(getattr(att, name)) for name in ("Q", "K", "scores", "weights")}]
    return {"panels": panels, "passes": passes, "readout": view.readout, "match": match}


class LearnedExplorer(PageExplorer):
    """The trained lookup layer; sliders step (a checkpoint) and example, and a replay button,
    drawn in the page (see :func:`learned_explorer`).

    The page holds every checkpoint's picture for each example shown (computed
    here once): moving either slider is drawn in the page. Attributes:
    ``history`` and ``task`` (what it shows), and from the view (see
    :func:`attnlib.explorers.views.learned_attention_view`) ``attention``,
    ``tokens``, ``sequence`` and ``probs``.
    """

    FAMILY = "views"
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
                tr(
                    "history must be a lookup.History (what lookup.train returns), got {kind}",
                    kind=type(history).__name__,
                )
            )
        if not isinstance(task, lookup.Task):
            raise TypeError(
                tr(
                    "task must be a lookup.Task (what lookup.make_task returns), got {kind}",
                    kind=type(task).__name__,
                )
            )
        if examples is not None:
            examples = as_size("examples", examples, minimum=1)
        self.history, self.task = history, task
        # A handful of examples by default, so that a drag steps through them one by one
        # (500 values on a 165-pixel slider jumped 90 at a time); examples=None: all of them.
        self.examples = len(task) if examples is None else min(examples, len(task))
        self.limit = views.score_limit(history, task, self.examples)  # one colour scale
        super().__init__(size=size, **values)

    def control_spec(self, name: str, limits: dict) -> dict:
        if name == "example":
            return {
                "caption": caption("example"),
                "tooltip": tr("a sequence of the task"),
                "low": 0,
                "high": self.examples - 1,
            }
        steps = sorted(self.history.checkpoints)
        return {
            "caption": caption("step"),
            "tooltip": tr("training step of the checkpoint"),
            "low": 0,
            "high": len(steps) - 1,
            "labels": steps,  # the slider moves over the checkpoints, not evenly spaced steps
        }

    def _refresh_data(self, controls: dict) -> None:
        pass  # every picture is in the page from the start

    def numbers(self, controls: dict, fixed: dict) -> dict:
        # every checkpoint's picture of every example shown, and the replay's pace
        steps = sorted(self.history.checkpoints)
        pictures = [
            [
                _view_for_the_page(self.view(step=step, example=k), self.task[k].match)
                for k in range(self.examples)
            ]
            for step in steps
        ]
        interval = max(50, round(1000 * REPLAY_SECONDS / max(1, len(steps))))
        return {"views": pictures, "replay": {"interval": interval}}

    def moved(self, before: dict, now: dict) -> None:
        # A new example: a selection on the old matching key follows to the new one, as
        # the page does (it says so in the readout when a selected cell stays elsewhere)
        if not self.selection or before.get("example", now["example"]) == now["example"]:
            return
        i, j, panel = self.selection
        if j == self.task[before["example"]].match:
            self.selection = [i, self.task[now["example"]].match, panel]

    def view(self, *, step: int, example: int) -> views.View:
        return views.learned_attention_view(
            self.history, self.task, step=step, example=example, limit=self.limit
        )

    def hint_text(self) -> str:
        return tr(
            "click a cell, or focus the picture and press the arrow keys, to see where its "
            "numbers come from"
        )


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
    example)`` drawn in the page as :func:`explorer` draws (click a cell
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
