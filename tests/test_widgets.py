"""The explorers: set a slider's .value, then check the figure against the maths.

One file, though long (about 500 lines of code): every explorer family is driven
the same way (set .value, compare with a direct call of the maths), and the helpers
that do it are shared by all of them."""

from __future__ import annotations

import gc
import random
import warnings
from typing import ClassVar

import ipywidgets
import matplotlib.pyplot as plt
import numpy as np
import pytest
from matplotlib.figure import Figure

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
from attnlib.pictures.cell_values import CellValues

PNG = b"\x89PNG\r\n\x1a\n"


def drawn(explorer) -> list[np.ndarray]:
    """The arrays held by the heatmaps of the explorer's figure, left to right."""
    return [np.asarray(ax.images[0].get_array()) for ax in explorer.figure.axes if ax.images]


def pixels(explorer) -> np.ndarray:
    return np.asarray(explorer.figure.canvas.buffer_rgba()).copy()


def assert_attention_matches(e, n, d_k, seed, d=8):
    expected = self_attention(*toy_example(n, d=d, d_k=d_k, seed=seed)[1:])
    assert e.example.tokens == toy_example(n, d=d, d_k=d_k, seed=seed).tokens
    for got, want in zip(e.attention, expected, strict=True):
        np.testing.assert_array_equal(got, want)
    scores, weights = drawn(e)
    np.testing.assert_array_equal(scores, expected.scores)
    np.testing.assert_array_equal(weights, expected.weights)


@pytest.fixture
def e():
    # a fresh explorer for each test: a test that moves a slider must not decide
    # where the next one starts (each test passes alone and in any order)
    return attnlib.explorer(n=6, d_k=4, seed=0)


def test_explorer_starts_with_the_maths_of_its_arguments(e):
    assert isinstance(e, AttentionExplorer)
    assert isinstance(e, ipywidgets.Box)
    assert (e.n.value, e.d_k.value, e.seed.value) == (6, 4, 0)
    assert (e.n.min, e.n.max, e.d_k.min, e.d_k.max, e.seed.min, e.seed.max) == (2, 32, 1, 64, 0, 99)
    assert_attention_matches(e, 6, 4, 0)
    assert isinstance(e.image, ipywidgets.Image)
    assert bytes(e.image.value).startswith(PNG)
    assert isinstance(e.figure, Figure)


def test_the_picture_reaches_the_browser_as_a_data_url_of_its_png(e):
    # what the kernel sends: the state when the view opens, and the update of a move
    import base64

    def sent(state):
        url = bytes(state["value"])
        assert url.startswith(b"data:image/png;base64,")
        return base64.b64decode(url.removeprefix(b"data:image/png;base64,"), validate=True)

    state = e.image.get_state()
    assert state["format"] == "url" and e.image.format == "png"
    assert sent(state) == bytes(e.image.value)
    e.seed.value = 5
    assert sent(e.image.get_state("value")) == bytes(e.image.value)
    assert set(e.image.get_state("value")) == {"value"}  # a move sends no format again
    # other Images keep ipywidgets' own state: the traits are the explorer picture's own
    plain = ipywidgets.Image(value=PNG, format="png").get_state()
    assert plain["format"] == "png" and bytes(plain["value"]) == PNG


# from the fixture's n = 6, d_k = 4, seed = 0: each slider up, and n and d_k down
@pytest.mark.parametrize(
    ("name", "value"), [("d_k", 9), ("seed", 17), ("n", 11), ("n", 3), ("d_k", 1)]
)
def test_setting_a_slider_redraws_the_same_figure_with_the_maths(e, name, value):
    figure, before = e.figure, bytes(e.image.value)
    getattr(e, name).value = value
    assert e.figure is figure
    assert bytes(e.image.value) != before
    assert bytes(e.image.value).startswith(PNG)
    assert_attention_matches(e, e.n.value, e.d_k.value, e.seed.value)
    assert e.last_error is None
    assert e.readout.value.count(attention_readout(e.attention)) == 1


def test_picture_shows_shapes_labels_and_limits():
    e = attnlib.explorer(n=5, d_k=3, seed=2)
    scores_ax, _, weights_ax, _ = e.figure.axes
    assert scores_ax.get_title() == "scores q·k / √d_k  (5 × 5)"
    assert weights_ax.get_title() == "weights α = softmax(scores)  (5 × 5)"
    assert (scores_ax.get_ylabel(), scores_ax.get_xlabel()) == ("query i", "key j")
    assert [t.get_text() for t in scores_ax.get_yticklabels()] == list(e.example.tokens)
    low, high = scores_ax.images[0].get_clim()
    assert low == -high and high >= np.abs(e.attention.scores).max()
    assert weights_ax.images[0].get_clim() == (0.0, 1.0)
    e.n.value = 12  # above 8: no cell values
    assert [a for ax in e.figure.axes for a in ax.artists if isinstance(a, CellValues)] == []
    e.n.value = 6  # (at 7 and 8 the cells of a picture 920 px wide are too small to read them)
    assert len([a for ax in e.figure.axes for a in ax.artists if isinstance(a, CellValues)]) == 2


def test_qkv_explorer_keeps_one_colour_scale_for_Q_K_V():
    e = attnlib.qkv_explorer(d_k=3, d_v=2, seed=0)
    for seed in (5, 6, 7):  # fast redraws: only the numbers change
        e.seed.value = seed
        images = [ax.images[0] for ax in e.figure.axes if ax.images]
        assert len(images) == 3
        limits = {image.get_clim() for image in images}
        assert len(limits) == 1, limits  # the same red means the same number in Q, K and V
        ((low, high),) = limits
        largest = max(np.abs(m).max() for m in (e.attention.Q, e.attention.K, e.attention.V))
        assert low == -high and high >= largest


@pytest.mark.parametrize(
    "factory",
    [
        lambda: attnlib.explorer(n=7, d_k=3),
        lambda: attnlib.explorer(n=32, d_k=3, size="large"),
        lambda: attnlib.embedding_explorer(n=6, d=5),
        lambda: attnlib.qkv_explorer(d_k=3, d_v=2),
        lambda: attnlib.scaling_explorer(d_k=8),
    ],
)
def test_fast_redraw_equals_a_full_draw_pixel_for_pixel(factory):
    e = factory()
    canvas = e.canvas
    full_before = canvas.full_redraws
    e.seed.value = 5
    e.seed.value = 6
    assert canvas.full_redraws == full_before and canvas.fast_redraws >= 2  # the fast path ran
    fast = pixels(e)
    e.figure.canvas.draw()
    np.testing.assert_array_equal(fast, pixels(e))


def test_a_changed_layout_equals_a_fresh_explorer_pixel_for_pixel():
    e = attnlib.explorer(n=9, d_k=2, seed=3)
    e.n.value = 4  # re-dresses the same axes for a new n
    e.figure.canvas.draw()
    fresh = attnlib.explorer(n=4, d_k=2, seed=3)
    fresh.figure.canvas.draw()
    np.testing.assert_array_equal(pixels(e), pixels(fresh))


def test_random_slider_changes_keep_one_figure_and_no_pyplot_figures():
    e = attnlib.explorer(n=4)
    figure, axes = e.figure, len(e.figure.axes)
    open_before = plt.get_fignums()
    figures_before = sum(isinstance(o, Figure) for o in gc.get_objects())
    rng = random.Random(0)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for _ in range(200):
            name = rng.choice(["n", "d_k", "seed", "seed", "d_k"])
            high = 8 if name == "n" else getattr(e, name).max
            getattr(e, name).value = rng.randint(getattr(e, name).min, high)
    assert e.last_error is None
    assert e.figure is figure and len(figure.axes) == axes
    assert plt.get_fignums() == open_before
    gc.collect()
    assert sum(isinstance(o, Figure) for o in gc.get_objects()) <= figures_before
    assert_attention_matches(e, e.n.value, e.d_k.value, e.seed.value)


def test_an_exception_in_a_redraw_is_shown_not_swallowed(monkeypatch):
    e = attnlib.explorer(n=5)
    picture = bytes(e.image.value)

    def broken(*args, **kwargs):
        raise RuntimeError("boom in the maths")

    monkeypatch.setattr(attnlib.views, "self_attention", broken)
    e.d_k.value = 7
    assert isinstance(e.last_error, RuntimeError)
    assert e.errors in e.children
    shown = "".join(o.get("text", "") for o in e.errors.outputs)
    assert "RuntimeError: boom in the maths" in shown and "Traceback" in shown
    assert bytes(e.image.value) == picture  # the old picture stays
    monkeypatch.undo()
    e.d_k.value = 6
    assert e.last_error is None and e.errors.outputs == ()
    assert_attention_matches(e, 5, 6, 0)


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


def test_an_explorer_class_needs_every_value_by_keyword():
    with pytest.raises(
        TypeError, match=r"AttentionExplorer takes n, d_k, seed, heads, mask, d by keyword"
    ):
        AttentionExplorer(n=6, d_k=4, seed=0)  # d missing
    e = AttentionExplorer(n=5, d_k=3, seed=1, d=8)
    assert e.fixed == {"d": 8} and repr(e) == "AttentionExplorer(n=5, d_k=3, seed=1)"


def test_every_explorer_keeps_d_the_same_way():
    # d is a slider where it moves (embedding) and a fixed value elsewhere, never both
    assert isinstance(attnlib.embedding_explorer().d, ipywidgets.IntSlider)
    for factory in (attnlib.explorer, attnlib.qkv_explorer, attnlib.scaling_explorer):
        e = factory(d=16)
        assert e.fixed["d"] == 16 and not hasattr(e, "d")
        assert e.example.X.shape[1] == 16


@pytest.mark.usefixtures("english_afterwards")
@pytest.mark.parametrize("language", ["en", "zh"])
def test_every_control_is_found_by_its_name_whatever_its_caption(language):
    # the browser tests look for class attnlib-control-NAME, never for a caption
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
        for name, control in e.controls.items():
            assert control._dom_classes == (f"attnlib-control-{name}",), (name, control)
            assert getattr(e, name) is control  # e.seed, e.mask ...: the names stay
            captions[name] = control.description
    symbols = {"n": "n", "d": "d", "d_k": "d_k", "d_v": "d_v"}
    words = {"seed": "随机种子", "heads": "头数", "mask": "掩码"}
    if language == "en":
        words = {name: name for name in words}
    assert captions == {**symbols, **words}


def test_caption_boxes_fit_chinese_and_keep_the_english_width():
    from attnlib.explorers.controller import caption_width

    assert caption_width(["n", "d_k", "seed", "heads"], large=False) == "40px"
    assert caption_width(["seed"], large=True) == "100px"
    assert caption_width(["头数"], large=False) == "40px"  # 26 px + 4 fit in 40
    assert caption_width(["n", "随机种子"], large=False) == "56px"  # 4 x 13 px + 4
    assert caption_width(["随机种子"], large=True) == "100px"  # 88 + 4 fit in 100
    assert caption_width(["训练步数 x"], large=True) == "119px"  # (4 + 2 × 0.6) × 22 + 4


def test_display_bundle_has_a_png_and_a_short_stable_text(e):
    bundle = e._repr_mimebundle_()
    assert (
        bundle["text/plain"]
        == repr(e)
        == (f"AttentionExplorer(n={e.n.value}, d_k={e.d_k.value}, seed={e.seed.value})")
    )
    assert bundle["image/png"] == bytes(e.image.value)
    assert "model_id" in bundle["application/vnd.jupyter.widget-view+json"]
    assert repr(attnlib.qkv_explorer(d_k=2, d_v=3, seed=1)) == "QKVExplorer(d_k=2, d_v=3, seed=1)"


def test_embedding_explorer_draws_X_with_token_labels():
    e = attnlib.embedding_explorer(n=6, d=8, seed=1)
    figure = e.figure
    e.d.value = 5
    e.n.value = 9
    assert e.figure is figure
    want = toy_example(9, d=5, seed=1)
    np.testing.assert_array_equal(e.example.X, want.X)
    (X,) = drawn(e)
    np.testing.assert_array_equal(X, want.X)
    assert [t.get_text() for t in figure.axes[0].get_yticklabels()] == list(want.tokens)
    assert embedding_readout(want) in e.readout.value


def test_qkv_explorer_draws_Q_K_V():
    e = attnlib.qkv_explorer(d_k=4, d_v=4, seed=0)
    before = bytes(e.image.value)
    e.d_v.value = 2
    e.seed.value = 3
    assert bytes(e.image.value) != before
    ex = toy_example(6, d=8, d_k=4, d_v=2, seed=3)
    want = self_attention(*ex[1:])
    for got, M in zip(drawn(e), (want.Q, want.K, want.V), strict=True):
        np.testing.assert_array_equal(got, M)
    assert qkv_readout(ex, want) in e.readout.value


def test_scaling_explorer_shows_both_weights_and_the_readouts():
    e = attnlib.scaling_explorer(d_k=4)
    e.d_k.value = 48
    ex = toy_example(8, d=8, d_k=48, seed=0)
    want = scaling_comparison(*ex[1:])
    unscaled, scaled = drawn(e)
    np.testing.assert_array_equal(unscaled, self_attention(*ex[1:], scaled=False).weights)
    np.testing.assert_array_equal(scaled, self_attention(*ex[1:]).weights)
    assert e.comparison.score_variance_unscaled == want.score_variance_unscaled
    assert scaling_readout(want) in e.readout.value
    assert want.max_weight_unscaled > want.max_weight_scaled  # what the learner should see


def test_large_size_is_bigger_in_fonts_and_pixels():
    normal = attnlib.explorer(n=32)
    large = attnlib.explorer(n=32, size="large")
    (w0, h0), (w1, h1) = (
        normal.figure.canvas.get_width_height(),
        large.figure.canvas.get_width_height(),
    )
    assert w1 > 1.5 * w0 and h1 > 1.5 * h0
    assert w1 <= 1920 and h1 <= 1080  # fits a 1080p projector
    titles = [ax.title.get_fontsize() for ax in (normal.figure.axes[0], large.figure.axes[0])]
    assert titles[1] >= 1.5 * titles[0]
    # a label on each of the 32 rows, at least 14 px high (the normal size labels every
    # second row at n = 32: its rows are too thin for a readable label each)
    labels = large.figure.axes[0].yaxis.get_ticklabels()
    assert len(labels) == 32
    assert labels[0].get_fontsize() * large.figure.dpi / 72 >= 14
    assert "attnlib-large" in large._dom_classes and "attnlib-large" not in normal._dom_classes
    assert "font-size: 22px" in large.children[0].value  # slider labels scaled by CSS


def test_figure_leaves_no_room_for_clipped_or_overlapping_labels():
    for size in ("normal", "large"):
        for n in (4, 32):
            e = attnlib.explorer(n=n, size=size)
            renderer = e.figure.canvas.get_renderer()
            boxes = [ax.get_tightbbox(renderer) for ax in e.figure.axes]
            page = e.figure.bbox
            for box in boxes:
                assert (
                    page.x0 <= box.x0
                    and box.x1 <= page.x1
                    and page.y0 <= box.y0
                    and box.y1 <= page.y1
                )
            for a in range(len(boxes)):
                for b in range(a + 1, len(boxes)):
                    assert not boxes[a].overlaps(boxes[b]), (size, n, a, b)


def test_executed_notebook_stores_a_png_and_stable_text(tmp_path):
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
    assert "image/png" in output["data"]
    assert "application/vnd.jupyter.widget-view+json" in output["data"]


@pytest.mark.parametrize(
    ("factory", "smallest"),
    [
        (lambda: attnlib.embedding_explorer(n=32, d=64), 6.0),
        (lambda: attnlib.qkv_explorer(d_k=64, d_v=1), 9.0),
        (lambda: attnlib.explorer(n=32), 6.0),
    ],
)
def test_token_labels_stay_readable_on_wide_or_long_matrices(factory, smallest):
    e = factory()
    for ax in e.figure.axes[::2]:  # the heatmaps; their colorbars in between
        assert ax.yaxis.get_ticklabels()[0].get_fontsize() >= smallest


def test_an_n_shown_before_comes_from_the_layout_cache_and_equals_a_full_draw():
    e = attnlib.explorer(n=9, d_k=2, seed=3)
    canvas = e.canvas
    e.n.value = 4
    e.seed.value = 7
    full = canvas.full_redraws
    e.n.value = 9  # shown before: its background comes from the cache
    assert canvas.full_redraws == full and canvas.layout_redraws >= 1
    assert_attention_matches(e, 9, 2, 7)
    cached = pixels(e)
    e.figure.canvas.draw()
    np.testing.assert_array_equal(cached, pixels(e))
    fresh = attnlib.explorer(n=9, d_k=2, seed=7)
    np.testing.assert_array_equal(cached, pixels(fresh))


def test_selection_is_outlined_in_both_heatmaps_kept_by_the_fast_path_and_clamped():
    e = attnlib.explorer(n=8, d_k=3, seed=0)
    plain = pixels(e)
    e.select((5, 2))
    assert e.selection == (5, 2)
    assert [h.selection for h in e.canvas.heatmaps] == [(5, 2), (5, 2)]
    selected = pixels(e)
    assert (selected != plain).any()
    e.seed.value = 4  # fast path: the outline stays, equal to a full draw
    assert [h.selection for h in e.canvas.heatmaps] == [(5, 2), (5, 2)]
    fast = pixels(e)
    e.figure.canvas.draw()
    np.testing.assert_array_equal(fast, pixels(e))
    e.n.value = 4  # clamped to the new size
    assert e.selection == (3, 2)
    e.select(None)
    e.n.value = 8
    e.seed.value = 0
    np.testing.assert_array_equal(pixels(e), plain)
    with pytest.raises(ValueError, match="cell j must be from 0 to 7, got 9"):
        e.select((1, 9))
    assert e.selection is None


def test_fast_redraw_stays_under_budget_at_n_32():
    # A loose guard (a loaded CI machine is slow); benchmarks/bench_explorer.py measures.
    import time

    e = attnlib.explorer(n=32)
    times = []
    for seed in range(1, 12):
        start = time.perf_counter()
        e.seed.value = seed
        times.append(time.perf_counter() - start)
    assert sorted(times)[len(times) // 2] < 0.25


# --- a new explorer is controls + a view function ---


def scaled_weights_view(*, n: int, temperature: int, seed: int) -> attnlib.views.View:
    """A made-up explorer's maths: the weights of scores divided by a temperature."""
    ex = toy_example(n, seed=seed)
    att = self_attention(*ex[1:])
    weights = attnlib.softmax(att.scores / temperature)
    panel = attnlib.layout.Panel(
        matrix=weights,
        title=f"T = {temperature}",
        kind="weights",
        row_labels=ex.tokens,
        col_labels=ex.tokens,
        selectable=True,
    )
    return attnlib.views.View([panel], f"T = {temperature}", {"weights": weights})


class TemperatureExplorer(attnlib.widgets.Explorer):
    CONTROLS = ("n", "temperature")
    FIXED = ("seed",)
    LIMITS: ClassVar = {**attnlib.widgets.LIMITS, "temperature": (1, 10, "softmax temperature")}
    view = staticmethod(scaled_weights_view)

    def describe_selection(self) -> str:
        if self.selection is None:
            return ""
        i, j = self.selection
        return f"<br>α_{i}{j} = {self.weights[i, j]:.3f}"


def test_a_new_explorer_needs_only_controls_and_a_view_function():
    e = TemperatureExplorer(n=5, temperature=2, seed=1)
    figure = e.figure
    assert isinstance(e.temperature, ipywidgets.IntSlider) and e.temperature.max == 10
    e.temperature.value = 7
    want = scaled_weights_view(n=5, temperature=7, seed=1)
    assert e.figure is figure
    (drawn_weights,) = drawn(e)
    np.testing.assert_array_equal(drawn_weights, want.panels[0].matrix)
    np.testing.assert_array_equal(e.weights, want.data["weights"])
    assert e.readout.value.count("T = 7") == 1
    e.select((3, 1))
    assert f"α_31 = {want.data['weights'][3, 1]:.3f}" in e.readout.value
    assert repr(e) == "TemperatureExplorer(n=5, temperature=7)"
    with pytest.raises(ValueError, match="temperature must be an integer from 1 to 10, got 11"):
        TemperatureExplorer(n=5, temperature=11, seed=1)


def test_a_view_replaced_on_one_explorer_fails_only_there():
    # what tests/browser does to show a failing redraw in the page
    failing, fine = attnlib.explorer(n=4), attnlib.explorer(n=4)
    failing.view = lambda **values: 1 / 0
    failing.n.value = 5
    fine.n.value = 5
    assert isinstance(failing.last_error, ZeroDivisionError) and fine.last_error is None
    assert failing.n.value == 5 and drawn(failing)[0].shape == (4, 4)  # the old picture stays


# --- the mask choice and the heads slider ---


def drawn_masked(explorer) -> list[np.ma.MaskedArray]:
    """The heatmaps' arrays with their masks (a blocked cell is masked)."""
    return [np.ma.asarray(ax.images[0].get_array()) for ax in explorer.figure.axes if ax.images]


def expected_multi_head(n, d_k, seed, heads, mask, d=8):
    ex = attnlib.toy_multi_head(n, d=d, d_k=d_k, heads=heads, seed=seed)
    blocked = attnlib.causal_mask(n) if mask == "causal" else None
    return attnlib.multi_head_attention(*ex[1:6], heads=heads, mask=blocked)


def test_mask_and_heads_are_a_toggle_and_a_slider_that_start_as_before():
    e = attnlib.explorer(n=6, d_k=4, seed=0)
    assert isinstance(e.mask, ipywidgets.ToggleButtons) and [v for _, v in e.mask.options] == list(
        attnlib.views.MASKS
    )
    assert isinstance(e.heads, ipywidgets.IntSlider) and (e.heads.min, e.heads.max) == (1, 8)
    assert (e.mask.value, e.heads.value) == ("none", 1)
    assert repr(e) == "AttentionExplorer(n=6, d_k=4, seed=0)"
    # heads = 1 without a mask: the chapter's two-panel picture, to the pixel
    fresh = attnlib.plotting.plot_attention(e.attention, e.example.tokens)
    fresh.canvas.draw()
    np.testing.assert_array_equal(pixels(e), np.asarray(fresh.canvas.buffer_rgba()))


def test_causal_mask_toggle_redraws_with_the_masked_maths():
    e = attnlib.explorer(n=7, d_k=3, seed=2)
    figure = e.figure
    e.mask.value = "causal"
    assert e.figure is figure and e.last_error is None
    mask = attnlib.causal_mask(7)
    want = self_attention(*toy_example(7, d_k=3, seed=2)[1:], mask=mask)
    scores, weights = drawn_masked(e)
    np.testing.assert_array_equal(np.ma.getmaskarray(scores), ~mask)
    np.testing.assert_array_equal(np.ma.getmaskarray(weights), ~mask)
    np.testing.assert_array_equal(scores[mask], want.scores[mask])
    np.testing.assert_array_equal(weights.filled(0.0), want.weights)
    np.testing.assert_array_equal(e.attention.weights, want.weights)
    assert "masked −∞" in e.figure.axes[0].get_title()
    assert "21 of 49 scores blocked" in e.readout.value
    e.seed.value = 3  # fast path with the mask on: equal to a full draw
    fast = pixels(e)
    e.figure.canvas.draw()
    np.testing.assert_array_equal(fast, pixels(e))
    e.mask.value = "none"
    assert_attention_matches(e, 7, 3, 3)


@pytest.mark.parametrize(("heads", "mask"), [(2, "none"), (4, "causal"), (8, "none")])
def test_heads_slider_draws_each_heads_weights(heads, mask):
    e = attnlib.explorer(n=6, d_k=4, seed=1)
    figure = e.figure
    e.mask.value = mask
    e.heads.value = heads
    assert e.figure is figure and e.last_error is None
    want = expected_multi_head(6, 4, 1, heads, mask)
    got = drawn_masked(e)
    assert len(got) == heads
    for shown, att in zip(got, want.heads, strict=True):
        blocked = np.zeros_like(att.weights, bool) if att.mask is None else ~att.mask
        np.testing.assert_array_equal(np.ma.getmaskarray(shown), blocked)
        np.testing.assert_array_equal(shown.filled(0.0), att.weights)
    for mine, theirs in zip(e.multi_head.heads, want.heads, strict=True):
        np.testing.assert_array_equal(mine.weights, theirs.weights)
    np.testing.assert_array_equal(e.multi_head.output, want.output)
    # head 0 is the one-head example
    np.testing.assert_allclose(want.heads[0].weights, e.attention.weights, rtol=0, atol=1e-12)
    assert f"heads = {heads}" in e.readout.value
    e.d_k.value = 2  # the fast path with several heads
    again = expected_multi_head(6, 2, 1, heads, mask)
    for shown, att in zip(drawn_masked(e), again.heads, strict=True):
        np.testing.assert_array_equal(shown.filled(0.0), att.weights)
    fast = pixels(e)
    e.figure.canvas.draw()
    np.testing.assert_array_equal(fast, pixels(e))
    assert "heads=" in repr(e)


def test_back_to_one_head_is_the_two_panel_picture_again():
    e = attnlib.explorer(n=5, d_k=3, seed=0)
    plain = pixels(e)
    e.heads.value = 3
    assert len(drawn(e)) == 3
    e.heads.value = 1
    assert_attention_matches(e, 5, 3, 0)
    np.testing.assert_array_equal(pixels(e), plain)


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
