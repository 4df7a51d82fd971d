"""attnlib: self-attention in numpy, with heatmaps and sliders for teaching it.

Importing attnlib loads numpy only. Plotting (matplotlib) and the explorers
(ipywidgets) load the first time they are used, e.g. ``attnlib.explorer()``.
"""

from __future__ import annotations

import importlib

from . import reference
from ._validate import set_translator
from .backward import Gradients, self_attention_backward
from .core import (
    Attention,
    MultiHead,
    attention,
    causal_mask,
    multi_head_attention,
    padding_mask,
    self_attention,
    softmax,
)
from .data import Example, MultiHeadExample, toy_example, toy_multi_head
from .i18n import get_language, set_language, tr

set_translator(tr)  # the maths' error messages in the learner's language
del set_translator, tr

__version__ = "0.1.0"

__all__ = [
    "Attention",
    "Example",
    "Gradients",
    "MultiHead",
    "MultiHeadExample",
    "attention",
    "causal_mask",
    "charts",
    "checks",
    "demo",
    "explain",
    "explorer",
    "get_language",
    "learned_explorer",
    "lookup",
    "multi_head_attention",
    "padding_mask",
    "plotting",
    "reference",
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

# name -> module that defines it; loaded on first access (PEP 562)
_LAZY_MODULES = {"charts", "checks", "lookup", "plotting", "solutions", "stats", "widgets"}
_LAZY_MODULES |= {"heatmap", "layout", "readouts", "views"}  # the picture half's parts
_LAZY_MODULES.add("demo")
_LAZY_NAMES = {
    "explain": "explanation",
    "Explanation": "explanation",
    "explorer": "widgets",
    "AttentionExplorer": "widgets",
    "embedding_explorer": "widgets",
    "qkv_explorer": "widgets",
    "scaling_explorer": "widgets",
    "learned_explorer": "widgets",
    "LearnedExplorer": "widgets",
    "plot_attention": "plotting",
    "show_error": "demo",
}


def __getattr__(name: str):
    if name in _LAZY_MODULES:
        return importlib.import_module(f".{name}", __name__)
    if name in _LAZY_NAMES:
        module = importlib.import_module(f".{_LAZY_NAMES[name]}", __name__)
        return getattr(module, name)
    raise AttributeError(f"module 'attnlib' has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | _LAZY_MODULES | set(_LAZY_NAMES))
