"""Every relative link of the READMEs and guides finds its target, in both languages.

The documents: README.md, README.zh.md, CONTRIBUTING.md and every docs/**/*.md. Their
markdown links and images (``[text](path)``, ``![alt](path)``, ``<img src="path">``),
outside code, that name no scheme (http:, mailto:) must point at a file or folder of the
repository; an ``#anchor`` into a markdown file must be one of its headings, made into
an anchor as GitHub does (lower case, punctuation dropped, spaces to hyphens).

The notebooks' own links are followed as JupyterLab follows them: from the notebook's
folder, inside the folder the server serves. ``make lab EDITION=zh`` (and
``jupyter lab notebooks/zh``) serves notebooks/zh alone, where a link such as
``../00_start_here.ipynb`` cannot be served: JupyterLab clamps the ``..`` at the root
and opens the Chinese start page itself. So each notebook's links must stay inside
every folder that is served with that notebook at its top.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path
from urllib.parse import unquote

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "attnlib" / "i18n"))  # the records only
from languages import EDITIONS  # noqa: E402

FENCE = re.compile(r"^(```|~~~).*?^\1[ \t]*$", re.S | re.M)
CODE_SPAN = re.compile(r"(`+)(?!`).+?(?<!`)\1(?!`)", re.S)
LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^()\s<>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
IMG = re.compile(r"<img\b[^>]*?\bsrc=\"([^\"]+)\"", re.I)
SCHEME = re.compile(r"^([a-z][a-z0-9+.-]*:|//)", re.I)
HEADING = re.compile(r"^(#{1,6})[ \t]+(.+?)[ \t]*#*[ \t]*$", re.M)


def documents() -> list[Path]:
    docs = [ROOT / "README.md", ROOT / "README.zh.md", ROOT / "CONTRIBUTING.md"]
    return docs + sorted((ROOT / "docs").rglob("*.md"))


def without_code(text: str) -> str:
    return CODE_SPAN.sub("", FENCE.sub("", text))


def links(markdown: str) -> list[str]:
    text = without_code(markdown)
    return LINK.findall(text) + IMG.findall(text)


def slug(heading: str) -> str:
    """GitHub's anchor of a heading (github-slugger's rule; \\w keeps CJK)."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link: its text
    text = re.sub(r"<[^>]+>", "", text).strip().lower()
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(markdown: str) -> set[str]:
    found: set[str] = set()
    seen: dict[str, int] = {}
    for _, title in HEADING.findall(FENCE.sub("", markdown)):
        base = slug(title)
        k = seen.get(base, 0)
        seen[base] = k + 1
        found.add(base if k == 0 else f"{base}-{k}")
    return found


def broken_links(markdown: str, folder: Path, root: Path = ROOT) -> list[str]:
    """The links of `markdown`, read from `folder`, that find no target under `root`."""
    problems = []
    for link in links(markdown):
        if SCHEME.match(link):
            continue
        name, _, anchor = link.partition("#")
        target = (folder / unquote(name)).resolve() if name else None
        if target is not None:
            if root.resolve() not in [target, *target.parents]:
                problems.append(f"{link}: outside the repository")
                continue
            if not target.exists():
                problems.append(f"{link}: no such file")
                continue
        if anchor:
            page = target if target is not None else None
            text = markdown if page is None else page.read_text(encoding="utf-8")
            if page is None or page.suffix == ".md":
                if anchor not in anchors(text):
                    problems.append(f"{link}: no heading with the anchor #{anchor}")
    return problems


@pytest.mark.parametrize("path", documents(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_relative_link_finds_its_target(path):
    text = path.read_text(encoding="utf-8")
    assert broken_links(text, path.parent) == [], path.relative_to(ROOT).as_posix()


def test_the_links_are_found_at_all():
    # if the link pattern stopped matching, the test above would pass on nothing
    counts = {p.name: len(links(p.read_text(encoding="utf-8"))) for p in documents()}
    assert counts["README.md"] >= 10 and counts["README.zh.md"] >= 10, counts
    assert sum(counts.values()) >= 60, counts


def test_the_documents_are_both_languages_readmes_and_guides():
    names = {p.relative_to(ROOT).as_posix() for p in documents()}
    assert {"README.md", "README.zh.md", "CONTRIBUTING.md"} <= names
    assert {"docs/teaching.md", "docs/zh/teaching.md", "docs/website.md"} <= names


def test_a_planted_broken_link_or_anchor_is_found():
    # a copy of the README with four bad links added: each must be reported, and only they
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    planted = [
        "[gone](docs/no-such-guide.md)",
        "![gone](docs/images/no-such-picture.png)",
        "[bad anchor](docs/teaching.md#no-such-heading)",
        "[up and out](../outside.md)",
        '<img src="docs/images/nothing.png" alt="">',
    ]
    copy = readme + "\n" + "\n".join(planted) + "\n[here](#no-heading-here)\n"
    found = broken_links(copy, ROOT)
    assert len(found) == len(planted) + 1, found
    for bad in ("no-such-guide.md", "no-such-picture.png", "#no-such-heading", "nothing.png"):
        assert any(bad in problem for problem in found), (bad, found)
    assert any("outside the repository" in p for p in found), found
    assert any("#no-heading-here" in p for p in found), found
    # and the same links inside code are not links
    assert broken_links("`[gone](nowhere.md)`\n\n```\n[gone](nowhere.md)\n```\n", ROOT) == []


@pytest.mark.parametrize(
    ("heading", "anchor"),
    [
        ("## Two commands", "two-commands"),
        ("## What `make test` runs", "what-make-test-runs"),
        ("## Server start-up CPU", "server-start-up-cpu"),
        ("### 用 conda", "用-conda"),
        ("## 全班同时上机：JupyterHub", "全班同时上机jupyterhub"),
    ],
)
def test_anchors_are_githubs(heading, anchor):
    assert anchors(heading) == {anchor}


def test_a_repeated_heading_gets_a_numbered_anchor():
    assert anchors("## Runs\n\n## Runs\n\n```\n## not a heading\n```\n") == {"runs", "runs-1"}


# ------------------------------------------------------------------ the notebooks' links


def make_lab_root(edition: str) -> str | None:
    """The folder `make lab EDITION=<edition>` serves, from make's dry run (None: no make)."""
    make = shutil.which("make")
    if make is None:
        return None
    env = {k: v for k, v in os.environ.items() if k not in {"MAKEFLAGS", "MFLAGS", "MAKELEVEL"}}
    result = subprocess.run(
        [make, "--no-print-directory", "-n", "lab", f"EDITION={edition}"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    found = re.search(r"--ServerApp\.root_dir=(\S+)", result.stdout)
    assert found, result.stdout
    return found.group(1)


def served_roots() -> list[str]:
    """Every folder a learner's JupyterLab serves as its root: each edition's (make lab,
    from its record) and those the READMEs' and guides' `jupyter lab DIR` commands name
    (without make, with conda)."""
    roots = [EDITIONS[code].notebooks for code in EDITIONS]
    for path in documents():
        text = path.read_text(encoding="utf-8")
        roots += re.findall(r"jupyter lab (notebooks[^\s`]*)", text)
    return sorted({r.replace("\\", "/").rstrip("/") for r in roots})


def notebook_links(path: Path) -> list[str]:
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return [
        link
        for cell in cells
        if cell["cell_type"] == "markdown"
        for link in links("".join(cell["source"]))
    ]


def escaping_links(path: Path, root: Path) -> list[str]:
    """The relative links of notebook `path` that JupyterLab serving `root` cannot open."""
    problems = []
    for link in notebook_links(path):
        if SCHEME.match(link) or link.startswith("#"):
            continue
        name = unquote(link.partition("#")[0])
        within = os.path.normpath(os.path.join(path.parent.relative_to(root), name))
        if within == ".." or within.startswith(".." + os.sep) or os.path.isabs(name):
            problems.append(f"{link}: outside the served folder {root.name}/")
        elif not (root / within).exists():
            problems.append(f"{link}: no such file")
    return problems


@pytest.mark.parametrize("edition", list(EDITIONS))
def test_make_lab_serves_the_editions_folder(edition):
    root = make_lab_root(edition)
    if root is None:
        pytest.skip("make is not installed: the served folder comes from languages.py alone")
    assert root == EDITIONS[edition].notebooks


@pytest.mark.parametrize("root", served_roots())
def test_the_notebooks_links_work_from_the_folder_jupyterlab_serves(root):
    folder = ROOT / root
    notebooks = sorted(folder.glob("*.ipynb"))
    assert notebooks, f"{root} holds no notebook"
    problems = {p.name: escaping_links(p, folder) for p in notebooks}
    assert {k: v for k, v in problems.items() if v} == {}, root


def test_the_roots_include_the_chinese_editions():
    assert {"notebooks", "notebooks/zh"} <= set(served_roots())


def test_a_link_out_of_the_served_folder_is_found(tmp_path):
    # the old link of the Chinese start page to the English one, planted in a copy of
    # the served folder: the English page exists beside it, yet is not served
    root = tmp_path / "zh"
    root.mkdir()
    for other in (ROOT / EDITIONS["zh"].notebooks).glob("*.ipynb"):
        shutil.copy(other, root / other.name)
    (tmp_path / "00_start_here.ipynb").write_text("{}", encoding="utf-8")
    copy = root / "00_start_here.ipynb"
    before = escaping_links(copy, root)
    nb = json.loads(copy.read_text(encoding="utf-8"))
    planted = [
        "[English](../00_start_here.ipynb)",
        "[gone](08_x.ipynb)",
        "[fine](01_what_is_self_attention.ipynb)",
    ]
    for link in planted:
        nb["cells"].append({"cell_type": "markdown", "metadata": {}, "source": [link]})
    copy.write_text(json.dumps(nb), encoding="utf-8")
    found = Counter(escaping_links(copy, root)) - Counter(before)
    assert sorted(found.elements()) == [
        "../00_start_here.ipynb: outside the served folder zh/",
        "08_x.ipynb: no such file",
    ], found
