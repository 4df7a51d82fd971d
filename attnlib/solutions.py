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
    from .data import VOCABULARY

    rows = [VOCABULARY.index(word) for word in words]  # n indices into the vocabulary
    return np.asarray(table)[rows]  # (V, d) indexed by n rows -> (n, d)


def my_one_hot(words):
    """One-hot rows: H[i, v] = 1 when words[i] is VOCABULARY[v] (checks.check_one_hot)."""
    from .data import VOCABULARY

    H = np.zeros((len(words), len(VOCABULARY)))  # (n, V)
    for i, word in enumerate(words):
        H[i, VOCABULARY.index(word)] = 1.0
    return H


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
