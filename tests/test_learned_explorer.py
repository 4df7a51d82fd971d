"""The learned explorer: the step and example sliders show what lookup.learned_view returns."""

from __future__ import annotations

import html

import ipywidgets
import numpy as np
import pytest

import attnlib
from attnlib import explain, lookup
from attnlib.explorers.learned import LearnedExplorer
from attnlib.explorers.readouts import learned_readout


@pytest.fixture(scope="module")
def trained():
    # Short, so the test stays quick: the checkpoints still run from uniform to matching.
    history = lookup.train(
        lookup.init_params(seed=0),
        lookup.make_task(1280, seed=0),
        steps=60,
        checkpoints=range(0, 61, 20),
    )
    return history, lookup.make_task(12, seed=1)


def drawn(e) -> list[np.ndarray]:
    return [np.asarray(h.image.get_array()) for h in e.canvas.heatmaps]


def assert_shows_learned_view(e, history, task, step, example):
    att, tokens = lookup.learned_view(history, task, step, example)
    for got, want in zip(e.attention, att, strict=True):
        np.testing.assert_array_equal(got, want)
    assert e.tokens == tokens
    scores, weights = drawn(e)
    np.testing.assert_array_equal(scores, att.scores)
    np.testing.assert_array_equal(weights, att.weights)
    ax = e.canvas.heatmaps[0].ax
    assert [t.get_text() for t in ax.get_yticklabels()] == list(tokens)
    out = lookup.forward(history.checkpoints[step], task[example], scaled=history.scaled)
    assert learned_readout(att, task[example], out.probs, step=step) in e.readout.value


def test_starts_at_the_last_checkpoint_with_a_slider_over_the_checkpoints(trained):
    history, task = trained
    e = attnlib.learned_explorer(history, task)
    assert isinstance(e, LearnedExplorer) and isinstance(e, ipywidgets.Box)
    assert repr(e) == "LearnedExplorer(step=60, example=0)"
    assert isinstance(e.step, ipywidgets.SelectionSlider)
    assert list(e.step.options) == [0, 20, 40, 60] and e.step.value == 60
    # a handful of held-out examples by default, one per slider position; all on request
    assert (e.example.min, e.example.max, e.example.value) == (0, 7, 0)
    every = attnlib.learned_explorer(history, task, examples=None)
    assert (every.example.min, every.example.max) == (0, 11)
    assert attnlib.learned_explorer(history, task, example=9).example.max == 9
    assert_shows_learned_view(e, history, task, 60, 0)


def test_moving_step_and_example_shows_what_learned_view_returns(trained):
    history, task = trained
    e = attnlib.learned_explorer(history, task, step=0, example=2, examples=None)
    figure = e.figure
    for name, value in [("step", 20), ("example", 5), ("step", 60), ("example", 11), ("step", 0)]:
        getattr(e, name).value = value
        assert e.last_error is None
        assert e.figure is figure
        assert_shows_learned_view(e, history, task, e.step.value, e.example.value)


def test_a_step_change_takes_the_fast_path_and_equals_a_full_draw(trained):
    history, task = trained
    e = attnlib.learned_explorer(history, task, step=0, example=1)
    e.select((5, 2))
    full = e.canvas.full_redraws
    e.step.value = 40
    e.step.value = 60
    assert e.canvas.full_redraws == full and e.canvas.fast_redraws >= 2
    fast = np.asarray(e.figure.canvas.buffer_rgba()).copy()
    e.figure.canvas.draw()
    np.testing.assert_array_equal(fast, np.asarray(e.figure.canvas.buffer_rgba()))


def test_click_a_cell_explains_it_and_the_sliders_keep_it(trained):
    history, task = trained
    e = attnlib.learned_explorer(history, task, step=60, example=4)
    seq = task[4]
    x, y = e.cell_pixel((5, seq.match), panel=1)  # the query's row, the matching pair
    e.on_click({"type": "click", "dataX": round(x), "dataY": round(y)})
    assert e.selection == (5, seq.match)
    text = html.unescape(e.readout.value)
    assert f"query i = 5 '{seq.tokens[-1]}', key j = {seq.match} '{seq.tokens[seq.match]}'" in text
    assert f"{e.attention.scores[5, seq.match]:.3f}" in text
    e.step.value = 0  # the same cell, its numbers before training
    att, tokens = lookup.learned_view(history, task, 0, 4)
    assert e.selection == (5, seq.match)
    # every product is shown (d_k = 8 here), so that they add up on screen
    assert explain(att, 5, seq.match, tokens=tokens, max_items=8).html() in e.readout.value
    assert "not shown" not in e.readout.value
    assert task[7].match != seq.match  # so that following the match moves the cell
    e.example.value = 7  # another sequence: the selection follows the matching key
    assert e.selection == (5, task[7].match) and "kept its column" not in e.readout.value
    assert e.key_j.options[1][0] == f"0: {task[7].tokens[0]}"
    other = next(j for j in range(5) if j not in (task[7].match, task[3].match))
    e.select((5, other))  # a cell off the match stays where it is, and the readout says so
    e.example.value = 3
    assert e.selection == (5, other)
    assert f"kept its column j = {other}" in e.readout.value
    assert f"matching pair is at j = {task[3].match}" in e.readout.value


def test_the_score_colours_mean_the_same_at_every_step_and_the_title_says_so(trained):
    history, task = trained
    e = attnlib.learned_explorer(history, task, step=0, example=0)
    largest = max(
        np.abs(lookup.learned_view(history, task, s, k)[0].scores).max()
        for s in history.checkpoints
        for k in range(8)
    )
    first = np.abs(e.attention.scores).max()
    assert first < largest / 4  # at step 0 the scores are small: the test would see a data limit
    clims = []
    for step in (0, 20, 60):
        e.step.value = step
        clims.append(e.canvas.heatmaps[0].image.get_clim())
    limit = clims[0][1]
    assert clims == [(-limit, limit)] * 3 and largest <= limit < 1.6 * largest
    assert f"colours fixed ±{limit:g}" in e.canvas.heatmaps[0].ax.get_title()
    assert e.shown.panels[0].limit == limit


def test_the_example_label_is_not_cut_off(trained):
    history, task = trained
    e = attnlib.learned_explorer(history, task)
    assert e.example.style.description_width == "initial"  # as wide as the word


CHECKPOINTS = "step must be one of the checkpoints [0, 20, 40, 60]"


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"step": 30}, ValueError, f"{CHECKPOINTS}, got 30"),
        ({"step": True}, ValueError, f"{CHECKPOINTS}, got True"),
        ({"example": 12}, ValueError, "example must be an integer from 0 to 11, got 12"),
        ({"size": "huge"}, ValueError, "size must be one of ['large', 'normal'], got 'huge'"),
    ],
)
def test_bad_arguments_name_the_argument(trained, kwargs, error, message):
    history, task = trained
    with pytest.raises(error) as info:
        attnlib.learned_explorer(history, task, **kwargs)
    assert str(info.value) == message


def test_history_and_task_must_be_what_lookup_makes(trained):
    history, task = trained
    with pytest.raises(TypeError, match=r"history must be a lookup\.History .* got dict"):
        attnlib.learned_explorer({}, task)
    with pytest.raises(TypeError, match=r"task must be a lookup\.Task .* got list"):
        attnlib.learned_explorer(history, [task[0]])


def test_the_replay_button_steps_through_every_checkpoint_in_a_few_seconds(trained):
    history, task = trained
    e = attnlib.learned_explorer(history, task, step=0, example=1)
    assert isinstance(e.replay, ipywidgets.Play)
    label, button = e.children[1].children[0].children  # first in the controls' row
    assert button is e.replay and label.value == "replay training"
    assert (e.replay.min, e.replay.max) == (0, len(history.checkpoints) - 1)
    seconds = e.replay.interval * (e.replay.max - e.replay.min + 1) / 1000
    assert 2 <= seconds <= 6
    rows = []
    for frame in range(e.replay.max + 1):  # what the button does, frame by frame
        e.replay.value = frame
        assert e.step.value == sorted(history.checkpoints)[frame] and e.last_error is None
        rows.append(e.attention.weights[-1, task[1].match])
    assert rows[-1] > rows[0]  # the query's weight on its match grows as training goes on
    e.step.value = 20  # and the slider moves the button back
    assert e.replay.value == 1


def test_training_progress_shows_the_step_and_the_live_loss():
    progress = attnlib.TrainingProgress(steps=30, every=10)
    seen = []
    history = lookup.train(
        lookup.init_params(seed=0),
        lookup.make_task(64, seed=0),
        steps=30,
        callback=lambda step, loss: (progress(step, loss), seen.append(progress.text.value)),
    )
    assert progress.bar.value == 30 and progress.bar.max == 30
    assert progress.text.value == f"step 30 / 30 · loss {history.losses[-1]:.3f} nats"
    assert seen[9] == f"step 10 / 30 · loss {history.losses[9]:.3f} nats"
    assert seen[10] == seen[9]  # redrawn every 10 steps only
    with pytest.raises(ValueError, match="steps"):
        attnlib.TrainingProgress(steps=0)
