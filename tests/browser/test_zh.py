"""The Chinese edition in the browser (issue 14): JupyterLab as `make lab EDITION=zh`
serves it (notebooks/zh, menus in Chinese) runs the start page and one lesson; Voilà
serves the Chinese classroom page as `make present EDITION=zh`. Each runs with no error
output, its sliders redraw, nothing is asked of any machine but this one, and no text
is drawn as boxes: no missing-glyph warning from matplotlib, and every character on
the page is one its fonts can draw (pages.boxes). The last tests prove that the box
detector fails where it should: a character no font has, and Chinese in a Chromium
that has no Chinese font (as on a machine without fonts-noto-cjk).
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import time

import pytest

from . import pages, servers
from .conftest import artifact, open_tab, skip_or_fail
from .test_lab import RUN_ALL, report, run_notebook, summary
from .test_voila import run_page, shoot

# The start page, lesson 04 (the most Chinese in its figures and breakdowns), and 05
# and 06, the lessons with the most predictions: after Run All none of their answers
# may show (run_notebook checks it, as in English). EVERY_NOTEBOOK=1 opens every
# Chinese notebook in JupyterLab (zh).
ZH_LAB_NOTEBOOKS = (
    sorted(p.name for p in (servers.NOTEBOOKS / "zh").glob("*.ipynb"))
    if os.environ.get("EVERY_NOTEBOOK") == "1"
    else [
        "00_start_here.ipynb",
        "04_attention_scores.ipynb",
        "05_weighted_sum.ipynb",
        "06_learned_attention.ipynb",
    ]
)
PACK = "jupyterlab_language_pack_zh_CN"


@pytest.mark.parametrize("name", ZH_LAB_NOTEBOOKS)
def test_chinese_notebook_in_lab(lab_zh, lab_zh_tab, lab_zh_root, name, record_property):
    if importlib.util.find_spec(PACK) is None:
        skip_or_fail(f"the zh-CN language pack is not installed: pip install -e '.[test]' ({PACK})")
    problems, facts = run_notebook(lab_zh_tab, lab_zh, lab_zh_root, name, menu=RUN_ALL["zh"])
    page = lab_zh_tab.page
    menus = page.locator(".lm-MenuBar").inner_text()
    if "文件" not in menus:
        problems.append(f"JupyterLab's menu bar is not in Chinese: {menus[:80]!r}")
    page.screenshot(path=artifact(f"lab-zh-{name.removesuffix('.ipynb')}.png"))
    chars = facts["characters"]
    record_property(
        "summary",
        summary("JupyterLab (zh)", f"zh/{name}", facts)
        + f"; {chars['distinct']} distinct characters in {chars['fonts']} font(s) checked "
        f"for boxes in {facts['boxes_s']:.1f} s",
    )
    assert not problems, report(problems, f"zh/{name} in JupyterLab (zh)")


def test_chinese_classroom_page_in_voila(new_context, tmp_path_factory, record_property):
    root = tmp_path_factory.mktemp("voila-zh") / "zh"
    shutil.copytree(
        servers.NOTEBOOKS / "zh", root, ignore=shutil.ignore_patterns(".ipynb_checkpoints")
    )
    name = "classroom.ipynb"
    cells = pages.read_cells(root / name)
    started = time.perf_counter()
    server = servers.start_voila(
        root / name, tmp_path_factory.mktemp("voila-zh-home"), artifact("voila-zh-classroom.log")
    )
    try:
        tab = open_tab(new_context, width=1920, height=1080)
        page = tab.page
        problems, counts = run_page(page, server, name, cells)
        found, chars = pages.boxes(page)
        problems += found + pages.axe_problems(page) + tab.problems()
        shoot(page, "zh-classroom", counts["explorers"])
        record_property(
            "summary",
            f"Voilà zh/{name}: {time.perf_counter() - started:.1f} s; "
            f"{counts['explorers']} explorer(s), {counts['sliders']} slider(s), "
            f"{counts['moves']} moves; {chars['distinct']} distinct characters checked for "
            f"boxes; screenshots test-artifacts/voila-zh-classroom-*.png",
        )
        assert not problems, report(problems, f"zh/{name} in Voilà")
    finally:
        server.stop()


# --------------------------------------------------------------------------- the box detector

CHINESE = "注意力分数：每个查询向量与键向量的点积"
FIXTURE_PAGE = f"""<!doctype html><meta charset="utf-8">
<p style="font-family: 'DejaVu Sans'">{CHINESE}</p>
<p style="font-family: sans-serif">attention scores: q·k / √d_k</p>
<p style="font-family: monospace">{{}}</p>"""

# a fontconfig that knows DejaVu only: a machine without fonts-noto-cjk
NO_CJK_FONTS = """<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "fonts.dtd">
<fontconfig><dir>/usr/share/fonts/truetype/dejavu</dir><cachedir>{cache}</cachedir></fontconfig>
"""


def test_the_machine_has_a_cjk_font(browser):
    """The one place a missing CJK font is reported: a skip outside CI that says what
    to install (the other pages' box checks pass over Chinese characters then), a
    failure under CI=true."""
    page = browser.new_page()
    try:
        page.set_content(FIXTURE_PAGE.format("no box here"))
        _, counts = pages.boxes(page, excuse_cjk=False)
    finally:
        page.close()
    if not counts["cjk_font"]:
        skip_or_fail(pages.CJK_FONT_HINT)


def test_box_detector_passes_drawn_text_and_finds_a_character_no_font_has(browser):
    page = browser.new_page()
    try:
        page.set_content(FIXTURE_PAGE.format("no box here"))
        problems, chars = pages.boxes(page)
        assert not problems, problems  # Chinese in DejaVu Sans: drawn by a fallback font
        assert chars["distinct"] > 30, chars
        page.set_content(FIXTURE_PAGE.format("private use: \U000f0000 \ue000"))
        problems, _ = pages.boxes(page)
        text = "\n".join(problems)
        assert "U+F0000" in text and "U+E000" in text and len(problems) == 2, text
    finally:
        page.close()


def test_box_detector_finds_chinese_in_a_chromium_without_chinese_fonts(
    browser_type, browser_type_launch_args, tmp_path
):
    """The same page in a Chromium that sees DejaVu only: every Chinese character is
    a box (what learners saw before .ci/run installed fonts-noto-cjk)."""
    if not os.path.isdir("/usr/share/fonts/truetype/dejavu"):
        pytest.skip("no /usr/share/fonts/truetype/dejavu to build a font-poor Chromium from")
    conf = tmp_path / "fonts.conf"
    conf.write_text(NO_CJK_FONTS.format(cache=tmp_path / "cache"))
    env = {**os.environ, "FONTCONFIG_FILE": str(conf)}
    poor = browser_type.launch(**browser_type_launch_args, env=env)
    try:
        page = poor.new_page()
        page.set_content(FIXTURE_PAGE.format("no box here"))
        problems, counts = pages.boxes(page, excuse_cjk=False)
        text = "\n".join(problems)
        missing = {f"U+{ord(ch):04X}" for ch in CHINESE if ch.isalpha() and ord(ch) > 0x2FFF}
        found = {m for m in missing if m in text}
        assert found == missing, f"not reported: {sorted(missing - found)}\n{text}"
        assert "√" not in text and "'a'" not in text, text  # DejaVu draws those
        assert counts["cjk_font"] is False
        page.screenshot(path=artifact("box-detector-no-cjk-font.png"))
        # what a learner's machine without a CJK font gets outside CI: the Chinese
        # characters excused (one skip note says what to install), any other box
        # still reported
        page.set_content(FIXTURE_PAGE.format("private use: \U000f0000"))
        problems, counts = pages.boxes(page, excuse_cjk=True)
        assert counts["excused"] >= len(missing), counts
        assert len(problems) == 1 and "U+F0000" in problems[0], problems
    finally:
        poor.close()
