"""attnlib: self-attention in numpy, with heatmaps and sliders for teaching it.

Importing attnlib loads numpy only. Plotting (matplotlib) and the explorers
(ipywidgets) load the first time they are used, e.g. ``attnlib.explorer()``.
"""

from __future__ import annotations

import importlib

from . import reference
from .core import Attention, attention, self_attention, softmax
from .data import Example, toy_example

__version__ = "0.1.0"

__all__ = [
    "Attention",
    "Example",
    "attention",
    "charts",
    "checks",
    "demo",
    "explorer",
    "plotting",
    "reference",
    "self_attention",
    "show_error",
    "softmax",
    "solutions",
    "stats",
    "toy_example",
    "widgets",
]

# name -> module that defines it; loaded on first access (PEP 562)
_LAZY_MODULES = {"charts", "checks", "plotting", "solutions", "stats", "widgets"}
_LAZY_MODULES.add("demo")
_LAZY_NAMES = {
    "explorer": "widgets",
    "AttentionExplorer": "widgets",
    "embedding_explorer": "widgets",
    "qkv_explorer": "widgets",
    "scaling_explorer": "widgets",
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
