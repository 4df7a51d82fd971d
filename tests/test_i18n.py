"""attnlib.i18n: the language switch, and a Chinese sentence for every tr("...") in the code."""

import ast
import re
import string
from pathlib import Path

import pytest

import attnlib
from attnlib import i18n
from attnlib.i18n.languages import EDITIONS

PACKAGE = Path(attnlib.__file__).parent


pytestmark = pytest.mark.usefixtures("english_afterwards")  # tests/conftest.py


def test_english_is_the_default_and_the_key():
    assert attnlib.get_language() == "en"
    assert i18n.tr("key j") == "key j"
    assert i18n.tr("an untranslated sentence {n}", n=3) == "an untranslated sentence 3"


def test_chinese_on_request_with_placeholders_filled_after_lookup():
    attnlib.set_language("zh")
    assert i18n.tr("key j") == "键 j"
    title = i18n.tr("weights α = softmax(scores){masked}  {shape}", masked="", shape="(2 × 2)")
    assert title == "注意力权重 α = softmax(分数)  (2 × 2)"
    assert i18n.tr("a sentence nobody translated") == "a sentence nobody translated"


def test_unknown_language_is_refused_naming_the_choices():
    choices = ", ".join(map(repr, EDITIONS))  # 'en', 'zh' (and any language added later)
    with pytest.raises(ValueError, match=f"language must be one of {choices}, got 'xx'"):
        attnlib.set_language("xx")
    assert attnlib.get_language() == "en"


def _tr_calls():
    """Every literal first argument of tr(...) in attnlib's source, with where it is."""
    found = []
    for path in PACKAGE.rglob("*.py"):
        if path.parent.parent.name == "i18n":  # a catalogue, not code
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "tr"
                and node.args
            ):
                arg = node.args[0]
                assert isinstance(arg, ast.Constant) and isinstance(arg.value, str), (
                    f"{path.name}:{node.lineno}: tr() needs a literal sentence, not an expression"
                )
                found.append((arg.value, f"{path.name}:{node.lineno}"))
    return found


def _fields(template: str) -> set[str]:
    template = re.sub(r"\$[^$]*\$", "", template)  # TeX braces such as \sqrt{d_k} are no fields
    return {name for _, name, _, _ in string.Formatter().parse(template) if name is not None}


def _page_texts() -> list[tuple[str, str]]:
    # The sentences the explorers' page module fills in (sent translated, by their keys)
    from attnlib.explorers.page import TEXTS

    return [(text, "explorers/page.py: TEXTS") for text in TEXTS]


TRANSLATED = [code for code in EDITIONS if code != "en"]  # each language with a catalogue


@pytest.mark.parametrize("code", TRANSLATED)
def test_every_sentence_shown_to_a_learner_has_a_translation(code):
    catalogue = i18n.catalog(code)
    shown = [*_tr_calls(), *_page_texts()]
    missing = sorted({f"{where}: {text!r}" for text, where in shown if text not in catalogue})
    assert not missing, f"no {EDITIONS[code].name} for:\n" + "\n".join(missing)


@pytest.mark.parametrize("code", TRANSLATED)
def test_translations_keep_the_placeholders_and_are_in_the_language(code):
    script = EDITIONS[code].script
    assert script, f"{code}'s record names no script (languages.py: Language.script)"
    for english, translated in i18n.catalog(code).items():
        assert _fields(translated) == _fields(english), (english, translated)
        letters = re.sub(r"\{[^}]*\}|[\W\d_]", "", english)
        if len(letters) >= 4:  # a word or more of English: the translation must hold the script
            assert re.search(script, translated), (english, translated)


@pytest.mark.parametrize("code", TRANSLATED)
def test_no_translation_is_left_unused(code):
    used = {text for text, _ in [*_tr_calls(), *_page_texts()]}
    unused = sorted(set(i18n.catalog(code)) - used)
    assert not unused, f"{code}: translations for sentences no longer in the code: {unused}"


def _error(call):
    try:
        call()
    except (ValueError, TypeError) as error:
        return str(error)
    raise AssertionError("no error raised")


def test_attnlibs_errors_are_chinese_in_chinese_and_unchanged_in_english():
    import numpy as np

    ex = attnlib.toy_example(n=4, d=6, d_k=4)
    bad_calls = [
        lambda: attnlib.self_attention(ex.X, ex.W_Q, ex.W_K[:, :3], ex.W_V),  # d_k differs
        lambda: attnlib.self_attention(np.zeros((2, 4, 6)), ex.W_Q, ex.W_K, ex.W_V),  # a batch
        lambda: attnlib.softmax(np.array([[1.0, np.inf], [0.0, 0.0]])),
        lambda: attnlib.self_attention(ex.X, ex.W_Q, ex.W_K, ex.W_V, mask=np.zeros((4, 4), bool)),
        lambda: attnlib.toy_example(n=0),
        lambda: attnlib.data.embed(["the", "zebra"], attnlib.data.embedding_table()),
        lambda: attnlib.lookup.init_params(qk_scale=-1.0),
    ]
    english = [_error(call) for call in bad_calls]
    assert english[0] == (
        "W_K has shape (6, 3) but W_Q has (6, 4): d_k must match, because each score "
        "is a dot product q_i . k_j of two vectors of length d_k"
    )
    attnlib.set_language("zh")
    chinese = [_error(call) for call in bad_calls]
    assert chinese[0] == (
        "W_K 的形状是 (6, 3)，W_Q 的却是 (6, 4)：两者的 d_k 必须相同，"
        "因为每个注意力分数都是两个 d_k 维向量的点积 q_i . k_j"
    )
    for en, zh in zip(english, chinese, strict=True):
        assert re.search(r"[\u4e00-\u9fff]", zh), (en, zh)
        # the numbers and names of the English message are all in the Chinese one
        assert set(re.findall(r"\d+|\b[A-Z]_[A-Z]\b", en)) <= set(
            re.findall(r"\d+|\b[A-Z]_[A-Z]\b", zh)
        )
    attnlib.set_language("en")
    assert [_error(call) for call in bad_calls] == english
