"""One word per concept in the Chinese edition: the variants the glossary rejects.

    python tools/zh_terms.py             # list every rejected variant, with where it is
    python tools/zh_terms.py --update    # ... and rewrite tests/zh_terms_baseline.json

The glossary (the start page's 术语表, and "Terms in Chinese" in the course guide)
gives one Chinese term per concept. VARIANTS lists, for each, the other words that
translations drifted to (issue 23); they are looked for in the Chinese notebooks'
prose and code (notebooks/zh/*.ipynb, outputs aside), in the Chinese sentences of
attnlib (attnlib/i18n/zh/, the values of MESSAGES) and in README.zh.md.
tests/test_zh_terms.py fails when a file holds more of them than its count in the
baseline; the target is 0.

Issue 34 added the concepts whose words had drifted inside the notebooks
(scaled/unscaled in six forms, masked as 屏蔽/掩盖/遮住, a vector's 坐标 for its
分量, 自注意力 beside 自注意力机制, logits called 一组分数/值得分). ``--concepts``
counts, for each concept, its term and every rejected variant, so that the target
reads as one word per concept:

    python tools/zh_terms.py --concepts
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
    # issue 34: the one pair 缩放后 / 未缩放 (a run, scores, a layer)
    (
        "缩放后",
        r"(?<!没)有缩放|带缩放|缩放之后|缩放以后|缩放过|(?<![\u4e00-\u9fff$ ])缩放时",
        "scaled",
    ),
    (
        "未缩放",
        r"没有 ?(?:\$\\sqrt\{d_k\}\$ ?|√d_k ?)?缩放"  # 没有 $\sqrt{d_k}$ 缩放
        r"|没缩放|无缩放|不缩放|不做缩放|不加缩放|不经缩放",
        "unscaled",
    ),
    # a key a query may not see is 被掩码 (掩码 is the mask itself)
    ("被掩码", r"屏蔽|掩盖|掩蔽|遮住|遮挡|遮蔽|挡住|盖住|掩掉|(?<!被)掩码处", "masked"),
    # a vector's entries; 坐标轴 (a figure's axes) and 双对数坐标 (log-log axes) are no vectors
    ("分量", r"(?<!对数)坐标(?!轴|系)", "an entry of a vector"),
    # the chapter's compound 自注意力层 stays; everything else says 自注意力机制
    ("自注意力机制", r"自注意力(?!机制|层)", "self-attention, shortened"),
    # logits keep their name (glossed once as 未归一化的对数概率): 分数 and 得分 are scores
    (
        "logits",
        r"一组分数|值得分(?!析)|分数\s*[（(]\s*logits?|logits?\s*[（(]\s*(?:分数|得分)",
        "logits",
    ),
    ("注意力分数", r"(?<!值)(?<!注意力)得分(?!析)", "a score, as 得分"),
)

#: The terms of the concepts above that are counted beside their variants (--concepts).
TERMS: dict[str, str] = {
    "缩放后": "缩放后",
    "未缩放": "未缩放",
    "被掩码": "被掩码",
    "分量": "分量",
    "自注意力机制": "自注意力机制|自注意力层",
    "logits": NOT_LATIN + "logits?" + END,
    "注意力分数": "注意力分数",
}


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
    readme = ROOT / "README.zh.md"
    for n, line in enumerate(readme.read_text(encoding="utf-8").splitlines(), 1):
        out.append(("README.zh.md", f"line {n}", line))
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


def grown(found: list[Variant], allowed: dict[str, int]) -> dict[str, int]:
    """The files that hold more rejected variants than `allowed` (the baseline) lets them."""
    return {path: n for path, n in counts(found).items() if n > allowed.get(path, 0)}


def concepts(found: list[Variant]) -> dict[str, dict[str, int]]:
    """For each term of TERMS: how often the term itself is written, and each variant found."""
    out: dict[str, dict[str, int]] = {term: {} for term in TERMS}
    everything = texts()
    for term, pattern in TERMS.items():
        out[term][term] = sum(len(re.findall(pattern, text)) for _, _, text in everything)
    for v in found:
        if v.term in out:
            out[v.term][v.found] = out[v.term].get(v.found, 0) + 1
    return out


def baseline() -> dict[str, int]:
    return json.loads(BASELINE.read_text(encoding="utf-8")) if BASELINE.exists() else {}


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--update", action="store_true", help=f"rewrite {BASELINE.name}")
    parser.add_argument(
        "--concepts", action="store_true", help="count each term of TERMS and its variants"
    )
    args = parser.parse_args(argv)
    found = variants()
    if args.concepts:
        for term, seen in concepts(found).items():
            print(f"{term}: " + ", ".join(f"{word} {n}" for word, n in seen.items()))
        return 0
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
