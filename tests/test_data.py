"""attnlib.data: the toy sentence, its embedding, and seeded weights."""

import math

import numpy as np
import pytest

import attnlib
from attnlib import data


def test_default_example_shapes_and_tokens():
    ex = attnlib.toy_example()
    assert ex.tokens == ("the", "cat", "sat", "on", "the", "mat")
    assert ex.X.shape == (6, 8)
    assert ex.W_Q.shape == ex.W_K.shape == ex.W_V.shape == (8, 4)


def test_d_v_defaults_to_d_k_and_can_differ():
    assert attnlib.toy_example(d_k=5).W_V.shape == (8, 5)
    assert attnlib.toy_example(d_k=5, d_v=2).W_V.shape == (8, 2)


@pytest.mark.parametrize("n", [1, 2, 63, 64, 65, 200])
def test_any_length_gives_real_words(n):
    ex = attnlib.toy_example(n=n)
    assert len(ex.tokens) == n and ex.X.shape == (n, 8)
    assert set(ex.tokens) <= set(data.VOCABULARY)
    assert all(t.isalpha() for t in ex.tokens)


def test_sentence_has_64_words_and_repeats():
    assert len(data.SENTENCE) == 64
    assert len(data.VOCABULARY) < len(data.SENTENCE)


def test_repeated_word_gets_identical_row():
    ex = attnlib.toy_example(n=64, d=16, seed=3)
    for word in set(ex.tokens):
        rows = ex.X[[i for i, t in enumerate(ex.tokens) if t == word]]
        np.testing.assert_array_equal(rows, np.broadcast_to(rows[0], rows.shape))
    # and distinct words get distinct rows
    first = {t: i for i, t in reversed(list(enumerate(ex.tokens)))}
    assert len({ex.X[i].tobytes() for i in first.values()}) == len(first)


def test_X_is_the_embedding_table_lookup():
    table = data.embedding_table(d=5, seed=2)
    ex = attnlib.toy_example(n=10, d=5, seed=2)
    for i, word in enumerate(ex.tokens):
        np.testing.assert_array_equal(ex.X[i], table[data.VOCABULARY.index(word)])


def test_same_seed_same_numbers_other_seed_other_numbers():
    a, b = attnlib.toy_example(seed=11), attnlib.toy_example(seed=11)
    c = attnlib.toy_example(seed=12)
    for x, y, z in zip(a[1:], b[1:], c[1:], strict=True):
        np.testing.assert_array_equal(x, y)
        assert not np.allclose(x, z)


def test_numbers_are_pinned_across_platforms_and_numpy_versions():
    # Printed once and stored (again when the draws became column by column, for the
    # prefix property): if numpy's Generator stream ever changed, every notebook's
    # numbers would change; this test says so first.
    ex = attnlib.toy_example(seed=0)
    np.testing.assert_allclose(
        ex.X[0, :4], [0.35537271, 0.18851919, -0.76951464, 1.06693487], rtol=1e-7
    )
    np.testing.assert_allclose(ex.W_Q[0, :3], [0.03640457, -0.94589746, -0.45073618], rtol=1e-7)


def test_changing_d_k_keeps_X_and_changing_d_v_keeps_W_Q():
    a = attnlib.toy_example(d_k=4, d_v=4, seed=5)
    b = attnlib.toy_example(d_k=9, d_v=4, seed=5)
    c = attnlib.toy_example(d_k=4, d_v=2, seed=5)
    np.testing.assert_array_equal(a.X, b.X)
    np.testing.assert_array_equal(a.W_Q, c.W_Q)
    np.testing.assert_array_equal(a.W_K, c.W_K)


def test_weights_scaled_so_projections_have_unit_variance():
    ex = attnlib.toy_example(n=64, d=256, d_k=64, seed=1)
    assert ex.W_Q.std() == pytest.approx(1 / math.sqrt(256), rel=0.05)
    Q = ex.X @ ex.W_Q
    assert Q.var() == pytest.approx(1.0, rel=0.25)


@pytest.mark.parametrize(
    ("kwargs", "error", "fragment"),
    [
        ({"n": 0}, ValueError, "n must be an integer >= 1, got 0"),
        ({"d": -2}, ValueError, "d must be an integer >= 1, got -2"),
        ({"d_k": 0}, ValueError, "d_k must be an integer >= 1, got 0"),
        ({"d_v": 0}, ValueError, "d_v must be an integer >= 1, got 0"),
        ({"n": 2.5}, TypeError, "n must be an integer, got 2.5"),
        ({"d": "8"}, TypeError, "d must be an integer, got '8'"),
        ({"d_k": True}, TypeError, "d_k must be an integer, got True"),
        ({"seed": -1}, ValueError, "seed must be an integer from 0 to 4294967295, got -1"),
        ({"seed": 1.0}, TypeError, "seed must be an integer, got 1.0"),
        ({"seed": "0"}, TypeError, "seed must be an integer, got '0'"),
    ],
)
def test_toy_example_bad_arguments(kwargs, error, fragment):
    with pytest.raises(error, match=__import__("re").escape(fragment)):
        attnlib.toy_example(**kwargs)


def test_numpy_integers_are_accepted():
    ex = attnlib.toy_example(n=np.int64(3), seed=np.uint8(2))
    assert len(ex.tokens) == 3


def test_embed_names_unknown_words():
    with pytest.raises(ValueError, match="words not in the vocabulary: \\['zebra'\\]"):
        data.embed(["the", "zebra"], data.embedding_table())


def test_W_Q_and_W_K_come_from_independent_streams():
    # One stream for both would make each key its query's twin: W_K = W_Q gives k_i = q_i,
    # symmetric scores and a positive self-score for every token, not the generic layer
    # the notebooks claim to show.
    ex = attnlib.toy_example(n=4, d=16, d_k=16, seed=7)
    assert not np.allclose(ex.W_Q, ex.W_K)
    corr = np.corrcoef(ex.W_Q.ravel(), ex.W_K.ravel())[0, 1]
    assert abs(corr) < 0.25  # 256 independent pairs: |corr| above 4 standard errors
    # Nor may W_K continue W_Q's stream: then its numbers would start after however many
    # W_Q drew, and shift with d_k. With a stream of its own, W_K of shape (d, d_k) holds
    # the first d * d_k numbers of that stream (column by column), whatever d_k is.
    narrow = attnlib.toy_example(d=8, d_k=2, seed=7)
    wide = attnlib.toy_example(d=8, d_k=6, seed=7)
    np.testing.assert_array_equal(narrow.W_K.T.ravel(), wide.W_K.T.ravel()[: 8 * 2])
    np.testing.assert_array_equal(narrow.W_Q.T.ravel(), wide.W_Q.T.ravel()[: 8 * 2])


# --- prefix stability: a smaller size is part of the same numbers (the browser explorers) ---

PREFIX_SEEDS = [0, 1, 7, 42, 99, 2**32 - 1]


@pytest.mark.parametrize("seed", PREFIX_SEEDS)
def test_smaller_d_k_is_the_first_columns_of_the_same_weights(seed):
    widest = attnlib.toy_example(n=6, d=8, d_k=16, seed=seed)
    for d_k in range(1, 16):
        ex = attnlib.toy_example(n=6, d=8, d_k=d_k, seed=seed)
        np.testing.assert_array_equal(ex.W_Q, widest.W_Q[:, :d_k])
        np.testing.assert_array_equal(ex.W_K, widest.W_K[:, :d_k])
        np.testing.assert_array_equal(ex.W_V, widest.W_V[:, :d_k])  # d_v = d_k
        np.testing.assert_array_equal(ex.X, widest.X)


@pytest.mark.parametrize("seed", PREFIX_SEEDS)
def test_smaller_d_v_is_the_first_columns_of_the_same_W_V(seed):
    widest = attnlib.toy_example(d=8, d_k=4, d_v=12, seed=seed)
    for d_v in range(1, 12):
        ex = attnlib.toy_example(d=8, d_k=4, d_v=d_v, seed=seed)
        np.testing.assert_array_equal(ex.W_V, widest.W_V[:, :d_v])
        np.testing.assert_array_equal(ex.W_Q, widest.W_Q)


@pytest.mark.parametrize("seed", [0, 3, 42])
def test_each_added_dimension_adds_one_term_to_every_score(seed):
    # What the d_k slider shows: the scores at d_k + 1 are those at d_k plus q_i[c] k_j[c].
    # (Unscaled Q K^T: the division by sqrt(d_k) changes with d_k as well.)
    big = attnlib.toy_example(n=7, d=8, d_k=10, seed=seed)
    Q, K = big.X @ big.W_Q, big.X @ big.W_K  # (n, d) @ (d, d_k) -> (n, d_k)
    for d_k in range(1, 10):
        small = attnlib.toy_example(n=7, d=8, d_k=d_k, seed=seed)
        scores = (small.X @ small.W_Q) @ (small.X @ small.W_K).T  # (n, d_k) @ (d_k, n) -> (n, n)
        np.testing.assert_allclose(
            scores + np.outer(Q[:, d_k], K[:, d_k]),
            Q[:, : d_k + 1] @ K[:, : d_k + 1].T,  # (n, d_k + 1) @ (d_k + 1, n) -> (n, n)
            rtol=1e-12,
            atol=1e-12,
        )


@pytest.mark.parametrize("seed", [0, 5, 42])
@pytest.mark.parametrize("heads", [1, 2, 4])
def test_each_head_of_a_smaller_d_k_is_the_first_columns_of_that_head(seed, heads):
    widest = attnlib.toy_multi_head(d=8, d_k=9, d_v=9, heads=heads, seed=seed)
    for d_k in range(1, 9):
        ex = attnlib.toy_multi_head(d=8, d_k=d_k, d_v=d_k, heads=heads, seed=seed)
        for h in range(heads):
            for name in ("W_Q", "W_K", "W_V"):
                np.testing.assert_array_equal(
                    getattr(ex, name)[:, h * d_k : (h + 1) * d_k],
                    getattr(widest, name)[:, h * 9 : h * 9 + d_k],
                    err_msg=f"{name}, head {h}, d_k = {d_k}",
                )


@pytest.mark.parametrize("seed", PREFIX_SEEDS)
def test_smaller_d_is_the_first_columns_of_the_same_embedding(seed):
    widest = data.embedding_table(d=32, seed=seed)
    for d in range(1, 32):
        np.testing.assert_array_equal(data.embedding_table(d=d, seed=seed), widest[:, :d])
        np.testing.assert_array_equal(
            attnlib.toy_example(n=10, d=d, seed=seed).X,
            attnlib.toy_example(n=10, d=32, seed=seed).X[:, :d],
        )


@pytest.mark.parametrize("seed", PREFIX_SEEDS)
def test_smaller_n_is_the_first_rows_of_the_same_X(seed):
    longest = attnlib.toy_example(n=80, d=8, seed=seed)
    for n in range(1, 80):
        ex = attnlib.toy_example(n=n, d=8, seed=seed)
        assert ex.tokens == longest.tokens[:n]
        np.testing.assert_array_equal(ex.X, longest.X[:n])
        np.testing.assert_array_equal(ex.W_Q, longest.W_Q)


# --- toy_multi_head ---


def test_multi_head_example_shapes():
    ex = attnlib.toy_multi_head(n=5, d=8, d_k=3, d_v=2, heads=4, d_out=6, seed=1)
    assert ex.tokens == attnlib.toy_example(n=5).tokens and ex.heads == 4
    assert ex.X.shape == (5, 8)
    assert ex.W_Q.shape == ex.W_K.shape == (8, 4 * 3)
    assert ex.W_V.shape == (8, 4 * 2)
    assert ex.W_O.shape == (4 * 2, 6)
    assert attnlib.toy_multi_head(d=7, d_k=2, heads=3).W_O.shape == (3 * 2, 7)  # d_out = d


def test_multi_head_X_is_the_toy_example_X_and_head_0_its_weights():
    ex = attnlib.toy_multi_head(n=6, d=8, d_k=4, d_v=3, heads=3, seed=7)
    one = attnlib.toy_example(n=6, d=8, d_k=4, d_v=3, seed=7)
    np.testing.assert_array_equal(ex.X, one.X)
    np.testing.assert_array_equal(ex.W_Q[:, :4], one.W_Q)
    np.testing.assert_array_equal(ex.W_K[:, :4], one.W_K)
    np.testing.assert_array_equal(ex.W_V[:, :3], one.W_V)


def test_adding_heads_keeps_the_earlier_heads():
    two = attnlib.toy_multi_head(d_k=4, heads=2, seed=3)
    five = attnlib.toy_multi_head(d_k=4, heads=5, seed=3)
    np.testing.assert_array_equal(five.W_Q[:, :8], two.W_Q)
    np.testing.assert_array_equal(five.W_K[:, :8], two.W_K)
    np.testing.assert_array_equal(five.W_V[:, :8], two.W_V)


def test_every_head_and_every_matrix_has_its_own_numbers():
    ex = attnlib.toy_multi_head(d_k=4, heads=3, seed=0)
    blocks = [W[:, h * 4 : (h + 1) * 4] for W in (ex.W_Q, ex.W_K, ex.W_V) for h in range(3)]
    for a in range(len(blocks)):
        for b in range(a + 1, len(blocks)):
            assert not np.allclose(blocks[a], blocks[b])
    c = attnlib.toy_multi_head(d_k=4, heads=3, seed=1)
    assert not np.allclose(ex.W_O, c.W_O)
    np.testing.assert_array_equal(ex.W_O, attnlib.toy_multi_head(d_k=4, heads=3, seed=0).W_O)


def test_multi_head_weights_have_the_stated_variance():
    ex = attnlib.toy_multi_head(n=8, d=256, d_k=32, heads=4, seed=2)
    assert ex.W_Q.std() == pytest.approx(1 / math.sqrt(256), rel=0.05)
    assert ex.W_O.std() == pytest.approx(1 / math.sqrt(4 * 32), rel=0.05)


@pytest.mark.parametrize(
    ("kwargs", "error", "fragment"),
    [
        ({"heads": 0}, ValueError, "heads must be an integer >= 1, got 0"),
        ({"heads": 2.0}, TypeError, "heads must be an integer, got 2.0"),
        ({"d_out": 0}, ValueError, "d_out must be an integer >= 1, got 0"),
        ({"d_k": -1}, ValueError, "d_k must be an integer >= 1, got -1"),
        ({"seed": -1}, ValueError, "seed must be an integer from 0 to 4294967295, got -1"),
    ],
)
def test_toy_multi_head_bad_arguments(kwargs, error, fragment):
    with pytest.raises(error, match=__import__("re").escape(fragment)):
        attnlib.toy_multi_head(**kwargs)


# --- the Chinese edition's sentence (issue 34) ---


def pattern(words) -> list[list[int]]:
    """For each position, the positions of the same word: the sentence's equality pattern."""
    return [[j for j, other in enumerate(words) if other == word] for word in words]


@pytest.fixture
def chinese(english_afterwards):  # tests/conftest.py puts English back
    attnlib.set_language("zh")


def test_the_chinese_sentence_repeats_exactly_where_the_english_repeats():
    assert len(data.SENTENCE_ZH) == len(data.SENTENCE_EN) == 64
    assert pattern(data.SENTENCE_ZH) == pattern(data.SENTENCE_EN)
    assert len(set(data.SENTENCE_ZH)) == len(data.VOCABULARY_ZH) == 45
    # a bijection: each Chinese token stands for one English word, row for row
    pairs = set(zip(data.SENTENCE_EN, data.SENTENCE_ZH, strict=True))
    assert len(pairs) == 45
    for v, word in enumerate(data.VOCABULARY_EN):
        assert (word, data.VOCABULARY_ZH[v]) in pairs
    assert not set(data.VOCABULARY_ZH) & set(data.VOCABULARY_EN)
    assert data.SENTENCE_ZH[:6] == ("小", "猫", "追", "着", "小", "老鼠")


def test_the_sentence_and_vocabulary_follow_the_language(chinese):
    assert data.SENTENCE == data.SENTENCE_ZH and data.VOCABULARY == data.VOCABULARY_ZH
    assert data.tokens(6) == ("小", "猫", "追", "着", "小", "老鼠")
    assert data.tokens(66)[64:] == ("小", "猫")  # past 64 it starts again
    assert attnlib.toy_example(n=4).tokens == data.tokens(4)
    assert attnlib.toy_multi_head(n=5).tokens == data.tokens(5)
    assert data.hand_example().tokens == ("猫", "追", "老鼠")
    assert data.local(("the", "cat", "mat")) == ("小", "猫", "老鼠")
    from attnlib.data import VOCABULARY  # read now, in Chinese

    assert VOCABULARY[data.VOCABULARY_EN.index("the")] == "小"
    attnlib.set_language("en")
    assert data.SENTENCE == data.SENTENCE_EN and data.VOCABULARY == data.VOCABULARY_EN
    assert data.tokens(6) == ("the", "cat", "sat", "on", "the", "mat")
    assert data.hand_example().tokens == ("cats", "chase", "mice")
    assert {"SENTENCE", "VOCABULARY"} <= set(dir(data))
    with pytest.raises(AttributeError, match="VOCABULARIE"):
        data.VOCABULARIE  # noqa: B018


@pytest.mark.parametrize(
    "kwargs", [{}, {"n": 64, "d": 16, "d_k": 8, "seed": 3}, {"n": 70, "d_v": 2, "seed": 99}]
)
def test_the_chinese_example_has_the_english_numbers(kwargs):
    english = attnlib.toy_example(**kwargs)
    attnlib.set_language("zh")
    try:
        chinese = attnlib.toy_example(**kwargs)
        heads = attnlib.toy_multi_head(heads=3, **kwargs)
        hand = data.hand_example()
    finally:
        attnlib.set_language("en")
    for name in ("X", "W_Q", "W_K", "W_V"):
        np.testing.assert_array_equal(getattr(chinese, name), getattr(english, name))
    assert pattern(chinese.tokens) == pattern(english.tokens)
    assert all(t in data.VOCABULARY_ZH for t in chinese.tokens)
    np.testing.assert_array_equal(heads.W_O, attnlib.toy_multi_head(heads=3, **kwargs).W_O)
    np.testing.assert_array_equal(hand.X, data.hand_example().X)


def test_embed_takes_english_or_chinese_words():
    table = data.embedding_table(d=6, seed=4)
    english = data.embed(data.SENTENCE_EN, table)
    np.testing.assert_array_equal(data.embed(data.SENTENCE_ZH, table), english)
    np.testing.assert_array_equal(data.embed(["小", "cat", "追"], table), english[:3])
    with pytest.raises(ValueError, match="words not in the vocabulary: \\['大'\\]"):
        data.embed(["小", "大"], table)
