"""The modules' paths from before the wings: ``attnlib.stats`` is ``attnlib.maths.stats``.

Notebooks and readers' own code write ``from attnlib.plotting import Panel``
or ``attnlib.checks.check_softmax``; those paths keep working. A finder at the
front of ``sys.meta_path`` answers for the old names only and hands back the
module itself, so ``attnlib.stats is attnlib.maths.stats`` and nothing is
loaded twice. Nothing is imported before it is asked for.
"""

from __future__ import annotations

import importlib
import sys
from importlib.machinery import ModuleSpec

#: old name (under attnlib) -> the module's name now (under attnlib)
MOVED = {
    "core": "maths.core",
    "reference": "maths.reference",
    "backward": "maths.backward",
    "data": "maths.data",
    "stats": "maths.stats",
    "heatmap": "pictures.heatmap",
    "cell_values": "pictures.heatmap",  # format_value, now beside the values it writes
    "layout": "pictures.layout",
    "plotting": "pictures.plotting",
    "charts": "pictures.charts",
    "fonts": "pictures.fonts",
    "views": "explorers.views",
    "readouts": "explorers.readouts",
    "widgets": "explorers",
    "checks": "lessons.checks",
    "solutions": "lessons.solutions",
    "explanation": "explorers.explanation",
    "lookup": "maths.lookup",
    # where they were in the first wings
    "lessons.explanation": "explorers.explanation",
    "lessons.tables": "explorers.tables",
    "lessons.lookup": "maths.lookup",
    "demo": "lessons.demo",
}


def new_name(name: str) -> str | None:
    """The module's name now for an old `name` (``attnlib.checks.runner`` included), or None.

    Examples
    --------
    >>> new_name("attnlib.checks.runner"), new_name("attnlib.maths.core")
    ('attnlib.lessons.checks.runner', None)
    >>> new_name("attnlib.lessons.lookup")
    'attnlib.maths.lookup'
    """
    parts = name.split(".")
    if len(parts) < 2 or parts[0] != __package__:
        return None
    two = ".".join(parts[1:3])  # a module moved out of a wing: lessons.lookup
    if len(parts) >= 3 and two in MOVED:
        return ".".join((__package__, MOVED[two], *parts[3:]))
    if parts[1] not in MOVED:
        return None
    return ".".join((__package__, MOVED[parts[1]], *parts[2:]))


class OldPaths:
    """Finds ``attnlib.<old name>`` and loads it as the module it now is."""

    def find_spec(self, name, path=None, target=None):
        return None if new_name(name) is None else ModuleSpec(name, self)

    def create_module(self, spec):
        return None

    def exec_module(self, module) -> None:
        # The import system returns whatever sys.modules holds under the name after
        # exec_module: the real module, so the placeholder is dropped.
        name = new_name(module.__name__)
        if name == f"{__package__}.lessons.solutions":  # in the learner's language
            from .i18n import get_language
            from .lessons import solutions_in

            sys.modules[module.__name__] = solutions_in(get_language())
            return
        sys.modules[module.__name__] = importlib.import_module(name)


def install() -> None:
    """Put the finder first in ``sys.meta_path`` (once)."""
    if not any(isinstance(finder, OldPaths) for finder in sys.meta_path):
        sys.meta_path.insert(0, OldPaths())
