"""An explorer with no kernel: one HTML file (for an email), or many on a course website.

A page holds the page's module and style sheet (``front/``), each explorer's
state and its numbers for a few seeds, and a stand-in for the widget model
that answers the module as a kernel would: a move of n, d_k, heads or the mask
is drawn by the module as in a notebook, a seed is looked up in the numbers the
page holds, and a selected cell's breakdown (the kernel's ``details``) is
computed in the page by ``front/breakdown.js``, which mirrors
:mod:`.explanation`. Nothing is loaded from anywhere else.

:func:`static_html` writes one explorer as a page; :func:`page_state` and
:func:`loader_js` are the two halves a website uses (``tools/site``): the
state of each explorer in its page, and one script that draws every explorer
of a page.
"""

from __future__ import annotations

import base64
import html
import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ..i18n import catalog, get_language, tr
from .page import FRONT, PageExplorer, page_data

__all__ = ["EXPLAIN_TEXTS", "loader_js", "page_state", "static_html", "write_html"]

#: Every sentence of a breakdown (``explanation.py``, ``tables.py``), by its English
#: template: sent translated with each explorer's state, for ``front/breakdown.js``.
EXPLAIN_TEXTS = (
    "query i = {i}",
    ", key j = {j}",
    "scaled by √d_k",
    "unscaled",
    "{query}{key}  ({n} keys, d_k = {d_k}, d_v = {d_v}, {how})",
    "the {d_k} products",
    " ({hidden} not shown)",
    "sum of {of} = q_{i} · k_{j} = {dot}",
    "unscaled: no division",
    "key {j} is masked: score[{i}, {j}] = -inf, so α[{i}, {j}] = 0",
    "product",
    "α[{i}, j] = exp(score[{i}, j] − max) / sum, for every key j",
    "key",
    "sum",
    "max = {max}, the largest score of row {i}",
    "masked",
    "(sums run over all {n} keys, {hidden} not shown)",
)

# The widget model, as much of it as explorer.js uses (get, set, on, off, save_changes),
# answering as the kernel does: a seed's numbers, and the breakdown of a selected cell.
# `mount(el, state, m, b)`: m is explorer.js, b breakdown.js.
_MODEL_JS = """
const raw = (b64) => { const s = atob(b64), a = new Uint8Array(s.length);
  for (let k = 0; k < s.length; k++) a[k] = s.charCodeAt(k); return new DataView(a.buffer); };
const unpack = (d) => Object.fromEntries(Object.entries(d).map(
  ([k, v]) => [k, (v && v.__b64 !== undefined) ? raw(v.__b64) : v]));
const floats = (v) => new Float64Array(
  new Uint8Array(v.buffer, v.byteOffset, v.byteLength).slice().buffer);
const flat = (rows) => Float64Array.from(rows.flat(), (x) => (x === null ? -Infinity : x));
// The pass whose numbers a click in `panel` explains, and its tokens (views.py's explain)
function explained(state, m, panel) {
  const c = state.controls, f = state.fixed;
  if (state.family === 'views') {
    const v = state.views[state.limits.step.labels.indexOf(c.step)][c.example], p = v.passes[0];
    const n = p.weights.length, d_k = p.Q[0].length, d_v = p.V[0].length;
    const att = { Q: flat(p.Q), K: flat(p.K), V: flat(p.V), scores: flat(p.scores),
                  weights: flat(p.weights), Z: flat(p.Z), n, d_k, d_v, scaled: p.scaled };
    return { att, tokens: v.panels[0].rowLabels, panels: v.panels.length };
  }
  const d = state.data, data = { X: floats(d.X), W_Q: floats(d.W_Q), W_K: floats(d.W_K),
                                 W_V: floats(d.W_V), d: d.d, width: d.width };
  if (state.family === 'attention') {
    const heads = c.heads || 1, mask = c.mask === 'causal' ? m.causalMask(c.n) : null;
    const h = heads > 1 && panel < heads ? panel : 0;
    return { att: m.selfAttention(data, h, c.n, c.d_k, c.d_k, { mask }),
             tokens: state.token_labels.slice(0, c.n), panels: heads > 1 ? heads : 2 };
  }
  if (state.family === 'scaling')
    return { att: m.selfAttention(data, 0, f.n, c.d_k, c.d_k, { scaled: panel === 1 }),
             tokens: state.token_labels.slice(0, f.n), panels: 2 };
  return null;
}
function mount(el, state, m, b) {
  const seeds = state.__seeds || {}; delete state.__seeds;
  state.data = unpack(state.data); state.cmaps = unpack(state.cmaps);
  const t = (key) => state.explain_text[key] ?? key;
  const listeners = {};
  const tell = (name) => (listeners['change:' + name] || []).forEach((f) => f());
  function explain() { // the kernel's _explain: the selected cell's breakdown, clamped
    const sel = state.selection || [];
    let details = '';
    if (sel.length && b) {
      const first = explained(state, m, sel[2]);
      const panel = first && sel[2] < first.panels ? sel[2] : 0;
      const x = panel === sel[2] ? first : explained(state, m, panel);
      const [i, j] = [Math.min(sel[0], x.att.n - 1), Math.min(sel[1], x.att.n - 1)];
      if (x) details = b.detailsHtml(x.att, x.tokens, i, j, { t, maxItems: state.explain_items });
    }
    if (details !== state.details) { state.details = details; tell('details'); }
  }
  const model = {
    get: (name) => state[name],
    set(name, value) {
      state[name] = value;
      if (name === 'controls' && value.seed !== undefined && value.seed !== state.data.seed
          && seeds[value.seed]) setTimeout(() => {
        state.data = unpack(seeds[value.seed]); tell('data'); explain();
      });
      tell(name);
    },
    on(event, f) { (listeners[event] ||= []).push(f); },
    off(event, f) { listeners[event] = (listeners[event] || []).filter((g) => g !== f); },
    save_changes() { setTimeout(explain); },
  };
  explain();
  m.default.render({ model, el });
}
"""

# One explorer in one page: the state, the modules and this loader are the page's scripts.
_PAGE_JS = """
const text = (id) => document.getElementById(id).textContent;
const load = (id) => import(URL.createObjectURL(new Blob([text(id)], {type: 'text/javascript'})));
const [m, b] = await Promise.all([load('attnlib-module'), load('attnlib-breakdown')]);
mount(document.getElementById('attnlib-explorer'), JSON.parse(text('attnlib-state')), m, b);
"""


def _packed(data: dict) -> dict:
    return {
        k: {"__b64": base64.b64encode(v).decode()} if isinstance(v, (bytes, memoryview)) else v
        for k, v in data.items()
    }


def _views_with_values(explorer: PageExplorer) -> list:
    # The learned explorer's pictures, each pass with the V and Z a breakdown shows too
    from ..maths.lookup import learned_view

    def rows(a) -> list:
        return [[float(v) for v in row] for row in a]

    steps = explorer.limits["step"]["labels"]
    views = []
    for step, pictures in zip(steps, explorer.views, strict=True):
        row = []
        for k, picture in enumerate(pictures):
            att, _ = learned_view(explorer.history, explorer.task, step, k)
            extra = {"V": rows(att.V), "Z": rows(att.Z), "scaled": bool(att.scaled)}
            row.append({**picture, "passes": [{**picture["passes"][0], **extra}]})
        views.append(row)
    return views


def page_state(explorer: PageExplorer, *, seeds: Iterable[int] = range(10)) -> dict[str, Any]:
    """Everything a page with no kernel needs to draw `explorer`, as JSON: its state, its
    numbers for each of `seeds` (bytes as base64) and the breakdown's sentences.

    Examples
    --------
    >>> from attnlib import explorer
    >>> state = page_state(explorer(n=6, d_k=4, seed=0), seeds=[0, 1])
    >>> sorted(state["__seeds"]), state["limits"]["seed"]["high"], state["explain_items"]
    ([0, 1], 1, 6)
    """
    seeds = sorted(set(seeds))
    state = {name: getattr(explorer, name) for name in explorer.keys if not name.startswith("_")}
    state = {k: v for k, v in state.items() if k not in ("layout", "tabbable", "tooltip", "comm")}
    if "seed" in state["limits"]:
        if not seeds:
            raise ValueError(tr("seeds must hold at least one seed"))
        seed_range = {**state["limits"]["seed"], "low": seeds[0], "high": seeds[-1]}
        state["limits"] = {**state["limits"], "seed": seed_range}
        if state["controls"]["seed"] not in seeds:
            raise ValueError(
                tr(
                    "the explorer's seed {seed} is not among seeds {seeds}",
                    seed=state["controls"]["seed"],
                    seeds=seeds,
                )
            )
    n = explorer.fixed.get("n", 32) if explorer.FAMILY in ("qkv", "scaling") else 32
    d = explorer.fixed.get("d", 8)
    state["__seeds"] = {
        seed: _packed(page_data(explorer.FAMILY, seed=seed, d=d, n=n))
        for seed in (seeds if "seed" in explorer.controls else ())
    }
    # the start is the explorer's seed among them: every head's numbers, since a page with
    # no kernel moves the heads control itself (no seed: the learned explorer's own data)
    seed = explorer.controls.get("seed")
    state["data"] = state["__seeds"].get(seed) or _packed(state["data"])
    state["cmaps"] = _packed(state["cmaps"])
    translations = catalog(get_language()) if get_language() != "en" else {}
    state["explain_text"] = {key: translations.get(key, key) for key in EXPLAIN_TEXTS}
    state["explain_items"] = 6
    if explorer.FAMILY == "views":
        state["views"] = _views_with_values(explorer)
        d_k = len(state["views"][0][0]["passes"][0]["Q"][0])
        state["explain_items"] = max(6, min(d_k, 16))  # views.learned_attention_view's
    return state


def _json(state: dict) -> str:
    # </script> inside the JSON would end the script element: escape every "<"
    return json.dumps(state).replace("<", "\\u003c")


def _module(name: str) -> str:
    return (FRONT / name).read_text(encoding="utf-8").replace("</script", "<\\/script")


def loader_js() -> str:
    """A classic script that draws every explorer of a page from its state: each
    ``<script type="application/json" class="attnlib-state" data-for="ID">`` in the page
    goes to the element ``ID``. It holds the page's modules, so that it works over HTTP
    and from the file system alike (a module loaded from a file:// address is refused)."""
    modules = {
        name: (FRONT / name).read_text(encoding="utf-8") for name in ("explorer.js", "breakdown.js")
    }
    return (
        "(() => {\n"
        f"const MODULES = {json.dumps(modules)};\n"
        f"{_MODEL_JS}\n"
        "const load = (name) => import(URL.createObjectURL(new Blob([MODULES[name]],"
        " {type: 'text/javascript'})));\n"
        "async function start() {\n"
        "  const states = document.querySelectorAll('script.attnlib-state');\n"
        "  if (!states.length) return;\n"
        "  const [m, b] = await Promise.all([load('explorer.js'), load('breakdown.js')]);\n"
        "  for (const s of states) mount(document.getElementById(s.dataset.for),"
        " JSON.parse(s.textContent), m, b);\n"
        "}\n"
        "if (document.readyState === 'loading')\n"
        "  document.addEventListener('DOMContentLoaded', start);\n"
        "else start();\n"
        "})();\n"
    )


def static_html(
    explorer: PageExplorer, *, seeds: Iterable[int] = range(10), title: str = ""
) -> str:
    """One HTML page with `explorer` live in it, and its numbers for `seeds`.

    The seed slider of the page runs over `seeds` (0 to 9 by default: each seed
    adds about 100 kB of numbers at d = 8). A click shows the cell's breakdown,
    computed in the page.

    Examples
    --------
    >>> from attnlib import explorer
    >>> page = static_html(explorer(n=6, d_k=4, seed=0), seeds=[0])
    >>> page.startswith("<!DOCTYPE html>") and "attnlib-module" in page
    True
    """
    payload = _json(page_state(explorer, seeds=seeds))
    css = (FRONT / "explorer.css").read_text(encoding="utf-8")
    heading = html.escape(title or repr(explorer))
    return (
        "<!DOCTYPE html>\n"
        f'<html lang="{html.escape(explorer.language)}"><head><meta charset="utf-8">'
        f"<title>{heading}</title>"
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<style>body {{ font-family: system-ui, sans-serif; margin: 1em; }}\n{css}</style></head>"
        f'<body><main><h1 style="font-size: 1.2em">{heading}</h1>'
        '<div id="attnlib-explorer"></div></main>'
        f'<script type="application/json" id="attnlib-state">{payload}</script>'
        f'<script type="text/plain" id="attnlib-module">{_module("explorer.js")}</script>'
        f'<script type="text/plain" id="attnlib-breakdown">{_module("breakdown.js")}</script>'
        f'<script type="module">{_MODEL_JS}{_PAGE_JS}</script></body></html>\n'
    )


def write_html(explorer: PageExplorer, path, **kwargs) -> Path:
    """Write :func:`static_html` of `explorer` to `path`; returns the path."""
    path = Path(path)
    path.write_text(static_html(explorer, **kwargs), encoding="utf-8")
    return path
