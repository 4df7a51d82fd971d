"""attnlib.checks.reading: a prediction read as the learner wrote it, in either language.

A word may be answered in English or in Chinese whatever the language set, with
the case, spaces, full-width forms and punctuation a learner's keyboard adds; a
refused word gets the choices listed in the learner's language; a number typed in
quotes is told to be text, not out of range.
"""

from __future__ import annotations

import inspect
import re

import numpy as np
import pytest

import attnlib
from attnlib import checks
from attnlib.lessons.checks import reading

from .helpers import fails_with, passes

CJK = re.compile(r"[\u4e00-\u9fff]")

pytestmark = pytest.mark.usefixtures("english_afterwards")  # tests/conftest.py

#: every check answered with a word: its right answer in English, the same in Chinese
#: (the word its Chinese prompt suggests), and a wrong one in Chinese
WORD_CHECKS = {
    "check_prediction_doubled_scores": ("sharper", "更集中", "不变"),
    "check_prediction_gradient_size": ("larger", "更大", "更小"),
    "check_prediction_head_parameters": ("the same", "一样多", "一个头"),
    "check_prediction_wrong_d": ("flatter", "更平缓", "更集中"),
    "check_prediction_temperature": ("flatter", "更平缓", "更集中"),
}


def test_every_check_answered_with_a_word_is_listed():
    # a check reads a word with as_choice: a new one must be tried in both languages here
    found = {
        name
        for name in checks.__all__
        if name.startswith("check_") and "as_choice(" in inspect.getsource(getattr(checks, name))
    }
    assert found == set(WORD_CHECKS)


@pytest.mark.parametrize("language", ["en", "zh"])
@pytest.mark.parametrize("name", WORD_CHECKS)
def test_a_word_is_accepted_in_english_and_in_chinese_in_either_edition(name, language):
    check = getattr(checks, name)
    english, chinese, wrong_chinese = WORD_CHECKS[name]
    attnlib.set_language(language)
    passes(check(english))
    passes(check(chinese))
    result = check(wrong_chinese, reveal=True)
    fails_with(result)
    assert repr(wrong_chinese) in result.message  # echoed as typed, not as its English word


@pytest.mark.parametrize(
    "typed",
    [" 更集中 ", "更集中。", "“更集中”", "'更集中'", "「更集中」", "更 集 中",
     "SHARPER", "Sharper!", "ｓｈａｒｐｅｒ", "\u3000sharper\u3000", '"sharper"'],
)  # fmt: skip
def test_case_spaces_full_width_forms_and_punctuation_around_do_not_matter(typed):
    attnlib.set_language("zh")
    passes(checks.check_prediction_doubled_scores(typed))


def test_two_words_need_not_be_spaced_alike():
    passes(checks.check_prediction_gradient_size("About  the Same", d_k=1, seeds=1))
    passes(checks.check_prediction_head_parameters("theSame"))


def test_a_refused_word_is_told_the_choices_in_the_learner_s_language():
    english = checks.check_prediction_doubled_scores("bigger")
    fails_with(english, "'bigger' is not one of the choices")
    assert english.hint == "answer one of 'sharper', 'flatter', 'unchanged', 'doubled'"
    attnlib.set_language("zh")
    chinese = checks.check_prediction_doubled_scores("更大")
    fails_with(chinese, "'更大' 不在选项之中")
    assert chinese.hint == "请从 '更集中'、'更平缓'、'不变'、'翻倍' 中选一个作答"
    heads = checks.check_prediction_head_parameters("更多")
    assert heads.hint == "请从 '一个头'、'八个头'、'一样多' 中选一个作答"


def test_a_word_check_given_a_number_says_it_wants_a_word():
    fails_with(checks.check_prediction_wrong_d(1), "your prediction 1 is of type int, not a word")
    attnlib.set_language("zh")
    result = checks.check_prediction_wrong_d(1)
    fails_with(result, "你的预测 1 的类型是 int，不是一个词", "'更平缓'、'更集中'、'不变'", "引号")


def test_the_right_word_is_named_in_the_learner_s_language():
    attnlib.set_language("zh")
    right = checks.check_prediction_head_parameters("the same")
    assert right.message.startswith("正确：一样多。"), right.message
    attnlib.set_language("en")
    right = checks.check_prediction_head_parameters("一样多")
    assert right.message.startswith("right: the same. "), right.message


def test_folded_keeps_letters_of_every_script_and_drops_what_surrounds_them():
    assert reading.folded("  「About The Same」。") == "aboutthesame"
    assert reading.folded("（更平缓）") == "更平缓"
    assert reading.folded("...") == ""
    assert reading.spellings("the same") >= {"thesame", "一样多"}


# --- a number (or shape, or list) typed in quotes is text ---


@pytest.mark.parametrize(
    ("call", "said", "hint"),
    [
        (lambda: checks.check_prediction_flipped_mask("5"), "'5' is text (a str), not an index",
         "without quotes, as an int from 0 to 5: 5"),
        (lambda: checks.check_prediction_causal_count("21"), "'21' is text (a str), not a number",
         "without quotes: 21"),
        (lambda: checks.check_prediction_alpha("0.37"), "'0.37' is text (a str), not a number",
         "without quotes: 0.37"),
        (lambda: checks.check_prediction_spread_growth("２"), "'２' is text (a str), not a number",
         "without quotes: 2"),
        (lambda: checks.check_prediction_embedding_row("4"), "'4' is text (a str), not an index",
         ": 4"),
        (lambda: checks.check_prediction_moved_token("four"),
         "'four' is text (a str), not an index", "as an int from 0 to 5: 0"),
        (lambda: checks.check_prediction_X_shape("(6, 8)"),
         "'(6, 8)' is text (a str), not a shape", "without quotes, as a tuple of ints: (6, 8)"),
        (lambda: checks.check_prediction_qkv_shapes("((5, 3), (5, 3), (5, 2))"),
         "is text (a str), not three shapes", "without quotes"),
        (lambda: checks.check_prediction_head_shapes("[(8, 8)]"),
         "is text (a str), not four shapes", "without quotes"),
        (lambda: checks.check_prediction_exps("[1, 1, 1]"), "is text (a str), not 3 numbers",
         "without quotes"),
        (lambda: checks.check_prediction_loss_gradient("(-0.9, 0.1)"),
         "is text (a str), not a pair of numbers", "without quotes"),
        (lambda: checks.check_prediction_zero_weights("[(0, 1)]"),
         "is text (a str), not pairs (i, j)", "without quotes"),
    ],
)  # fmt: skip
def test_a_number_in_quotes_is_told_to_be_text_and_shown_without_them(call, said, hint):
    result = call()
    fails_with(result, said)
    assert hint in result.hint, result.hint
    assert "out of range" not in str(result) and "from 0 to" not in result.message
    attnlib.set_language("zh")
    chinese = call()
    fails_with(chinese, "字符串（str）", "去掉引号")


def test_other_kinds_of_wrong_numbers_name_their_type_or_range():
    fails_with(checks.check_prediction_flipped_mask(5.0), "5.0 is of type float, not an index")
    fails_with(checks.check_prediction_flipped_mask(6), "is not an index from 0 to 5")
    fails_with(checks.check_prediction_flipped_mask(True), "is not an index from 0 to 5")
    fails_with(checks.check_prediction_causal_count([21]), "[21] is of type list, not a number")
    passes(checks.check_prediction_causal_count(np.int64(21)))
    passes(checks.check_prediction_flipped_mask(np.int64(5)))


def test_check_pick_tells_a_position_in_quotes_from_a_token():
    from attnlib import lookup

    seq = lookup.make_task(1, seed=3)[0]
    result = checks.check_pick("1", lookup.init_params(), seq)
    fails_with(result, "'1' is text (a str), not a position", "without quotes, 1")
