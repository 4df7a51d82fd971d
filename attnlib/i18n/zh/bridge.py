"""Notebook 08, the bridge to PyTorch: attnlib.import_torch (lessons/bridge.py) and
check_to_heads (lessons/checks/torch_heads.py)."""

MESSAGES = {
    "PyTorch is not installed in this kernel's environment. The outputs below "
    "come from PyTorch {version} (CPU); to run the cells yourself, install it "
    "in a terminal with\n    {install}\n(about 200 MB), then restart the kernel.": (
        "这个内核的环境里没有安装 PyTorch。下面的输出来自 PyTorch {version}（CPU 版）；"
        "想自己运行这些单元格，请在终端里执行\n    {install}\n（约 200 MB），然后重启内核。"
    ),
    "a tensor of shape (B, n, heads·d_k) = (2, 3, 20) and heads = 4": (
        "形状为 (B, n, h·d_k) = (2, 3, 20)、头数 h = 4 的张量"
    ),
    "first cut each row's heads·d_k columns into heads blocks of d_k, then bring the heads "
    "axis in front of the tokens: print the shape after each step": (
        "先把每一行的 heads·d_k 列切成 heads 块、每块 d_k 列，再把头所在的轴移到词元之前："
        "每做一步，都把形状打印出来看看"
    ),
    "for {what}, your tensor has the right shape and the wrong numbers: a "
    "reshape to (B, heads, n, d_k) reads the entries in memory order, so each "
    "'head' holds pieces of several tokens": (
        "对{what}，你的张量形状对了，数却不对：直接 reshape 成 (B, heads, n, d_k) 会按内存顺序"
        "读取元素，于是每个“头”里混着好几个词元的片段"
    ),
    "keep each token's row whole while you cut it: which axes does the cut split?": (
        "切的时候要保持每个词元的那一行完整：这一刀切开的是哪个轴？"
    ),
    "for {what}, you cut the blocks (shape {got}) but the heads still come after "
    "the tokens: expected (B, heads, n, d_k) = {want}": (
        "对{what}，你切好了块（形状 {got}），但头的轴仍在词元之后：应为 (B, heads, n, d_k) = {want}"
    ),
    "one more step moves an axis: which two axes trade places?": (
        "还差一步来移动轴：哪两个轴要交换位置？"
    ),
    "for {what}, your head ℓ takes every heads-th column (ℓ, ℓ + heads, ...), "
    "not the block of d_k neighbouring columns": (
        "对{what}，你的第 ℓ 个头取的是每隔 heads 列的一列（ℓ, ℓ + heads, ...），"
        "而不是相邻的 d_k 列组成的一块"
    ),
    "head ℓ owns columns ℓ·d_k to (ℓ+1)·d_k − 1: in which order do the two sizes go?": (
        "第 ℓ 个头拥有第 ℓ·d_k 到 (ℓ+1)·d_k − 1 列：两个尺寸应按什么顺序排列？"
    ),
    "your heads are attnlib's and nn.MultiheadAttention's: "
    "head ℓ is columns ℓ·d_k to (ℓ+1)·d_k − 1": (
        "你切出的头与 attnlib 和 nn.MultiheadAttention 的一致：第 ℓ 个头是第 ℓ·d_k 到 (ℓ+1)·d_k − 1 列"
    ),
}
