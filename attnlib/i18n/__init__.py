"""The language wing: what a learner reads, in the language they chose.

Here live the mechanism (:mod:`.translate`: ``set_language``, ``tr``, the
catalogue loader), one record per language of all that differs between the
editions (:mod:`.languages`: notebooks folder, set-up line, font, JupyterLab
locale and settings) and one catalogue package per language besides English
(:mod:`.zh`: the Chinese sentences, one module per wing of attnlib). It imports
nothing of attnlib, so that every other wing may import it.
"""

from .languages import EDITIONS, Font, Language, edition
from .translate import LANGUAGES, catalog, get_language, set_language, tr
from .width import columns, pad

__all__ = [
    "EDITIONS",
    "LANGUAGES",
    "Font",
    "Language",
    "catalog",
    "columns",
    "edition",
    "get_language",
    "pad",
    "set_language",
    "tr",
]
