"""Chinese sentences for :func:`attnlib.i18n.tr`, one module per part of attnlib.

Each module holds ``MESSAGES``: the English sentence (exactly as passed to
``tr``) mapped to its Chinese, with the same ``{placeholders}``. The terms are
those of the chapter's glossary (shared/chapter/GUIDE.md, "Terms in Chinese").
"""
