"""Worked solutions to the notebooks' exercises.

Try each exercise first: the checks in attnlib.checks give hints. Each
solution here passes its check, which the tests confirm.
"""

from __future__ import annotations

import numpy as np

# --- 2.1 and 2.2.1 ---


def my_cross_scores(X_q, X_kv, W_Q, W_K):
    """Scores of general attention: queries from X_q, keys from X_kv (checks.check_cross_scores)."""
    Q = X_q @ W_Q  # (n_q, d) @ (d, d_k) -> (n_q, d_k)
    K = X_kv @ W_K  # (n_kv, d) @ (d, d_k) -> (n_kv, d_k)
    d_k = Q.shape[1]
    return Q @ K.T / np.sqrt(d_k)  # (n_q, d_k) @ (d_k, n_kv) -> (n_q, n_kv)


def predict_permuted(Z, perm):
    """Outputs of self-attention on X[perm]: each z_i moves with its token (check_permutation)."""
    return np.asarray(Z)[perm]  # row i of the new Z is the old row perm[i]


def my_embed(words, table):
    """Row i is the table row of the i-th word (checks.check_embedding_lookup)."""
    from ..maths.data import VOCABULARY

    rows = [VOCABULARY.index(word) for word in words]  # n indices into the vocabulary
    return np.asarray(table)[rows]  # (n_vocab, d) indexed by n rows -> (n, d)


def my_one_hot(words):
    """One-hot rows: row i holds a 1 in column VOCABULARY.index(words[i]) (checks.check_one_hot)."""
    from ..maths.data import VOCABULARY

    one_hot = np.zeros((len(words), len(VOCABULARY)))  # (n, n_vocab)
    for i, word in enumerate(words):
        one_hot[i, VOCABULARY.index(word)] = 1.0
    return one_hot


def my_shapes(n, d, d_k, d_v):
    """The shapes of Q, the scores and Z for the given sizes (checks.check_shapes)."""
    return {
        "Q": (n, d_k),  # (n, d) @ (d, d_k)
        "scores": (n, n),  # (n, d_k) @ (d_k, n): every query against every key
        "Z": (n, d_v),  # (n, n) @ (n, d_v)
    }


# --- 2.2.2 to 2.2.4 ---


def my_softmax(scores):
    """Row-wise softmax: subtract each row's maximum, exponentiate, normalise."""
    scores = np.asarray(scores, dtype=float)
    shifted = scores - scores.max(axis=-1, keepdims=True)  # (n, m), each row's max is 0
    e = np.exp(shifted)
    return e / e.sum(axis=-1, keepdims=True)  # each row sums to 1


def my_qkv(X, W_Q, W_K, W_V):
    """The three projections of 2.2.2, rows as tokens (checks.check_qkv)."""
    Q = X @ W_Q  # (n, d) @ (d, d_k) -> (n, d_k)
    K = X @ W_K  # (n, d) @ (d, d_k) -> (n, d_k)
    V = X @ W_V  # (n, d) @ (d, d_v) -> (n, d_v)
    return Q, K, V


def my_fused_qkv(X, W_QKV, d_k):
    """One product, then split the columns into Q, K, V (checks.check_fused_qkv)."""
    QKV = X @ W_QKV  # (n, d) @ (d, 3 d_k) -> (n, 3 d_k)
    return QKV[:, :d_k], QKV[:, d_k : 2 * d_k], QKV[:, 2 * d_k :]  # (n, d_k) each


def my_softmax_temperature(scores, tau):
    """softmax(scores / tau) along each row (checks.check_softmax_temperature)."""
    return my_softmax(np.asarray(scores, dtype=float) / tau)  # tau > 1 flattens, tau < 1 sharpens


def my_column_form(X_cols, W_Q):
    """Queries with tokens as columns: q_i = W_Qᵀ x_i (checks.check_column_form)."""
    return W_Q.T @ X_cols  # (d_k, d) @ (d, n) -> (d_k, n)


def my_scores(Q, K):
    """score_ij = q_i . k_j / sqrt(d_k) for every pair (checks.check_scores)."""
    d_k = Q.shape[1]
    return Q @ K.T / np.sqrt(d_k)  # (n_q, d_k) @ (d_k, n_kv) -> (n_q, n_kv)


def my_row_entropy(weights):
    """H_i = -sum_j alpha_ij ln alpha_ij, with 0 ln 0 = 0 (checks.check_row_entropy)."""
    weights = np.asarray(weights, dtype=float)
    logs = np.log(np.where(weights > 0, weights, 1.0))  # ln 1 = 0 where alpha = 0
    return -(weights * logs).sum(axis=-1)  # (n_q, n_kv) -> (n_q,)


def my_weighted_sum(weights, V):
    """z_i = sum_j alpha_ij v_j for every query (checks.check_weighted_sum)."""
    return weights @ V  # (n_q, n_kv) @ (n_kv, d_v) -> (n_q, d_v)


def my_self_attention(X, W_Q, W_K, W_V):
    """The whole layer of 2.2.2 to 2.2.4, in numpy (checks.check_self_attention)."""
    Q, K, V = X @ W_Q, X @ W_K, X @ W_V  # (n, d) @ (d, d_k or d_v) -> (n, d_k), (n, d_k), (n, d_v)
    scores = my_scores(Q, K)  # (n, n): q_i . k_j / sqrt(d_k)
    weights = my_softmax(scores)  # (n, n), each row sums to 1
    return my_weighted_sum(weights, V)  # (n, n) @ (n, d_v) -> (n, d_v)


# --- predictions: write yours before reading these (checks.check_prediction_*) ---


def predict_cross_shape(n_q=3, n_kv=5):
    """One score per (query, key) pair: n_q rows, n_kv columns (check_prediction_cross_shape)."""
    return (n_q, n_kv)


def predict_cost_ratio(factor=2):
    """n grows `factor` times: rows and columns of the n × n scores both do (check_prediction_cost_ratio)."""  # noqa: E501
    return factor * factor


def predict_X_shape(n=6, d=8):
    """One row of length d per token (check_prediction_X_shape)."""
    return (n, d)


def predict_embedding_row(i=4):
    """The table is indexed by the vocabulary, not by the position (check_prediction_embedding_row)."""  # noqa: E501
    from ..maths.data import VOCABULARY, tokens

    word = tokens(i + 1)[i]  # token i of the toy sentence
    return VOCABULARY.index(word)


def predict_qkv_shapes(n=5, d=6, d_k=3, d_v=2):
    """Q, K: (n, d) @ (d, d_k); V: (n, d) @ (d, d_v) (check_prediction_qkv_shapes)."""
    return (n, d_k), (n, d_k), (n, d_v)


def predict_fused_shape(n=5, d=6, d_k=3):
    """X @ W_QKV is (n, 3 d_k), and K is its second block of d_k columns
    (check_prediction_fused_shape)."""
    return (n, 3 * d_k), list(range(d_k, 2 * d_k))


def predict_score(att, i=0, j=1):
    """score_ij by hand: q_i · k_j term by term, then ÷ √d_k (check_prediction_score)."""
    q, k = att.Q[i], att.K[j]
    dot = sum(float(q[c]) * float(k[c]) for c in range(len(q)))
    return dot / len(q) ** 0.5 if att.scaled else dot


def predict_score_variance(d_k=64):
    """var(q · k): d_k independent products of variance 1 add up (check_prediction_score_variance)."""  # noqa: E501
    return d_k


def predict_winner(att, i=1):
    """The key with the largest score of row i: exp keeps the order (check_prediction_winner)."""
    row = [float(s) for s in att.scores[i]]
    return row.index(max(row))


def predict_doubled_scores():
    """Doubling every score doubles every gap, and α_j / α_k = exp(gap) (check_prediction_doubled_scores)."""  # noqa: E501
    return "sharper"


def predict_temperature(T=2.0):
    """Dividing by T > 1 shrinks every gap between scores: flatter rows
    (check_prediction_temperature)."""
    return "flatter" if T > 1 else ("sharper" if T < 1 else "unchanged")


def predict_alpha(att, i=1, j=2):
    """α_ij by hand: exp of each score of row i, then divide by their sum (check_prediction_alpha)."""  # noqa: E501
    import math

    exps = [math.exp(float(s)) for s in att.scores[i]]
    return exps[j] / sum(exps)


def predict_moved_token(perm=(5, 3, 0, 4, 1, 2), i=1):
    """Row r of X[perm] is old token perm[r]: token i lands where perm holds i (check_prediction_moved_token)."""  # noqa: E501
    return list(perm).index(i)


def predict_exps(att, i=1):
    """Subtract the row's largest score, then exp of each (check_prediction_exps)."""
    import math

    row = [float(s) for s in att.scores[i]]
    return [math.exp(s - max(row)) for s in row]


def predict_output(att, i=1):
    """z_i = Σ_j α_ij v_j, one coordinate at a time (check_prediction_output)."""
    alpha, V = att.weights[i], att.V
    return [
        sum(float(alpha[j]) * float(V[j, c]) for j in range(len(alpha))) for c in range(V.shape[1])
    ]


# --- notebook 06: what attention learns ---


def my_softmax_backward(weights, d_weights):
    """d_scores from d_weights through each row's softmax (checks.check_softmax_backward)."""
    row_average = (d_weights * weights).sum(axis=1, keepdims=True)  # (n_q, n_kv) -> (n_q, 1)
    return weights * (d_weights - row_average)  # (n_q, n_kv)


def my_loss_gradient(logits, answer):
    """Gradient of -log softmax(logits)[answer] (checks.check_loss_gradient)."""
    from ..maths.core import softmax

    probs = softmax(logits)  # (n_values,)
    return probs - np.eye(len(logits))[answer]  # (n_values,) - one-hot (n_values,)


# --- notebook 07: masks and heads (checks.next_steps) ---


def my_causal_mask(n):
    """True where query i may attend to key j, i.e. j <= i (checks.check_causal_mask)."""
    return np.tril(np.ones((n, n), dtype=bool))  # (n, n): the lower triangle and the diagonal


def my_window_mask(n, w):
    """True where query i may attend to key j, i - w <= j <= i: itself and the w tokens before
    it (checks.check_window_mask)."""
    causal = np.tril(np.ones((n, n), dtype=bool))  # (n, n): j <= i
    too_far = np.tril(np.ones((n, n), dtype=bool), k=-(w + 1))  # (n, n): j < i - w
    return causal & ~too_far


def predict_zero_weights(length=3, n=5):
    """The zeros of a causal mask on a sentence of `length` tokens padded to n: j > i or
    j >= length; padded query rows are not blocked (check_prediction_zero_weights)."""
    i = np.arange(n)[:, None]  # (n, 1): the query of each row
    j = np.arange(n)[None, :]  # (1, n): the key of each column
    return (j > i) | (j >= length)  # (n, n) by broadcasting


def my_split_heads(M, heads):
    """(n, heads·d_k) -> (heads, n, d_k): head ℓ takes columns ℓ·d_k ... (ℓ+1)·d_k - 1
    (checks.check_split_heads)."""
    n = M.shape[0]
    d_k = M.shape[1] // heads
    return M.reshape(n, heads, d_k).transpose(1, 0, 2)  # (n, heads, d_k) -> (heads, n, d_k)


def my_merge_heads(parts):
    """(heads, n, d_v) -> (n, heads·d_v): the blocks side by side, head 0 first
    (checks.check_merge_heads)."""
    heads, n, d_v = parts.shape
    return parts.transpose(1, 0, 2).reshape(n, heads * d_v)  # (n, heads, d_v) -> (n, heads·d_v)


def my_to_heads(M, heads):
    """(B, n, heads·d_k) -> (B, heads, n, d_k), for a torch tensor (checks.check_to_heads, 08)."""
    B, n, width = M.shape
    blocks = M.view(B, n, heads, width // heads)  # (B, n, h·d_k) -> (B, n, h, d_k): cut each row
    return blocks.transpose(1, 2)  # (B, n, h, d_k) -> (B, h, n, d_k): the heads before the tokens
