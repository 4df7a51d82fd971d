"""attnlib.explanation: each number explain() shows is att's own or computed from it, as printed."""

import dataclasses
import math
import re
import subprocess
import sys

import numpy as np
import pytest

import attnlib
from attnlib import reference
from attnlib.explorers.explanation import ELLIPSIS, Explanation, explain, shown
from attnlib.maths.data import hand_example


def _hand():
    ex = hand_example()
    return ex, attnlib.self_attention(*ex[1:])


def _cross(scaled=True):
    rng = np.random.default_rng(7)
    X_q, X_kv = rng.standard_normal((3, 6)), rng.standard_normal((5, 6))
    W_Q, W_K, W_V = (
        rng.standard_normal((6, 3)),
        rng.standard_normal((6, 3)),
        rng.standard_normal((6, 2)),
    )
    return attnlib.attention(X_q, X_kv, W_Q, W_K, W_V, scaled=scaled)


def _masked(att, i, keys):
    """att with keys `keys` of row i masked: score -inf, weight 0 (as a mask in core will do)."""
    scores = att.scores.copy()
    scores[i, keys] = -np.inf
    weights = attnlib.softmax(scores)
    return att._replace(scores=scores, weights=weights, Z=weights @ att.V)


def _big():
    ex = attnlib.toy_example(n=20, d=8, d_k=64, d_v=16, seed=3)
    return ex, attnlib.self_attention(*ex[1:])


def _cases():
    ex, att = _hand()
    big_ex, big = _big()
    yield "hand", att, ex.tokens, None
    yield "hand unscaled", attnlib.self_attention(*ex[1:], scaled=False), ex.tokens, None
    yield "cross", _cross(), ("a", "b", "c"), ("p", "q", "r", "s", "t")
    yield "cross unscaled", _cross(scaled=False), None, None
    yield "big", big, big_ex.tokens, None
    yield "hand masked", _masked(att, 1, [0]), ex.tokens, None
    yield "big masked", _masked(big, 4, [0, 9, 19]), big_ex.tokens, None


CASES = {name: (att, tokens, key_tokens) for name, att, tokens, key_tokens in _cases()}


def _pairs(att):
    n_q, n_kv = att.scores.shape
    return [(i, j) for i in range(n_q) for j in [None, *range(n_kv)]]


# --- the numbers: att's own, or computed from att's arrays the way they are shown ---


@pytest.mark.parametrize("name", CASES)
def test_every_number_is_atts_or_computed_from_it(name):
    att, tokens, key_tokens = CASES[name]
    d_k = att.Q.shape[1]
    for i, j in _pairs(att):
        e = explain(att, i, j, tokens=tokens, key_tokens=key_tokens)
        np.testing.assert_array_equal(e.q_i, att.Q[i])
        np.testing.assert_array_equal(e.scores, att.scores[i])
        np.testing.assert_array_equal(e.weights, att.weights[i])
        np.testing.assert_array_equal(e.V, att.V)
        np.testing.assert_array_equal(e.z_i, att.Z[i])
        assert e.divisor == (math.sqrt(d_k) if att.scaled else 1.0)
        # row i, checked by plain Python (an independent computation)
        finite = [s for s in att.scores[i] if s != -math.inf]
        assert e.row_max == max(finite)
        for jj, s in enumerate(att.scores[i]):
            if s == -math.inf:
                assert e.shifted[jj] == -math.inf and e.exps[jj] == 0.0 and e.weights[jj] == 0.0
            else:
                assert e.shifted[jj] == s - max(finite)
                assert e.exps[jj] == pytest.approx(math.exp(s - max(finite)), rel=1e-14)
            np.testing.assert_allclose(e.terms[jj], [e.weights[jj] * v for v in att.V[jj]])
        assert e.exp_sum == pytest.approx(math.fsum(e.exps), rel=1e-14)
        np.testing.assert_allclose(e.exps / e.exp_sum, att.weights[i], rtol=1e-12, atol=1e-300)
        assert e.weight_sum == pytest.approx(1.0, rel=1e-12)
        np.testing.assert_allclose(e.terms.sum(axis=0), att.Z[i], rtol=1e-12, atol=1e-12)
        if j is None:
            assert e.k_j is e.products is e.dot is e.quotient is e.score is None
            continue
        np.testing.assert_array_equal(e.k_j, att.K[j])
        np.testing.assert_array_equal(
            e.products, [a * b for a, b in zip(att.Q[i], att.K[j], strict=True)]
        )
        assert e.dot == pytest.approx(reference.dot(att.Q[i], att.K[j]), rel=1e-12, abs=1e-12)
        assert e.quotient == e.dot / e.divisor
        assert e.score == att.scores[i, j]
        if att.scores[i, j] != -math.inf:
            assert e.quotient == pytest.approx(e.score, rel=1e-12, abs=1e-12)


def test_hand_example_numbers_by_hand():
    ex, att = _hand()
    e = explain(att, 1, 2, tokens=ex.tokens)
    assert (e.query_token, e.key_tokens) == ("chase", ("cats", "chase", "mice"))
    assert e.products.tolist() == [-1, 1, 2, 1] and e.dot == 3 and e.divisor == 2
    assert e.score == 1.5 and e.row_max == 1.5
    assert e.shifted.tolist() == [-2.0, -1.5, 0.0]
    np.testing.assert_allclose(e.weights, [0.0996, 0.1643, 0.7361], atol=5e-5)
    np.testing.assert_allclose(e.z_i, [0.8357, 0.9004], atol=5e-5)


# --- the text shows those numbers, formatted ---


def _section(text, number):
    for block in text.split("\n\n"):
        if block.startswith(f"{number}. "):
            return block.splitlines()
    raise AssertionError(f"no section {number} in\n{text}")


def _row(lines, index):
    """The table line of a section whose first cell is `index` (after the > mark)."""
    for line in lines:
        cells = line[3:].split()
        if cells and cells[0] == str(index):
            return line
    raise AssertionError(f"no row {index} in {lines}")


@pytest.mark.parametrize("name", CASES)
def test_text_shows_the_numbers(name):
    att, tokens, key_tokens = CASES[name]
    for i, j in _pairs(att):
        e = explain(att, i, j, tokens=tokens, key_tokens=key_tokens)
        text = str(e)
        assert text == e.text() and "nan" not in text
        f = e.number
        step = 1
        if j is not None:
            lines = _section(text, 1)
            for c in e.shown_coords:
                assert _row(lines, c)[3:].split() == [
                    str(c), f(e.q_i[c]), f(e.k_j[c]), f(e.products[c])
                ]  # fmt: skip
            assert f"q_{i} · k_{j} = {f(e.dot)}" in text
            assert f"→  {f(e.quotient)}" in text
            if att.scaled:
                assert f"÷ √d_k = √{e.d_k} = {f(e.divisor)}" in text
            else:
                assert "no division" in text and "÷" not in text
            if e.score == -math.inf:
                assert f"score[{i}, {j}] = -inf" in text
            else:
                assert f"score[{i}, {j}] = {f(e.score)}" in text
            step = 2
        lines = _section(text, step)
        for jj in e.shown_keys:
            line = _row(lines, jj)
            assert line.startswith(" > ") == (jj == j)
            label = [] if e.key_tokens is None else [e.key_tokens[jj]]
            numbers = [f(e.scores[jj]), f(e.shifted[jj]), f(e.exps[jj]), f(e.weights[jj])]
            masked = ["masked"] if e.masked[jj] else []
            assert line[3:].split() == [str(jj), *label, *numbers, *masked]
        assert lines[-2].split()[-2:] == [f(e.exp_sum), f(e.weight_sum)]
        assert f"max = {f(e.row_max)}" in lines[-1]
        lines = _section(text, step + 1)
        for jj in e.shown_keys:
            line = _row(lines, jj)
            assert f(e.weights[jj]) in line
            vectors = re.findall(r"\[[^\]]*\]", line)
            assert vectors == [e._vector(e.V[jj]), e._vector(e.terms[jj])]
            for vector, row in zip(vectors, (e.V[jj], e.terms[jj]), strict=True):
                shown_numbers = [x for x in vector[1:-1].split() if x != ELLIPSIS]
                assert shown_numbers == [f(row[c]) for c in e.shown_values]
        z_line = next(line for line in lines[1:] if line[3:].startswith(f"z_{i}"))
        z_numbers = [x for x in re.findall(r"\[([^\]]*)\]", z_line)[0].split() if x != ELLIPSIS]
        assert z_numbers == [f(e.z_i[c]) for c in e.shown_values]


def test_sample_text_of_the_hand_example():
    ex, att = _hand()
    text = str(explain(att, 1, 2, tokens=ex.tokens))
    assert text.splitlines()[0] == (
        "query i = 1 'chase', key j = 2 'mice'  (3 keys, d_k = 4, d_v = 2, scaled by √d_k)"
    )
    for expected in (
        "   3  -1.000  -1.000    1.000",  # (-1)(-1) = 1
        "sum of the 4 products = q_1 · k_2 = 3.000",
        "÷ √d_k = √4 = 2.000  →  1.500",
        " >   2  mice         1.500   0.000  1.000    0.736",
        "   sum                              1.358    1.000",
        " >   2  mice     0.736  [1.000 1.000]  [0.736 0.736]",
        "   z_1                                 [0.836 0.900]",
    ):
        assert expected in text, expected


def test_decimals_change_the_printing_not_the_numbers():
    _, att = _hand()
    e = explain(att, 1, 2, decimals=5)
    assert "0.73612" in str(e) and "0.736 " not in str(e)
    np.testing.assert_array_equal(e.weights, explain(att, 1, 2).weights)
    assert explain(att, 1, 2, decimals=0).number(1.5) == "2"


def test_negative_zero_is_printed_as_zero():
    _, att = _hand()
    e = explain(att, 1)
    assert e.number(-1e-9) == "0.000" and e.number(-0.0) == "0.000"
    assert "-0.000" not in str(_masked_row_text())


def _masked_row_text():
    _, att = _hand()
    return explain(_masked(att, 1, [0, 2]), 1, 2)  # terms 0 * v and 0 * (-v)


# --- long vectors: elided in the middle, by a documented rule ---


@pytest.mark.parametrize(
    ("m", "max_items", "keep", "expected"),
    [
        (3, 6, (), [0, 1, 2]),
        (6, 6, (), [0, 1, 2, 3, 4, 5]),
        (7, 6, (), [0, 1, 2, 4, 5, 6]),
        (64, 8, (), [0, 1, 2, 3, 60, 61, 62, 63]),
        (64, 5, (), [0, 1, 2, 62, 63]),
        (64, 2, (), [0, 63]),
        (20, 6, (10,), [0, 1, 2, 10, 17, 18, 19]),
        (20, 6, (1,), [0, 1, 2, 17, 18, 19]),
        (20, 6, (25, -1), [0, 1, 2, 17, 18, 19]),
    ],
)
def test_shown_rule(m, max_items, keep, expected):
    assert shown(m, max_items, keep) == expected


def test_long_vectors_are_elided_and_key_j_always_shown():
    ex, att = _big()
    e = explain(att, 4, 10, tokens=ex.tokens)
    text = str(e)
    assert e.shown_coords == [0, 1, 2, 61, 62, 63]
    assert e.shown_keys == [0, 1, 2, 10, 17, 18, 19]
    assert e.shown_values == [0, 1, 2, 13, 14, 15]
    score_lines = _section(text, 1)
    assert sum(line.split() == [ELLIPSIS] * 4 for line in score_lines) == 1
    assert "sum of the 64 products (58 not shown)" in text
    row_lines = _section(text, 2)
    assert sum(line.split()[:1] == [ELLIPSIS] for line in row_lines) == 2  # before and after j
    assert _row(row_lines, 10).startswith(" > ")
    assert "(sums run over all 20 keys, 13 not shown)" in text
    assert all(len(line) < 130 for line in text.splitlines())
    # nothing hidden when everything fits
    assert ELLIPSIS not in str(explain(att, 4, 10, max_items=64))


def test_sums_are_over_every_entry_not_the_shown_ones():
    _, att = _big()
    e = explain(att, 4, 10)
    assert e.dot == pytest.approx(reference.dot(att.Q[4], att.K[10]), rel=1e-12)
    shown_part = sum(e.products[c] for c in e.shown_coords)
    assert abs(shown_part - e.dot) > 1e-6  # the elided products count too


# --- masked keys: -inf scores shown as masked, weight exactly 0, never nan ---


def test_masked_keys_are_shown_as_masked_never_nan():
    ex, att = _hand()
    masked = _masked(att, 1, [2])
    with np.errstate(all="raise"):
        e = explain(masked, 1, 2, tokens=ex.tokens)
    assert e.masked.tolist() == [False, False, True]
    assert e.exps[2] == 0.0 and e.weights[2] == 0.0 and (e.terms[2] == 0.0).all()
    assert e.quotient == 1.5 and e.score == -math.inf
    text, page = str(e), e.html()
    assert "nan" not in text.lower() and "nan" not in page.lower()
    assert "key 2 is masked: score[1, 2] = -inf, so α[1, 2] = 0" in text
    assert _row(_section(text, 2), 2).split()[-2:] == ["0.000", "masked"]
    assert "-inf" in page and "masked" in page
    # the other two keys share the unit of weight
    assert e.weights[:2].sum() == pytest.approx(1.0)


# --- HTML ---


def test_html_is_a_compact_fragment_with_the_same_numbers():
    ex, att = _hand()
    e = explain(att, 1, 2, tokens=ex.tokens)
    page = e.html()
    assert e._repr_html_() == page
    assert page.startswith('<div class="attnlib-explain"') and page.endswith("</div>")
    for tag in ("<style", "<script", "<html", "<body"):
        assert tag not in page
    for x in [*e.q_i, *e.k_j, *e.products, *e.scores, *e.shifted, *e.exps, *e.weights]:
        assert f">{e.number(x)}<" in page
    assert e._vector(e.z_i) in page and "score<sub>1,2</sub>" in page
    highlighted = re.findall(r'<tr style="background[^"]*">(.*?)</tr>', page)
    assert len(highlighted) == 2 and all(">mice<" in row for row in highlighted)


def test_html_escapes_token_labels():
    _, att = _hand()
    page = explain(att, 0, 1, tokens=("<b>", "a&b", "x")).html()
    assert "&lt;b&gt;" in page and "a&amp;b" in page and "<b>&" not in page


# --- cross-attention, labels, reprs ---


def test_cross_attention_labels_queries_and_keys_apart():
    att = _cross()
    e = explain(att, 2, 4, tokens=("a", "b", "c"), key_tokens=("p", "q", "r", "s", "t"))
    assert e.query_token == "c" and e.key_tokens[4] == "t" and e.n_kv == 5
    assert str(e).startswith("query i = 2 'c', key j = 4 't'  (5 keys, d_k = 3, d_v = 2")
    only_keys = explain(att, 2, 4, key_tokens=tuple("pqrst"))
    assert only_keys.query_token is None and only_keys.key_tokens == tuple("pqrst")


def test_without_tokens_there_is_no_key_column():
    _, att = _hand()
    lines = _section(str(explain(att, 1)), 1)
    assert lines[1].split() == ["j", "score[1,", "j]", "−", "max", "exp", "α[1,", "j]"]


def test_repr_is_short_and_frozen():
    _, att = _hand()
    e = explain(att, 1, 2)
    assert repr(e) == "<Explanation of att: i=1, j=2; print() it for the numbers>"
    with pytest.raises(dataclasses.FrozenInstanceError):
        e.i = 0
    with pytest.raises(ValueError, match="read-only"):
        e.weights[0] = 1.0
    assert att.weights.flags.writeable  # att's own arrays are untouched
    assert isinstance(attnlib.explain(att, 0), Explanation)


def test_numpy_integers_are_accepted():
    _, att = _hand()
    e = explain(att, np.int64(1), np.int32(2))
    assert (e.i, e.j) == (1, 2) and type(e.i) is int


# --- bad input ---


@pytest.mark.parametrize(
    ("i", "j", "message"),
    [
        (3, None, "i = 3 is out of range: att has 3 queries (rows of att.scores), so i must be from 0 to 2"),  # noqa: E501
        (-1, None, "i = -1 is out of range"),
        (0, 3, "j = 3 is out of range: att has 3 keys (columns of att.scores), so j must be from 0 to 2"),  # noqa: E501
        (0, -2, "j = -2 is out of range"),
    ],
)  # fmt: skip
def test_bad_index_names_the_valid_range(i, j, message):
    _, att = _hand()
    with pytest.raises(IndexError, match=re.escape(message)):
        explain(att, i, j)


def test_cross_attention_ranges_are_n_q_and_n_kv():
    att = _cross()  # 3 queries, 5 keys
    explain(att, 2, 4)
    with pytest.raises(IndexError, match="from 0 to 2"):
        explain(att, 3, 0)
    with pytest.raises(IndexError, match="from 0 to 4"):
        explain(att, 0, 5)


@pytest.mark.parametrize("bad", [1.0, "1", True, None])
def test_non_integer_index_is_a_type_error(bad):
    _, att = _hand()
    with pytest.raises(TypeError, match="i must be an integer"):
        explain(att, bad)
    if bad is not None:
        with pytest.raises(TypeError, match="j must be an integer"):
            explain(att, 0, bad)


def test_bad_tokens():
    _, att = _hand()
    with pytest.raises(ValueError, match="tokens has 2 labels but att has 3 queries"):
        explain(att, 0, tokens=("a", "b"))
    with pytest.raises(TypeError, match="tokens must be a sequence of strings"):
        explain(att, 0, tokens="abc")  # one string: almost certainly a slip
    with pytest.raises(TypeError, match="tokens must hold strings"):
        explain(att, 0, tokens=(1, 2, 3))
    with pytest.raises(ValueError, match="pass key_tokens"):
        explain(_cross(), 0, tokens=("a", "b", "c"))  # 5 keys need their own labels
    with pytest.raises(ValueError, match="key_tokens has 3 labels but att has 5 keys"):
        explain(_cross(), 0, key_tokens=("a", "b", "c"))


def test_bad_att_and_options():
    _, att = _hand()
    with pytest.raises(TypeError, match="att must be an attnlib Attention"):
        explain(att.scores, 0)
    with pytest.raises(ValueError, match="max_items must be an integer of at least 2"):
        explain(att, 0, max_items=1)
    with pytest.raises(ValueError, match="decimals must be from 0 to 12"):
        explain(att, 0, decimals=20)


# --- light import ---


def test_explain_loads_numpy_only():
    code = (
        "import sys, attnlib\n"
        "attnlib.explain(attnlib.self_attention(*attnlib.data.hand_example()[1:]), 0, 1)\n"
        "print(attnlib.explain.__module__, callable(attnlib.explain))\n"
        "print(sorted(m for m in ('matplotlib', 'ipywidgets', 'IPython') if m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split("\n")[:2] == ["attnlib.explorers.explanation True", "[]"]
