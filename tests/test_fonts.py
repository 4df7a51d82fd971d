"""attnlib.pictures.fonts: Chinese figures take each character from the shipped subset."""

import os
import re
import sys
from pathlib import Path

import matplotlib
import numpy as np
import pytest
from fontTools.ttLib import TTFont
from matplotlib import font_manager
from matplotlib.ft2font import FT2Font
from matplotlib.text import Text

import attnlib
from attnlib import (
    causal_mask,
    charts,
    fonts,
    i18n,
    multi_head_attention,
    plotting,
    self_attention,
    toy_example,
    toy_multi_head,
)

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))
import make_cjk_font

CJK = re.compile(r"[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]")
RERUN = ".venv/bin/python tools/make_cjk_font.py"
#: the languages whose figures need a font of their own, with it
WITH_FONT = [language for language in i18n.EDITIONS.values() if language.font is not None]
ZH_FONT = i18n.edition("zh").font


pytestmark = pytest.mark.usefixtures("english_afterwards")  # tests/conftest.py


def every_figure():
    """One of each figure that attnlib draws, in the current language."""
    ex = toy_example(n=6, d_k=4, d_v=3, seed=0)
    masked = self_attention(*ex[1:], mask=causal_mask(6))
    raw, scaled = self_attention(*ex[1:], scaled=False), self_attention(*ex[1:])
    mhx = toy_multi_head(n=6, heads=4)
    mh = multi_head_attention(mhx.X, mhx.W_Q, mhx.W_K, mhx.W_V, mhx.W_O, heads=mhx.heads)
    ns, d_ks, pair = [64, 128, 256], [1, 4, 16], ([1.0, 4.0, 16.0], [1.0, 1.0, 1.0])
    return {
        "attention": plotting.plot_attention(masked, ex.tokens, size="large"),
        "qkv": plotting.plot_qkv(scaled, ex.tokens),
        "embedding": plotting.plot_embedding(ex.X, ex.tokens),
        "scaling": plotting.plot_scaling(raw, scaled, ex.tokens),
        "heads": plotting.plot_heads(mh, mhx.tokens),
        "cost": charts.plot_cost(ns, [8 * n**2 for n in ns], [1e-9 * n**2 for n in ns]),
        "mix": charts.plot_mix(scaled, ex.tokens, 1),
        "variance": charts.plot_score_variance(d_ks, *pair),
        "saturation": charts.plot_saturation(
            d_ks, max_weight=pair, entropy=pair, jacobian_norm=pair, n=6, draws=10
        ),
        "losses": charts.plot_losses({"scaled": [2.3, 1.0, 0.1]}),
    }


def drawn_texts(fig):
    return [t for t in fig.findobj(Text) if t.get_visible() and t.get_text()]


@pytest.mark.parametrize("language", WITH_FONT, ids=lambda language: language.code)
def test_the_subset_holds_every_character_figures_can_draw_that_dejavu_lacks(language):
    path = fonts.font_file(language.font)
    cmap = TTFont(path)["cmap"].getBestCmap()
    drawn = {c for c in make_cjk_font.characters(language.code) if not c.isspace()}
    drawn -= fonts.first_font_characters()  # DejaVu Sans, first in the list, draws these
    missing = sorted(c for c in drawn if ord(c) not in cmap)
    assert not missing, (
        f"{path.name} lacks {''.join(missing)!r}, drawn in figures: "
        f"regenerate it with `{RERUN} {language.code}` and commit attnlib/pictures/font_files/"
    )


def test_the_font_text_is_what_figures_draw_not_every_message():
    sentences = make_cjk_font.figure_sentences()
    assert {"key j", "query i"} <= sentences  # axis labels of every heatmap
    assert not any("your softmax" in s for s in sentences)  # a check's message: printed text
    chinese = make_cjk_font.characters("zh")
    assert "键" in chinese  # 键 j, an axis label


@pytest.mark.parametrize("language", WITH_FONT, ids=lambda language: language.code)
def test_the_subset_is_small_and_carries_its_licence(language):
    path = fonts.font_file(language.font)
    assert path.stat().st_size < 3_000_000  # 1.6 MB for GB2312; the full font is 16 MB
    licence = fonts.licence_file(language.font).read_text(encoding="utf-8")
    assert "SIL OPEN FONT LICENSE Version 1.1" in licence
    assert TTFont(path)["name"].getDebugName(1) == language.font.family


def test_chinese_figures_draw_every_character_from_a_font_that_has_it(recwarn):
    attnlib.set_language("zh")
    before = dict(matplotlib.rcParams)
    figures = every_figure()
    assert dict(matplotlib.rcParams) == before, "a Chinese figure changed the global rcParams"
    ours = str(fonts.font_file(ZH_FONT))
    for name, fig in figures.items():
        fig.canvas.draw()
        texts = drawn_texts(fig)
        chinese = [t for t in texts if CJK.search(t.get_text())]
        assert chinese, f"{name}: no Chinese text drawn"
        for t in chinese:
            paths = [
                str(p)
                for p in font_manager.fontManager._find_fonts_by_props(t.get_fontproperties())
            ]
            assert ours in paths, (name, t.get_text(), paths)
    missing = [str(w.message) for w in recwarn if "missing from font" in str(w.message)]
    assert not missing, missing


def test_chinese_titles_hold_chinese_and_the_same_numbers_as_english():
    english = {name: repr(fig) for name, fig in every_figure().items()}
    attnlib.set_language("zh")
    chinese = {name: repr(fig) for name, fig in every_figure().items()}
    for name in english:
        assert CJK.search(chinese[name]) or name in {"embedding", "qkv"}, chinese[name]
        assert re.findall(r"\d+", chinese[name]) == re.findall(r"\d+", english[name]), name


def test_english_figures_use_matplotlib_defaults(recwarn):
    assert fonts.figure_families() is None
    for name, fig in every_figure().items():
        texts = drawn_texts(fig)
        assert not any(CJK.search(t.get_text()) for t in texts), name
        families = {tuple(t.get_fontproperties().get_family()) for t in texts}
        assert families == {tuple(matplotlib.rcParams["font.family"])}, (name, families)
    assert repr(plotting.plot_attention(self_attention(*toy_example(n=3)[1:]), "abc")) == (
        "<attnlib figure: scores q·k / √d_k  (3 × 3); weights α = softmax(scores)  (3 × 3)>"
    )


def test_a_wheel_ships_the_fonts_and_their_licences():
    try:
        import tomllib
    except ModuleNotFoundError:  # Python 3.10
        import tomli as tomllib

    root = Path(attnlib.__file__).parent
    setup = tomllib.loads((root.parent / "pyproject.toml").read_text(encoding="utf-8"))
    folder = fonts.FONT_DIR
    package = f"attnlib.pictures.{folder.name}"
    assert package in setup["tool"]["setuptools"]["packages"]  # else a wheel leaves it out
    patterns = setup["tool"]["setuptools"]["package-data"][package]
    shipped = {p for pattern in patterns for p in folder.glob(pattern)}
    for language in WITH_FONT:
        wanted = {fonts.font_file(language.font), fonts.licence_file(language.font)}
        assert wanted <= shipped, (language.code, patterns)


# --- a learner's own Chinese text: any common character, in attnlib's figures and plain ones


def gb2312_hanzi() -> list[str]:
    """The 6763 hanzi of GB2312, read from Python's codec by their rows (16 to 87)."""
    found = []
    for row in range(0xB0, 0xF8):
        for cell in range(0xA1, 0xFF):
            try:
                found.append(bytes([row, cell]).decode("gb2312"))
            except UnicodeDecodeError:
                continue  # the five empty cells at the end of row 55
    return found


@pytest.fixture
def subset_only(monkeypatch):
    """Figures drawn as on a machine with no CJK font of its own: the shipped subset alone."""
    monkeypatch.setattr(fonts, "system_family", lambda font: None)
    attnlib.set_language("zh")
    yield
    attnlib.set_language("en")


def missing_glyphs(warnings) -> list[str]:
    return [str(w.message) for w in warnings if "missing from font" in str(w.message)]


def drawn_by(text: Text) -> dict[str, str]:
    """Which font draws each character of `text`: the first of its fonts whose glyph is not
    .notdef (glyph 0, the empty box), as matplotlib's fallback picks it; '' for none."""
    chain = font_manager.fontManager._find_fonts_by_props(text.get_fontproperties())
    faces = [(Path(path).name, FT2Font(path)) for path in chain]
    return {
        c: next((name for name, face in faces if face.get_char_index(ord(c)) != 0), "")
        for c in text.get_text()
        if not c.isspace()
    }


def test_the_subset_holds_every_gb2312_hanzi():
    cmap = TTFont(fonts.font_file(ZH_FONT))["cmap"].getBestCmap()
    hanzi = gb2312_hanzi()
    assert len(hanzi) == 6763
    missing = "".join(c for c in hanzi if ord(c) not in cmap)
    assert not missing, f"not in the subset: {missing[:40]}... rerun `{RERUN} zh`"


CHINESE_TOKENS = ["我", "爱", "北京", "天安门", "广场", "鸽子"]


def test_a_learner_s_chinese_tokens_draw_from_the_shipped_font(subset_only, recwarn):
    ex = toy_example(n=6, seed=0)
    fig = plotting.plot_attention(self_attention(*ex[1:]), CHINESE_TOKENS)
    fig.canvas.draw()
    assert not missing_glyphs(recwarn), missing_glyphs(recwarn)
    ours = fonts.font_file(ZH_FONT).name
    labels = [t for ax in fig.axes for t in ax.get_yticklabels() if t.get_text()]
    assert [t.get_text() for t in labels[:6]] == CHINESE_TOKENS
    for label in labels[:6]:
        assert set(drawn_by(label).values()) == {ours}, drawn_by(label)


def test_the_chinese_toy_sentence_draws_from_the_shipped_font(subset_only, recwarn):
    # Notebook 02's table of the 45 tokens and notebook 00's first picture, in Chinese:
    # the tokens, the punctuation tokens (，。：……) too, from the subset, no empty box.
    from attnlib import data
    from attnlib.pictures.panel import Panel

    cmap = TTFont(fonts.font_file(ZH_FONT))["cmap"].getBestCmap()
    assert not [
        c for c in "".join(data.SENTENCE_ZH + data.hand_example().tokens) if ord(c) not in cmap
    ]
    E = data.embedding_table(d=8, seed=0)
    ex = toy_example()
    figures = [
        plotting.plot_panels([Panel(matrix=E, title="E", row_labels=data.VOCABULARY)]),
        plotting.plot_attention(self_attention(*ex[1:]), ex.tokens),
    ]
    ours = fonts.font_file(ZH_FONT).name
    for fig in figures:
        fig.canvas.draw()
        labels = [t for t in fig.axes[0].get_yticklabels() if t.get_text()]
        assert len(labels) >= 6 and {t.get_text() for t in labels} <= set(data.VOCABULARY)
        for label in labels:
            assert set(drawn_by(label).values()) == {ours}, drawn_by(label)
    assert [t.get_text() for t in figures[1].axes[0].get_yticklabels()] == list(ex.tokens)
    assert not missing_glyphs(recwarn), missing_glyphs(recwarn)


def test_plain_matplotlib_text_in_chinese_draws_after_set_language(subset_only, recwarn):
    import matplotlib.pyplot as plt

    rng = np.random.default_rng(34)
    sample = "".join(rng.choice(gb2312_hanzi(), size=300, replace=False))
    fig, ax = plt.subplots()
    try:
        title = ax.set_title("注意力：北京天安门广场鸽子")
        label = ax.set_xlabel(sample[:150] + "\n" + sample[150:])
        ax.plot([0, 1], [0, 1])
        fig.canvas.draw()
        assert not missing_glyphs(recwarn), missing_glyphs(recwarn)[:3]
        ours = fonts.font_file(ZH_FONT).name
        assert set(drawn_by(title).values()) >= {ours}
        assert "" not in drawn_by(title).values() and "" not in drawn_by(label).values()
        assert drawn_by(title)["注"] == ours and drawn_by(title)["："] == ours
    finally:
        plt.close(fig)


def test_english_leaves_matplotlib_s_fonts_as_they_were(recwarn):
    import matplotlib.pyplot as plt

    before = list(matplotlib.rcParams["font.family"])
    attnlib.set_language("zh")
    assert matplotlib.rcParams["font.family"][: len(before)] == before  # Latin text as before
    assert ZH_FONT.family in matplotlib.rcParams["font.family"]
    attnlib.set_language("zh")  # twice: added once
    assert matplotlib.rcParams["font.family"].count(ZH_FONT.family) == 1
    attnlib.set_language("en")
    assert list(matplotlib.rcParams["font.family"]) == before
    fig, ax = plt.subplots()
    try:
        ax.set_title("注意力")  # in English matplotlib has no Chinese font: what the fallback fixes
        fig.canvas.draw()
    finally:
        plt.close(fig)
    assert missing_glyphs(recwarn), "the default fonts drew Chinese: this test shows nothing"


SYSTEM_CJK = i18n.edition("zh").font.system_families


@pytest.mark.skipif(
    fonts.system_family(ZH_FONT) is None and os.environ.get("CI") != "true",
    reason="no system CJK font: apt-get install -y fonts-noto-cjk",
)
def test_a_character_beyond_the_subset_falls_back_to_a_system_font(recwarn, monkeypatch):
    # 龍 (traditional) is in no GB2312 row: the machine's CJK font draws it, after the subset
    assert ord("龍") not in TTFont(fonts.font_file(ZH_FONT))["cmap"].getBestCmap()
    system = fonts.system_family(ZH_FONT)
    assert system in SYSTEM_CJK
    attnlib.set_language("zh")
    assert matplotlib.rcParams["font.family"][-2:] == [ZH_FONT.family, system]
    ex = toy_example(n=2, seed=0)
    fig = plotting.plot_attention(self_attention(*ex[1:]), ["龍", "北"])
    fig.canvas.draw()
    assert not missing_glyphs(recwarn), missing_glyphs(recwarn)
    label = next(t for t in fig.axes[0].get_yticklabels() if t.get_text() == "龍")
    assert drawn_by(label)["龍"] != fonts.font_file(ZH_FONT).name
    # without it, a box: so the system font is what drew it
    monkeypatch.setattr(fonts, "system_family", lambda font: None)
    plotting.plot_attention(self_attention(*ex[1:]), ["龍", "北"]).canvas.draw()
    assert missing_glyphs(recwarn)
