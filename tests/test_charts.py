"""attnlib.charts: what the experiment charts hold (lines, bars, heatmap rows)."""

from __future__ import annotations

import numpy as np
import pytest

import attnlib
from attnlib import self_attention, toy_example
from attnlib.pictures.plotting import StaticFigure


def example(n=6, d_k=4, seed=0):
    ex = toy_example(n, d_k=d_k, seed=seed)
    return ex, self_attention(*ex[1:])


def test_plot_cost_holds_the_measurements_the_fits_and_n_squared():
    from attnlib.maths.stats import loglog_slope
    from attnlib.pictures.charts import plot_cost

    ns = np.array([100, 200, 400, 800])
    memory = 16.0 * ns**2  # bytes: slope 2
    seconds = 1e-8 * ns**1.5  # slope 1.5, far from the n² reference
    fig = plot_cost(ns, memory, seconds)
    assert isinstance(fig, StaticFigure)
    png = fig._repr_png_()  # what a notebook shows: drawn on the figure's own canvas
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")
    assert (width, height) == tuple(round(v) for v in fig.get_size_inches() * fig.dpi)
    mem_ax, time_ax = fig.axes
    assert [mem_ax.get_title(), time_ax.get_title()] == ["memory against n", "time against n"]
    assert [mem_ax.get_ylabel(), time_ax.get_ylabel()] == ["memory (MiB)", "time (ms)"]
    for ax, y, slope in ((mem_ax, memory / 2**20, 2.0), (time_ax, seconds * 1e3, 1.5)):
        assert ax.get_xscale() == ax.get_yscale() == "log"
        measured, fitted, reference = ax.get_lines()
        np.testing.assert_array_equal(measured.get_xdata(), ns)
        np.testing.assert_allclose(measured.get_ydata(), y)
        np.testing.assert_allclose(fitted.get_ydata(), y, rtol=1e-9)  # exact power laws
        np.testing.assert_allclose(reference.get_ydata(), y[-1] * (ns / ns[-1]) ** 2)
        labels = [t.get_text() for t in ax.get_legend().get_texts()]
        assert labels == ["measured", f"fitted slope {slope:.2f}", "n² (slope 2)"]
        assert loglog_slope(ns, y) == pytest.approx(slope)
        assert [t.get_text() for t in ax.get_xticklabels()] == ["100", "200", "400", "800"]


def test_plot_cost_fit_is_least_squares_on_noisy_data():
    from attnlib.pictures.charts import plot_cost

    ns = np.array([128, 256, 512, 1024])
    seconds = np.array([1.0, 3.0, 14.0, 50.0]) * 1e-4
    fitted = plot_cost(ns, 8.0 * ns**2, seconds).axes[1].get_lines()[1]
    slope, intercept = np.polyfit(np.log(ns), np.log(seconds * 1e3), 1)
    np.testing.assert_allclose(fitted.get_ydata(), np.exp(intercept + slope * np.log(ns)))
    assert fitted.get_label() == f"fitted slope {slope:.2f}"
    assert (
        plot_cost(ns, 8.0 * ns**2, seconds).axes[1].get_legend().get_texts()[1].get_text()
        != "fitted slope 2.00"
    )


def test_plot_cost_rejects_what_a_log_axis_cannot_show():
    from attnlib.pictures.charts import plot_cost

    ns = [128, 256, 512]
    with pytest.raises(ValueError, match="seconds has 2 entries but ns has 3"):
        plot_cost(ns, [1.0, 2.0, 3.0], [1.0, 2.0])
    with pytest.raises(ValueError, match="memory_bytes must hold positive"):
        plot_cost(ns, [1.0, 0.0, 3.0], [1.0, 2.0, 3.0])
    with pytest.raises(ValueError, match="ns must be a 1-D sequence of at least 2"):
        plot_cost([128], [1.0], [1.0])


def test_plot_mix_draws_the_row_of_weights_and_the_values_above_their_mix():
    from attnlib.pictures.charts import plot_mix

    ex, att = example(n=6, d_k=4, seed=0)
    fig = plot_mix(att, ex.tokens, 1)
    assert isinstance(fig, StaticFigure)
    bars_ax, values_ax, _ = fig.axes
    assert bars_ax.get_title() == "weights of the query 'cat' (row 1 of α, sum 1)"
    heights = [bar.get_height() for bar in bars_ax.patches]
    np.testing.assert_array_equal(heights, att.weights[1])
    assert [t.get_text() for t in bars_ax.texts] == [f"{w:.2f}" for w in att.weights[1]]
    labels = [t.get_text() for t in bars_ax.get_xticklabels()]
    assert labels == [f"{j}:{t}" for j, t in enumerate(ex.tokens)]
    drawn = values_ax.images[0].get_array()
    np.testing.assert_array_equal(drawn[:6], att.V)
    np.testing.assert_allclose(drawn[6], att.weights[1] @ att.V)  # the last row is z_1
    rows = [t.get_text() for t in values_ax.get_yticklabels()]
    assert rows[0] == "v_0 the" and rows[-1] == "z_1 cat" and len(rows) == 7
    (line,) = values_ax.get_lines()
    assert list(line.get_ydata()) == [5.5, 5.5]  # the line between v_5 and z_1
    assert values_ax.get_title() == "values v_j and their mix z_1"


def test_plot_mix_rejects_a_query_out_of_range_and_cross_attention():
    from attnlib.pictures.charts import plot_mix

    ex, att = example(n=4)
    for bad in (4, -1, 1.0, True):
        with pytest.raises(ValueError, match="i must be a query index from 0 to 3"):
            plot_mix(att, ex.tokens, bad)
    queries = toy_example(3, d=6, seed=1)
    keys = toy_example(5, d=6, seed=2)
    cross = attnlib.attention(queries.X, keys.X, queries.W_Q, queries.W_K, queries.W_V)
    with pytest.raises(ValueError, match="needs self-attention"):
        plot_mix(cross, keys.tokens, 0)


def test_plot_score_variance_draws_both_curves_and_the_d_k_reference():
    from attnlib.pictures.charts import plot_score_variance

    d_ks = np.array([1, 4, 16, 64])
    unscaled, scaled = [1.1, 3.9, 16.5, 63.0], [1.1, 0.98, 1.03, 0.98]
    fig = plot_score_variance(d_ks, unscaled, scaled)
    assert isinstance(fig, StaticFigure)
    (ax,) = fig.axes
    assert ax.get_xscale() == ax.get_yscale() == "log"
    lines = ax.get_lines()
    for line, y in zip(lines, (unscaled, scaled, d_ks), strict=True):
        np.testing.assert_array_equal(line.get_xdata(), d_ks)
        np.testing.assert_array_equal(line.get_ydata(), y)
    assert [t.get_text() for t in ax.get_xticklabels()] == ["1", "4", "16", "64"]
    with pytest.raises(ValueError, match=r"the variances \(scaled\) has shape \(3,\)"):
        plot_score_variance(d_ks, unscaled, scaled[:3])


def test_plot_saturation_has_three_panels_with_their_curves_and_ranges():
    from attnlib.pictures.charts import plot_saturation

    d_ks = [1, 16, 256]
    curves = {
        "max_weight": ([0.3, 0.76, 0.94], [0.3, 0.36, 0.36]),
        "entropy": ([1.8, 0.66, 0.15], [1.8, 1.73, 1.73]),
        "jacobian_norm": ([0.35, 0.25, 0.08], [0.35, 0.36, 0.37]),
    }
    fig = plot_saturation(d_ks, **curves, n=8, draws=200)
    titles = [ax.get_title() for ax in fig.axes]
    assert titles == [
        "max weight",
        "row entropy, nats (max ln 8 = 2.08)",
        r"softmax Jacobian $\|J\|_F$, median",
    ]
    for ax, (unscaled, scaled) in zip(fig.axes, curves.values(), strict=True):
        got_unscaled, got_scaled = ax.get_lines()
        np.testing.assert_array_equal(got_unscaled.get_ydata(), unscaled)
        np.testing.assert_array_equal(got_scaled.get_ydata(), scaled)
        assert ax.get_ylim()[0] == 0
    assert fig.axes[1].get_ylim()[1] == pytest.approx(np.log(8) * 1.05)
    assert fig.get_suptitle() == "Softmax of random scores, n = 8 tokens, 200 draws per $d_k$"
    with pytest.raises(ValueError, match="entropy must be a pair"):
        plot_saturation(d_ks, **{**curves, "entropy": None}, n=8, draws=200)


# --- notebook 06: plot_losses ---


def test_plot_losses_draws_each_run_as_a_line_with_its_losses():
    import math

    from attnlib.pictures.charts import plot_losses

    one = np.array([2.3, 1.0, 0.2])
    runs = np.array([[2.4, 2.2, 2.0], [2.5, 1.5, 0.5]])
    fig = plot_losses({"scaled": one, "unscaled": runs}, title="t")
    assert isinstance(fig, StaticFigure)
    ax = fig.axes[0]
    lines = ax.get_lines()
    assert len(lines) == 4  # 1 + 2 runs + the chance line
    np.testing.assert_array_equal(lines[0].get_xdata(), [1, 2, 3])
    np.testing.assert_array_equal(lines[0].get_ydata(), one)
    np.testing.assert_array_equal(lines[2].get_ydata(), runs[1])
    assert lines[1].get_color() == lines[2].get_color() != lines[0].get_color()
    assert lines[3].get_ydata()[0] == pytest.approx(math.log(10))
    assert ax.get_yscale() == "log" and ax.get_title() == "t"
    assert [t.get_text() for t in ax.get_legend().get_texts()][:2] == ["scaled", "unscaled"]


def test_plot_losses_without_a_chance_line():
    from attnlib.pictures.charts import plot_losses

    fig = plot_losses({"one run": [2.0, 1.0]}, chance=None)
    assert len(fig.axes[0].get_lines()) == 1


@pytest.mark.parametrize("curves", [{}, {"x": [1.0, -1.0]}, {"x": []}, {"x": [[1.0], [1.0, 2.0]]}])
def test_plot_losses_refuses_curves_it_cannot_draw(curves):
    from attnlib.pictures.charts import plot_losses

    with pytest.raises(ValueError, match="curves"):
        plot_losses(curves)


def test_plot_gradient_spread_draws_every_value_and_marks_median_and_quartiles():
    from attnlib.maths.stats import spread
    from attnlib.pictures.charts import plot_gradient_spread

    rng = np.random.default_rng(5)
    unscaled = [rng.exponential(size=40) ** 6, np.concatenate([np.zeros(5), rng.random(20)])]
    scaled = [0.3 + 0.01 * rng.random(40), 0.3 + 0.01 * rng.random(25)]
    fig = plot_gradient_spread(
        ["d_k = 4", "d_k = 256"], unscaled, scaled, near_zero=0.01, ylabel="size", title="rows"
    )
    assert isinstance(fig, StaticFigure)
    ax = fig.axes[0]
    assert ax.get_yscale() == "log" and ax.get_title() == "rows" and ax.get_ylabel() == "size"
    assert [t.get_text() for t in ax.get_xticklabels()] == ["d_k = 4", "d_k = 256"]
    strips = ax.collections  # unscaled then scaled, per group
    assert len(strips) == 4
    marks = [line for line in ax.get_lines() if line.get_color() == "black"]
    assert len(marks) == 8  # per strip: the quartile line, then the median bar
    for k, (g, sample) in enumerate(
        [(0, unscaled[0]), (0, scaled[0]), (1, unscaled[1]), (1, scaled[1])]
    ):
        xy = strips[k].get_offsets()
        np.testing.assert_allclose(xy[:, 1], np.maximum(sample, 1e-4))  # zeros on the floor
        x = g + (0.2 if k % 2 else -0.2)
        assert (np.abs(xy[:, 0] - x) <= 0.12).all()  # around its place, beside its partner
        s = spread(sample, 0.01)
        quartiles, median = marks[2 * k], marks[2 * k + 1]
        np.testing.assert_allclose(quartiles.get_ydata(), np.maximum([s.q1, s.q3], 1e-4))
        np.testing.assert_allclose(median.get_ydata(), [max(s.median, 1e-4)] * 2)
    thresholds = sorted(
        line.get_ydata()[0] for line in ax.get_lines() if line.get_color() == "grey"
    )
    assert thresholds == [1e-4, 0.01]
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert labels == [
        "unscaled",
        "scaled",
        "median; quartiles",
        "near zero: below 0.01",
        "0.0001 or less",
    ]
    again = plot_gradient_spread(
        ["d_k = 4", "d_k = 256"], unscaled, scaled, near_zero=0.01, ylabel="size", title="rows"
    )
    np.testing.assert_array_equal(
        again.axes[0].collections[0].get_offsets(), strips[0].get_offsets()
    )


def test_plot_gradient_spread_names_what_it_cannot_draw():
    from attnlib.pictures.charts import plot_gradient_spread

    good = dict(near_zero=0.01, ylabel="y", title="t")
    with pytest.raises(ValueError, match="scaled has 1 samples but there are 2 labels"):
        plot_gradient_spread(["a", "b"], [[1.0], [2.0]], [[1.0]], **good)
    with pytest.raises(ValueError, match=r"unscaled\[1\] must hold sizes >= 0"):
        plot_gradient_spread(["a", "b"], [[1.0], [-2.0]], [[1.0], [1.0]], **good)
    with pytest.raises(ValueError, match="floor must be a positive number below near_zero"):
        plot_gradient_spread(["a"], [[1.0]], [[1.0]], **good, floor=0.1)
