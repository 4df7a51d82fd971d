"""attnlib's errors in the learner's language: every message goes through tr().

Two tests. One reads attnlib's source: every ``raise`` whose message holds English
words outside a ``tr(...)`` call fails, unless it is on the short list below of
errors a learner cannot reach (each with its reason). The other calls a sample of
attnlib's functions with bad arguments, as a learner would, in Chinese and in
English: each message is in that language, names the wrong value and says what
was expected.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import numpy as np
import pytest

import attnlib
from attnlib import checks

PACKAGE = Path(attnlib.__file__).parent
CJK = re.compile(r"[\u4e00-\u9fff]")
#: an English sentence: three plain words in a row ("is out of", "must be one")
ENGLISH = re.compile(r"\b[A-Za-z]{2,} [a-z]{2,} [a-z]{2,}\b")
#: words in a string literal of the source: two of them, a space apart
WORDS = re.compile(r"\b[A-Za-z]+ [A-Za-z]+\b")

pytestmark = pytest.mark.usefixtures("english_afterwards")  # tests/conftest.py

#: (module, function) -> why its raise of an English message may stay English
NOT_FOR_LEARNERS = {
    ("__main__.py", "parse"): (
        "the attnlib-figure command line: argparse prints its usage and its own words "
        "around the message in English, and the command has no language of its own"
    ),
    ("explorers/page.py", "answer"): (
        "the page's module sent controls the Python class does not have: a bug between "
        "explorer.js and page.py, which no argument of a learner's causes"
    ),
    ("i18n/languages.py", "edition"): (
        "the records' own check, run by the Makefile and the tools before attnlib is "
        "importable (it imports nothing of attnlib); set_language checks the code first, "
        "through tr()"
    ),
}


def _is_tr(node: ast.AST) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "tr"


def _english_outside_tr(node: ast.AST) -> list[str]:
    """The string literals of words in `node` ("x is", "must be"), not counting those
    inside tr(): a single word ("QKV", a dict key) or code ("d_logits = p - y") is no
    sentence to translate."""
    if _is_tr(node):
        return []
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value] if WORDS.search(node.value) else []
    return [text for child in ast.iter_child_nodes(node) for text in _english_outside_tr(child)]


def _assigned(function: ast.AST, name: str) -> list[ast.AST]:
    """The values assigned to `name` by a plain assignment in `function`."""
    return [
        node.value
        for node in ast.walk(function)
        if isinstance(node, ast.Assign)
        and any(isinstance(t, ast.Name) and t.id == name for t in node.targets)
    ]


def _message_names(arg: ast.AST) -> list[str]:
    """The variables that hold (part of) a message: `said`, `said.format(...)`, `a + b`."""
    if isinstance(arg, ast.Name):
        return [arg.id]
    if isinstance(arg, ast.Call) and isinstance(arg.func, ast.Attribute):
        return _message_names(arg.func.value) if arg.func.attr == "format" else []
    if isinstance(arg, ast.BinOp):
        return _message_names(arg.left) + _message_names(arg.right)
    return []


def untranslated_raises(root: Path = PACKAGE) -> dict[tuple[str, str], list[str]]:
    """(module, function) -> the English literals of its raises that skip tr(), under `root`."""
    found: dict[tuple[str, str], list[str]] = {}
    for path in sorted(root.rglob("*.py")):
        module = path.relative_to(root).as_posix()
        if module.startswith("i18n/") and path.parent.name != "i18n":
            continue  # a catalogue: translations, not code
        tree = ast.parse(path.read_text(encoding="utf-8"))
        functions = [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)]
        for function in [tree, *functions]:
            for node in ast.walk(function):
                if not (isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call)):
                    continue
                owner = min(  # the innermost function holding this raise
                    (f for f in functions if f.lineno <= node.lineno <= f.end_lineno),
                    key=lambda f: f.end_lineno - f.lineno,
                    default=None,
                )
                if owner is not (None if function is tree else function):
                    continue
                args = [*node.exc.args, *(k.value for k in node.exc.keywords)]
                english = [text for arg in args for text in _english_outside_tr(arg)]
                # a message built first, then raised: `said = "..."; raise ValueError(said)`
                for name in {name for arg in args for name in _message_names(arg)}:
                    for value in _assigned(owner or tree, name):
                        english += _english_outside_tr(value)
                if english:
                    key = (module, owner.name if owner else "<module>")
                    found.setdefault(key, []).extend(english)
    return found


def test_every_error_a_learner_can_meet_goes_through_tr():
    found = untranslated_raises()
    untranslated = {key: texts for key, texts in found.items() if key not in NOT_FOR_LEARNERS}
    assert not untranslated, "raise with an English message outside tr():\n" + "\n".join(
        f"  {module}, {function}(): {texts}" for (module, function), texts in untranslated.items()
    )
    stale = set(NOT_FOR_LEARNERS) - set(found)
    assert not stale, f"listed as English on purpose but no longer raising English: {stale}"


def test_the_source_reader_finds_what_it_should(tmp_path):
    # the reader itself, on a module of its own: each English raise found, tr() ones not
    source = """
def f(x):
    raise ValueError(f"x must be positive, got {x}")

def g(x):
    said = "x is " + "wrong"
    raise TypeError(said)

def h(x):
    raise ValueError(tr("x must be positive, got {x}", x=x))

def k(x):
    said = tr("x must be positive, got {x}")
    raise ValueError(said.format(x=x) + ": ")
"""
    (tmp_path / "sample.py").write_text(source, encoding="utf-8")
    assert untranslated_raises(tmp_path) == {
        ("sample.py", "f"): ["x must be positive, got "],
        ("sample.py", "g"): ["x is "],
    }


# --- a sample of bad calls, as a learner makes them ---


def _att():
    ex = attnlib.toy_example(n=3, seed=0)
    return attnlib.self_attention(ex.X, ex.W_Q, ex.W_K, ex.W_V)


def _not_multi_head():
    from attnlib.pictures.plotting import plot_heads

    plot_heads(_att(), ["a", "b", "c"])


def _heatmap_with_two_labels():
    from matplotlib.figure import Figure

    from attnlib.pictures.heatmap import heatmap

    heatmap(Figure().add_subplot(), np.eye(3), row_labels=["a", "b"])


#: name -> (the bad call, the wrong value as the message shows it, what is expected in
#: English, the same in Chinese)
BAD_CALLS = {
    "explain(att, 10, 0)": (
        lambda: attnlib.explain(_att(), 10, 0), "i = 10", "from 0 to 2", "在 0 到 2 之间"
    ),
    "row_entropy, a row summing to 1.1": (
        lambda: attnlib.stats.row_entropy(np.array([[0.5, 0.6]])), "1.1", "sum to 1", "之和必须是 1"
    ),
    "max_weight, a negative weight": (
        lambda: attnlib.stats.max_weight(np.array([[-0.5, 1.5]])), "-0.5", ">= 0", ">= 0"
    ),
    "plot_attention with 2 tokens for 3": (
        lambda: attnlib.plot_attention(_att(), ["我", "爱"]), "2", "n = 3 rows", "n = 3 行"
    ),
    "explorer(mask='casual')": (
        lambda: attnlib.explorer(mask="casual"), "'casual'", "['none', 'causal']",
        "['none', 'causal'] 之一",
    ),
    "explorer(size='huge')": (
        lambda: attnlib.explorer(size="huge"), "'huge'", "['large', 'normal']",
        "['large', 'normal'] 之一",
    ),
    "learned_explorer(1, 2)": (
        lambda: attnlib.learned_explorer(1, 2), "int", "lookup.History", "lookup.History"
    ),
    "plot_heads of one head": (_not_multi_head, "Attention", "MultiHead", "MultiHead"),
    "a heatmap's labels": (_heatmap_with_two_labels, "2", "3 rows", "3 行"),
    "set_language('fr')": (
        lambda: attnlib.set_language("fr"), "'fr'", "'en', 'zh'", "'en', 'zh' 之一"
    ),
    "a misspelt name": (
        lambda: attnlib.self_atention, "'self_atention'", "no attribute", "没有属性"
    ),
    "a check's own row": (
        lambda: checks.check_prediction_alpha(0.3, i=5), "i = 5", "from 0 to 2", "0 到 2"
    ),
    "show_error(f(x))": (
        lambda: attnlib.show_error(3), "int", "show_error(f, x)", "show_error(f, x)"
    ),
    "require('latest')": (lambda: attnlib.require("latest"), "'latest'", "'0.2'", "'0.2'"),
}  # fmt: skip


def _message(call) -> tuple[type, str]:
    try:
        call()
    except (ValueError, TypeError, IndexError, AttributeError) as error:
        return type(error), str(error)
    raise AssertionError("no error raised")


@pytest.mark.parametrize("name", BAD_CALLS)
def test_a_bad_call_is_told_in_chinese_what_was_wrong_and_what_was_expected(name):
    call, wrong, english, chinese = BAD_CALLS[name]
    kind, said = _message(call)
    assert not CJK.search(said), said
    assert wrong in said and english in said, said
    attnlib.set_language("zh")
    same_kind, chinese_said = _message(call)
    assert same_kind is kind  # the same exception, in other words
    assert CJK.search(chinese_said), chinese_said
    assert wrong in chinese_said and chinese in chinese_said, chinese_said
    assert not ENGLISH.search(chinese_said), chinese_said
