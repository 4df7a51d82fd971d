"""attnlib.lookup: the task's properties, the model's gradient against finite differences,
Adam, deterministic training, and what a trained layer does."""

import numpy as np
import pytest

import attnlib
from attnlib import lookup

# --- the task ---


def test_the_answer_is_the_value_under_the_query_key():
    task = lookup.make_task(500, n_pairs=5, seed=3)
    for b in range(len(task)):
        seq = task[b]
        # found by searching the keys, not by trusting `match`
        where = [j for j, k in enumerate(seq.keys) if k == seq.query]
        assert where == [seq.match]
        assert seq.answer == seq.values[where[0]]


def test_keys_differ_within_a_sequence_and_values_may_repeat():
    task = lookup.make_task(500, n_pairs=6, seed=4)
    assert all(len(set(row)) == 6 for row in task.keys.tolist())
    assert any(len(set(row)) < 6 for row in task.values.tolist())
    assert task.keys.min() >= 0 and task.keys.max() < len(lookup.KEYS)
    assert task.values.min() >= 0 and task.values.max() < len(lookup.VALUES)


def test_the_matching_pair_is_at_every_position():
    task = lookup.make_task(1000, n_pairs=5, seed=5)
    counts = np.bincount(task.match, minlength=5)
    assert counts.min() > 150  # 200 expected at each of the 5 positions


def test_every_key_and_value_is_used():
    task = lookup.make_task(1000, seed=6)
    assert set(task.keys.ravel().tolist()) == set(range(len(lookup.KEYS)))
    assert set(task.answer.tolist()) == set(range(len(lookup.VALUES)))


def test_task_is_determined_by_its_seed():
    a, b, c = (lookup.make_task(50, seed=s) for s in (7, 7, 8))
    for field in ("keys", "values", "query", "match", "answer"):
        np.testing.assert_array_equal(getattr(a, field), getattr(b, field))
    assert not np.array_equal(a.keys, c.keys)


def test_tokens_read_as_pairs_then_a_query():
    seq = lookup.Sequence(
        keys=np.array([2, 0]), values=np.array([7, 3]), query=0, match=1, answer=3
    )
    assert seq.tokens == ("c7", "a3", "?a")


def test_held_out_sequences_are_not_training_sequences():
    train = lookup.make_task(4000, seed=0)
    held = lookup.make_task(500, seed=1)
    seen = {
        (tuple(k), tuple(v), q)
        for k, v, q in zip(
            train.keys.tolist(), train.values.tolist(), train.query.tolist(), strict=True
        )
    }
    repeats = sum(
        (tuple(k), tuple(v), q) in seen
        for k, v, q in zip(
            held.keys.tolist(), held.values.tolist(), held.query.tolist(), strict=True
        )
    )
    assert repeats == 0


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        ({"count": 0}, "count must be an integer >= 1"),
        ({"count": 5, "n_pairs": 9}, "n_pairs must be an integer from 1 to 8"),
        ({"count": 5, "seed": -1}, "seed must be an integer"),
    ],
)
def test_bad_task_arguments_are_named(kwargs, words):
    with pytest.raises(ValueError, match=words):
        lookup.make_task(**kwargs)


# --- the model's gradient ---

H = 1e-5


def _numeric_gradient(params, task, scaled):
    """Central differences of the mean loss, entry by entry; no code shared with backward."""

    def loss(p):
        return np.mean([lookup.forward(p, task[b], scaled=scaled).loss for b in range(len(task))])

    grads = []
    for which, array in enumerate(params):
        G = np.empty_like(array)
        for index in np.ndindex(array.shape):
            plus, minus = [a.copy() for a in params], [a.copy() for a in params]
            plus[which][index] += H
            minus[which][index] -= H
            G[index] = (loss(lookup.Params(*plus)) - loss(lookup.Params(*minus))) / (2 * H)
        grads.append(G)
    return lookup.Params(*grads)


@pytest.mark.parametrize("scaled", [True, False])
def test_loss_gradient_matches_finite_differences(scaled):
    # a partly trained model, so that no gradient is trivially small
    params = lookup.init_params(d=4, d_k=3, d_v=2, qk_scale=1.0, seed=2)
    rng = np.random.default_rng(2)  # W_out and b_out start at 0: give them values
    params = params._replace(W_out=rng.standard_normal((2, 10)), b_out=rng.standard_normal(10))
    task = lookup.make_task(3, n_pairs=3, seed=9)
    loss, got = lookup.loss_and_gradients(params, task, scaled=scaled)
    want = _numeric_gradient(params, task, scaled)
    for name in lookup.Params._fields:
        g, w = getattr(got, name), getattr(want, name)
        error = np.abs(g - w).max() / np.abs(w).max()
        assert error <= 1e-6, (name, error)
    assert np.isclose(
        loss, np.mean([lookup.forward(params, task[b], scaled=scaled).loss for b in range(3)])
    )


def test_batch_gradient_is_the_mean_of_single_ones():
    params, task = lookup.init_params(d=6, seed=1), lookup.make_task(4, seed=2)
    params = params._replace(W_out=np.random.default_rng(1).standard_normal((8, 10)))
    _, together = lookup.loss_and_gradients(params, task, [0, 1, 2, 3])
    singles = [lookup.loss_and_gradients(params, task, [b])[1] for b in range(4)]
    for name in lookup.Params._fields:
        mean = np.mean([getattr(g, name) for g in singles], axis=0)
        np.testing.assert_allclose(getattr(together, name), mean, rtol=1e-12, atol=1e-15)


def test_untrained_model_believes_every_value_equally():
    out = lookup.forward(lookup.init_params(seed=3), lookup.make_task(1, seed=3)[0])
    np.testing.assert_allclose(out.probs, 0.1)
    assert out.loss == pytest.approx(np.log(10))


def test_forward_uses_the_chapters_layer():
    params, seq = lookup.init_params(seed=3), lookup.make_task(1, seed=3)[0]
    params = params._replace(W_out=np.random.default_rng(3).standard_normal((8, 10)))
    out = lookup.forward(params, seq)
    X = np.vstack([params.E_key[seq.keys] + params.E_value[seq.values], params.E_query[seq.query]])
    want = attnlib.reference.self_attention(X, params.W_Q, params.W_K, params.W_V)
    np.testing.assert_allclose(out.att.weights, want.weights, rtol=1e-10)
    logits = want.Z[-1] @ params.W_out + params.b_out
    np.testing.assert_allclose(out.loss, -logits[seq.answer] + np.log(np.exp(logits).sum()))


# --- Adam and training ---


def test_adams_first_step_moves_each_entry_by_lr_against_its_gradient():
    params = lookup.init_params(seed=4)
    grads = lookup.Params(
        *(np.random.default_rng(i).standard_normal(p.shape) for i, p in enumerate(params))
    )
    new, state = lookup.adam_step(params, grads, lookup.adam_start(params), lr=0.05)
    assert state.t == 1
    for p, g, q in zip(params, grads, new, strict=True):
        np.testing.assert_allclose(q - p, -0.05 * np.sign(g), rtol=1e-4)  # m̂ / √v̂ = sign(g)


def test_training_is_deterministic():
    task = lookup.make_task(64, seed=5)
    one = lookup.train(lookup.init_params(seed=5), task, steps=8, checkpoints=[4])
    two = lookup.train(lookup.init_params(seed=5), task, steps=8, checkpoints=[4])
    np.testing.assert_array_equal(one.losses, two.losses)
    assert sorted(one.checkpoints) == [0, 4, 8]
    for a, b in zip(one.checkpoints[4], two.checkpoints[4], strict=True):
        np.testing.assert_array_equal(a, b)


def test_checkpoints_hold_the_parameters_of_their_step():
    task = lookup.make_task(64, seed=6)
    start = lookup.init_params(seed=6)
    long = lookup.train(start, task, steps=6, checkpoints=[3])
    short = lookup.train(start, task, steps=3)
    for a, b in zip(long.checkpoints[3], short.params, strict=True):
        np.testing.assert_array_equal(a, b)
    assert long.checkpoints[0] is start


def test_a_short_run_lowers_the_loss_and_raises_the_match_weight():
    train_task, held = lookup.make_task(1000, seed=7), lookup.make_task(100, seed=8)
    steps = []
    history = lookup.train(
        lookup.init_params(seed=7),
        train_task,
        steps=60,
        callback=lambda step, loss: steps.append(step),
    )
    assert steps == list(range(1, 61))
    before = lookup.evaluate(history.checkpoints[0], held)
    after = lookup.evaluate(history.params, held)
    assert after.loss < before.loss - 0.5
    assert after.match_weight > before.match_weight + 0.2
    assert history.losses[-10:].mean() < history.losses[:10].mean() - 0.5


# --- what the layer does ---


def test_untrained_layer_is_about_uniform():
    held = lookup.make_task(100, seed=9)
    params = lookup.init_params(seed=9)
    rows = np.array([lookup.attend(params, held[b]).weights[-1] for b in range(100)])
    np.testing.assert_allclose(rows, 1 / 6, atol=0.05)


def test_key_scores_against_one_pair_sequences():
    # S[a, b] rebuilt from the layer itself: the sequence (pair (b, v), query a), averaged over v
    params = lookup.init_params(qk_scale=1.0, seed=10)
    S = lookup.key_scores(params)
    for a, b in [(0, 0), (2, 5), (7, 1)]:
        scores = [
            lookup.attend(params, lookup.Sequence(np.array([b]), np.array([v]), a, 0, v)).scores[
                -1, 0
            ]
            for v in range(len(lookup.VALUES))
        ]
        np.testing.assert_allclose(S[a, b], np.mean(scores), rtol=1e-10)
    np.testing.assert_allclose(lookup.key_scores(params, scaled=False), S * np.sqrt(8))


def test_learned_view_is_attend_at_that_checkpoint():
    task = lookup.make_task(40, seed=11)
    history = lookup.train(lookup.init_params(seed=11), task, steps=4, checkpoints=[2])
    att, tokens = lookup.learned_view(history, task, step=2, example=7)
    want = lookup.attend(history.checkpoints[2], task[7])
    np.testing.assert_array_equal(att.weights, want.weights)
    assert tokens == task[7].tokens
    with pytest.raises(ValueError, match=r"step 3 is not a checkpoint; .* are \[0, 2, 4\]"):
        lookup.learned_view(history, task, step=3, example=0)
    with pytest.raises(ValueError, match="index must be an integer from 0 to 39"):
        lookup.learned_view(history, task, step=2, example=40)


def test_bad_training_arguments_are_named():
    task = lookup.make_task(8)
    with pytest.raises(TypeError, match="params must be a Params"):
        lookup.train(tuple(lookup.init_params()), task, steps=1)
    with pytest.raises(ValueError, match="lr must be a positive number"):
        lookup.train(lookup.init_params(), task, steps=1, lr=-1)
    with pytest.raises(ValueError, match="checkpoint step must be an integer from 0 to 5"):
        lookup.train(lookup.init_params(), task, steps=5, checkpoints=[6])
    with pytest.raises(ValueError, match="qk_scale must be a positive number"):
        lookup.init_params(qk_scale=0)


def test_steps_to_reach_against_a_loop():
    losses = np.random.default_rng(12).uniform(0, 3, 60)
    want = None
    for step in range(10, 61):  # the mean of the 10 losses of steps step-9 .. step
        if losses[step - 10 : step].mean() < 1.2:
            want = step
            break
    assert want is not None
    assert lookup.steps_to_reach(losses, 1.2) == want
    assert lookup.steps_to_reach(np.full(20, 2.0), 0.5) is None
    with pytest.raises(ValueError, match="at least window = 10 entries"):
        lookup.steps_to_reach([1.0, 2.0])


def test_query_scores_are_the_query_rows_of_attend():
    params, task = lookup.init_params(seed=2), lookup.make_task(5, seed=3)
    for scaled in (True, False):
        got = lookup.query_scores(params, task, scaled=scaled)  # (5, n)
        assert got.shape == (5, 6)
        for b in range(5):
            np.testing.assert_array_equal(
                got[b], lookup.attend(params, task[b], scaled=scaled).scores[-1]
            )


def test_qk_gradient_norms_measure_after_the_readout_has_moved():
    params, task = lookup.init_params(d_k=16, seed=4), lookup.make_task(64, seed=0)
    _, at_start = lookup.loss_and_gradients(params, task, range(32))
    assert not at_start.W_Q.any() and not at_start.W_K.any()  # W_out = 0: nothing gets through
    q, k = lookup.qk_gradient_norms(params, task)
    assert q > 0 and k > 0
    after_one = lookup.train(params, task, steps=1).params  # by hand: one step, then batch 2
    _, grads = lookup.loss_and_gradients(after_one, task, range(32, 64))
    assert (q, k) == (np.linalg.norm(grads.W_Q), np.linalg.norm(grads.W_K))


@pytest.mark.parametrize("scaled", [True, False])
@pytest.mark.parametrize("batch", [None, range(32), [5, 5, 17, 0], [3]])
def test_the_batched_gradient_is_the_loop_over_sequences(scaled, batch):
    # train() uses the batched form; the loop is the one the notebook reads
    task = lookup.make_task(64, seed=3)
    for params in (lookup.init_params(seed=2), lookup.init_params(d_k=64, qk_scale=1.0, seed=1)):
        loss, grads = lookup.loss_and_gradients(params, task, batch, scaled=scaled)
        loss_b, grads_b = lookup.batch_loss_and_gradients(params, task, batch, scaled=scaled)
        assert loss_b == pytest.approx(loss, abs=1e-12)
        for name, g, g_b in zip(lookup.Params._fields, grads, grads_b, strict=True):
            np.testing.assert_allclose(g_b, g, rtol=0, atol=1e-12, err_msg=name)


def test_qk_lr_sets_the_step_of_W_Q_and_W_K_only():
    params = lookup.init_params(seed=4)
    grads = lookup.Params(
        *(np.random.default_rng(i).standard_normal(p.shape) for i, p in enumerate(params))
    )
    steps = lookup.Params(
        *(0.05 if name in ("W_Q", "W_K") else 0.01 for name in lookup.Params._fields)
    )
    new, _ = lookup.adam_step(params, grads, lookup.adam_start(params), lr=steps)
    for name, p, g, q in zip(lookup.Params._fields, params, grads, new, strict=True):
        step = 0.05 if name in ("W_Q", "W_K") else 0.01
        np.testing.assert_allclose(q - p, -step * np.sign(g), rtol=1e-4)
    task = lookup.make_task(64, seed=3)
    one = lookup.train(lookup.init_params(seed=3), task, steps=1, lr=0.01, qk_lr=0.05).params
    two, _ = lookup.adam_step(
        lookup.init_params(seed=3),
        lookup.batch_loss_and_gradients(lookup.init_params(seed=3), task, range(32))[1],
        lookup.adam_start(params),
        lr=steps,
    )
    for a, b in zip(one, two, strict=True):
        np.testing.assert_array_equal(a, b)
    with pytest.raises(ValueError, match="qk_lr must be a positive number"):
        lookup.train(lookup.init_params(), task, steps=1, qk_lr=0.0)


def test_a_scaled_run_is_an_unscaled_run_with_smaller_start_and_steps_for_W_Q_and_W_K():
    # q · k / √d_k with q, k from W_Q, W_K equals q' · k' with W' = W / d_k^(1/4), and Adam's
    # step (free of the gradient's scale, but for its ε) in W' matches W's when divided by d_k^(1/4)
    task, d_k = lookup.make_task(256, seed=2), 16
    shrink = d_k**0.25
    scaled = lookup.train(lookup.init_params(d_k=d_k, qk_scale=1.0, seed=2), task, steps=30)
    control = lookup.train(
        lookup.init_params(d_k=d_k, qk_scale=1.0 / shrink, seed=2),
        task,
        steps=30,
        scaled=False,
        qk_lr=0.01 / shrink,
    )
    np.testing.assert_allclose(control.losses, scaled.losses, atol=1e-3)
    np.testing.assert_allclose(control.params.W_Q * shrink, scaled.params.W_Q, atol=1e-3)
    plain = lookup.train(
        lookup.init_params(d_k=d_k, qk_scale=1.0 / shrink, seed=2), task, steps=30, scaled=False
    )
    assert np.abs(plain.losses - scaled.losses).max() > 1e-2  # without the smaller steps: not equal


def test_sequence_gradient_norms_are_the_gradients_of_one_sequence_after_one_step():
    task, start = lookup.make_task(80, seed=4), lookup.init_params(d_k=16, qk_scale=1.0, seed=4)
    norms = lookup.sequence_gradient_norms(start, task, scaled=False, count=5, batch_size=8)
    after_one = lookup.train(start, task, steps=1, batch_size=8, scaled=False).params
    for r in range(5):
        grads = lookup.loss_and_gradients(after_one, task, [8 + r], scaled=False)[1]
        want = np.sqrt((grads.W_Q**2).sum() + (grads.W_K**2).sum())
        assert norms[r] == pytest.approx(want, rel=1e-12)
    # the batch's gradient is the mean of its sequences': its size is at most their mean size
    batch = lookup.loss_and_gradients(after_one, task, range(8, 13), scaled=False)[1]
    assert np.hypot(np.linalg.norm(batch.W_Q), np.linalg.norm(batch.W_K)) <= norms.mean()
    with pytest.raises(ValueError, match="task has 80 sequences but batch_size \\+ count = 90"):
        lookup.sequence_gradient_norms(start, task, count=58, batch_size=32)
