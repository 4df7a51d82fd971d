"""A prediction check as a table the page can read: every verdict, worked out at build time.

On the website a prediction whose answer is a word or a number is answered in the
page, with no Python: the builder runs attnlib's own check (in the edition's
language, so the words come from the same catalogue as in the notebook) on the
answers the learner can give, and the page looks the answer up.

- A word (the check reads it with ``as_choice``): each choice, a menu entry labelled
  with its word in the edition's catalogue.
- An index (``as_index``): each index from 0 to n - 1.
- A number (``as_number``): a check's verdict depends on which band of numbers the
  answer falls in (within a tolerance of the right answer, of a typical slip, or
  neither). The builder finds the bands: it runs the check on every number of two
  significant digits from ±0.001 to ±9900 and 0, and between two neighbours with
  different verdicts halves the gap until the edge is found to 1e-12. The page
  finds the band of the typed number and writes it into the verdict where the check
  wrote the answer.

Each verdict is the check's own HTML, for a first wrong try (the slip, or the step to
redo, without the answer) and for a second (the answer and why), as the notebook shows
them.
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import math
import re
import sys
from bisect import bisect_right

__all__ = ["answer_kind", "table"]


class _Probe(Exception):
    pass


_PROBE = object()  # an answer no check knows: it reaches the reader unchanged
_READERS = ("as_choice", "as_index", "as_number")


def _modules():
    return [m for name, m in sys.modules.items() if name.startswith("attnlib.lessons.checks")]


def answer_kind(check, kwargs: dict) -> tuple[str, tuple] | None:
    """("choice", (choices,)), ("index", (n,)), ("number", ()) or None: how `check` reads its
    answer, found by calling its body with the readers replaced (no try is counted)."""
    found = []

    def reader(kind):
        def read(answer, *args):
            found.append((kind, args))
            raise _Probe

        return read

    saved = []
    for module in _modules():
        for name in _READERS:
            if hasattr(module, name):
                saved.append((module, name, getattr(module, name)))
                setattr(module, name, reader(name[3:]))
    try:
        check.__wrapped__(_PROBE, **kwargs)
    except _Probe:
        pass
    except Exception:
        return None
    finally:
        for module, name, value in saved:
            setattr(module, name, value)
    return found[0] if found else None


@contextlib.contextmanager
def _memoised():
    # The checks recompute their reference numbers at every call (a 20,000-pair simulation
    # for the variance): remember them while a table is built. They are seeded, so equal.
    saved = []
    for module in _modules():
        for name, value in vars(module).copy().items():
            if callable(value) and getattr(value, "__module__", "").startswith("attnlib.maths"):
                saved.append((module, name, value))
                setattr(module, name, _memo(value))
    try:
        yield
    finally:
        for module, name, value in saved:
            setattr(module, name, value)


def _memo(f):
    cache = {}

    @functools.wraps(f)
    def call(*args, **kwargs):
        key = tuple(_key(a) for a in (*args, *sorted(kwargs.items())))
        if key not in cache:
            cache[key] = f(*args, **kwargs)
        return cache[key]

    return call


def _key(value):
    # arrays by identity (the memoised results are the same objects every time), else repr
    if isinstance(value, tuple):
        return tuple(_key(v) for v in value)
    return ("id", id(value)) if hasattr(value, "__array__") else repr(value)


def _tries(check, answer, kwargs) -> dict:
    """The verdict on a first try and, if wrong, on a second, as the notebook shows them."""
    check.reset()
    try:
        first = check(answer, **kwargs)
        second = first if first.passed else check(answer, **kwargs)
    finally:
        check.reset()
    return {"passed": first.passed, "tries": [first._repr_html_(), second._repr_html_()]}


# --- numbers

_MARKS = {
    "r": "\u27e6r\u27e7",
    "g": "\u27e6g\u27e7",
    ".4g": "\u27e64g\u27e7",
    ".3g": "\u27e63g\u27e7",
}


def _typed(v: float):
    # what a learner types: 9 as an int, 0.17 as a float
    return int(v) if float(v).is_integer() and abs(v) < 1e15 else float(v)


def _template(verdict: dict, answer) -> dict:
    # the verdict with the answer, as the check wrote it, replaced by marks the page fills
    forms = {"r": repr(answer), "g": format(answer, "g"), ".4g": format(answer, ".4g"),
             ".3g": format(answer, ".3g")}  # fmt: skip
    # only a form that is the answer exactly (9 for 9, not "9" for 8.996 at .3g): a number
    # the check rounded stays as it wrote it, and a band's edges say where that changes
    forms = {spec: form for spec, form in forms.items() if _exact(form, answer)}
    out = []
    for text in verdict["tries"]:
        for spec, form in sorted(forms.items(), key=lambda kv: -len(kv[1])):
            text = re.sub(rf"(?<![\w.]){re.escape(form)}(?![\w]|\.\d)", _MARKS[spec], text)
        out.append(text)
    return {"passed": verdict["passed"], "tries": out}


def _exact(form: str, answer) -> bool:
    try:
        return float(form) == float(answer)
    except ValueError:
        return False


def _between(lo: float, hi: float) -> float:
    # the number with the fewest digits strictly between lo and hi (a learner's kind of number)
    for digits in range(1, 18):
        mid = float(f"{(lo + hi) / 2:.{digits}g}")
        if lo < mid < hi:
            return mid
    return (lo + hi) / 2


def _plainest(lo: float, hi: float) -> float:
    # the number with the fewest significant digits in [lo, hi)
    top = max(abs(lo), abs(hi), 1e-300)
    for digits in range(1, 18):
        step = 10.0 ** (math.floor(math.log10(top)) - digits + 1)
        c = round(math.ceil(lo / step) * step, 15)
        if lo <= c < hi:
            return c
    return lo


def _grid() -> list[float]:
    positive = sorted({round(m / 10 * 10.0**e, 12) for e in range(-3, 4) for m in range(10, 100)})
    return [-v for v in reversed(positive)] + [0.0] + positive


def _number_table(check, kwargs: dict) -> dict:
    known: dict[float, str] = {}

    def kind(v: float) -> str:
        if v not in known:
            answer = _typed(v)
            known[v] = repr(_template(_tries(check, answer, kwargs), answer))
        return known[v]

    grid = _grid()
    classes = [kind(v) for v in grid]
    edges, kinds = [], [classes[0]]  # kinds[k] holds from edges[k - 1] (inclusive) to edges[k]

    def split(lo: float, hi: float, k_hi: str, depth: int = 0) -> None:
        # the number where kind(lo) stops: then the next band, up to hi
        k_lo, b = kinds[-1], hi
        for _ in range(60):
            mid = _between(lo, hi)
            if mid in (lo, hi):
                break
            lo, hi = (mid, hi) if kind(mid) == k_lo else (lo, mid)
        edges.append(hi)
        kinds.append(kind(hi))
        if kinds[-1] != k_hi and hi != b and depth < 4:  # a narrow band in between
            split(hi, b, k_hi, depth + 1)

    for a, b, ka, kb in zip(grid, grid[1:], classes, classes[1:], strict=False):
        if ka != kb:
            split(a, b, kb)
    # each band's verdict as the check gives it for the plainest number in it (3, not the
    # 2.99999... an edge fell on), then neighbours that read alike become one band
    bounds = [grid[0] - 1, *edges, grid[-1] + 1]
    texts = [kind(_plainest(lo, hi)) for lo, hi in itertools.pairwise(bounds)]
    kept_edges, kept = [], [texts[0]]
    for edge, text in zip(edges, texts[1:], strict=True):
        if text != kept[-1]:
            kept_edges.append(edge)
            kept.append(text)
    names = sorted(set(kept))
    verdicts = [eval(k) for k in names]  # our own repr of a dict of strings
    return {"edges": kept_edges, "bands": [names.index(k) for k in kept], "verdicts": verdicts,
            "marks": {mark: spec for spec, mark in _MARKS.items()}}  # fmt: skip


def band(table: dict, value: float) -> int:
    """The band of `value` in a number table (the page does the same)."""
    return table["bands"][bisect_right(table["edges"], value) if value not in table["edges"]
                          else table["edges"].index(value) + 1]  # fmt: skip


def table(check, kwargs: dict, labels: dict[str, str]) -> dict | None:
    """What the page needs to answer `check` called with `kwargs`: its kind, its options
    and the verdicts; None for an answer that is neither a word nor a number (a shape,
    a vector: those stay in the notebook). `labels`: the edition's catalogue, for the
    choices' words."""
    found = answer_kind(check, kwargs)
    if found is None:
        return None
    kind, args = found
    with _memoised():
        if kind == "choice":
            choices = list(args[0])
            return {"kind": "choice", "name": check.__name__,
                    "options": [[c, labels.get(c, c)] for c in choices],
                    "verdicts": [_tries(check, c, kwargs) for c in choices]}  # fmt: skip
        if kind == "index":
            n = int(args[0])
            outside = _template(_tries(check, n, kwargs), n)
            return {"kind": "index", "name": check.__name__, "n": n,
                    "verdicts": [_tries(check, k, kwargs) for k in range(n)],
                    "outside": outside, "marks": {m: s for s, m in _MARKS.items()}}  # fmt: skip
        return {"kind": "number", "name": check.__name__, **_number_table(check, kwargs)}
