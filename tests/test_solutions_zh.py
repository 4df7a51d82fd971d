"""The worked solutions in Chinese: attnlib/lessons/solutions_zh.py.

A Chinese learner who opens a solution (``attnlib.solutions.my_scores??``, or the
file the Chinese notebooks name) reads Chinese. The module is the English one with
its docstrings and comments translated, so three things are held here: the code is
the same (the ASTs without docstrings are equal; comments are not in the AST); what
a learner reads in it is Chinese; and ``attnlib.solutions`` is the module of the
current language, however it is reached. That each solution passes its check, in
every language, is tests/checks/test_every_exercise.py's.
"""

from __future__ import annotations

import ast
import importlib
import io
import re
import sys
import tokenize
from pathlib import Path

import pytest

import attnlib
from attnlib.i18n import LANGUAGES
from attnlib.lessons import solutions, solutions_in, solutions_zh

LESSONS = Path(solutions.__file__).parent
CJK = re.compile(r"[\u4e00-\u9fff]")
#: an English sentence: three plain words in a row (as in tests/test_errors.py)
ENGLISH = re.compile(r"\b[A-Za-z]{2,} [a-z]{2,} [a-z]{2,}\b")
#: a word on its own: not part of a name such as n_vocab or d_k
WORD = re.compile(r"\b[A-Za-z]{2,}\b")

pytestmark = pytest.mark.usefixtures("english_afterwards")  # tests/conftest.py


def translations() -> list[Path]:
    """Every lessons/solutions_<code>.py: one language's worked solutions."""
    return sorted(LESSONS.glob("solutions_*.py"))


def without_docstrings(tree: ast.Module) -> str:
    """The module's AST as text, with the docstrings of the module and its functions left out."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.FunctionDef | ast.ClassDef) and ast.get_docstring(
            node, clean=False
        ):
            node.body = node.body[1:]
    return ast.dump(tree)


def public_names(module) -> set[str]:
    """The names a module defines for its readers (not pytest's marks of a rewritten module)."""
    return {name for name in vars(module) if name.isidentifier() and not name.startswith("_")}


def docstrings(source: str) -> dict[str, str]:
    """Name (the module's own: "module") -> docstring."""
    tree = ast.parse(source)
    found = {"module": ast.get_docstring(tree)}
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.ClassDef):
            found[node.name] = ast.get_docstring(node)
    return found


def names_of_the_code(source: str) -> set[str]:
    """Every name the code uses (variables, arguments, attributes, imports)."""
    names = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Name):
            names.add(node.id)
        elif isinstance(node, ast.arg):
            names.add(node.arg)
        elif isinstance(node, ast.Attribute):
            names.add(node.attr)
        elif isinstance(node, ast.alias):
            names.add(node.name)
    return names


def comments_with_words(source: str) -> list[tuple[int, str]]:
    """(line, comment) for every comment that holds a word, not only code and shapes.

    ``# (n, d) @ (d, d_k) -> (n, d_k)`` has none; ``# (n, d_k) each`` has one. A
    name the code uses (``perm``, ``heads``, ``tau``) is code, not a word; so are
    ruff's and mypy's own comments (``# noqa: E501``).
    """
    code = names_of_the_code(source)
    found = []
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type != tokenize.COMMENT:
            continue
        text = re.sub(r"#\s*(noqa|type):.*", "", token.string)
        if any(word not in code for word in WORD.findall(text)):
            found.append((token.start[0], token.string))
    return found


def not_chinese(source: str) -> list[str]:
    """What a Chinese learner would read in English: docstrings and comments."""
    wrong = [
        f"docstring of {name}: {doc!r}"
        for name, doc in docstrings(source).items()
        if not doc or not CJK.search(doc) or ENGLISH.search(doc)
    ]
    wrong += [
        f"line {line}: {comment}"
        for line, comment in comments_with_words(source)
        if not CJK.search(comment) or ENGLISH.search(comment)
    ]
    return wrong


# --- the same code ------------------------------------------------------------


def test_chinese_has_its_solutions_and_every_translation_is_found():
    assert LESSONS / "solutions_zh.py" in translations()
    assert solutions_zh.__file__ == str(LESSONS / "solutions_zh.py")


@pytest.mark.parametrize("path", translations(), ids=lambda p: p.stem)
def test_a_translation_has_the_english_code_character_for_character(path):
    english = ast.parse((LESSONS / "solutions.py").read_text(encoding="utf-8"))
    translated = ast.parse(path.read_text(encoding="utf-8"))
    assert [node.name for node in translated.body if isinstance(node, ast.FunctionDef)] == [
        node.name for node in english.body if isinstance(node, ast.FunctionDef)
    ]
    assert without_docstrings(translated) == without_docstrings(english)


@pytest.mark.parametrize("path", translations(), ids=lambda p: p.stem)
def test_a_translation_defines_the_same_names_and_documents_each_function(path):
    module = importlib.import_module(f"attnlib.lessons.{path.stem}")
    assert public_names(module) == public_names(solutions)
    source = path.read_text(encoding="utf-8")
    english = (LESSONS / "solutions.py").read_text(encoding="utf-8")
    assert docstrings(source).keys() == docstrings(english).keys()


def test_the_ast_comparison_sees_a_changed_line():
    # a translation that changed one number in the code must fail the test above
    source = (LESSONS / "solutions_zh.py").read_text(encoding="utf-8")
    changed = source.replace("return d_k\n", "return d_k + 1\n", 1)
    assert changed != source
    english = ast.parse((LESSONS / "solutions.py").read_text(encoding="utf-8"))
    assert without_docstrings(ast.parse(changed)) != without_docstrings(english)
    assert without_docstrings(ast.parse(source)) == without_docstrings(english)


# --- what a learner reads is Chinese --------------------------------------------


def test_every_docstring_and_comment_of_solutions_zh_is_chinese():
    source = (LESSONS / "solutions_zh.py").read_text(encoding="utf-8")
    assert not_chinese(source) == []


def test_the_reading_finds_the_english_of_solutions_py():
    # the same reading, on the English module: every docstring and the comments in words
    source = (LESSONS / "solutions.py").read_text(encoding="utf-8")
    wrong = not_chinese(source)
    assert len([w for w in wrong if w.startswith("docstring")]) == len(docstrings(source))
    said = "\n".join(wrong)
    for comment in ("# n indices", "# (n, d_k) each", "# each row sums to 1", "by broadcasting"):
        assert comment in said
    # shapes alone, code names and ruff's comments are no English to translate
    for comment in ("# (n_q, d) @ (d, d_k)", "# (n, n_vocab)", "# (n, heads, d_k) ->", "noqa"):
        assert comment not in said


# --- attnlib.solutions is the current language's ------------------------------


@pytest.mark.parametrize(
    ("language", "module"), [("zh", solutions_zh), ("en", solutions)], ids=["zh", "en"]
)
def test_attnlib_solutions_follows_the_language(language, module):
    attnlib.set_language(language)
    assert attnlib.solutions is module
    from attnlib import solutions as imported

    assert imported is module
    assert solutions_in(language) is module


def test_switching_back_and_forth_is_never_stuck_on_the_first_module():
    attnlib.set_language("zh")
    assert attnlib.solutions is solutions_zh
    attnlib.set_language("en")
    assert attnlib.solutions is solutions
    attnlib.set_language("zh")
    assert attnlib.solutions.my_scores.__doc__ == solutions_zh.my_scores.__doc__
    assert "solutions" not in vars(attnlib)  # looked up on each use, never kept


def test_the_old_dotted_path_follows_the_language_too():
    # `from attnlib.solutions import my_one_hot` (attnlib/_moved.py) puts the module into
    # attnlib's namespace and sys.modules; a change of language must not leave it there
    attnlib.set_language("zh")
    from attnlib.solutions import my_one_hot

    assert my_one_hot is solutions_zh.my_one_hot
    assert attnlib.solutions is solutions_zh
    attnlib.set_language("en")
    from attnlib.solutions import my_one_hot

    assert my_one_hot is solutions.my_one_hot
    assert attnlib.solutions is solutions
    assert sys.modules["attnlib.solutions"] is solutions


def test_a_language_without_its_own_solutions_gets_the_english():
    assert {solutions_in(code) for code in LANGUAGES} <= {solutions, solutions_zh}
    assert solutions_in("xx") is solutions  # no solutions_xx.py
    assert solutions_in("../zh") is solutions  # not a module name
