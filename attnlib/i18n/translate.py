"""The language of everything a learner reads: English by default, Chinese on request.

Every sentence that attnlib shows a learner (check results and hints, explorer
readouts, figure titles and axis labels, ``explain`` breakdowns, error boxes)
goes through :func:`tr`. The English sentence is its own key, in the style of
gettext: the code stays readable in English, and a sentence with no
translation falls back to English rather than failing. Numbers and names are
filled in after the lookup, from ``{placeholders}`` that both languages share.

The Chinese sentences live in :mod:`attnlib.i18n.zh`, one module per part of
the library; a test checks that every ``tr("...")`` in the code has one, with
the same placeholders. The errors attnlib raises for bad arguments (ValueError,
TypeError) go through :func:`tr` too, so that a Chinese learner reads them in
Chinese; in English their text is what it always was.

Examples
--------
>>> set_language("zh")
>>> tr("key j")
'键 j'
>>> tr("weights α = softmax(scores){masked}  {shape}", masked="", shape="(3 × 3)")
'注意力权重 α = softmax(分数)  (3 × 3)'
>>> set_language("en")
>>> tr("key j")
'key j'
"""

from __future__ import annotations

import importlib
import os
import pkgutil
from functools import cache

from .languages import EDITIONS, edition

__all__ = ["LANGUAGES", "get_language", "set_language", "tr"]

#: The languages attnlib can speak, English (the default) first: the codes of EDITIONS.
LANGUAGES = tuple(EDITIONS)

_setting = {"language": "en"}


def set_language(language: str) -> None:
    """Choose the language of what attnlib shows from now on: ``"en"`` or ``"zh"``.

    The Chinese notebooks call ``attnlib.set_language("zh")`` in their first
    code cell; the environment variable ``ATTNLIB_LANG`` sets the default.

    Examples
    --------
    >>> set_language("fr")
    Traceback (most recent call last):
    ...
    ValueError: language must be one of 'en', 'zh', got 'fr'
    """
    if not isinstance(language, str) or language not in EDITIONS:  # said in the language in use
        raise ValueError(
            tr(
                "language must be one of {allowed}, got {value!r}",
                allowed=", ".join(map(repr, EDITIONS)),
                value=language,
            )
        )
    _setting["language"] = edition(language).code


def get_language() -> str:
    """The language chosen with :func:`set_language` (``"en"`` unless changed)."""
    return _setting["language"]


def tr(text: str, /, **values) -> str:
    """`text` in the current language, its ``{placeholders}`` filled from `values`.

    Parameters
    ----------
    text : str
        The English sentence, which is also the key of its translation.
    **values
        Filled into the ``{name}`` (or ``{name:.2f}``) placeholders, after the
        lookup, so both languages format numbers alike.
    """
    language = _setting["language"]
    template = text if language == "en" else catalog(language).get(text, text)
    return template.format(**values) if values else template


@cache
def catalog(language: str) -> dict[str, str]:
    """Every translated sentence of `language`: English -> translation."""
    if language == "en":
        return {}
    package = importlib.import_module(f".{language}", __package__)  # attnlib.i18n.<language>
    merged: dict[str, str] = {}
    for info in pkgutil.iter_modules(package.__path__):
        merged.update(importlib.import_module(f"{package.__name__}.{info.name}").MESSAGES)
    return merged


def _from_environment() -> None:
    language = os.environ.get("ATTNLIB_LANG", "").strip().lower()
    if language in LANGUAGES:
        _setting["language"] = language


_from_environment()
