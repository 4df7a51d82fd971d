"""One term per concept in the Chinese edition: the variants the glossary rejects.

The target is 0 (issue 23): the Chinese notebooks (prose and code), attnlib's
Chinese sentences (attnlib/i18n/zh/), README.zh.md and the Chinese guides (docs/zh/)
use the glossary's term every time (本章, 示例句子, 开始页, 参考答案, 独热（one-hot）,
奈特（nat）, 维度 ...;
tools/zh_terms.py lists the rejected variants). Until the translation lands this is
a ratchet: tests/zh_terms_baseline.json holds each file's count of rejected
variants, and the test fails when a file holds more, listing them. When a file
holds fewer, lower its count with ``python tools/zh_terms.py --update``.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
import zh_terms  # noqa: E402


def test_no_file_holds_more_rejected_variants_than_its_baseline():
    found = zh_terms.variants()
    now, allowed = zh_terms.counts(found), zh_terms.baseline()
    grown = {path: n for path, n in now.items() if n > allowed.get(path, 0)}
    listing = "\n".join(str(v) for v in found if v.path in grown)
    assert not grown, (
        f"more rejected term variants than tests/zh_terms_baseline.json allows "
        f"(the target is 0): {grown}\n{listing}"
    )


def test_every_chinese_notebook_and_the_readme_are_looked_at():
    paths = {path for path, _, _ in zh_terms.texts()}
    notebooks = {p.relative_to(ROOT).as_posix() for p in (ROOT / "notebooks/zh").glob("*.ipynb")}
    assert notebooks <= paths
    assert {"README.zh.md", "attnlib/i18n/zh/checks.py"} <= paths
    guides = {p.relative_to(ROOT).as_posix() for p in (ROOT / "docs/zh").rglob("*.md")}
    assert {"docs/zh/learning.md", "docs/zh/teaching.md"} <= guides <= paths


@pytest.mark.parametrize(
    ("text", "variants"),
    [
        ("章里的每个公式", ["章里"]),
        ("本章的每个公式", []),
        ("这一行近乎 one-hot，", ["one-hot"]),
        ("这一行近乎独热（one-hot），而 W_one_hot 是代码名", []),
        ("单位叫作**奈特**（nat），0.7 nats", ["nats"]),
        ("向量的长度为 $d$，宽度为 8", ["长度", "宽度"]),
        ("序列长度 n，$n$ 是输入的长度（序列长度），长度为 $n$ 的序列", []),
        (
            "回到[起始页](00_start_here.ipynb)；参考解答；玩具句子",
            ["起始页", "参考解答", "玩具句子"],
        ),
    ],
)
def test_which_variants_are_rejected(text, variants):
    found = [m.group(0) for _, pattern, _ in zh_terms.VARIANTS for m in re.finditer(pattern, text)]
    assert sorted(found) == sorted(variants)
