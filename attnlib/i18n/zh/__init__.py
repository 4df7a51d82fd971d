"""Chinese sentences for :func:`attnlib.i18n.tr`, one module per part of attnlib.

Each module holds ``MESSAGES``: the English sentence (exactly as passed to
``tr``) mapped to its Chinese, with the same ``{placeholders}``. Each term of
the chapter has one Chinese word, used the same way every time (查询向量 query,
键向量 key, 值向量 value, 注意力权重 attention weights, 词元 token, ...).
"""
