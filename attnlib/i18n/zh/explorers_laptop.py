"""The explorers on a laptop screen: the summary line of a click, captions, the learned
explorer's controls (attnlib.explorers)."""

MESSAGES = {
    # the summary line shown right under the pictures after a click
    "query {i} {query} → key {j} {key}": "查询 {i} {query} → 键 {j} {key}",
    "head {h} of {heads}": "头 {h}（共 {heads} 个）",
    "masked: score −∞, weight 0": "被掩码遮住：注意力分数 −∞，注意力权重 0",
    "score {score:.2f}, weight α = {weight:.2f}; q·k = {dot:.2f}, "
    "mostly from {terms} of its {d_k} products": (
        "注意力分数 {score:.2f}，注意力权重 α = {weight:.2f}；点积 q·k = {dot:.2f}，"
        "它的 {d_k} 个乘积里贡献最大的是 {terms}"
    ),
}
