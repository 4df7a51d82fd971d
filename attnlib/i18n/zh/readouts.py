"""The text under each explorer's picture (attnlib.readouts)."""

MESSAGES = {
    # the attention explorer
    "scores = q·k / √d_k, √{d_k} = {root:.2f}": "注意力分数 = q·k / √d_k，√{d_k} = {root:.2f}",
    "scores = q·k, not divided by √d_k (unscaled)": "注意力分数 = q·k，未除以 √d_k（未缩放）",
    "Q {Q} · K {K} · V {V} · scores and weights {weights} · {scaling}": (
        "Q {Q} · K {K} · V {V} · 注意力分数与注意力权重 {weights} · {scaling}"
    ),
    "largest weight in each row: <code>{numbers}</code>": (
        "每行最大的注意力权重：<code>{numbers}</code>"
    ),
    "largest weight in each row: from <code>{low:.2f}</code> to <code>{high:.2f}</code>"
    " (median {median:.2f} over {n} rows)": (
        "每行最大的注意力权重：从 <code>{low:.2f}</code> 到 <code>{high:.2f}</code>"
        "（{n} 行的中位数为 {median:.2f}）"
    ),
    "mean row entropy: {entropy:.2f} nats "
    "(0 = all weight on one key, {ln_n:.2f} = spread evenly over {n})": (
        "平均行熵：{entropy:.2f} 奈特（0 = 权重全部落在一个键上，{ln_n:.2f} = 平均分给 {n} 个键）"
    ),
    # the embedding and Q, K, V explorers
    "; a repeated token gets the same row: {words}": "；重复的词元得到相同的行：{words}",
    "X {shape}: n = {n} tokens, one row of d = {d} numbers each{same}": (
        "X {shape}：n = {n} 个词元，每个词元一行，每行 d = {d} 个数{same}"
    ),
    "Q and K share d_k = {d_k} (each score is q_i · k_j); V has d_v = {d_v}, free to differ": (
        "Q 与 K 共用 d_k = {d_k}（每个注意力分数都是点积 q_i · k_j）；V 的 d_v = {d_v}，可以不同"
    ),
    # the scaling explorer
    "score variance": "注意力分数的方差",
    "mean max weight": "最大注意力权重的平均值",
    "mean row entropy (nats)": "平均行熵（奈特）",
    "scaled by √d_k = {root:.2f}": "除以 √d_k = {root:.2f} 缩放",
    "A saturated softmax has max weight near 1 and entropy near 0; "
    "an even one 1/{n} = {even:.2f} and log {n} = {ln_n:.2f}.": (
        "饱和的 softmax 最大注意力权重接近 1、熵接近 0；"
        "均匀的 softmax 则是 1/{n} = {even:.2f} 和 log {n} = {ln_n:.2f}。"
    ),
    # several heads
    "each head divides by √d_k = √{d_k} = {root:.2f}, its own width": (
        "每个头按自己的维度除以 √d_k = √{d_k} = {root:.2f}"
    ),
    "scores not divided by √d_k (unscaled)": "注意力分数未除以 √d_k（未缩放）",
    "heads = {heads}: per head Q, K {QK}, V {V}, weights {weights} · {scaling}": (
        "头数 h = {heads}：每个头的 Q、K {QK}，V {V}，注意力权重 {weights} · {scaling}"
    ),
    "Z = the heads side by side {Z} = (n, heads·d_v = {heads}·{d_v}) · output Z W_O {output}": (
        "Z = 各个头并排拼接 {Z} = (n, h·d_v = {heads}·{d_v}) · 输出 Z W_O {output}"
    ),
    "mean row entropy per head: <code>{numbers}</code> nats "
    "(0 = all weight on one key, {ln_n:.2f} = spread evenly over {n})": (
        "每个头的平均行熵：<code>{numbers}</code> 奈特"
        "（0 = 权重全部落在一个键上，{ln_n:.2f} = 平均分给 {n} 个键）"
    ),
    # the mask
    "mask: {blocked} of {size} scores blocked (grey): −∞ before the softmax, "
    "weight 0 after it; each row's remaining weights still sum to 1": (
        "掩码：{size} 个注意力分数中有 {blocked} 个被掩码（灰色）：softmax 之前为 −∞，"
        "之后注意力权重为 0；每行其余的注意力权重之和仍为 1"
    ),
    # the learned lookup
    "right": "正确",
    "wrong: the answer is {answer}": "错误：答案是 {answer}",
    "step {step}": "第 {step} 步",
    "the query {query} puts {weight:.2f} of its weight on the matching pair "
    "{pair} (j = {match}); its largest weight, {top_weight:.2f}, "
    "is on {top_token} (j = {top})": (
        "查询 {query} 把 {weight:.2f} 的注意力权重放在与之匹配的 {pair} 上（j = {match}）；"
        "它最大的注意力权重 {top_weight:.2f} 落在 {top_token} 上（j = {top}）"
    ),
    "the model answers {guess} with probability {p:.2f} ({verdict})": (
        "模型以 {p:.2f} 的概率回答 {guess}（{verdict}）"
    ),
}
