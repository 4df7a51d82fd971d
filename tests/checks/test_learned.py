"""attnlib.checks.learned and learned_predictions: the checks of notebook 06.

Each solution in attnlib.solutions must pass its check, and each typical
wrong answer must fail with the message or hint written for it, never with a
traceback. The solutions themselves are checked against the softmax's
Jacobian written out entry by entry, which shares no formula with them.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

import attnlib
from attnlib import checks, lookup, reference, solutions
from attnlib.checks import learned, learned_predictions

from .helpers import fails_with, passes

SOLVED = [
    (checks.check_softmax_backward, solutions.my_softmax_backward),
    (checks.check_loss_gradient, solutions.my_loss_gradient),
]


def test_every_check_of_the_module_is_listed():
    # check_pick takes a prediction, not a function: tested further down, with the
    # predictions of learned_predictions
    assert {check.__name__ for check, _ in SOLVED} | {"check_pick"} == {
        name for name in dir(learned) if name.startswith("check_")
    }
    assert {name for name in dir(learned_predictions) if name.startswith("check_")} == {
        "check_prediction_uniform_loss",
        "check_prediction_gradient_size",
        "check_prediction_spread_growth",
        "check_prediction_loss_gradient",
    }


@pytest.mark.parametrize("check", [check for check, _ in SOLVED])
def test_an_answer_a_little_off_fails(check):
    # the finite differences are good to about 1e-10: an error of 1e-4 must show
    solution = dict(SOLVED)[check]

    def nearly(*args):
        got = np.array(solution(*args), dtype=float)
        got.flat[1] += 1e-4
        return got

    fails_with(check(nearly), "entry (", "but should be")


# --- the solutions against the softmax's Jacobian, entry by entry --------------


def jacobian(w):
    """d weights_j / d scores_k = w_j (δ_jk - w_k), for one row of weights."""
    n = len(w)
    return np.array([[w[j] * ((j == k) - w[k]) for k in range(n)] for j in range(n)])


def test_softmax_backward_solution_is_the_jacobian_product():
    rng = np.random.default_rng(5)
    scores, d_weights = rng.standard_normal((2, 3, 5))  # (n_q, n_kv) each
    weights = np.asarray(reference.softmax_rows(scores))  # (n_q, n_kv)
    expected = np.array([jacobian(w).T @ g for w, g in zip(weights, d_weights, strict=True)])
    np.testing.assert_allclose(solutions.my_softmax_backward(weights, d_weights), expected)


def test_loss_gradient_solution_is_the_jacobian_product():
    # loss = -log p[answer], so d loss / d p = -1 / p[answer] at the answer, 0 elsewhere
    logits = np.random.default_rng(6).standard_normal(7)
    answer = 4
    p = np.asarray(reference.softmax_rows([logits])[0])
    d_p = np.zeros(7)
    d_p[answer] = -1 / p[answer]
    np.testing.assert_allclose(solutions.my_loss_gradient(logits, answer), jacobian(p).T @ d_p)


# --- check_softmax_backward ----------------------------------------------------


@pytest.mark.parametrize(
    ("wrong", "words"),
    [
        (lambda w, g: w * g, ["misses the second term", "Σ_j g_j α_j, one number per row"]),
        (
            lambda w, g: w * (g - (g * w).sum(axis=0, keepdims=True)),
            ["summed down the columns", "runs along a row"],
        ),
        (
            lambda w, g: 2 * solutions.my_softmax_backward(w, g),
            ["for 3 rows of 4 scores, entry", "one sum per row"],
        ),
        (lambda w, g: w[0], ["you returned shape (4,), expected (3, 4)"]),
        (lambda w, g: solutions.my_softmax_backward(w, g).T, ["shape (4, 3), expected (3, 4)"]),
        (lambda w, g: np.log(w - 1), ["nan or inf"]),
    ],
)
def test_softmax_backward_typical_mistakes(wrong, words):
    fails_with(checks.check_softmax_backward(wrong), *words)


def test_softmax_backward_hint_comes_with_the_learners_exception():
    result = checks.check_softmax_backward(lambda w, g: w @ g)  # (3, 4) @ (3, 4): no fit
    fails_with(result, "raised ValueError", "α_l (g_l - Σ_j g_j α_j)")


# --- check_loss_gradient -------------------------------------------------------


@pytest.mark.parametrize(
    ("wrong", "words"),
    [
        (lambda z, a: -np.eye(10)[a], ["probabilities are missing", "two terms"]),
        (
            lambda z, a: -solutions.my_loss_gradient(z, a),
            ["wrong sign", "the loss falls when the answer's logit rises"],
        ),
        (lambda z, a: np.exp(z) - np.eye(10)[a], ["10 logits with answer 3, entry"]),
        (
            lambda z, a: reference.softmax_rows([z])[0],
            ["entry (3,)", "step 1 of the backward pass"],
        ),
        (lambda z, a: solutions.my_loss_gradient(z, a)[None], ["shape (1, 10), expected (10,)"]),
    ],
)
def test_loss_gradient_typical_mistakes(wrong, words):
    fails_with(checks.check_loss_gradient(wrong), *words)


# --- check_pick ----------------------------------------------------------------


@pytest.fixture(scope="module")
def trained():
    history = lookup.train(lookup.init_params(seed=0), lookup.make_task(4000, seed=0), steps=120)
    return history.params


@pytest.fixture(scope="module")
def seq():
    return lookup.make_task(1, seed=12)[0]


def test_check_pick_accepts_the_row_maximum_as_position_or_token(trained, seq):
    row = lookup.attend(trained, seq).weights[-1]  # (n,)
    top = int(row.argmax())
    assert top == seq.match  # the trained layer looks at the matching pair
    for prediction in (top, np.int64(top), seq.tokens[top]):
        result = checks.check_pick(prediction, trained, seq)
        passes(result)
        assert f"{row[top]:.2f} of its weight on {seq.tokens[top]!r}" in result.message


def test_check_pick_names_the_weight_of_a_wrong_pick(trained, seq):
    row = lookup.attend(trained, seq).weights[-1]  # (n,)
    wrong = (seq.match + 1) % (len(seq.tokens) - 1)
    result = checks.check_pick(wrong, trained, seq)
    fails_with(result, f"puts only {row[wrong]:.2f}", "which pair holds the key")


@pytest.mark.parametrize(
    ("prediction", "words"),
    [
        (None, "replace None with your prediction"),
        (..., "replace ... with your prediction"),
        ("zz", "'zz' is not a token of this sequence"),
        (9, "position 9 is outside 0 to 5"),
        (-1, "position -1 is outside 0 to 5"),
        (1.5, "give a position or a token, not 1.5"),
        (True, "give a position or a token, not True"),
    ],
)
def test_check_pick_bad_predictions(seq, prediction, words):
    assert len(seq.tokens) == 6  # the messages above name positions 0 to 5
    fails_with(checks.check_pick(prediction, lookup.init_params(), seq), words)


@pytest.fixture(scope="module")
def notebook_seq():
    """Notebook 06's example, c7 e6 h5 f5 a9 ?f: h5 stores the same value as f5, the match."""
    seq = lookup.make_task(500, seed=1)[0]
    assert seq.tokens == ("c7", "e6", "h5", "f5", "a9", "?f") and seq.match == 3
    return seq


@pytest.mark.parametrize("prediction", [3, "f5", "F5", " f5 ", "'f5'", "ｆ５", "f", "F"])
def test_check_pick_accepts_every_way_of_naming_the_position(trained, notebook_seq, prediction):
    result = checks.check_pick(prediction, trained, notebook_seq)
    passes(result)
    assert "of its weight on 'f5' (position 3)" in result.message


@pytest.mark.parametrize(
    ("prediction", "words"),
    [
        ("h5", ["only 0.00 of its weight on 'h5'", "the same value", "keys, not with the values"]),
        ("H5", ["on 'h5'", "the same value"]),
        (2, ["on 'h5'", "the same value"]),
        ("?f", ["the query itself", "the key 'f'"]),
        (5, ["the query itself"]),
        (4, ["position 4 is 'a9'", "count from 1"]),
        ("c7", ["on 'c7'", "which pair holds the key 'f'?"]),
        ("f7", ["'f7' is not a token", "key 'f' is there", "another value"]),
        ("b5", ["'b5' is not a token", "no pair has the key 'b'", "not with the values"]),
        ("zz", ["'zz' is not a token of this sequence: c7 e6 h5 f5 a9 ?f"]),
    ],
)
def test_check_pick_names_the_slip(trained, notebook_seq, prediction, words):
    fails_with(checks.check_pick(prediction, trained, notebook_seq), *words)


def test_check_pick_slips_read_in_chinese(trained, notebook_seq):
    attnlib.set_language("zh")
    try:
        same_value = checks.check_pick("h5", trained, notebook_seq)
        by_key = checks.check_pick("f", trained, notebook_seq)
    finally:
        attnlib.set_language("en")
    fails_with(same_value, "'h5'")
    assert re.search(r"[\u4e00-\u9fff]", same_value.hint) and "'f'" in same_value.hint
    passes(by_key)
    assert "'f5'" in by_key.message


# --- predictions of notebook 06 ------------------------------------------------


def test_uniform_loss_is_log_10_and_a_first_miss_gets_the_slip_only():
    check = checks.check_prediction_uniform_loss
    passes(check(2.3))
    passes(check(np.log(10)))
    passes(check(np.log(4), n_values=4))
    check.reset()
    first = check(0.1)
    fails_with(first, "not right yet", "0.1 is the probability", "minus its log")
    assert "2.303" not in str(first)  # no answer on the first try
    fails_with(check(0.1), "2.303", "0.1 is the probability")
    fails_with(check(1.0, reveal=True), "log base 10")
    fails_with(check(np.log2(10), reveal=True), "log base 2")
    fails_with(check(-2.303, reveal=True), "sign is turned round")
    fails_with(check(5.0, reveal=True), "-log of the probability")
    check.reset()
    fails_with(check(5.0), "not right yet", "minus its natural log")  # no slip: the step
    fails_with(check(...), "not written a prediction")
    fails_with(check("2.3"), "not a number")
    check.reset()


def test_gradient_size_is_larger_unscaled_as_measured():
    task = lookup.make_task(4000, seed=0)
    for seed in range(6):  # the claim the check grades, measured here directly
        start = lookup.init_params(d_k=64, qk_scale=1.0, seed=seed)
        scaled = sum(lookup.qk_gradient_norms(start, task, scaled=True))
        unscaled = sum(lookup.qk_gradient_norms(start, task, scaled=False))
        assert unscaled > 1.5 * scaled
    passes(checks.check_prediction_gradient_size("larger"))
    passes(checks.check_prediction_gradient_size(" Larger"))
    result = checks.check_prediction_gradient_size("smaller", reveal=True)
    fails_with(result, "it is larger", "times the scaled one", "√d_k = 8 times more")
    fails_with(checks.check_prediction_gradient_size("bigger"), "not one of the choices")


def test_spread_growth_is_the_square_root_of_the_variance_growth():
    passes(checks.check_prediction_spread_growth(2))
    passes(checks.check_prediction_spread_growth(3, d_k_from=16, d_k_to=144))
    fails_with(checks.check_prediction_spread_growth(4, reveal=True), "2 times", "variance grows")
    fails_with(checks.check_prediction_spread_growth(8, reveal=True), "spread at one d_k")
    fails_with(checks.check_prediction_spread_growth(3, reveal=True), "square root")


def test_loss_gradient_prediction():
    passes(checks.check_prediction_loss_gradient((-0.9, 0.1)))
    passes(checks.check_prediction_loss_gradient([-0.75, 0.25], n_values=4))
    fails_with(
        checks.check_prediction_loss_gradient((0.9, -0.1), reveal=True), "signs are turned round"
    )
    fails_with(
        checks.check_prediction_loss_gradient((-1, 0), reveal=True), "(-0.9, 0.1)", "p - one_hot"
    )
    fails_with(checks.check_prediction_loss_gradient(0.1), "not a pair of numbers")
    fails_with(checks.check_prediction_loss_gradient(("a", "b")), "not a pair of numbers")
