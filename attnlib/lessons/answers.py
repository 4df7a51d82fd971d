"""An answer that stays closed until the learner opens it: ``with attnlib.answer():``.

A prediction cell asks the learner for a number; the cell after it computes the
answer. Stored with its output collapsed, that answer still opened the moment
"Run All" re-ran the cell, right under the question. So the answer cells print
inside ``answer()``: everything the block prints or displays is gathered and
shown as one closed ``<details>`` section ("Answer: open it after your attempt"),
which stays closed however often the notebook is run, until the learner clicks it.

    with attnlib.answer():
        print("α_12 =", att.weights[1, 2])
        display(attnlib.plot_attention(att, tokens))   # pictures too

Where no HTML is shown (a terminal, a plain-text viewer), the answer is printed
as it is, under a one-line heading. Standard library only (IPython when present).
"""

from __future__ import annotations

import base64
import contextlib
import html
import io
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field

from ..i18n import tr

__all__ = ["Answer", "answer"]


@dataclass
class Answer:
    """What an ``answer()`` block printed and displayed, shown closed.

    ``text`` is what it printed; ``outputs`` the mime bundles it displayed (a
    figure, a table), in order. ``summary`` is the line shown while it is closed.
    """

    summary: str
    text: str = ""
    outputs: list[dict] = field(default_factory=list)

    def _repr_mimebundle_(self, include=None, exclude=None) -> dict:
        parts = []
        if self.text:
            parts.append(f'<pre class="attnlib-answer-text">{html.escape(self.text)}</pre>')
        parts += [_as_html(data) for data in self.outputs]
        body = "\n".join(parts)
        closed = (
            '<details class="attnlib-answer">'
            '<summary style="cursor:pointer;font-weight:bold">'
            f"{html.escape(self.summary)}</summary>"
            f'<div style="margin-top:4px">{body}</div></details>'
        )
        plain = [self.summary, self.text.rstrip("\n")]
        plain += [data.get("text/plain", "") for data in self.outputs]
        return {"text/html": closed, "text/plain": "\n".join(p for p in plain if p)}


def _as_html(data: dict) -> str:
    """One displayed output as HTML: its own HTML, else its PNG, else its text."""
    if "text/html" in data:
        return str(data["text/html"])
    if "image/png" in data:
        png = data["image/png"]
        if isinstance(png, bytes):
            png = base64.b64encode(png).decode("ascii")
        alt = html.escape(str(data.get("text/plain", "")), quote=True)
        return f'<img src="data:image/png;base64,{png}" alt="{alt}">'
    return f"<pre>{html.escape(str(data.get('text/plain', '')))}</pre>"


@contextlib.contextmanager
def answer(summary: str | None = None) -> Iterator[Answer]:
    """Gather what the block prints and displays, and show it as a closed answer.

    Parameters
    ----------
    summary : str, optional
        The line shown while the answer is closed; by default "Answer: open it
        after your attempt", in the learner's language.

    Yields
    ------
    Answer
        Filled in when the block ends, then displayed (in a notebook) or
        printed (elsewhere). An error inside the block is raised as usual,
        after what the block printed so far is shown.

    Examples
    --------
    >>> with answer() as shown:
    ...     print(6 * 7)
    Answer: open it after your attempt
    42
    >>> shown.text
    '42\\n'
    """
    if summary is not None and not isinstance(summary, str):
        raise TypeError(
            tr(
                "summary must be text (a str), the line shown while the answer is closed; "
                "got {kind}",
                kind=type(summary).__name__,
            )
        )
    shown = Answer(summary or tr("Answer: open it after your attempt"))
    display = _display_function()
    if display is None:  # not in IPython: gather what is printed only
        buffer = io.StringIO()
        try:
            with contextlib.redirect_stdout(buffer):
                yield shown
        finally:
            shown.text = buffer.getvalue()
            sys.stdout.write(shown._repr_mimebundle_()["text/plain"] + "\n")
        return
    from IPython.utils.capture import capture_output

    captured = capture_output(stdout=True, stderr=False, display=True)
    try:
        with captured as outputs:
            yield shown
    finally:
        shown.text = outputs.stdout
        shown.outputs = [dict(output.data) for output in outputs.outputs]
        display(shown)


def _display_function():
    """IPython's ``display`` when a shell runs us (a notebook), else None."""
    ipython = sys.modules.get("IPython")
    if ipython is None or ipython.get_ipython() is None:
        return None
    from IPython.display import display

    return display
