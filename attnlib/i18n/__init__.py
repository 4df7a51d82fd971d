"""The language wing: what a learner reads, in the language they chose.

Here live the mechanism (:mod:`.translate`: ``set_language``, ``tr``, the
catalogue loader) and one catalogue package per language besides English
(:mod:`.zh`: the Chinese sentences, one module per wing of attnlib). It imports
nothing of attnlib, so that every other wing may import it.
"""

from .translate import LANGUAGES, catalog, get_language, set_language, tr

__all__ = ["LANGUAGES", "catalog", "get_language", "set_language", "tr"]
