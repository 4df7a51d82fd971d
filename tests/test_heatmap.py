"""attnlib.pictures.heatmap: one heatmap, its colours, labels, cell values and updates."""

from __future__ import annotations

import dataclasses
import io

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.patches import PathPatch, Rectangle
from matplotlib.path import Path as MplPath

from attnlib import self_attention, toy_example
from attnlib.pictures.heatmap import Heatmap, format_value, heatmap, share_limit, symmetric_limit
from attnlib.pictures.panel import Panel
from tests.panel_fields import BASE, CASES, SET, SHARING, STATIC_FIGURE_IGNORES


def render(fig) -> np.ndarray:
    if not isinstance(fig.canvas, FigureCanvasAgg):
        FigureCanvasAgg(fig)
    fig.canvas.draw()
    return np.asarray(fig.canvas.buffer_rgba()).copy()


def small_figure(matrix, **kwargs) -> tuple[Figure, Heatmap]:
    fig = Figure(figsize=(2, 2), dpi=50)
    return fig, heatmap(fig.add_axes((0.1, 0.1, 0.8, 0.8)), matrix, colorbar=False, **kwargs)


def test_heatmap_holds_the_matrix_with_labels_and_kind_limits():
    ex = toy_example(6, d_k=4, seed=0)
    att = self_attention(*ex[1:])
    h = heatmap(
        Figure().add_subplot(),
        att.scores,
        row_labels=ex.tokens,
        col_labels=ex.tokens,
        title="scores",
        xlabel="key j",
        ylabel="query i",
    )
    assert isinstance(h, Heatmap)
    np.testing.assert_array_equal(h.image.get_array(), att.scores)
    low, high = h.image.get_clim()
    assert low == -high  # symmetric around 0
    assert np.abs(att.scores).max() <= high <= 1.5 * np.abs(att.scores).max()
    assert h.image.get_cmap().name == "RdBu_r"
    ax = h.ax
    assert [t.get_text() for t in ax.get_yticklabels()] == list(ex.tokens)
    assert [t.get_text() for t in ax.get_xticklabels()] == list(ex.tokens)
    assert (ax.get_title(), ax.get_xlabel(), ax.get_ylabel()) == ("scores", "key j", "query i")
    weights = heatmap(Figure().add_subplot(), att.weights, kind="weights")
    assert weights.image.get_clim() == (0.0, 1.0) and weights.image.get_cmap().name == "viridis"


def test_token_names_are_tick_labels_turned_when_too_wide_and_thinned_on_thin_rows():
    from attnlib.pictures.heatmap import MIN_LABEL_PT

    def drawn(n, labels, box=(0.3, 0.35, 0.5, 0.5)):
        fig = Figure(figsize=(6, 6), dpi=100)
        h = heatmap(fig.add_axes(box), np.eye(n), row_labels=labels, col_labels=labels)
        render(fig)
        return h.ax

    long = ["the", "cat", "because", "it", "was", "warm", "and", "extraordinarily"]
    assert {t.get_rotation() for t in drawn(8, long).get_xticklabels()} == {90.0}
    ax = drawn(6, list(toy_example(6).tokens))
    assert {t.get_rotation() for t in ax.get_xticklabels()} == {0.0}
    assert [t.get_text() for t in ax.get_xticklabels()] == list(toy_example(6).tokens)
    tokens = list(toy_example(32).tokens)
    ax = drawn(32, tokens, box=(0.3, 0.35, 0.3, 0.3))  # 32 rows in 1.8 in: every other one
    shown = [t.get_text() for t in ax.get_yticklabels()]
    assert shown == tokens[::2] or shown == tokens[::3]
    assert min(t.get_fontsize() for t in ax.get_yticklabels()) >= MIN_LABEL_PT


def plain_matplotlib_figure() -> Figure:
    """A heatmap made with matplotlib's own calls only: what its objects carry by themselves."""
    fig = Figure()
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    shown = np.ma.masked_array(np.eye(3), mask=np.eye(3) > 2)
    image = ax.imshow(shown, cmap="RdBu_r", aspect="auto", interpolation="nearest", zorder=0)
    image.set_clim(-1, 1)
    image.set_extent((-0.5, 2.5, 2.5, -0.5))
    ax.add_patch(PathPatch(MplPath([(0, 0), (1, 1)]), hatch="///", zorder=0.5))
    ax.add_patch(Rectangle((0, 0), 1, 1, facecolor="none", zorder=2))
    ax.set_title("t", pad=3, y=1.0)
    ax.set_xlabel("x")
    ax.set_ylabel("y")
    ax.xaxis.set_tick_params(length=0, labelsize=8, pad=2, labelrotation=90)
    ax.yaxis.set_ticks([0, 1, 2], labels=["a", "b", "c"])
    bar = fig.colorbar(image, ax=ax)
    bar.set_ticks([0, 0.5])
    bar.outline.set_linewidth(0.8)
    fig.canvas.draw()
    return fig


def extra_attributes(fig: Figure) -> list[str]:
    """Attributes on `fig`'s matplotlib objects that no object of the same class has in a
    plain matplotlib heatmap: state someone wrote onto matplotlib's objects."""
    allowed: dict[type, set[str]] = {}
    for obj in plain_matplotlib_figure().findobj():
        allowed.setdefault(type(obj), set()).update(vars(obj))
    found = []
    for obj in [fig, *fig.findobj()]:
        if type(obj).__module__.startswith("attnlib"):
            continue  # our own objects may hold what they like
        assert type(obj) in allowed, f"no plain matplotlib {type(obj).__name__} to compare"
        found += [f"{type(obj).__name__}.{name}" for name in set(vars(obj)) - allowed[type(obj)]]
    return found


def test_heatmap_writes_no_attributes_on_matplotlib_objects():
    fig = Figure()
    FigureCanvasAgg(fig)
    h = heatmap(fig.add_subplot(), np.eye(3), diagonal=True, row_labels=list("abc"), values=True)
    h.select((1, 1))
    h.update(np.eye(3) * 2)
    fig.canvas.draw()
    assert extra_attributes(fig) == []
    # what the check is for: it must see this
    h.ax.kind_of_heatmap = "diverging"
    assert extra_attributes(fig) == ["Axes.kind_of_heatmap"]


def test_heatmap_rejects_bad_arguments():
    ax = Figure().add_subplot()
    with pytest.raises(ValueError, match="row_labels has 2 labels but matrix has 3"):
        heatmap(ax, np.zeros((3, 3)), row_labels=["a", "b"])
    with pytest.raises(ValueError, match="kind must be one of"):
        heatmap(ax, np.zeros((3, 3)), kind="rainbow")
    with pytest.raises(ValueError, match="diagonal=True needs a square matrix"):
        heatmap(ax, np.zeros((3, 4)), diagonal=True)
    with pytest.raises(TypeError, match="matrix"):
        heatmap(ax, "not a matrix")
    with pytest.raises(ValueError, match=r"mask must be a boolean array of the matrix's shape"):
        heatmap(ax, np.zeros((2, 2)), mask=np.ones((2, 3), dtype=bool))
    with pytest.raises(TypeError, match=r"'colour' is not an option of a heatmap.*title"):
        heatmap(ax, np.zeros((2, 2)), colour="red")
    with pytest.raises(TypeError, match="give the options in the Panel"):
        heatmap(ax, Panel(matrix=np.zeros((2, 2))), title="beside")
    h = heatmap(ax, Panel(matrix=np.zeros((2, 2))))
    with pytest.raises(ValueError, match="of kind 'diverging', the panel 'weights'"):
        h.update(Panel(matrix=np.zeros((2, 2)), kind="weights"))


def test_a_panel_and_the_same_options_as_keywords_draw_the_same_picture():
    options = {"row_labels": list("abc"), "title": "t", "kind": "weights", "diagonal": True}
    matrix = np.eye(3) * 0.5
    by_keywords, _ = small_figure(matrix, **options)
    by_panel, _ = small_figure(Panel(matrix=matrix, **options))
    np.testing.assert_array_equal(render(by_keywords), render(by_panel))


def test_a_panel_without_a_colorbar_gets_none_from_heatmap_too():
    fig = Figure()
    assert heatmap(fig.add_subplot(), Panel(matrix=[[1.0]], colorbar=False)).colorbar is None
    assert heatmap(fig.add_subplot(), Panel(matrix=[[1.0]])).colorbar is not None
    assert len(fig.axes) == 3


def test_cell_values_are_left_out_of_cells_smaller_than_the_minimum():
    # small_figure: a 1.6-inch box, so a 4 × 4 matrix has cells of 0.4 in = 28.8 pt
    for minimum, shown in ((0.0, True), (28.0, True), (29.0, False), (100.0, False)):
        fig, h = small_figure(np.eye(4), values=True, min_value_cell=minimum)
        assert bool(h.cell_values) is shown, minimum
    fig, h = small_figure(np.eye(4), values=True, min_value_cell=29.0)
    blank = render(fig)
    h.update(Panel(matrix=np.eye(2), values=True, min_value_cell=29.0))  # cells of 57.6 pt
    assert h.cell_values and (render(fig) != blank).any()


def test_update_with_a_panel_draws_what_a_new_heatmap_of_it_draws():
    # The one description: dressing an old heatmap as a panel or drawing the panel afresh
    # gives the same pixels.
    target = Panel(matrix=np.arange(6.0).reshape(2, 3), col_labels=list("xyz"), title="new")
    fresh, _ = small_figure(target)
    fig, h = small_figure(np.eye(4), row_labels=list("abcd"), diagonal=True, title="old")
    h.update(target)
    np.testing.assert_array_equal(render(fig), render(fresh))


def test_cell_values_only_when_small_and_they_are_drawn():
    small = heatmap(Figure().add_subplot(), np.eye(8), kind="weights")
    big = heatmap(Figure().add_subplot(), np.eye(9), kind="weights")
    assert len(small.cell_values) == 64 and set(small.cell_values) <= set(small.ax.texts)
    assert [t.get_text() for t in small.cell_values[:2]] == ["1.00", "0.00"]
    assert big.cell_values == [] and list(big.ax.texts) == []
    with_values, _ = small_figure(np.eye(3) * 0.5, kind="weights", values=True)
    without, _ = small_figure(np.eye(3) * 0.5, kind="weights", values=False)
    assert (render(with_values) != render(without)).any()


def test_cell_values_follow_new_numbers_a_mask_and_a_shared_limit():
    fig, h = small_figure([[0.5, -0.5]], values=True)
    assert [t.get_text() for t in h.cell_values] == ["0.50", "−0.50"]
    h.update([[2.0, 0.1]], mask=np.array([[True, False]]))
    assert [t.get_text() for t in h.cell_values] == ["2.00", ""]  # masked: blank
    assert h.cell_values[0].get_color() == "white"  # the darkest red: white ink
    other = heatmap(fig.add_axes((0.5, 0.5, 0.1, 0.1)), [[20.0]], colorbar=False)
    share_limit([h, other])  # the limit grows to 20: 2.0 is a pale red now
    assert h.cell_values[0].get_color() == "black"


def test_cell_value_text_is_light_on_dark_cells_and_dark_on_light_cells():
    fig = Figure(figsize=(2, 1), dpi=100)
    ax = fig.add_axes((0, 0, 1, 1))
    h = heatmap(ax, [[0.0, 1.0]], kind="weights", values=True, colorbar=False)
    ax.set_axis_off()
    buffer = render(fig)[..., :3].astype(int)  # (H, W, 3)
    left, right = buffer[:, :100], buffer[:, 100:]
    dark_cell = np.array(h.image.cmap(0.0)[:3]) * 255
    light_cell = np.array(h.image.cmap(1.0)[:3]) * 255
    # text pixels are those far from the cell colour: brighter on the dark cell, darker on the light
    assert (left.sum(-1) > dark_cell.sum() + 200).any()
    assert (right.sum(-1) < light_cell.sum() - 200).any()


def test_diagonal_outline_changes_exactly_the_diagonal_cells():
    plain, _ = small_figure(np.zeros((4, 4)))
    outlined, h = small_figure(np.zeros((4, 4)), diagonal=True)
    changed = (render(plain) != render(outlined)).any(-1)  # (H, W) pixels that differ
    centres = h.ax.transData.transform([(j, i) for i in range(4) for j in range(4)])
    height = changed.shape[0]
    near = {
        (i, j): changed[
            round(height - y) - 4 : round(height - y) + 4, round(x) - 4 : round(x) + 4
        ].any()
        for (x, y), (i, j) in zip(
            centres, [(i, j) for i in range(4) for j in range(4)], strict=True
        )
    }
    assert changed.any()
    assert not any(near.values())  # cell middles untouched: the outline runs along the edges


def test_update_keeps_the_artist_and_follows_the_kind():
    h = heatmap(Figure().add_subplot(), [[0.1, -0.2], [0.3, 0.0]])
    image = h.image
    h.update([[5.0, -1.0], [0.0, 0.0]])
    assert h.image is image
    np.testing.assert_array_equal(h.matrix, [[5.0, -1.0], [0.0, 0.0]])
    assert image.get_clim() == (-5.0, 5.0)
    with pytest.raises(ValueError, match="shape"):
        h.update(np.zeros((3, 3)))


def test_a_fixed_limit_is_kept_through_updates():
    h = heatmap(Figure().add_subplot(), [[0.5, -0.5]], limit=3.0)
    assert h.image.get_clim() == (-3.0, 3.0)
    h.update([[0.1, 0.2]])
    assert h.image.get_clim() == (-3.0, 3.0)


def test_a_panels_limit_fixes_the_colours_through_updates_and_goes_with_the_panel():
    h = heatmap(Figure().add_subplot(), Panel(matrix=[[0.2, -0.1]], limit=15.0))
    assert h.image.get_clim() == (-15.0, 15.0)  # not the data's own ±0.2
    h.update([[0.01, 0.02]])
    assert h.image.get_clim() == (-15.0, 15.0)
    h.update(Panel(matrix=[[0.2, -0.1]]))  # a panel without one: limits follow the data again
    assert h.image.get_clim() == (-0.2, 0.2)
    h.update(Panel(matrix=[[0.2, -0.1]], limit=4.0))
    assert h.image.get_clim() == (-4.0, 4.0)


def test_shared_limit_follows_the_largest_member():
    fig = Figure()
    a = heatmap(fig.add_subplot(121), [[0.5]])
    b = heatmap(fig.add_subplot(122), [[3.0]])
    share_limit([a, b])
    assert a.image.get_clim() == b.image.get_clim() == (-3.0, 3.0)
    b.update([[0.2]])
    assert a.image.get_clim() == b.image.get_clim() == (-0.5, 0.5)
    with pytest.raises(ValueError, match="diverging"):
        share_limit([heatmap(fig.add_subplot(), [[0.5]], kind="weights")])


def test_update_with_a_panel_shows_a_new_shape_and_labels_on_the_same_axes():
    h = heatmap(Figure().add_subplot(), np.eye(3), row_labels=["a", "b", "c"], diagonal=True)
    ax = h.ax
    h.update(Panel(matrix=np.ones((5, 2)), row_labels=list("vwxyz"), title="new", values=False))
    assert h.ax is ax and h.shape == (5, 2)
    assert ax.get_ylim() == (4.5, -0.5) and ax.get_xlim() == (-0.5, 1.5)
    assert [t.get_text() for t in ax.get_yticklabels()] == list("vwxyz")
    assert ax.get_title() == "new" and h.cell_values == []


def test_selection_outlines_one_cell_and_is_clamped_by_a_new_panel():
    plain, _ = small_figure(np.zeros((4, 4)))
    fig, h = small_figure(np.zeros((4, 4)))
    assert h.selection is None
    h.select((2, 1))
    assert h.selection == (2, 1)
    changed = (render(plain) != render(fig)).any(-1)
    rows, cols = np.nonzero(changed)
    (x0, y1), (x1, y0) = h.ax.transData.transform([(0.5, 1.5), (1.5, 2.5)])
    height = changed.shape[0]
    # everything that changed lies around cell (2, 1), within a few pixels of its edges
    assert x0 - 4 <= cols.min() and cols.max() <= x1 + 4
    assert height - y1 - 4 <= rows.min() and rows.max() <= height - y0 + 4
    h.select(None)
    np.testing.assert_array_equal(render(fig), render(plain))
    h.select((3, 3))
    h.update(Panel(matrix=np.zeros((2, 2))))
    assert h.selection == (1, 1)
    with pytest.raises(ValueError, match="cell i must be from 0 to 1, got 2"):
        h.select((2, 0))


def test_masked_cells_are_grey_hatched_and_leave_the_limits_alone():
    scores = np.array([[1.0, -np.inf], [0.5, -2.0]])
    mask = np.isfinite(scores)
    fig, h = small_figure(scores, mask=mask, values=True)
    assert h.image.get_clim() == (-2.0, 2.0)  # -inf left out
    np.testing.assert_array_equal(h.mask, mask)
    pixels = render(fig)
    x, y = h.ax.transData.transform((1, 0))  # masked cell (0, 1)
    cell = pixels[
        round(pixels.shape[0] - y) - 5 : round(pixels.shape[0] - y) + 5,
        round(x) - 5 : round(x) + 5,
        :3,
    ].reshape(-1, 3)
    greys = cell.max(1) - cell.min(1) < 8  # no colour: grey background and hatch lines
    assert greys.all() and len({tuple(p) for p in cell}) >= 2  # two greys: hatched
    h.update([[1.0, 0.0], [0.5, -9.0]])  # no mask now
    assert h.mask.all() and h.image.get_clim() == (-10.0, 10.0)


@given(st.floats(min_value=1e-6, max_value=1e6))
def test_symmetric_limit_is_a_nice_number_just_above_the_data(top):
    limit = symmetric_limit([[top, -top / 2]])
    assert limit >= top
    assert limit <= 1.5 * top  # the steps are at most 1.5 apart
    mantissa = limit / 10 ** np.floor(np.log10(limit) + 1e-12)
    assert min(abs(mantissa - s) for s in (1, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10)) < 1e-9


def test_format_value():
    assert [format_value(v) for v in (0.254, -1.3, 12.345, -150.2)] == [
        "0.25",
        "−1.30",
        "12.3",
        "−150",
    ]


def test_cell_values_are_real_text_in_vector_output():
    svg = {}
    for values in (True, False):
        fig = Figure()
        heatmap(fig.add_subplot(), np.eye(3) * 0.5, kind="weights", values=values)
        FigureCanvasAgg(fig)
        buffer = io.StringIO()
        fig.savefig(buffer, format="svg")
        svg[values] = buffer.getvalue()
    assert svg[True].count("<image") == svg[False].count("<image")  # no raster layer of values
    assert svg[True].count("<use") >= svg[False].count("<use") + 9 * 4  # 9 values of 4 glyphs


def test_the_hatching_covers_exactly_the_masked_cells_and_follows_a_new_mask():
    from matplotlib.figure import Figure

    from attnlib.pictures.heatmap import heatmap

    mask = np.tri(4, dtype=bool)  # causal: 6 cells above the diagonal hidden
    h = heatmap(Figure().add_subplot(), np.ones((4, 4)), mask=mask)

    def hatched_cells(h):
        vertices = h._hatch.get_path().vertices.reshape(-1, 5, 2)  # one square per cell
        return sorted((int(y + 0.5), int(x + 0.5)) for x, y in vertices[:, 0])

    assert hatched_cells(h) == sorted(map(tuple, np.argwhere(~mask).tolist()))
    h.update(np.zeros((4, 4)), mask=mask.T)
    assert hatched_cells(h) == sorted(map(tuple, np.argwhere(~mask.T).tolist()))
    h.update(np.zeros((4, 4)))  # no mask: nothing hatched
    assert not h._hatch.get_visible()


# --- every option of Panel, set and unset (tests/panel_fields.py) ---


def test_every_field_of_panel_is_listed_with_a_value_or_a_reason():
    names = {f.name for f in dataclasses.fields(Panel)}
    assert set(SET) | set(STATIC_FIGURE_IGNORES) == names, "a new field needs a line in SET"
    assert not set(SET) & set(STATIC_FIGURE_IGNORES)


@pytest.mark.parametrize(("name", "value"), CASES, ids=[f"{n}={v!r}"[:30] for n, v in CASES])
def test_every_field_of_panel_changes_the_static_figure(name, value):
    from attnlib.pictures.plotting import plot_panels

    def pixels(panel) -> np.ndarray:
        return render(plot_panels([panel, SHARING]))

    unset = pixels(BASE)
    changed = pixels(dataclasses.replace(BASE, **{name: value}))
    assert unset.shape != changed.shape or (unset != changed).any(), name
