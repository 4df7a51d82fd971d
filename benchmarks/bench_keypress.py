"""Keypress to new pixels in a real browser, and the first paint of a notebook of explorers.

    python benchmarks/bench_keypress.py                    # JupyterLab, about 2 minutes
    python benchmarks/bench_keypress.py --app notebook     # Notebook 7
    python benchmarks/bench_keypress.py --app voila        # Voila's page
    PYTHONPATH=/path/to/older/checkout python benchmarks/bench_keypress.py   # before

Starts the front end on a notebook of five explorers (from this environment, on
127.0.0.1, with the browser tests' settings: tests/browser/servers.py), opens it in
headless Chromium at 1366 x 768 and:

- times Run All to every explorer drawn (its first picture on screen), the first
  paint;
- presses an arrow key on a control, 1 + ``--presses`` times per control (the first
  not counted), and times each from the keydown to the frame after the explorer's new
  picture: n, d_k and seed of ``explorer(n=32, d_k=16)`` with one head and with four,
  and the learned explorer's step and example.

Explorers drawn in the page (attnlib now) and the PNG explorers of older checkouts
are found and moved by the same code (tests/browser/pages.py), so that one sitting
gives a before and an after. Prints medians and p95 in ms; ``--json FILE`` keeps them.
Needs Chromium (ATTNLIB_CHROMIUM or /usr/bin/chromium); without it, says what to
install and stops.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from browser import notebooks, pages, servers

CELLS = [
    "import attnlib\nfrom IPython.display import display\nfrom attnlib import lookup\n"
    "history = lookup.train(lookup.init_params(seed=0), lookup.make_task(1280, seed=0),\n"
    "                       steps=100, checkpoints=range(0, 101, 10))\n"
    "held_out = lookup.make_task(100, seed=1)",
    "display(attnlib.explorer(n=32, d_k=16))",
    "display(attnlib.explorer(n=32, d_k=16, heads=4))",
    "display(attnlib.learned_explorer(history, held_out, step=50))",
    "display(attnlib.scaling_explorer(d_k=16))",
    "display(attnlib.qkv_explorer())",
]
# explorer (in page order) -> the controls pressed on it
PRESSED = {
    "heads 1, n = 32": (0, ("d_k", "n", "seed")),
    "heads 4, n = 32": (1, ("d_k", "n", "seed")),
    "learned": (2, ("step", "example")),
}

_DRAWN_JS = """(count) => {
  const pics = Array.from(document.querySelectorAll(
      '.attnlib-page-explorer canvas.attnlib-canvas, .attnlib-explorer img'));
  const drawn = pics.filter(p => p.tagName === 'CANVAS'
      ? !!p.closest('.attnlib-page-explorer').dataset.drawn
      : p.complete && p.naturalWidth > 0);
  return drawn.length >= count;
}"""


def median_p95(values: list[float]) -> tuple[float, float]:
    ordered = sorted(values)
    return statistics.median(ordered), ordered[max(0, -(-95 * len(ordered) // 100) - 1)]


def press(page, i: int, name: str, presses: int) -> list[float]:
    """1 + presses keypresses on control `name` of explorer i, alternating direction;
    ms of each but the first."""
    k = pages.slider_index(page, i, name)
    if k is None:
        raise RuntimeError(f"explorer {i} has no control {name!r}")
    times = []
    for move in range(presses + 1):
        s = pages.sliders(page, i)[k]
        key = "ArrowLeft" if (move % 2 == 0) == (s.value >= s.high) else "ArrowRight"
        if s.value <= s.low:
            key = "ArrowRight"
        problem, ms = pages.move(page, i, k, key, timeout_ms=10_000)
        if problem:
            raise RuntimeError(f"explorer {i}, {name}: {problem}")
        if move:
            times.append(ms)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--app", choices=("lab", "notebook", "voila"), default="lab")
    parser.add_argument("--presses", type=int, default=20)
    parser.add_argument("--json", metavar="FILE")
    args = parser.parse_args()
    chromium = servers.choose_chromium(None)
    if chromium is None or chromium.executable is None:
        print(f"bench_keypress: skipped: {servers.no_chromium_reason()}")
        return
    from playwright.sync_api import sync_playwright

    import attnlib

    figures: dict = {"app": args.app, "attnlib": os.path.dirname(attnlib.__file__)}
    with tempfile.TemporaryDirectory(prefix="bench-keypress-") as tmp:
        root = Path(tmp) / "notebooks"
        root.mkdir()
        notebooks.write_notebook(root / "bench.ipynb", CELLS)
        log = Path(tmp) / "server.log"
        if args.app == "voila":
            server = servers.start_voila(root / "bench.ipynb", Path(tmp) / "home", log)
        else:
            server = servers.start_jupyter(args.app, root, Path(tmp) / "home", log)
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(
                    executable_path=chromium.executable, args=servers.launch_args()
                )
                context = browser.new_context(viewport={"width": 1366, "height": 768})
                context.add_init_script(pages.TIMING_INIT_JS)
                page = context.new_page()
                cells = pages.read_cells(root / "bench.ipynb")
                if args.app == "voila":
                    started = time.perf_counter()
                    page.goto(server.url + "/", timeout=120_000)
                else:
                    pages.open_notebook(page, server, "bench.ipynb", len(cells), app=args.app)
                    started = time.perf_counter()
                    pages.run_all_from_menu(page)
                page.wait_for_function(_DRAWN_JS, arg=5, timeout=180_000, polling=10)
                figures["run_all_to_drawn_s"] = round(time.perf_counter() - started, 2)
                if args.app != "voila":
                    problems = pages.wait_until_run(page, cells)
                    if problems:
                        raise RuntimeError("; ".join(problems))
                count = pages.mark_explorers(page)
                if count != 5:
                    raise RuntimeError(f"{count} explorers on the page, 5 expected")
                for label, (i, names) in PRESSED.items():
                    page.locator(f'[data-bt-explorer="{i}"]').evaluate(
                        "el => el.scrollIntoView({block: 'start'})"
                    )
                    for name in names:
                        med, p95 = median_p95(press(page, i, name, args.presses))
                        figures[f"{label}: {name}"] = {
                            "median": round(med, 1),
                            "p95": round(p95, 1),
                        }
                browser.close()
        finally:
            server.stop()
    print(f"attnlib from {figures['attnlib']}; {args.app}; load average "
          f"{' '.join(f'{x:.1f}' for x in os.getloadavg())}")  # fmt: skip
    print(f"Run All -> five explorers drawn: {figures['run_all_to_drawn_s']} s")
    print(f"keypress -> new pixels (ms, median / p95 of {args.presses} presses):")
    for key, value in figures.items():
        if isinstance(value, dict):
            print(f"  {key:<28} {value['median']:7.1f} / {value['p95']:7.1f}")
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=1))


if __name__ == "__main__":
    main()
