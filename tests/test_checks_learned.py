"""attnlib.checks_learned: right answers pass, typical slips fail with their own message."""

import numpy as np
import pytest

from attnlib import checks_learned, lookup


def test_worked_solutions_pass():
    assert checks_learned.check_softmax_backward(checks_learned.my_softmax_backward)
    assert checks_learned.check_loss_gradient(checks_learned.my_loss_gradient)


@pytest.mark.parametrize(
    ("answer", "words"),
    [
        (lambda w, g: w * g, "misses the second term"),
        (lambda w, g: w * (g - (g * w).sum(axis=0, keepdims=True)), "summed down the columns"),
        (lambda w, g: w * (g - (g * w).sum(axis=1, keepdims=True)) * 2, "finite differences"),
        (lambda w, g: None, "returned None"),
        (lambda w, g: w[0], "shape (4,)"),
        (lambda w, g: 1 / 0, "raised ZeroDivisionError"),
        ("not a function", "expected a function"),
    ],
)
def test_softmax_backward_slips(answer, words):
    result = checks_learned.check_softmax_backward(answer)
    assert not result
    assert words in str(result)


@pytest.mark.parametrize(
    ("answer", "words"),
    [
        (lambda z, a: -np.eye(10)[a], "probabilities are missing"),
        (lambda z, a: -checks_learned.my_loss_gradient(z, a), "wrong sign"),
        (lambda z, a: np.exp(z) - np.eye(10)[a], "differs from finite differences"),
    ],
)
def test_loss_gradient_slips(answer, words):
    result = checks_learned.check_loss_gradient(answer)
    assert not result
    assert words in str(result)


@pytest.fixture(scope="module")
def trained():
    history = lookup.train(lookup.init_params(seed=0), lookup.make_task(4000, seed=0), steps=120)
    return history.params


def test_check_pick_accepts_the_row_maximum_as_position_or_token(trained):
    seq = lookup.make_task(1, seed=12)[0]
    row = lookup.attend(trained, seq).weights[-1]
    top = int(row.argmax())
    assert top == seq.match  # the trained layer looks at the matching pair
    assert checks_learned.check_pick(top, trained, seq)
    assert checks_learned.check_pick(seq.tokens[top], trained, seq)
    wrong = (top + 1) % (len(seq.tokens) - 1)
    result = checks_learned.check_pick(wrong, trained, seq)
    assert not result and "which pair holds the key" in str(result)


@pytest.mark.parametrize(
    ("prediction", "words"),
    [
        (None, "replace None"),
        ("zz", "not a token"),
        (9, "outside 0 to 5"),
        (1.5, "give a position"),
    ],
)
def test_check_pick_bad_predictions(prediction, words):
    seq = lookup.make_task(1, seed=12)[0]
    result = checks_learned.check_pick(prediction, lookup.init_params(), seq)
    assert not result and words in str(result)
