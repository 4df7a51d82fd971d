"""The explorers on a laptop (issue 22): JupyterLab at 1366 × 768 with the file browser open.

One notebook shows the heads explorer with 4 and 8 heads, the √d_k explorer (04) and the
learned explorer (06) at its first and last step, in English or in Chinese. Checked as
a learner would see them: no label or control text cut off, no label apart from its control,
no readout line wrapped (n = 21 too), a click in head 2 explains
head 2, the click's summary line is on screen without scrolling, and 04's explorer
answers a click. Screenshots go to test-artifacts/laptop-*.png.
"""

from __future__ import annotations

import pytest

from . import notebooks, pages
from .conftest import artifact, open_tab
from .test_lab import report

WIDTH, HEIGHT = 1366, 768
EXPLORERS = {  # the order they are shown in: data-bt-explorer 0, 1, ...
    "heads4": "attnlib.explorer(n=6, heads=4)",
    "heads8": "attnlib.explorer(n=6, heads=8)",
    "n21": "attnlib.explorer(n=21)",
    "qkv": "attnlib.qkv_explorer()",
    "scaling": "attnlib.scaling_explorer(d_k=16)",
    "learned0": "attnlib.learned_explorer(history, held_out, step=0)",
    "learned_last": "attnlib.learned_explorer(history, held_out)",
}
TRAIN = (
    "from attnlib import lookup\n"
    "history = lookup.train(lookup.init_params(seed=0), lookup.make_task(1280, seed=0),\n"
    "                       steps=200, batch_size=32, lr=0.01, checkpoints=range(0, 201, 10))\n"
    "held_out = lookup.make_task(500, seed=1)"
)

# Where explorer i's summary line is, and the part of the window the notebook shows
_SUMMARY_JS = """(i) => {
  const el = document.querySelector(`[data-bt-explorer="${i}"] .attnlib-summary`);
  if (!el) return null;
  const r = el.getBoundingClientRect();
  const panel = el.closest('.jp-WindowedPanel-outer, .jp-Notebook') || document.body;
  const p = panel.getBoundingClientRect();
  return {text: el.textContent, top: r.top, bottom: r.bottom,
          viewTop: Math.max(0, p.top), viewBottom: Math.min(window.innerHeight, p.bottom)};
}"""

_SUMMARY_HAS_JS = """([i, wanted]) => {
  const el = document.querySelector(`[data-bt-explorer="${i}"] .attnlib-summary`);
  return !!el && el.textContent.includes(wanted);
}"""


def summary_problems(page, i: int, wanted: str, what: str) -> list[str]:
    """The summary line of explorer i says `wanted` and lies wholly inside what the notebook
    shows, without scrolling."""
    try:
        page.wait_for_function(_SUMMARY_HAS_JS, arg=[i, wanted], timeout=8000)
    except Exception:
        shown = page.evaluate(_SUMMARY_JS, i)
        return [f"{what}: no summary line with {wanted!r}; shown: {shown and shown['text']!r}"]
    place = page.evaluate(_SUMMARY_JS, i)
    if place["top"] < place["viewTop"] or place["bottom"] > place["viewBottom"]:
        return [
            f"{what}: the summary line is at y = {place['top']:.0f}..{place['bottom']:.0f}, "
            f"the notebook shows {place['viewTop']:.0f}..{place['viewBottom']:.0f}"
        ]
    return []


@pytest.mark.parametrize("language", ["en", "zh"])
def test_explorers_fit_a_laptop_and_answer_every_click(
    lab, lab_root, new_context, language, record_property
):
    import attnlib

    name = f"_browser_tests/laptop_{language}.ipynb"
    notebooks.write_notebook(
        lab_root / name,
        [
            f"import attnlib\nfrom IPython.display import display\n"
            f"attnlib.set_language({language!r})",
            TRAIN,
            *(f"display({call})" for call in EXPLORERS.values()),
        ],
    )
    tab = open_tab(new_context, width=WIDTH, height=HEIGHT)
    page = tab.page
    pages.open_lab(page, lab)
    # A learner's laptop shows the file browser beside the notebook. JupyterLab may still
    # be settling its layout (?reset) when it says it is restored, and the sidebar opens
    # on a later frame: ask for it, wait, and ask once more before measuring.
    width_js = (
        "() => { const b = document.querySelector('.jp-FileBrowser');"
        " return b ? b.getBoundingClientRect().width : 0; }"
    )
    for _ in range(2):
        page.evaluate("() => window.jupyterapp.commands.execute('filebrowser:activate')")
        try:
            page.wait_for_function(f"({width_js})() > 150", timeout=5_000)
            break
        except Exception:
            continue  # the assertion below says how wide it is
    browser_width = page.evaluate(width_js)
    assert browser_width > 150, f"the file browser is not open ({browser_width:.0f} px wide)"
    cells = pages.read_cells(lab_root / name)
    pages.open_notebook(page, lab, name, len(cells))
    pages.run_all_from_menu(page)
    problems = pages.wait_until_run(page, cells) + pages.output_problems(page, cells)
    assert not problems, report(problems, f"laptop notebook ({language})")
    assert pages.mark_explorers(page) == len(EXPLORERS), "not every explorer is shown"
    index = {key: k for k, key in enumerate(EXPLORERS)}

    problems += pages.layout_problems(page)
    for key in ("heads4", "heads8", "learned0", "learned_last"):
        explorer = page.locator(f'[data-bt-explorer="{index[key]}"]')
        explorer.scroll_into_view_if_needed()
        explorer.screenshot(path=artifact(f"laptop-{key}-{language}.png"))

    attnlib.set_language(language)
    head_2 = attnlib.i18n.tr("head {h} of {heads}", h=2, heads=4)
    scaled = attnlib.i18n.tr("scaled by √d_k")
    attnlib.set_language("en")
    # a click in head 2 explains head 2, its summary line on screen
    problem, _ = pages.click_cell(page, index["heads4"], (1, 3), panel=2)
    problems += [f"heads = 4, click in head 2: {problem}"] if problem else []
    problems += summary_problems(page, index["heads4"], head_2, "heads = 4, click in head 2")
    page.screenshot(path=artifact(f"laptop-summary-heads4-{language}.png"))
    # 04's √d_k explorer answers a click: the scaled pass, in the right-hand panel
    problem, _ = pages.click_cell(page, index["scaling"], (2, 5), panel=1)
    problems += [f"√d_k explorer, click: {problem}"] if problem else []
    problems += summary_problems(page, index["scaling"], scaled, "√d_k explorer, click")
    page.screenshot(path=artifact(f"laptop-summary-scaling-{language}.png"))
    problems += tab.problems()
    record_property("file_browser_px", round(browser_width))
    page.close()
    assert not problems, report(problems, f"explorers at {WIDTH} × {HEIGHT} ({language})")
