"""attnlib.layout: keyword-only panels, their layout key, the geometry and PanelFigure."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from matplotlib.figure import Figure

from attnlib.pictures.layout import Panel, PanelFigure, draw_panels, geometry, grid_shape


def test_panel_takes_keywords_only():
    with pytest.raises(TypeError):
        Panel(np.zeros((2, 2)), "title")  # positional: a reader would count to tell them apart
    p = Panel(matrix=[[1, 2]], title="t", row_labels=["a"])
    assert p.matrix.dtype == float and p.row_labels == ("a",) and p.shape == (1, 2)


def test_layout_key_ignores_numbers_only_and_follows_every_other_field():
    a = Panel(matrix=np.zeros((2, 2)), title="t", row_labels=("a", "b"))
    assert (
        a.layout_key()
        == Panel(matrix=np.ones((2, 2)), title="t", row_labels=("a", "b")).layout_key()
    )
    same_but_mask = Panel(
        matrix=np.ones((2, 2)), title="t", row_labels=("a", "b"), mask=np.eye(2, dtype=bool)
    )
    assert a.layout_key() == same_but_mask.layout_key()
    assert a.layout_key() != Panel(matrix=np.ones((3, 2)), title="t").layout_key()
    changes = {
        "title": "u",
        "row_labels": ("a", "c"),
        "col_labels": ("x", "y"),
        "xlabel": "k",
        "ylabel": "q",
        "kind": "weights",
        "diagonal": True,
        "values": False,
        "min_value_cell": 12.0,
        "limit": 2.5,
        "colorbar": False,
        "share_limit": True,
        "selectable": True,
    }
    layout_fields = {f.name for f in dataclasses.fields(Panel)} - {"matrix", "mask"}
    assert set(changes) == layout_fields  # a new field must be listed here, and is in the key
    for name, value in changes.items():
        assert dataclasses.replace(a, **{name: value}).layout_key() != a.layout_key(), name


def test_panel_rejects_bad_arguments():
    with pytest.raises(ValueError, match="share_limit is for kind 'diverging' only"):
        Panel(matrix=[[0.5]], title="w", kind="weights", share_limit=True)
    with pytest.raises(ValueError, match="kind must be one of"):
        Panel(matrix=[[0.5]], kind="rainbow")
    with pytest.raises(ValueError, match="limit is for kind 'diverging' only"):
        Panel(matrix=[[0.5]], kind="weights", limit=1.0)
    with pytest.raises(ValueError, match="limit must be a positive number, got -1"):
        Panel(matrix=[[0.5]], limit=-1)
    with pytest.raises(ValueError, match="matrix must be finite"):
        Panel(matrix=[[np.nan]])


def test_geometry_is_cached_per_layout_and_fits_the_figure():
    panels = [
        Panel(matrix=np.zeros((6, 6)), title="a", row_labels=list("abcdef"), ylabel="q"),
        Panel(matrix=np.zeros((6, 3)), title="b", kind="weights"),
    ]
    g = geometry(panels)
    assert (
        geometry(
            [
                Panel(matrix=np.ones((6, 6)), title="a", row_labels=list("abcdef"), ylabel="q"),
                panels[1],
            ]
        )
        is g
    )  # numbers only: the same object
    for box, bar in zip(g.boxes, g.bars, strict=True):
        assert box[0] + box[2] < bar[0] and bar[0] + bar[2] <= 1.0
        assert 0 < box[1] and box[1] + box[3] < 1.0
    assert g.boxes[0][0] + g.boxes[0][2] < g.boxes[1][0]  # side by side, no overlap
    with pytest.raises(ValueError, match="size must be one of"):
        geometry(panels, "medium")
    with pytest.raises(ValueError, match="at least one Panel"):
        geometry([])


def test_draw_panels_makes_one_heatmap_and_colorbar_per_panel():
    fig = Figure()
    heatmaps = draw_panels(
        fig,
        [
            Panel(matrix=[[1.0, -1.0]], title="a"),
            Panel(matrix=[[0.5], [0.5]], title="b", kind="weights"),
        ],
    )
    assert [h.ax for h in heatmaps] == fig.axes[::2]
    assert [h.colorbar.ax for h in heatmaps] == fig.axes[1::2]
    assert [h.ax.get_title() for h in heatmaps] == ["a", "b"]


def test_panel_figure_reuses_its_axes_for_the_same_kinds_and_rebuilds_otherwise():
    pf = PanelFigure(Figure())
    first = pf.draw([Panel(matrix=np.eye(3), title="a")])
    axes = first[0].ax
    second = pf.draw([Panel(matrix=np.ones((5, 4)), title="b")])
    assert second[0].ax is axes and second[0].shape == (5, 4) and axes.get_title() == "b"
    third = pf.draw([Panel(matrix=np.eye(2), title="c", kind="weights")])
    assert third[0].ax is not axes and len(pf.figure.axes) == 2


def test_shared_limit_covers_every_sharing_panel():
    pf = PanelFigure(Figure())
    a, b, c = pf.draw(
        [
            Panel(matrix=[[0.4]], share_limit=True),
            Panel(matrix=[[2.2]], share_limit=True),
            Panel(matrix=[[0.1]]),
        ]
    )
    assert a.image.get_clim() == b.image.get_clim() == (-2.5, 2.5)
    assert c.image.get_clim() == (-0.1, 0.1)
    a, b, c = pf.draw(
        [
            Panel(matrix=[[7.0]], share_limit=True),
            Panel(matrix=[[0.3]], share_limit=True),
            Panel(matrix=[[0.1]]),
        ]
    )  # re-dressed: the group follows the new numbers
    assert a.image.get_clim() == b.image.get_clim() == (-8.0, 8.0)


def test_a_panel_that_stops_sharing_gets_its_own_limit_again():
    pf = PanelFigure(Figure())
    pf.draw([Panel(matrix=[[0.4]], share_limit=True), Panel(matrix=[[2.2]], share_limit=True)])
    a, b = pf.draw([Panel(matrix=[[0.4]]), Panel(matrix=[[2.2]])])  # same kinds: re-dressed
    assert a.shared == [] and a.image.get_clim() == (-0.4, 0.4)
    b.update([[5.0]])
    assert a.image.get_clim() == (-0.4, 0.4) and b.image.get_clim() == (-5.0, 5.0)


def test_grid_shape_keeps_three_in_a_row_and_fills_rows_evenly():
    assert [grid_shape(k) for k in range(1, 9)] == [
        (1, 1), (1, 2), (1, 3), (2, 2), (2, 3), (2, 3), (2, 4), (2, 4)
    ]  # fmt: skip


@pytest.mark.parametrize("count", [4, 5, 7, 8])
def test_small_multiples_make_an_aligned_grid_that_fits_the_figure(count):
    panels = [
        Panel(matrix=np.zeros((6, 6)), title=f"head {h}", kind="weights") for h in range(count)
    ]
    g = geometry(panels)
    rows, cols = grid_shape(count)
    lefts = sorted({round(box[0], 9) for box in g.boxes})
    bottoms = sorted({round(box[1], 9) for box in g.boxes})
    assert len(lefts) == cols and len(bottoms) == rows  # columns and rows line up
    for k, (box, bar) in enumerate(zip(g.boxes, g.bars, strict=True)):
        r, c = divmod(k, cols)
        assert box[0] == pytest.approx(lefts[c]) and box[1] == pytest.approx(bottoms[rows - 1 - r])
        assert box[0] + box[2] < bar[0] and bar[0] + bar[2] <= 1.0 and 0 < box[1]
        assert box[1] + box[3] < 1.0 and bar[1] == box[1] and bar[3] == box[3]
    one = geometry(panels[:1])  # small multiples have smaller boxes than one panel
    assert g.boxes[0][2] * g.width < one.boxes[0][2] * one.width
    for a in range(count):  # no two boxes overlap
        for b in range(a + 1, count):
            (x0, y0, w0, h0), (x1, y1, w1, h1) = g.boxes[a], g.boxes[b]
            assert x0 + w0 <= x1 or x1 + w1 <= x0 or y0 + h0 <= y1 or y1 + h1 <= y0


def test_up_to_three_panels_keep_the_one_row_geometry():
    # the row of 1, 2 or 3 panels is what it was before grids: computed by hand here
    panels = [Panel(matrix=np.zeros((4, 4)), title=str(k)) for k in range(3)]
    for count in (1, 2, 3):
        g = geometry(panels[:count])
        assert len({box[1] for box in g.boxes}) == 1
        widths = [g.boxes[k + 1][0] - g.boxes[k][0] for k in range(count - 1)]
        assert all(w == pytest.approx(widths[0]) for w in widths)


def test_a_grid_of_eight_panels_draws_eight_heatmaps_in_two_rows():
    fig = Figure()
    panels = [Panel(matrix=np.eye(5) * h, title=f"h{h}") for h in range(1, 9)]
    heatmaps = draw_panels(fig, panels)
    assert len(heatmaps) == 8 and len(fig.axes) == 16
    tops = sorted({round(h.ax.get_position().y1, 6) for h in heatmaps})
    assert len(tops) == 2
    assert [h.ax.get_title() for h in heatmaps] == [f"h{h}" for h in range(1, 9)]
