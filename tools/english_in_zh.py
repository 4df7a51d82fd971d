"""English that a learner of the Chinese edition sees: in its text, figures, printed
output, widgets and attnlib's errors.

    python tools/english_in_zh.py [NAME ...]            # execute notebooks/zh/NAME, list English
    python tools/english_in_zh.py --update [NAME ...]   # ... and rewrite the baseline counts

Five kinds of text are looked at, each with where it was seen (notebook, cell, kind):

- ``markdown``: every markdown cell, read as the page shows it: display maths as
  maths, the targets of links and code spans not read, and the glossary's English
  column (a table column headed "English") left out. In maths a named symbol
  (``\\text{score}_{ij}``, ``W_{\\text{out}}``, ``\\operatorname{diag}(α)``) and a
  product of capitals (``QK^\\top``) are symbols; ``\\text{loss}`` alone is a word;
  ``\\mathtt{perm}`` is code. An English gloss in brackets after its term
  (留出集（held-out set）) and a literal the screen shows ("Error displaying widget")
  pass.
- ``error``: what attnlib raises under ``set_language("zh")`` for the bad calls of
  tests/test_errors.py (its BAD_CALLS); the names of attnlib's parameters and
  classes, which an error names, are code.

- ``figure``: every text matplotlib draws (titles, axis and tick labels, legends,
  annotations, colorbar labels, a heatmap's token names and cell values), whichever
  figure draws it: a static figure or an explorer's PNG fallback. It is caught in the
  kernel by wrapping ``matplotlib.text.Text.draw``, so a text counts when it is drawn,
  not when it is created: walking a figure's artists after a cell would count texts
  that are never shown.
- ``print``: stream output, results as text (when no picture or HTML stands for
  them) and the text of HTML outputs, such as the boxes of ``show_error``.
- ``widget``: the captions, tooltips, option labels, titles and shown values of
  every widget alive after each cell (``ipywidgets`` keeps a registry of them).

The hook goes into the kernel at start-up (``kernel_arguments`` / ``kernel_env``):
conftest.py gives it to the kernels in which nbval runs notebooks/zh, so that
`make test` reads the figures and widgets of the run it makes anyway, and
tests/test_zh_english.py compares the counts with tests/zh_english_baseline.json.
Run alone, this tool (or that test) executes the notebooks itself with nbclient.

A word is English unless it is code or a symbol: a single letter (n, d, Q, K, V),
a name with a digit, an underscore or a dot (d_k, W_Q, float32, att.Z), a CamelCase
name (MultiHead, ValueError), a name just before ``(`` or ``=``; or listed in
ALLOWED (units, library names, the chapter's model names, Block). A quoted or
bracketed single word is a token, a literal, an argument or the English the glossary
keeps in brackets: 'the', 'none', softmax(scores), 查询向量（Query）, 独热（one-hot）.
The Chinese edition's toy sentence is Chinese (attnlib.data.SENTENCE_ZH), so an
English toy word ('the', 'cat') is a finding like any other. A caller may still
name English tokens (`tokens`): such a word is allowed where it is a token, in a
line with no other English word (a tick label, a sentence of tokens, a token named
in a Chinese sentence), not inside English.
"""

from __future__ import annotations

import argparse
import functools
import hashlib
import html
import json
import os
import re
import sys
import tempfile
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ZH = ROOT / "notebooks" / "zh"
BASELINE = ROOT / "tests" / "zh_english_baseline.json"
RECORDS_ENV = "ATTNLIB_ZH_RECORDS"  # the file the kernel's hook appends to

# ----------------------------------------------------------------------------- the kernel side


def cell_key(source: str) -> str:
    """Which cell a record belongs to: a hash of the code the kernel was sent."""
    return hashlib.sha256(source.encode("utf-8")).hexdigest()[:16]


WIDGET_FIELDS = ("description", "tooltip", "description_tooltip", "placeholder")
WIDGET_LISTS = ("_options_labels", "tooltips", "titles", "_titles")
SHOWN_VALUES = ("Label", "HTML", "HTMLMath", "Valid")  # widgets whose value is text to read


def install(records: str | None = None) -> None:
    """In the kernel: record what is drawn and what widgets say, cell by cell.

    Appends JSON lines ``{"cell": key, "kind": ..., "text": ...}`` to `records`
    (default: the file named by $ATTNLIB_ZH_RECORDS), and ``{"ran": key}`` as each
    cell starts.
    """
    import functools

    import matplotlib.text
    from IPython import get_ipython

    path = records or os.environ[RECORDS_ENV]
    state: dict = {"cell": None, "seen": set()}

    def write(record: dict) -> None:
        with open(path, "a", encoding="utf-8") as out:
            out.write(json.dumps(record, ensure_ascii=False) + "\n")

    def note(kind: str, text, where=None) -> None:
        """Record `text` once per cell, or once per `where` (a widget's field) at all."""
        if state["cell"] is None or not isinstance(text, str) or not text.strip():
            return
        key = (where or state["cell"], kind, text)
        if key not in state["seen"]:
            state["seen"].add(key)
            write({"cell": state["cell"], "kind": kind, "text": text})

    original = matplotlib.text.Text.draw

    @functools.wraps(original)  # keeps allow_rasterization's mark
    def draw(self, renderer):
        if self.get_visible():
            note("figure", self.get_text())
        return original(self, renderer)

    matplotlib.text.Text.draw = draw

    def widgets_now(*_) -> None:
        module = sys.modules.get("ipywidgets.widgets.widget")
        if module is None:
            return
        for widget in list(getattr(module, "_instances", {}).values()):
            # a widget's text is counted in the cell that made or changed it
            model = getattr(widget, "model_id", id(widget))
            for name in WIDGET_FIELDS:
                note("widget", getattr(widget, name, None), (model, name))
            for name in WIDGET_LISTS:
                for text in getattr(widget, name, None) or ():
                    note("widget", text, (model, name))
            if type(widget).__name__ in SHOWN_VALUES:
                note("widget", getattr(widget, "value", None), (model, "value"))
            # an explorer drawn in the page: the sentences it fills in there (titles,
            # readouts), its controls' captions, tooltips and menu labels, its hint and
            # the breakdown of a selected cell (HTML, read as its text)
            sentences = getattr(widget, "text", None)
            for sentence in sentences.values() if isinstance(sentences, dict) else ():
                note("widget", re.sub(r"\{[^}]*\}", " ", sentence), (model, "text", sentence))
            for name, control in (getattr(widget, "limits", None) or {}).items():
                if isinstance(control, dict):
                    for field in ("caption", "tooltip"):
                        note("widget", control.get(field), (model, name, field))
                    for label in control.get("labels", ()) or ():
                        note("widget", str(label), (model, name, "labels"))
            for name in ("hint", "details"):
                value = getattr(widget, name, None)
                if isinstance(value, str) and getattr(widget, "limits", None) is not None:
                    # d<sub>k</sub> reads as the symbol d_k; other tags part words
                    text = re.sub(
                        r"</su[bp]>", "", value.replace("<sub>", "_").replace("<sup>", "^")
                    )
                    note("widget", re.sub(r"<[^>]+>", " ", text), (model, name))

    def before(info) -> None:
        state["cell"] = cell_key(info.raw_cell)
        write({"ran": state["cell"]})

    shell = get_ipython()
    shell.events.register("pre_run_cell", before)
    shell.events.register("post_run_cell", widgets_now)


def kernel_arguments() -> list[str]:
    """ipykernel arguments that install the hook before the first cell, leaving no
    name behind in the notebook's namespace."""
    line = (
        f"__import__('runpy').run_path({str(Path(__file__).resolve())!r}, "
        f"run_name='english_in_zh_kernel')['install']()"
    )
    return [f"--IPKernelApp.exec_lines={line}"]


def read_records(path: Path) -> list[dict]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


# ----------------------------------------------------------------------------- which words


@functools.cache
def class_names() -> frozenset[str]:
    """attnlib's classes (Params, History, Attention ...): code names, also when printed."""
    import importlib
    import pkgutil

    import attnlib

    names = set()
    for info in pkgutil.iter_modules(attnlib.__path__):
        if info.name.startswith(("_", "locale")) or info.name in ("widgets",):
            continue
        module = importlib.import_module(f"attnlib.{info.name}")
        names |= {
            n
            for n, v in vars(module).items()
            if isinstance(v, type) and v.__module__.startswith("attnlib") and n[:1].isupper()
        }
    return frozenset(names)


ALLOWED = frozenset(
    # units and number words of code
    "ms µs us ns sec KB MB GB KiB MiB GiB px dpi nan inf NaN Inf True False None".split()
    # libraries, tools, the chapter's models
    + "numpy np attnlib matplotlib ipywidgets Python Jupyter JupyterLab Voila PyTorch".split()
    + "Transformer Transformers BERT LSTM RNN GPT CPU GPU RAM SIMD TeX".split()
    # maths written as code or symbols
    + "softmax argmax argmin max min log ln exp sqrt sum mean std var tanh ReLU".split()
    + "dtype array float int ndarray".split()
    # the English the glossary keeps as it is (层，Block，堆叠; logits, glossed once as
    # 未归一化的对数概率); the English it keeps in brackets, 查询向量（Query）,
    # 独热（one-hot）, passes as a bracketed word
    + ["Block", "logits", "logit"]
    # names a learner meets as they are, in any language: keys, products and people
    # (Shift+Enter, Tab, Esc; VS Code, Google Colab, Notebook 7, GitHub, PDF; the
    # optimiser Adam, the Frobenius norm, Vaswani's paper, BERT-base)
    + "Shift Enter Tab Esc VS Code Google Colab Notebook GitHub PDF anywidget".split()
    + "jsdelivr unpkg Adam Frobenius Vaswani BERT-base".split()
)
#: the chapter's own words, in its own case: 2.1 什么是Self-Attention
CHAPTER_WORDS = frozenset({"Self-Attention"})
ALLOWED_LOWER = frozenset(w.lower() for w in ALLOWED)

MATH = re.compile(r"\$([^$]*)\$")
TEX_TEXT = re.compile(r"\\(?:text|mathrm|textrm|operatorname)\{([^}]*)\}")
TEX_COMMAND = re.compile(r"\\[A-Za-z]+")
TAG = re.compile(r"<(style|script)\b.*?</\1\s*>|<[^>]+>", re.DOTALL | re.IGNORECASE)
CODE_SPAN = re.compile(r"`[^`]*`")
TEX_CODE = re.compile(r"\\mathtt\{[^}]*\}")
TEX_NAMED = re.compile(
    r"\\(?:text|mathrm|textrm|operatorname)\{([^}]*)\}(?=\s*[_^(]|\s*\\(?:left|big|Big)?\()"
)
TEX_GROUP = re.compile(r"([_^])\s*\{([^{}]*)\}")  # n_{kv} -> n_kv
TEX_PRODUCT = re.compile(r"(?<![A-Za-z_])[A-Z]{2,3}(?![A-Za-z])")
SUB, SUP = re.compile(r"\s*<sub>\s*", re.IGNORECASE), re.compile(r"\s*<sup>\s*", re.IGNORECASE)
WORD = re.compile(
    r"(?P<quote>['\"‘“「『(（])?"
    r"(?P<word>[A-Za-z_][A-Za-z0-9_]*(?:[-.][A-Za-z_][A-Za-z0-9_]*)*)"
    r"(?P<close>['\"’”」』)）])?(?=(?P<after>\(|\s*=))?"
)
CAMEL = re.compile(r"[a-z][A-Z]|^[A-Z]{2,}[a-z]")


def plain(text: str) -> str:
    """The text as a reader sees it: no HTML tags or entities, no TeX commands
    (but the words of ``\\text{...}``, which are read)."""
    text = SUB.sub("_", SUP.sub("^", text))  # score<sub>i,j</sub> is the symbol score_ij
    text = CODE_SPAN.sub(" ", html.unescape(TAG.sub(" ", text)))

    def maths(match: re.Match) -> str:
        inner = TEX_CODE.sub(" ", match.group(1))  # \\mathtt{perm}: a code name
        # a named symbol: \\text{score}_{ij}, \\operatorname{diag}(α) read as score_ij, diag(
        inner = TEX_NAMED.sub(lambda m: m.group(1).replace(" ", "_"), inner)
        inner = TEX_TEXT.sub(lambda m: f" {m.group(1)} ", inner)
        inner = TEX_COMMAND.sub(" ", inner)
        inner = TEX_GROUP.sub(lambda m: m.group(1) + m.group(2).replace(" ", ""), inner)
        return TEX_PRODUCT.sub(" ", inner)  # QK^T, JK, W_QKV's QKV: products of symbols

    return MATH.sub(maths, text)


def is_code(word: str, *, before_call: bool) -> bool:
    return (
        len(word) == 1
        or before_call
        or any(c.isdigit() or c in "_." for c in word)
        or bool(CAMEL.search(word))
        or word in class_names()
    )


def english_words(text: str, tokens: frozenset[str] = frozenset()) -> list[str]:
    """The English words in one shown text (a label, a printed line, a caption).

    Examples
    --------
    >>> english_words("query 0 'the' : self-score 1.25", frozenset({"the"}))
    ['query', 'self-score']
    >>> english_words("注意力权重 α = softmax(scores)  $\\\\sqrt{d_k}$, W_Q (Query)")
    []
    >>> english_words("the cat sat", frozenset({"the", "cat", "sat"}))
    []
    >>> english_words(r"$e^{\\text{difference}}$ 的和")
    ['difference']
    """
    words = []  # (word, is it a toy token?) for each word that is not code or allowed
    for match in WORD.finditer(plain(text)):
        word = match.group("word")
        if is_code(word, before_call=bool(match.group("after"))):
            continue
        if match.group("quote") and match.group("close"):
            continue  # 'the', "none", (scores): a token, a literal or an argument
        if (
            word in CHAPTER_WORDS
            or word.lower() in ALLOWED_LOWER
            or all(part.lower() in ALLOWED_LOWER for part in word.split("-"))
        ):
            continue
        words.append((word, word in tokens))
    if all(token for _, token in words):
        return []  # a tick label, the example sentence, a token in a Chinese sentence
    return [word for word, _ in words]


# ----------------------------------------------------------------------------- one notebook


@dataclass(frozen=True)
class Finding:
    notebook: str
    cell: int  # the cell's number in the notebook, counted from 0
    kind: str  # figure, print or widget
    word: str
    text: str  # the text it was seen in, shortened

    def __str__(self) -> str:
        return f"{self.notebook} c{self.cell} {self.kind}: {self.word!r} in {self.text!r}"


def around(line: str, word: str) -> str:
    """The 90 characters of `line` around `word`, to show where it was seen."""
    at = max(line.find(word) - 40, 0)
    return ("…" if at else "") + line[at : at + 90]


def shown_text(output: dict) -> list[str]:
    """The texts a learner reads in one stored output."""
    if output.get("output_type") == "stream":
        return [output.get("text", "")]
    if output.get("output_type") == "error":
        return [f"{output.get('ename', '')}: {output.get('evalue', '')}"]
    data = output.get("data", {})
    if "text/html" in data:
        return [data["text/html"]]
    if "text/markdown" in data:
        return [data["text/markdown"]]
    if "text/plain" in data and not any(k.startswith(("image/", "application/")) for k in data):
        return [data["text/plain"]]
    return []


LINK_TARGET = re.compile(r"\]\([^)\s]*\)")  # [text](target): the target is not read
DISPLAY_MATH = re.compile(r"\$\$(.*?)\$\$", re.DOTALL)
LITERAL = re.compile(r'"[A-Za-z][^"\u4e00-\u9fff]*"')
GLOSS = re.compile(r"（[A-Za-z][A-Za-z \-]*）")
TABLE_ROW = re.compile(r"^\s*\|(.*)\|\s*$")
#: a table column headed so holds the English of the terms beside it (00's glossary)
ENGLISH_COLUMN = "English"


def _cells(row: str) -> list[str]:
    return [c.strip() for c in TABLE_ROW.match(row).group(1).split("|")]


def markdown_lines(source: str) -> list[str]:
    """A markdown cell's lines as a learner reads them: display maths on one line
    (read as maths), link targets dropped, and in a table whose header names the
    column "English" that column left out (the glossary's English column).

    Examples
    --------
    >>> markdown_lines("| 术语 | English |\\n|---|---|\\n| 查询向量 | query |")
    ['| 术语 |', '| --- |', '| 查询向量 |']
    >>> markdown_lines("见[开始页](00_start_here.ipynb)：$$\\n\\\\text{score}_{ij}\\n$$")
    ['见[开始页]：$\\\\text{score}_{ij}$']
    """
    text = LINK_TARGET.sub("]", source)
    text = DISPLAY_MATH.sub(lambda m: "$" + " ".join(m.group(1).split()) + "$", text)
    lines, english = [], None  # the English column of the table being read
    for line in text.split("\n"):
        if not TABLE_ROW.match(line):
            english = None
            lines.append(line)
            continue
        cells = _cells(line)
        if english is None:  # a table's first row: its header
            english = cells.index(ENGLISH_COLUMN) if ENGLISH_COLUMN in cells else -1
        if english >= 0 and english < len(cells):
            del cells[english]
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def markdown_findings(name: str, nb) -> list[Finding]:
    """Every English word of notebook `name`'s markdown cells, read as the page shows them."""
    found = {}
    for k, cell in enumerate(nb.cells):
        if cell.cell_type != "markdown":
            continue
        for line in markdown_lines(cell.source):
            # a literal the screen shows in English ("Error displaying widget") and an
            # English gloss in brackets after its Chinese term (留出集（held-out set）)
            line = LITERAL.sub(" ", GLOSS.sub(" ", line))
            line = " ".join(plain(line).split())
            for word in english_words(line):
                found.setdefault((k, word), Finding(name, k, "markdown", word, around(line, word)))
    return sorted(found.values(), key=lambda f: (f.cell, f.word))


def code_names(attnlib) -> frozenset[str]:
    """The names of attnlib's public functions' parameters and of its public classes."""
    import inspect

    from attnlib import checks

    names = set()
    for module in (attnlib, attnlib.stats, attnlib.lookup, attnlib.plotting, checks):
        for name in getattr(module, "__all__", ()):
            value = getattr(module, name, None)
            if isinstance(value, type):
                names.add(name)
            if callable(value):
                try:
                    names |= set(inspect.signature(value).parameters)
                except (TypeError, ValueError):
                    pass
    return frozenset(names)


def error_findings() -> list[Finding]:
    """English words in attnlib's errors under set_language("zh"), for the bad calls a
    learner makes that tests/test_errors.py lists (its BAD_CALLS)."""
    sys.path.insert(0, str(ROOT))
    import attnlib
    from tests.test_errors import BAD_CALLS

    found = {}
    code = code_names(attnlib)  # "mask 必须是 ...": an error names the argument it refuses
    before = attnlib.get_language()
    attnlib.set_language("zh")
    try:
        for name, (call, *_) in BAD_CALLS.items():
            try:
                call()
                continue
            except Exception as error:  # each one raises; what it says is what we read
                said = str(error)
            for line in plain(said).splitlines():
                for word in english_words(" ".join(line.split())):
                    if word not in code:
                        found.setdefault((name, word), Finding(name, 0, "error", word, line[:90]))
    finally:
        attnlib.set_language(before)
    return sorted(found.values(), key=lambda f: (f.notebook, f.word))


def code_cells(nb) -> dict[str, int]:
    """cell key -> cell number, for the code cells of a notebook."""
    return {cell_key(c.source): k for k, c in enumerate(nb.cells) if c.cell_type == "code"}


def findings(name: str, nb, records: Iterable[dict], tokens=frozenset()) -> list[Finding]:
    """Every English word of notebook `name`: its outputs (`nb`) and the kernel's records."""
    seen: list[tuple[int, str, str]] = []
    for k, cell in enumerate(nb.cells):
        if cell.cell_type == "code":
            for output in cell.get("outputs", []):
                seen += [(k, "print", text) for text in shown_text(output)]
    where = code_cells(nb)
    for record in records:
        if "text" in record and record.get("cell") in where:
            seen.append((where[record["cell"]], record["kind"], record["text"]))
    found = {}
    for k, kind, text in seen:
        for line in plain(text).splitlines():
            line = " ".join(line.split())
            for word in english_words(line, tokens):
                found.setdefault((k, kind, word), Finding(name, k, kind, word, around(line, word)))
    found.update({(f.cell, f.kind, f.word): f for f in markdown_findings(name, nb)})
    return sorted(found.values(), key=lambda f: (f.cell, f.kind, f.word))


def complete(nb, records: Iterable[dict]) -> bool:
    """Whether the records come from a run of every code cell that is not skipped."""
    ran = {r["ran"] for r in records if "ran" in r}
    wanted = {
        cell_key(c.source)
        for c in nb.cells
        if c.cell_type == "code" and "nbval-skip" not in c.metadata.get("tags", [])
    }
    return bool(wanted) and wanted <= ran


def kernel_env(records: Path) -> dict[str, str]:
    return {RECORDS_ENV: str(records)}


def execute(name: str, timeout: int = 600):
    """Execute notebooks/zh/NAME in a temporary folder with the hook: (notebook, records).

    The notebook is read into memory and run with a temporary working folder, so
    neither it nor notebooks/zh changes.
    """
    import nbformat
    from nbclient import NotebookClient

    nb = nbformat.read(ZH / f"{name}.ipynb", as_version=4)
    with tempfile.TemporaryDirectory() as tmp:
        records = Path(tmp) / "records.jsonl"
        client = NotebookClient(
            nb,
            timeout=timeout,
            kernel_name="python3",
            allow_errors=True,  # a cell that raises is nbval's to report; count the rest
            resources={"metadata": {"path": tmp}},
            extra_arguments=kernel_arguments(),
        )
        saved = dict(os.environ)
        os.environ.update(kernel_env(records))
        try:
            client.execute()
        finally:
            os.environ.clear()
            os.environ.update(saved)
        return nb, read_records(records)


def names() -> list[str]:
    return sorted(p.stem for p in ZH.glob("*.ipynb"))


def baseline() -> dict[str, int]:
    return json.loads(BASELINE.read_text(encoding="utf-8")) if BASELINE.exists() else {}


def report(found: list[Finding]) -> str:
    lines = [str(f) for f in found]
    words = Counter(f.word for f in found)
    lines.append("most frequent: " + ", ".join(f"{w} {n}" for w, n in words.most_common(15)))
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("names", nargs="*", help="notebooks/zh/NAME.ipynb (default: all)")
    parser.add_argument(
        "--update",
        action="store_true",
        help=f"rewrite {BASELINE.name}: each notebook's count, fresh or as stored if larger",
    )
    args = parser.parse_args(argv)
    import nbformat

    counts = baseline()
    for name in args.names or names():
        nb, records = execute(name)
        found = findings(name, nb, records)
        print(report(found))
        kinds = Counter(f.kind for f in found)
        # make test reads the stored outputs (nbval has just found them reproduced) with
        # the figures and widgets of its run: until a notebook is re-executed after a
        # change of attnlib's text, they may hold more English than a fresh run
        stored = nbformat.read(ZH / f"{name}.ipynb", as_version=4)
        as_stored = len(findings(name, stored, records))
        print(
            f"{name}: {len(found)} English words ({dict(kinds)}), {as_stored} with the "
            f"stored outputs; baseline {counts.get(name)}"
        )
        counts[name] = max(len(found), as_stored)
    errors = error_findings()
    print(report(errors))
    print(
        f"attnlib's errors in Chinese (tests/test_errors.py's bad calls): {len(errors)} "
        "English words"
    )
    if args.update:
        BASELINE.write_text(json.dumps(dict(sorted(counts.items())), indent=1) + "\n", "utf-8")
        print(f"wrote {BASELINE.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
