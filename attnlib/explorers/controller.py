"""The controller every explorer shares: controls, a picture and a readout, wired together.

An explorer is its controls plus a pure function from their values to a
:class:`~attnlib.explorers.views.View` (panels, readout, data), see
:mod:`attnlib.explorers.views`. Moving a control calls that function and
redraws the picture in place on one persistent figure
(:class:`attnlib.pictures.redraw.FastCanvas`), shown as a PNG in an
``ipywidgets.Image``. Clicks on that picture come through ipyevents and are
mapped to cells by :meth:`attnlib.pictures.layout.Geometry.cell_at`. Everything
an explorer shows is reachable without widgets, by calling the same view
function. Each family of explorers subclasses :class:`Explorer` in a module of
its own.
"""

from __future__ import annotations

import base64
import math
import traceback
import unicodedata
from collections.abc import Callable
from typing import ClassVar

import ipyevents
import ipywidgets as widgets
from ipywidgets.widgets.trait_types import CByteMemoryView
from traitlets import Unicode

from ..i18n import tr
from ..maths.validation import as_size
from ..pictures.heatmap import check_cell
from ..pictures.layout import check_size
from ..pictures.redraw import FastCanvas
from . import views

__all__ = [
    "LIMITS",
    "Explorer",
    "Picture",
    "caption",
    "caption_width",
    "event_pixel",
    "tooltip",
]

#: name -> (minimum, maximum, what it is), for sliders and fixed arguments alike
LIMITS = {
    "n": (2, 32, "sequence length"),
    "d": (1, 64, "embedding size"),
    "d_k": (1, 64, "query/key size"),
    "d_v": (1, 64, "value size"),
    "seed": (0, 99, "random seed"),
}
MAX_D = 512  # d when it is a fixed argument rather than a slider


def _as_data_url(value, widget: Picture) -> bytes:
    # the browser's copy of the picture: a data: URL of the same bytes
    if widget.format == "url":
        return bytes(value)
    return b"data:image/%s;base64," % widget.format.encode() + base64.b64encode(value)


class Picture(widgets.Image):
    """An ``ipywidgets.Image`` that reaches the browser as a ``data:`` URL.

    In Python nothing changes: ``value`` holds the PNG bytes and ``format`` says
    ``"png"``. The copy sent to the browser is ``data:image/png;base64,...`` with
    the format ``"url"``, which ipywidgets' Image view sets as the ``<img>``'s
    source as it is. A plain Image makes a Blob URL of its bytes instead, and
    Chromium fetches a Blob URL through its browser process before it can show
    it: on this project's explorer pictures (n = 32, about 58 kB) in headless
    Chromium, the ``load`` event came 4.7 ms after a new Blob URL and 0.4 ms
    after a new data URL (medians, ``benchmarks/bench_picture_url.py``). The
    price is a third more bytes on the websocket.
    """

    # new traits (tagging Image's own would change every Image's state)
    format = Unicode("png", help="The format of the image.").tag(
        sync=True, to_json=lambda value, widget: "url"
    )
    value = CByteMemoryView(help="The image's bytes.").tag(sync=True, to_json=_as_data_url)


def tooltip(what: str) -> str:
    """A control's description from ``LIMITS`` (English) in the current language.

    Examples
    --------
    >>> tooltip("sequence length"), tooltip("something new")
    ('sequence length', 'something new')
    """
    translated = {
        "sequence length": tr("sequence length"),
        "embedding size": tr("embedding size"),
        "query/key size": tr("query/key size"),
        "value size": tr("value size"),
        "random seed": tr("random seed"),
        "number of heads, each of width d_k": tr("number of heads, each of width d_k"),
        "a sequence of the task": tr("a sequence of the task"),
    }
    return translated.get(what, what)


def caption(name: str) -> str:
    """The caption shown beside control `name`, in the current language.

    A word (seed, heads, mask, step, example) is translated; a symbol of the
    chapter (n, d, d_k, d_v) stays as the formulas and the code write it.
    Either way the control is found by its DOM class ``attnlib-control-NAME``,
    not by its caption.

    Examples
    --------
    >>> caption("seed"), caption("d_k")
    ('seed', 'd_k')
    """
    words = {
        "seed": tr("seed"),
        "heads": tr("heads"),
        "mask": tr("mask"),
        "step": tr("step"),
        "example": tr("example"),
    }
    return words.get(name, name)


def caption_width(captions, *, large: bool) -> str:
    """The CSS width of a caption box that holds every one of `captions` whole.

    Latin captions keep the fixed width that fits them (40 px, 100 px on a
    projector); a caption with Chinese characters (1 em wide each, at the
    labels' 13 px or the projector's 22 px) widens the box to what it needs.

    Examples
    --------
    >>> caption_width(["n", "seed"], large=False), caption_width(["n", "随机种子"], large=False)
    ('40px', '56px')
    """
    em = 22 if large else 13
    need = 0.0
    for text in captions:
        wide = sum(unicodedata.east_asian_width(c) in "WF" for c in text)
        if wide:  # Latin letters taken at 0.6 em, generous for a proportional font
            need = max(need, em * (wide + 0.6 * (len(text) - wide)))
    return f"{max(100 if large else 40, math.ceil(need) + 4)}px"


_LARGE_CSS = """<style>
.attnlib-large .widget-label, .attnlib-large .widget-readout { font-size: 22px !important; }
.attnlib-large .widget-slider { height: 40px; }
.attnlib-large .widget-html-content { font-size: 20px; }
.attnlib-large .widget-html-content table { font-size: inherit; }
.attnlib-large .widget-html-content :is(td, th) { padding: 2px 14px; }
.attnlib-large .widget-dropdown select { font-size: 20px; height: 36px; }
.attnlib-large .widget-toggle-button { font-size: 20px; height: 40px; width: auto; padding: 0 1em; }
</style>"""
_CLICKABLE_CSS = "<style>.attnlib-explorer .attnlib-clickable { cursor: crosshair; }</style>"
NO_CELL = "none"  # the English label of "no cell selected" in the query i / key j menus
#: The menus' value for "no cell": not None, which ipywidgets takes for "nothing chosen"
#: and shows as an empty box instead of the "none" label.
NO_CELL_VALUE = -1


def event_pixel(event: dict, natural: tuple[int, int]) -> tuple[float, float] | None:
    """Where a click landed in a picture's own pixels, from an ipyevents event dict.

    ipyevents gives ``dataX, dataY`` for an Image: the click scaled from the
    size the picture is shown at to its natural size (``natural``, the PNG's
    width and height), so a picture shrunk to fit the page maps right.
    Without them, ``relativeX, relativeY`` (CSS pixels from the picture's
    top-left corner) are scaled by natural size over ``boundingRectWidth,
    boundingRectHeight``. None for an event without a position.

    Examples
    --------
    >>> event_pixel({"type": "click", "dataX": 120, "dataY": 45}, (1000, 400))
    (120.0, 45.0)
    >>> event_pixel({"relativeX": 50, "relativeY": 20, "boundingRectWidth": 500,
    ...              "boundingRectHeight": 200}, (1000, 400))
    (100.0, 40.0)
    """
    if event.get("dataX") is not None and event.get("dataY") is not None:
        return float(event["dataX"]), float(event["dataY"])
    keys = ("relativeX", "relativeY", "boundingRectWidth", "boundingRectHeight")
    if all(event.get(k) for k in keys[2:]) and all(event.get(k) is not None for k in keys[:2]):
        x, y, shown_w, shown_h = (float(event[k]) for k in keys)
        return x * natural[0] / shown_w, y * natural[1] / shown_h
    return None


class Explorer(widgets.VBox):
    """Controls, a picture and a readout; the base of every explorer.

    A subclass sets three class attributes and nothing else:

    - ``CONTROLS``: the names of its sliders (see ``LIMITS``), in order;
    - ``FIXED``: the names of its fixed arguments (not sliders);
    - ``view``: a pure function taking all of those by keyword and returning
      a :class:`~attnlib.views.View`.

    The controls are in ``e.controls`` and the fixed arguments in
    ``e.fixed``; the View on screen, data and selection included, is
    ``e.shown``. For reading, ``e.n`` is ``e.controls["n"]`` and
    ``e.attention`` is ``e.shown.data["attention"]``: looked up there, never
    set on the widget, so no name can replace one of the widget's own traits
    (a control or data name that would hide one is refused).

    Parameters
    ----------
    size : {"normal", "large"}, default "normal"
    **values : int
        One value per name in CONTROLS and FIXED.

    Attributes
    ----------
    controls : dict of str to ipywidgets.ValueWidget
    fixed : dict of str to int
    shown : View
        What the picture and the readout show now (see :mod:`.views`).
    selection : tuple of int or None
        The cell (i, j) outlined in the selectable panels (see :meth:`select`),
        ``shown.selection``.
        Clicking a cell of a selectable panel selects it (see :meth:`on_click`);
        so do the menus ``query_i`` and ``key_j``, the route without a mouse.
    query_i, key_j : ipywidgets.Dropdown or None
        The selected cell's row and column ("none": no selection), kept in step
        with clicks and with n; None when no panel is selectable.
    clicks : ipyevents.Event or None
        Sends the picture's clicks to :meth:`on_click`.
    figure : matplotlib.figure.Figure
        The one figure drawn on for the explorer's whole life.
    image : ipywidgets.Image
        The current picture, PNG bytes in ``image.value``.
    readout : ipywidgets.HTML
        The numbers under the picture.
    errors : ipywidgets.Output
        Shows the traceback if a redraw fails (empty otherwise).
    last_error : Exception or None
        The exception of the last failed redraw, None after a good one.
    """

    CONTROLS: ClassVar[tuple[str, ...]] = ()
    FIXED: ClassVar[tuple[str, ...]] = ()
    LIMITS: ClassVar[dict[str, tuple[int, int, str]]] = LIMITS  # extend for new slider names
    view: ClassVar[Callable[..., views.View]]

    def __init__(self, *, size: str = "normal", **values: int):
        super().__init__()
        wanted = (*self.CONTROLS, *self.FIXED)
        if sorted(values) != sorted(wanted):
            raise TypeError(
                f"{type(self).__name__} takes {', '.join(wanted)} by keyword, got {sorted(values)}"
            )
        self.size = check_size(size)
        large = self.size == "large"
        self.fixed = {
            name: as_size(
                name,
                values[name],
                minimum=self.LIMITS[name][0],
                maximum=MAX_D if name == "d" else self.LIMITS[name][1],
            )
            for name in self.FIXED
        }
        self._refuse_hidden(self.CONTROLS, "control")
        self.controls = {name: self.make_control(name, values[name]) for name in self.CONTROLS}
        for name, control in self.controls.items():  # found by name in any language
            control.add_class(f"attnlib-control-{name}")
        self.shown: views.View | None = None
        self.query_i = self.key_j = self.clicks = None
        self._syncing = False  # True while redraw sets the menus: not a choice of the user's
        self.last_error = None
        self._canvas = FastCanvas(self.size)
        self.image = Picture(
            # flex-start: a VBox stretches its children to its width, which would
            # upscale (and blur) the picture; keep its own size, shrink if narrower
            format="png",
            layout=widgets.Layout(max_width="100%", height="auto", align_self="flex-start"),
        )
        self.readout = widgets.HTML(layout=widgets.Layout(margin="0 0 0 12px"))
        self.readout.add_class("attnlib-readout")  # found by the browser tests
        self._font = "1em" if large else "0.95em"  # large: 20px from _LARGE_CSS
        self.errors = widgets.Output()
        self.redraw()  # a bad argument raises here, in the user's cell
        for control in self.controls.values():
            control.observe(self._on_change, names="value")
        self.add_class("attnlib-explorer")
        extra, pick = [], []
        if large:  # slider labels have no font-size style: scale them with CSS, for a projector
            self.add_class("attnlib-large")
            extra = [widgets.HTML(_LARGE_CSS, layout=widgets.Layout(display="none"))]
        if any(p.selectable for p in self.shown.panels):
            pick = [self._make_cell_picking()]
            extra.append(widgets.HTML(_CLICKABLE_CSS, layout=widgets.Layout(display="none")))
        elif self.no_click_note():  # a heatmap that does not answer a click says why
            pick = [widgets.HTML(f"<i>{self.no_click_note()}</i>")]
        self.children = (
            *extra,
            widgets.HBox(list(self.controls.values()), layout=widgets.Layout(flex_flow="row wrap")),
            *pick,
            self.image,
            self.readout,
            self.errors,
        )

    def _make_cell_picking(self) -> widgets.HBox:
        # The click handler on the picture and the two menus that do the same by keyboard.
        large = self.size == "large"
        menus = []
        for label in (tr("query i"), tr("key j")):
            menu = widgets.Dropdown(
                options=[(tr("none"), NO_CELL_VALUE)],
                value=NO_CELL_VALUE,
                description=label,
                layout=widgets.Layout(width="250px" if large else "180px"),
                style={"description_width": "90px" if large else "55px"},
            )
            menu.observe(self._on_cell_menu, names="value")
            menus.append(menu)
        self.query_i, self.key_j = menus
        self._sync_cell_menus()
        self.clicks = ipyevents.Event(source=self.image, watched_events=["click"])
        self.clicks.on_dom_event(self.on_click)
        self.image.add_class("attnlib-clickable")
        hint = widgets.HTML(
            tr("click a cell to see where its numbers come from, or choose one:"),
            layout=widgets.Layout(margin="0 8px 0 0"),
        )
        return widgets.HBox([hint, *menus], layout=widgets.Layout(flex_flow="row wrap"))

    def no_click_note(self) -> str:
        """The caption of an explorer whose pictures do not answer a click: why not ("" if
        they do). Override it in an explorer without a selectable panel."""
        return ""

    def make_control(self, name: str, value: int) -> widgets.ValueWidget:
        """The control for `name`: an IntSlider over ``self.LIMITS[name]``. Override for others
        (a Dropdown for a mask choice, say); any ipywidgets ValueWidget will do."""
        low, high, what = self.LIMITS[name]
        large = self.size == "large"
        return widgets.IntSlider(
            value=as_size(name, value, minimum=low, maximum=high),
            min=low,
            max=high,
            description=caption(name),
            tooltip=tooltip(what),
            continuous_update=True,
            layout=widgets.Layout(width="460px" if large else "300px"),
            style={"description_width": self.caption_width()},
        )

    def caption_width(self) -> str:
        """The width of every control's caption box: one for all, so that the sliders line
        up, wide enough for the longest caption in the current language."""
        return caption_width(map(caption, self.CONTROLS), large=self.size == "large")

    @property
    def figure(self):
        """The matplotlib Figure (the same object after every redraw)."""
        return self._canvas.figure

    @property
    def canvas(self) -> FastCanvas:
        """What draws the picture: its Heatmaps, and counters of the redraw paths taken."""
        return self._canvas

    def values(self) -> dict[str, int]:
        """The controls' current values, by name."""
        return {name: control.value for name, control in self.controls.items()}

    @property
    def selection(self) -> tuple[int, int] | None:
        return None if self.shown is None else self.shown.selection

    def __getattr__(self, name: str):
        # Only for names the widget does not have: a control, or an entry of the view's data.
        if not name.startswith("_"):
            controls = self.__dict__.get("controls", {})
            if name in controls:
                return controls[name]
            shown = self.__dict__.get("shown")
            if shown is not None and name in shown.data:
                return shown.data[name]
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def _refuse_hidden(self, names, what: str) -> None:
        hidden = sorted(name for name in names if hasattr(type(self), name))
        if hidden:
            raise ValueError(
                f"{type(self).__name__}: {what} name(s) {hidden} are taken by the widget itself; "
                "rename them"
            )

    def redraw(self) -> None:
        """Recompute from the controls and redraw (fast when only the numbers changed)."""
        view = self.view(**self.values(), **self.fixed)
        self._refuse_hidden(view.data, "view data")
        panel = 0 if self.shown is None else self.shown.panel
        self._show(view.select(self.selection, panel))  # the view clamps it: n may have shrunk

    def _show(self, view: views.View) -> None:
        png = self._canvas.show(view.panels, view.selection)
        self.shown = view
        self.image.value = png
        # The selected cell's summary line first, right under the picture: a click's
        # answer is on screen without scrolling; the full table comes after the readout.
        text = view.summary + view.readout + self.describe_selection()
        self.readout.value = f'<div style="font-size: {self._font}; line-height: 1.5">{text}</div>'
        if self.query_i is not None:
            self._sync_cell_menus()

    def _selectable_panel(self):
        return next((p for p in self.shown.panels if p.selectable), None)

    def _sync_cell_menus(self) -> None:
        # Menus follow the picture: one entry per row / column (token names when the
        # panel has them), and the selected cell. Options are set only when they change:
        # setting them sends them to the browser and resets the menu's value.
        panel = self._selectable_panel()
        rows, cols = panel.shape
        self._syncing = True
        try:
            for k, (menu, labels, count) in enumerate(
                ((self.query_i, panel.row_labels, rows), (self.key_j, panel.col_labels, cols))
            ):
                names = [f"{m}: {labels[m]}" if labels else str(m) for m in range(count)]
                options = ((tr("none"), NO_CELL_VALUE), *zip(names, range(count), strict=True))
                value = NO_CELL_VALUE if self.selection is None else self.selection[k]
                with menu.hold_sync():  # new labels and the index: one message, not two or three
                    if menu.options != options:
                        menu.options = options
                    if menu.value != value:
                        menu.value = value
        finally:
            self._syncing = False

    def _on_cell_menu(self, change) -> None:
        if self._syncing:
            return
        i, j = self.query_i.value, self.key_j.value
        if change["new"] == NO_CELL_VALUE:  # "none" in either menu clears the selection
            cell = None
        else:  # a row without a column (or the reverse) starts on the diagonal, clamped
            cell = (j if i == NO_CELL_VALUE else i, i if j == NO_CELL_VALUE else j)
        self._safely(lambda: self._show(self.shown.select(cell)))

    def on_click(self, event: dict) -> None:
        """What ipyevents calls with a click on the picture: select the cell under it.

        `event` is ipyevents' dict (see :func:`event_pixel`). A click outside
        every cell, or in a panel that is not selectable, changes nothing:
        a stray click on a title or a colorbar keeps the breakdown in view.
        Choose "none" in a menu to clear the selection.
        """
        self._safely(self._click, event)

    def _click(self, event: dict) -> None:
        geometry = self._canvas.geometry
        pixel = event_pixel(event, geometry.pixels)
        hit = None if pixel is None else geometry.cell_at(*pixel)
        if hit is not None and self.shown.panels[hit[0]].selectable:
            self.select(hit[1:], panel=hit[0])

    def cell_pixel(self, cell: tuple[int, int], panel: int = 0) -> tuple[float, float]:
        """Pixel (x, y) of the middle of `cell` (i, j) of `panel` in the picture, from its top-left
        corner in the PNG's own pixels: a click there selects the cell."""
        return self._canvas.geometry.cell_centre(panel, *cell)

    def describe_selection(self) -> str:
        """HTML shown under the readout for the selected cell: the view's full breakdown of it
        (its summary line is shown above the readout).

        A subclass whose view has no ``explain`` may override it, reading
        ``self.selection`` and the view's data (``self.shown.data``).
        """
        return self.shown.details

    def select(self, cell: tuple[int, int] | None, panel: int | None = None) -> None:
        """Outline cell (i, j) in every selectable panel (None: no outline), and show its breakdown.

        `panel` is the panel the cell is chosen in (a click passes the one it
        landed in): with several heads, the head explained. None keeps the last.

        Only what a selection changes is done: the view picks the cell and
        explains it, and the picture redraws on its fast path; the maths is
        not run again. The selection stays while the sliders move (clamped
        when n shrinks).
        """
        panel_index = panel
        if cell is not None:
            panel = self._selectable_panel()
            if panel is None:
                raise ValueError(f"{type(self).__name__} has no panel in which to select a cell")
            cell = check_cell(cell, panel.shape)
        self._show(self.shown.select(cell, panel_index))

    def _on_change(self, change) -> None:
        self._safely(self.redraw)

    def _safely(self, action, *args) -> None:
        # An exception in a traitlets observer (or an ipyevents callback) would end
        # in the kernel's log, unseen: show it under the picture, keep the old picture.
        try:
            action(*args)
        except Exception as exc:
            self.last_error = exc
            text = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
            self.errors.outputs = ()
            self.errors.append_stderr(f"redraw failed for {self!r}:\n{text}")
        else:
            if self.last_error is not None or self.errors.outputs:
                self.last_error = None
                self.errors.outputs = ()

    def __repr__(self) -> str:
        args = ", ".join(f"{name}={value}" for name, value in self.values().items())
        return f"{type(self).__name__}({args})"

    def _repr_mimebundle_(self, **kwargs):
        # The widget view for a live kernel; a PNG of the current picture for
        # GitHub, nbviewer and PDF; a short, stable text/plain for nbval.
        bundle = super()._repr_mimebundle_(**kwargs)
        bundle["text/plain"] = repr(self)
        bundle["image/png"] = bytes(self.image.value)
        return bundle
