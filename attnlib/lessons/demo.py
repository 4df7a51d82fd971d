"""Show an error on purpose without stopping the notebook: ``show_error``.

A lesson sometimes wants the learner to see attnlib refuse bad input. A cell
that raises stops "Run All", papermill and nbconvert at that point, so the
notebooks call the function through ``show_error`` instead: it catches the
exception and shows its type and message in a box (HTML in a notebook, plain
text in a terminal). Standard library only, so that importing it stays light.
"""

from __future__ import annotations

import html
import textwrap
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..i18n import tr

__all__ = ["CaughtError", "show_error"]

_WIDTH = 76  # characters of message per line in the plain-text box


@dataclass(frozen=True)
class CaughtError:
    """What ``show_error`` saw: the call's name and the exception it raised, if any.

    Shown as a box: ``_repr_html_`` in a notebook, ``str``/``repr`` in a terminal.
    """

    call: str
    error: BaseException | None
    result: Any = None

    @property
    def error_type(self) -> str | None:
        """The exception's class name, e.g. ``'ValueError'``; None if nothing was raised."""
        return None if self.error is None else type(self.error).__name__

    @property
    def message(self) -> str:
        """The exception's message, or a sentence saying that the call returned."""
        if self.error is None:
            return tr(
                "no error: {call} returned {result!r:.200}", call=self.call, result=self.result
            )
        return str(self.error)

    @property
    def title(self) -> str:
        if self.error is None:
            return tr("{call} ran without an error", call=self.call)
        return tr("{call} raised {error}", call=self.call, error=self.error_type)

    def __str__(self) -> str:
        lines = [f"┌─ {self.title}"]
        for paragraph in self.message.splitlines() or [""]:
            lines += [f"│ {line}" for line in textwrap.wrap(paragraph, _WIDTH) or [""]]
        lines.append("└─")
        return "\n".join(lines)

    __repr__ = __str__

    def _repr_html_(self) -> str:
        colour = "#1a7f37" if self.error is None else "#b35900"  # green: none; amber: caught
        message = html.escape(self.message).replace("\n", "<br>")
        return (
            f'<div style="border:1px solid {colour};border-left:6px solid {colour};'
            f'padding:6px 10px;margin:4px 0;border-radius:3px;font-family:sans-serif">'
            f'<div style="font-weight:bold;color:{colour}">{html.escape(self.title)}</div>'
            f'<div style="font-family:monospace;white-space:pre-wrap">{message}</div>'
            f"</div>"
        )


def _name(func: Callable) -> str:
    return getattr(func, "__qualname__", None) or getattr(func, "__name__", None) or repr(func)


def show_error(func: Callable, *args: Any, **kwargs: Any) -> CaughtError:
    """Call ``func(*args, **kwargs)`` and return the error it raises, ready to display.

    Use it where a lesson shows an error on purpose: the cell ends normally, so
    "Run All", papermill and nbconvert go on to the next cell, and the learner
    sees the exception's type and message in a box instead of a red traceback.

    Parameters
    ----------
    func : callable
        The call that is expected to fail, e.g. ``attnlib.self_attention``.
    *args, **kwargs
        Passed to `func` unchanged.

    Returns
    -------
    CaughtError
        ``.error`` is the exception (``.error_type`` and ``.message`` its class
        name and text); if `func` returned instead, ``.error`` is None and the
        box says so. Only ``Exception`` is caught: Ctrl-C still interrupts.

    Examples
    --------
    >>> shown = show_error(int, "six")
    >>> shown.error_type
    'ValueError'
    >>> print(shown)
    ┌─ int raised ValueError
    │ invalid literal for int() with base 10: 'six'
    └─
    >>> show_error(int, "6").error is None
    True
    """
    if not callable(func):
        raise TypeError(
            tr(
                "show_error needs a function to call, got {kind} {func!r:.60}; "
                "pass the function and its arguments separately: "
                "show_error(f, x), not show_error(f(x))",
                kind=type(func).__name__,
                func=func,
            )
        )
    try:
        result = func(*args, **kwargs)
    except Exception as err:
        return CaughtError(call=_name(func), error=err)
    return CaughtError(call=_name(func), error=None, result=result)
