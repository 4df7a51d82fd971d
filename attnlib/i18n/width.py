"""Text laid out in columns the way a terminal or a notebook's printout shows it.

A Chinese character takes two columns of a fixed-width font, so ``f"{'老鼠':6}"``
(four columns of text, four spaces) ends two columns after ``f"{'猫':6}"`` (two and
five). :func:`pad` pads by columns instead, so that a printed table lines up in
every language.
"""

from __future__ import annotations

import unicodedata


def columns(text: str) -> int:
    """How many columns `text` takes in a fixed-width font: wide characters take two.

    >>> columns("cat"), columns("老鼠"), columns("'猫'")
    (3, 4, 4)
    """
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def pad(text: str, width: int) -> str:
    """`text` with spaces after it up to `width` columns, as ``f"{text:width}"`` pads
    English: the column after it starts in the same place whatever the script.

    >>> [pad(t, 6) + "|" for t in ("cat", "猫", "老鼠")]
    ['cat   |', '猫    |', '老鼠  |']
    """
    return text + " " * max(width - columns(text), 0)
