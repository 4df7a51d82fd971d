"""The explorers from Python: set a control's .value, then check what the explorer shows
against a direct call of the maths. (What the page draws is held to the same numbers in
Chromium: tests/browser/test_page_explorer.py.)"""

from __future__ import annotations

import ipywidgets
import numpy as np
import pytest

import attnlib
from attnlib import self_attention, toy_example
from attnlib.explorers.attention import AttentionExplorer
from attnlib.explorers.readouts import (
    attention_readout,
    embedding_readout,
    qkv_readout,
    scaling_readout,
)
from attnlib.maths.stats import scaling_comparison

PNG = b"\x89PNG\r\n\x1a\n"


def assert_attention_matches(e, n, d_k, seed, d=8):
    expected = self_attention(*toy_example(n, d=d, d_k=d_k, seed=seed)[1:])
    assert e.example.tokens == toy_example(n, d=d, d_k=d_k, seed=seed).tokens
    for got, want in zip(e.attention, expected, strict=True):
        np.testing.assert_array_equal(got, want)
    scores, weights = (p.matrix for p in e.shown.panels)
    np.testing.assert_array_equal(scores, expected.scores)
    np.testing.assert_array_equal(weights, expected.weights)


@pytest.fixture
def e():
    # a fresh explorer for each test: a test that moves a control must not decide
    # where the next one starts (each test passes alone and in any order)
    return attnlib.explorer(n=6, d_k=4, seed=0)


def test_explorer_starts_with_the_maths_of_its_arguments(e):
    assert isinstance(e, AttentionExplorer) and isinstance(e, ipywidgets.DOMWidget)
    assert (e.n.value, e.d_k.value, e.seed.value) == (6, 4, 0)
    assert (e.n.min, e.n.max, e.d_k.min, e.d_k.max, e.seed.min, e.seed.max) == (2, 32, 1, 64, 0, 99)
    assert_attention_matches(e, 6, 4, 0)


@pytest.mark.parametrize(
    ("name", "value"), [("n", 9), ("n", 2), ("d_k", 1), ("d_k", 64), ("seed", 7)]
)
def test_setting_a_control_shows_the_maths_of_its_new_value(e, name, value):
    getattr(e, name).value = value
    values = {"n": 6, "d_k": 4, "seed": 0, name: value}
    assert_attention_matches(e, values["n"], values["d_k"], values["seed"])
    assert e.controls[name] == value  # what the page draws from


@pytest.mark.parametrize(
    ("kwargs", "error", "words"),
    [
        ({"n": 1}, ValueError, "n must be an integer from 2 to 32"),
        ({"n": 33}, ValueError, "n must be an integer from 2 to 32"),
        ({"d_k": 0}, ValueError, "d_k must be an integer from 1 to 64"),
        ({"seed": "1"}, TypeError, "seed must be an integer"),
        ({"seed": 100}, ValueError, "seed must be an integer from 0 to 99"),
        ({"d": 2.5}, TypeError, "d must be an integer"),
        ({"size": "huge"}, ValueError, "size must be one of ['large', 'normal']"),
    ],
)
def test_bad_arguments_name_the_argument(kwargs, error, words):
    with pytest.raises(error) as info:
        attnlib.explorer(**kwargs)
    assert words in str(info.value)


@pytest.mark.parametrize(
    ("factory", "kwargs", "error", "message"),
    [
        (
            attnlib.embedding_explorer,
            {"n": 0},
            ValueError,
            "n must be an integer from 2 to 32, got 0",
        ),
        (
            attnlib.embedding_explorer,
            {"d": 65},
            ValueError,
            "d must be an integer from 1 to 64, got 65",
        ),
        (
            attnlib.qkv_explorer,
            {"d_v": 0},
            ValueError,
            "d_v must be an integer from 1 to 64, got 0",
        ),
        (attnlib.qkv_explorer, {"n": 40}, ValueError, "n must be an integer from 2 to 32, got 40"),
        (
            attnlib.qkv_explorer,
            {"d": 600},
            ValueError,
            "d must be an integer from 1 to 512, got 600",
        ),
        (
            attnlib.scaling_explorer,
            {"d_k": "4"},
            TypeError,
            "d_k must be an integer, got '4' (str)",
        ),
        (
            attnlib.scaling_explorer,
            {"size": 2},
            ValueError,
            "size must be one of ['large', 'normal'], got 2",
        ),
    ],
)
def test_section_explorers_reject_bad_arguments(factory, kwargs, error, message):
    with pytest.raises(error) as info:
        factory(**kwargs)
    assert str(info.value) == message


def test_a_control_moved_from_python_is_checked_like_an_argument(e):
    with pytest.raises(ValueError, match="d_k must be an integer from 1 to 64, got 65"):
        e.d_k.value = 65
    with pytest.raises(TypeError, match="AttentionExplorer has no control 'd'"):
        e.set_controls(d=4)
    assert e.controls["d_k"] == 4  # a refused value changes nothing


def test_an_explorer_class_needs_every_value_by_keyword():
    with pytest.raises(
        TypeError, match=r"AttentionExplorer takes n, d_k, seed, heads, mask, d by keyword"
    ):
        AttentionExplorer(n=6, d_k=4, seed=0)  # d missing
    e = AttentionExplorer(n=5, d_k=3, seed=1, heads=1, mask="none", d=8)
    assert e.fixed == {"d": 8} and repr(e) == "AttentionExplorer(n=5, d_k=3, seed=1)"


def test_every_explorer_keeps_d_the_same_way():
    # d is a control where it moves (embedding) and a fixed value elsewhere, never both
    assert (
        attnlib.embedding_explorer().d.value == 8 and "d" not in attnlib.embedding_explorer().fixed
    )
    for factory in (attnlib.explorer, attnlib.qkv_explorer, attnlib.scaling_explorer):
        e = factory(d=16)
        assert e.fixed["d"] == 16 and "d" not in e.controls
        assert e.example.X.shape[1] == 16


@pytest.mark.usefixtures("english_afterwards")
@pytest.mark.parametrize("language", ["en", "zh"])
def test_every_control_has_its_name_and_a_caption_in_the_learners_language(language):
    # the page gives each control the class attnlib-control-NAME, whatever its caption
    attnlib.set_language(language)
    factories = (
        attnlib.explorer,
        attnlib.embedding_explorer,
        attnlib.qkv_explorer,
        attnlib.scaling_explorer,
    )
    captions = {}
    for factory in factories:
        e = factory()
        assert list(e.limits) == list(e.CONTROLS)
        for name, spec in e.limits.items():
            assert getattr(e, name).value == e.controls[name]  # e.seed, e.mask: the names stay
            assert spec["tooltip"]
            captions[name] = spec["caption"]
    symbols = {"n": "n", "d": "d", "d_k": "d_k", "d_v": "d_v"}
    words = {"seed": "随机种子", "heads": "头数", "mask": "掩码"}
    if language == "en":
        words = {name: name for name in words}
    assert captions == {**symbols, **words}


def test_display_bundle_has_a_png_and_a_short_stable_text(e):
    bundle, _ = e._repr_mimebundle_()
    assert bundle["text/plain"] == repr(e) == "AttentionExplorer(n=6, d_k=4, seed=0)"
    assert bundle["image/png"].startswith(PNG)
    assert bundle["text/html"].startswith(
        '<img alt="Heatmaps: scores q·k / √d_k  (6 × 6); weights α = softmax(scores)  (6 × 6)."'
    )
    assert "model_id" in bundle["application/vnd.jupyter.widget-view+json"]
    assert repr(attnlib.qkv_explorer(d_k=2, d_v=3, seed=1)) == "QKVExplorer(d_k=2, d_v=3, seed=1)"


def test_embedding_explorer_shows_X_with_token_labels():
    e = attnlib.embedding_explorer(n=6, d=8, seed=1)
    (panel,) = e.shown.panels
    np.testing.assert_array_equal(panel.matrix, toy_example(6, d=8, seed=1).X)
    assert panel.row_labels == toy_example(6).tokens
    e.n.value, e.d.value = 9, 3
    np.testing.assert_array_equal(e.shown.panels[0].matrix, toy_example(9, d=3, seed=1).X)
    assert e.shown.readout == embedding_readout(toy_example(9, d=3, seed=1))


def test_qkv_explorer_shows_Q_K_V():
    e = attnlib.qkv_explorer(d_k=3, d_v=2, seed=0)
    ex = toy_example(6, d=8, d_k=3, d_v=2, seed=0)
    att = self_attention(*ex[1:])
    for panel, M in zip(e.shown.panels, (att.Q, att.K, att.V), strict=True):
        np.testing.assert_array_equal(panel.matrix, M)
    assert e.shown.readout == qkv_readout(ex, att)


def test_scaling_explorer_shows_both_weights_and_the_readouts():
    e = attnlib.scaling_explorer(d_k=16, seed=0)
    c = scaling_comparison(*toy_example(8, d_k=16)[1:])
    unscaled, scaled = e.shown.panels
    np.testing.assert_array_equal(unscaled.matrix, c.unscaled.weights)
    np.testing.assert_array_equal(scaled.matrix, c.scaled.weights)
    assert e.shown.readout == scaling_readout(c)


def test_executed_notebook_stores_a_png_with_alt_text_and_stable_text(tmp_path):
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell("import attnlib\nattnlib.explorer()")]
    nbclient.NotebookClient(
        nb, timeout=120, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}
    ).execute()
    (output,) = nb.cells[0].outputs
    assert output["output_type"] == "execute_result"
    assert output["data"]["text/plain"] == "AttentionExplorer(n=6, d_k=4, seed=0)"
    assert output["data"]["image/png"]
    assert output["data"]["text/html"].startswith('<img alt="Heatmaps: scores')
    assert "application/vnd.jupyter.widget-view+json" in output["data"]


def expected_multi_head(n, d_k, seed, heads, mask):
    ex = attnlib.toy_multi_head(n, d_k=d_k, heads=heads, seed=seed)
    blocked = attnlib.causal_mask(n) if mask == "causal" else None
    return attnlib.multi_head_attention(*ex[1:6], heads=heads, mask=blocked)


def test_mask_and_heads_are_a_menu_and_a_slider_that_start_as_before():
    e = attnlib.explorer(n=6, d_k=4, seed=0)
    assert [v for v, _ in e.limits["mask"]["choices"]] == list(attnlib.views.MASKS)
    assert (e.heads.min, e.heads.max) == (1, 8)
    assert (e.mask.value, e.heads.value) == ("none", 1)
    assert repr(e) == "AttentionExplorer(n=6, d_k=4, seed=0)"
    assert e.shown.readout == attention_readout(e.attention)


def test_causal_mask_shows_the_masked_maths():
    e = attnlib.explorer(n=7, d_k=3, seed=2)
    e.mask.value = "causal"
    mask = attnlib.causal_mask(7)
    want = self_attention(*toy_example(7, d_k=3, seed=2)[1:], mask=mask)
    scores, weights = e.shown.panels
    np.testing.assert_array_equal(scores.mask, mask)
    np.testing.assert_array_equal(scores.matrix[mask], want.scores[mask])
    np.testing.assert_array_equal(weights.matrix, want.weights)
    assert "masked −∞" in scores.title and "21 of 49 scores blocked" in e.shown.readout
    e.mask.value = "none"
    assert_attention_matches(e, 7, 3, 2)


@pytest.mark.parametrize(("heads", "mask"), [(2, "none"), (4, "causal"), (8, "none")])
def test_heads_show_each_heads_weights(heads, mask):
    e = attnlib.explorer(n=6, d_k=4, seed=1)
    e.mask.value = mask
    e.heads.value = heads
    want = expected_multi_head(6, 4, 1, heads, mask)
    assert len(e.shown.panels) == heads
    for panel, att in zip(e.shown.panels, want.heads, strict=True):
        np.testing.assert_array_equal(panel.matrix, att.weights)
    np.testing.assert_array_equal(e.multi_head.output, want.output)
    np.testing.assert_allclose(want.heads[0].weights, e.attention.weights, rtol=0, atol=1e-12)
    assert f"heads = {heads}" in e.shown.readout and "heads=" in repr(e)


def test_back_to_one_head_is_the_two_panel_picture_again():
    e = attnlib.explorer(n=5, d_k=3, seed=0)
    e.heads.value = 3
    assert len(e.shown.panels) == 3
    e.heads.value = 1
    assert_attention_matches(e, 5, 3, 0)


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"heads": 0}, ValueError, "heads must be an integer from 1 to 8, got 0"),
        ({"heads": 9}, ValueError, "heads must be an integer from 1 to 8, got 9"),
        ({"mask": "padding"}, ValueError, "mask must be one of ['none', 'causal'], got 'padding'"),
        ({"mask": True}, ValueError, "mask must be one of ['none', 'causal'], got True"),
    ],
)
def test_bad_heads_or_mask_name_the_argument(kwargs, error, message):
    with pytest.raises(error) as info:
        attnlib.explorer(**kwargs)
    assert str(info.value) == message
