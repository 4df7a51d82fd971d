"""The explorers on a laptop screen: the summary line of a click, captions, the learned
explorer's controls (attnlib.explorers)."""

MESSAGES = {
    # the summary line shown right under the pictures after a click
    "query {i} {query} → key {j} {key}": "查询 {i} {query} → 键 {j} {key}",
    "head {h} of {heads}": "头 {h}（共 {heads} 个）",
    "masked: score −∞, weight 0": "被掩码：注意力分数 −∞，注意力权重 0",
    "score {score:.2f}, weight α = {weight:.2f}; q·k = {dot:.2f}, "
    "mostly from {terms} of its {d_k} products": (
        "注意力分数 {score:.2f}，注意力权重 α = {weight:.2f}；"
        "点积 q·k = {dot:.2f}，主要来自 {d_k} 个乘积中的 {terms}"
    ),
    # why a picture does not answer a click
    "X is where attention starts: its numbers are not computed from others, so a "
    "click has nothing to explain here. Click a score or a weight in the attention "
    "explorer to see where it comes from.": (
        "X 是注意力机制的起点：它的数不是由别的数算出来的，所以在这里点击没有什么可拆解的。"
        "要看一个数从哪里来，请在注意力探索器里点击一个注意力分数或注意力权重。"
    ),
    "Each entry of Q, K and V is a row of X times a column of W_Q, W_K or W_V; "
    "clicks are answered one step later, on the scores and weights of the "
    "attention explorer.": (
        "Q、K、V 的每个数都是 X 的一行乘以 W_Q、W_K 或 W_V 的一列；"
        "点击要到下一步才有答案：请在注意力探索器里点击注意力分数或注意力权重。"
    ),
    # the learned explorer
    "colours fixed ±{limit:g}": "颜色范围固定为 ±{limit:g}",
    "the selected cell kept its column j = {j}; this example's matching pair is at j = {match}": (
        "选中的格子仍在第 j = {j} 列；这个例子里匹配的键值对在 j = {match}"
    ),
    "replay training": "回放训练过程",
    "step {step} / {steps}": "第 {step} / {steps} 步",
    "step {step} / {steps} · loss {loss:.3f} nats": "第 {step} / {steps} 步 · 损失 {loss:.3f} 奈特",
}
