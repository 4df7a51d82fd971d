"""Figure titles, axis labels and legends (plotting, charts)."""

MESSAGES = {
    # plotting: the heatmaps
    "key j": "键 j",
    "query i": "查询 i",
    "weights α = softmax(scores){masked}  {shape}": "注意力权重 α = softmax(分数){masked}  {shape}",
    ", masked 0": "，被掩码处为 0",
    ", masked −∞": "，被掩码处为 −∞",
    "scores q·k / √d_k": "注意力分数 q·k / √d_k",
    "scores q·k (unscaled)": "注意力分数 q·k（未缩放）",
    "head {h}: α{masked}  ({n} × {n})": "头 {h}：α{masked}  ({n} × {n})",
    "coordinate": "分量",
    "coordinate ({width} = {cols})": "分量（{width} = {cols}）",
    "token": "词元",
    "weights, unscaled: softmax(q·k)  {shape}": "注意力权重，未缩放：softmax(q·k)  {shape}",
    "weights, scaled: softmax(q·k / √d_k)  {shape}": "注意力权重，缩放后：softmax(q·k / √d_k)  {shape}",
    # charts: cost against n
    "memory against n": "内存随 n 的变化",
    "memory (MiB)": "内存（MiB）",
    "time against n": "时间随 n 的变化",
    "time (ms)": "时间（ms）",
    "measured": "实测",
    "fitted slope {slope:.2f}": "拟合斜率 {slope:.2f}",
    "n² (slope 2)": "n²（斜率 2）",
    "sequence length n": "序列长度 n",
    # charts: one query's weighted sum
    "weight α_{i}j": "注意力权重 α_{i}j",
    "weights of the query {token!r} (row {i} of α, sum 1)": (
        "查询 {token!r} 的注意力权重（α 的第 {i} 行，和为 1）"
    ),
    "values v_j and their mix z_{i}": "值向量 v_j 及其加权求和 z_{i}",
    # charts: the √d_k experiments (no $...$ in Chinese: mathtext would not fall back to the CJK font)
    r"unscaled $q\cdot k$": "未缩放 q·k",
    r"scaled $q\cdot k/\sqrt{d_k}$": "缩放后 q·k / √d_k",
    r"reference: $d_k$": "参考线：d_k",
    "variance of the score": "注意力分数的方差",
    r"Scores spread out as $d_k$ grows, unless scaled": "未缩放时，d_k 越大，注意力分数越分散",
    "max weight": "最大注意力权重",
    "row entropy, nats (max ln {n} = {ln_n:.2f})": "行熵，单位奈特（最大 ln {n} = {ln_n:.2f}）",
    r"softmax Jacobian $\|J\|_F$, median": "softmax 雅可比矩阵 ‖J‖_F 的中位数",
    "unscaled": "未缩放",
    r"scaled by $1/\sqrt{d_k}$": "缩放后（乘以 1/√d_k）",
    "Softmax of random scores, n = {n} tokens, {draws} draws per $d_k$": (
        "随机注意力分数的 softmax，n = {n} 个词元，每个 d_k 抽样 {draws} 次"
    ),
    # charts: the spread of the gradients (2.2.3, 06)
    "scaled": "缩放后",
    "median; quartiles": "中位数；四分位数",
    "near zero: below {near_zero:g}": "接近 0：小于 {near_zero:g}",
    "{floor:g} or less": "{floor:g} 及以下",
    # charts: training
    "training loss": "训练损失",
    "guessing: {chance:.2f} nats": "随机猜测：{chance:.2f} 奈特",
    "training step": "训练步数",
    "cross-entropy (nats, log scale)": "交叉熵（奈特，对数刻度）",
    # a figure's text alternative (attnlib.pictures.plotting.StaticFigure.alt_text), read by
    # a screen reader; its characters are in the font's subset all the same
    "{y} against {x}": "纵向为{y}，横向为{x}",
    "{title}, {axes}": "{title}，{axes}",
    "; ": "；",
    "Figure: {parts}.": "图：{parts}。",
}
