"""Every number behind one score, one row of weights and one output: ``explain(att, i, j)``.

An :class:`Explanation` holds the numbers, read from an :class:`~attnlib.core.Attention`
or computed from its arrays in the way they are shown, and prints them three
ways: ``str()`` or ``.text()`` for a terminal, ``.html()`` (also shown by a
notebook) as a compact fragment that fits under an explorer's pictures.

Long vectors are elided in the middle: with the default ``max_items=6`` a
list of more than 6 entries shows its first 3 and last 3 (plus key j,
wherever it is), with "…" for the rest. Sums are always over every entry, shown or not.

numpy only: no matplotlib, no ipywidgets. (The module is not called
``explain``: importing a submodule of that name would replace the function
``attnlib.explain`` with the module.)
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..i18n import tr
from ..maths.core import Attention
from .tables import Section, html_table, label, text_table

__all__ = ["ELLIPSIS", "Explanation", "explain", "shown"]

ELLIPSIS = "…"


def shown(m: int, max_items: int, keep: Sequence[int] = ()) -> list[int]:
    """Which of `m` entries a readout shows: all, or the first and last few plus `keep`.

    With ``m <= max_items`` every index is shown. Otherwise the first
    ``ceil(max_items / 2)`` and the last ``floor(max_items / 2)`` are shown,
    together with every index in `keep` (e.g. the highlighted key j); a gap
    between shown indices is printed as "…".

    Examples
    --------
    >>> shown(5, 8)
    [0, 1, 2, 3, 4]
    >>> shown(64, 8)
    [0, 1, 2, 3, 60, 61, 62, 63]
    >>> shown(64, 8, keep=[30])
    [0, 1, 2, 3, 30, 60, 61, 62, 63]
    """
    if m <= max_items:
        return list(range(m))
    head = (max_items + 1) // 2
    tail = max_items // 2
    picked = set(range(head)) | set(range(m - tail, m)) | {k for k in keep if 0 <= k < m}
    return sorted(picked)


@dataclass(frozen=True, eq=False, repr=False)
class Explanation:
    """The numbers behind query i's row (and key j's score) of one attention pass.

    Made by :func:`explain`; every array attribute is a read-only copy, so an
    explanation kept by an explorer cannot drift from the numbers it printed.

    Attributes
    ----------
    i : int
        The query (row of ``att.scores``).
    j : int or None
        The key whose score is taken apart, if one was given.
    query_token : str or None
        Label of query i.
    key_tokens : tuple of str, length n_kv, or None
        Labels of the keys.
    scaled : bool
        ``att.scaled``: whether the scores were divided by √d_k.
    q_i : ndarray, shape (d_k,)
        ``att.Q[i]``.
    k_j : ndarray, shape (d_k,), or None
        ``att.K[j]``.
    products : ndarray, shape (d_k,), or None
        ``q_i * k_j``, coordinate by coordinate.
    dot : float or None
        ``products.sum()``, that is q_i · k_j.
    divisor : float
        √d_k when scaled, else 1.
    quotient : float or None
        ``dot / divisor``; equal to `score` unless key j is masked.
    score : float or None
        ``att.scores[i, j]`` (``-inf`` when key j is masked).
    scores : ndarray, shape (n_kv,)
        ``att.scores[i]``: row i, every key.
    row_max : float
        ``scores.max()``.
    shifted : ndarray, shape (n_kv,)
        ``scores - row_max``; masked keys stay ``-inf``.
    exps : ndarray, shape (n_kv,)
        ``exp(shifted)``; exactly 0 for masked keys.
    exp_sum : float
        ``exps.sum()``.
    weights : ndarray, shape (n_kv,)
        ``att.weights[i]``, which equals ``exps / exp_sum``.
    V : ndarray, shape (n_kv, d_v)
        ``att.V``: the values mixed.
    terms : ndarray, shape (n_kv, d_v)
        ``weights[:, None] * V``: row j is α_ij v_j.
    z_i : ndarray, shape (d_v,)
        ``att.Z[i]``, which equals ``terms.sum(axis=0)``.
    max_items, decimals : int
        How many entries of a long vector are shown, and the decimals printed.
    """

    i: int
    j: int | None
    query_token: str | None
    key_tokens: tuple[str, ...] | None
    scaled: bool
    q_i: np.ndarray
    k_j: np.ndarray | None
    products: np.ndarray | None
    dot: float | None
    divisor: float
    quotient: float | None
    score: float | None
    scores: np.ndarray
    row_max: float
    shifted: np.ndarray
    exps: np.ndarray
    exp_sum: float
    weights: np.ndarray
    V: np.ndarray
    terms: np.ndarray
    z_i: np.ndarray
    max_items: int = 6
    decimals: int = 3

    def __post_init__(self) -> None:
        for value in vars(self).values():
            if isinstance(value, np.ndarray):
                value.setflags(write=False)

    # --- sizes and derived numbers ---

    @property
    def d_k(self) -> int:
        return self.q_i.shape[0]

    @property
    def d_v(self) -> int:
        return self.V.shape[1]

    @property
    def n_kv(self) -> int:
        return self.scores.shape[0]

    @property
    def masked(self) -> np.ndarray:
        """Boolean, shape (n_kv,): keys that query i may not see (score ``-inf``)."""
        return np.isneginf(self.scores)

    @property
    def weight_sum(self) -> float:
        """``weights.sum()``: 1 up to rounding."""
        return float(self.weights.sum())

    @property
    def shown_coords(self) -> list[int]:
        """Coordinates c of q_i and k_j that are printed (see :func:`shown`)."""
        return shown(self.d_k, self.max_items)

    @property
    def shown_keys(self) -> list[int]:
        """Keys j of row i that are printed; key `j` always is."""
        return shown(self.n_kv, self.max_items, keep=() if self.j is None else (self.j,))

    @property
    def shown_values(self) -> list[int]:
        """Coordinates of v_j and z_i that are printed."""
        return shown(self.d_v, self.max_items)

    # --- formatting helpers ---

    def number(self, x: float) -> str:
        """One number as printed: `decimals` places, ``-inf`` for a masked score, never nan.

        Examples
        --------
        >>> from attnlib import self_attention
        >>> from attnlib.data import hand_example
        >>> e = explain(self_attention(*hand_example()[1:]), 1)
        >>> e.number(0.5), e.number(-1e-9), e.number(float("-inf"))
        ('0.500', '0.000', '-inf')
        """
        x = float(x)
        if x == -math.inf:
            return "-inf"
        text = f"{x:.{self.decimals}f}"
        return text[1:] if text.startswith("-") and float(text) == 0 else text

    def _key(self, j: int) -> str:
        return "" if self.key_tokens is None else self.key_tokens[j]

    def _vector(self, values: np.ndarray) -> str:
        parts, last = [], -1
        for c in self.shown_values:
            if c > last + 1:
                parts.append(ELLIPSIS)
            parts.append(self.number(values[c]))
            last = c
        width = max(len(p) for p in parts)
        return "[" + " ".join(p.rjust(width) for p in parts) + "]"

    def _title(self) -> str:
        q = tr("query i = {i}", i=self.i)
        q += "" if self.query_token is None else f" {self.query_token!r}"
        k = ""
        if self.j is not None:
            k = tr(", key j = {j}", j=self.j) + (
                "" if self.key_tokens is None else f" {self._key(self.j)!r}"
            )
        how = tr("scaled by √d_k") if self.scaled else tr("unscaled")
        return tr(
            "{query}{key}  ({n} keys, d_k = {d_k}, d_v = {d_v}, {how})",
            query=q,
            key=k,
            n=self.n_kv,
            d_k=self.d_k,
            d_v=self.d_v,
            how=how,
        )

    # --- the three steps, as sections shared by text() and html() ---

    def _sections(self) -> list[Section]:
        sections = [] if self.j is None else [self._score_section()]
        return [*sections, self._softmax_section(), self._mix_section()]

    def _score_section(self) -> Section:
        i, j = self.i, self.j
        rows, last = [], -1
        for c in self.shown_coords:
            if c > last + 1:
                rows.append((False, [ELLIPSIS] * 4))
            cells = [self.q_i[c], self.k_j[c], self.products[c]]
            rows.append((False, [str(c), *map(self.number, cells)]))
            last = c
        hidden = self.d_k - len(self.shown_coords)
        of = tr("the {d_k} products", d_k=self.d_k)
        of += tr(" ({hidden} not shown)", hidden=hidden) if hidden else ""
        notes = [
            tr("sum of {of} = q_{i} · k_{j} = {dot}", of=of, i=i, j=j, dot=self.number(self.dot))
        ]
        if self.scaled:
            divide = f"÷ √d_k = √{self.d_k} = {self.number(self.divisor)}"
        else:
            divide = tr("unscaled: no division")
        notes.append(f"{divide}  →  {self.number(self.quotient)}")
        if self.masked[j]:
            notes.append(
                tr("key {j} is masked: score[{i}, {j}] = -inf, so α[{i}, {j}] = 0", i=i, j=j)
            )
        else:
            notes.append(f"score[{i}, {j}] = {self.number(self.score)}")
        return Section(
            title=f"score[{i}, {j}] = q_{i} · k_{j}" + (" / √d_k" if self.scaled else ""),
            header=["c", f"q_{i}[c]", f"k_{j}[c]", tr("product")],
            rows=rows,
            notes=tuple(notes),
        )

    def _softmax_section(self) -> Section:
        i = self.i
        rows, last = [], -1
        for j in self.shown_keys:
            if j > last + 1:
                rows.append((False, [ELLIPSIS] * 6))
            cells = [self.scores[j], self.shifted[j], self.exps[j], self.weights[j]]
            cells = [str(j), self._key(j), *map(self.number, cells)]
            if self.masked[j]:
                cells[-1] += " " + tr("masked")
            rows.append((j == self.j, cells))
            last = j
        return Section(
            title=tr("α[{i}, j] = exp(score[{i}, j] − max) / sum, for every key j", i=i),
            # score[i, j] beside α[i, j]: the glossary's symbol (score_ij), read alike in both
            # languages, where a bare "score" was an English word in the Chinese table
            header=["j", tr("key"), f"score[{i}, j]", "− max", "exp", f"α[{i}, j]"],
            rows=rows,
            footer=[tr("sum"), "", "", "", self.number(self.exp_sum), self.number(self.weight_sum)],
            notes=(
                tr("max = {max}, the largest score of row {i}", max=self.number(self.row_max), i=i),
            ),
        )

    def _mix_section(self) -> Section:
        i = self.i
        rows, last = [], -1
        for j in self.shown_keys:
            if j > last + 1:
                rows.append((False, [ELLIPSIS] * 5))
            weight = self.number(self.weights[j]) + (" " + tr("masked") if self.masked[j] else "")
            vectors = [self._vector(self.V[j]), self._vector(self.terms[j])]
            rows.append((j == self.j, [str(j), self._key(j), weight, *vectors]))
            last = j
        hidden = self.n_kv - len(self.shown_keys)
        return Section(
            title=f"z_{i} = Σ_j α[{i}, j] v_j",
            header=["j", tr("key"), f"α[{i}, j]", "v_j", f"α[{i}, j] v_j"],
            rows=rows,
            footer=[f"z_{i}", "", "", "", self._vector(self.z_i)],
            notes=(
                (
                    tr(
                        "(sums run over all {n} keys, {hidden} not shown)",
                        n=self.n_kv,
                        hidden=hidden,
                    ),
                )
                if hidden
                else ()
            ),
        )

    def _columns(self, section: Section) -> Section:
        # without token labels the "key" column would be empty: leave it out
        if self.key_tokens is None and tr("key") in section.header:
            k = section.header.index(tr("key"))
            drop = lambda cells: cells[:k] + cells[k + 1 :]  # noqa: E731
            return section._replace(
                header=drop(section.header),
                rows=[(hot, drop(cells)) for hot, cells in section.rows],
                footer=drop(section.footer) if section.footer else None,
            )
        return section

    # --- renderings ---

    def text(self) -> str:
        """Plain text for a terminal: the steps, numbered, in aligned columns."""
        out = [self._title()]
        for step, section in enumerate(map(self._columns, self._sections()), start=1):
            out += ["", f"{step}. {section.title}"]
            out += text_table(section.header, section.rows, section.footer)
            out += ["   " + note for note in section.notes]
        return "\n".join(out)

    def html(self) -> str:
        """A compact HTML fragment (the steps side by side) for a notebook or a widget."""
        blocks = []
        for section in map(self._columns, self._sections()):
            notes = "<br>".join(label(note) for note in section.notes)
            blocks.append(
                f"<div><b>{label(section.title)}</b>"
                + html_table(section.header, section.rows, section.footer)
                + f"{notes}</div>"
            )
        return (
            '<div class="attnlib-explain" style="line-height: 1.3">'
            f"<div>{label(self._title())}</div>"
            '<div style="display: flex; flex-wrap: wrap; gap: 0 2em; align-items: flex-start">'
            + "".join(blocks)
            + "</div></div>"
        )

    def __str__(self) -> str:
        return self.text()

    def __repr__(self) -> str:
        key = "" if self.j is None else f", j={self.j}"
        return f"<Explanation of att: i={self.i}{key}; print() it for the numbers>"

    def _repr_html_(self) -> str:
        return self.html()

    def _repr_pretty_(self, p, cycle: bool) -> None:  # IPython's text/plain
        p.text(self.text())


def _check_index(name: str, value, size: int, rows: bool) -> int:
    # i counts the rows of att.scores (queries), j its columns (keys)
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        said = tr("{name} must be an integer, got {value!r} ({kind})")
        raise TypeError(said.format(name=name, value=value, kind=type(value).__name__))
    value = int(value)
    if not 0 <= value < size:
        said = tr(
            "{name} = {value} is out of range: att has {size} queries (rows of "
            "att.scores), so {name} must be from 0 to {last}"
        )
        if not rows:
            said = tr(
                "{name} = {value} is out of range: att has {size} keys (columns of "
                "att.scores), so {name} must be from 0 to {last}"
            )
        raise IndexError(said.format(name=name, value=value, size=size, last=size - 1))
    return value


def _check_tokens(name: str, tokens, size: int, rows: bool) -> tuple[str, ...]:
    # one label per query (a row of att.scores) or per key (a column)
    if isinstance(tokens, str) or not isinstance(tokens, Sequence):
        said = tr("{name} must be a sequence of strings, one per token, got {tokens!r}")
        raise TypeError(said.format(name=name, tokens=tokens))
    labels = tuple(tokens)
    if not all(isinstance(t, str) for t in labels):
        raise TypeError(tr("{name} must hold strings, got {labels!r}", name=name, labels=labels))
    if len(labels) == size:
        return labels
    if rows:
        said = tr("{name} has {count} labels but att has {size} queries: one label per row")
    elif name == "tokens":  # the queries' labels, asked to label the keys too
        said = tr(
            "tokens has {count} labels but att has {size} keys: one label per column; "
            "for cross-attention pass key_tokens=... too"
        )
    else:
        said = tr("{name} has {count} labels but att has {size} keys: one label per column")
    raise ValueError(said.format(name=name, count=len(labels), size=size))


def explain(
    att: Attention,
    i: int,
    j: int | None = None,
    *,
    tokens: Sequence[str] | None = None,
    key_tokens: Sequence[str] | None = None,
    max_items: int = 6,
    decimals: int = 3,
) -> Explanation:
    """Every number behind row i of an attention pass, and behind score (i, j) if j is given.

    Shows, in three steps:

    1. (with j) q_i and k_j side by side, their products coordinate by
       coordinate, the sum q_i · k_j, the division by √d_k (none when
       ``att.scaled`` is False) and the score ``att.scores[i, j]``;
    2. row i: each score, minus the row's maximum, its exponential, the sum
       of the exponentials and each weight α_ij (key j marked ">"); a masked
       key (score ``-inf``) shows ``-inf``, exp 0 and weight 0, marked
       "masked";
    3. z_i = Σ_j α_ij v_j, one term per key, and z_i itself.

    Vectors longer than `max_items` are elided in the middle (see
    :func:`shown`): the first ``ceil(max_items / 2)`` and last
    ``floor(max_items / 2)`` entries, key j always, "…" for the rest.

    Parameters
    ----------
    att : Attention
        From :func:`~attnlib.core.self_attention` or :func:`~attnlib.core.attention`.
    i : int
        A query, from 0 to n_q - 1.
    j : int, optional
        A key, from 0 to n_kv - 1.
    tokens : sequence of str, optional
        Labels of the queries, length n_q; also of the keys unless `key_tokens`
        is given (self-attention).
    key_tokens : sequence of str, optional
        Labels of the keys, length n_kv, for cross-attention.
    max_items : int, default 6
        Longest vector printed in full (2 or more).
    decimals : int, default 3
        Decimal places printed (0 to 12).

    Returns
    -------
    Explanation
        The numbers as attributes; ``str()`` gives text, ``.html()`` HTML.

    Raises
    ------
    IndexError
        If i or j is out of range; the message gives the valid range.

    Examples
    --------
    >>> from attnlib import self_attention
    >>> from attnlib.data import hand_example
    >>> ex = hand_example()
    >>> e = explain(self_attention(*ex[1:]), 1, 2, tokens=ex.tokens)
    >>> e.products, e.dot, e.divisor, e.score
    (array([-1.,  1.,  2.,  1.]), 3.0, 2.0, 1.5)
    >>> e.weights.round(3)
    array([0.1  , 0.164, 0.736])
    >>> print(e)                                        # doctest: +ELLIPSIS
    query i = 1 'chase', key j = 2 'mice'  (3 keys, d_k = 4, d_v = 2, scaled by √d_k)
    ...
    """
    if not isinstance(att, Attention):
        said = tr(
            "att must be an attnlib Attention (what attention() and self_attention() "
            "return), got {kind}"
        )
        raise TypeError(said.format(kind=type(att).__name__))
    if isinstance(max_items, bool) or not isinstance(max_items, numbers.Integral) or max_items < 2:
        raise ValueError(
            tr("max_items must be an integer of at least 2, got {value!r}", value=max_items)
        )
    if isinstance(decimals, bool) or not isinstance(decimals, numbers.Integral):
        raise TypeError(tr("decimals must be an integer, got {value!r}", value=decimals))
    if not 0 <= decimals <= 12:
        raise ValueError(tr("decimals must be from 0 to 12, got {value}", value=decimals))
    n_q, n_kv = att.scores.shape
    i = _check_index("i", i, n_q, rows=True)
    if j is not None:
        j = _check_index("j", j, n_kv, rows=False)
    query_token = labels = None
    if tokens is not None:
        query_token = _check_tokens("tokens", tokens, n_q, rows=True)[i]
        if key_tokens is None:
            labels = _check_tokens("tokens", tokens, n_kv, rows=False)
    if key_tokens is not None:
        labels = _check_tokens("key_tokens", key_tokens, n_kv, rows=False)

    d_k = att.Q.shape[1]
    q_i = np.array(att.Q[i], dtype=float)  # (d_k,)
    divisor = math.sqrt(d_k) if att.scaled else 1.0
    k_j = products = dot = quotient = score = None
    if j is not None:
        k_j = np.array(att.K[j], dtype=float)  # (d_k,)
        products = q_i * k_j  # (d_k,) * (d_k,) -> (d_k,)
        dot = float(products.sum())
        quotient = dot / divisor
        score = float(att.scores[i, j])

    scores = np.array(att.scores[i], dtype=float)  # (n_kv,)
    row_max = float(scores.max())
    if not math.isfinite(row_max):
        raise ValueError(tr("row {i} of att.scores has no finite entry, so it has no weights", i=i))
    shifted = scores - row_max  # (n_kv,): masked keys stay -inf
    exps = np.exp(shifted)  # (n_kv,): exp(-inf) is exactly 0
    weights = np.array(att.weights[i], dtype=float)  # (n_kv,)
    V = np.array(att.V, dtype=float)  # (n_kv, d_v)
    terms = weights[:, None] * V  # (n_kv, 1) * (n_kv, d_v) -> (n_kv, d_v)
    return Explanation(
        i=i,
        j=j,
        query_token=query_token,
        key_tokens=labels,
        scaled=bool(att.scaled),
        q_i=q_i,
        k_j=k_j,
        products=products,
        dot=dot,
        divisor=divisor,
        quotient=quotient,
        score=score,
        scores=scores,
        row_max=row_max,
        shifted=shifted,
        exps=exps,
        exp_sum=float(exps.sum()),
        weights=weights,
        V=V,
        terms=terms,
        z_i=np.array(att.Z[i], dtype=float),
        max_items=int(max_items),
        decimals=int(decimals),
    )
