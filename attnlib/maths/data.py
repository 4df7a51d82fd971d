"""A toy sentence, its vocabulary and a seeded embedding table: the X of the chapter.

Each random array has its own stream, ``default_rng([seed, stream])``, so
changing d_k leaves the embedding (and so X) alone, and changing d_v touches
only W_V. Entries are drawn from numpy's Generator (PCG64), whose normal
stream is the same on every platform.

The toy data is prefix-stable: a smaller size shows part of the same numbers.
Each W is drawn as (d_k, d) and transposed, so that its column c is one run of
its stream, the same for every d_k > c. A smaller d_k therefore uses the first
d_k columns of the same W_Q and W_K, and since q_i · k_j = Σ_c q_i[c] k_j[c],
each added dimension adds one term to every dot product and leaves the other
terms as they were (W_V and d_v likewise). The embedding table is drawn as
(d, V) and transposed, so the table of size d is the first d columns of every
larger one; X for n tokens is the first n rows of X for more (the first n
words, looked up). The explorers that compute in the browser rely on this:
moving the d_k, d or n slider down shows the first columns or rows of what
was there, not new numbers.

Multi-head weights (`toy_multi_head`) give each head its own stream too,
``default_rng([seed, stream, h])``, except head 0, which reuses the
single-head stream: one head is exactly `toy_example`, and adding heads
leaves the earlier heads as they were.

The sentence speaks the learner's language (``attnlib.set_language``): the
Chinese edition's is SENTENCE_ZH, whose tokens repeat exactly where the English
words repeat (token i equals token j if and only if word i equals word j). So
each Chinese token stands for one English word and takes that word's row of the
embedding table, and every X, Q, K, V, score and weight is the same number in
both editions. ``data.SENTENCE`` and ``data.VOCABULARY`` are looked
up at each use (a module ``__getattr__``), so that the notebooks' code reads
the same in both editions; `sentence` and `vocabulary` say so in code.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from .validation import as_size, language, tr

# Our own sentence: 64 words, with repeats ("the", "it", "attention", ...) so
# that a learner can see that a repeated word gets the very same row of X.
SENTENCE_EN: tuple[str, ...] = tuple(
    """the cat sat on the mat because it was warm and the dog watched it
    from the door while rain fell on the roof so every word in this line
    can look at every other word and decide which ones matter for its own
    meaning which is what attention does for each token in one step while
    the cat sleeps on the warm mat""".split()
)

# The Chinese edition's sentence, a puzzle rather than a translation: 64 tokens
# that repeat where the English words repeat ("the" seven times: 小; "cat": 猫; "on":
# 着; "and": the comma; "while": the full stop ...), read as Chinese:
# 小猫追着小老鼠沾了一身灰，小狗看见了这个小花脸。窗外下着小雨……这句中每个词元都能
# 看到这整句，决定把目光放在哪儿：注意力机制把它们各自的选择在一次计算中同时完成。
# 小猫惦记着小灰老鼠
SENTENCE_ZH: tuple[str, ...] = tuple(
    """小 猫 追 着 小 老鼠 沾 了 一身 灰 ， 小 狗 看见 了 这个 小 花脸 。
    窗外 下 着 小 雨 …… 这 句 中 每个 词元 都 能 看到 这 整 句 ，
    决定 把 目光 放 在 哪儿 ： 注意力机制 把 它们 各自 的 选择 在 一次 计算 中 同时 完成 。
    小 猫 惦记 着 小 灰 老鼠""".split()
)

#: Sorted distinct words of SENTENCE_EN: row v of the embedding table is word VOCABULARY_EN[v].
VOCABULARY_EN: tuple[str, ...] = tuple(sorted(set(SENTENCE_EN)))

#: language code -> its toy sentence; a language without one shows the English.
SENTENCES: dict[str, tuple[str, ...]] = {"en": SENTENCE_EN, "zh": SENTENCE_ZH}

#: language code -> its vocabulary, in the English rows' order: row v of the
#: embedding table is VOCABULARY_EN[v] and its translation VOCABULARIES[code][v].
VOCABULARIES: dict[str, tuple[str, ...]] = {
    code: tuple(dict(zip(SENTENCE_EN, words, strict=True))[w] for w in VOCABULARY_EN)
    for code, words in SENTENCES.items()
}
VOCABULARY_ZH: tuple[str, ...] = VOCABULARIES["zh"]

# The three tokens of `hand_example`, in each language.
_HAND_TOKENS = {"en": ("cats", "chase", "mice"), "zh": ("猫", "追", "老鼠")}

# Any language's word -> its row of the embedding table: `embed` takes either.
_ROW = {word: v for words in VOCABULARIES.values() for v, word in enumerate(words)}

_STREAM = {"embedding": 0, "W_Q": 1, "W_K": 2, "W_V": 3, "W_O": 4}
MAX_SEED = 2**32 - 1


class Example(NamedTuple):
    """A toy input and its weights.

    Attributes
    ----------
    tokens : tuple of str, length n
    X : ndarray, shape (n, d)
    W_Q, W_K : ndarray, shape (d, d_k)
    W_V : ndarray, shape (d, d_v)
    """

    tokens: tuple[str, ...]
    X: np.ndarray
    W_Q: np.ndarray
    W_K: np.ndarray
    W_V: np.ndarray


class MultiHeadExample(NamedTuple):
    """A toy input and the weights of multi-head attention.

    Attributes
    ----------
    tokens : tuple of str, length n
    X : ndarray, shape (n, d)
    W_Q, W_K : ndarray, shape (d, heads * d_k)
        Head h's block is columns ``h*d_k ... (h+1)*d_k - 1``.
    W_V : ndarray, shape (d, heads * d_v)
    W_O : ndarray, shape (heads * d_v, d_out)
    heads : int
    """

    tokens: tuple[str, ...]
    X: np.ndarray
    W_Q: np.ndarray
    W_K: np.ndarray
    W_V: np.ndarray
    W_O: np.ndarray
    heads: int


def sentence() -> tuple[str, ...]:
    """The toy sentence in the learner's language: SENTENCE_EN, or SENTENCE_ZH in Chinese.

    ``attnlib.data.SENTENCE`` is the same, looked up when it is read.

    Examples
    --------
    >>> " ".join(sentence()[:6])
    'the cat sat on the mat'
    """
    return SENTENCES.get(language(), SENTENCE_EN)


def vocabulary() -> tuple[str, ...]:
    """The vocabulary in the learner's language: row v of the embedding table is word v.

    In English the sorted distinct words of the sentence (VOCABULARY_EN); in
    another language their translations, in the same order (so that a word
    and its translation share a row). ``attnlib.data.VOCABULARY`` is the same.

    Examples
    --------
    >>> len(vocabulary()), vocabulary()[:3]
    (45, ('and', 'at', 'attention'))
    """
    return VOCABULARIES.get(language(), VOCABULARY_EN)


def local(words) -> tuple[str, ...]:
    """English toy words as the learner's language says them (each word's translation).

    For code that names toy words, such as the exercises' checks: the words
    take the same rows of the embedding table in every language.

    Examples
    --------
    >>> local(("the", "cat"))
    ('the', 'cat')
    """
    v = vocabulary()
    return tuple(v[VOCABULARY_EN.index(w)] for w in words)


def __getattr__(name: str):
    # data.SENTENCE and data.VOCABULARY follow the language each time they are read
    if name == "SENTENCE":
        return sentence()
    if name == "VOCABULARY":
        return vocabulary()
    raise AttributeError(
        tr("module {module!r} has no attribute {name!r}", module=__name__, name=name)
    )


def __dir__():
    return sorted([*globals(), "SENTENCE", "VOCABULARY"])


def tokens(n: int) -> tuple[str, ...]:
    """The first `n` tokens of the toy sentence (it repeats past its 64 tokens).

    In the learner's language: `sentence`.

    Examples
    --------
    >>> tokens(6)
    ('the', 'cat', 'sat', 'on', 'the', 'mat')
    """
    n = as_size("n", n)
    words = sentence()
    return tuple(words[i % len(words)] for i in range(n))


def embedding_table(d: int = 8, seed: int = 0) -> np.ndarray:
    """The seeded embedding table, one row of length `d` per word of the vocabulary.

    Entries are standard normal, so each coordinate of x_i has variance 1.
    Column c is the same for every d > c: a smaller table is the first
    columns of a larger one.

    Returns
    -------
    ndarray, shape (len(VOCABULARY_EN), d)
        Row v is the vector of VOCABULARY_EN[v] and of its translations.
    """
    d = as_size("d", d)
    seed = _as_seed(seed)
    rng = np.random.default_rng([seed, _STREAM["embedding"]])
    # One column after another from the stream, so that column c does not depend on d.
    V = len(VOCABULARY_EN)
    return np.ascontiguousarray(rng.standard_normal((d, V)).T)  # (d, V).T -> (V, d)


def embed(words, table: np.ndarray) -> np.ndarray:
    """Look each word up in `table`: row i of the result is the row of word i.

    The words may be English or Chinese: a word and its translation share a row.

    Returns
    -------
    ndarray, shape (n, d)
    """
    unknown = [w for w in words if w not in _ROW]
    if unknown:
        raise ValueError(
            tr(
                "words not in the vocabulary: {unknown!r}; see attnlib.data.VOCABULARY",
                unknown=unknown,
            )
        )
    return table[[_ROW[w] for w in words]]  # (n,) lookups into (V, d) -> (n, d)


def toy_example(
    n: int = 6, d: int = 8, d_k: int = 4, d_v: int | None = None, seed: int = 0
) -> Example:
    """A sentence of `n` tokens, its embedding X, and seeded W_Q, W_K, W_V.

    The W have entries of variance 1/d, so each coordinate of q_i, k_i and
    v_i has variance about 1, as with a well-initialised layer.

    Parameters
    ----------
    n : int, default 6
        Number of tokens, 1 or more (the 64-word sentence repeats past 64).
    d : int, default 8
        Embedding size.
    d_k : int, default 4
        Columns of W_Q and W_K; a smaller d_k gives the first columns of the
        same W_Q and W_K.
    d_v : int, optional
        Columns of W_V (likewise); defaults to `d_k`.
    seed : int, default 0
        From 0 to 2**32 - 1. Same seed, same numbers.

    Returns
    -------
    Example
        ``(tokens, X, W_Q, W_K, W_V)``.

    Examples
    --------
    >>> ex = toy_example(n=6, d=8, d_k=4)
    >>> ex.tokens
    ('the', 'cat', 'sat', 'on', 'the', 'mat')
    >>> ex.X.shape, ex.W_Q.shape, ex.W_V.shape
    ((6, 8), (8, 4), (8, 4))
    >>> bool((ex.X[0] == ex.X[4]).all())      # "the" twice: the same row
    True
    """
    n = as_size("n", n)
    d = as_size("d", d)
    d_k = as_size("d_k", d_k)
    d_v = d_k if d_v is None else as_size("d_v", d_v)
    seed = _as_seed(seed)
    words = tokens(n)
    X = embed(words, embedding_table(d, seed))  # (n, d)
    W_Q = _weights([seed, _STREAM["W_Q"]], d, d_k)  # (d, d_k)
    W_K = _weights([seed, _STREAM["W_K"]], d, d_k)  # (d, d_k)
    W_V = _weights([seed, _STREAM["W_V"]], d, d_v)  # (d, d_v)
    return Example(words, X, W_Q, W_K, W_V)


def toy_multi_head(
    n: int = 6,
    d: int = 8,
    d_k: int = 4,
    d_v: int | None = None,
    heads: int = 2,
    d_out: int | None = None,
    seed: int = 0,
) -> MultiHeadExample:
    """The toy sentence with seeded weights for `heads` heads and W_O.

    X is `toy_example`'s X. Head h's blocks of W_Q, W_K and W_V come from
    streams of their own (head 0's are `toy_example`'s W_Q, W_K, W_V), so
    raising `heads` adds heads without redrawing the others. W_O has
    entries of variance 1/(heads * d_v), so that the output's coordinates
    have about the size of one head's.

    Parameters
    ----------
    n, d, d_k, d_v, seed
        As in `toy_example`; d_k and d_v are the width of one head.
    heads : int, default 2
        Number of heads, 1 or more.
    d_out : int, optional
        Columns of W_O; defaults to `d`, as in a Transformer layer.

    Returns
    -------
    MultiHeadExample
        ``(tokens, X, W_Q, W_K, W_V, W_O, heads)``: pass ``ex.X, ex.W_Q,
        ex.W_K, ex.W_V, ex.W_O, heads=ex.heads`` to `multi_head_attention`.

    Examples
    --------
    >>> ex = toy_multi_head(n=6, d=8, d_k=4, heads=2)
    >>> ex.X.shape, ex.W_Q.shape, ex.W_V.shape, ex.W_O.shape
    ((6, 8), (8, 8), (8, 8), (8, 8))
    >>> bool((ex.W_Q[:, :4] == toy_example(n=6, d=8, d_k=4).W_Q).all())   # head 0
    True
    """
    n = as_size("n", n)
    d = as_size("d", d)
    d_k = as_size("d_k", d_k)
    d_v = d_k if d_v is None else as_size("d_v", d_v)
    heads = as_size("heads", heads)
    d_out = d if d_out is None else as_size("d_out", d_out)
    seed = _as_seed(seed)
    words = tokens(n)
    X = embed(words, embedding_table(d, seed))  # (n, d)

    def blocks(name: str, width: int) -> np.ndarray:
        # heads x (d, width) -> (d, heads * width), head h in columns h*width ...
        keys = [[seed, _STREAM[name]] if h == 0 else [seed, _STREAM[name], h] for h in range(heads)]
        draws = [_weights(key, d, width) for key in keys]  # as toy_example, bit for bit
        return np.concatenate(draws, axis=1)

    W_O = np.random.default_rng([seed, _STREAM["W_O"]]).standard_normal((heads * d_v, d_out))
    W_O /= math.sqrt(heads * d_v)  # (heads * d_v, d_out)
    return MultiHeadExample(
        words, X, blocks("W_Q", d_k), blocks("W_K", d_k), blocks("W_V", d_v), W_O, heads
    )


def _as_seed(seed) -> int:
    return as_size("seed", seed, minimum=0, maximum=MAX_SEED)


def _weights(key: list[int], d: int, width: int) -> np.ndarray:
    # Drawn (width, d) and transposed: column c is the stream's numbers c*d ... (c+1)*d - 1
    # whatever the width, so a narrower W is the first columns of a wider one. Variance 1/d.
    W = np.random.default_rng(key).standard_normal((width, d)).T  # (width, d).T -> (d, width)
    return np.ascontiguousarray((1 / math.sqrt(d)) * W)  # row-major again, as every other array


def hand_example() -> Example:
    """Three tokens and small whole numbers: self-attention with pencil and paper.

    The tokens are *cats chase mice*, in Chinese 猫 追 老鼠.

    n = 3 tokens, d = 4, d_k = 4 (so √d_k = 2) and d_v = 2. X holds 0s and
    1s and the W hold -1, 0 and 1, so every entry of Q, K and V is a small
    integer and every scaled score is a multiple of 0.5. The numbers were
    chosen for what they show:

    - query 1 (*chase*) clearly prefers key 2 (*mice*), weight 0.74, but not
      totally, and its own key is not its favourite;
    - query 0 gives keys 1 and 2 the same score, and so does query 2 with
      keys 0 and 1: equal scores, equal weights;
    - rows 0 and 2 of the scores differ, yet their weights are the same three
      numbers, since only differences between the scores of a row count;
    - q_1 · k_2 = (-1)(1) + (1)(1) + (1)(2) + (-1)(-1) = 3 has a negative
      product, and two negatives that multiply to a positive.

    Returns
    -------
    Example
        ``(tokens, X, W_Q, W_K, W_V)`` with X (3, 4), W_Q and W_K (4, 4),
        W_V (4, 2). Fresh arrays on every call.

    Examples
    --------
    >>> from attnlib import self_attention
    >>> ex = hand_example()
    >>> ex.tokens
    ('cats', 'chase', 'mice')
    >>> att = self_attention(ex.X, ex.W_Q, ex.W_K, ex.W_V)
    >>> att.Q[1], att.K[2]
    (array([-1.,  1.,  1., -1.]), array([ 1.,  1.,  2., -1.]))
    >>> att.scores
    array([[ 0. , -1. , -1. ],
           [-0.5,  0. ,  1.5],
           [ 0.5,  0.5,  1.5]])
    """
    X = np.array(
        [
            [1, 0, 1, 0],  # cats
            [1, 0, 0, 1],  # chase
            [1, 1, 0, 1],  # mice
        ],
        dtype=float,
    )  # (n, d) = (3, 4)
    W_Q = np.array(
        [[0, 1, 1, 0], [0, 1, 0, 1], [-1, -1, -1, 1], [-1, 0, 0, -1]], dtype=float
    )  # (d, d_k) = (4, 4)
    W_K = np.array(
        [[1, 1, 0, 0], [-1, 0, 1, -1], [0, 0, 0, 1], [1, 0, 1, 0]], dtype=float
    )  # (d, d_k) = (4, 4)
    W_V = np.array([[0, 0], [1, 0], [1, 0], [0, 1]], dtype=float)  # (d, d_v) = (4, 2)
    return Example(_HAND_TOKENS.get(language(), _HAND_TOKENS["en"]), X, W_Q, W_K, W_V)
