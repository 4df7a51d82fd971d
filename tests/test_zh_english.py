"""The Chinese edition shows Chinese: English words in its figures, printout and widgets.

The target is 0 (issue 23): everything a learner of notebooks/zh sees is Chinese,
apart from code names, symbols, units, the course's toy tokens and the English the
glossary keeps in brackets (tools/english_in_zh.py says which words pass). Every
notebook is at 0 now. tests/zh_english_baseline.json holds each notebook's count of
English words (distinct cell, kind and word), and the test fails when a notebook shows
more than its count, listing every word with where it was seen; a notebook added with
English in it starts from its count and lowers it with ``python tools/english_in_zh.py
--update NAME`` (which executes the notebook itself).

No notebook is executed twice for this: under `make test` each check runs right after
nbval has run its notebook, on the same worker (conftest.py schedules it so), and
reads what the hook in nbval's kernel recorded (figures, widgets) and the notebook's
stored outputs, which nbval has just found reproduced. Run alone, the check executes
the notebook itself, with the hook, in a fresh kernel of this environment.
"""

from __future__ import annotations

import ast
import json
import sys
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
import english_in_zh  # noqa: E402

NAMES = english_in_zh.names()


def nbval_run(name: str, request, folder: Path | None):
    """(notebook, records) of nbval's run of notebooks/zh/NAME in this session, or
    None if this session does not run it under nbval."""
    prefix = f"notebooks/zh/{name}.ipynb::"
    if not any(item.nodeid.startswith(prefix) for item in request.session.items):
        return None
    nb = nbformat.read(english_in_zh.ZH / f"{name}.ipynb", as_version=4)
    for path in sorted(folder.glob("*.jsonl")) if folder else []:
        records = english_in_zh.read_records(path)
        if english_in_zh.complete(nb, records):
            return nb, records
    pytest.fail(f"nbval's kernel of notebooks/zh/{name}.ipynb left no record of every cell")


@pytest.mark.parametrize("name", NAMES)
def test_no_more_english_than_the_baseline(name, request, zh_kernel_records):
    run = nbval_run(name, request, zh_kernel_records)
    nb, records = run if run is not None else english_in_zh.execute(name)
    found = english_in_zh.findings(name, nb, records)
    allowed = english_in_zh.baseline().get(name, 0)
    assert len(found) <= allowed, (
        f"notebooks/zh/{name}.ipynb shows {len(found)} English words, more than the "
        f"{allowed} of tests/zh_english_baseline.json (the target is 0):\n"
        + english_in_zh.report(found)
    )


def test_the_baseline_names_every_chinese_notebook():
    counts = json.loads(english_in_zh.BASELINE.read_text(encoding="utf-8"))
    assert sorted(counts) == NAMES
    assert all(isinstance(n, int) and n >= 0 for n in counts.values()), counts


TOKENS = frozenset({"the", "cat", "sat"})


@pytest.mark.parametrize(
    ("text", "english"),
    [
        ("query 0 'the' : self-score 1.25", ["query", "self-score"]),  # the 04 c26
        ("查询 0 'the' 的自身分数 1.25", []),
        ("the cat sat", []),  # a sentence of tokens: the example
        ("the query", ["the", "query"]),  # a token word inside English
        ("注意力权重 α = softmax(scores)", []),
        (r"$\sqrt{d_k}$ 缩放后的 W_Q, d_k, att.Z, float32, ValueError", []),
        (r"$e^{\text{difference}}$", ["difference"]),
        ("<b>largest</b> weight &amp; 最大", ["largest", "weight"]),
        ("<style>.attnlib-explorer { cursor: crosshair; }</style>键 j", []),
        ("查询向量（Query）和独热（one-hot）, 奈特（nat）, 12 ms, 3 MB, 层，Block", []),
        ("one-hot 向量, 0.7 nats", ["one-hot", "nats"]),  # the glossary's English, unbracketed
        ("是不是忘了写 `return`？", []),
        ("steps", ["steps"]),
        ("v_1 cat", []),  # a token beside its symbol
        ("重复的词元得到相同的行：the", []),  # a token named in a Chinese sentence
        ("score<sub>5,2</sub> = q<sub>5</sub> · k<sub>2</sub>", []),  # symbols
        ("行熵（最大 ln 8 = 2.08）", []),
    ],
)
def test_which_words_are_english(text, english):
    assert english_in_zh.english_words(text, TOKENS) == english


def test_findings_name_notebook_cell_and_kind():
    nb = nbformat.v4.new_notebook(
        cells=[
            nbformat.v4.new_markdown_cell("一段说明，and an English tail"),
            nbformat.v4.new_code_cell(
                "plot()",
                outputs=[
                    nbformat.v4.new_output("stream", name="stdout", text="largest 0.5\n最大 0.5\n")
                ],
            ),
        ]
    )
    records = [
        {"ran": english_in_zh.cell_key("plot()")},
        {"cell": english_in_zh.cell_key("plot()"), "kind": "figure", "text": "key j"},
        {"cell": english_in_zh.cell_key("plot()"), "kind": "widget", "text": "键 j"},
        {"cell": "another cell", "kind": "figure", "text": "elsewhere"},
    ]
    found = english_in_zh.findings("demo", nb, records, TOKENS)
    assert [(f.cell, f.kind, f.word) for f in found] == [
        (0, "markdown", "English"),
        (0, "markdown", "an"),
        (0, "markdown", "and"),
        (0, "markdown", "tail"),
        (1, "figure", "key"),
        (1, "print", "largest"),
    ]
    assert english_in_zh.complete(nb, records)
    assert not english_in_zh.complete(nb, records[1:])


def test_the_kernel_hook_sees_drawn_text_and_widget_captions(tmp_path):
    """The hook in a kernel of its own: a figure's texts once drawn, and a slider's caption."""
    from jupyter_client.manager import start_new_kernel

    records = tmp_path / "records.jsonl"
    km, kc = start_new_kernel(
        kernel_name="python3",
        extra_arguments=english_in_zh.kernel_arguments(),
        env={**__import__("os").environ, **english_in_zh.kernel_env(records)},
        cwd=str(tmp_path),
    )
    code = (
        "import matplotlib\nmatplotlib.use('agg')\nimport matplotlib.pyplot as plt\n"
        "import ipywidgets\n"
        "fig, ax = plt.subplots()\nax.set_title('drawn title')\nax.set_xlabel('never drawn')\n"
        "ax.xaxis.label.set_visible(False)\nfig.canvas.draw()\n"
        "from attnlib.pictures.heatmap import heatmap\n"
        "fig2, ax2 = plt.subplots()\n"
        "heatmap(ax2, [[1.0, 0.0]], row_labels=['rowname'], col_labels=['left', 'right'])\n"
        "fig2.canvas.draw()\n"
        "s = ipywidgets.IntSlider(description='steps', tooltip='a sequence of the task')\n"
        "print(sorted(n for n in dir() if not n.startswith('_')))"
    )
    printed = []
    try:
        reply = kc.execute_interactive(
            code,
            timeout=60,
            output_hook=lambda msg: printed.append(msg["content"].get("text", "")),
        )
        assert reply["content"]["status"] == "ok", reply["content"]
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)
    texts = {(r["kind"], r["text"]) for r in english_in_zh.read_records(records) if "text" in r}
    assert ("figure", "drawn title") in texts
    assert ("figure", "never drawn") not in texts
    # a heatmap's token names are not Text: the hook sees them all the same
    assert {("figure", "rowname"), ("figure", "left"), ("figure", "right")} <= texts
    assert {("widget", "steps"), ("widget", "a sequence of the task")} <= texts
    # the hook leaves no name of its own in the learner's namespace
    names = set(ast.literal_eval("".join(printed)))
    assert {"ax", "fig", "s"} <= names
    assert not names & {"install", "runpy", "functools", "english_in_zh", "json", "os"}, names


# --- the markdown a learner reads, and attnlib's errors -------------------------------


@pytest.mark.parametrize("name", NAMES)
def test_no_english_in_the_chinese_markdown(name):
    nb = nbformat.read(english_in_zh.ZH / f"{name}.ipynb", as_version=4)
    found = english_in_zh.markdown_findings(name, nb)
    assert found == [], english_in_zh.report(found)


def test_the_markdown_reader_finds_english_and_passes_maths_code_links_and_glossary():
    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbformat.v4.new_markdown_cell("## 注意力 · What attention learns"),
        nbformat.v4.new_markdown_cell(
            "分数 $$\n\\text{score}_{ij} = \\frac{q_i \\cdot k_j}{\\sqrt{d_k}}\n$$，"
            "`att.scores`，见[开始页](00_start_here.ipynb)，$W_{\\text{out}}$，"
            "$\\operatorname{diag}(\\alpha)$，$QK^\\top$，留出集（held-out set），"
            "Shift+Enter，2.1 什么是Self-Attention"
        ),
        nbformat.v4.new_markdown_cell(
            "| 术语 | English | 符号 |\n|---|---|---|\n| 查询向量 | query vector | $q_i$ |"
        ),
        nbformat.v4.new_markdown_cell("损失是 $\\text{loss}$，又叫 the loss of the model"),
    ]
    found = {(f.cell, f.word) for f in english_in_zh.markdown_findings("fixture", nb)}
    assert found == {
        (0, "What"), (0, "attention"), (0, "learns"),
        (3, "loss"), (3, "the"), (3, "of"), (3, "model"),
    }, found  # fmt: skip


def test_attnlib_errors_in_chinese_hold_no_english():
    found = english_in_zh.error_findings()
    assert found == [], english_in_zh.report(found)


def test_the_error_reader_finds_an_english_message(monkeypatch):
    import tests.test_errors as bad

    def english():
        raise ValueError("this value is plainly wrong")

    monkeypatch.setattr(bad, "BAD_CALLS", {"an English error": (english, "", "", "")})
    found = {f.word for f in english_in_zh.error_findings()}
    assert {"this", "value", "plainly", "wrong"} <= found, found
