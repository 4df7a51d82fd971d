"""The picture side in Chinese: readouts, explain, the explorers' controls and show_error.

Each Chinese text holds Chinese and the same numbers as its English twin: the
translation changes the words, never what is computed.
"""

import html
import re

import pytest

import attnlib
from attnlib import (
    causal_mask,
    explain,
    lookup,
    multi_head_attention,
    readouts,
    self_attention,
    show_error,
    toy_example,
    toy_multi_head,
)
from attnlib.maths.stats import scaling_comparison

CJK = re.compile(r"[\u4e00-\u9fff]")


pytestmark = pytest.mark.usefixtures("english_afterwards")  # tests/conftest.py


def numbers(text: str) -> list[str]:
    return re.findall(r"-?\d+(?:\.\d+)?", text)


def both(make):
    """make() in English, then in Chinese."""
    attnlib.set_language("en")
    english = make()
    attnlib.set_language("zh")
    return english, make()


def every_readout():
    ex = toy_example(n=6, d_k=4, d_v=3, seed=1)
    att = self_attention(*ex[1:])
    mhx = toy_multi_head(n=5, d_k=3, heads=2)
    params, seq = lookup.init_params(), lookup.make_task(1)[0]
    out = lookup.forward(params, seq)
    return {
        "attention": readouts.attention_readout(att),
        "unscaled": readouts.attention_readout(self_attention(*ex[1:], scaled=False)),
        "embedding": readouts.embedding_readout(ex),
        "qkv": readouts.qkv_readout(ex, att),
        "scaling": readouts.scaling_readout(scaling_comparison(*ex[1:])),
        "heads": readouts.heads_readout(multi_head_attention(*mhx[1:6], heads=2)),
        "mask": readouts.mask_readout(causal_mask(4)),
        "learned": readouts.learned_readout(out.att, seq, out.probs, step=7),
    }


def test_every_readout_is_chinese_with_the_same_numbers():
    english, chinese = both(every_readout)
    for name in english:
        assert CJK.search(chinese[name]), (name, chinese[name])
        assert not CJK.search(english[name]), (name, english[name])
        assert sorted(numbers(chinese[name])) == sorted(numbers(english[name])), name


@pytest.mark.parametrize("mask", [None, "causal"])
def test_explain_in_chinese_keeps_every_number_and_formula(mask):
    ex = toy_example(n=12, d_k=10, d_v=9, seed=2)
    att = self_attention(*ex[1:], mask=None if mask is None else causal_mask(12))

    def render():
        e = explain(att, 5, 7, tokens=ex.tokens)
        return {"text": e.text(), "html": e.html()}

    english, chinese = both(render)
    for kind in ("text", "html"):
        en, zh = english[kind], chinese[kind]
        assert CJK.search(zh) and not CJK.search(en)
        assert numbers(zh) == numbers(en), kind
    for formula in ("q_5 · k_7 / √d_k", "z_5 = Σ_j α[5, j] v_j"):
        assert formula in english["text"] and formula in chinese["text"]
    assert ("键 7 被掩码" in chinese["text"]) == (mask is not None)


def test_explain_text_columns_line_up_in_chinese():
    # a terminal gives a Chinese character two columns: each table's rows end together
    import unicodedata

    def width(line):
        return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in line)

    ex = toy_example(n=6, d_k=3, d_v=2, seed=0)
    attnlib.set_language("zh")
    text = explain(self_attention(*ex[1:]), 2, 3, tokens=ex.tokens).text()
    table = [line for line in text.splitlines()[3:8]]  # the score table: header and 3 rows
    assert table[0].strip().endswith("乘积")
    assert len({width(line) for line in table[:4]}) == 1, table


def test_explorer_controls_speak_chinese_but_keep_their_names_and_values(recwarn):
    attnlib.set_language("zh")
    e = attnlib.explorer(n=6, d_k=4, seed=0)
    # captions: a word in Chinese, a symbol as the formulas write it; names stay English
    assert [c["caption"] for c in e.limits.values()] == ["n", "d_k", "随机种子", "头数", "掩码"]
    assert list(e.controls) == ["n", "d_k", "seed", "heads", "mask"]
    assert e.limits["mask"]["choices"] == [["none", "无"], ["causal", "因果掩码"]]
    assert e.limits["n"]["tooltip"] == "序列长度"
    assert e.text["query i"] == "查询 i" and e.text["key j"] == "键 j"
    e.mask.value = "causal"
    e.heads.value = 2
    e.select((3, 1))
    assert e.shown.summary.count("头 0（共 2 个）") == 1  # the summary line names the head
    assert "查询 i = 3 '着'，键 j = 1 '猫'" in html.unescape(e.details)  # Chinese tokens
    titles = [p.title for p in e.shown.panels]
    assert titles and all(CJK.search(t) for t in titles), titles
    e._repr_mimebundle_()  # the PNG drawn where no widgets run: every character has a glyph
    missing = [str(w.message) for w in recwarn if "missing from font" in str(w.message)]
    assert not missing, missing


def test_show_error_box_in_chinese_keeps_the_error_message():
    attnlib.set_language("zh")
    caught = show_error(int, "six")
    assert str(caught).splitlines()[0] == "┌─ int 抛出了 ValueError"
    assert "invalid literal for int() with base 10: 'six'" in str(caught)
    assert "没有报错：int 返回了 6" in str(show_error(int, "6"))
