"""attnlib: self-attention in numpy, with heatmaps and sliders for teaching it.

The package has five wings, each a folder whose ``__init__`` says what it
holds and what it may import: :mod:`.maths` (numpy only), :mod:`.pictures`
(matplotlib), :mod:`.explorers` (ipywidgets), :mod:`.lessons` (checks,
solutions, explain) and :mod:`.i18n` (the language). Imports run one way,
maths → pictures → explorers, and only the explorers and this module import
the lessons (``tests/test_wings.py`` reads every import to keep it so).
Importing attnlib loads numpy only. Plotting (matplotlib) and the explorers
(ipywidgets) load the first time they are used, e.g. ``attnlib.explorer()``.
The modules' paths from before the wings (``attnlib.stats``,
``attnlib.plotting``, ``attnlib.checks``, ...) keep working (:mod:`._moved`).
"""

from __future__ import annotations

import importlib
import sys

from . import _moved, i18n
from .i18n import get_language, pad, tr
from .maths import reference
from .maths.backward import Gradients, self_attention_backward
from .maths.core import (
    Attention,
    MultiHead,
    attention,
    causal_mask,
    multi_head_attention,
    padding_mask,
    self_attention,
    softmax,
)
from .maths.data import Example, MultiHeadExample, toy_example, toy_multi_head
from .maths.validation import set_translator
from .pictures.fonts import plain_figure_fonts

_moved.install()
set_translator(tr, get_language)  # the maths' errors and toy sentence in the learner's language
del set_translator, tr

__version__ = "0.2.0"


def set_language(language: str) -> None:
    """Choose the language of what attnlib shows from now on: ``"en"`` or ``"zh"``.

    What attnlib prints, draws and raises follows it (:func:`attnlib.i18n.set_language`;
    the environment variable ``ATTNLIB_LANG`` sets the default), and so does a
    learner's own matplotlib figure: in Chinese its text falls back to attnlib's
    Chinese font, so ``plt.title("注意力")`` draws
    (:func:`attnlib.pictures.fonts.plain_figure_fonts`); English figures are left
    as matplotlib draws them.

    Examples
    --------
    >>> set_language("zh")
    >>> get_language()
    'zh'
    >>> set_language("en")
    """
    i18n.set_language(language)
    plain_figure_fonts()
    # `import attnlib.solutions` (the path from before the wings) leaves the worked
    # solutions of that moment in this namespace and in sys.modules; dropped, the
    # next use finds those of the new language (__getattr__, _moved).
    globals().pop("solutions", None)
    sys.modules.pop(f"{__name__}.solutions", None)


__all__ = [
    "Attention",
    "Example",
    "Gradients",
    "MultiHead",
    "MultiHeadExample",
    "answer",
    "attention",
    "causal_mask",
    "charts",
    "checks",
    "demo",
    "explain",
    "explorer",
    "get_language",
    "import_torch",
    "learned_explorer",
    "lookup",
    "multi_head_attention",
    "pad",
    "padding_mask",
    "plotting",
    "reference",
    "require",
    "self_attention",
    "self_attention_backward",
    "set_language",
    "show_error",
    "softmax",
    "solutions",
    "stats",
    "toy_example",
    "toy_multi_head",
    "widgets",
]

# modules loaded on first access (PEP 562), by their names from before the wings
_LAZY_MODULES = {"charts", "checks", "lookup", "plotting", "stats", "widgets"}
_LAZY_MODULES |= {"heatmap", "layout", "readouts", "views", "demo", "data", "core"}
_LAZY_MODULES |= {"backward", "cell_values", "explanation", "fonts"}
_LAZY_MODULES |= {"maths", "pictures", "explorers", "lessons"}  # the wings themselves
# name -> module that defines it; loaded on first access
_LAZY_NAMES = {
    "explain": "explorers.explanation",
    "Explanation": "explorers.explanation",
    "explorer": "explorers",
    "AttentionExplorer": "explorers",
    "embedding_explorer": "explorers",
    "qkv_explorer": "explorers",
    "scaling_explorer": "explorers",
    "learned_explorer": "explorers",
    "LearnedExplorer": "explorers",
    "TrainingProgress": "explorers",
    "plot_attention": "pictures.plotting",
    "require": "version_check",
    "show_error": "lessons.demo",
    "answer": "lessons.answers",
    "import_torch": "lessons.bridge",
}


def __getattr__(name: str):
    if name == "solutions":  # in the learner's language, looked up on every use: never kept
        from .lessons import solutions_in

        return solutions_in(get_language())
    if name in _LAZY_MODULES:
        return importlib.import_module(f".{name}", __name__)
    if name in _LAZY_NAMES:
        module = importlib.import_module(f".{_LAZY_NAMES[name]}", __name__)
        return getattr(module, name)
    from .i18n import tr  # not kept in the namespace: attnlib.tr is no public name

    raise AttributeError(
        tr("module {module!r} has no attribute {name!r}", module=__name__, name=name)
    )


def __dir__():
    return sorted(set(globals()) | _LAZY_MODULES | set(_LAZY_NAMES) | {"solutions"})
