"""What every explorer's controls share: their ranges, captions and tooltips.

An explorer (:class:`.page.PageExplorer`) is drawn in the page by the module
``front/explorer.js``; what it shows for given control values is a pure
function of :mod:`.views`. This module holds the vocabulary of the controls:
each slider's range and what it is, and its caption and tooltip in the
learner's language. The page finds a control by its class
``attnlib-control-NAME`` (and ``data-control="NAME"``), whatever its caption.
"""

from __future__ import annotations

from ..i18n import tr

__all__ = ["LIMITS", "MAX_D", "caption", "tooltip"]

#: name -> (minimum, maximum, what it is), for sliders and fixed arguments alike
LIMITS = {
    "n": (2, 32, "sequence length"),
    "d": (1, 64, "embedding size"),
    "d_k": (1, 64, "query/key size"),
    "d_v": (1, 64, "value size"),
    "seed": (0, 99, "random seed"),
}
MAX_D = 512  # d when it is a fixed argument rather than a slider


def tooltip(what: str) -> str:
    """A control's description from ``LIMITS`` (English) in the current language.

    Examples
    --------
    >>> tooltip("sequence length"), tooltip("something new")
    ('sequence length', 'something new')
    """
    translated = {
        "sequence length": tr("sequence length"),
        "embedding size": tr("embedding size"),
        "query/key size": tr("query/key size"),
        "value size": tr("value size"),
        "random seed": tr("random seed"),
        "number of heads, each of width d_k": tr("number of heads, each of width d_k"),
        "a sequence of the task": tr("a sequence of the task"),
    }
    return translated.get(what, what)


def caption(name: str) -> str:
    """The caption shown beside control `name`, in the current language.

    A word (seed, heads, mask, step, example) is translated; a symbol of the
    chapter (n, d, d_k, d_v) stays as the formulas and the code write it.

    Examples
    --------
    >>> caption("seed"), caption("d_k")
    ('seed', 'd_k')
    """
    words = {
        "seed": tr("seed"),
        "heads": tr("heads"),
        "mask": tr("mask"),
        "step": tr("step"),
        "example": tr("example"),
    }
    return words.get(name, name)
