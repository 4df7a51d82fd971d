"""A lookup task, and one self-attention layer trained on it in plain numpy.

The task in one sentence: a sequence of key–value pairs ends with a query
key, and the answer is the value stored under that key::

    c7 a3 e1 b9 h4 ?a  ->  3

Each pair is one token (``c7`` holds the key ``c`` and the value ``7``) and
the last token asks for a key (``?a``). The matching pair sits at any
position, so attention that looks at a fixed position, or at everything
equally, cannot answer: the query must find the token by its content.

The model is the chapter's layer with an embedding before it and a readout
after it::

    x_j  = E_key[key_j] + E_value[value_j]     one row per pair token
    x_n  = E_query[query key]                  the last row: the query token
    att  = attnlib.self_attention(X, W_Q, W_K, W_V)
    logits = z_n @ W_out + b_out               read the query token's output
    loss = cross-entropy(logits, answer)

All of it is trained by gradient descent (Adam), with the backward pass
written by hand in :func:`loss_and_gradients` and
:func:`attnlib.self_attention_backward`. Everything is seeded: the same
seeds give the same numbers on every run.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from .backward import self_attention_backward
from .core import Attention, self_attention
from .validation import as_size, tr

#: The keys a pair can have, and the values it can store.
KEYS: tuple[str, ...] = tuple("abcdefgh")
VALUES: tuple[str, ...] = tuple("0123456789")

MAX_SEED = 2**32 - 1
_STREAM = {
    "task": 0,
    "E_key": 1,
    "E_value": 2,
    "E_query": 3,
    "W_Q": 4,
    "W_K": 5,
    "W_V": 6,
}


# --- the task ---


class Sequence(NamedTuple):
    """One lookup: pairs, then a query.

    Attributes
    ----------
    keys : ndarray of int, shape (n_pairs,)
        Index into KEYS of each pair's key, all different.
    values : ndarray of int, shape (n_pairs,)
        Index into VALUES of each pair's value (values may repeat).
    query : int
        Index into KEYS of the key asked for: one of `keys`.
    match : int
        Position of the pair whose key is the query: ``keys[match] == query``.
    answer : int
        Index into VALUES of the right answer: ``values[match]``.
    """

    keys: np.ndarray
    values: np.ndarray
    query: int
    match: int
    answer: int

    @property
    def tokens(self) -> tuple[str, ...]:
        """The n = n_pairs + 1 tokens as text, e.g. ``('c7', 'a3', '?a')``."""
        pairs = tuple(KEYS[k] + VALUES[v] for k, v in zip(self.keys, self.values, strict=True))
        return (*pairs, "?" + KEYS[self.query])


@dataclass(frozen=True)
class Task:
    """Many lookups of the same length, as arrays (``task[b]`` is one :class:`Sequence`).

    Attributes
    ----------
    keys, values : ndarray of int, shape (count, n_pairs)
    query, match, answer : ndarray of int, shape (count,)
    """

    keys: np.ndarray
    values: np.ndarray
    query: np.ndarray
    match: np.ndarray
    answer: np.ndarray

    def __len__(self) -> int:
        return len(self.query)

    def __getitem__(self, b: int) -> Sequence:
        b = as_size("index", b, minimum=0, maximum=len(self) - 1)
        return Sequence(
            self.keys[b],
            self.values[b],
            int(self.query[b]),
            int(self.match[b]),
            int(self.answer[b]),
        )

    @property
    def n_pairs(self) -> int:
        return self.keys.shape[1]


def make_task(count: int, *, n_pairs: int = 5, seed: int = 0) -> Task:
    """`count` random lookups with `n_pairs` pairs each, from `seed`.

    In each sequence the keys are all different (drawn from KEYS without
    repeats), the values are drawn from VALUES with repeats allowed, and the
    query asks for the key at a uniformly random position, so the matching
    pair is as often first as last.

    Parameters
    ----------
    count : int
        Number of sequences, 1 or more.
    n_pairs : int, default 5
        Pairs per sequence, from 1 to len(KEYS); each sequence has
        n = n_pairs + 1 tokens.
    seed : int, default 0
        Same seed, same sequences. Use different seeds for training and
        held-out sequences.

    Returns
    -------
    Task

    Examples
    --------
    >>> task = make_task(3, n_pairs=4, seed=1)
    >>> len(task), task.keys.shape
    (3, (3, 4))
    >>> seq = task[0]
    >>> bool(seq.keys[seq.match] == seq.query and seq.values[seq.match] == seq.answer)
    True
    """
    count = as_size("count", count)
    n_pairs = as_size("n_pairs", n_pairs, maximum=len(KEYS))
    seed = as_size("seed", seed, minimum=0, maximum=MAX_SEED)
    rng = np.random.default_rng([seed, _STREAM["task"]])
    keys = np.argsort(rng.random((count, len(KEYS))), axis=1)[:, :n_pairs]  # (count, n_pairs)
    values = rng.integers(0, len(VALUES), size=(count, n_pairs))  # (count, n_pairs)
    match = rng.integers(0, n_pairs, size=count)  # (count,)
    rows = np.arange(count)
    return Task(
        keys=keys, values=values, query=keys[rows, match], match=match, answer=values[rows, match]
    )


# --- the model ---


class Params(NamedTuple):
    """Everything the model learns (all float arrays).

    Attributes
    ----------
    E_key : ndarray, shape (len(KEYS), d)
        Embedding of each key, as part of a pair token.
    E_value : ndarray, shape (len(VALUES), d)
        Embedding of each value; a pair token's x is ``E_key[k] + E_value[v]``.
    E_query : ndarray, shape (len(KEYS), d)
        Embedding of each query token ``?k``.
    W_Q, W_K : ndarray, shape (d, d_k)
    W_V : ndarray, shape (d, d_v)
    W_out : ndarray, shape (d_v, len(VALUES))
        Readout: logits = z_query @ W_out + b_out.
    b_out : ndarray, shape (len(VALUES),)
    """

    E_key: np.ndarray
    E_value: np.ndarray
    E_query: np.ndarray
    W_Q: np.ndarray
    W_K: np.ndarray
    W_V: np.ndarray
    W_out: np.ndarray
    b_out: np.ndarray


def init_params(
    *, d: int = 16, d_k: int = 8, d_v: int = 8, qk_scale: float = 0.3, seed: int = 0
) -> Params:
    """Random starting parameters, each array from its own seeded stream.

    A pair token's x has entries of variance 1 (two embeddings of variance
    1/2 each), like a query token's. W_V has entries of variance 1/d. W_out
    and b_out start at zero, so the untrained model believes every value
    equally (loss log 10). W_Q and W_K have entries of standard deviation
    ``qk_scale / √d``, so the coordinates of q and k have a standard deviation
    of about `qk_scale`: 1.0 is the variance-1 setting of 2.2.3; the default
    0.3 makes the untrained layer's weights nearly uniform.

    Parameters
    ----------
    d : int, default 16
        Embedding size.
    d_k, d_v : int, default 8
    qk_scale : float, default 0.3
        Size of the starting q and k coordinates (positive).
    seed : int, default 0

    Returns
    -------
    Params

    Examples
    --------
    >>> params = init_params(d=16, d_k=8, d_v=4)
    >>> params.W_Q.shape, params.W_V.shape, params.W_out.shape
    ((16, 8), (16, 4), (4, 10))
    """
    d, d_k, d_v = (as_size(name, s) for name, s in (("d", d), ("d_k", d_k), ("d_v", d_v)))
    seed = as_size("seed", seed, minimum=0, maximum=MAX_SEED)
    if not (isinstance(qk_scale, (int, float)) and math.isfinite(qk_scale) and qk_scale > 0):
        raise ValueError(tr("qk_scale must be a positive number, got {value!r}", value=qk_scale))

    def normal(name, shape, std):
        return std * np.random.default_rng([seed, _STREAM[name]]).standard_normal(shape)

    n_keys, n_values = len(KEYS), len(VALUES)
    return Params(
        E_key=normal("E_key", (n_keys, d), math.sqrt(0.5)),
        E_value=normal("E_value", (n_values, d), math.sqrt(0.5)),
        E_query=normal("E_query", (n_keys, d), 1.0),
        W_Q=normal("W_Q", (d, d_k), qk_scale / math.sqrt(d)),
        W_K=normal("W_K", (d, d_k), qk_scale / math.sqrt(d)),
        W_V=normal("W_V", (d, d_v), 1 / math.sqrt(d)),
        W_out=np.zeros((d_v, n_values)),  # the untrained model guesses: all values alike
        b_out=np.zeros(n_values),
    )


def embed(params: Params, seq: Sequence) -> np.ndarray:
    """X for one sequence: a row per pair token, then the query token's row.

    Returns
    -------
    ndarray, shape (n, d), n = n_pairs + 1

    Examples
    --------
    >>> params, seq = init_params(d=6), make_task(1, n_pairs=3)[0]
    >>> embed(params, seq).shape
    (4, 6)
    """
    pairs = params.E_key[seq.keys] + params.E_value[seq.values]  # (n_pairs, d) + (n_pairs, d)
    query = params.E_query[seq.query]  # (d,)
    return np.vstack([pairs, query])  # (n_pairs + 1, d) = (n, d)


class Forward(NamedTuple):
    """Every intermediate of the model on one sequence.

    Attributes
    ----------
    X : ndarray, shape (n, d)
    att : Attention
        The layer's Q, K, V, scores, weights (n, n) and Z (n, d_v).
    logits : ndarray, shape (len(VALUES),)
    probs : ndarray, shape (len(VALUES),)
        Softmax of the logits: the model's belief about the answer.
    loss : float
        Cross-entropy ``-log probs[answer]``, in nats.
    """

    X: np.ndarray
    att: Attention
    logits: np.ndarray
    probs: np.ndarray
    loss: float


def forward(params: Params, seq: Sequence, *, scaled: bool = True) -> Forward:
    """Run the model on one sequence and score its answer.

    Examples
    --------
    >>> out = forward(init_params(), make_task(1)[0])
    >>> out.att.weights.shape, out.probs.shape
    ((6, 6), (10,))
    >>> bool(np.isclose(out.probs.sum(), 1.0))
    True
    """
    X = embed(params, seq)  # (n, d)
    att = self_attention(X, params.W_Q, params.W_K, params.W_V, scaled=scaled)
    z_query = att.Z[-1]  # (n, d_v) -> (d_v,): the output at the query token
    logits = z_query @ params.W_out + params.b_out  # (d_v,) @ (d_v, n_values) -> (n_values,)
    shifted = np.exp(logits - logits.max())  # (n_values,)
    probs = shifted / shifted.sum()  # (n_values,)
    return Forward(X, att, logits, probs, float(-np.log(probs[seq.answer])))


def attend(params: Params, seq: Sequence, *, scaled: bool = True) -> Attention:
    """The attention layer's intermediates on one sequence (row -1 is the query).

    Examples
    --------
    >>> att = attend(init_params(), make_task(1)[0])
    >>> bool(np.allclose(att.weights[-1], 1 / 6, atol=0.02))   # untrained: about 1/6 each
    True
    """
    return forward(params, seq, scaled=scaled).att


def loss_and_gradients(
    params: Params, task: Task, batch: Iterable[int] | None = None, *, scaled: bool = True
) -> tuple[float, Params]:
    """Mean cross-entropy over a batch of sequences, and its gradient for every parameter.

    The backward pass undoes the forward one, step by step:

    - cross-entropy of a softmax: ``d_logits = probs - one_hot(answer)``;
    - readout: ``dW_out = outer(z_query, d_logits)``, ``db_out = d_logits``,
      ``dz_query = W_out @ d_logits``; only the query row of Z is read,
      so dZ is zero except its last row;
    - the attention layer: :func:`attnlib.self_attention_backward` gives dX
      and the gradients of W_Q, W_K, W_V;
    - the embedding: row j of dX goes to the table rows that built x_j (a
      pair's to both its key's and its value's row).

    Parameters
    ----------
    params : Params
    task : Task
    batch : iterable of int, optional
        Which sequences of `task`; all of them if omitted.
    scaled : bool, default True

    Returns
    -------
    loss : float
        Mean over the batch, in nats.
    grads : Params
        Same shapes as `params`.

    Examples
    --------
    >>> loss, grads = loss_and_gradients(init_params(), make_task(4))
    >>> grads.W_Q.shape, round(loss, 4)         # untrained: every value alike, log(10) nats
    ((16, 8), 2.3026)
    """
    rows = range(len(task)) if batch is None else list(batch)
    grads = Params(*(np.zeros_like(p) for p in params))
    total = 0.0
    for b in rows:
        seq = task[b]
        out = forward(params, seq, scaled=scaled)
        total += out.loss
        d_logits = out.probs.copy()  # (n_values,)
        d_logits[seq.answer] -= 1.0  # d loss / d logits = probs - one_hot(answer)
        z_query = out.att.Z[-1]  # (d_v,)
        grads.W_out[...] += np.outer(z_query, d_logits)  # (d_v,) x (n_values,) -> (d_v, n_values)
        grads.b_out[...] += d_logits  # (n_values,)
        dZ = np.zeros_like(out.att.Z)  # (n, d_v): the loss reads only the query's row
        dZ[-1] = params.W_out @ d_logits  # (d_v, n_values) @ (n_values,) -> (d_v,)
        g = self_attention_backward(out.X, params.W_Q, params.W_K, params.W_V, dZ, scaled=scaled)
        grads.W_Q[...] += g.W_Q  # (d, d_k)
        grads.W_K[...] += g.W_K  # (d, d_k)
        grads.W_V[...] += g.W_V  # (d, d_v)
        np.add.at(grads.E_key, seq.keys, g.X[:-1])  # (n_pairs, d) into the key rows
        np.add.at(grads.E_value, seq.values, g.X[:-1])  # ... and into the value rows
        grads.E_query[seq.query] += g.X[-1]  # (d,)
    count = max(len(rows), 1)
    return total / count, Params(*(grad / count for grad in grads))


# --- training ---


def batch_loss_and_gradients(
    params: Params, task: Task, batch: Iterable[int] | None = None, *, scaled: bool = True
) -> tuple[float, Params]:
    """:func:`loss_and_gradients` for a whole batch at once: the same numbers, faster.

    The same forward and backward steps, on arrays with a leading batch axis
    (B sequences of the same length) instead of a Python loop over sequences:
    about ten times faster for a batch of 32, which is what :func:`train` uses.
    The sums run in another order, so the results agree with the loop's to
    rounding (tests/test_lookup.py checks 1e-12).

    Examples
    --------
    >>> params, task = init_params(), make_task(8)
    >>> (loss, grads), (loss_1, grads_1) = (f(params, task) for f in (batch_loss_and_gradients,
    ...                                                              loss_and_gradients))
    >>> bool(np.isclose(loss, loss_1) and np.allclose(grads.W_Q, grads_1.W_Q, atol=1e-12))
    True
    """
    rows = np.arange(len(task)) if batch is None else np.fromiter(batch, dtype=int)
    keys, values = task.keys[rows], task.values[rows]  # (B, n_pairs) each
    query, answer = task.query[rows], task.answer[rows]  # (B,) each
    count = len(rows)
    X = np.concatenate(
        [params.E_key[keys] + params.E_value[values], params.E_query[query][:, None]], axis=1
    )  # (B, n, d): the pair tokens, then the query token
    Q, K, V = X @ params.W_Q, X @ params.W_K, X @ params.W_V  # (B, n, d_k) twice, (B, n, d_v)
    c = 1 / math.sqrt(Q.shape[-1]) if scaled else 1.0
    scores = c * Q @ K.transpose(0, 2, 1)  # (B, n, n)
    weights = np.exp(scores - scores.max(axis=-1, keepdims=True))
    weights /= weights.sum(axis=-1, keepdims=True)  # (B, n, n), each row sums to 1
    z_query = np.einsum("bj,bjv->bv", weights[:, -1], V)  # the query's output row, (B, d_v)
    logits = z_query @ params.W_out + params.b_out  # (B, n_values)
    probs = np.exp(logits - logits.max(axis=-1, keepdims=True))
    probs /= probs.sum(axis=-1, keepdims=True)
    picked = np.arange(count)
    total = float(-np.log(probs[picked, answer]).sum())

    d_logits = probs.copy()
    d_logits[picked, answer] -= 1.0  # probs - one_hot(answer), (B, n_values)
    dZ = np.zeros_like(V)  # (B, n, d_v): the loss reads only the query's row
    dZ[:, -1] = d_logits @ params.W_out.T
    d_weights = dZ @ V.transpose(0, 2, 1)  # (B, n, n)
    dV = weights.transpose(0, 2, 1) @ dZ  # (B, n, d_v)
    d_scores = weights * (d_weights - (d_weights * weights).sum(axis=-1, keepdims=True))
    dQ = c * d_scores @ K  # (B, n, d_k)
    dK = c * d_scores.transpose(0, 2, 1) @ Q  # (B, n, d_k)
    dX = dQ @ params.W_Q.T + dK @ params.W_K.T + dV @ params.W_V.T  # (B, n, d)
    grads = Params(*(np.zeros_like(p) for p in params))
    np.add.at(grads.E_key, keys, dX[:, :-1])  # a pair's row to its key's row
    np.add.at(grads.E_value, values, dX[:, :-1])  # ... and to its value's row
    np.add.at(grads.E_query, query, dX[:, -1])
    grads.W_Q[...] = np.einsum("bnd,bnk->dk", X, dQ)
    grads.W_K[...] = np.einsum("bnd,bnk->dk", X, dK)
    grads.W_V[...] = np.einsum("bnd,bnv->dv", X, dV)
    grads.W_out[...] = z_query.T @ d_logits
    grads.b_out[...] = d_logits.sum(axis=0)
    count = max(count, 1)
    return total / count, Params(*(grad / count for grad in grads))


class Adam(NamedTuple):
    """Adam's running averages: of the gradients (m) and of their squares (v)."""

    m: Params
    v: Params
    t: int


def adam_start(params: Params) -> Adam:
    """Adam's state before the first step: zeros shaped like `params`."""
    zeros = Params(*(np.zeros_like(p) for p in params))
    return Adam(m=zeros, v=zeros, t=0)


def adam_step(
    params: Params,
    grads: Params,
    state: Adam,
    *,
    lr: float | Params = 0.01,
    beta1: float = 0.9,
    beta2: float = 0.999,
    eps: float = 1e-8,
) -> tuple[Params, Adam]:
    """One Adam update: each entry moves by about `lr`, against its averaged gradient.

    Adam divides the running mean of the gradient by the root of the running
    mean of its square, so every parameter takes steps of a similar size
    whatever the scale of its gradient.

    Parameters
    ----------
    params, grads : Params
    state : Adam
    lr : float or Params of float, default 0.01
        The step size: one for every array, or a Params holding one per array.

    Returns
    -------
    params : Params
        The updated parameters (new arrays; the inputs are unchanged).
    state : Adam

    Examples
    --------
    >>> p = init_params(); g = Params(*(np.ones_like(a) for a in p))
    >>> p2, state = adam_step(p, g, adam_start(p), lr=0.1)
    >>> float((p.W_Q - p2.W_Q).mean().round(6)), state.t
    (0.1, 1)
    """
    t = state.t + 1
    lrs = lr if isinstance(lr, Params) else Params(*(lr for _ in params))
    m = Params(*(beta1 * m + (1 - beta1) * g for m, g in zip(state.m, grads, strict=True)))
    v = Params(*(beta2 * v + (1 - beta2) * g**2 for v, g in zip(state.v, grads, strict=True)))
    new = Params(
        *(
            p - step * (m_ / (1 - beta1**t)) / (np.sqrt(v_ / (1 - beta2**t)) + eps)
            for p, m_, v_, step in zip(params, m, v, lrs, strict=True)
        )
    )
    return new, Adam(m=m, v=v, t=t)


class History(NamedTuple):
    """What :func:`train` records.

    Attributes
    ----------
    losses : ndarray, shape (steps,)
        Mean training loss of each step's batch, before that step's update.
    checkpoints : dict of int to Params
        The parameters after each chosen step (0 is the untrained start).
    scaled : bool
        Whether the layer divided its scores by √d_k.
    """

    losses: np.ndarray
    checkpoints: dict[int, Params]
    scaled: bool

    @property
    def params(self) -> Params:
        """The parameters at the last checkpoint (the end of training)."""
        return self.checkpoints[max(self.checkpoints)]


def train(
    params: Params,
    task: Task,
    *,
    steps: int = 200,
    batch_size: int = 32,
    lr: float = 0.01,
    qk_lr: float | None = None,
    scaled: bool = True,
    checkpoints: Iterable[int] = (),
    callback: Callable[[int, float], None] | None = None,
) -> History:
    """Train all parameters with Adam on the sequences of `task`, in a fixed order.

    Each step's gradient is :func:`loss_and_gradients`'s, computed for the
    whole batch at once (:func:`batch_loss_and_gradients`).

    Step s uses the `batch_size` sequences that follow those of step s - 1
    (wrapping round at the end of `task`), so a run is the same every time.

    Parameters
    ----------
    params : Params
        The start (not modified).
    task : Task
        The training sequences.
    steps : int, default 200
    batch_size : int, default 32
    lr : float, default 0.01
        Adam's step size.
    qk_lr : float, optional
        Adam's step size for W_Q and W_K only (the other arrays keep `lr`);
        `lr` if omitted. Notebook 06 uses it to show that a scaled run is an
        unscaled one whose W_Q and W_K start √d_k times smaller and take
        steps √d_k times smaller.
    scaled : bool, default True
        Divide the scores by √d_k (False: the raw q · k).
    checkpoints : iterable of int
        Steps after which to keep a copy of the parameters, from 0 (the
        start) to `steps`; the start and the end are always kept.
    callback : callable, optional
        ``callback(step, loss)`` after every step, e.g. for a progress bar.

    Returns
    -------
    History

    Examples
    --------
    >>> history = train(init_params(), make_task(64), steps=20, checkpoints=[10])
    >>> sorted(history.checkpoints), history.losses.shape
    ([0, 10, 20], (20,))
    >>> bool(history.losses[-5:].mean() < history.losses[:5].mean())
    True
    """
    steps = as_size("steps", steps)
    batch_size = as_size("batch_size", batch_size)
    if not (isinstance(lr, (int, float)) and math.isfinite(lr) and lr > 0):
        raise ValueError(tr("lr must be a positive number, got {value!r}", value=lr))
    qk_lr = lr if qk_lr is None else qk_lr
    if not (isinstance(qk_lr, (int, float)) and math.isfinite(qk_lr) and qk_lr > 0):
        raise ValueError(tr("qk_lr must be a positive number, got {value!r}", value=qk_lr))
    lrs = Params(*(qk_lr if name in ("W_Q", "W_K") else lr for name in Params._fields))
    keep = {0, steps}
    for step in checkpoints:
        keep.add(as_size(tr("a checkpoint step"), step, minimum=0, maximum=steps))
    if not isinstance(params, Params):
        raise TypeError(
            tr("params must be a Params (see init_params), got {kind}", kind=type(params).__name__)
        )
    saved = {0: params} if 0 in keep else {}
    state = adam_start(params)
    losses = np.empty(steps)
    for step in range(1, steps + 1):
        start = (step - 1) * batch_size
        batch = [(start + i) % len(task) for i in range(batch_size)]
        losses[step - 1], grads = batch_loss_and_gradients(params, task, batch, scaled=scaled)
        params, state = adam_step(params, grads, state, lr=lrs)
        if step in keep:
            saved[step] = params
        if callback is not None:
            callback(step, float(losses[step - 1]))
    return History(losses=losses, checkpoints=saved, scaled=bool(scaled))


def steps_to_reach(losses, level: float = 0.5, *, window: int = 10) -> int | None:
    """The first step at which the running mean of the last `window` losses is below `level`.

    A way to compare the speed of two training runs with one number each.

    Parameters
    ----------
    losses : array_like, shape (steps,)
        ``History.losses``: losses[s - 1] is the loss of step s.
    level : float, default 0.5
    window : int, default 10

    Returns
    -------
    int or None
        A step from `window` to ``len(losses)``, or None if never reached.

    Examples
    --------
    >>> steps_to_reach([2.0] * 10 + [0.1] * 10, level=0.5, window=4)   # steps 11-14 average 0.1
    14
    >>> steps_to_reach([2.0] * 10) is None
    True
    """
    losses = np.asarray(losses, dtype=float)  # (steps,)
    window = as_size("window", window)
    if losses.ndim != 1 or len(losses) < window:
        raise ValueError(
            tr(
                "losses must be 1-D with at least window = {window} entries, got shape {shape}",
                window=window,
                shape=losses.shape,
            )
        )
    running = np.convolve(losses, np.ones(window) / window, mode="valid")  # (steps - window + 1,)
    below = np.nonzero(running < level)[0]
    return int(below[0]) + window if len(below) else None


def qk_gradient_norms(
    params: Params, task: Task, *, scaled: bool = True, batch_size: int = 32
) -> tuple[float, float]:
    """|dW_Q| and |dW_K| at the start of training: what reaches the layer's query and key maps.

    At step 0 both gradients are exactly zero: W_out starts at zero, so no
    gradient gets past the readout. So one training step is taken first (it
    trains only the readout), and the gradients are those of the second step's
    batch, as :func:`train` would compute them.

    Parameters
    ----------
    params : Params
        The untrained start.
    task : Task
        The training sequences (the batches of steps 1 and 2).
    scaled : bool, default True
    batch_size : int, default 32

    Returns
    -------
    tuple of float
        The Frobenius norms (root of the sum of squared entries) of dW_Q and dW_K.

    Examples
    --------
    >>> task = make_task(64)
    >>> q, k = qk_gradient_norms(init_params(), task)
    >>> q > 0 and k > 0
    True
    """
    batch_size = as_size("batch_size", batch_size)
    after_one = train(params, task, steps=1, batch_size=batch_size, scaled=scaled).params
    second = [(batch_size + i) % len(task) for i in range(batch_size)]
    _, grads = loss_and_gradients(after_one, task, second, scaled=scaled)
    return float(np.linalg.norm(grads.W_Q)), float(np.linalg.norm(grads.W_K))


def sequence_gradient_norms(
    params: Params, task: Task, *, scaled: bool = True, count: int = 256, batch_size: int = 32
) -> np.ndarray:
    """What each sequence alone passes back to W_Q and W_K at the start of training.

    A batch's gradient is the mean of its sequences' gradients, so a large
    batch gradient may come from a few sequences while most pass back almost
    nothing. This gives the size of each sequence's own share: as in
    :func:`qk_gradient_norms`, one training step is taken first (it trains only
    the readout), then each of the `count` sequences that follow the first
    batch gets its gradient computed alone.

    Parameters
    ----------
    params : Params
        The untrained start.
    task : Task
        The training sequences, at least ``batch_size + count`` of them.
    scaled : bool, default True
    count : int, default 256
    batch_size : int, default 32
        The first step's batch: sequences 0 to batch_size - 1.

    Returns
    -------
    ndarray, shape (count,)
        ``sqrt(|dW_Q|² + |dW_K|²)`` (Frobenius norms) of each sequence's
        gradient, for sequences batch_size, ..., batch_size + count - 1.

    Examples
    --------
    >>> task = make_task(64)
    >>> norms = sequence_gradient_norms(init_params(), task, count=8)
    >>> norms.shape, bool((norms > 0).all())
    ((8,), True)
    """
    count = as_size("count", count)
    batch_size = as_size("batch_size", batch_size)
    if len(task) < batch_size + count:
        raise ValueError(
            tr(
                "task has {have} sequences but batch_size + count = {need} are needed",
                have=len(task),
                need=batch_size + count,
            )
        )
    after_one = train(params, task, steps=1, batch_size=batch_size, scaled=scaled).params
    norms = np.empty(count)
    for r in range(count):
        _, grads = loss_and_gradients(after_one, task, [batch_size + r], scaled=scaled)
        norms[r] = math.hypot(np.linalg.norm(grads.W_Q), np.linalg.norm(grads.W_K))
    return norms


def query_scores(params: Params, task: Task, *, scaled: bool = True) -> np.ndarray:
    """The query token's row of scores, for every sequence of `task`.

    Returns
    -------
    ndarray, shape (len(task), n)
        Row b is ``attend(params, task[b]).scores[-1]``.

    Examples
    --------
    >>> query_scores(init_params(), make_task(3)).shape
    (3, 6)
    """
    return np.array([attend(params, task[b], scaled=scaled).scores[-1] for b in range(len(task))])


# --- what the trained model does ---


class Evaluation(NamedTuple):
    """How well the model does on a set of sequences.

    Attributes
    ----------
    accuracy : float
        Share of sequences whose most likely value is the answer.
    match_weight : float
        The query row's weight on the matching pair, averaged over sequences.
    loss : float
        Mean cross-entropy, in nats.
    """

    accuracy: float
    match_weight: float
    loss: float


def evaluate(params: Params, task: Task, *, scaled: bool = True) -> Evaluation:
    """Accuracy, weight on the matching pair, and loss, over all sequences of `task`.

    Examples
    --------
    >>> ev = evaluate(init_params(), make_task(200, seed=1))
    >>> round(ev.match_weight, 2)        # untrained: about 1/6, like any other token
    0.17
    """
    right, weight, loss = 0, 0.0, 0.0
    for b in range(len(task)):
        seq = task[b]
        out = forward(params, seq, scaled=scaled)
        right += int(out.probs.argmax() == seq.answer)
        weight += out.att.weights[-1, seq.match]
        loss += out.loss
    count = len(task)
    return Evaluation(right / count, float(weight) / count, loss / count)


def key_scores(params: Params, *, scaled: bool = True) -> np.ndarray:
    """The score each query token gives each pair token, averaged over the pair's value.

    ``S[a, b]`` is q · k / √d_k for the query token ``?KEYS[a]`` against a
    pair token with key ``KEYS[b]``, averaged over the len(VALUES) values the
    pair can hold. After training, the diagonal (a query meeting its own key)
    stands out: what W_Q and W_K learned.

    Returns
    -------
    ndarray, shape (len(KEYS), len(KEYS))
        Rows: query tokens; columns: keys of pair tokens.

    Examples
    --------
    >>> key_scores(init_params()).shape
    (8, 8)
    """
    Q = params.E_query @ params.W_Q  # (n_keys, d) @ (d, d_k) -> (n_keys, d_k)
    pairs = params.E_key[:, None, :] + params.E_value[None, :, :]  # (n_keys, n_values, d)
    K = pairs @ params.W_K  # (n_keys, n_values, d) @ (d, d_k) -> (n_keys, n_values, d_k)
    scores = np.einsum("ac,bvc->abv", Q, K)  # q_a · k_(b, v): (n_keys, n_keys, n_values)
    if scaled:
        scores /= math.sqrt(params.W_Q.shape[1])
    return scores.mean(axis=2)  # average over the value: (n_keys, n_keys)


def learned_view(history: History, task: Task, step: int, example: int) -> tuple[Attention, tuple]:
    """What a "learned explorer" shows: the layer at checkpoint `step` on sequence `example`.

    Parameters
    ----------
    history : History
        From :func:`train`.
    task : Task
        Sequences to look at (e.g. the held-out ones).
    step : int
        One of ``history.checkpoints``.
    example : int
        Index of the sequence in `task`.

    Returns
    -------
    att : Attention
    tokens : tuple of str, length n

    Examples
    --------
    >>> history = train(init_params(), make_task(32), steps=2)
    >>> att, tokens = learned_view(history, make_task(5, seed=1), step=2, example=4)
    >>> att.weights.shape, len(tokens)
    ((6, 6), 6)
    """
    if step not in history.checkpoints:
        raise ValueError(
            tr(
                "step {step!r} is not a checkpoint; the checkpoints are {checkpoints}",
                step=step,
                checkpoints=sorted(history.checkpoints),
            )
        )
    seq = task[example]
    return attend(history.checkpoints[step], seq, scaled=history.scaled), seq.tokens
