"""The website's own words (its buttons and notes), per edition; attnlib's words come from
its catalogues. A language without an entry here reads English ones."""

from __future__ import annotations

WORDS = {
    "en": {
        "site_title": "attnlib: self-attention, one step at a time",
        "edition_name": "English",
        "this_page": "This notebook",
        "download": "download (.ipynb)",
        "binder": "run on Binder",
        "hub": "open on the class hub",
        "run_note": "The pictures below move in this page; the code runs in JupyterLab.",
        "exercise": "An exercise to run: write your code in JupyterLab, then run the check.",
        "check": "Check",
        "your_answer": "Your prediction",
        "choose": "choose…",
        "index_intro": (
            "Notebooks that teach how self-attention computes its output, following the "
            'chapter "Self-Attention" (2.1 and 2.2.1–2.2.4). Read them here: every explorer '
            "moves in the page and the predictions answer you here. To run the code and the "
            "exercises, open a notebook in JupyterLab (each page links to its notebook)."
        ),
        "contents": "Contents",
        "search": "Search this course…",
        # an answer cell's code, closed like its output (myst-nb's hide-input tag)
        "code_show": "Show the answer's code",
        "code_hide": "Hide the answer's code",
    },
    "zh": {
        "site_title": "attnlib：一步一步理解自注意力机制",
        "edition_name": "中文版",
        "this_page": "本笔记本",
        "download": "下载（.ipynb）",
        "binder": "在 Binder 上运行",
        "hub": "在课程的 JupyterHub 上打开",
        "run_note": "下面的热力图可以在本页直接操作；代码要在 JupyterLab 中运行。",
        "exercise": "这是一道要运行代码的练习：在 JupyterLab 中写好代码，再运行检查。",
        "check": "检查",
        "your_answer": "你的预测",
        "choose": "请选择…",
        "index_intro": (
            "这些笔记本按照讲 Self-Attention 的那一章"
            "（2.1 什么是Self-Attention 与 2.2.1–2.2.4）讲解自注意力机制如何算出输出。"
            "可以直接在这里阅读：每个热力图都能在页面中拖动滑块，每个预测都能在页面中作答。"
            "要运行代码和练习，请在 JupyterLab 中打开笔记本（每页都有指向它的链接）。"
        ),
        "contents": "目录",
        "search": "搜索本课程…",
        "code_show": "显示答案的代码",
        "code_hide": "隐藏答案的代码",
    },
}


def words(code: str) -> dict[str, str]:
    """The site's words in edition `code`, English where it has none."""
    return {**WORDS["en"], **WORDS.get(code, {})}
