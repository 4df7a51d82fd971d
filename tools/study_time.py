"""How long each notebook takes to study: its core path and its deeper sections.

    python tools/study_time.py                # both editions, every lesson notebook
    python tools/study_time.py --markdown     # the English table that notebook 00 shows
    python tools/study_time.py --markdown zh  # the same table in Chinese, for zh/00
    python tools/study_time.py --write        # put both tables into 00 (English and Chinese)
                                              # and the core minutes into both READMEs

The rule (stated in notebook 00 too), in minutes:

    words of markdown / 100  +  1 per code cell  +  4 per exercise  +  2 per prediction

A code cell that calls ``check_prediction_*`` is a prediction; one that calls any
other ``check_*`` is an exercise (each counts once, on top of its 1 as a code
cell). Chinese prose is read by characters: a Chinese character counts 1/250 of
a minute, and the Latin words between them (names, formulas) 1/100 as in English.
Chinese punctuation counts as characters, the quotation marks “” too (they sit in
Unicode's general punctuation): a quoted token such as “猫” is Chinese, not Latin words.

A **deeper** section starts at a markdown heading of level ## or ### whose text
begins with its edition's ``deeper`` words (attnlib/i18n/languages.py: ``Deeper · 深入:``
in English, ``深入：`` in Chinese); it runs up to
the next heading of the same or a higher level. Everything else is the core path.
"""

from __future__ import annotations

import json
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "attnlib" / "i18n"))  # the records only: no attnlib import
from languages import EDITIONS  # noqa: E402

LESSONS = [f"0{k}" for k in range(8)]  # 00_start_here ... 07_next_steps (not the classroom page)

WORDS_PER_MINUTE = 100
CHINESE_CHARACTERS_PER_MINUTE = 250
PER_CODE_CELL, PER_EXERCISE, PER_PREDICTION = 1, 4, 2
#: how a deeper section's heading starts, in each edition (its record in languages.py)
DEEPER = tuple(language.deeper for language in EDITIONS.values())

HEADING = re.compile(r"^(#{1,6})\s+(.*)$")
CJK = re.compile(r"[\u201c\u201d\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uff00-\uffef]")
PREDICTION = re.compile(r"\bcheck_prediction_\w+\s*\(")
EXERCISE = re.compile(r"\bcheck_(?!prediction_)\w+\s*\(")


@dataclass
class Part:
    """What one part of a notebook (its core path, or its deeper sections) asks of a learner."""

    words: int = 0  # Latin words of markdown
    characters: int = 0  # Chinese characters of markdown
    code_cells: int = 0
    exercises: int = 0
    predictions: int = 0

    @property
    def minutes(self) -> float:
        return (
            self.words / WORDS_PER_MINUTE
            + self.characters / CHINESE_CHARACTERS_PER_MINUTE
            + PER_CODE_CELL * self.code_cells
            + PER_EXERCISE * self.exercises
            + PER_PREDICTION * self.predictions
        )


@dataclass
class StudyTime:
    name: str
    core: Part = field(default_factory=Part)
    deeper: Part = field(default_factory=Part)


def _add_text(part: Part, text: str) -> None:
    part.characters += len(CJK.findall(text))
    part.words += len(CJK.sub(" ", text).split())


def study_time(path: Path) -> StudyTime:
    """Core and deeper parts of one notebook, by the rule in this module's docstring."""
    cells = json.loads(Path(path).read_text(encoding="utf-8"))["cells"]
    result = StudyTime(Path(path).stem)
    deeper_level = 0  # the level of the open deeper heading, 0 when in the core path
    for cell in cells:
        source = "".join(cell["source"])
        if cell["cell_type"] == "code":
            part = result.deeper if deeper_level else result.core
            part.code_cells += 1
            part.predictions += bool(PREDICTION.search(source))
            part.exercises += bool(EXERCISE.search(source))
            continue
        if cell["cell_type"] != "markdown":
            continue
        segment: list[str] = []
        for line in source.split("\n"):
            match = HEADING.match(line)
            if match:
                level, title = len(match.group(1)), match.group(2).strip()
                _add_text(result.deeper if deeper_level else result.core, "\n".join(segment))
                segment = []
                if title.startswith(DEEPER) and level in (2, 3):
                    deeper_level = level
                elif deeper_level and level <= deeper_level:
                    deeper_level = 0
            segment.append(line)
        _add_text(result.deeper if deeper_level else result.core, "\n".join(segment))
    return result


def lesson_paths(edition: str = "en") -> list[Path]:
    folder = ROOT / EDITIONS[edition].notebooks
    return [next(folder.glob(f"{prefix}_*.ipynb")) for prefix in LESSONS]


def table(edition: str = "en") -> list[tuple[str, int, int]]:
    """(notebook, core minutes, deeper minutes), rounded to whole minutes, and the total last.

    The total is the exact sum, rounded: the sum of the rounded rows can stray from it by
    a few minutes (179.8 minutes of core path would show as 181).
    """
    rows, core, deeper = [], 0.0, 0.0
    for path in lesson_paths(edition):
        t = study_time(path)
        rows.append((t.name, round(t.core.minutes), round(t.deeper.minutes)))
        core, deeper = core + t.core.minutes, deeper + t.deeper.minutes
    rows.append(("total", round(core), round(deeper)))
    return rows


#: edition -> the table's header row and its "total" label, in that edition's words
#: (each language's record in attnlib/i18n/languages.py holds its own)
TABLE_WORDS = {code: language.table_words for code, language in EDITIONS.items()}
TABLE_HEAD = {code: head.rsplit(" |", 2)[0] + " |" for code, (head, _) in TABLE_WORDS.items()}


def markdown(edition: str = "en") -> str:
    """The table notebook 00 shows, in the words of `edition`."""
    head, total = TABLE_WORDS[edition]
    lines = [head, "|---|---:|---:|"]
    for name, core, deeper in table(edition):
        label = f"`{name}`" if name != "total" else total
        lines.append(f"| {label} | {core} | {deeper} |")
    return "\n".join(lines)


#: edition -> its README, whose notebooks table ends each row with the core path's minutes
READMES = {code: language.readme for code, language in EDITIONS.items()}


def _readme_row(edition: str) -> re.Pattern:
    """A row of a README's notebooks table: the notebook as a link to its edition's copy
    (group 1 its name), then any cells, then the minutes (group 2); or the total row."""
    folder = re.escape(EDITIONS[edition].notebooks)
    total = re.escape(TABLE_WORDS[edition][1])
    return re.compile(
        rf"^(\| (?:\[`(\d\d_\w+)`\]\({folder}/\2\.ipynb\)|{total}) \|.*\| )(\d+)( \|)$", re.M
    )


def readme_minutes(text: str, edition: str) -> list[tuple[str, int]]:
    """(notebook, core minutes) of each row of a README's table, ("total", m) last."""
    return [(m.group(2) or "total", int(m.group(3))) for m in _readme_row(edition).finditer(text)]


def with_readme_minutes(text: str, edition: str) -> str:
    """`text` with its table's minutes set to the tool's core path (rows it has only)."""
    core = {name: minutes for name, minutes, _ in table(edition)}
    return _readme_row(edition).sub(
        lambda m: f"{m.group(1)}{core.get(m.group(2) or 'total', m.group(3))}{m.group(4)}", text
    )


def table_cell(cells: list[dict], edition: str) -> dict:
    """The markdown cell of notebook 00 that holds the table (it holds nothing else)."""
    found = [
        c
        for c in cells
        if c["cell_type"] == "markdown" and "".join(c["source"]).startswith(TABLE_HEAD[edition])
    ]
    if len(found) != 1:
        raise ValueError(f"expected one table cell in 00 ({edition}), found {len(found)}")
    return found[0]


def write() -> None:
    """Put the current tables into notebook 00, both editions (the Chinese cell's hash too)."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import translation

    texts = {}
    for edition in EDITIONS:
        path = lesson_paths(edition)[0]
        nb = json.loads(path.read_text(encoding="utf-8"))
        cell = table_cell(nb["cells"], edition)
        text = markdown(edition)
        if edition == "en":
            lines = text.split("\n")
            cell["source"] = [line + "\n" for line in lines[:-1]] + [lines[-1]]
            path.write_text(json.dumps(nb, indent=1, ensure_ascii=False, sort_keys=True) + "\n")
            english_id = cell["id"]
        else:
            texts[cell["metadata"]["translation"]["of"]] = text
    assert list(texts) == [english_id]
    translation.apply(lesson_paths("en")[0].stem, texts)
    for edition, name in READMES.items():
        path = ROOT / name
        text = path.read_text(encoding="utf-8")
        path.write_text(with_readme_minutes(text, edition), encoding="utf-8")


def main(argv: list[str]) -> int:
    if argv[:1] == ["--write"]:
        write()
        print("\n\n".join(markdown(edition) for edition in EDITIONS))
        return 0
    if argv[:1] == ["--markdown"]:
        print(markdown(argv[1] if len(argv) > 1 else "en"))
        return 0
    for edition in EDITIONS:
        print(f"{edition}: notebook   core min  deeper min   (core: words/chars, code, ex, pred)")
        for path in lesson_paths(edition):
            t = study_time(path)
            c = t.core
            print(
                f"  {t.name:28} {t.core.minutes:6.1f} {t.deeper.minutes:9.1f}"
                f"   ({c.words}/{c.characters}, {c.code_cells}, {c.exercises}, {c.predictions})"
            )
        total = table(edition)[-1]
        print(f"  {'total (exact sum, rounded)':28} {total[1]:6d} {total[2]:9d}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
