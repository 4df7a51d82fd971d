"""Build the course website from the notebooks' stored outputs: one Sphinx site per edition.

    python tools/site/build.py                 # every edition, into site/ (make site)
    python tools/site/build.py --out DIR --editions en

Each edition of attnlib/i18n/languages.py becomes site/<code>/ (site/en, site/zh), built
by Sphinx with myst-nb from the notebooks as `make notebooks` stored them (nothing is
executed but the few cells below), with sphinx-book-theme, Sphinx's own search and
MathJax served from the site. site/index.html lets the reader choose an edition.

What the builder changes in each notebook before Sphinx reads it (in a copy):

- at the top, the page's links: the same page in the other editions, the notebook
  itself (a copy under notebooks/), Binder and the class hub when configured;
- an explorer's stored picture becomes the live explorer, drawn in the page by the
  same module as in JupyterLab (attnlib.explorers.static), with its numbers for seeds
  0 to 9 (SEEDS); the builder makes the explorer again by running the explorer's cell
  and the cells it needs (replay.py);
- a prediction whose answer is a word or a number answers in the page (predictions.py);
- an exercise, or a prediction of a shape or an array, says where to run it.

Settings, from the environment (all optional; the Makefile passes them through):
SITE_BINDER_REPO (GitHub owner/name: a Binder link per page), SITE_BRANCH (main),
SITE_HUB (a JupyterHub's address) with SITE_COURSE_REPO (the course's git URL as the
hub reaches it): an nbgitpuller link per page, as deploy/jupyterhub/README.md builds it.
"""

from __future__ import annotations

import argparse
import ast
import html
import json
import os
import re
import shutil
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from urllib.parse import quote, urlencode

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
sys.path.insert(0, str(HERE))
from words import words  # noqa: E402

SEEDS = range(10)  # the seeds an explorer's page holds: its seed slider runs over these
COURSE_DIR = "attnlib-course"  # where nbgitpuller puts the course (deploy/jupyterhub)
EXPLORER_REPR = re.compile(r"^\w+Explorer\(")
PREDICTION = re.compile(r"\bcheck_prediction_\w+\s*\(")
EXERCISE = re.compile(r"\bchecks\.check_\w+\s*\(")


# --------------------------------------------------------------------------- links


def links(code: str, name: str, editions: dict, notebooks: str) -> str:
    """The bar at the top of a page: the other editions' same page, the notebook's routes."""
    w = words(code)
    other = [
        f'<a class="attnlib-switch" lang="{c}" hreflang="{c}" href="../{c}/{name}.html">'
        f"{html.escape(words(c)['edition_name'])}</a>"
        for c in editions
        if c != code
    ]
    path = f"{notebooks}/{name}.ipynb"
    routes = [f'<a href="notebooks/{quote(name)}.ipynb" download>{w["download"]}</a>']
    repo, branch = os.environ.get("SITE_BINDER_REPO"), os.environ.get("SITE_BRANCH", "main")
    if repo:
        url = f"https://mybinder.org/v2/gh/{repo}/{branch}?urlpath=" + quote(f"lab/tree/{path}")
        routes.append(f'<a href="{html.escape(url)}">{w["binder"]}</a>')
    hub, course = os.environ.get("SITE_HUB"), os.environ.get("SITE_COURSE_REPO")
    if hub and course:
        query = urlencode({"repo": course, "branch": branch, "targetpath": COURSE_DIR,
                           "urlpath": f"lab/tree/{COURSE_DIR}/{path}"})  # fmt: skip
        url = f"{hub.rstrip('/')}/hub/user-redirect/git-pull?{query}"
        routes.append(f'<a href="{html.escape(url)}">{w["hub"]}</a>')
    return (
        '<nav class="attnlib-site-links" aria-label="notebook">'
        + " ".join(other)
        + f' <span class="attnlib-routes">{w["this_page"]}: '
        + " · ".join(routes)
        + "</span></nav>"
    )


def switch_only(bar: str) -> str:
    """The bar without the notebook's routes (the index page has no notebook)."""
    return bar.split(' <span class="attnlib-routes">')[0] + "</nav>"


def run_box(code: str, name: str, editions: dict, notebooks: str) -> str:
    """Under an exercise: where to run it (the same routes as the top of the page)."""
    w = words(code)
    bar = links(code, name, editions, notebooks)
    routes = bar.split('<span class="attnlib-routes">', 1)[1].rsplit("</span>", 1)[0]
    return f'<div class="attnlib-run-here"><p>{w["exercise"]}</p><p>{routes}</p></div>'


# --------------------------------------------------------------------------- cells


def _html_output(text: str) -> dict:
    return {"output_type": "display_data", "metadata": {}, "data": {"text/html": text}}


def explorer_html(state: dict, key: str) -> str:
    payload = json.dumps(state).replace("<", "\\u003c")
    return (
        f'<div class="attnlib-site-explorer" id="{key}"></div>'
        f'<script type="application/json" class="attnlib-state" data-for="{key}">'
        f"{payload}</script>"
    )


def check_html(data: dict, key: str, code: str) -> str:
    w = words(code)
    data = {**data, "words": {k: w[k] for k in ("check", "your_answer", "choose")}}
    payload = json.dumps(data).replace("<", "\\u003c")
    return (
        f'<div class="attnlib-site-check" id="{key}"></div>'
        f'<script type="application/json" class="attnlib-check-data" data-for="{key}">'
        f"{payload}</script>"
    )


def _stored_repr(cell: dict) -> str:
    for out in cell.get("outputs", []):
        text = out.get("data", {}).get("text/plain", "")
        text = "".join(text) if isinstance(text, list) else text
        if out.get("output_type") == "execute_result" and EXPLORER_REPR.match(text):
            return text
    return ""


def _check_call(source: str):
    # the last statement's call of attnlib.checks.check_prediction_NAME(answer, **kwargs)
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return None
    last = tree.body[-1] if tree.body else None
    call = getattr(last, "value", None)
    if not isinstance(call, ast.Call) or not isinstance(call.func, ast.Attribute):
        return None
    if not call.func.attr.startswith("check_prediction_") or len(call.args) != 1:
        return None
    return call


def transform(nb: dict, code: str, name: str, editions: dict, notebooks: str, log) -> dict:
    """The notebook as its page shows it (see the module's docstring)."""
    from predictions import table
    from replay import Replay

    import attnlib
    from attnlib.explorers.page import PageExplorer
    from attnlib.explorers.static import page_state
    from attnlib.i18n import catalog

    cells = nb["cells"]
    sources = ["".join(c["source"]) if c["cell_type"] == "code" else "" for c in cells]
    setup = "import attnlib\n" + (f"attnlib.set_language({code!r})\n" if code != "en" else "")
    replay = Replay(sources, setup=setup)
    labels = catalog(code) if code != "en" else {}
    for k, cell in enumerate(cells):
        if cell["cell_type"] != "code":
            continue
        source, key = sources[k], f"attnlib-{name}-{k}"
        if _stored_repr(cell):
            try:
                explorer = replay.value(k)
            except Exception as exc:  # the stored picture stays
                log(f"{name} cell {k}: explorer not made again ({exc}); its picture stays")
                continue
            if isinstance(explorer, PageExplorer) and repr(explorer) == _stored_repr(cell):
                cell["outputs"] = [_html_output(explorer_html(page_state(explorer, seeds=SEEDS),
                                                              key))]  # fmt: skip
                log(f"{name} cell {k}: live {explorer!r}")
            else:
                log(f"{name} cell {k}: {explorer!r} is not the stored explorer; its picture stays")
            continue
        call = _check_call(source) if PREDICTION.search(source) else None
        made = None
        if call is not None:
            try:
                ns = replay.namespace(k)
                check = getattr(attnlib.checks, call.func.attr)
                kwargs = {kw.arg: eval(compile(ast.Expression(kw.value), "<kwarg>", "eval"), ns)
                          for kw in call.keywords}  # fmt: skip
                made = table(check, kwargs, labels)
            except Exception as exc:
                log(f"{name} cell {k}: {call.func.attr} not answered in the page ({exc})")
        if made is not None:
            cell["outputs"] = [_html_output(check_html(made, key, code))]
            log(f"{name} cell {k}: {made['name']} answered in the page ({made['kind']})")
        elif PREDICTION.search(source) or EXERCISE.search(source):
            cell["outputs"] = [_html_output(run_box(code, name, editions, notebooks))]
    top = {
        "cell_type": "markdown",
        "metadata": {},
        "source": links(code, name, editions, notebooks),
    }
    attnlib.set_language("en")
    return {**nb, "cells": [top, *cells]}


# --------------------------------------------------------------------------- an edition


def _static(stage: Path) -> Path:
    """The files every page loads: the explorers' loader and style, the checks, MathJax."""
    import jupyter_server_mathjax

    from attnlib.explorers.page import FRONT
    from attnlib.explorers.static import loader_js

    static = stage / "_static_site"
    if static.exists():
        shutil.rmtree(static)
    (static / "attnlib").mkdir(parents=True)
    (static / "attnlib" / "explorers.js").write_text(loader_js(), encoding="utf-8")
    shutil.copy(FRONT / "explorer.css", static / "attnlib" / "explorer.css")
    for name in ("checks.js", "site.css"):
        shutil.copy(HERE / "static" / name, static / "attnlib" / name)
    mathjax = Path(jupyter_server_mathjax.__file__).parent / "static"
    shutil.copytree(mathjax, static / "mathjax", ignore=shutil.ignore_patterns("*.md"))
    return static


def build_edition(code: str, out: Path, stage: Path) -> tuple[str, float, list[str]]:
    """Stage edition `code`'s notebooks and build them into out/<code>."""
    start = time.perf_counter()
    sys.path.insert(0, str(ROOT / "attnlib" / "i18n"))
    from languages import EDITIONS
    from sphinx.cmd.build import build_main

    import attnlib

    edition = EDITIONS[code]
    notes: list[str] = []
    src = stage / code
    if src.exists():
        shutil.rmtree(src)
    src.mkdir(parents=True)
    folder = ROOT / edition.notebooks
    names = [p.stem for p in sorted(folder.glob("*.ipynb"))]
    for name in names:
        nb = json.loads((folder / f"{name}.ipynb").read_text(encoding="utf-8"))
        page = transform(nb, code, name, EDITIONS, edition.notebooks, notes.append)
        (src / f"{name}.ipynb").write_text(json.dumps(page), encoding="utf-8")
    attnlib.set_language("en")
    w = words(code)
    toc = "\n".join(names)
    (src / "index.md").write_text(
        f"# {w['site_title']}\n\n"
        + links(code, "index", EDITIONS, edition.notebooks).split('<span class="attnlib-routes">')[
            0
        ]
        + "</nav>\n\n"
        + f"{w['index_intro']}\n\n```{{toctree}}\n:maxdepth: 1\n:caption: {w['contents']}\n\n"
        + f"{toc}\n```\n",
        encoding="utf-8",
    )
    settings = {"title": w["site_title"], "sphinx_language": edition.lab_locale or code,
                "static": str(_static(stage / code)), "search": w["search"],
                "code_show": w["code_show"], "code_hide": w["code_hide"],
                "favicon": str(HERE / "static" / "favicon.svg")}  # fmt: skip
    os.environ["ATTNLIB_SITE_EDITION"] = json.dumps(settings)
    # myst-nb writes the outputs' files beside the build folder (../jupyter_execute): a
    # folder of the edition's own, since the editions build side by side with the same names
    built = stage / f"{code}-build" / "html"
    if built.parent.exists():
        shutil.rmtree(built.parent)
    status = build_main(["-q", "-b", "html", "-c", str(HERE), "-d", str(stage / f"{code}-doctrees"),
                         str(src), str(built)])  # fmt: skip
    if status:
        raise SystemExit(f"sphinx-build failed for edition {code} (status {status})")
    target = out / code
    if target.exists():
        shutil.rmtree(target)
    shutil.move(built, target)
    # myst-nb names every closed input "Toggle hidden content", which is not what the
    # summary shows ("Show the answer's code"): axe's label-content-name-mismatch. The
    # summary's own text names it.
    for page in target.glob("*.html"):
        html = page.read_text(encoding="utf-8")
        if 'aria-label="Toggle hidden content"' in html:
            html = html.replace('<summary aria-label="Toggle hidden content">', "<summary>")
            page.write_text(html, encoding="utf-8")
    (target / "notebooks").mkdir()
    for name in names:
        shutil.copy(folder / f"{name}.ipynb", target / "notebooks" / f"{name}.ipynb")
    return code, time.perf_counter() - start, notes


def root_page(out: Path, codes: list[str]) -> None:
    items = "".join(
        f'<li><a href="{c}/index.html" lang="{c}" hreflang="{c}">'
        f"{html.escape(words(c)['site_title'])}</a></li>"
        for c in codes
    )
    (out / "index.html").write_text(
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        '<title>attnlib</title><link rel="icon" href="en/_static/favicon.svg"><style>'
        "body{font-family:system-ui,sans-serif;margin:2em;"
        "line-height:1.6;font-size:1.1em}</style></head>"
        f"<body><main><h1>attnlib</h1><ul>{items}</ul></main></body></html>\n",
        encoding="utf-8",
    )


def main(argv: list[str]) -> int:
    sys.path.insert(0, str(ROOT / "attnlib" / "i18n"))
    from languages import EDITIONS

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", default=str(ROOT / "site"))
    parser.add_argument("--stage", default=str(ROOT / "build" / "site"))
    parser.add_argument("--editions", nargs="*", default=list(EDITIONS))
    parser.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1))
    args = parser.parse_args(argv)
    out, stage = Path(args.out).resolve(), Path(args.stage).resolve()
    out.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        jobs = [pool.submit(build_edition, code, out, stage) for code in args.editions]
        for job in jobs:
            code, seconds, notes = job.result()
            for note in notes:
                print(f"site {code}: {note}")
            print(f"site {code}: built in {seconds:.1f} s -> {out / code}")
    root_page(out, list(EDITIONS))
    print(f"site: {time.perf_counter() - start:.1f} s in all; open {out / 'index.html'}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
