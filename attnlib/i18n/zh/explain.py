"""The breakdown of one score, one row of weights and one output (attnlib.explain).

Formulas (score[i, j] = q_i · k_j, z_i = Σ_j α[i, j] v_j) stay as they are:
they are the chapter's notation in both languages.
"""

MESSAGES = {
    "query i = {i}": "查询 i = {i}",
    ", key j = {j}": "，键 j = {j}",
    "scaled by √d_k": "已除以 √d_k 缩放",
    "{query}{key}  ({n} keys, d_k = {d_k}, d_v = {d_v}, {how})": (
        "{query}{key}  （{n} 个键，d_k = {d_k}，d_v = {d_v}，{how}）"
    ),
    "the {d_k} products": "这 {d_k} 个乘积",
    " ({hidden} not shown)": "（其中 {hidden} 个未显示）",
    "sum of {of} = q_{i} · k_{j} = {dot}": "{of}之和 = q_{i} · k_{j} = {dot}",
    "unscaled: no division": "未缩放：不做除法",
    "key {j} is masked: score[{i}, {j}] = -inf, so α[{i}, {j}] = 0": (
        "键 {j} 被掩码：score[{i}, {j}] = -inf，所以 α[{i}, {j}] = 0"
    ),
    "product": "乘积",
    "masked": "（掩码）",
    "α[{i}, j] = exp(score[{i}, j] − max) / sum, for every key j": (
        "对每个键 j：α[{i}, j] = exp(score[{i}, j] − max) / 和"
    ),
    "key": "键",
    "sum": "和",
    "max = {max}, the largest score of row {i}": "max = {max}，即第 {i} 行最大的注意力分数",
    "(sums run over all {n} keys, {hidden} not shown)": (
        "（求和遍及全部 {n} 个键，其中 {hidden} 个未显示）"
    ),
}
