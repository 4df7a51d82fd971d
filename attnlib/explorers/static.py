"""An explorer as one HTML file that needs no kernel: for a course website or an email.

The file holds the page's module and style sheet (``front/``), the explorer's
state and its numbers for a few seeds, and a stand-in for the widget model
that answers the module as a kernel would: a move of n, d_k, heads or the mask
is drawn by the module as in a notebook, and a seed is looked up in the
numbers the file holds. Nothing is loaded from anywhere else.
"""

from __future__ import annotations

import base64
import html
import json
from collections.abc import Iterable
from pathlib import Path

from ..i18n import tr
from .page import FRONT, PageExplorer, page_data

__all__ = ["static_html", "write_html"]

# The widget model, as much of it as explorer.js uses: get, set, on, off, save_changes.
_MODEL_JS = """
const state = JSON.parse(document.getElementById('attnlib-state').textContent);
const seeds = state.__seeds; delete state.__seeds;
const raw = (b64) => { const s = atob(b64), a = new Uint8Array(s.length);
  for (let k = 0; k < s.length; k++) a[k] = s.charCodeAt(k); return new DataView(a.buffer); };
const unpack = (d) => Object.fromEntries(Object.entries(d).map(
  ([k, v]) => [k, (v && v.__b64 !== undefined) ? raw(v.__b64) : v]));
state.data = unpack(state.data); state.cmaps = unpack(state.cmaps);
const listeners = {};
const model = {
  get: (name) => state[name],
  set(name, value) {
    state[name] = value;
    if (name === 'controls' && value.seed !== undefined && value.seed !== state.data.seed
        && seeds[value.seed]) setTimeout(() => {
      state.data = unpack(seeds[value.seed]);
      (listeners['change:data'] || []).forEach((f) => f());
    });
    (listeners['change:' + name] || []).forEach((f) => f());
  },
  on(event, f) { (listeners[event] ||= []).push(f); },
  off(event, f) { listeners[event] = (listeners[event] || []).filter((g) => g !== f); },
  save_changes() {},
};
const module = await import(URL.createObjectURL(new Blob(
  [document.getElementById('attnlib-module').textContent], {type: 'text/javascript'})));
module.default.render({model, el: document.getElementById('attnlib-explorer')});
"""


def _packed(data: dict) -> dict:
    return {
        k: {"__b64": base64.b64encode(v).decode()} if isinstance(v, (bytes, memoryview)) else v
        for k, v in data.items()
    }


def static_html(
    explorer: PageExplorer, *, seeds: Iterable[int] = range(10), title: str = ""
) -> str:
    """One HTML page with `explorer` live in it, and its numbers for `seeds`.

    The seed slider of the page runs over `seeds` (0 to 9 by default: each seed
    adds about 100 kB of numbers at d = 8).

    Examples
    --------
    >>> from attnlib import explorer
    >>> page = static_html(explorer(n=6, d_k=4, seed=0), seeds=[0])
    >>> page.startswith("<!DOCTYPE html>") and "attnlib-module" in page
    True
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
    # </script> inside the JSON would end the script element: escape every "<"
    payload = json.dumps(state).replace("<", "\\u003c")
    module = (FRONT / "explorer.js").read_text(encoding="utf-8").replace("</script", "<\\/script")
    css = (FRONT / "explorer.css").read_text(encoding="utf-8")
    return (
        "<!DOCTYPE html>\n"
        f'<html lang="{html.escape(explorer.language)}"><head><meta charset="utf-8">'
        f"<title>{html.escape(title or repr(explorer))}</title>"
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<style>body {{ font-family: system-ui, sans-serif; margin: 1em; }}\n{css}</style></head>"
        f'<body><main><h1 style="font-size: 1.2em">{html.escape(title or repr(explorer))}</h1>'
        '<div id="attnlib-explorer"></div></main>'
        f'<script type="application/json" id="attnlib-state">{payload}</script>'
        f'<script type="text/plain" id="attnlib-module">{module}'
        "</script>"
        f'<script type="module">{_MODEL_JS}</script></body></html>\n'
    )


def write_html(explorer: PageExplorer, path, **kwargs) -> Path:
    """Write :func:`static_html` of `explorer` to `path`; returns the path."""
    path = Path(path)
    path.write_text(static_html(explorer, **kwargs), encoding="utf-8")
    return path
