"""The tables of an explanation, as text for a terminal and as HTML for a notebook.

:mod:`.explanation` works out the numbers; these functions only lay them out:
a row is ``(highlighted, cells)``, and the highlighted row (key j) is marked
with ">" in text and a yellow background in HTML. Formula labels such as
``q_1`` or ``score[1, 2]`` get subscripts in HTML.
"""

from __future__ import annotations

import html as _html
import re
from typing import NamedTuple

from ..i18n import columns, tr

__all__ = ["Section", "html_cell", "html_table", "label", "text_table", "width"]

HIGHLIGHT = "background: #fff1a8; font-weight: bold"
MUTED = "color: #666"  # 5.7:1 on white, 5:1 on the highlight: readable (WCAG AA)


class Section(NamedTuple):
    """One table of an explanation: its title, header, rows, footer and notes under it."""

    title: str
    header: list[str]
    rows: list[tuple[bool, list[str]]]  # (highlighted, cells)
    footer: list[str] | None = None
    notes: tuple[str, ...] = ()


def label(text: str) -> str:
    # The HTML face of a text label: q_1 -> q<sub>1</sub>, score[1, 2] -> score<sub>1,2</sub>
    text = _html.escape(text)
    text = re.sub(r"(?<!\w)([qkvzdΣ])_(\w+)", r"\1<sub>\2</sub>", text)
    return re.sub(r"(score|α)\[(\w+), (\w+)\]", r"\1<sub>\2,\3</sub>", text)


width = columns  # columns a terminal gives `text`: Chinese characters take two


def text_table(header: list[str], rows: list, footer: list[str] | None = None) -> list[str]:
    # rows are (highlighted, cells) pairs; ">" marks the highlighted ones
    every = [header] + [cells for _, cells in rows] + ([footer] if footer else [])
    widths = [max(width(cells[k]) for cells in every) for k in range(len(header))]
    key = tr("key")  # the one column aligned left

    def line(cells: list[str], mark: str) -> str:
        parts = [
            c + " " * (w - width(c)) if h == key else " " * (w - width(c)) + c
            for c, w, h in zip(cells, widths, header, strict=True)
        ]
        return f" {mark} " + "  ".join(parts).rstrip()

    out = [line(header, " ")]
    out += [line(cells, ">" if hot else " ") for hot, cells in rows]
    if footer:
        out.append(line(footer, " "))
    return out


def html_table(header: list[str], rows: list, footer: list[str] | None = None) -> str:
    pad = "padding: 0 0.4em; white-space: pre; text-align"
    key = tr("key")
    align = [f'style="{pad}: {"left" if h == key else "right"}"' for h in header]
    head = "".join(f"<th {a}>{label(h)}</th>" for a, h in zip(align, header, strict=True))
    body = []
    for hot, cells in rows:
        style = f' style="{HIGHLIGHT}"' if hot else ""
        tds = []
        for a, c in zip(align, cells, strict=True):
            tds.append(f"<td {a}>{html_cell(c)}</td>")
        body.append(f"<tr{style}>{''.join(tds)}</tr>")
    if footer:
        cells = [html_cell(c) if c.startswith("[") else label(c) for c in footer]
        tds = "".join(f"<td {a}>{c}</td>" for a, c in zip(align, cells, strict=True))
        body.append(f'<tr style="border-top: 1px solid #999">{tds}</tr>')
    return (
        '<table style="border-collapse: collapse; font-size: inherit; '
        'font-variant-numeric: tabular-nums; margin: 0.2em 0">'
        f"<tr>{head}</tr>{''.join(body)}</table>"
    )


def html_cell(text: str) -> str:
    if text.startswith("["):  # a vector: its padding lines up only in a monospace font
        return f'<span style="font-family: monospace">{_html.escape(text)}</span>'
    if text.endswith(tr("masked")) or text == "-inf":
        return f'<span style="{MUTED}">{_html.escape(text)}</span>'
    return _html.escape(text)
