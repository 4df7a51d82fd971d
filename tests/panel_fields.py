"""Every field of Panel set to a value other than its default, for the tests that draw each
both ways a panel is drawn: a static figure (tests/test_heatmap.py) and the page
(tests/browser/test_page_explorer.py); and the fields each way cannot show, with the reason.

Each panel is drawn beside SHARING, so that share_limit has a panel to share with.
"""

from __future__ import annotations

import numpy as np

from attnlib.pictures.panel import Panel

BASE = Panel(matrix=np.array([[0.5, -0.2, 0.1], [0.3, 0.9, -0.4], [-0.1, 0.2, 0.6]]))
#: field -> a value other than its default, each drawn beside a panel with the default
SET = {
    "matrix": np.array([[0.1, 0.2, 0.3], [0.4, 0.5, 0.6], [0.7, 0.8, 0.9]]),
    "title": "scores",
    "row_labels": ("the", "cat", "sat"),
    "col_labels": ("the", "cat", "sat"),
    "xlabel": "key j",
    "ylabel": "query i",
    "kind": "weights",
    "diagonal": True,
    "values": False,  # a 3 × 3 panel writes its values unless told not to
    "min_value_cell": 1000.0,  # no cell this large: no values
    "limit": 15.0,
    "colorbar": False,
    "share_limit": True,  # beside a panel of larger numbers that shares its limit
    "mask": np.array([[True, False, False], [True, True, False], [True, True, True]]),
}
#: (field, value): each of SET, and the values of a field with more than two (every kind)
CASES = [*SET.items(), ("kind", "sequential")]
#: fields a static figure cannot show, with the reason (the page draws them: tests/browser)
STATIC_FIGURE_IGNORES = {
    "selectable": "which panels a click or an arrow key selects a cell in: a figure has no "
    "selection (Heatmap.select outlines a cell in any panel)",
}
SHARING = Panel(matrix=[[8.0, -8.0]], share_limit=True)  # the second panel of every figure

#: Panel fields the page's module draws nothing for, with the reason
PAGE_IGNORES = {
    "min_value_cell": "the page writes a cell's value only in a font of 9 px or more that fits "
    "the cell (values() in explorer.js): its own floor, in CSS pixels, where this one is in "
    "points of a PNG",
}
