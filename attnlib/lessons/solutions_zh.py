"""笔记本中各道练习的参考答案。

请先自己做每道练习：attnlib.checks 中的检查函数会给出提示。这里的每个参考答案
都能通过它的检查函数，测试会确认这一点。

这是 solutions.py 的中文版：代码与英文版逐字相同，只有文档字符串和注释译成了中文。
"""

from __future__ import annotations

import numpy as np

# --- 2.1 与 2.2.1 ---


def my_cross_scores(X_q, X_kv, W_Q, W_K):
    """交叉注意力的注意力分数：查询向量来自 X_q，键向量来自 X_kv（checks.check_cross_scores）。"""
    Q = X_q @ W_Q  # (n_q, d) @ (d, d_k) -> (n_q, d_k)
    K = X_kv @ W_K  # (n_kv, d) @ (d, d_k) -> (n_kv, d_k)
    d_k = Q.shape[1]
    return Q @ K.T / np.sqrt(d_k)  # (n_q, d_k) @ (d_k, n_kv) -> (n_q, n_kv)


def predict_permuted(Z, perm):
    """对 X[perm] 做自注意力后的输出：每个 z_i 随它的词元一起移动（check_permutation）。"""
    return np.asarray(Z)[perm]  # 新 Z 的第 i 行就是原来的第 perm[i] 行


def my_embed(words, table):
    """第 i 行是第 i 个词在表中对应的那一行（checks.check_embedding_lookup）。"""
    from ..maths.data import VOCABULARY

    rows = [VOCABULARY.index(word) for word in words]  # n 个下标，指向词表中的位置
    return np.asarray(table)[rows]  # (n_vocab, d) 按 n 个行下标取行 -> (n, d)


def my_one_hot(words):
    """独热编码的各行：第 i 行在第 VOCABULARY.index(words[i]) 列为 1（checks.check_one_hot）。"""
    from ..maths.data import VOCABULARY

    one_hot = np.zeros((len(words), len(VOCABULARY)))  # (n, n_vocab)
    for i, word in enumerate(words):
        one_hot[i, VOCABULARY.index(word)] = 1.0
    return one_hot


def my_shapes(n, d, d_k, d_v):
    """给定各个尺寸时，Q、注意力分数和 Z 的形状（checks.check_shapes）。"""
    return {
        "Q": (n, d_k),  # (n, d) @ (d, d_k)
        "scores": (n, n),  # (n, d_k) @ (d_k, n)：每个查询向量与每个键向量各算一次
        "Z": (n, d_v),  # (n, n) @ (n, d_v)
    }


# --- 2.2.2 至 2.2.4 ---


def my_softmax(scores):
    """按行做 softmax：每行先减去该行的最大值，再取指数，最后归一化。"""
    scores = np.asarray(scores, dtype=float)
    shifted = scores - scores.max(axis=-1, keepdims=True)  # (n, m)，每行的最大值变为 0
    e = np.exp(shifted)
    return e / e.sum(axis=-1, keepdims=True)  # 每行之和为 1


def my_qkv(X, W_Q, W_K, W_V):
    """第 2.2.2 节的三个投影，词元按行排列（checks.check_qkv）。"""
    Q = X @ W_Q  # (n, d) @ (d, d_k) -> (n, d_k)
    K = X @ W_K  # (n, d) @ (d, d_k) -> (n, d_k)
    V = X @ W_V  # (n, d) @ (d, d_v) -> (n, d_v)
    return Q, K, V


def my_fused_qkv(X, W_QKV, d_k):
    """只做一次乘法，再把各列切成 Q、K、V（checks.check_fused_qkv）。"""
    QKV = X @ W_QKV  # (n, d) @ (d, 3 d_k) -> (n, 3 d_k)
    return QKV[:, :d_k], QKV[:, d_k : 2 * d_k], QKV[:, 2 * d_k :]  # 各为 (n, d_k)


def my_softmax_temperature(scores, tau):
    """对每一行求 softmax(scores / tau)（checks.check_softmax_temperature）。"""
    return my_softmax(np.asarray(scores, dtype=float) / tau)  # tau > 1 更平缓，tau < 1 更集中


def my_column_form(X_cols, W_Q):
    """词元按列排列时的查询向量：q_i = W_Qᵀ x_i（checks.check_column_form）。"""
    return W_Q.T @ X_cols  # (d_k, d) @ (d, n) -> (d_k, n)


def my_scores(Q, K):
    """对每一对 (i, j) 求 score_ij = q_i . k_j / sqrt(d_k)（checks.check_scores）。"""
    d_k = Q.shape[1]
    return Q @ K.T / np.sqrt(d_k)  # (n_q, d_k) @ (d_k, n_kv) -> (n_q, n_kv)


def my_row_entropy(weights):
    """H_i = -sum_j alpha_ij ln alpha_ij，约定 0 ln 0 = 0（checks.check_row_entropy）。"""
    weights = np.asarray(weights, dtype=float)
    logs = np.log(np.where(weights > 0, weights, 1.0))  # alpha = 0 处取 ln 1 = 0
    return -(weights * logs).sum(axis=-1)  # (n_q, n_kv) -> (n_q,)


def my_weighted_sum(weights, V):
    """对每个查询向量求 z_i = sum_j alpha_ij v_j（checks.check_weighted_sum）。"""
    return weights @ V  # (n_q, n_kv) @ (n_kv, d_v) -> (n_q, d_v)


def my_self_attention(X, W_Q, W_K, W_V):
    """用 numpy 写出第 2.2.2 至 2.2.4 节的整个自注意力层（checks.check_self_attention）。"""
    Q, K, V = X @ W_Q, X @ W_K, X @ W_V  # (n, d) @ (d, d_k 或 d_v) -> (n, d_k), (n, d_k), (n, d_v)
    scores = my_scores(Q, K)  # (n, n)：q_i . k_j / sqrt(d_k)
    weights = my_softmax(scores)  # (n, n)，每行之和为 1
    return my_weighted_sum(weights, V)  # (n, n) @ (n, d_v) -> (n, d_v)


# --- 预测：先写下你自己的预测，再来看这里（checks.check_prediction_*）---


def predict_cross_shape(n_q=3, n_kv=5):
    """每一对（查询向量，键向量）有一个注意力分数：n_q 行，n_kv 列
    （check_prediction_cross_shape）。"""
    return (n_q, n_kv)


def predict_cost_ratio(factor=2):
    """n 变为原来的 `factor` 倍：n × n 的注意力分数矩阵，行数和列数都随之变大
    （check_prediction_cost_ratio）。"""
    return factor * factor


def predict_X_shape(n=6, d=8):
    """每个词元一行，每行长度为 d（check_prediction_X_shape）。"""
    return (n, d)


def predict_embedding_row(i=4):
    """向量编码表按词表中的位置取行，而不是按词元在句子中的位置
    （check_prediction_embedding_row）。"""
    from ..maths.data import VOCABULARY, tokens

    word = tokens(i + 1)[i]  # 示例句子的第 i 个词元
    return VOCABULARY.index(word)


def predict_qkv_shapes(n=5, d=6, d_k=3, d_v=2):
    """Q 和 K 都是 (n, d) @ (d, d_k)，V 是 (n, d) @ (d, d_v)（check_prediction_qkv_shapes）。"""
    return (n, d_k), (n, d_k), (n, d_v)


def predict_fused_shape(n=5, d=6, d_k=3):
    """X @ W_QKV 的形状是 (n, 3 d_k)，K 是其中的第二块 d_k 列
    （check_prediction_fused_shape）。"""
    return (n, 3 * d_k), list(range(d_k, 2 * d_k))


def predict_score(att, i=0, j=1):
    """手算 score_ij：逐项算出 q_i · k_j，再除以 √d_k（check_prediction_score）。"""
    q, k = att.Q[i], att.K[j]
    dot = sum(float(q[c]) * float(k[c]) for c in range(len(q)))
    return dot / len(q) ** 0.5 if att.scaled else dot


def predict_score_variance(d_k=64):
    """var(q · k)：d_k 个相互独立、方差各为 1 的乘积相加，方差也相加
    （check_prediction_score_variance）。"""
    return d_k


def predict_winner(att, i=1):
    """第 i 行中注意力分数最大的那个键向量：exp 不改变大小顺序（check_prediction_winner）。"""
    row = [float(s) for s in att.scores[i]]
    return row.index(max(row))


def predict_doubled_scores():
    """每个注意力分数都乘以 2，任意两个分数之差也乘以 2，而 α_j / α_k = exp(差值)
    （check_prediction_doubled_scores）。"""
    return "sharper"


def predict_temperature(T=2.0):
    """除以 T > 1 会缩小注意力分数之间的每一个差值：各行变得更平缓
    （check_prediction_temperature）。"""
    return "flatter" if T > 1 else ("sharper" if T < 1 else "unchanged")


def predict_alpha(att, i=1, j=2):
    """手算 α_ij：对第 i 行的每个注意力分数取 exp，再除以它们的和（check_prediction_alpha）。"""
    import math

    exps = [math.exp(float(s)) for s in att.scores[i]]
    return exps[j] / sum(exps)


def predict_moved_token(perm=(5, 3, 0, 4, 1, 2), i=1):
    """X[perm] 的第 r 行是原来的第 perm[r] 个词元：词元 i 落在 perm 中值为 i 的位置
    （check_prediction_moved_token）。"""
    return list(perm).index(i)


def predict_exps(att, i=1):
    """先减去该行最大的注意力分数，再对每个分数取 exp（check_prediction_exps）。"""
    import math

    row = [float(s) for s in att.scores[i]]
    return [math.exp(s - max(row)) for s in row]


def predict_output(att, i=1):
    """z_i = Σ_j α_ij v_j，每次算一个分量（check_prediction_output）。"""
    alpha, V = att.weights[i], att.V
    return [
        sum(float(alpha[j]) * float(V[j, c]) for j in range(len(alpha))) for c in range(V.shape[1])
    ]


# --- 笔记本 06：注意力学到了什么 ---


def my_softmax_backward(weights, d_weights):
    """经过每一行的 softmax，由 d_weights 求出 d_scores（checks.check_softmax_backward）。"""
    row_average = (d_weights * weights).sum(axis=1, keepdims=True)  # (n_q, n_kv) -> (n_q, 1)
    return weights * (d_weights - row_average)  # (n_q, n_kv)


def my_loss_gradient(logits, answer):
    """-log softmax(logits)[answer] 对 logits 的梯度（checks.check_loss_gradient）。"""
    from ..maths.core import softmax

    probs = softmax(logits)  # (n_values,)
    return probs - np.eye(len(logits))[answer]  # (n_values,) 减去独热向量 (n_values,)


# --- 笔记本 07：掩码与多头注意力（checks.next_steps）---


def my_causal_mask(n):
    """查询 i 可以关注键 j 的位置为 True，即 j <= i（checks.check_causal_mask）。"""
    return np.tril(np.ones((n, n), dtype=bool))  # (n, n)：下三角，连同对角线


def my_window_mask(n, w):
    """查询 i 可以关注键 j 的位置为 True，即 i - w <= j <= i：它自己和它之前的 w 个词元
    （checks.check_window_mask）。"""
    causal = np.tril(np.ones((n, n), dtype=bool))  # (n, n)：j <= i
    too_far = np.tril(np.ones((n, n), dtype=bool), k=-(w + 1))  # (n, n)：j < i - w
    return causal & ~too_far


def predict_zero_weights(length=3, n=5):
    """一个 `length` 个词元的句子填充到 n 个之后，因果掩码下注意力权重为 0 的位置：
    j > i 或 j >= length；填充位置自己的查询所在的行不被掩码（check_prediction_zero_weights）。"""
    i = np.arange(n)[:, None]  # (n, 1)：每一行对应的查询
    j = np.arange(n)[None, :]  # (1, n)：每一列对应的键
    return (j > i) | (j >= length)  # 通过广播得到 (n, n)


def my_split_heads(M, heads):
    """(n, heads·d_k) -> (heads, n, d_k)：头 ℓ 取第 ℓ·d_k ... (ℓ+1)·d_k - 1 列
    （checks.check_split_heads）。"""
    n = M.shape[0]
    d_k = M.shape[1] // heads
    return M.reshape(n, heads, d_k).transpose(1, 0, 2)  # (n, heads, d_k) -> (heads, n, d_k)


def my_merge_heads(parts):
    """(heads, n, d_v) -> (n, heads·d_v)：各块并排放置，头 0 在最前
    （checks.check_merge_heads）。"""
    heads, n, d_v = parts.shape
    return parts.transpose(1, 0, 2).reshape(n, heads * d_v)  # (n, heads, d_v) -> (n, heads·d_v)


def my_to_heads(M, heads):
    """(B, n, heads·d_k) -> (B, heads, n, d_k)，输入是 torch 张量
    （checks.check_to_heads，笔记本 08）。"""
    B, n, width = M.shape
    blocks = M.view(B, n, heads, width // heads)  # (B, n, h·d_k) -> (B, n, h, d_k)：切开每一行
    return blocks.transpose(1, 2)  # (B, n, h, d_k) -> (B, h, n, d_k)：头排在词元之前
