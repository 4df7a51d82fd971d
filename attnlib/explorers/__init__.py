"""The explorers wing: controls, heatmaps and a readout, live in a notebook.

Here live what each explorer shows for given control values, as pure
functions (:mod:`.views`), the text under the pictures (:mod:`.readouts`), the
breakdown of one score that they show (:mod:`.explanation`, ``attnlib.explain``,
laid out by :mod:`.tables`; numpy only),
the controls' vocabulary (:mod:`.controller`), the widget drawn in the page
(:mod:`.page`, with its module and style sheet in ``front/``), one module per
family of explorers, and a static HTML file of an explorer (:mod:`.static`).
It may import every other wing; it is the only one that imports ipywidgets
(and anywidget).
"""

from __future__ import annotations

import importlib

from ..i18n import tr

#: public name -> the module of this wing that defines it, loaded on first use so that
#: ``attnlib.explorers.views`` (pure functions) does not import ipywidgets
_NAMES = {
    "LIMITS": "controller",
    "PageExplorer": "page",
    "static_html": "static",
    "write_html": "static",
    "AttentionExplorer": "attention",
    "explorer": "attention",
    "EmbeddingExplorer": "embedding",
    "embedding_explorer": "embedding",
    "QKVExplorer": "qkv",
    "qkv_explorer": "qkv",
    "ScalingExplorer": "scaling",
    "scaling_explorer": "scaling",
    "LearnedExplorer": "learned",
    "learned_explorer": "learned",
    "TrainingProgress": "learned",
}
__all__ = sorted(_NAMES)


def __getattr__(name: str):
    if name in _NAMES:
        return getattr(importlib.import_module(f".{_NAMES[name]}", __name__), name)
    raise AttributeError(
        tr("module {module!r} has no attribute {name!r}", module=__name__, name=name)
    )


def __dir__():
    return sorted(set(globals()) | set(_NAMES))
