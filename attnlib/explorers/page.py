"""The explorers drawn in the page: an anywidget whose module computes and draws each move.

The kernel sends the numbers a family of explorers needs once, at their widest
(:func:`page_data`: X for every token up to 32, W_Q, W_K and W_V for every head
up to 8 and every column up to 64), and the module ``front/explorer.js`` draws
the heatmaps on a canvas. A smaller d_k uses the first d_k columns of the same
W_Q and W_K, a smaller n the first n rows of X: :mod:`attnlib.maths.data` draws
them so that this is exactly ``toy_example`` at that size. Moving n, d_k, d_v, d,
heads or the mask is then computed and drawn in the page, and the kernel is told
afterwards (``controls``), so that :attr:`PageExplorer.shown` in Python stays
true. A seed is the one move that asks the kernel, for the new seed's numbers.

attnlib's numpy stays the reference: :attr:`PageExplorer.shown` is the view of
:mod:`.views` for the current controls, and the browser tests hold the page's
numbers and colours equal to it. Where no widgets run (GitHub's viewer, an
exported HTML file, nbval), the explorer shows a PNG of its current state,
drawn by matplotlib from the same view.
"""

from __future__ import annotations

import dataclasses
import io
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar

import anywidget
import numpy as np
from matplotlib import colormaps
from traitlets import Dict, List, Unicode

from ..i18n import catalog, get_language, tr
from ..maths.data import toy_example, toy_multi_head
from ..maths.validation import as_size
from ..pictures.heatmap import check_cell
from ..pictures.layout import check_size
from ..pictures.panel import Panel
from . import views as views_module
from .controller import LIMITS, MAX_D, caption, tooltip

__all__ = [
    "FRONT",
    "TEXTS",
    "Control",
    "PageExplorer",
    "cmap_table",
    "page_data",
    "page_key",
    "panel_for_page",
]

#: The folder of the page's module and style sheet, shipped inside attnlib
FRONT = Path(__file__).with_name("front")

#: The widest numbers the page holds: what the sliders can reach
MAX_N, MAX_WIDTH, MAX_HEADS = LIMITS["n"][1], LIMITS["d_k"][1], 8

#: Every sentence the module shows, by its English template (the key of tr()):
#: sent translated, with their placeholders, and filled in the page.
TEXTS = (
    "scores q·k / √d_k",
    ", masked −∞",
    ", masked 0",
    "weights α = softmax(scores){masked}  {shape}",
    "head {h}: α{masked}  ({n} × {n})",
    "weights, unscaled: softmax(q·k)  {shape}",
    "weights, scaled: softmax(q·k / √d_k)  {shape}",
    "unscaled",
    "scaled by √d_k",
    "coordinate ({width} = {cols})",
    "coordinate",
    "token",
    "key j",
    "query i",
    "scores = q·k / √d_k, √{d_k} = {root:.2f}",
    "Q {Q} · K {K} · V {V} · scores and weights {weights} · {scaling}",
    "largest weight in each row: <code>{numbers}</code>",
    "largest weight in each row: from <code>{low:.2f}</code> to <code>{high:.2f}</code>"
    " (median {median:.2f} over {n} rows)",
    "mean row entropy: {entropy:.2f} nats "
    "(0 = all weight on one key, {ln_n:.2f} = spread evenly over {n})",
    "each head divides by √d_k = √{d_k} = {root:.2f}, its own width",
    "heads = {heads}: per head Q, K {QK}, V {V}, weights {weights} · {scaling}",
    "Z = the heads side by side {Z} = (n, heads·d_v = {heads}·{d_v}) · output Z W_O {output}",
    "mean row entropy per head: <code>{numbers}</code> nats "
    "(0 = all weight on one key, {ln_n:.2f} = spread evenly over {n})",
    "mask: {blocked} of {size} scores blocked (grey): −∞ before the softmax, "
    "weight 0 after it; each row's remaining weights still sum to 1",
    "score variance",
    "mean max weight",
    "mean row entropy (nats)",
    "A saturated softmax has max weight near 1 and entropy near 0; "
    "an even one 1/{n} = {even:.2f} and log {n} = {ln_n:.2f}.",
    "scaled by √d_k = {root:.2f}",
    "Q and K share d_k = {d_k} (each score is q_i · k_j); V has d_v = {d_v}, free to differ",
    "; a repeated token gets the same row: {words}",
    "X {shape}: n = {n} tokens, one row of d = {d} numbers each{same}",
    "query {i} {query} → key {j} {key}",
    "head {h} of {heads}",
    "masked: score −∞, weight 0",
    "score {score:.2f}, weight α = {weight:.2f}; q·k = {dot:.2f}, "
    "mostly from {terms} of its {d_k} products",
    "Heatmaps: {titles}.",
    "Selected: {what}",
    "no cell selected",
    "replay training",
    "stop",
    "the selected cell kept its column j = {j}; this example's matching pair is at j = {match}",
)

#: family -> the view function of :mod:`.views` that the page's picture equals
VIEWS: dict[str, Callable[..., views_module.View]] = {
    "attention": views_module.attention_view,
    "scaling": views_module.scaling_view,
    "qkv": views_module.qkv_view,
    "embedding": views_module.embedding_view,
}


def cmap_table(name: str) -> bytes:
    """matplotlib's colour map `name` as 256 RGBA bytes: what a cell's value is looked up in.

    Examples
    --------
    >>> table = cmap_table("viridis")
    >>> len(table), tuple(table[:4])
    (1024, (68, 1, 84, 255))
    """
    cmap = colormaps[name].resampled(256)
    return cmap(np.arange(256), bytes=True).tobytes()  # (256, 4) uint8


def page_key(field: str) -> str:
    """The name the page's module gives a field of :class:`~attnlib.pictures.panel.Panel`.

    Examples
    --------
    >>> page_key("row_labels"), page_key("title")
    ('rowLabels', 'title')
    """
    first, *rest = field.split("_")
    return first + "".join(word.title() for word in rest)


def panel_for_page(panel: Panel) -> dict[str, Any]:
    """`panel` as the page's module reads a panel: every field, by its :func:`page_key`, as JSON.

    The matrix and the mask go as lists of rows (a masked score's −∞ as None),
    labels as lists. Read from ``dataclasses.fields``: a new field of Panel is
    sent without a change here.

    Examples
    --------
    >>> import numpy as np
    >>> sent = panel_for_page(Panel(matrix=[[0.5, -np.inf]], mask=[[True, False]], title="t"))
    >>> sent["matrix"], sent["mask"], sent["title"], sent["rowLabels"]
    ([[0.5, None]], [[True, False]], 't', None)
    """

    def as_json(value):
        if isinstance(value, np.ndarray):
            if value.dtype == bool:
                return value.tolist()
            return [[None if v == -np.inf else float(v) for v in row] for row in value]
        return list(value) if isinstance(value, tuple) else value

    return {page_key(f.name): as_json(getattr(panel, f.name)) for f in dataclasses.fields(Panel)}


def _floats(a: np.ndarray) -> bytes:
    return np.ascontiguousarray(a, dtype="<f8").tobytes()


def page_data(
    family: str, *, seed: int, d: int, n: int = MAX_N, heads: int | None = None
) -> dict[str, Any]:
    """The numbers the page holds for `family` at `seed`: X and the weights at their widest.

    Every array is little-endian float64 bytes, row-major:
    ``X`` (n, d) (the embedding family: (n, 64), ``d`` then 64);
    ``W_Q``, ``W_K``, ``W_V`` (heads, d, width): head h's weights at width
    ``width``, of which a smaller d_k (or d_v) takes the first columns. `heads`:
    how many heads' weights (the attention family: all 8 unless fewer are asked for).

    Examples
    --------
    >>> data = page_data("attention", seed=0, d=8)
    >>> data["heads"], data["width"], len(data["W_Q"]) == 8 * 8 * 64 * 8
    (8, 64, True)
    """
    if family == "embedding":
        ex = toy_example(n, d=MAX_WIDTH, d_k=1, seed=seed)
        empty = b""
        return {"X": _floats(ex.X), "W_Q": empty, "W_K": empty, "W_V": empty,
                "d": MAX_WIDTH, "width": 0, "heads": 0, "seed": seed}  # fmt: skip
    heads = (MAX_HEADS if heads is None else heads) if family == "attention" else 1
    many = toy_multi_head(n, d=d, d_k=MAX_WIDTH, heads=heads, seed=seed)

    def by_head(W: np.ndarray) -> bytes:
        # (d, heads * width) -> (heads, d, width): head h's block of columns, as the page reads it
        return _floats(W.reshape(d, heads, MAX_WIDTH).transpose(1, 0, 2))

    return {
        "X": _floats(many.X),  # (n, d)
        "W_Q": by_head(many.W_Q),
        "W_K": by_head(many.W_K),
        "W_V": by_head(many.W_V),
        "d": d,
        "width": MAX_WIDTH,
        "heads": heads,
        "seed": seed,
    }


class Control:
    """One control of a :class:`PageExplorer`, as a slider's ``value`` reads and sets it.

    ``e.d_k.value = 8`` moves the explorer from Python as the slider does in the
    page; a value out of range is refused with the range.
    """

    def __init__(self, explorer: PageExplorer, name: str):
        self._explorer, self.name = explorer, name

    @property
    def value(self):
        return self._explorer.controls[self.name]

    @value.setter
    def value(self, value) -> None:
        self._explorer.set_controls(**{self.name: value})

    @property
    def min(self) -> int:
        return self._explorer.limits[self.name]["low"]

    @property
    def max(self) -> int:
        return self._explorer.limits[self.name]["high"]

    @property
    def description(self) -> str:
        return self._explorer.limits[self.name]["caption"]

    def __repr__(self) -> str:
        return f"<control {self.name} = {self.value!r}>"


class PageExplorer(anywidget.AnyWidget):
    """An explorer drawn in the page: controls, heatmaps on a canvas, the readout under them.

    A family subclasses it with ``FAMILY`` (a key of :data:`VIEWS`),
    ``CONTROLS`` (slider names, see ``LIMITS``) and ``FIXED`` (fixed
    arguments). What it shows is :attr:`shown`, the :mod:`.views` view of the
    current controls; ``e.attention``, ``e.example``, ... read its data.
    """

    _esm = (FRONT / "explorer.js").read_text(encoding="utf-8")
    _css = (FRONT / "explorer.css").read_text(encoding="utf-8")

    family = Unicode().tag(sync=True)
    # What the page sends after a move it drew, and a selection. No echo: the kernel's echo
    # of each update goes back only to the page that sent it (bench_move: a message less).
    controls = Dict().tag(sync=True, echo_update=False)
    fixed = Dict().tag(sync=True)
    limits = Dict().tag(sync=True)
    data = Dict().tag(sync=True)
    token_labels = List().tag(sync=True)  # the toy sentence, as far as n reaches
    text = Dict().tag(sync=True)
    cmaps = Dict().tag(sync=True)
    selection = List().tag(sync=True, echo_update=False)  # [i, j, panel], or [] for none
    details = Unicode().tag(sync=True)  # the selected cell's full breakdown, as HTML
    size = Unicode("normal").tag(sync=True)
    language = Unicode("en").tag(sync=True)
    hint = Unicode().tag(sync=True)
    error = Unicode().tag(sync=True)  # the traceback of a failed answer to the page, or ""
    views = List().tag(sync=True)  # a family of precomputed views: [position][example]
    replay = Dict().tag(sync=True)  # {"interval": ms} for a replay button, else empty

    FAMILY: ClassVar[str] = ""
    CONTROLS: ClassVar[tuple[str, ...]] = ()
    FIXED: ClassVar[tuple[str, ...]] = ()
    EXTRA_LIMITS: ClassVar[dict[str, tuple[int, int, str]]] = {}

    def __init__(self, *, size: str = "normal", **values):
        wanted = (*self.CONTROLS, *self.FIXED)
        if sorted(values) != sorted(wanted):
            said = tr("{kind} takes {wanted} by keyword, got {got}")
            raise TypeError(
                said.format(kind=type(self).__name__, wanted=", ".join(wanted), got=sorted(values))
            )
        limits = {**LIMITS, **self.EXTRA_LIMITS}
        fixed = {
            name: as_size(
                name,
                values[name],
                minimum=limits[name][0],
                maximum=MAX_D if name == "d" else limits[name][1],
            )
            for name in self.FIXED
        }
        spec = {name: self.control_spec(name, limits) for name in self.CONTROLS}
        # checked, and the numbers made, before the widget opens: it opens with all of them
        controls = {name: self._check(name, values[name], spec[name]) for name in self.CONTROLS}
        self._cache: dict[tuple, views_module.View] = {}
        translations = catalog(get_language()) if get_language() != "en" else {}
        super().__init__(
            family=self.FAMILY,
            controls=controls,
            **self.numbers(controls, fixed),
            fixed=fixed,
            limits=spec,
            size=check_size(size),
            language=get_language(),
            text={key: translations.get(key, key) for key in TEXTS},
            cmaps={name: cmap_table(name) for name in ("viridis", "RdBu_r")},
            hint=self.hint_text(),
        )
        self.last_error: Exception | None = None
        self.observe(self._on_controls, names="controls")
        self.observe(self._on_selection, names="selection")

    def control_spec(self, name: str, limits: dict) -> dict:
        """What the page needs to draw control `name`: its caption and tooltip, and its
        range (``low``, ``high``, and ``labels`` for positions shown as other values) or
        its ``choices`` (a menu)."""
        menus = self.choices()
        if name in menus:
            return {
                "caption": caption(name),
                "tooltip": " / ".join(tip for _, _, tip in menus[name]),
                "choices": [[value, label] for value, label, _ in menus[name]],
            }
        low, high, what = limits[name]
        return {"caption": caption(name), "tooltip": tooltip(what), "low": low, "high": high}

    # ---- what the page is told, checked at the boundary

    def _check(self, name: str, value, spec: dict | None = None):
        spec = self.limits[name] if spec is None else spec
        if "labels" in spec or "choices" in spec:  # a menu: one of its entries, never a bool
            allowed = spec["labels"] if "labels" in spec else [v for v, _ in spec["choices"]]
            if isinstance(value, bool) or value not in allowed:
                said = tr("{name} must be one of {allowed}, got {value!r}")
                raise ValueError(said.format(name=name, allowed=allowed, value=value))
            return value
        return as_size(name, value, minimum=spec["low"], maximum=spec["high"])

    def set_controls(self, **values) -> None:
        """Move controls from Python, as the page's controls do (checked, then drawn)."""
        unknown = sorted(set(values) - set(self.CONTROLS))
        if unknown:
            said = tr("{kind} has no control {name!r}; its controls are {controls}")
            raise TypeError(
                said.format(
                    kind=type(self).__name__, name=unknown[0], controls=", ".join(self.CONTROLS)
                )
            )
        new = {**self.controls, **{name: self._check(name, v) for name, v in values.items()}}
        self._refresh_data(new)
        self.controls = new

    def _refresh_data(self, controls: dict) -> None:
        # a new seed; or more heads than the page holds (it holds one head's numbers
        # while one head is shown: a seed's message is 8 times smaller)
        if self.data.get("seed") != controls.get("seed", 0) or self.data.get(
            "heads", 0
        ) < controls.get("heads", 0):
            self.set_trait("data", self.numbers(controls, self.fixed)["data"])

    def numbers(self, controls: dict, fixed: dict) -> dict[str, Any]:
        """The traits that hold the numbers the page draws from, for these controls: sent
        with the widget when it opens, and again for a new seed or for more heads. One
        head's weights while one head is shown, else all of them (the heads control
        then moves in the page)."""
        n = fixed.get("n", MAX_N) if self.FAMILY in ("qkv", "scaling") else MAX_N
        heads = 1 if controls.get("heads", 1) == 1 else MAX_HEADS
        data = page_data(
            self.FAMILY, seed=controls.get("seed", 0), d=fixed.get("d", 8), n=n, heads=heads
        )
        return {"data": data, "token_labels": list(toy_example(n, d=1, seed=0).tokens)}

    def _on_controls(self, change) -> None:
        # What the page sends after a move it drew: a new seed needs new numbers; a
        # selection, its breakdown. Nothing else is computed here.
        def answer():
            if sorted(change["new"]) != sorted(self.CONTROLS):  # the page's message, checked
                raise ValueError(
                    f"the page sent controls {sorted(change['new'])}; "
                    f"{type(self).__name__} has {sorted(self.CONTROLS)}"
                )
            self._refresh_data(change["new"])
            self.moved(change["old"], change["new"])
            if self.selection:
                self._explain()

        self._safely(answer)

    def _safely(self, action) -> None:
        # An exception in an observer of the page's messages would end in the kernel's
        # log, unseen: the explorer shows it under its picture, and keeps what it showed
        try:
            action()
        except Exception as exc:
            self.last_error = exc
            self.error = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
        else:
            self.last_error = None
            if self.error:
                self.error = ""

    def moved(self, before: dict, now: dict) -> None:
        """Called after every move, from the page or from Python (nothing by default)."""

    def _on_selection(self, change) -> None:
        self._safely(self._explain)

    def _explain(self) -> None:
        if not self.selection:
            self.details = ""
            return
        i, j, panel = self.selection
        view = self.shown.select((i, j), panel)
        self.details = view.details

    # ---- what it shows, in Python

    @property
    def shown(self) -> views_module.View:
        """The view of the current controls, its selection included (computed when read)."""
        values = {**self.controls, **self.fixed}
        key = tuple(sorted(values.items()))
        if key not in self._cache:
            self._cache = {key: self.view(**values)}
        view = self._cache[key]
        if self.selection:
            i, j, panel = self.selection
            view = view.select((i, j), panel)
        return view

    def view(self, **values) -> views_module.View:
        """The view of :mod:`.views` for these control and fixed values."""
        return VIEWS[self.FAMILY](**values)

    def select(self, cell: tuple[int, int] | None, panel: int = 0) -> None:
        """Outline cell (i, j) of `panel` and show its breakdown (None: no selection)."""
        if cell is None:
            self.selection = []
            return
        view = self.shown
        selectable = [k for k, p in enumerate(view.panels) if p.selectable]
        if not selectable:
            raise ValueError(
                tr("{kind} has no panel in which to select a cell", kind=type(self).__name__)
            )
        if panel not in selectable:
            raise ValueError(
                tr("panel must be one of {allowed}, got {value!r}", allowed=selectable, value=panel)
            )
        i, j = check_cell(cell, view.panels[panel].shape)
        self.selection = [i, j, panel]

    def choices(self) -> dict[str, tuple[tuple[str, str, str], ...]]:
        """name -> the choices (value, caption, tooltip) of a control that is a menu, not a
        slider; in the current language."""
        return {}

    def values(self) -> dict[str, Any]:
        return dict(self.controls)

    def hint_text(self) -> str:
        return tr(
            "click a cell, or focus the picture and press the arrow keys, to see where its "
            "numbers come from"
        )

    def __getattr__(self, name: str):
        if not name.startswith("_"):
            if name in type(self).CONTROLS:
                return Control(self, name)
            shown = self.shown
            if name in shown.data:
                return shown.data[name]
        raise AttributeError(
            tr("{kind!r} object has no attribute {name!r}", kind=type(self).__name__, name=name)
        )

    def __repr__(self) -> str:
        args = ", ".join(f"{name}={value!r}" for name, value in self.controls.items())
        return f"{type(self).__name__}({args})"

    def picture_png(self) -> bytes:
        """A PNG of what the page shows now, drawn by matplotlib (where no widgets run)."""
        from ..pictures.plotting import plot_panels

        view = self.shown
        figure = plot_panels(view.panels, size=self.size)
        buffer = io.BytesIO()
        figure.savefig(buffer, format="png")
        return buffer.getvalue()

    def _repr_mimebundle_(self, **kwargs):
        # The widget where widgets run; elsewhere an <img> with a text alternative (a
        # front end that cannot show the widget shows it) and the PNG (nbconvert's PDF)
        from ..pictures.plotting import figure_html

        data, metadata = super()._repr_mimebundle_(**kwargs)
        png = self.picture_png()
        data["text/plain"] = repr(self)
        data["text/html"] = figure_html(png, self.alt_text())
        data["image/png"] = png
        return data, metadata

    def alt_text(self) -> str:
        """What the picture shows, in words: its panels' titles (the page's text alternative)."""
        return tr("Heatmaps: {titles}.", titles="; ".join(p.title for p in self.shown.panels))
