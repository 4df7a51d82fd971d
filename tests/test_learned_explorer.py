"""The learned explorer: the step and example sliders show what lookup.learned_view returns,
and the page holds every picture it can show."""

from __future__ import annotations

import html

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


def assert_shows_learned_view(e, history, task, step, example):
    att, tokens = lookup.learned_view(history, task, step, example)
    for got, want in zip(e.attention, att, strict=True):
        np.testing.assert_array_equal(got, want)
    assert e.tokens == tokens
    scores, weights = e.shown.panels
    np.testing.assert_array_equal(scores.matrix, att.scores)
    np.testing.assert_array_equal(weights.matrix, att.weights)
    assert scores.row_labels == tuple(tokens)
    out = lookup.forward(history.checkpoints[step], task[example], scaled=history.scaled)
    assert e.shown.readout == learned_readout(att, task[example], out.probs, step=step)
    # and the page's own copy of that picture is the same numbers
    sent = e.views[sorted(history.checkpoints).index(step)][example]
    np.testing.assert_array_equal(np.array(sent["panels"][1]["matrix"]), att.weights)
    assert sent["readout"] == e.shown.readout


def test_starts_at_the_last_checkpoint_with_a_slider_over_the_checkpoints(trained):
    history, task = trained
    e = attnlib.learned_explorer(history, task)
    assert isinstance(e, LearnedExplorer)
    assert repr(e) == "LearnedExplorer(step=60, example=0)"
    assert e.limits["step"]["labels"] == [0, 20, 40, 60] and e.step.value == 60
    # a handful of held-out examples by default, one per slider position; all on request
    assert (e.example.min, e.example.max, e.example.value) == (0, 7, 0)
    every = attnlib.learned_explorer(history, task, examples=None)
    assert (every.example.min, every.example.max) == (0, 11) and len(every.views[0]) == 12
    assert attnlib.learned_explorer(history, task, example=9).example.max == 9
    assert len(e.views) == 4 and len(e.views[0]) == 8  # every picture, in the page
    assert_shows_learned_view(e, history, task, 60, 0)


def test_moving_step_and_example_shows_what_learned_view_returns(trained):
    history, task = trained
    e = attnlib.learned_explorer(history, task, step=20, example=2)
    e.step.value = 40
    assert_shows_learned_view(e, history, task, 40, 2)
    e.example.value = 5
    assert_shows_learned_view(e, history, task, 40, 5)


def test_a_selected_cell_is_explained_and_follows_the_matching_key(trained):
    history, task = trained
    e = attnlib.learned_explorer(history, task, step=60, example=4)
    seq = task[4]
    e.select((5, seq.match), panel=1)  # the query's row, the matching pair
    text = html.unescape(e.details)
    assert f"query i = 5 '{seq.tokens[-1]}', key j = {seq.match} '{seq.tokens[seq.match]}'" in text
    assert f"{e.attention.scores[5, seq.match]:.3f}" in text
    e.step.value = 0  # the same cell, its numbers before training
    att, tokens = lookup.learned_view(history, task, 0, 4)
    assert e.shown.selection == (5, seq.match)
    # every product is shown (d_k = 8 here), so that they add up on screen
    assert explain(att, 5, seq.match, tokens=tokens, max_items=8).html() in e.details
    assert "not shown" not in e.details
    assert task[7].match != seq.match  # so that following the match moves the cell
    e.example.value = 7  # another sequence: the selection follows the matching key
    assert e.shown.selection == (5, task[7].match)
    other = next(j for j in range(5) if j not in (task[7].match, task[3].match))
    e.select((5, other))  # a cell off the match stays where it is
    e.example.value = 3
    assert e.shown.selection == (5, other)


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
    limits = {row[0]["panels"][0]["limit"] for row in e.views}
    (limit,) = limits  # one colour scale for every step
    assert largest <= limit < 1.6 * largest
    assert f"colours fixed ±{limit:g}" in e.shown.panels[0].title


CHECKPOINTS = "step must be one of [0, 20, 40, 60]"


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


def test_the_replay_steps_through_every_checkpoint_in_a_few_seconds(trained):
    history, task = trained
    e = attnlib.learned_explorer(history, task, step=0, example=1)
    seconds = e.replay["interval"] * len(history.checkpoints) / 1000
    assert 2 <= seconds <= 6
    rows = []
    for step in sorted(history.checkpoints):  # what the button does in the page, frame by frame
        e.step.value = step
        rows.append(e.attention.weights[-1, task[1].match])
    assert rows[-1] > rows[0]  # the query's weight on its match grows as training goes on


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
