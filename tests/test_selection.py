"""Select a cell: what the page sends (``selection = [i, j, panel]``), what the kernel
answers (the breakdown from attnlib.explain), and the views' clamping. Clicks and arrow
keys in the page are driven in Chromium (tests/browser/test_page_explorer.py)."""

from __future__ import annotations

import html

import numpy as np
import pytest

import attnlib
from attnlib import explain


def from_the_page(e, cell, panel=0) -> None:
    # what a click on cell (i, j) of `panel` (or arrow keys on the picture) sends
    e.selection = [*cell, panel]


def breakdown(e) -> str:
    return html.unescape(e.shown.summary + e.details)


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
    # the page shows the summary line under the picture, the full table under the readout
    assert ex.shown.summary == v.summary and ex.details == v.details


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


def test_every_explorer_that_shows_a_heatmap_answers_a_selection_or_says_why_not():
    unanswered = set()
    for name, e in _every_explorer().items():
        assert e.shown.panels, name  # each one shows heatmaps
        if not any(p.selectable for p in e.shown.panels):  # the hint above says why
            assert "attention explorer" in e.hint, name
            unanswered.add(name)
            continue
        last = len(e.shown.panels) - 1
        from_the_page(e, (1, 0), last)
        assert e.shown.selection == (1, 0) and e.shown.panel == last, name
        assert "attnlib-summary" in e.shown.summary and "attnlib-explain" in e.details, name
    assert unanswered == {"embedding", "qkv"}


@pytest.mark.parametrize("head", [1, 2, 3])
def test_a_cell_of_head_hs_panel_explains_head_h(head):
    e = attnlib.explorer(n=5, d_k=3, seed=0, heads=4)
    from_the_page(e, (2, 3), head)
    assert e.shown.selection == (2, 3) and e.shown.panel == head
    att = e.multi_head.heads[head]
    text = breakdown(e)
    assert f"head {head} of 4" in text and "head 0 of 4" not in text
    assert f"weight α = {att.weights[2, 3]:.2f}" in text
    assert explain(att, 2, 3, tokens=e.example.tokens).html() in e.details
    # another head's numbers differ here, so the test would see a wrong head
    assert not np.isclose(att.weights[2, 3], e.multi_head.heads[0].weights[2, 3])
    e.controls = {**e.controls, "seed": 4}  # a move told by the page keeps head and cell
    assert e.shown.panel == head and f"head {head} of 4" in breakdown(e)
    e.controls = {**e.controls, "heads": 2}  # a head that is gone gives way to head 0
    kept = head if head < 2 else 0
    assert e.shown.panel == kept and f"head {kept} of 2" in breakdown(e)


@pytest.mark.parametrize("panel", [0, 1])
def test_a_cell_of_the_scaling_explorer_explains_the_pass_drawn_in_that_panel(panel):
    e = attnlib.scaling_explorer(d_k=16, seed=0)
    from_the_page(e, (2, 5), panel)
    att = (e.comparison.unscaled, e.comparison.scaled)[panel]
    text = breakdown(e)
    assert f"score {att.scores[2, 5]:.2f}, weight α = {att.weights[2, 5]:.2f}" in text
    assert ("unscaled · " in text) == (panel == 0)
    assert explain(att, 2, 5, tokens=e.example.tokens).html() in e.details
    e.controls = {**e.controls, "d_k": 64}  # the selection and its panel stay while d_k moves
    att = (e.comparison.unscaled, e.comparison.scaled)[panel]
    assert f"weight α = {att.weights[2, 5]:.2f}" in breakdown(e) and e.shown.panel == panel


def test_a_selection_changes_no_maths(monkeypatch):
    e = attnlib.explorer(n=5)
    before = e.shown
    calls = []
    real = attnlib.explorers.views.self_attention
    monkeypatch.setattr(
        attnlib.explorers.views, "self_attention", lambda *a, **k: calls.append(1) or real(*a, **k)
    )
    from_the_page(e, (2, 4))
    assert calls == [] and e.shown.panels is before.panels  # no forward pass for a click
    assert "query i = 2" in e.details
