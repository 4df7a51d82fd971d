"""Check results and hints (attnlib.checks): runner, inputs, formulas, predictions, learned, next_steps.

Code, variable names and formulas stay as they are; "token" is 词元 throughout.
"""

MESSAGES = {
    # --- runner: how every check reports ---
    "Hint: {hint}": "提示：{hint}",
    "expected a function, got {kind} {func!r}": "这里需要一个函数，你传入的是 {kind} {func!r}",
    "pass the function itself, without calling it: check(my_func)": (
        "传入函数本身，不要调用它：check(my_func)"
    ),
    " (line {lineno}: {line})": "（第 {lineno} 行：{line}）",
    "your function raised {kind}: {exc}{where}": "你的函数抛出了 {kind}：{exc}{where}",
    "your function returned None": "你的函数返回了 None",
    "your function returned None for {what}": "对于 {what}，你的函数返回了 None",
    "did you forget a `return`?": "是不是忘了写 `return`？",
    "for {what} you returned a {kind}, not an array of numbers": (
        "对于 {what}，你返回的是 {kind}，而不是数值数组"
    ),
    "your function returned a {kind}, not an array of numbers": (
        "你的函数返回的是 {kind}，而不是数值数组"
    ),
    "for {what} you returned shape {got}, expected {want}": (
        "对于 {what}，你返回的形状是 {got}，应为 {want}"
    ),
    "for {what} your result contains nan or inf": "对于 {what}，你的结果里有 nan 或 inf",
    "for {what}, entry {index} is {got:.4g} but should be {want:.4g}": (
        "对于 {what}，第 {index} 个元素是 {got:.4g}，应为 {want:.4g}"
    ),
    # --- inputs: 2.1 and 2.2.1 ---
    "queries are X_q @ W_Q, keys are X_kv @ W_K": ("查询向量来自 X_q @ W_Q，键向量来自 X_kv @ W_K"),
    "n_q = {n_q} queries and n_kv = {n_kv} keys": (
        "n_q = {n_q} 个查询向量、n_kv = {n_kv} 个键向量"
    ),
    "for {what} you returned shape {got}, the transpose of ({n_q}, {n_kv})": (
        "对于 {what}，你返回的形状是 {got}，正好是 ({n_q}, {n_kv}) 的转置"
    ),
    "one row per query: scores = Q @ K.T, not K @ Q.T": (
        "每个查询向量占一行：scores = Q @ K.T，而不是 K @ Q.T"
    ),
    "for {what} you returned shape {got}, expected ({n_q}, {n_kv})": (
        "对于 {what}，你返回的形状是 {got}，应为 ({n_q}, {n_kv})"
    ),
    "queries come from X_q but keys from X_kv: K = X_kv @ W_K": (
        "查询向量来自 X_q，键向量却来自 X_kv：K = X_kv @ W_K"
    ),
    "your scores are Q Kᵀ without the scaling": "你的注意力分数是 Q Kᵀ，少了缩放这一步",
    "divide by √d_k, the square root of the number of columns of W_Q": (
        "再除以 √d_k，即 W_Q 列数的平方根"
    ),
    "your scores are divided by d_k instead of √d_k": "你的注意力分数除的是 d_k，而不是 √d_k",
    "use np.sqrt(d_k): the chapter scales by the square root": (
        "用 np.sqrt(d_k)：本章的缩放除的是平方根"
    ),
    "passed: {n_q} queries against {n_kv} keys give a "
    "({n_q}, {n_kv}) score matrix, scaled by √d_k": (
        "通过：{n_q} 个查询向量对 {n_kv} 个键向量，得到 ({n_q}, {n_kv}) 的注意力分数矩阵，"
        "并已除以 √d_k 缩放"
    ),
    "index the rows of Z with perm": "用 perm 去索引 Z 的行",
    "row i of X[perm] is token perm[i]": "X[perm] 的第 i 行是第 perm[i] 个词元",
    "your prediction is the old Z, unchanged": "你的预测就是原来的 Z，一点没变",
    "the outputs move with their tokens: row i of the new Z belongs to token perm[i]": (
        "输出跟着各自的词元移动：新 Z 的第 i 行属于第 perm[i] 个词元"
    ),
    "your rows are reordered the wrong way round (by the inverse permutation)": (
        "你的行顺序排反了（用的是逆排列）"
    ),
    "X_new = X[perm], so the new outputs are indexed the same way": (
        "X_new = X[perm]，所以新的输出也按同样的方式索引"
    ),
    "passed: for {what}, self-attention on X[perm] gives exactly your prediction": (
        "通过：对于 {what}，在 X[perm] 上运行自注意力机制，得到的正是你的预测"
    ),
    "the words {words!r} (vocabulary of {size} words, d = {d})": (
        "词语 {words!r}（词表共 {size} 个词，d = {d}）"
    ),
    "row v of the table belongs to VOCABULARY[v]: find each word's index with "
    "VOCABULARY.index(word)": (
        "表的第 v 行属于 VOCABULARY[v]：用 VOCABULARY.index(word) 找到每个词的编号"
    ),
    "you returned shape {got}, the transpose of ({a}, {b})": (
        "你返回的形状是 {got}，正好是 ({a}, {b}) 的转置"
    ),
    "one row per token: X has shape (n, d)": "每个词元占一行：X 的形状是 (n, d)",
    "you returned the first {n} rows of the table, not the rows of the {n} words": (
        "你返回的是表的前 {n} 行，而不是这 {n} 个词各自的行"
    ),
    "passed: {n} words looked up, X has shape ({n}, {d}), and the two 'the' rows are identical": (
        "通过：查到了 {n} 个词，X 的形状是 ({n}, {d})，两个 'the' 的行完全相同"
    ),
    "start from np.zeros((len(words), len(VOCABULARY))) and set H[i, VOCABULARY.index(w)] = 1": (
        "先建 np.zeros((len(words), len(VOCABULARY)))，再令 H[i, VOCABULARY.index(w)] = 1"
    ),
    "one row per word, one column per vocabulary entry": "每个词占一行，词表里每个词占一列",
    "you returned shape {got}, expected ({n}, {size}): {n} words by {size} vocabulary entries": (
        "你返回的形状是 {got}，应为 ({n}, {size})：{n} 个词，每个词对应词表的 {size} 个位置"
    ),
    "row {bad} ({word!r}) is not one-hot: it should hold a single 1 and zeros elsewhere": (
        "第 {bad} 行（{word!r}）不是 one-hot：应当只有一个 1，其余都是 0"
    ),
    "the 1 goes in column VOCABULARY.index(word)": "1 应放在第 VOCABULARY.index(word) 列",
    "passed: H has shape ({n}, {size}), one 1 per row, and H @ table equals the lookup": (
        "通过：H 的形状是 ({n}, {size})，每行一个 1，而且 H @ table 与查表的结果相同"
    ),
    "rows are tokens: the first number is the number of rows": ("行对应词元：第一个数是行数"),
    "that is X's shape; W_Q (d × d_k) turns each row of length d into one of length d_k": (
        "这是 X 的形状；W_Q（d × d_k）把每一行从长度 d 变成长度 d_k"
    ),
    "each score pairs one query (row i) with one key (column j): how many of each?": (
        "每个注意力分数对应一个查询向量（第 i 行）和一个键向量（第 j 列）：各有多少个？"
    ),
    "Z = α V takes its columns from V, and V = X W_V has d_v columns": (
        "Z = α V 的列数来自 V，而 V = X W_V 有 d_v 列"
    ),
    "return a dict: {example}": "返回一个字典：{example}",
    "your function returned a {kind}, not a dict": "你的函数返回的是 {kind}，而不是字典",
    "your dict has no key {key!r}": "你的字典里没有键 {key!r}",
    "use the keys 'Q', 'scores' and 'Z'": "用 'Q'、'scores' 和 'Z' 作为字典的键",
    "for {sizes}, {key} is {value!r}, not a shape": "当 {sizes} 时，{key} 是 {value!r}，不是形状",
    "a shape is a tuple of two ints, such as (n, d_k)": "形状是由两个整数组成的元组，例如 (n, d_k)",
    "for {sizes} you said {key} has shape {got}, but it is {want}": (
        "当 {sizes} 时，你说 {key} 的形状是 {got}，实际是 {want}"
    ),
    "passed: for n = 5, d = 8, d_k = 3, d_v = 2 and for n = 7, d = 4, "
    "d_k = 6, d_v = 9 your shapes are those of self_attention": (
        "通过：无论 n = 5, d = 8, d_k = 3, d_v = 2，还是 n = 7, d = 4, d_k = 6, d_v = 9，"
        "你给出的形状都与 self_attention 的一致"
    ),
    # --- formulas: 2.2.2 to 2.2.4 ---
    "a 2 × 3 matrix of small scores": "一个较小注意力分数组成的 2 × 3 矩阵",
    "exponentiate each score, then divide by the sum of its row "
    "(sum over axis=-1 with keepdims=True)": (
        "先对每个注意力分数取指数，再除以所在行的和（沿 axis=-1 求和，keepdims=True）"
    ),
    "scores of size 1000": "大小在 1000 左右的注意力分数",
    "subtract each row's maximum before np.exp: it cancels in the fraction "
    "but stops exp from overflowing": (
        "在 np.exp 之前先减去每行的最大值：它在分子分母中相互抵消，却能防止 exp 溢出"
    ),
    "on {what} your softmax gave nan (or inf)": "在 {what} 上，你的 softmax 得到了 nan（或 inf）",
    "passed on small scores and on scores of size 1000; each row sums to 1": (
        "通过：较小的注意力分数和 1000 左右的注意力分数都对，每行之和为 1"
    ),
    "rows are tokens: Q = X @ W_Q, K = X @ W_K, V = X @ W_V, shape (n, d) @ (d, d_k) -> (n, d_k)": (
        "行对应词元：Q = X @ W_Q，K = X @ W_K，V = X @ W_V，形状为 (n, d) @ (d, d_k) -> (n, d_k)"
    ),
    "with W_Q of shape (d, d_k), W_Q @ x_i does not fit; rows are tokens, so write X @ W_Q": (
        "W_Q 的形状是 (d, d_k)，W_Q @ x_i 的形状对不上；行对应词元，所以写 X @ W_Q"
    ),
    "end with `return Q, K, V`": "最后写 `return Q, K, V`",
    "expected three arrays (Q, K, V), got {kind}": "应返回三个数组 (Q, K, V)，你返回的是 {kind}",
    "your {label} is transposed: shape {got}, expected {want} (one row per token)": (
        "你的 {label} 转置了：形状是 {got}，应为 {want}（每个词元占一行）"
    ),
    "your {label} equals X @ {other}": "你的 {label} 等于 X @ {other}",
    "each projection has its own matrix: {label} = X @ {own}": (
        "每个线性变换都有自己的矩阵：{label} = X @ {own}"
    ),
    "Q, K and V match X @ W_Q, X @ W_K, X @ W_V (shapes (5, 3), (5, 3), (5, 2))": (
        "Q、K、V 与 X @ W_Q、X @ W_K、X @ W_V 一致（形状为 (5, 3)、(5, 3)、(5, 2)）"
    ),
    "X_cols of shape (6, 5) and W_Q of shape (6, 3)": "形状为 (6, 5) 的 X_cols 和形状为 (6, 3) 的 W_Q",
    "W_Q has shape (d, d_k), so W_Q @ x_i does not fit; its transpose does: "
    "W_Q.T @ X_cols, shape (d_k, d) @ (d, n) -> (d_k, n)": (
        "W_Q 的形状是 (d, d_k)，W_Q @ x_i 的形状对不上；换成它的转置就可以："
        "W_Q.T @ X_cols，形状为 (d_k, d) @ (d, n) -> (d_k, n)"
    ),
    "you returned the row form, shape {got}; the column form "
    "has one column per token, shape {want}": (
        "你返回的是行形式，形状为 {got}；列形式中每个词元占一列，形状应为 {want}"
    ),
    "W_Q.T @ X_cols is (X @ W_Q).T: the same numbers, transposed": (
        "W_Q.T @ X_cols 就是 (X @ W_Q).T：数值相同，只是转置了"
    ),
    "you did not scale: these are the raw q_i . k_j": "你没有缩放：这些是原始的 q_i . k_j",
    "you divided by d_k = {d_k}": "你除以的是 d_k = {d_k}",
    "you divided by {scale:.4g}": "你除以的是 {scale:.4g}",
    "score_ij = q_i . k_j / √d_k, i.e. Q @ K.T / np.sqrt(d_k) with d_k = Q.shape[1]": (
        "score_ij = q_i . k_j / √d_k，也就是 Q @ K.T / np.sqrt(d_k)，其中 d_k = Q.shape[1]"
    ),
    "4 tokens with d_k = 9": "4 个词元、d_k = 9 的情形",
    "3 queries and 5 keys with d_k = 4": "3 个查询向量、5 个键向量、d_k = 4 的情形",
    "for {what} you returned shape {got}, (d_k, d_k); expected {want}, (n_q, n_kv)": (
        "对于 {what}，你返回的形状是 {got}，即 (d_k, d_k)；应为 {want}，即 (n_q, n_kv)"
    ),
    "the scores pair tokens, not coordinates: Q @ K.T, not Q.T @ K": (
        "注意力分数是词元与词元配对，不是坐标与坐标配对：应为 Q @ K.T，而不是 Q.T @ K"
    ),
    "for {what} your matrix is transposed: row i must hold the scores of query i": (
        "对于 {what}，你的矩阵转置了：第 i 行应是查询向量 i 的注意力分数"
    ),
    "Q @ K.T, not K @ Q.T": "应为 Q @ K.T，而不是 K @ Q.T",
    "for {what}, {said}; divide by √d_k = {root:.4g}": (
        "对于 {what}，{said}；应除以 √d_k = {root:.4g}"
    ),
    "matches Q @ K.T / √d_k for 4 × 4 and 3 × 5 score matrices": (
        "在 4 × 4 和 3 × 5 的注意力分数矩阵上都与 Q @ K.T / √d_k 一致"
    ),
    "rows uniform, one-hot and (0.7, 0.1, 0.1, 0.1)": (
        "均匀行、one-hot 行和 (0.7, 0.1, 0.1, 0.1) 这三行"
    ),
    "H_i = -Σ_j α_ij ln α_ij along each row (axis=1), with 0·ln 0 = 0": (
        "沿每一行（axis=1）计算 H_i = -Σ_j α_ij ln α_ij，并约定 0·ln 0 = 0"
    ),
    "the one-hot row (1, 0, 0, 0) gave nan: 0 * log 0": "one-hot 行 (1, 0, 0, 0) 得到了 nan：0 * log 0",
    "0·ln 0 counts as 0: take the log only where α > 0, e.g. "
    "np.log(np.where(weights > 0, weights, 1.0))": (
        "0·ln 0 按 0 计：只在 α > 0 处取对数，例如 np.log(np.where(weights > 0, weights, 1.0))"
    ),
    "you used log base 2": "你用的是以 2 为底的对数",
    "use the natural log, np.log": "请用自然对数 np.log",
    "your entropies are negative": "你算出的熵是负的",
    "H_i = -Σ_j α_ij ln α_ij: mind the minus sign": "H_i = -Σ_j α_ij ln α_ij：别漏了负号",
    "you returned shape {got}, one value per column; expected {want}, one per row (query)": (
        "你返回的形状是 {got}，每列一个值；应为 {want}，每行（每个查询向量）一个值"
    ),
    "sum along each row: axis=1 (or axis=-1)": "沿每一行求和：axis=1（或 axis=-1）",
    "uniform row ln 4 = 1.386, one-hot row 0, and the mixed row agree": (
        "均匀行为 ln 4 = 1.386，one-hot 行为 0，混合行也一致"
    ),
    "z_i = Σ_j α_ij v_j: row i of the weights mixes the rows of V, i.e. weights @ V, "
    "shape (n_q, n_kv) @ (n_kv, d_v) -> (n_q, d_v)": (
        "z_i = Σ_j α_ij v_j：注意力权重的第 i 行对 V 的各行做加权求和，即 weights @ V，"
        "形状为 (n_q, n_kv) @ (n_kv, d_v) -> (n_q, d_v)"
    ),
    "4 tokens with d_v = 3": "4 个词元、d_v = 3 的情形",
    "3 queries, 5 keys and d_v = 2": "3 个查询向量、5 个键向量、d_v = 2 的情形",
    "for {what} you mixed with the columns of the weights (weights.T @ V)": (
        "对于 {what}，你用注意力权重的列做了加权（weights.T @ V）"
    ),
    "for {what} you applied softmax to the weights again": (
        "对于 {what}，你对注意力权重又做了一次 softmax"
    ),
    "the weights already sum to 1 along each row: use them as they are": (
        "注意力权重每行之和已经是 1：直接用即可"
    ),
    "Z = weights @ V for a 4 × 4 and a 3 × 5 weight matrix": (
        "在 4 × 4 和 3 × 5 的注意力权重矩阵上，都有 Z = weights @ V"
    ),
}
