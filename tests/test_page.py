"""attnlib.explorers.page without a browser: what the kernel sends the page, what it
computes when told of a move, and what Python reads back (tests/browser/test_page_explorer.py
holds the page's drawing and arithmetic to the same numbers)."""

from __future__ import annotations

import dataclasses
import re

import numpy as np
import pytest
from matplotlib import colormaps

import attnlib
from attnlib.explorers import (
    AttentionExplorer,
    EmbeddingExplorer,
    QKVExplorer,
    ScalingExplorer,
    views,
)
from attnlib.explorers.page import (
    FRONT,
    TEXTS,
    cmap_table,
    page_data,
    page_key,
    panel_for_page,
)
from attnlib.explorers.static import static_html
from attnlib.maths.data import toy_example, toy_multi_head
from attnlib.pictures.panel import Panel
from tests.panel_fields import PAGE_IGNORES


def attention_page(**values):
    return AttentionExplorer(
        **{"n": 6, "d_k": 4, "seed": 0, "heads": 1, "mask": "none", "d": 8, **values}
    )


def test_the_page_holds_each_heads_weights_at_their_widest():
    data = page_data("attention", seed=3, d=8)
    W_Q = np.frombuffer(data["W_Q"], "<f8").reshape(8, 8, 64)  # (heads, d, width)
    ex = toy_multi_head(32, d=8, d_k=64, heads=8, seed=3)
    for h in range(8):
        assert (W_Q[h] == ex.W_Q[:, h * 64 : (h + 1) * 64]).all()
    X = np.frombuffer(data["X"], "<f8").reshape(32, 8)
    assert (X == ex.X).all()
    # a smaller d_k and n are the first columns and rows: toy_example at that size
    small = toy_example(5, d=8, d_k=3, seed=3)
    assert (W_Q[0][:, :3] == small.W_Q).all() and (X[:5] == small.X).all()


def test_the_embedding_page_holds_x_at_d_64():
    data = page_data("embedding", seed=1, d=8)
    X = np.frombuffer(data["X"], "<f8").reshape(32, 64)
    assert data["d"] == 64 and (X[:7, :5] == toy_example(7, d=5, seed=1).X).all()


def test_colour_tables_are_matplotlibs():
    table = np.frombuffer(cmap_table("RdBu_r"), np.uint8).reshape(256, 4)
    want = colormaps["RdBu_r"](np.linspace(0, 1, 256), bytes=True)
    assert (table == want).all()


def test_python_moves_the_page_and_reads_what_it_shows():
    e = attention_page()
    e.d_k.value = 8
    assert e.controls["d_k"] == 8
    want = views.attention_view(n=6, d_k=8, seed=0, d=8)
    assert np.array_equal(e.attention.weights, want.data["attention"].weights)
    e.set_controls(mask="causal", heads=3)
    assert [p.title for p in e.shown.panels][2].startswith("head 2")
    assert repr(e) == "AttentionExplorer(n=6, d_k=8, seed=0, heads=3, mask='causal')"


def test_a_move_told_by_the_page_computes_nothing_but_a_seed_sends_new_numbers():
    e = attention_page()
    sent = e.data
    e.controls = {**e.controls, "d_k": 9, "n": 12}  # what the page sends after drawing
    assert e.data is sent and not e._cache  # the same numbers, and no view until one is read
    e.controls = {**e.controls, "seed": 5}
    assert e.data is not sent and e.data["seed"] == 5
    assert np.array_equal(e.example.X, toy_example(12, d=8, d_k=9, seed=5).X)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"d_k": 65}, "d_k must be an integer from 1 to 64, got 65"),
        ({"n": 1}, "n must be an integer from 2 to 32, got 1"),
        ({"heads": 9}, "heads must be an integer from 1 to 8, got 9"),
        ({"mask": "casual"}, "mask must be one of ['none', 'causal'], got 'casual'"),
        ({"size": 3}, "has no control 'size'"),
    ],
)
def test_bad_values_are_refused_with_the_range(change, message):
    e = attention_page()
    with pytest.raises(
        (ValueError, TypeError), match=message.replace("[", r"\[").replace("(", r"\(")
    ):
        e.set_controls(**change)


def test_bad_arguments_are_refused_when_made():
    with pytest.raises(TypeError, match="takes n, d_k, seed, heads, mask, d by keyword"):
        AttentionExplorer(n=6, d_k=4, seed=0)
    with pytest.raises(ValueError, match="size must be one of"):
        attention_page(size="huge")


def test_a_selection_from_the_page_gets_its_breakdown_from_explain():
    e = attention_page(heads=2)
    e.selection = [1, 2, 1]  # what a click on head 1's cell (1, 2) sends
    want = views.attention_view(n=6, d_k=4, seed=0, d=8, heads=2).select((1, 2), 1)
    assert e.details == want.details and "query i = 1" in e.details
    e.controls = {**e.controls, "n": 2}  # the page clamps; so does the view
    assert e.shown.selection == (1, 1)
    e.select(None)
    assert e.details == ""


def test_select_from_python_checks_the_cell():
    e = attention_page()
    e.select((2, 3), panel=1)
    assert e.selection == [2, 3, 1]
    with pytest.raises(ValueError, match="cell j must be from 0 to 5"):
        e.select((0, 6))
    with pytest.raises(ValueError, match="no panel in which to select"):
        EmbeddingExplorer(n=6, d=8, seed=0).select((0, 0))


def test_where_no_widgets_run_a_png_with_alt_text():
    e = ScalingExplorer(d_k=16, seed=0, n=8, d=8)
    data, _ = e._repr_mimebundle_()
    assert data["image/png"].startswith(b"\x89PNG") and data["text/plain"] == repr(e)
    assert data["text/html"].startswith('<img alt="Heatmaps: weights, unscaled')


def test_the_page_gets_its_sentences_in_the_learners_language():
    attnlib.set_language("zh")
    try:
        e = QKVExplorer(d_k=4, d_v=3, seed=0, n=6, d=8)
    finally:
        attnlib.set_language("en")
    assert e.language == "zh" and set(e.text) == set(TEXTS)
    assert e.text["key j"] == "键 j" and e.limits["seed"]["caption"] == "随机种子"
    assert all(e.text[k] != k for k in TEXTS if any(c.isalpha() for c in k.replace("d_k", "")))


def test_a_static_page_refuses_a_seed_it_does_not_hold():
    with pytest.raises(ValueError, match="seed 4 is not among seeds"):
        static_html(attention_page(seed=4), seeds=[0, 1])
    page = static_html(attention_page(seed=1), seeds=[0, 1, 2])
    assert '"high": 2' in page


def test_an_error_in_answering_the_page_is_shown_not_swallowed():
    e = attention_page()
    e.numbers = lambda *a, **k: 1 / 0  # the kernel cannot make a new seed's numbers
    e.controls = {**e.controls, "seed": 3}  # what the page sends
    assert isinstance(e.last_error, ZeroDivisionError) and "ZeroDivisionError" in e.error
    del e.numbers
    e.controls = {**e.controls, "seed": 4}
    assert e.last_error is None and e.error == "" and e.data["seed"] == 4


def test_every_sentence_the_page_module_shows_is_sent_translated():
    # t("...") in explorer.js looks a sentence up in `text`, which holds TEXTS: a key
    # the module uses and TEXTS lacks would be shown in English in every language
    import re

    from attnlib.explorers.page import FRONT

    source = (FRONT / "explorer.js").read_text(encoding="utf-8")
    calls = re.findall(r'\bt\(((?:"(?:[^"\\]|\\.)*"\s*\+?\s*)+)\)', source)
    used = {"".join(re.findall(r'"((?:[^"\\]|\\.)*)"', call)) for call in calls}
    assert len(used) > 30  # the pattern finds the calls
    assert sorted(used - set(TEXTS)) == []
    assert sorted(set(TEXTS) - used) == []  # and TEXTS holds nothing the page never shows


def test_the_page_is_sent_and_reads_every_field_of_panel():
    names = [f.name for f in dataclasses.fields(Panel)]
    sent = panel_for_page(Panel(matrix=np.eye(2)))
    assert list(sent) == [page_key(name) for name in names]  # every field, nothing else
    source = (FRONT / "explorer.js").read_text(encoding="utf-8")
    read = set(re.findall(r"\b(?:p|panel)\.(\w+)", source))  # what the drawing reads
    assert set(PAGE_IGNORES) <= set(names)
    for name in names:
        if name in PAGE_IGNORES:  # listed as ignored: then the page must not read it
            assert page_key(name) not in read, f"explorer.js reads {page_key(name)}: unlist it"
        else:
            assert page_key(name) in read, f"explorer.js never reads a panel's {page_key(name)}"


def test_controls_the_explorer_has_not_are_refused_where_they_arrive():
    e = ScalingExplorer(d_k=4, seed=0, n=8, d=8)
    e.controls = {**e.controls, "heads": 1}  # what a page that sends too much would send
    assert isinstance(e.last_error, ValueError)
    assert "the page sent controls ['d_k', 'heads', 'seed']" in e.error


def test_one_heads_numbers_until_more_heads_are_asked_for():
    e = attention_page()
    assert e.data["heads"] == 1  # one head shown: a seed's message carries one head
    e.controls = {**e.controls, "heads": 3}  # the page asks for more heads than it holds
    assert e.data["heads"] == 8 and e.last_error is None
    sent = e.data
    e.controls = {**e.controls, "heads": 6}  # then every heads move is the page's own
    assert e.data is sent
    e.controls = {**e.controls, "heads": 1, "seed": 2}
    assert e.data["heads"] == 1 and e.data["seed"] == 2
    assert np.array_equal(e.multi_head.heads[0].weights, e.attention.weights)
