"""attnlib.answer(): what a block prints and displays, shown as one closed section."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest

import attnlib
from attnlib.lessons.answers import Answer


def test_outside_a_notebook_the_answer_is_printed_under_its_heading(capsys):
    with attnlib.answer() as shown:
        print("alpha_12 = 0.42")
    assert shown.text == "alpha_12 = 0.42\n"
    assert capsys.readouterr().out == "Answer: open it after your attempt\nalpha_12 = 0.42\n"


def test_the_html_is_one_closed_section_with_the_text_escaped():
    html = Answer("Answer", text="a < b & c\n")._repr_mimebundle_()["text/html"]
    assert html.startswith('<details class="attnlib-answer">'), html
    assert " open" not in html.split(">")[0]  # closed: no open attribute
    assert "a &lt; b &amp; c" in html and "<summary" in html


def test_a_displayed_picture_goes_inside_with_its_alt_text():
    shown = Answer("Answer", outputs=[{"image/png": b"\x89PNG", "text/plain": "<figure: α>"}])
    html = shown._repr_mimebundle_()["text/html"]
    img = re.search(r'<img src="data:image/png;base64,([^"]+)" alt="([^"]*)">', html)
    assert img and img.group(1) == "iVBORw==" and img.group(2) == "&lt;figure: α&gt;", html
    assert html.index("<img") > html.index("</summary>")  # behind the summary: closed


IN_A_SHELL = """
import json
from IPython.core.interactiveshell import InteractiveShell
import attnlib.lessons.answers as answers
shell = InteractiveShell.instance()
shell.display_formatter.active_types = ["text/plain", "text/html"]  # as a kernel's
shown = []
answers._display_function = lambda: shown.append  # the answer's own display, recorded
shell.run_cell(
    "import attnlib\\nfrom IPython.display import display, HTML\\n"
    "with attnlib.answer('Why'):\\n"
    "    print('z_1 = [0.5 0.5]')\\n"
    "    display(HTML('<b>bold</b>'))\\n"
)
print(json.dumps([[type(a).__name__, a.summary, a.text, a.outputs] for a in shown]))
"""


def test_in_a_notebook_prints_and_displays_are_gathered():
    # in a child process: an IPython shell, once made, stays for the rest of a process
    pytest.importorskip("IPython")
    run = subprocess.run(
        [sys.executable, "-c", IN_A_SHELL], capture_output=True, text=True, timeout=60
    )
    assert run.returncode == 0, run.stderr
    shown = json.loads(run.stdout.strip().splitlines()[-1])
    assert len(shown) == 1, shown  # one answer; the HTML went inside it, not beside it
    kind, summary, text, outputs = shown[0]
    assert (kind, summary, text) == ("Answer", "Why", "z_1 = [0.5 0.5]\n")
    assert [data["text/html"] for data in outputs] == ["<b>bold</b>"]


def test_the_summary_speaks_the_learners_language(capsys):
    attnlib.set_language("zh")
    try:
        with attnlib.answer():
            print(1)
        assert capsys.readouterr().out.startswith("答案：先自己作答，再点开\n")
        with pytest.raises(TypeError, match=r"summary 必须是文本.*int"):
            with attnlib.answer(3):
                pass
    finally:
        attnlib.set_language("en")


def test_an_error_in_the_block_still_shows_what_was_printed(capsys):
    with pytest.raises(ZeroDivisionError):
        with attnlib.answer():
            print("before the error")
            raise ZeroDivisionError("deliberate")
    assert "before the error" in capsys.readouterr().out
