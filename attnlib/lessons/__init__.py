"""The lessons wing: what the notebooks teach with, beyond the maths and the pictures.

Here live the self-checks of the exercises (:mod:`.checks`) and their worked
answers (:mod:`.solutions`, in English; a language may add its own,
``solutions_<code>``, such as :mod:`.solutions_zh`: the same code with its docstrings
and comments translated) and the error shown on purpose (:mod:`.demo`). It may
import the maths and i18n wings (and the pictures, were a lesson to need one);
only attnlib's top level imports it. It never imports matplotlib or ipywidgets at
module level. (The breakdown of a score, ``explain``, lives with the readouts that
show it, in the explorers wing; the lookup task trained in notebook 06, a model
in numpy, in the maths wing.)
"""

from __future__ import annotations

import importlib
import importlib.util
from types import ModuleType


def solutions_in(language: str) -> ModuleType:
    """The worked solutions a learner reading `language` opens (``attnlib.solutions``).

    ``solutions_<language>`` where the lessons have one, else the English
    :mod:`.solutions`: a language adds its module and nothing else changes.

    Examples
    --------
    >>> solutions_in("zh").__name__, solutions_in("en").__name__
    ('attnlib.lessons.solutions_zh', 'attnlib.lessons.solutions')
    """
    name = f"{__name__}.solutions_{language}"
    if not language.isidentifier() or importlib.util.find_spec(name) is None:
        name = f"{__name__}.solutions"
    return importlib.import_module(name)
