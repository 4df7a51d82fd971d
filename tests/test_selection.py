"""Click a cell: pixels to cells (layout.Geometry), ipyevents clicks, the menus, the breakdown."""

from __future__ import annotations

import html
import io

import numpy as np
import pytest
from PIL import Image

import attnlib
from attnlib import explain, self_attention, toy_example
from attnlib.explorers.controller import NO_CELL, event_pixel
from attnlib.pictures.layout import Panel, geometry


def png_size(e) -> tuple[int, int]:
    return Image.open(io.BytesIO(bytes(e.image.value))).size


def click_event(e, cell, *, panel=0, shown_width=None, offset=(0.0, 0.0)) -> dict:
    """The dict ipyevents sends for a click on the middle of `cell`, the picture shown
    `shown_width` CSS pixels wide (its natural width if None), as its front end computes it:
    relativeX = round(clientX - left), dataX = round(relativeX / width * naturalWidth)."""
    natural_w, natural_h = png_size(e)
    shown_w = natural_w if shown_width is None else shown_width
    shown_h = natural_h * shown_w / natural_w  # height: auto keeps the aspect
    x, y = e.cell_pixel(cell, panel)
    x, y = x + offset[0], y + offset[1]
    relative_x, relative_y = round(x * shown_w / natural_w), round(y * shown_h / natural_h)
    return {
        "type": "click",
        "altKey": False,
        "ctrlKey": False,
        "metaKey": False,
        "shiftKey": False,
        "button": 0,
        "buttons": 0,
        "relativeX": relative_x,
        "relativeY": relative_y,
        "dataX": round(relative_x / shown_w * natural_w),
        "dataY": round(relative_y / shown_h * natural_h),
        "boundingRectWidth": shown_w,
        "boundingRectHeight": shown_h,
        "target": {"tagName": "IMG", "id": "", "className": "widget-image attnlib-clickable"},
    }


def ipyevents_click(e, event) -> None:
    # What a click message from the browser does: ipyevents' comm handler calls its
    # dispatcher, which calls every callback registered with on_dom_event.
    e.clicks._handle_mouse_msg(None, event, None)


def breakdown(e) -> str:
    return html.unescape(e.readout.value)


# --- pixels to cells: pure geometry ---


@pytest.mark.parametrize("size", ["normal", "large"])
@pytest.mark.parametrize("n", [2, 7, 32])
def test_cell_centres_are_where_matplotlib_draws_them_and_map_back(size, n):
    e = attnlib.explorer(n=n, size=size)
    g = e.canvas.geometry
    assert g.pixels == png_size(e) == e.figure.canvas.get_width_height()
    height = g.pixels[1]
    for panel, h in enumerate(e.canvas.heatmaps):
        for i in range(n):
            for j in range(n):
                x, y = g.cell_centre(panel, i, j)
                # matplotlib's own transform: display y grows upwards from the bottom row
                xd, yd = h.ax.transData.transform((j, i))
                assert (x, y) == pytest.approx((xd, height - yd), abs=1e-6)
                assert g.cell_at(x, y) == (panel, i, j)
        # the four corners of the box, just inside and just outside
        left, top = h.ax.transData.transform((-0.5, -0.5))
        right, bottom = h.ax.transData.transform((n - 0.5, n - 0.5))
        top, bottom = height - top, height - bottom
        assert g.cell_at(left + 0.01, top + 0.01) == (panel, 0, 0)
        assert g.cell_at(right - 0.01, bottom - 0.01) == (panel, n - 1, n - 1)
        for x, y in ((left - 0.5, top + 1), (right + 0.5, top + 1), (left + 1, top - 0.5)):
            assert g.cell_at(x, y) is None
        assert g.cell_at(left + 1, bottom + 0.5) is None


@pytest.mark.parametrize("size", ["normal", "large"])
def test_the_pixel_at_a_cell_centre_has_that_cells_colour(size):
    # An independent check through the rendered PNG: n = 12 writes no values in the cells.
    e = attnlib.explorer(n=12, d_k=3, seed=4, size=size)
    picture = np.asarray(Image.open(io.BytesIO(bytes(e.image.value))).convert("RGB"))
    rng = np.random.default_rng(0)
    for panel, h in enumerate(e.canvas.heatmaps):
        for i, j in rng.integers(0, 12, size=(20, 2)):
            if i == j:  # the diagonal's outline
                continue
            x, y = e.cell_pixel((int(i), int(j)), panel)
            want = np.array(h.image.cmap(h.image.norm(h.matrix[i, j]))[:3]) * 255
            np.testing.assert_allclose(picture[int(y), int(x)], want, atol=2)


def test_cell_at_is_none_outside_every_box_and_cell_centre_checks_its_arguments():
    g = geometry([Panel(matrix=np.zeros((3, 5))), Panel(matrix=np.zeros((3, 5)), kind="weights")])
    width, height = g.pixels
    assert g.shapes == ((3, 5), (3, 5))
    assert [g.cell_at(x, y) for x, y in ((0, 0), (width - 1, height - 1), (width / 2, 1))] == [
        None,
        None,
        None,
    ]
    assert g.cell_at(*g.cell_centre(1, 2, 4)) == (1, 2, 4)
    with pytest.raises(ValueError, match="panel must be from 0 to 1, got 2"):
        g.cell_centre(2, 0, 0)
    with pytest.raises(ValueError, match="cell j must be from 0 to 4, got 5"):
        g.cell_centre(0, 0, 5)


def test_event_pixel_prefers_data_coordinates_and_scales_relative_ones():
    assert event_pixel({"dataX": 10, "dataY": 20, "relativeX": 5, "relativeY": 10}, (99, 99)) == (
        10.0,
        20.0,
    )
    scaled = {"relativeX": 30, "relativeY": 12, "boundingRectWidth": 300, "boundingRectHeight": 120}
    assert event_pixel(scaled, (900, 360)) == (90.0, 36.0)
    assert event_pixel({"type": "click"}, (900, 360)) is None


# --- clicks on the explorer ---


@pytest.mark.parametrize("panel", [0, 1])
def test_a_click_selects_the_cell_outlines_it_in_both_heatmaps_and_explains_it(panel):
    e = attnlib.explorer(n=6, d_k=4, seed=0)
    plain = bytes(e.image.value)
    ipyevents_click(e, click_event(e, (2, 4), panel=panel))
    assert e.last_error is None
    assert e.selection == (2, 4)
    for h in e.canvas.heatmaps:
        assert h.selection == (2, 4)
        outline = [p for p in h.ax.patches if p.get_visible() and p.get_zorder() > 2.5]
        assert [p.get_xy() for p in outline] == [(3.5, 1.5), (3.5, 1.5)]  # x = j - 0.5, y = i - 0.5
    assert bytes(e.image.value) != plain
    text = breakdown(e)
    assert "query i = 2 'sat', key j = 4 'the'" in text
    score = e.attention.scores[2, 4]
    assert score == e.canvas.heatmaps[0].matrix[2, 4]  # the number drawn in that cell
    assert f"score2,4 = {score:.3f}" in text.replace("<sub>", "").replace("</sub>", "")
    assert explain(e.attention, 2, 4, tokens=e.example.tokens).html() in e.readout.value
    assert (e.query_i.value, e.key_j.value) == (2, 4)


def test_a_click_on_a_large_picture_shown_smaller_maps_through_ipyevents_data_coordinates():
    e = attnlib.explorer(n=32, size="large")
    natural_width = png_size(e)[0]
    for shown in (natural_width, 1000, 700):  # a projector, a laptop's notebook column, less
        for cell in ((0, 0), (31, 31), (17, 5)):
            event = click_event(e, cell, panel=1, shown_width=shown)
            ipyevents_click(e, event)
            assert e.selection == cell, (shown, cell)
        # relativeX alone would be wrong once the picture is shrunk: it is in CSS pixels
        if shown < natural_width:
            relative = (event["relativeX"], event["relativeY"])
            assert e.canvas.geometry.cell_at(*relative) != (1, 17, 5)


def test_a_click_outside_every_cell_changes_nothing():
    e = attnlib.explorer(n=5)
    e.select((1, 3))
    picture, readout = bytes(e.image.value), e.readout.value
    width, height = png_size(e)
    left, top = e.cell_pixel((0, 0))  # the middle of a 76-pixel cell
    for x, y in ((2, 2), (width - 3, height / 2), (left - 60, top), (left, top - 60)):
        e.on_click({"type": "click", "dataX": x, "dataY": y})
    e.on_click({"type": "click"})  # no position at all
    assert e.selection == (1, 3) and e.last_error is None
    assert bytes(e.image.value) == picture and e.readout.value == readout


def test_moving_sliders_keeps_the_selection_updates_its_numbers_and_clamps_it():
    e = attnlib.explorer(n=8, d_k=4, seed=0)
    ipyevents_click(e, click_event(e, (6, 7), panel=0))
    e.seed.value = 3
    att = self_attention(*toy_example(8, d_k=4, seed=3)[1:])
    assert e.selection == (6, 7)
    assert f"{att.scores[6, 7]:.3f}" in breakdown(e)
    assert explain(att, 6, 7, tokens=e.example.tokens).html() in e.readout.value
    e.d_k.value = 9
    assert explain(e.attention, 6, 7, tokens=e.example.tokens).html() in e.readout.value
    e.n.value = 5  # shrinks below the selection: clamped to the last row and column
    assert e.selection == (4, 4)
    assert [h.selection for h in e.canvas.heatmaps] == [(4, 4), (4, 4)]
    assert (e.query_i.value, e.key_j.value) == (4, 4)
    assert [label for label, _ in e.query_i.options] == [NO_CELL] + [
        f"{k}: {t}" for k, t in enumerate(e.example.tokens)
    ]
    assert "query i = 4 'the', key j = 4 'the'" in breakdown(e)
    e.n.value = 8  # grows again: the selection stays where it was clamped
    assert e.selection == (4, 4) and len(e.key_j.options) == 9


def test_the_menus_select_without_a_mouse_and_none_clears():
    e = attnlib.explorer(n=6)
    assert (e.query_i.value, e.key_j.value, e.selection) == (-1, -1, None)
    assert e.query_i.label == e.key_j.label == NO_CELL  # shown, not an empty box
    assert "query i =" not in breakdown(e)
    e.query_i.value = 3  # a row alone starts on the diagonal
    assert e.selection == (3, 3) and e.key_j.value == 3
    e.key_j.value = 0
    assert e.selection == (3, 0)
    assert "query i = 3 'on', key j = 0 'the'" in breakdown(e)
    assert e.canvas.heatmaps[1].selection == (3, 0)
    ipyevents_click(e, click_event(e, (1, 5), panel=1))  # a click moves the menus too
    assert (e.query_i.value, e.key_j.value) == (1, 5)
    e.key_j.value = -1  # "none"
    assert e.selection is None and e.query_i.value == -1
    assert [h.selection for h in e.canvas.heatmaps] == [None, None]
    assert "query i =" not in breakdown(e)


def test_explorers_without_a_selectable_panel_have_no_click_machinery():
    e = attnlib.qkv_explorer()
    assert e.clicks is None and e.query_i is None and e.key_j is None
    assert "attnlib-clickable" not in e.image._dom_classes
    main = attnlib.explorer()
    assert main.clicks.source is main.image and main.clicks.watched_events == ["click"]
    assert "attnlib-clickable" in main.image._dom_classes


def test_a_failing_click_is_shown_under_the_picture(monkeypatch):
    e = attnlib.explorer(n=4)

    def broken(*args, **kwargs):
        raise RuntimeError("boom in explain")

    monkeypatch.setattr(attnlib.explorers.readouts, "explain", broken)
    ipyevents_click(e, click_event(e, (1, 1)))
    assert isinstance(e.last_error, RuntimeError)
    assert "boom in explain" in "".join(o.get("text", "") for o in e.errors.outputs)


# --- the selection belongs to the view ---


def test_a_view_clamps_the_selection_once_and_explains_it():
    views = attnlib.explorers.views
    v = views.attention_view(n=4, d_k=2, seed=0, d=8, selection=(9, 2))
    assert v.selection == (3, 2)
    assert v.breakdown == attnlib.explorers.readouts.breakdown_html(
        v.data["attention"], v.data["example"].tokens, 3, 2
    )
    assert views.attention_view(n=4, d_k=2, seed=0, d=8).breakdown == ""
    heads = views.attention_view(n=4, d_k=2, seed=0, d=8, heads=3, selection=(1, 1))
    assert "head 0 of 3" in heads.summary and heads.breakdown.startswith(heads.summary)
    assert v.select(None).selection is None and v.select(None).breakdown == ""
    with pytest.raises(TypeError, match="cell i must be an integer"):
        v.select((1.5, 0))
    embedding = views.embedding_view(n=4, d=3, seed=0)
    with pytest.raises(ValueError, match="no selectable panel"):
        embedding.select((0, 0))


def test_a_click_changes_the_selection_only_not_the_maths(monkeypatch):
    e = attnlib.explorer(n=5)
    before = e.shown
    calls = []
    real = attnlib.explorers.views.self_attention
    monkeypatch.setattr(
        attnlib.explorers.views, "self_attention", lambda *a, **k: calls.append(1) or real(*a, **k)
    )
    ipyevents_click(e, click_event(e, (2, 4)))
    assert e.selection == (2, 4) and calls == []  # no forward pass for a click
    assert e.shown.panels is before.panels and e.shown.data is before.data
    assert "query i = 2" in e.readout.value
    e.seed.value = 3  # a slider does run the maths, and keeps the selection
    assert calls and e.selection == (2, 4)


def test_controls_and_view_data_are_read_not_set_on_the_widget():
    e = attnlib.explorer(n=4)
    assert e.n is e.controls["n"] and e.attention is e.shown.data["attention"]
    assert not {"n", "d_k", "attention", "example"} & set(vars(e))
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        e.nothing  # noqa: B018

    def clashing_view(*, n):
        view = attnlib.explorers.views.attention_view(n=n, d_k=2, seed=0, d=8)
        return view._replace(data={"layout": "a data key named like a widget trait"})

    class Clashing(attnlib.widgets.Explorer):
        CONTROLS = ("n",)
        view = staticmethod(clashing_view)

    with pytest.raises(
        ValueError, match=r"view data name\(s\) \['layout'\] are taken by the widget"
    ):
        Clashing(n=4)


def test_a_change_of_n_sends_each_menu_one_message(monkeypatch):
    # New labels move the menu's index too; held together they reach the browser as one
    # comm message per menu, with the selection (here (4, 4), kept) in the same message.
    e = attnlib.explorer(n=6)
    e.select((4, 4))
    sent = {menu.description: [] for menu in (e.query_i, e.key_j)}
    for menu in (e.query_i, e.key_j):
        monkeypatch.setattr(
            menu, "_send", lambda msg, buffers=None, name=menu.description: sent[name].append(msg)
        )
    e.n.value = 7
    for name, messages in sent.items():
        assert len(messages) == 1, f"{name}: {messages}"
        assert {"_options_labels", "index"} <= set(messages[0]["state"])
    assert (e.query_i.value, e.key_j.value) == (4, 4) and len(e.query_i.options) == 8


# --- a click in head h explains head h ---


@pytest.mark.parametrize("head", [1, 2, 3])
def test_a_click_in_head_hs_panel_explains_head_h(head):
    e = attnlib.explorer(n=5, d_k=3, seed=0, heads=4)
    ipyevents_click(e, click_event(e, (2, 3), panel=head))
    assert e.last_error is None and e.selection == (2, 3) and e.shown.panel == head
    att = e.multi_head.heads[head]
    text = breakdown(e)
    assert f"head {head} of 4" in text and "head 0 of 4" not in text
    assert f"weight α = {att.weights[2, 3]:.2f}" in text
    assert explain(att, 2, 3, tokens=e.example.tokens).html() in e.readout.value
    # another head's numbers differ here, so the test would see a wrong head
    assert not np.isclose(att.weights[2, 3], e.multi_head.heads[0].weights[2, 3])
    e.seed.value = 4  # moving a slider keeps the head as well as the cell
    assert e.shown.panel == head and f"head {head} of 4" in breakdown(e)
    e.heads.value = 2  # head 1 is still there; a head that is gone gives way to head 0
    kept = head if head < 2 else 0
    assert e.shown.panel == kept and f"head {kept} of 2" in breakdown(e)


def test_the_summary_line_comes_first_under_the_picture_and_names_the_dominant_terms():
    views = attnlib.explorers.views
    v = views.attention_view(n=6, d_k=4, seed=0, d=8, selection=(2, 4))
    att, tokens = v.data["attention"], v.data["example"].tokens
    e = explain(att, 2, 4, tokens=tokens)
    top = np.argsort(-np.abs(e.products))[:2]
    assert v.summary.startswith('<div class="attnlib-summary">')
    text = html.unescape(v.summary)
    assert f"score {att.scores[2, 4]:.2f}, weight α = {att.weights[2, 4]:.2f}" in text
    assert f"c = {top[0]} ({e.products[top[0]]:.2f}), c = {top[1]} " in text
    assert "query 2 sat → key 4 the" in text
    assert v.breakdown == v.summary + v.details and e.html() in v.details
    assert e.html() not in v.summary
    masked = views.attention_view(n=4, d_k=2, seed=0, d=8, mask="causal", selection=(0, 3))
    assert "masked: score −∞, weight 0" in masked.summary
    ex = attnlib.explorer(n=6)
    ex.select((2, 4))
    readout = ex.readout.value
    # right under the picture: the summary, then the readout, then the full table
    assert readout.index("attnlib-summary") < readout.index("largest weight in each row")
    assert readout.index("largest weight in each row") < readout.index("attnlib-explain")


# --- every explorer with a heatmap answers a click, or says why not ---


def _every_explorer():
    from attnlib import lookup

    history = lookup.train(lookup.init_params(), lookup.make_task(32), steps=2, checkpoints=[2])
    return {
        "explorer": attnlib.explorer(n=5),
        "heads": attnlib.explorer(n=5, heads=3),
        "embedding": attnlib.embedding_explorer(n=5),
        "qkv": attnlib.qkv_explorer(),
        "scaling": attnlib.scaling_explorer(d_k=16),
        "learned": attnlib.learned_explorer(history, lookup.make_task(4, seed=1)),
    }


def test_every_explorer_that_shows_a_heatmap_answers_a_click_or_says_why_not():
    for name, e in _every_explorer().items():
        assert e.canvas.heatmaps, name  # each one draws heatmaps
        if e.clicks is None:  # no click: a caption above the picture says why
            notes = [c.value for c in e.children if isinstance(c, type(e.readout))]
            assert e.no_click_note() and any(e.no_click_note() in v for v in notes), name
            assert "attention explorer" in e.no_click_note(), name
            continue
        last = len(e.shown.panels) - 1
        ipyevents_click(e, click_event(e, (1, 0), panel=last))
        assert e.last_error is None and e.selection == (1, 0) and e.shown.panel == last, name
        assert "attnlib-summary" in e.readout.value and "attnlib-explain" in e.readout.value, name
    assert {n for n, e in _every_explorer().items() if e.clicks is None} == {"embedding", "qkv"}


@pytest.mark.parametrize("panel", [0, 1])
def test_a_click_in_the_scaling_explorer_explains_the_pass_drawn_in_that_panel(panel):
    e = attnlib.scaling_explorer(d_k=16, seed=0)
    ipyevents_click(e, click_event(e, (2, 5), panel=panel))
    att = (e.comparison.unscaled, e.comparison.scaled)[panel]
    assert e.selection == (2, 5) and e.last_error is None
    text = breakdown(e)
    assert f"score {att.scores[2, 5]:.2f}, weight α = {att.weights[2, 5]:.2f}" in text
    assert ("unscaled · " in text) == (panel == 0)
    assert explain(att, 2, 5, tokens=e.example.tokens).html() in e.readout.value
    assert [h.selection for h in e.canvas.heatmaps] == [(2, 5), (2, 5)]
    e.d_k.value = 64  # the selection and its panel stay while d_k moves
    att = (e.comparison.unscaled, e.comparison.scaled)[panel]
    assert f"weight α = {att.weights[2, 5]:.2f}" in breakdown(e) and e.shown.panel == panel
