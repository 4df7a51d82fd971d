"""Line and bar charts of the notebooks' experiments (matplotlib, object-oriented API).

:mod:`attnlib.plotting` draws the chapter's matrices as heatmaps; this module
draws what the notebooks measure about them: the n² cost (2.1), one query's
weighted sum (2.2.4), the √d_k experiments (2.2.3) and the training losses of
notebook 06. The numbers come from attnlib's maths, :mod:`attnlib.stats` and
:mod:`attnlib.lookup`; each function only draws them and returns a
:class:`~attnlib.plotting.StaticFigure` that a notebook shows once.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg

from ..i18n import tr
from ..maths.core import Attention
from ..maths.stats import loglog_slope, spread
from ..maths.validation import as_positive_vector
from .fonts import in_figure_fonts
from .heatmap import heatmap
from .plotting import StaticFigure, check_tokens

__all__ = [
    "plot_cost",
    "plot_gradient_spread",
    "plot_losses",
    "plot_mix",
    "plot_saturation",
    "plot_score_variance",
]

# --- 2.1: the cost of self-attention against n ---


@in_figure_fonts
def plot_cost(ns, memory_bytes, seconds) -> StaticFigure:
    """Memory and time against the sequence length n, on log–log axes.

    Left, memory in MiB; right, time in ms. Each panel holds three lines: the
    measured points, the straight line fitted to log(y) against log(n) with
    its slope in the legend (see :func:`loglog_slope`), and a reference c·n²
    through the last point (slope 2), dotted grey.

    Parameters
    ----------
    ns : array_like, shape (m,)
        Sequence lengths, m >= 2, positive.
    memory_bytes : array_like, shape (m,)
        Memory measured at each n, in bytes.
    seconds : array_like, shape (m,)
        Time measured at each n, in seconds.

    Returns
    -------
    StaticFigure
        Two axes, memory then time; displays inline in a notebook.

    Examples
    --------
    >>> ns = [128, 256, 512]
    >>> fig = plot_cost(ns, [8 * n**2 for n in ns], [1e-9 * n**3 for n in ns])
    >>> [ax.get_title() for ax in fig.axes]
    ['memory against n', 'time against n']
    >>> [ax.get_legend().get_texts()[1].get_text() for ax in fig.axes]
    ['fitted slope 2.00', 'fitted slope 3.00']
    """
    ns = as_positive_vector("ns", ns)
    panels = [
        (
            tr("memory against n"),
            tr("memory (MiB)"),
            as_positive_vector("memory_bytes", memory_bytes, len(ns)) / 2**20,
        ),
        (
            tr("time against n"),
            tr("time (ms)"),
            as_positive_vector("seconds", seconds, len(ns)) * 1e3,
        ),
    ]
    fig = StaticFigure(figsize=(9.0, 3.6), layout="constrained")
    FigureCanvasAgg(fig)
    for ax, (title, ylabel, y) in zip(fig.subplots(1, 2), panels, strict=True):
        slope = loglog_slope(ns, y)
        intercept = np.log(y).mean() - slope * np.log(ns).mean()  # the fitted line's
        ax.loglog(ns, y, "o", label=tr("measured"))
        ax.loglog(
            ns,
            np.exp(intercept + slope * np.log(ns)),
            "-",
            label=tr("fitted slope {slope:.2f}", slope=slope),
        )
        ax.loglog(ns, y[-1] * (ns / ns[-1]) ** 2, ":", color="grey", label=tr("n² (slope 2)"))
        ax.set_xticks(ns, [f"{n:g}" for n in ns])
        ax.minorticks_off()
        ax.set_title(title)
        ax.set_xlabel(tr("sequence length n"))
        ax.set_ylabel(ylabel)
        ax.legend()
    return fig


# --- 2.2.3 and 2.2.4: one query's weighted sum; the √d_k experiments ---


@in_figure_fonts
def plot_mix(att: Attention, tokens: Sequence[str], i: int) -> StaticFigure:
    """How query `i` mixes the values: its row of weights, and the v_j above z_i.

    Left, a bar per key j of height α_ij (the row sums to 1), each labelled
    with its value. Right, the values v_j as the rows of a heatmap and, below
    a line, their mix z_i = Σ_j α_ij v_j, on the same colour scale.

    Parameters
    ----------
    att : Attention
        Weights (n, n), values V (n, d_v) and outputs Z (n, d_v), from
        :func:`attnlib.self_attention`.
    tokens : sequence of str, length n
    i : int
        The query, 0 <= i < n.

    Returns
    -------
    StaticFigure
        Axes 0: the bars; axes 1: the heatmap of ``np.vstack([V, Z[i]])``,
        shape (n + 1, d_v); axes 2: its colorbar.

    Examples
    --------
    >>> from attnlib import self_attention, toy_example
    >>> ex = toy_example(n=6, d_k=4, seed=0)
    >>> fig = plot_mix(self_attention(*ex[1:]), ex.tokens, 1)
    >>> fig.axes[0].get_title(), fig.axes[1].images[0].get_array().shape
    ("weights of the query 'cat' (row 1 of α, sum 1)", (7, 4))
    """
    n, d_v = att.V.shape
    tokens = check_tokens(tokens, n)
    if att.weights.shape != (n, n):
        raise ValueError(
            tr(
                "plot_mix needs self-attention: weights are {shape}, V has n = {n} rows",
                shape=att.weights.shape,
                n=n,
            )
        )
    if isinstance(i, bool) or not isinstance(i, (int, np.integer)) or not 0 <= i < n:
        raise ValueError(tr("i must be a query index from 0 to {last}, got {i!r}", last=n - 1, i=i))
    alpha = att.weights[i]  # (n,): row i of the weights
    mix = np.vstack([att.V, att.Z[i]])  # (n, d_v) + (d_v,) -> (n + 1, d_v)
    fig = StaticFigure(figsize=(10.0, 4.4), layout="constrained")
    FigureCanvasAgg(fig)
    ax_w, ax_v = fig.subplots(1, 2, width_ratios=[1.0, 1.25])
    ax_w.bar(range(n), alpha, color="tab:blue")
    ax_w.set_xticks(range(n), [f"{j}:{t}" for j, t in enumerate(tokens)])
    ax_w.set_ylim(0, 1.08)
    ax_w.set_xlabel(tr("key j"))
    ax_w.set_ylabel(tr("weight α_{i}j", i=i))
    ax_w.set_title(tr("weights of the query {token!r} (row {i} of α, sum 1)", token=tokens[i], i=i))
    for j in range(n):
        ax_w.text(j, alpha[j] + 0.02, f"{alpha[j]:.2f}", ha="center", fontsize=9)
    heatmap(
        ax_v,
        mix,
        row_labels=[f"v_{j} {t}" for j, t in enumerate(tokens)] + [f"z_{i} {tokens[i]}"],
        title=tr("values v_j and their mix z_{i}", i=i),
        xlabel=tr("coordinate ({width} = {cols})", width="d_v", cols=d_v),
    )
    ax_v.axhline(n - 0.5, color="black", linewidth=2.5)  # between the v_j and z_i
    return fig


def _curve_pair(name: str, pair, length: int) -> tuple[np.ndarray, np.ndarray]:
    try:
        unscaled, scaled = (np.asarray(c, dtype=float) for c in pair)
    except (TypeError, ValueError):
        raise ValueError(
            tr("{name} must be a pair (unscaled, scaled) of sequences", name=name)
        ) from None
    for label, curve in (("unscaled", unscaled), ("scaled", scaled)):
        if curve.shape != (length,):
            raise ValueError(
                tr(
                    "{name} ({label}) has shape {shape} but d_ks has {length} entries",
                    name=name,
                    label=label,
                    shape=curve.shape,
                    length=length,
                )
            )
    return unscaled, scaled


def _d_ks(d_ks) -> np.ndarray:
    d_ks = np.asarray(d_ks, dtype=float)
    if d_ks.ndim != 1 or d_ks.size < 2 or not (d_ks > 0).all():
        raise ValueError(
            tr("d_ks must be at least 2 positive sizes, got {got!r}", got=d_ks.tolist())
        )
    return d_ks


@in_figure_fonts
def plot_score_variance(d_ks, unscaled, scaled) -> StaticFigure:
    """Variance of q·k against d_k, unscaled and divided by √d_k, on log axes.

    Parameters
    ----------
    d_ks : array_like, shape (m,)
        The key sizes tried.
    unscaled, scaled : array_like, shape (m,)
        Measured variance of q·k and of q·k / √d_k for each d_k.

    Returns
    -------
    StaticFigure
        One axes with three lines: unscaled, scaled, and the reference d_k.

    Examples
    --------
    >>> fig = plot_score_variance([1, 4, 16], [1.0, 4.1, 15.8], [1.0, 1.02, 0.99])
    >>> [line.get_label() for line in fig.axes[0].get_lines()]
    ['unscaled $q\\\\cdot k$', 'scaled $q\\\\cdot k/\\\\sqrt{d_k}$', 'reference: $d_k$']
    """
    d_ks = _d_ks(d_ks)
    unscaled, scaled = _curve_pair("the variances", (unscaled, scaled), d_ks.size)
    fig = StaticFigure(figsize=(5.5, 3.6), layout="constrained")
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    ax.loglog(d_ks, unscaled, "o-", label=tr(r"unscaled $q\cdot k$"))
    ax.loglog(d_ks, scaled, "s-", label=tr(r"scaled $q\cdot k/\sqrt{d_k}$"))
    ax.loglog(d_ks, d_ks, ":", color="gray", label=tr(r"reference: $d_k$"))
    ax.set_xticks(d_ks, [f"{d:g}" for d in d_ks])
    ax.minorticks_off()
    ax.set_xlabel(r"$d_k$")
    ax.set_ylabel(tr("variance of the score"))
    ax.set_title(tr(r"Scores spread out as $d_k$ grows, unless scaled"))
    ax.legend()
    return fig


@in_figure_fonts
def plot_saturation(
    d_ks, *, max_weight, entropy, jacobian_norm, n: int, draws: int
) -> StaticFigure:
    """Three panels against d_k, unscaled and scaled: max weight, row entropy, ‖J‖_F.

    Parameters
    ----------
    d_ks : array_like, shape (m,)
    max_weight, entropy, jacobian_norm : pair of array_like, each shape (m,)
        ``(unscaled, scaled)``: the mean largest weight of a row, the mean
        row entropy in nats, and the median Frobenius norm of the softmax
        Jacobian, for each d_k (a median: unscaled, most rows' norm is near 0
        while a few rows' is not, and the mean would describe neither).
    n : int
        Tokens per row of weights: the entropy axis runs to ln n.
    draws : int
        Random draws per d_k, for the title.

    Returns
    -------
    StaticFigure
        Three axes, each with the lines "unscaled" and "scaled".

    Examples
    --------
    >>> pair = ([0.5, 0.9], [0.5, 0.5])
    >>> fig = plot_saturation([1, 256], max_weight=pair, entropy=pair, jacobian_norm=pair,
    ...                       n=8, draws=10)
    >>> [ax.get_title() for ax in fig.axes][1:]
    ['row entropy, nats (max ln 8 = 2.08)', 'softmax Jacobian $\\\\|J\\\\|_F$, median']
    """
    d_ks = _d_ks(d_ks)
    panels = [
        (tr("max weight"), _curve_pair("max_weight", max_weight, d_ks.size), (0, 1.05)),
        (
            tr("row entropy, nats (max ln {n} = {ln_n:.2f})", n=n, ln_n=math.log(n)),
            _curve_pair("entropy", entropy, d_ks.size),
            (0, math.log(n) * 1.05),
        ),
        (
            tr(r"softmax Jacobian $\|J\|_F$, median"),
            _curve_pair("jacobian_norm", jacobian_norm, d_ks.size),
            (0, None),
        ),
    ]
    fig = StaticFigure(figsize=(11.0, 3.5), layout="constrained")
    FigureCanvasAgg(fig)
    for ax, (title, (unscaled, scaled), ylim) in zip(fig.subplots(1, 3), panels, strict=True):
        ax.semilogx(d_ks, unscaled, "o-", label=tr("unscaled"))
        ax.semilogx(d_ks, scaled, "s-", label=tr(r"scaled by $1/\sqrt{d_k}$"))
        ax.set_xticks(d_ks, [f"{d:g}" for d in d_ks])
        ax.minorticks_off()
        ax.set_xlabel(r"$d_k$")
        ax.set_title(title)
        ax.set_ylim(*ylim)
    fig.axes[0].legend()
    fig.suptitle(
        tr("Softmax of random scores, n = {n} tokens, {draws} draws per $d_k$", n=n, draws=draws)
    )
    return fig


def _samples(name: str, samples, count: int) -> list[np.ndarray]:
    samples = list(samples)
    if len(samples) != count:
        raise ValueError(
            tr(
                "{name} has {got} samples but there are {count} labels",
                name=name,
                got=len(samples),
                count=count,
            )
        )
    out = []
    for g, sample in enumerate(samples):
        sample = np.asarray(sample, dtype=float)
        if sample.ndim != 1 or sample.size == 0 or not np.isfinite(sample).all():
            raise ValueError(
                tr("{name}[{g}] must be a 1-D array of finite numbers", name=name, g=g)
            )
        if (sample < 0).any():
            raise ValueError(tr("{name}[{g}] must hold sizes >= 0", name=name, g=g))
        out.append(sample)
    return out


@in_figure_fonts
def plot_gradient_spread(
    labels: Sequence[str],
    unscaled,
    scaled,
    *,
    near_zero: float,
    ylabel: str,
    title: str,
    floor: float | None = None,
) -> StaticFigure:
    """One strip of dots per sample, unscaled beside scaled, with its median and quartiles.

    A heavy-tailed sample (the gradients of saturated softmax rows) is shown
    whole: every value is a dot on a log axis, spread sideways so that the
    dots do not hide each other. A black bar marks each sample's median, a
    black line runs from its first to its third quartile, and a dotted line
    marks `near_zero`. Values below `floor` (a log axis has no 0) are drawn on
    the floor, which a second dotted line marks.

    Parameters
    ----------
    labels : sequence of str, length m
        One per group, under its pair of strips (e.g. ``"d_k = 64"``).
    unscaled, scaled : sequence of array_like, each of length m
        Per group, the sample of non-negative values, shape (r,) each.
    near_zero : float
        The threshold under which a value counts as near zero (positive).
    ylabel, title : str
    floor : float, optional
        Lowest value drawn; default ``near_zero / 100``.

    Returns
    -------
    StaticFigure
        One axes. Its collections are the strips, unscaled then scaled for
        each group in turn, their y the values raised to `floor`.

    Examples
    --------
    >>> fig = plot_gradient_spread(["a", "b"], [[0.0, 1.0], [2.0, 3.0]], [[1.0, 1.0], [1.0, 2.0]],
    ...                            near_zero=0.01, ylabel="size", title="two groups")
    >>> ax = fig.axes[0]
    >>> len(ax.collections), ax.get_yscale(), [t.get_text() for t in ax.get_xticklabels()]
    (4, 'log', ['a', 'b'])
    """
    labels = [str(label) for label in labels]
    if not labels:
        raise ValueError(tr("labels is empty: give one label per group"))
    unscaled = _samples("unscaled", unscaled, len(labels))
    scaled = _samples("scaled", scaled, len(labels))
    if not (isinstance(near_zero, (int, float)) and math.isfinite(near_zero) and near_zero > 0):
        raise ValueError(
            tr("{name} must be a positive number, got {value!r}", name="near_zero", value=near_zero)
        )
    floor = near_zero / 100 if floor is None else floor
    if not (isinstance(floor, (int, float)) and math.isfinite(floor) and 0 < floor < near_zero):
        raise ValueError(
            tr("floor must be a positive number below near_zero, got {value!r}", value=floor)
        )
    fig = StaticFigure(figsize=(max(5.5, 1.6 * len(labels) + 1.5), 3.8), layout="constrained")
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    jitter = np.random.default_rng(0)  # the same dots on every run
    top = floor
    for g in range(len(labels)):
        for side, (sample, colour, name) in enumerate(
            ((unscaled[g], "C0", tr("unscaled")), (scaled[g], "C1", tr("scaled")))
        ):
            x = g + (0.2 if side else -0.2)  # unscaled left of the label, scaled right
            y = np.maximum(sample, floor)  # (r,): a log axis cannot show 0
            ax.scatter(
                x + jitter.uniform(-0.12, 0.12, y.size),
                y,
                s=6,
                color=colour,
                alpha=0.3,
                linewidths=0,
                label=name if g == 0 else None,
            )
            summary = spread(sample, near_zero)
            ax.plot([x, x], [max(summary.q1, floor), max(summary.q3, floor)], color="black", lw=1.5)
            ax.plot(
                [x - 0.15, x + 0.15],
                [max(summary.median, floor)] * 2,
                color="black",
                lw=3,
                label=tr("median; quartiles") if (g, side) == (0, 1) else None,
            )
            top = max(top, float(y.max()))
    ax.axhline(
        near_zero,
        color="grey",
        ls=":",
        lw=1.2,
        label=tr("near zero: below {near_zero:g}", near_zero=near_zero),
    )
    ax.axhline(floor, color="grey", ls="--", lw=0.8, label=tr("{floor:g} or less", floor=floor))
    ax.set_yscale("log")
    ax.set_ylim(floor / 2, top * 2)
    ax.set_xticks(range(len(labels)), labels)
    ax.set_xlim(-0.6, len(labels) - 0.4)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8, markerscale=2)
    return fig


# --- notebook 06: training losses ---


@in_figure_fonts
def plot_losses(
    curves: Mapping[str, np.ndarray | Sequence[np.ndarray]],
    *,
    title: str | None = None,
    chance: float | None = math.log(10),
) -> StaticFigure:
    """Training loss against step, on a log scale, one colour per label.

    Parameters
    ----------
    curves : mapping of str to array_like
        label -> the losses of one run, shape (steps,), or a list of runs
        (e.g. several seeds), drawn as thin lines of the same colour.
    title : str, optional
        Default "training loss", in the current language.
    chance : float or None, default log(10)
        Draw a dotted line at this loss: the loss of guessing uniformly
        among the 10 values, log 10 ≈ 2.30 nats.

    Returns
    -------
    StaticFigure

    Examples
    --------
    >>> runs = [[2.3, 2.2, 2.0], [2.4, 2.0, 1.5]]                      # two seeds
    >>> fig = plot_losses({"scaled": [2.3, 1.0, 0.1], "unscaled": runs})
    >>> fig.axes[0].get_title(), len(fig.axes[0].get_lines())
    ('training loss', 4)
    """
    if not curves:
        raise ValueError(tr("curves is empty: give at least one label -> losses"))
    fig = StaticFigure(figsize=(6.4, 3.6), layout="constrained")
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    for colour, (label, runs) in enumerate(curves.items()):
        try:
            runs = np.asarray(runs, dtype=float)
        except (TypeError, ValueError):  # ragged runs, or not numbers
            raise ValueError(
                tr(
                    "curves[{label!r}] must hold positive losses, one run or a list of runs "
                    "of equal length; got {runs!r}",
                    label=label,
                    runs=runs,
                )
            ) from None
        runs = runs[None, :] if runs.ndim == 1 else runs  # (runs, steps)
        if runs.ndim != 2 or runs.shape[1] == 0 or not (runs > 0).all():
            raise ValueError(
                tr(
                    "curves[{label!r}] must hold positive losses, one run or a list of runs "
                    "of equal length; got shape {shape}",
                    label=label,
                    shape=runs.shape,
                )
            )
        steps = np.arange(1, runs.shape[1] + 1)  # (steps,): step s has loss runs[:, s - 1]
        width = 2.0 if len(runs) == 1 else 1.2
        for r, losses in enumerate(runs):
            ax.plot(
                steps,
                losses,
                color=f"C{colour}",
                lw=width,
                alpha=0.9,
                label=label if r == 0 else None,
            )
    if chance is not None:
        ax.axhline(
            chance,
            color="grey",
            ls=":",
            lw=1.2,
            label=tr("guessing: {chance:.2f} nats", chance=chance),
        )
    ax.set_yscale("log")
    ax.set_title(tr("training loss") if title is None else title)
    ax.set_xlabel(tr("training step"))
    ax.set_ylabel(tr("cross-entropy (nats, log scale)"))
    ax.legend()
    return fig
