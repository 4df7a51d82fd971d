"""One word per concept in the Chinese edition: the variants the glossary rejects.

    python tools/zh_terms.py             # list every rejected variant, with where it is
    python tools/zh_terms.py --update    # ... and rewrite tests/zh_terms_baseline.json

The glossary (the start page's 术语表, and "Terms in Chinese" in the course guide)
gives one Chinese term per concept. VARIANTS lists, for each, the other words that
translations drifted to (issue 23); they are looked for in the Chinese notebooks'
prose and code (notebooks/zh/*.ipynb, outputs aside), in the Chinese sentences of
attnlib (attnlib/i18n/zh/, the values of MESSAGES), in README.zh.md and in the
Chinese guides (docs/zh/).
tests/test_zh_terms.py fails when a file holds more of them than its count in the
baseline; the target is 0.
"""

from __future__ import annotations

import argparse
import ast
import json
import re
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BASELINE = ROOT / "tests" / "zh_terms_baseline.json"

NOT_LATIN = r"(?<![A-Za-z_-])"  # a word of its own, not part of a name
END = r"(?![A-Za-z_])"

#: (the glossary's term, a regular expression of a variant it rejects, what it stands for)
VARIANTS: tuple[tuple[str, str, str], ...] = (
    ("本章", "章里", "this chapter"),
    ("本章", "原文", "this chapter"),
    ("示例句子", "玩具句子", "the example sentence"),
    ("示例句子", "这句话", "the example sentence"),
    ("开始页", "起始页", "the start page"),
    ("参考答案", "参考解答", "the worked answer"),
    (
        "独热（one-hot）",
        NOT_LATIN + r"(?<!独热（)(?<!独热\*\*（)one[- ]?hot" + END,
        "one-hot, in English alone",
    ),
    ("独热（one-hot）", "单热", "one-hot"),
    ("奈特（nat）", NOT_LATIN + r"nats" + END, "nats, in English"),
    ("奈特（nat）", NOT_LATIN + r"(?<!奈特（)(?<!奈特\*\*（)nat" + END, "nat, in English alone"),
    ("维度", "宽度", "the width of a vector"),
    (
        "维度",
        r"(?<!序列)(?<!句子)长度(?!为 ?\$?n)(?!（序列长度)",
        "the width of a vector (序列长度 is n)",
    ),
    ("线性变换 / 投影", "线性映射", "linear map"),
    ("线性变换 / 投影", "投射", "projection"),
    ("自注意力机制", "自我注意力", "self-attention"),
    ("词元（token）", "令牌", "token"),
    ("注意力分数", "注意力得分", "attention score"),
    ("热力图", "热图", "heatmap"),
    ("滑块", "滑动条|滑杆", "slider"),
    ("掩码", "遮罩", "mask"),
    ("超参数", "超参(?!数)", "hyperparameter"),
    ("缩放", "放缩", "scaling"),
    ("位置编码", "位置嵌入", "positional encoding"),
)


@dataclass(frozen=True)
class Variant:
    path: str  # relative to the repository
    where: str  # cell N, or a line
    term: str
    found: str
    context: str

    def __str__(self) -> str:
        return f"{self.path} {self.where}: {self.found!r} (say {self.term}) in …{self.context}…"


CJK = re.compile(r"[\u4e00-\u9fff]")


def without_glossary_english(text: str) -> str:
    """A table row's cells with no Chinese blanked, where another cell of the row has
    Chinese: the glossary's (术语表) English column, where English is the point."""
    lines = []
    for line in text.split("\n"):
        if line.startswith("|") and CJK.search(line):
            line = "|".join(cell if CJK.search(cell) else "" for cell in line.split("|"))
        lines.append(line)
    return "\n".join(lines)


def texts() -> list[tuple[str, str, str]]:
    """(path, where, text) of every Chinese text the glossary governs."""
    import nbformat

    out = []
    for path in sorted((ROOT / "notebooks" / "zh").glob("*.ipynb")):
        nb = nbformat.read(path, as_version=4)
        for k, cell in enumerate(nb.cells):
            if cell.cell_type in ("markdown", "code"):
                text = cell.source
                if "术语表" in text:  # the glossary itself
                    text = without_glossary_english(text)
                out.append((path.relative_to(ROOT).as_posix(), f"cell {k}", text))
    for path in sorted((ROOT / "attnlib" / "i18n" / "zh").glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Dict):
                for value in node.values:
                    if isinstance(value, ast.Constant) and isinstance(value.value, str):
                        where = f"line {value.lineno}"
                        out.append((path.relative_to(ROOT).as_posix(), where, value.value))
    for doc in [ROOT / "README.zh.md", *sorted((ROOT / "docs" / "zh").rglob("*.md"))]:
        name = doc.relative_to(ROOT).as_posix()
        for n, line in enumerate(doc.read_text(encoding="utf-8").splitlines(), 1):
            out.append((name, f"line {n}", line))
    return out


def variants() -> list[Variant]:
    found = []
    for path, where, text in texts():
        for term, pattern, _ in VARIANTS:
            for match in re.finditer(pattern, text):
                a, b = max(match.start() - 12, 0), match.end() + 12
                context = " ".join(text[a:b].split())
                found.append(Variant(path, where, term, match.group(0), context))
    return found


def counts(found: list[Variant]) -> dict[str, int]:
    out: dict[str, int] = {}
    for v in found:
        out[v.path] = out.get(v.path, 0) + 1
    return dict(sorted(out.items()))


def baseline() -> dict[str, int]:
    return json.loads(BASELINE.read_text(encoding="utf-8")) if BASELINE.exists() else {}


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--update", action="store_true", help=f"rewrite {BASELINE.name}")
    args = parser.parse_args(argv)
    found = variants()
    print("\n".join(map(str, found)))
    now, before = counts(found), baseline()
    for path in sorted(set(now) | set(before)):
        print(f"{path}: {now.get(path, 0)} (baseline {before.get(path, 0)})")
    if args.update:
        BASELINE.write_text(json.dumps(now, indent=1, ensure_ascii=False) + "\n", "utf-8")
        print(f"wrote {BASELINE.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
