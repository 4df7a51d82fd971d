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
    "your function raised {kind}: {exc}{where}": "你的函数抛出了 {kind}: {exc}{where}",
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
    "n_q = {n_q} queries and n_kv = {n_kv} keys": (
        "n_q = {n_q} 个查询向量、n_kv = {n_kv} 个键向量"
    ),
    "for {what} you returned shape {got}, the transpose of ({n_q}, {n_kv})": (
        "对于 {what}，你返回的形状是 {got}，正好是 ({n_q}, {n_kv}) 的转置"
    ),
    "for {what} you returned shape {got}, expected ({n_q}, {n_kv})": (
        "对于 {what}，你返回的形状是 {got}，应为 ({n_q}, {n_kv})"
    ),
    "your scores are Q Kᵀ without the scaling": "你的注意力分数是 Q Kᵀ，少了缩放这一步",
    "your scores are divided by d_k instead of √d_k": "你的注意力分数除的是 d_k，而不是 √d_k",
    "passed: {n_q} queries against {n_kv} keys give a "
    "({n_q}, {n_kv}) score matrix, scaled by √d_k": (
        "通过：{n_q} 个查询向量对 {n_kv} 个键向量，得到 ({n_q}, {n_kv}) 的注意力分数矩阵，"
        "并已除以 √d_k 缩放"
    ),
    "row i of X[perm] is token perm[i]": "X[perm] 的第 i 行是第 perm[i] 个词元",
    "your prediction is the old Z, unchanged": "你的预测就是原来的 Z，一点没变",
    "your rows are reordered the wrong way round (by the inverse permutation)": (
        "你的行顺序排反了（用的是逆排列）"
    ),
    "passed: for {what}, self-attention on X[perm] gives exactly your prediction": (
        "通过：对于 {what}，在 X[perm] 上运行自注意力机制，得到的正是你的预测"
    ),
    "the words {words!r} (vocabulary of {size} words, d = {d})": (
        "{words!r} 这几个词（词表共 {size} 个词，d = {d}）"
    ),
    "you returned shape {got}, the transpose of ({a}, {b})": (
        "你返回的形状是 {got}，正好是 ({a}, {b}) 的转置"
    ),
    "one row per token: X has shape (n, d)": "每个词元占一行：X 的形状是 (n, d)",
    "you returned the first {n} rows of the table, not the rows of the {n} words": (
        "你返回的是表的前 {n} 行，而不是这 {n} 个词各自的行"
    ),
    "passed: {n} words looked up, X has shape ({n}, {d}), and the two {word!r} rows "
    "are identical": ("通过：查到了 {n} 个词，X 的形状是 ({n}, {d})，两个 {word!r} 的行完全相同"),
    "one row per word, one column per vocabulary entry": "每个词占一行，词表里每个词占一列",
    "you returned shape {got}, expected ({n}, {size}): {n} words by {size} vocabulary entries": (
        "你返回的形状是 {got}，应为 ({n}, {size})：{n} 个词，每个词对应词表的 {size} 个位置"
    ),
    "row {bad} ({word!r}) is not one-hot: it should hold a single 1 and zeros elsewhere": (
        "第 {bad} 行（{word!r}）不是独热（one-hot）行：应当只有一个 1，其余全为零"
    ),
    "passed: the one-hot matrix has shape ({n}, {size}), one 1 per row, "
    "and one_hot @ table equals the lookup": (
        "通过：独热（one-hot）矩阵的形状是 ({n}, {size})，每行一个 1，而且 one_hot @ table 与查表的结果相同"
    ),
    "rows are tokens: the first number is the number of rows": ("行对应词元：第一个数是行数"),
    "each score pairs one query (row i) with one key (column j): how many of each?": (
        "每个注意力分数对应一个查询向量（第 i 行）和一个键向量（第 j 列）：各有多少个？"
    ),
    "return a dict: {example}": "返回一个字典：{example}",
    "your function returned a {kind}, not a dict": "你的函数返回的是 {kind}，而不是字典",
    "your dict has no key {key!r}": "你的字典里没有键 {key!r}",
    "use the keys 'Q', 'scores' and 'Z'": "用 'Q'、'scores' 和 'Z' 作为字典的键",
    "for {sizes}, {key} is {value!r}, not a shape": "当 {sizes} 时，{key} 是 {value!r}，不是形状",
    "for {sizes} you said {key} has shape {got}, but it is {want}": (
        "当 {sizes} 时，你说 {key} 的形状是 {got}，实际是 {want}"
    ),
    "passed: for n = 5, d = 8, d_k = 3, d_v = 2 and for n = 7, d = 4, "
    "d_k = 6, d_v = 9 your shapes are those of self_attention": (
        "通过：无论 n = 5, d = 8, d_k = 3, d_v = 2，还是 n = 7, d = 4, d_k = 6, d_v = 9，"
        "你给出的形状都与 self_attention 的一致"
    ),
    # --- formulas: 2.2.2 to 2.2.4 ---
    "a 2 × 3 matrix of small scores": "2 × 3 的小注意力分数矩阵",
    "scores of size 1000": "1000 量级的注意力分数",
    "on {what} your softmax gave nan (or inf)": "对于 {what}，你的 softmax 得到了 nan（或 inf）",
    "passed on small scores and on scores of size 1000; each row sums to 1": (
        "通过：小注意力分数和 1000 量级的注意力分数都算对了，每行之和为 1"
    ),
    "end with `return Q, K, V`": "最后写 `return Q, K, V`",
    "expected three arrays (Q, K, V), got {kind}": "应返回三个数组 (Q, K, V)，你返回的是 {kind}",
    "your {label} is transposed: shape {got}, expected {want} (one row per token)": (
        "你的 {label} 转置了：形状是 {got}，应为 {want}（每个词元占一行）"
    ),
    "your {label} equals X @ {other}": "你的 {label} 等于 X @ {other}",
    "Q, K and V match X @ W_Q, X @ W_K, X @ W_V (shapes (5, 3), (5, 3), (5, 2))": (
        "Q、K、V 与 X @ W_Q、X @ W_K、X @ W_V 一致（形状为 (5, 3)、(5, 3)、(5, 2)）"
    ),
    "X_cols of shape (6, 5) and W_Q of shape (6, 3)": "X_cols（形状 (6, 5)）和 W_Q（形状 (6, 3)）",
    "you returned the row form, shape {got}; the column form "
    "has one column per token, shape {want}": (
        "你返回的是行形式，形状为 {got}；列形式中每个词元占一列，形状应为 {want}"
    ),
    "W_Q.T @ X_cols is (X @ W_Q).T: the same numbers, transposed": (
        "W_Q.T @ X_cols 就是 (X @ W_Q).T：数值相同，只是转置了"
    ),
    "you did not scale: these are the raw q_i . k_j": "这些是未缩放的原始 q_i . k_j：还要除以 √d_k",
    "you divided by d_k = {d_k}": "你除以的是 d_k = {d_k}",
    "you divided by {scale:.4g}": "你除以的是 {scale:.4g}",
    "4 tokens with d_k = 9": "4 个词元、d_k = 9 的情形",
    "3 queries and 5 keys with d_k = 4": "3 个查询向量、5 个键向量、d_k = 4 的情形",
    "for {what} you returned shape {got}, (d_k, d_k); expected {want}, (n_q, n_kv)": (
        "对于 {what}，你返回的形状是 {got}，即 (d_k, d_k)；应为 {want}，即 (n_q, n_kv)"
    ),
    "for {what} your matrix is transposed: row i must hold the scores of query i": (
        "对于 {what}，你的矩阵转置了：第 i 行应是查询向量 i 的注意力分数"
    ),
    "for {what}, {said}; divide by √d_k = {root:.4g}": (
        "对于 {what}，{said}；应除以 √d_k = {root:.4g}"
    ),
    "matches Q @ K.T / √d_k for 4 × 4 and 3 × 5 score matrices": (
        "在 4 × 4 和 3 × 5 的注意力分数矩阵上都与 Q @ K.T / √d_k 一致"
    ),
    "rows uniform, one-hot and (0.7, 0.1, 0.1, 0.1)": (
        "(0.25, 0.25, 0.25, 0.25)（均匀）、(1, 0, 0, 0)（独热）和 (0.7, 0.1, 0.1, 0.1) 这三行"
    ),
    "the one-hot row (1, 0, 0, 0) gave nan: 0 * log 0": "独热行 (1, 0, 0, 0) 得到了 nan：0 * log 0",
    "you used log base 2": "你用的是以 2 为底的对数",
    "your entropies are negative": "你算出的熵是负的",
    "H_i = -Σ_j α_ij ln α_ij: mind the minus sign": "H_i = -Σ_j α_ij ln α_ij：别漏了负号",
    "you returned shape {got}, one value per column; expected {want}, one per row (query)": (
        "你返回的形状是 {got}，每列一个值；应为 {want}，每行（每个查询向量）一个值"
    ),
    "uniform row ln 4 = 1.386, one-hot row 0, and the mixed row agree": (
        "均匀行为 ln 4 = 1.386，独热行为 0，混合行也一致"
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
    # --- predictions: a shape, a number or an index written before the cell runs ---
    "you have not written a prediction yet": "你还没有写下预测",
    "replace ... with your prediction, then run the cell again": (
        "把 ... 换成你的预测，再运行一次这个单元格"
    ),
    "your prediction {answer!r} is not a shape": "你的预测 {answer!r} 不是一个形状",
    "a shape is a tuple of ints, such as (3, 5)": "形状是由整数组成的元组，例如 (3, 5)",
    "your prediction {answer!r} is of type {kind}, not a number": "你的预测 {answer!r} 的类型是 {kind}，不是数",
    "write a number such as 0.25 (no quotes)": "写一个数，例如 0.25（不要加引号）",
    # a number, shape or list typed in quotes: a string, told apart from what it should be
    "your prediction {answer!r} is text (a str), not a number": (
        "你的预测 {answer!r} 是字符串（str），不是数"
    ),
    "write the number without quotes: {example}": "去掉引号，直接写数：{example}",
    "your prediction {answer!r} is text (a str), not an index": (
        "你的预测 {answer!r} 是字符串（str），不是下标"
    ),
    "write the index without quotes, as an int from 0 to {last}: {example}": (
        "去掉引号，把下标写成 0 到 {last} 之间的整数：{example}"
    ),
    "your prediction {answer!r} is of type {kind}, not an index": "你的预测 {answer!r} 的类型是 {kind}，不是下标",
    "your prediction {answer!r} is text (a str), not a shape": (
        "你的预测 {answer!r} 是字符串（str），不是形状"
    ),
    "write the shape without quotes, as a tuple of ints: {example}": (
        "去掉引号，把形状写成整数元组：{example}"
    ),
    "your prediction {answer!r} is text (a str), not three shapes": (
        "你的预测 {answer!r} 是字符串（str），不是三个形状"
    ),
    "write the shapes without quotes: ((1, 2), (1, 2), (1, 2))": (
        "去掉引号写出三个形状：((1, 2), (1, 2), (1, 2))"
    ),
    "your prediction {answer!r} is text (a str), not four shapes": (
        "你的预测 {answer!r} 是字符串（str），不是四个形状"
    ),
    "write the four shapes without quotes: [W_Q, Q of one head, Z, output]": (
        "去掉引号，按顺序写出四个形状：[W_Q, 一个头的 Q, Z, output]"
    ),
    "your prediction {answer!r} is text (a str), not {n} numbers": (
        "你的预测 {answer!r} 是字符串（str），不是 {n} 个数"
    ),
    "write a list of {n} numbers without quotes, such as [0.1, 0.2, 0.3]": (
        "去掉引号，写一个含 {n} 个数的列表，例如 [0.1, 0.2, 0.3]"
    ),
    "your prediction {answer!r} is text (a str), not a pair of numbers": (
        "你的预测 {answer!r} 是字符串（str），不是一对数"
    ),
    "write the two numbers without quotes: (at the right value, at any other value)": (
        "去掉引号写两个数：（正确的值处，任意另一个值处）"
    ),
    "your prediction {answer!r} is text (a str), not pairs (i, j)": (
        "你的预测 {answer!r} 是字符串（str），不是 (i, j) 对"
    ),
    "write the pairs without quotes, such as [(0, 1), (0, 2)]": (
        "去掉引号写出 (i, j) 对，例如 [(0, 1), (0, 2)]"
    ),
    "{prediction!r} is text (a str), not a position: write it without "
    "quotes, {position}, or write a token such as {example!r}": (
        "{prediction!r} 是字符串（str），不是位置：去掉引号写成 {position}，"
        "或者写一个词元，例如 {example!r}"
    ),
    "your prediction {answer!r} is not one of the keys' tokens: {tokens}": (
        "你的预测 {answer!r} 不是这些键向量的词元之一：{tokens}"
    ),
    "write a key's token as printed, or its index counting from 0": (
        "照打印出来的样子写一个键向量的词元，或者写它的下标（从 0 开始数）"
    ),
    "your prediction {answer!r} is not an index from 0 to {last}": (
        "你的预测 {answer!r} 不是 0 到 {last} 之间的下标"
    ),
    "write the index as an int, counting from 0": "下标写成整数，从 0 开始数",
    "right: {right}, one row per query and one column per key": (
        "正确：{right}，每个查询向量占一行，每个键向量占一列"
    ),
    "you predicted {got}, but the scores of {n_q} queries against {n_kv} keys have shape {want}": (
        "你预测的是 {got}，但 {n_q} 个查询向量对 {n_kv} 个键向量的注意力分数，形状是 {want}"
    ),
    "that is the transpose: row i holds query i's scores against every key, "
    "so there are n_q = {n_q} rows": (
        "这是转置：第 i 行是查询向量 i 对所有键向量的注意力分数，所以共有 n_q = {n_q} 行"
    ),
    "a square matrix pairs a sequence with itself; here queries come from one "
    "sequence and keys from the other: n_q rows, n_kv columns": (
        "方阵是一个序列与它自身配对；这里查询向量来自一个序列，键向量来自另一个：n_q 行，n_kv 列"
    ),
    "that is the shape of Q or K; the scores Q Kᵀ pair every query with every key": (
        "这是 Q 或 K 的形状；注意力分数 Q Kᵀ 要让每个查询向量与每个键向量配对"
    ),
    "one score per (query, key) pair: n_q rows and n_kv columns": (
        "每一对（查询向量，键向量）有一个注意力分数：n_q 行，n_kv 列"
    ),
    "right: {right} times, because the score matrix is n × n: "
    "{n} tokens give {short} scores, {n_long} give {long}": (
        "正确：{right} 倍，因为注意力分数矩阵是 n × n 的：{n} 个词元有 {short} 个注意力分数，"
        "{n_long} 个词元有 {long} 个"
    ),
    "you predicted {got:g}, but {n_long} tokens have {right} times the scores "
    "of {n} ({long} against {short})": (
        "你预测的是 {got:g}，但 {n_long} 个词元的注意力分数是 {n} 个词元的 {right} 倍"
        "（{long} 比 {short}）"
    ),
    "that is how Q, K and V grow (one row per token); the scores pair every "
    "token with every token, so rows and columns both grow {factor} times": (
        "这是 Q、K、V 的增长方式（每个词元一行）；注意力分数让每个词元与每个词元配对，"
        "所以行数和列数都变成 {factor} 倍"
    ),
    "the score matrix is n × n: {factor} times more rows and {factor} times more columns": (
        "注意力分数矩阵是 n × n 的：行数变成 {factor} 倍，列数也变成 {factor} 倍"
    ),
    "right: {right}, one row of length d = {d} per token": (
        "正确：{right}，每个词元一行，每行的维度 d = {d}"
    ),
    "you predicted {got}, but X for {n} tokens with d = {d} has shape {want}": (
        "你预测的是 {got}，但 {n} 个词元、d = {d} 时，X 的形状是 {want}"
    ),
    "rows are tokens: the first number counts the tokens": "行对应词元：第一个数是词元的个数",
    "that is the embedding table, one row for each of the {V} vocabulary words; "
    "X holds only the rows of the {n} tokens": (
        "这是向量编码表，词表里 {V} 个词各占一行；X 只包含这 {n} 个词元的行"
    ),
    "that is the one-hot matrix; X = one_hot @ table has the table's d columns": (
        "这是独热（one-hot）矩阵；X = one_hot @ table 的列数是表的列数 d"
    ),
    "one row per token, and each row is that token's embedding of length d": (
        "每个词元一行，每行是该词元维度为 d 的向量编码"
    ),
    "; token {first} is {word!r} too and gets the same row": (
        "；第 {first} 个词元也是 {word!r}，取的是同一行"
    ),
    "right: row {right}, because VOCABULARY[{right}] is {word!r}{extra}": (
        "正确：第 {right} 行，因为 VOCABULARY[{right}] 是 {word!r}{extra}"
    ),
    "you predicted row {v}, but token {i} ({word!r}) picks row {right} of the table": (
        "你预测的是第 {v} 行，但第 {i} 个词元（{word!r}）取的是表的第 {right} 行"
    ),
    "token {first} is {word!r} too, so both tokens share one row, but rows are "
    "numbered by the vocabulary (sorted words): VOCABULARY.index({word!r}) = {right}": (
        "第 {first} 个词元也是 {word!r}，两者确实共用一行，但行号是词在词表里的编号："
        "VOCABULARY.index({word!r}) = {right}"
    ),
    "{v} is the position in the sentence; the table is indexed by the vocabulary "
    "(sorted words): VOCABULARY.index({word!r}) = {right}": (
        "{v} 是它在句子里的位置；表的行号是词在词表里的编号：VOCABULARY.index({word!r}) = {right}"
    ),
    "row {v} is {other!r}; the row of {word!r} is VOCABULARY.index({word!r})": (
        "第 {v} 行是 {other!r}；{word!r} 所在的行是 VOCABULARY.index({word!r})"
    ),
    "your prediction {answer!r} is not three shapes": "你的预测 {answer!r} 不是三个形状",
    "write (shape of Q, shape of K, shape of V), e.g. ((1, 2), (1, 2), (1, 2))": (
        "写成（Q 的形状，K 的形状，V 的形状），例如 ((1, 2), (1, 2), (1, 2))"
    ),
    "for {sizes} you predicted {label} has shape {got}, but it is {want}": (
        "当 {sizes} 时，你预测 {label} 的形状是 {got}，实际是 {want}"
    ),
    "that is {W}'s shape; {label} = X @ {W}: (n, d) @ (d, {m})": (
        "这是 {W} 的形状；{label} = X @ {W}：(n, d) @ (d, {m})"
    ),
    "that is X's shape; {W} turns each row of length d into one of length {m}": (
        "这是 X 的形状；{W} 把每一行从 d 维变成 {m} 维"
    ),
    "V takes its columns from W_V, which has d_v columns; only Q and K need d_k": (
        "V 的列数来自 W_V，它有 d_v 列；只有 Q 和 K 需要 d_k"
    ),
    "right: Q and K are {qk}, V is {v}: one row per token, columns from W_Q, W_K and W_V": (
        "正确：Q 和 K 是 {qk}，V 是 {v}：每个词元一行，列数分别来自 W_Q、W_K 和 W_V"
    ),
    ", divided by √d_k = √{d_k} = {root:.4g}": "，再除以 √d_k = √{d_k} = {root:.4g}",
    "right: score_{i}{j} = {right:.4g}: q_{i} · k_{j} = {working}": (
        "正确：score_{i}{j} = {right:.4g}：q_{i} · k_{j} = {working}"
    ),
    "you predicted {guess:.4g}, but score_{i}{j} = {right:.4g}": (
        "你预测的是 {guess:.4g}，但 score_{i}{j} = {right:.4g}"
    ),
    "that is q_{i} · k_{j} = {dot:.4g} before the scaling; divide it by √d_k = {root:.4g}": (
        "这是缩放之前的 q_{i} · k_{j} = {dot:.4g}；还要除以 √d_k = {root:.4g}"
    ),
    "you divided by d_k = {d_k}; the scaling divides by its square root, {root:.4g}": (
        "你除以的是 d_k = {d_k}；缩放除的是它的平方根 {root:.4g}"
    ),
    "that is score_{j}{i}, query {j} against key {i}; score_{i}{j} takes q from "
    "row {i} of Q and k from row {j} of K": (
        "这是 score_{j}{i}，即查询向量 {j} 对键向量 {i}；score_{i}{j} 的 q 取自 Q 的第 {i} 行，"
        "k 取自 K 的第 {j} 行"
    ),
    "multiply q_{i} and k_{j} coordinate by coordinate and add: {working}": (
        "把 q_{i} 和 k_{j} 逐个分量相乘再相加：{working}"
    ),
    "right: about {right}, the sum of {d_k} products of variance 1 "
    "(20,000 random pairs give {measured:.3g})": (
        "正确：约为 {right}，即 {d_k} 个方差为 1 的乘积之和（20,000 对随机向量测得 {measured:.3g}）"
    ),
    "you predicted {guess:g}, but var(q · k) at d_k = {d_k} is about {right} "
    "(20,000 random pairs give {measured:.3g})": (
        "你预测的是 {guess:g}，但 d_k = {d_k} 时 var(q · k) 约为 {right}"
        "（20,000 对随机向量测得 {measured:.3g}）"
    ),
    "1 is the variance after dividing by √d_k; unscaled, the d_k products of "
    "variance 1 add up their variances": (
        "1 是除以 √d_k 之后的方差；未缩放时，d_k 个方差为 1 的乘积，方差会累加起来"
    ),
    "√{d_k} = {root:g} is the standard deviation; the variance is its square": (
        "√{d_k} = {root:g} 是标准差；方差是它的平方"
    ),
    "q · k adds d_k = {d_k} independent products q_c k_c, each of variance 1, "
    "and variances of independent terms add": (
        "q · k 是 d_k = {d_k} 个相互独立的乘积 q_c k_c 之和，每个的方差都是 1，"
        "而独立项之和的方差等于各项方差之和"
    ),
    "right: key {right}, the largest score of row {i} ({score:.3g}), "
    "so the largest weight ({weight:.3g})": (
        "正确：键向量 {right}，它在第 {i} 行的注意力分数最大（{score:.3g}），"
        "所以注意力权重也最大（{weight:.3g}）"
    ),
    "you predicted key {j}, but row {i} is won by key {right}": (
        "你预测的是键向量 {j}，但第 {i} 行胜出的是键向量 {right}"
    ),
    "row {i}'s scores are {row}; the largest score gets the largest weight": (
        "第 {i} 行的注意力分数是 {row}；注意力分数最大的，注意力权重也最大"
    ),
    "a token does not always attend most to itself: q_{i} and k_{i} come from "
    "different matrices (W_Q, W_K); {why}": (
        "词元并不总是最关注自己：q_{i} 和 k_{i} 来自不同的矩阵（W_Q 和 W_K）；{why}"
    ),
    "you read column {i}, the queries' scores against key {i}; {why}": (
        "你看的是第 {i} 列，即各查询向量对键向量 {i} 的注意力分数；{why}"
    ),
    "your prediction {answer!r} is not one of the choices": "你的预测 {answer!r} 不在选项之中",
    "answer one of {choices}": "请从 {choices} 中选一个作答",
    "your prediction {answer!r} is of type {kind}, not a word": "你的预测 {answer!r} 的类型是 {kind}，不是一个词",
    "write one of {choices}, in quotes": "请写 {choices} 中的一个，写在引号里",
    # the separator of a list of choices
    ", ": "、",
    # the choices' names: a learner may answer with them (in either edition), and the
    # checks show them; each is a short word a learner can type
    "sharper": "更集中",
    "flatter": "更平缓",
    "unchanged": "不变",
    "doubled": "翻倍",
    "one head": "一个头",
    "eight heads": "八个头",
    "the same": "一样多",
    "row {i}: weights {before} become {after}; "
    "the winner's weight {top_before:.3g} -> {top_after:.3g}": (
        "第 {i} 行：注意力权重从 {before} 变为 {after}；"
        "最大的那个注意力权重 {top_before:.3g} -> {top_after:.3g}"
    ),
    "right: {right}. {shown}: α_j / α_k = exp(s_j - s_k) is squared when every score is doubled": (
        "正确：{right}。{shown}：所有注意力分数翻倍时，α_j / α_k = exp(s_j - s_k) 变成原来的平方"
    ),
    "you predicted {choice!r}, but the weights get {right}: {shown}": (
        "你预测的是 {choice!r}，但注意力权重会{right}：{shown}"
    ),
    "adding the same number to every score changes nothing; multiplying "
    "by 2 doubles every gap s_j - s_k, and the weights follow exp of the gaps": (
        "给每个注意力分数加上同一个数才不会有变化；乘以 2 会让每个差 s_j - s_k 翻倍，"
        "而注意力权重取决于这些差的 exp"
    ),
    "each row of weights still sums to 1, so the weights cannot all double": (
        "每行注意力权重之和仍然是 1，所以它们不可能全部翻倍"
    ),
    "dividing the scores (as √d_k does) flattens; doubling widens every gap "
    "s_j - s_k, so the largest score takes more of the weight": (
        "把注意力分数除以一个数（像 √d_k 那样）才会更平缓；翻倍会拉大每个差 s_j - s_k，"
        "所以最大的注意力分数分到更多注意力权重"
    ),
    "this row is uniform: all its scores are equal, so doubling keeps them equal": (
        "这一行是均匀的：所有注意力分数都相等，翻倍后仍然相等"
    ),
    "right: α_{i}{j} = {right:.4g}: {working}": "正确：α_{i}{j} = {right:.4g}：{working}",
    "you predicted {guess:.4g}, but α_{i}{j} = {right:.4g}": (
        "你预测的是 {guess:.4g}，但 α_{i}{j} = {right:.4g}"
    ),
    "you normalised down column {j}; α sums to 1 along each row: {working}": (
        "你是沿第 {j} 列做的归一化；α 应当每一行之和为 1：{working}"
    ),
    "1/{n_kv} holds only when all the scores of the row are equal: {working}": (
        "只有这一行的注意力分数全部相等时，才会是 1/{n_kv}：{working}"
    ),
    "exp(score) must be divided by the row's sum of exps: {working}": (
        "exp(score) 还要除以这一行所有 exp 之和：{working}"
    ),
    # --- learned: notebook 06 ---
    "your d_scores misses the second term: it is weights * d_weights": (
        "你的 d_scores 少了第二项：它只是 weights * d_weights"
    ),
    "you summed down the columns (axis=0)": "你是沿列（axis=0）求的和",
    "3 rows of 4 scores": "3 行、每行 4 个注意力分数",
    "passed: your d_scores matches finite differences of the softmax on 3 rows of 4 scores": (
        "通过：在 3 行、每行 4 个注意力分数上，你的 d_scores 与 softmax 的有限差分结果一致"
    ),
    "your gradient is -one_hot(answer): the probabilities are missing": (
        "你的梯度是 -one_hot(answer)：少了预测的概率"
    ),
    "your gradient has the wrong sign": "你的梯度符号反了",
    "the loss falls when the answer's logit rises: its entry is negative": (
        "正确答案的 logit 增大时损失减小：所以它对应的那一项是负的"
    ),
    "10 logits with answer 3": "10 个 logit、正确答案为 3 的情形",
    "passed: softmax(logits) - one_hot(answer), as finite differences of the cross-entropy say": (
        "通过：softmax(logits) - one_hot(answer)，与交叉熵的有限差分结果一致"
    ),
    "replace {placeholder} with your prediction: a position (0, 1, ...) or a token such as "
    "{example!r}": (
        "把 {placeholder} 换成你的预测：一个位置（0, 1, ...），或一个词元，例如 {example!r}"
    ),
    "{prediction!r} is not a token of this sequence: {tokens}": (
        "{prediction!r} 不是这个序列里的词元：{tokens}"
    ),
    "position {prediction} is outside 0 to {last}": "位置 {prediction} 不在 0 到 {last} 之间",
    "give a position or a token, not {prediction!r}": "请给出一个位置或一个词元，而不是 {prediction!r}",
    "the query {query!r} puts only {weight:.2f} of its weight on {token!r}": (
        "查询词元 {query!r} 只把 {weight:.2f} 的注意力权重放在 {token!r} 上"
    ),
    "which pair holds the key {key!r}?": "哪一对里存着键 {key!r}？",
    "right: the query {query!r} puts {weight:.2f} of its weight on {token!r} (position {top})": (
        "正确：查询词元 {query!r} 把 {weight:.2f} 的注意力权重放在 {token!r} 上（位置 {top}）"
    ),
    "smaller": "更小",
    "about the same": "差不多",
    "larger": "更大",
    "right: every value gets p = 1/{n}, and -log(1/{n}) = log {n} = {right:.3f} nats": (
        "正确：每个值的概率都是 p = 1/{n}，而 -log(1/{n}) = log {n} = {right:.3f} 奈特"
    ),
    "you predicted {guess:g}, but the loss is -log(1/{n}) = {right:.3f} nats": (
        "你预测的是 {guess:g}，但损失是 -log(1/{n}) = {right:.3f} 奈特"
    ),
    "{guess:g} is the probability of the right answer; the loss is minus its log": (
        "{guess:g} 是正确答案的概率；损失是它的对数再取负"
    ),
    "that is log base 10; the loss is measured in nats, with the natural log": (
        "这是以 10 为底的对数；损失以奈特为单位，用的是自然对数"
    ),
    "the loss is -log of the probability the model gives the right answer": (
        "损失是模型给正确答案的概率取 -log"
    ),
    "what probability does the right value get, and what is minus its natural log?": (
        "正确的值得到多大的概率？它的自然对数取负是多少？"
    ),
    "unscaled |dW_Q| + |dW_K| is {ratios} times the scaled one (seeds 0 to {last})": (
        "未缩放时的 |dW_Q| + |dW_K| 是缩放后的 {ratios} 倍（种子 0 到 {last}）"
    ),
    "right: {right}. {shown}": "正确：{right}。{shown}",
    "you predicted {choice!r}, but it is {right}: {shown}": "你预测的是 {choice!r}，实际是{right}：{shown}",
    "a saturated softmax does pass back less to its scores, but an unscaled score q · k "
    "moves √d_k = {root:g} times more when q or k moves: the rows that are not saturated "
    "pass back a lot, and they make the batch's gradient larger": (
        "饱和的 softmax 传回注意力分数的梯度确实更少；但未缩放的注意力分数 q · k 在 q 或 k "
        "变化时，变化量要大 √d_k = {root:g} 倍：没有饱和的那些行传回的梯度很大，"
        "整批的梯度就因它们而更大"
    ),
    "a score's gradient reaches W_Q through q: how strongly does q · k depend on q, "
    "compared with q · k / √d_k?": (
        "注意力分数的梯度经过 q 才到达 W_Q：与 q · k / √d_k 相比，q · k 随 q 变化的幅度有多大？"
    ),
    "right: the spread of q · k is √d_k, from √{a} = {sa:g} to √{b} = {sb:g}: {right:g} times": (
        "正确：q · k 的标准差是 √d_k，从 √{a} = {sa:g} 变为 √{b} = {sb:g}：{right:g} 倍"
    ),
    "you predicted {guess:g}, but the spread grows {right:g} times: from √{a} = {sa:g} "
    "to √{b} = {sb:g}": (
        "你预测的是 {guess:g}，但标准差增大了 {right:g} 倍：从 √{a} = {sa:g} 变为 √{b} = {sb:g}"
    ),
    "{guess:g} is how much the variance grows; the spread is its square root": (
        "{guess:g} 是方差增大的倍数；标准差是方差的平方根"
    ),
    "the variance of q · k is d_k (2.2.3); the spread is the square root of it": (
        "q · k 的方差是 d_k（2.2.3）；标准差是它的平方根"
    ),
    "what is the variance of q · k at each d_k, and how does a spread follow from it?": (
        "在这两个 d_k 下，q · k 的方差各是多少？标准差怎样由方差得到？"
    ),
    "your prediction {answer!r} is not a pair of numbers": "你的预测 {answer!r} 不是一对数",
    "write two numbers: (at the right value, at any other value)": (
        "写两个数：（正确的值处，任意另一个值处）"
    ),
    "right: p - one_hot(answer) is {p:g} - 1 = {a:g} at the answer and {p:g} elsewhere": (
        "正确：p - one_hot(answer) 在正确答案处是 {p:g} - 1 = {a:g}，其他位置是 {p:g}"
    ),
    "you predicted ({a:g}, {b:g}), but p - one_hot(answer) gives ({ra:g}, {rb:g})": (
        "你预测的是 ({a:g}, {b:g})，但 p - one_hot(answer) 给出 ({ra:g}, {rb:g})"
    ),
    "the signs are turned round: raising the right value's logit lowers the loss": (
        "符号反了：提高正确值的 logit 会让损失下降"
    ),
    "step 1 of the backward pass: d loss / d logits = p - one_hot(answer)": (
        "反向传播的第 1 步：d loss / d logits = p - one_hot(answer)"
    ),
    "step 1 of the backward pass gives the formula: put p = 1/{n} into it": (
        "反向传播的第 1 步给出了公式：把 p = 1/{n} 代进去"
    ),
    # --- next_steps: notebook 07, masks and heads ---
    "none": "无",
    "end with `return mask`": "最后写 `return mask`",
    "for n = {n} you returned shape {got}, expected {want}": (
        "当 n = {n} 时，你返回的形状是 {got}，应为 {want}"
    ),
    "for n = {n} your mask holds the right 1s and 0s but as {dtype}": (
        "当 n = {n} 时，你的掩码里 1 和 0 的位置都对，但类型是 {dtype}"
    ),
    "for n = {n} your mask has dtype {dtype}, not bool": (
        "当 n = {n} 时，你的掩码类型是 {dtype}，不是 bool"
    ),
    "for n = {n} your mask is True where the query may NOT look: the convention "
    "of nn.MultiheadAttention's attn_mask": (
        "当 n = {n} 时，你的掩码在查询向量“不能”看的位置为 True："
        "这是 nn.MultiheadAttention 的 attn_mask 的约定"
    ),
    "for n = {n} your mask is True above the diagonal: query 0 would see every later key": (
        "当 n = {n} 时，你的掩码在对角线上方为 True：查询向量 0 会看到后面所有的键向量"
    ),
    "for n = {n} your mask leaves out the diagonal: query i may not see itself": (
        "当 n = {n} 时，你的掩码漏掉了对角线：查询向量 i 看不到自己"
    ),
    ", and row 0 has no key at all": "，而第 0 行一个键向量也看不到",
    "for n = {n} your mask differs from the causal mask at (i, j) = {pairs}": (
        "当 n = {n} 时，你的掩码与因果掩码在 (i, j) = {pairs} 处不同"
    ),
    "True on and below the diagonal for n = 4, 7 and 1: query i sees keys 0 … i": (
        "n = 4、7、1 时都是对角线及其下方为 True：查询向量 i 能看到键向量 0 … i"
    ),
    "right: {count} zeros: every key after the query (j > i) and every "
    "padded key (j >= {length}); the padded queries' rows keep weights on the real keys": (
        "正确：共有 {count} 处为零：查询向量之后的每个键向量（j > i），以及每个填充的键向量"
        "（j >= {length}）；填充位置的查询行，仍然把注意力权重放在真实的键向量上"
    ),
    "you predicted zeros at {guess}; the zeros are at {right}": (
        "你预测为零的位置是 {guess}；实际为零的位置是 {right}"
    ),
    "the causal triangle is right, but keys {length} … {last} are padding: "
    "every query gets weight 0 on them too": (
        "因果掩码的三角形是对的，但键向量 {length} … {last} 是填充："
        "每个查询向量在它们上面的注意力权重也都是 0"
    ),
    "the padded keys are right, but the causal mask also hides every later key (j > i)": (
        "填充的键向量是对的，但因果掩码还让后面的每个键向量（j > i）都被掩码"
    ),
    "row i is the query, column j the key: transposed, your zeros are the right ones": (
        "第 i 行是查询向量，第 j 列是键向量：把你的答案转置一下，0 的位置就对了"
    ),
    "a padded query (row i >= {length}) is not blocked: padding_mask blocks keys "
    "(columns) only, so its row still has weights that sum to 1; its output is "
    "simply thrown away": (
        "填充位置的查询向量（第 i >= {length} 行）并没有被掩码：padding_mask 只让键向量（列）被掩码，"
        "所以这一行仍有注意力权重，且和为 1；它的输出只是最后被丢掉而已"
    ),
    "a weight is 0 exactly where the mask is False: j > i (causal) or j is padding": (
        "掩码为 False 的地方，注意力权重恰好为 0：j > i（因果），或者 j 是填充"
    ),
    "your prediction {answer!r} is neither a boolean ({n}, {n}) array nor pairs (i, j)": (
        "你的预测 {answer!r} 既不是 ({n}, {n}) 的布尔数组，也不是 (i, j) 对"
    ),
    "write pairs such as [(0, 1), (0, 2)] with i, j from 0 to {last}, "
    "or a boolean array of shape ({n}, {n}), True where the weight is 0": (
        "写成 [(0, 1), (0, 2)] 这样的对，i、j 取 0 到 {last}；"
        "或者写一个形状为 ({n}, {n}) 的布尔数组，注意力权重为 0 的位置为 True"
    ),
    "M of shape {shape} and heads = {heads}": "M（形状为 {shape}，heads = {heads}）",
    "parts[0] mixes rows of M: reshape reads M row by row, so the first block "
    "takes rows 0 and 1 whole instead of columns 0 … {last} of every row": (
        "parts[0] 把 M 的行混在了一起：reshape 按行读取 M，所以第一块取的是完整的第 0、1 行，"
        "而不是每一行的第 0 … {last} 列"
    ),
    "your head 0 takes the columns 0, {heads}, {twice}, …, one in every {heads}: "
    "interleaved, not a block": (
        "你的头 0 取的是第 0、{heads}、{twice}、… 列，每 {heads} 列取一列：这是交错取列，不是一整块"
    ),
    "you returned shape {got}, (n, heads, d_k); expected {want}, one (n, d_k) matrix per head": (
        "你返回的形状是 {got}，即 (n, heads, d_k)；应为 {want}，每个头一个 (n, d_k) 矩阵"
    ),
    "parts[ℓ] = M[:, {d_k}ℓ : {d_k}(ℓ+1)]: {heads} heads of shape {shape}": (
        "parts[ℓ] = M[:, {d_k}ℓ : {d_k}(ℓ+1)]：{heads} 个头，每个形状为 {shape}"
    ),
    "the outputs of 3 heads, each (5, 3)": "3 个头的输出（每个形状为 (5, 3)）",
    "W_Q split into {heads} blocks of {w}": "W_Q 切成 {heads} 块、每块 {w} 列的情形",
    "for {what} you returned shape {got}: the heads stacked as rows": (
        "对于 {what}，你返回的形状是 {got}：各个头被按行堆叠起来了"
    ),
    "for {what} your rows mix tokens: reshape reads the parts head by head": (
        "对于 {what}，你的每一行混合了不同的词元：reshape 是一个头一个头地读取 parts 的"
    ),
    "the heads side by side, head 0 first: equal to multi_head_attention's Z": (
        "各个头左右并排，头 0 在最前：与 multi_head_attention 的 Z 相同"
    ),
    "right: {count} zeros, the padded keys (columns j >= {length}) in every row; "
    "the padded queries' rows keep weights on the real keys": (
        "正确：共 {count} 个 0，即每一行中填充出来的键（j >= {length} 的列）；"
        "填充位置自己的查询行仍然把注意力权重放在真实的键上"
    ),
    "a weight is 0 exactly where the mask is False: the padded keys j >= {length}": (
        "掩码为 False 的位置，注意力权重恰好为 0：也就是填充出来的键 j >= {length}"
    ),
    "print the mask: a weight is 0 exactly where its entry is False": (
        "把掩码打印出来：掩码为 False 的位置，注意力权重恰好为 0"
    ),
    "right: row i has i + 1 Trues, so 1 + 2 + … + {n} = {right} of {all}": (
        "正确：第 i 行有 i + 1 个 True，所以一共是 1 + 2 + … + {n} = {right} 个（全部元素有 {all} 个）"
    ),
    "you predicted {guess:g}, but causal_mask({n}) has {right} True entries of {all}": (
        "你预测的是 {guess:g}，但 causal_mask({n}) 的 {all} 个元素中有 {right} 个 True"
    ),
    "that leaves out the diagonal: each token may also attend to itself": (
        "这漏掉了对角线：每个词元也可以关注它自己"
    ),
    "that is every entry: query i may not see the keys after it (j > i)": (
        "这是全部元素的个数：查询 i 不能看它后面的键（j > i）"
    ),
    "count row by row: query i sees keys 0 … i, that is i + 1 of them": (
        "逐行数：查询 i 能看键 0 … i，也就是 i + 1 个"
    ),
    "count row by row: how many keys may query 0 see, query 1, …?": (
        "逐行数：查询 0 能看几个键？查询 1 呢？……"
    ),
    "right: row {right} is all False; its softmax would divide 0 by 0, so attnlib "
    "refuses the mask (PyTorch returns nan for that row)": (
        "正确：第 {right} 行全是 False；它的 softmax 会变成 0 除以 0，所以 attnlib "
        "拒绝这样的掩码（PyTorch 则给这一行返回 nan）"
    ),
    "you predicted row {guess}, but row {right} is the one with no True: "
    "turned round, query i may see only the keys after it (j > i)": (
        "你预测的是第 {guess} 行，但没有 True 的是第 {right} 行："
        "掩码反过来以后，查询 i 只能看它后面的键（j > i）"
    ),
    "row {guess} still sees {count} keys": "第 {guess} 行仍然能看 {count} 个键",
    "your prediction {answer!r} is not four shapes": "你的预测 {answer!r} 不是四个形状",
    "write four shapes in order: [W_Q, Q of one head, Z, output], e.g. (3, 5) each": (
        "按顺序写四个形状：[W_Q, 一个头的 Q, Z, output]，每个形如 (3, 5)"
    ),
    "right: W_Q {w}, one head's Q {q}, Z {z}, output {o}": (
        "正确：W_Q {w}，一个头的 Q {q}，Z {z}，output {o}"
    ),
    "{name}: you predicted {got}, but it is {want}": "{name}：你预测的是 {got}，实际是 {want}",
    "W_Q holds every head's columns side by side: d × (h · d_k)": (
        "W_Q 把每个头的列并排放在一起：d × (h · d_k)"
    ),
    "one head's Q has d_k = d / h columns, its own block of X W_Q": (
        "一个头的 Q 有 d_k = d / h 列，是 X W_Q 中属于它的那一块"
    ),
    "Z joins the heads' outputs side by side: n × (h · d_v)": (
        "Z 把各个头的输出并排拼在一起：n × (h · d_v)"
    ),
    "W_O maps each token back to width d: n × d": "W_O 把每个词元映射回维度 d：n × d",
    "one head of width {d}: {one} numbers; {d} heads of width 1: {many}": (
        "一个维度为 {d} 的头：{one} 个数；{d} 个维度为 1 的头：{many} 个数"
    ),
    "you predicted {choice!r}, but: {shown}": "你预测的是 {choice!r}，但是：{shown}",
    "the heads only cut the same W_Q, W_K, W_V into blocks of columns: "
    "d × (h · d/h) = d × d each, and W_O is d × d either way": (
        "多个头只是把同样的 W_Q、W_K、W_V 按列切成几块：每个都是 "
        "d × (h · d/h) = d × d，而 W_O 无论如何都是 d × d"
    ),
    "write the shape of W_Q for h heads of width d/h, and count its entries": (
        "写出 h 个维度为 d/h 的头对应的 W_Q 的形状，再数一数它有多少个元素"
    ),
    "the largest weight per row goes from {good} to {bad}": (
        "每一行最大的注意力权重从 {good} 变为 {bad}"
    ),
    "you predicted {choice!r}, but the rows get {right}: {shown}": (
        "你预测的是 {choice!r}，但这些行变得{right}：{shown}"
    ),
    "√{d} is larger than √{d_k}: every score shrinks, and smaller gaps between "
    "scores give a more even softmax": (
        "√{d} 比 √{d_k} 大：每个注意力分数都变小，分数之间的差距变小，softmax 的结果就更平缓"
    ),
    "dividing by a larger number shrinks every score: what does the softmax do then?": (
        "除以更大的数会让每个注意力分数变小：这时 softmax 会怎样？"
    ),
    "start from the causal mask and also block the keys with j < i - w": (
        "从因果掩码出发，再让 j < i - w 的键也被掩码"
    ),
    "for n = {n}, w = {w} you returned shape {got}, expected {want}": (
        "当 n = {n}、w = {w} 时，你返回的形状是 {got}，应为 {want}"
    ),
    "your mask is {dtype}, not boolean": "你的掩码类型是 {dtype}，不是布尔值",
    "for n = {n}, w = {w} you returned the whole causal mask": (
        "当 n = {n}、w = {w} 时，你返回的是完整的因果掩码"
    ),
    "query i may not see keys more than w = {w} back (j < i - w)": (
        "查询 i 不能看往前超过 w = {w} 个位置的键（j < i - w）"
    ),
    "for n = {n}, w = {w} your window looks forward, not back": (
        "当 n = {n}、w = {w} 时，你的窗口是往后看，而不是往前看"
    ),
    "row i is the query: it sees keys j <= i, below the diagonal": (
        "第 i 行是查询：它看的是 j <= i 的键，在对角线下方"
    ),
    "for n = {n}, w = {w}, entry {cell} is {got} but should be {want}": (
        "当 n = {n}、w = {w} 时，元素 {cell} 是 {got}，应为 {want}"
    ),
    "query i sees itself and the w tokens before it: j from i - w to i": (
        "查询 i 看它自己和它前面的 w 个词元：j 从 i - w 到 i"
    ),
    "passed: query i sees keys i - w … i, for (n, w) = (6, 2), (5, 0) and (4, 10)": (
        "通过：在 (n, w) = (6, 2)、(5, 0) 和 (4, 10) 下，查询 i 都看键 i - w … i"
    ),
    # --- issue 21: a first wrong try names the step; softmax down the columns ---
    "score_ij is the dot product of row i of Q with row j of K, divided by the square root of their length": (
        "score_ij 是 Q 的第 i 行与 K 的第 j 行的点积，再除以这两个向量维度的平方根"
    ),
    "on {what} your softmax runs down the columns (axis=0)": (
        "在 {what} 上，你的 softmax 是沿列（axis=0）归一化的"
    ),
    "your prediction {answer!r} is not right yet": ("你的预测 {answer!r} 还不对"),
    "which sequence gives the rows of the scores, and which the columns?": (
        "注意力分数的行来自哪个序列，列又来自哪个序列？"
    ),
    "count the scores: how many rows and how many columns?": (
        "数一数注意力分数：有多少行，多少列？"
    ),
    "what does one row of X hold, and how many rows are there?": (
        "X 的每一行是哪个向量？一共有多少行？"
    ),
    "redo it in three steps: the products q_{i}[c] k_{j}[c], their sum, then the scaling": (
        "分三步重算：先算各个乘积 q_{i}[c] k_{j}[c]，再求和，最后缩放"
    ),
    "q · k is a sum of d_k independent products: how do the variances of such terms combine?": (
        "q · k 是 d_k 个相互独立的乘积之和：相互独立的项相加时，方差会变成多少？"
    ),
    "{token!r} appears more than once among the keys": ("{token!r} 在这些键对应的词元中不止一个"),
    "write the key's index instead, counting from 0": ("请写这个键的下标，从 0 开始数"),
    "compare the scores of row {i} with each other: the softmax keeps their order": (
        "把第 {i} 行的几个注意力分数相互比一比：softmax 不会让它们的大小顺序变化"
    ),
    "row {i}'s scores {row} minus their maximum {top:.4g} are {shifted}; their exps are {exps}, sum {total:.4g}, and {e_j:.4g} / {total:.4g} = {right:.4g}": (
        "第 {i} 行的注意力分数 {row} 减去其中最大的 {top:.4g}，得到 {shifted}；它们的指数是 {exps}，总和 {total:.4g}，于是 {e_j:.4g} / {total:.4g} = {right:.4g}"
    ),
    "subtract the row's largest score, take the exponential of each, then divide the one of key {j} by their sum": (
        "先减去这一行最大的分数，再对每个取指数，最后用键 {j} 的那个除以它们的总和"
    ),
    "Try again; a second wrong try, or reveal=True, shows the worked answer.": (
        "再做一次；第二次答错，或加上 reveal=True，就会显示参考答案。"
    ),
    # --- issue 21: a moved token (01), exps and an output by hand (05) ---
    "right: row {r}, because perm[{r}] = {i}: {word!r} keeps its output, z moves with it": (
        "正确：第 {r} 行，因为 perm[{r}] = {i}：{word!r} 的输出不变，z 跟着它一起移动"
    ),
    "you predicted row {r}, but the output of {word!r} is now in row {right}": (
        "你预测的是第 {r} 行，但 {word!r} 的输出已经到了第 {right} 行"
    ),
    "perm[{i}] = {p} says which old token goes to row {i}; you need the row r with perm[r] = {i}": (
        "perm[{i}] = {p} 说的是原来的哪个词元被放到第 {i} 行；你要找的是 perm[r] = {i} 的那一行 r"
    ),
    "the token moved: row r of X[perm] is old token perm[r]": (
        "这个词元已经换了位置：X[perm] 的第 r 行是原来的第 perm[r] 个词元"
    ),
    "row r of X[perm] is old token perm[r]: find the r with perm[r] = {i}": (
        "X[perm] 的第 r 行是原来的第 perm[r] 个词元：找出 perm[r] = {i} 的那个 r"
    ),
    "row r of X[perm] is old token perm[r]: which r holds token {i}?": (
        "X[perm] 的第 r 行是原来的第 perm[r] 个词元：哪个 r 放的是词元 {i}？"
    ),
    "right: {exps}, sum {total:.4g}; the largest score gives e^0 = 1": (
        "正确：{exps}，总和 {total:.4g}；最大的分数给出 e^0 = 1"
    ),
    "you predicted {got}, but the exps are {want}": ("你预测的是 {got}，但这些指数是 {want}"),
    "those are exp of the scores themselves; subtract the row's maximum first": (
        "这是分数本身的指数；要先减去这一行的最大值"
    ),
    "those are the shifted scores; the exponential of each is still to take": (
        "这是平移后的分数；还要对每个取指数"
    ),
    "the scores {row} minus their maximum {top:.4g} are {shifted}; exp of each is {exps}": (
        "分数 {row} 减去其中最大的 {top:.4g}，得到 {shifted}；各自的指数是 {exps}"
    ),
    "subtract the row's largest score from each score, then take exp of each": (
        "每个分数先减去这一行最大的分数，再对每个取指数"
    ),
    "right: z_{i} = {z}: {terms}": ("正确：z_{i} = {z}：{terms}"),
    "you predicted {got}, but z_{i} = {want}": ("你预测的是 {got}，但 z_{i} = {want}"),
    "you mixed with column {i} of α; z_{i} uses row {i}: {terms}": (
        "你用 α 的第 {i} 列做了混合；z_{i} 用的是第 {i} 行：{terms}"
    ),
    "that is the plain average of the values; weigh each v_j by α_{i}j: {terms}": (
        "这是值向量的平均，没有加权；每个 v_j 要按 α_{i}j 加权：{terms}"
    ),
    "for each coordinate c, add α_{i}j · v_j[c] over the keys j: the weights of row {i}": (
        "对每个分量 c，把所有键 j 的 α_{i}j · v_j[c] 加起来：用的是第 {i} 行的注意力权重"
    ),
    "your prediction {answer!r} is not {n} numbers": ("你的预测 {answer!r} 不是 {n} 个数"),
    "write a list of {n} numbers, such as [0.1, 0.2, 0.3]": (
        "写一个含 {n} 个数的列表，例如 [0.1, 0.2, 0.3]"
    ),
    # --- issue 21: transfer exercises, a fused W_QKV (03) and a temperature (05) ---
    "your {label} equals the true {other}": ("你的 {label} 等于真正的 {other}"),
    "Q, K and V from one product, split along the columns: the same as three products": (
        "一次乘法再按列切开得到 Q、K、V：与三次乘法的结果相同"
    ),
    "small scores with τ = {tau:g}": ("τ = {tau:g} 时的一组小分数"),
    "for {what} you multiplied by τ": ("对于 {what}，你乘上了 τ"),
    "for {what} your rows do not sum to 1": ("对于 {what}，你的各行加起来不等于 1"),
    "scores of size 1000 with τ = 0.5": ("τ = 0.5 时大小为 1000 的分数"),
    "softmax(scores / tau) for τ = 1, 2 and 0.5, and on scores of size 1000": (
        "τ = 1、2、0.5 时的 softmax(scores / tau) 都对，大小为 1000 的分数也对"
    ),
    # --- issue 33: 05's capstone, the whole layer (check_self_attention) ---
    "each query shares out one unit of attention over the keys: which way must the rows of "
    "your weights sum to 1?": (
        "每个查询把一份注意力分给各个键：你的注意力权重应该沿哪个方向加起来等于 1？"
    ),
    "the chapter divides q_i · k_j by √d_k, the square root of their length": (
        "本章把 q_i · k_j 除以 √d_k，即它们维度的平方根"
    ),
    "4 tokens with d = 5, d_k = 9, d_v = 3": "4 个词元、d = 5、d_k = 9、d_v = 3 的情形",
    "write each line's shapes beside it, as the notebooks do: (n, d) @ (d, d_k) -> (n, d_k); "
    "the scores and the weights are (n, n), Z is (n, d_v)": (
        "像笔记本里那样，在每一行旁边写上形状：(n, d) @ (d, d_k) -> (n, d_k)；"
        "注意力分数和注意力权重是 (n, n)，Z 是 (n, d_v)"
    ),
    "the same inputs times 30 (scores in the thousands)": (
        "同样的输入乘以 30（注意力分数达到几千）"
    ),
    "your layer matches attnlib.self_attention, on small scores and on scores in the thousands": (
        "你的层与 attnlib.self_attention 一致，注意力分数很小时和达到几千时都对"
    ),
    "your softmax runs down the columns (axis=0): each column of weights sums to 1": (
        "你的 softmax 是沿列做的（axis=0）：注意力权重的每一列加起来等于 1"
    ),
    "your scores are transposed (K Qᵀ): row i holds how every query rates key i, not the "
    "scores of query i": (
        "你的注意力分数转置了（K Qᵀ）：第 i 行是各个查询对键 i 的打分，而不是查询 i 的注意力分数"
    ),
    "row i of the scores must pair query i with every key: which factor comes first?": (
        "注意力分数的第 i 行要把查询 i 和每个键配对：乘积里哪个因子在前？"
    ),
    "you did not scale the scores: these weights come from the raw q_i · k_j": (
        "你的注意力分数少了缩放这一步：这些注意力权重来自未缩放的 q_i · k_j"
    ),
    "you divided the scores by d_k = {d_k}, not by √d_k = {root:g}": (
        "你把注意力分数除以了 d_k = {d_k}，而不是 √d_k = {root:g}"
    ),
    "your keys are X @ W_Q: the queries were used as keys": (
        "你的键向量是 X @ W_Q：查询向量被当成了键向量"
    ),
    "each of Q, K, V has its own weight matrix": "Q、K、V 各有自己的权重矩阵",
    "you mixed the rows of X, not the values": "你混合的是 X 的各行，而不是值向量",
    "the weighted sum mixes the value vectors: what are they made from?": (
        "加权求和混合的是值向量：它们是由什么算出来的？"
    ),
    "for {what} you returned shape {got}, one number per (query, key) pair: the weights, not Z": (
        "对于 {what}，你返回的形状是 {got}，每个（查询, 键）对一个数：这是注意力权重，不是 Z"
    ),
    "Z has one row per token and d_v columns: the weights still have to mix something": (
        "Z 每个词元一行、共 d_v 列：注意力权重还得拿来混合点什么"
    ),
    "for {what} your Z is transposed: shape {got}, expected {want} (one row per token)": (
        "对于 {what}，你的 Z 转置了：形状是 {got}，应为 {want}（每个词元一行）"
    ),
    "row i of Z mixes the values for query i: which factor of the product comes first?": (
        "Z 的第 i 行为查询 i 混合各个值向量：乘积里哪个因子在前？"
    ),
    "for {what} your result contains nan or inf: the softmax overflowed": (
        "对于 {what}，你的结果里有 nan 或 inf：softmax 溢出了"
    ),
    "np.exp(1000) is inf: what can each row of scores lose before np.exp, unchanged?": (
        "np.exp(1000) 是 inf：在 np.exp 之前，每一行注意力分数可以减去什么而结果不变？"
    ),
    "for {what}, {said}": "对于 {what}，{said}",
    # --- issue 33: a first wrong try names the slip, with no number of the answer ---
    # 01-03: shapes, a count, a moved token, a table row
    "a square matrix pairs a sequence with itself; here queries come from one "
    "sequence and keys from the other": (
        "方阵是一个序列与它自身配对；这里查询向量来自一个序列，键向量来自另一个"
    ),
    "rows and columns are the wrong way round: row i holds query i's scores against every key": (
        "行和列弄反了：第 i 行是查询向量 i 对所有键向量的注意力分数"
    ),
    "that is how Q, K and V grow, one row per token; the scores pair every token "
    "with every token: what happens to their rows, and to their columns?": (
        "这是 Q、K、V 的增长方式：每个词元一行；注意力分数让每个词元与每个词元配对："
        "它的行数会怎样变，列数又会怎样变？"
    ),
    "you read perm the other way round: perm[{i}] says which old token goes to "
    "row {i}, not where token {i} goes": (
        "你把 perm 读反了：perm[{i}] 说的是原来的哪个词元被放到第 {i} 行，而不是词元 {i} 去了哪里"
    ),
    "that is the embedding table, one row for each vocabulary word; "
    "X holds only the rows of the sentence's tokens": (
        "这是向量编码表，词表里每个词各占一行；X 只包含句子中各个词元的行"
    ),
    "token {first} is {word!r} too, so both tokens share one row, but that row is "
    "numbered by the vocabulary (sorted words), not by a position in the sentence": (
        "第 {first} 个词元也是 {word!r}，两者确实共用一行，但这一行的行号按词表"
        "编排，而不是按词在句子中的位置"
    ),
    "{v} is the position in the sentence; the table is indexed by the vocabulary "
    "(sorted words): where does {word!r} stand in VOCABULARY?": (
        "{v} 是它在句子里的位置；表是按词表索引的：{word!r} 在 VOCABULARY 里排第几？"
    ),
    "row {v} is {other!r}, the word after {word!r}: rows count from 0, "
    "and VOCABULARY.index({word!r}) = {right}": (
        "第 {v} 行是 {other!r}，排在 {word!r} 后面的那个词：行号从 0 开始数，"
        "而 VOCABULARY.index({word!r}) = {right}"
    ),
    "row {v} is {other!r}, not {word!r}: did you count the rows from 1? "
    "Python counts them from 0": (
        "第 {v} 行是 {other!r}，不是 {word!r}：你是不是从 1 开始数行号了？Python 从 0 开始数"
    ),
    "row {v} of the table is {other!r}, not {word!r}: the rows follow VOCABULARY, "
    "whose words are sorted": (
        "表的第 {v} 行是 {other!r}，不是 {word!r}：各行按 VOCABULARY 的顺序排列"
    ),
    "{label}: that is {W}'s shape; {label} = X @ {W}: which factor gives "
    "the rows, and which the columns?": (
        "{label}：这是 {W} 的形状；{label} = X @ {W}：行数来自哪个因子，列数又来自哪个？"
    ),
    "{label}: that is X's shape; {label} = X @ {W} keeps X's rows but takes its columns from {W}": (
        "{label}：这是 X 的形状；{label} = X @ {W} 保留 X 的行数，列数却来自 {W}"
    ),
    "{label}: rows are tokens: the first number counts the tokens": (
        "{label}：行对应词元：第一个数是词元的个数"
    ),
    "{label}: each of Q, K, V is X times a weight matrix: the rows come from X, "
    "the columns from W": ("{label}：Q、K、V 都是 X 乘以一个权重矩阵：行数来自 X，列数来自 W"),
    # 04: a score, a variance, the winning key
    "that is q_{i} · k_{j} before the scaling: the score still divides it by √d_k": (
        "这是缩放之前的 q_{i} · k_{j}：注意力分数还要把它除以 √d_k"
    ),
    "you divided by d_k, not by √d_k: the scaling divides by the square root": (
        "你除以的是 d_k，而不是 √d_k：缩放除的是平方根"
    ),
    "the sign is turned round: q_{i} · k_{j} = {working}": "符号反了：q_{i} · k_{j} = {working}",
    "the sign is turned round: check the sign of each product q_{i}[c] k_{j}[c]": (
        "符号反了：检查每个乘积 q_{i}[c] k_{j}[c] 的正负"
    ),
    "1 is the variance after dividing by √d_k; here q · k is not divided: "
    "how do the variances of its d_k products combine?": (
        "1 是除以 √d_k 之后的方差；这里的 q · k 没有除：它的 d_k 个乘积，方差合起来是多少？"
    ),
    "that is the standard deviation of q · k; the variance is its square": (
        "这是 q · k 的标准差；方差是它的平方"
    ),
    "0 is the mean of q · k; its variance, the spread around that mean, adds up the "
    "variances of its d_k = {d_k} products": (
        "0 是 q · k 的均值；它的方差衡量的是围绕均值的离散程度，等于 d_k = {d_k} 个乘积的方差之和"
    ),
    "0 is the mean of q · k; the variance measures its spread around that mean": (
        "0 是 q · k 的均值；方差衡量的是它围绕均值的离散程度"
    ),
    "a token does not always attend most to itself: q_{i} and k_{i} come from "
    "different matrices (W_Q, W_K); compare the scores of row {i}": (
        "词元并不总是最关注自己：q_{i} 和 k_{i} 来自不同的矩阵（W_Q 和 W_K）；"
        "比一比第 {i} 行的注意力分数"
    ),
    "you read column {i}, the queries' scores against key {i}; query {i}'s own "
    "scores are row {i}": (
        "你看的是第 {i} 列，即各查询向量对键向量 {i} 的注意力分数；查询向量 {i} 自己的注意力分数在第 {i} 行"
    ),
    "key {j} has the smallest score of row {i}; {why}": (
        "键向量 {j} 在第 {i} 行的注意力分数最小；{why}"
    ),
    "key {j} has the smallest score of row {i}: the softmax gives the largest weight "
    "to the largest score": (
        "键向量 {j} 在第 {i} 行的注意力分数最小：softmax 把最大的注意力权重给注意力分数最大的键向量"
    ),
    # 05: doubled scores, a weight, the exps, an output
    "adding the same number to every score changes nothing, but doubling "
    "multiplies: what does it do to the gaps s_j - s_k, the only thing the "
    "softmax sees?": (
        "给每个注意力分数加上同一个数不会有变化，但翻倍是乘法：它会让差 s_j - s_k 怎样变？"
        "softmax 只看这些差"
    ),
    "a flatter row is what dividing the scores does (as √d_k does); doubling "
    "multiplies them: what does that do to the gaps s_j - s_k?": (
        "把注意力分数除以一个数（像 √d_k 那样）才会让一行更平缓；翻倍是乘法："
        "它会让差 s_j - s_k 怎样变？"
    ),
    "look at this row's scores first: are any two of them different?": (
        "先看看这一行的注意力分数：其中有没有两个不相等的？"
    ),
    "you normalised down column {j}; α sums to 1 along each row: divide by the sum "
    "of row {i}'s exps": (
        "你是沿第 {j} 列做的归一化；α 应当每一行之和为 1：要除以第 {i} 行所有 exp 之和"
    ),
    "1/{n_kv} holds only when all the scores of the row are equal; these differ": (
        "只有这一行的注意力分数全部相等时，才会是 1/{n_kv}；而这里它们并不相等"
    ),
    "that is an exponential alone: it must still be divided by the row's sum of exps": (
        "这只是一个指数：还要除以这一行所有 exp 之和"
    ),
    "you took the maximum minus each score; it is each score minus the maximum, "
    "{shifted}, so that no exp exceeds 1: {exps}": (
        "你算的是最大值减去每个分数；应当是每个分数减去最大值，即 {shifted}，"
        "这样每个 exp 都不超过 1：{exps}"
    ),
    "you took the maximum minus each score; it is each score minus the maximum, "
    "so that no exponential exceeds 1": (
        "你算的是最大值减去每个分数；应当是每个分数减去最大值，这样每个指数都不超过 1"
    ),
    "you mixed with column {i} of α; z_{i} uses the weights of row {i}": (
        "你用 α 的第 {i} 列做了混合；z_{i} 用的是第 {i} 行的注意力权重"
    ),
    "that is the plain average of the values; weigh each v_j by its weight α_{i}j": (
        "这是值向量的平均，没有加权；每个 v_j 要按它的注意力权重 α_{i}j 加权"
    ),
    # 06: the untrained loss, the gradients' size, the spread, d loss / d logits
    "that is log base 2 (bits); the loss is measured in nats, with the natural log": (
        "这是以 2 为底的对数（比特）；损失以奈特为单位，用的是自然对数"
    ),
    "the sign is turned round: the log of a probability is negative, and the loss "
    "is minus that log": ("符号反了：概率的对数是负的，而损失是这个对数取负"),
    "a saturated softmax does pass back less to its scores, but that is one of two "
    "effects. The gradient to W_Q also passes through q: how strongly does q · k "
    "depend on q, compared with q · k / √d_k?": (
        "饱和的 softmax 传回注意力分数的梯度确实更少，但这只是两种作用之一。"
        "到达 W_Q 的梯度还要经过 q：与 q · k / √d_k 相比，q · k 随 q 变化的幅度有多大？"
    ),
    "the two layers differ only by one division, and the gradient to W_Q passes "
    "through it: how strongly does q · k depend on q, compared with q · k / √d_k?": (
        "两个层只差一次除法，而到达 W_Q 的梯度正要经过它：与 q · k / √d_k 相比，"
        "q · k 随 q 变化的幅度有多大？"
    ),
    "{guess:g} is how much the variance grows, not the spread: how does a standard "
    "deviation follow from a variance?": (
        "{guess:g} 是方差增大的倍数，不是标准差的：标准差怎样由方差得到？"
    ),
    "{guess:g} is the spread at one d_k; the question is how many times the second "
    "is the first: √{b} / √{a}": (
        "{guess:g} 是某一个 d_k 下的标准差；问的是后者是前者的多少倍：√{b} / √{a}"
    ),
    "{guess:g} is the spread at one d_k; the question is how many times the spread "
    "grows from the first d_k to the second": (
        "{guess:g} 是某一个 d_k 下的标准差；问的是从第一个 d_k 到第二个，标准差变成多少倍"
    ),
    "that is p alone: p - one_hot(answer) also takes 1 away at the right value, "
    "{p:g} - 1 = {a:g}": (
        "这只是 p：p - one_hot(answer) 在正确的值处还要减去 1，即 {p:g} - 1 = {a:g}"
    ),
    "that is p alone, the same at every value: the formula's second term, "
    "one_hot(answer), is missing at the right value": (
        "这只是 p，每个值处都一样：公式的第二项 one_hot(answer) 在正确的值处漏掉了"
    ),
    "that is -one_hot(answer) alone: p = {p:g} is missing, at the answer and elsewhere": (
        "这只是 -one_hot(answer)：正确答案处和其他位置都少了 p = {p:g}"
    ),
    "that is -one_hot(answer) alone: the formula's first term, p, is missing": (
        "这只是 -one_hot(answer)：公式的第一项 p 漏掉了"
    ),
    # 07: masks, heads
    "half of the entries would cut the diagonal in two; the whole diagonal is True "
    "(each token sees itself): query i sees keys 0 … i, that is i + 1 of them": (
        "一半的元素会把对角线劈成两半；而整条对角线都是 True（每个词元都能看到自己）："
        "查询 i 能看键 0 … i，也就是 i + 1 个"
    ),
    "half of the entries would cut the diagonal in two; the whole diagonal is True, "
    "since each token sees itself": (
        "一半的元素会把对角线劈成两半；而整条对角线都是 True，因为每个词元都能看到自己"
    ),
    "under the causal mask row 0 sees only itself, but ~ turns every entry round: "
    "row 0 now sees every key except itself": (
        "在因果掩码下，第 0 行只看得到自己；但 ~ 会把每个元素都反过来："
        "现在第 0 行能看到除自己以外的所有键"
    ),
    "row {guess} still sees the keys after it: turned round, True means j > i; "
    "which query has no key after it?": (
        "第 {guess} 行仍然能看它后面的键：反过来以后，True 表示 j > i；哪个查询后面没有键？"
    ),
    "{name}: rows and columns are the wrong way round": "{name}：行和列弄反了",
    "W_Q: that is one head's block; W_Q holds every head's block side by side": (
        "W_Q：这只是一个头的那一块；W_Q 把每个头的块并排放在一起"
    ),
    "Q_h: that is Q of all the heads together; one head takes only its own block": (
        "Q_h：这是所有头合在一起的 Q；一个头只取属于它的那一块"
    ),
    "Z: that is one head's Z; Z joins the heads' outputs side by side": (
        "Z：这只是一个头的 Z；Z 把各个头的输出并排拼在一起"
    ),
    "output: W_O maps each token's row of Z to a new row: how wide is W_O?": (
        "output：W_O 把每个词元在 Z 中的那一行映射成新的一行：W_O 有多少列？"
    ),
    "{name}: go through the formulas above one at a time: which sizes multiply?": (
        "{name}：把上面的公式逐个过一遍：哪些维度相乘？"
    ),
    "one wide head has wide blocks, but there is only one of them: count the "
    "columns of W_Q over all the heads together": (
        "一个宽的头，块也宽，但只有一块：把所有头合起来，数一数 W_Q 有多少列"
    ),
    "more heads give more blocks, but each block is narrower: count the columns "
    "of W_Q over all the heads together": (
        "头多了，块就多，但每一块更窄：把所有头合起来，数一数 W_Q 有多少列"
    ),
    "that is what dividing by a smaller number would do; √d is larger than √d_k: "
    "what happens to the gaps between the scores?": (
        "除以一个更小的数才会这样；而 √d 比 √d_k 大：注意力分数之间的差距会怎样变？"
    ),
    "the softmax ignores a number added to every score, not a factor: dividing by "
    "√d instead of √d_k changes every gap between the scores": (
        "softmax 不理会给每个注意力分数加上的同一个数，但不会不理会一个因子："
        "除以 √d 而不是 √d_k，会改变注意力分数之间的每个差距"
    ),
    "the causal triangle is right, but the padded keys get weight 0 too, from every query": (
        "因果掩码的三角形是对的，但填充的键向量也会得到 0 的注意力权重，对每个查询向量都是如此"
    ),
    "a padded query is not blocked: padding_mask blocks keys (columns) only, so a "
    "padded token's row still has weights; its output is simply thrown away": (
        "填充位置的查询向量并没有被掩码：padding_mask 只让键向量（列）被掩码，"
        "所以填充词元的那一行仍有注意力权重；它的输出只是最后被丢掉而已"
    ),
    # --- issue 33: two predictions that had no check, a fused W_QKV (03), a temperature (05) ---
    "your columns {columns!r} are not a list of column indices": (
        "你的列 {columns!r} 不是由列下标组成的列表"
    ),
    "write the columns as a list of ints, counting from 0, e.g. [0, 1, 2]": (
        "把列写成整数列表，从 0 开始数，例如 [0, 1, 2]"
    ),
    "your prediction {answer!r} is text (a str), not a shape and columns": (
        "你的预测 {answer!r} 是文本（str），不是一个形状加一组列"
    ),
    "write it without quotes: (shape, columns), e.g. ((1, 2), [0, 1])": (
        "不要加引号，写成（形状, 列），例如 ((1, 2), [0, 1])"
    ),
    "your prediction {answer!r} is not a shape and a list of columns": (
        "你的预测 {answer!r} 不是一个形状加一个列的列表"
    ),
    "write (the shape of X @ W_QKV, the columns of K), e.g. ((1, 2), [0, 1])": (
        "写成（X @ W_QKV 的形状, K 所在的列），例如 ((1, 2), [0, 1])"
    ),
    "right: X @ W_QKV has shape {shape}, and K is columns {cols}: the second block "
    "of d_k = {d_k} columns, after Q's": (
        "正确：X @ W_QKV 的形状是 {shape}，K 是第 {cols} 列：紧跟在 Q 之后的第二块，"
        "共 d_k = {d_k} 列"
    ),
    "you predicted {got} and columns {got_cols}, but X @ W_QKV has shape {shape} and "
    "K is columns {cols}": (
        "你预测的是 {got} 和第 {got_cols} 列，但 X @ W_QKV 的形状是 {shape}，K 是第 {cols} 列"
    ),
    "that is the shape of one of Q, K, V; the one product holds all three side by side": (
        "这是 Q、K、V 其中一个的形状；这一次乘法把三者并排放在一起"
    ),
    "that is W_QKV's shape; X @ W_QKV keeps X's rows and takes W_QKV's columns": (
        "这是 W_QKV 的形状；X @ W_QKV 保留 X 的行数，列数取自 W_QKV"
    ),
    "that is X's shape; X @ W_QKV takes its columns from W_QKV": (
        "这是 X 的形状；X @ W_QKV 的列数来自 W_QKV"
    ),
    "X @ W_QKV: which factor gives the rows, and which the columns?": (
        "X @ W_QKV：行数来自哪个因子，列数又来自哪个？"
    ),
    "(n, d) @ (d, 3 d_k) -> (n, 3 d_k): one row per token": (
        "(n, d) @ (d, 3 d_k) -> (n, 3 d_k)：每个词元一行"
    ),
    "those are Q's columns: W_QKV holds W_Q, W_K and W_V in that order": (
        "这些是 Q 的列：W_QKV 依次存放 W_Q、W_K、W_V"
    ),
    "those are V's columns: W_QKV holds W_Q, W_K and W_V in that order": (
        "这些是 V 的列：W_QKV 依次存放 W_Q、W_K、W_V"
    ),
    "those columns are one in every three, interleaved; W_Q, W_K and W_V sit side "
    "by side as blocks of d_k columns each": (
        "这些列是每三列取一列，交错排列的；而 W_Q、W_K、W_V 是一块一块并排放的，每块 d_k 列"
    ),
    "the columns count from 0: K's are {cols}": "列号从 0 开始数：K 是第 {cols} 列",
    "did you count the columns from 1? Python counts them from 0": (
        "你是不是从 1 开始数列号了？Python 从 0 开始数"
    ),
    "W_QKV = [W_Q | W_K | W_V]: Q is columns {q}, K is columns {k}, V is columns {v}": (
        "W_QKV = [W_Q | W_K | W_V]：Q 是第 {q} 列，K 是第 {k} 列，V 是第 {v} 列"
    ),
    "W_QKV = [W_Q | W_K | W_V], each block d_k columns wide: which columns does "
    "the second block take, counting from 0?": (
        "W_QKV = [W_Q | W_K | W_V]，每块 d_k 列：从 0 开始数，第二块占的是哪几列？"
    ),
    "the scaling of 2.2.3 is this division, with τ = √d_k": (
        "2.2.3 的缩放正是这种除法，其中 τ = √d_k"
    ),
    "right: {right}. {shown}; {scaling}": "正确：{right}。{shown}；{scaling}",
    "dividing by τ = {tau:g} multiplies every gap s_j - s_k between two scores by 1/{tau:g}, "
    "and the weights follow exp of the gaps; {scaling}": (
        "除以 τ = {tau:g}，会让任意两个注意力分数之差 s_j - s_k 都乘以 1/{tau:g}，"
        "而注意力权重取决于这些差的 exp；{scaling}"
    ),
    "that is what a τ below 1 does; dividing by τ = {tau:g} shrinks every score: "
    "what happens to the gaps between them?": (
        "τ 小于 1 时才会这样；除以 τ = {tau:g} 会让每个注意力分数都变小：它们之间的差距会怎样变？"
    ),
    "that is what a τ above 1 does; dividing by τ = {tau:g} enlarges every score: "
    "what happens to the gaps between them?": (
        "τ 大于 1 时才会这样；除以 τ = {tau:g} 会让每个注意力分数都变大：它们之间的差距会怎样变？"
    ),
    "the softmax ignores a number added to every score, not a factor: dividing "
    "every score by τ changes every gap between them": (
        "softmax 不理会给每个注意力分数加上的同一个数，但不会不理会一个因子："
        "把每个注意力分数除以 τ，会改变它们之间的每个差距"
    ),
    "divide every score by τ = {tau:g}: what happens to the gaps between them, the "
    "only thing the softmax sees?": (
        "把每个注意力分数除以 τ = {tau:g}：它们之间的差距会怎样变？softmax 只看这些差距"
    ),
    # --- issue 33: an exercise's hint names what to look at, not the line to write ---
    "each weight is exp(score) over the sum of the exps of its own row: print "
    "your rows' sums, and check that each row is divided by its own total": (
        "每个注意力权重是 exp(score) 除以它所在那一行所有 exp 之和：把每一行的和打印出来，"
        "看看每一行是不是除以了它自己的总和"
    ),
    "each query shares out its attention over the keys of its own row: "
    "every row must sum to 1, not every column; which axis runs along a row?": (
        "每个查询向量只在自己这一行的键向量之间分配注意力：应当每一行的和为 1，而不是每一列；"
        "哪个轴是沿着一行走的？"
    ),
    "rows are tokens: X is (n, d) and W_Q is (d, d_k); in which order do they "
    "multiply to give one row per token?": (
        "行对应词元：X 是 (n, d)，W_Q 是 (d, d_k)；按什么顺序相乘，才能每个词元得到一行？"
    ),
    "with W_Q of shape (d, d_k), W_Q @ x_i does not fit (that is the column form); "
    "here rows are tokens: print the shapes of the two factors of each product": (
        "W_Q 的形状是 (d, d_k)，W_Q @ x_i 对不上（那是按列的写法）；"
        "这里行对应词元：把每个乘积两个因子的形状打印出来"
    ),
    "each projection has its own weight matrix: which one belongs to {label}?": (
        "每个投影都有自己的权重矩阵：哪一个属于 {label}？"
    ),
    "q_i = W_Qᵀ x_i: a product's inner sizes must match, and X_cols is (d, n) while "
    "W_Q is (d, d_k); which form of W_Q puts d on the inside?": (
        "q_i = W_Qᵀ x_i：矩阵乘积中间的两个维度必须相同，而 X_cols 是 (d, n)，W_Q 是 (d, d_k)；"
        "W_Q 写成什么样，d 才会落在中间？"
    ),
    "the scores pair tokens, not coordinates: the product must leave one "
    "row per query and one column per key": (
        "注意力分数配对的是词元，而不是分量：乘积应当每个查询向量一行、每个键向量一列"
    ),
    "row i must hold query i's scores: which factor of the product comes first?": (
        "第 i 行应当是查询向量 i 的注意力分数：乘积里哪个因子在前？"
    ),
    "H_i = -Σ_j α_ij ln α_ij, one sum per row, with 0·ln 0 = 0": (
        "H_i = -Σ_j α_ij ln α_ij，每一行求一个和，且 0·ln 0 = 0"
    ),
    "0·ln 0 counts as 0, but np.log(0) is -inf and 0 · -inf is nan: which "
    "number could stand in for α where α = 0, so that its term comes out 0?": (
        "0·ln 0 记为 0，但 np.log(0) 是 -inf，而 0 · -inf 是 nan："
        "在 α = 0 的地方，用哪个数代替 α，才能让这一项正好是 0？"
    ),
    "the entropy here is in nats: it uses the natural log, ln": (
        "这里的熵以奈特（nat）为单位：用的是自然对数 ln"
    ),
    "one entropy per query: which axis runs along a row?": (
        "每个查询向量一个熵：哪个轴是沿着一行走的？"
    ),
    "z_i = Σ_j α_ij v_j: row i of the weights mixes the rows of V; the weights are "
    "(n_q, n_kv) and V is (n_kv, d_v): which sizes must meet in the product?": (
        "z_i = Σ_j α_ij v_j：注意力权重的第 i 行混合 V 的各行；注意力权重是 (n_q, n_kv)，"
        "V 是 (n_kv, d_v)：乘积中哪两个维度必须对上？"
    ),
    "W_QKV = [W_Q | W_K | W_V] side by side: which columns of the one product belong "
    "to Q, which to K, which to V?": (
        "W_QKV = [W_Q | W_K | W_V] 是并排放的：这一次乘积的哪些列属于 Q，哪些属于 K，哪些属于 V？"
    ),
    "the columns come in the order Q, K, V: which block of d_k columns did you give to {label}?": (
        "各列按 Q、K、V 的顺序排列：你把哪一块（d_k 列）给了 {label}？"
    ),
    "queries come from X_q, keys from X_kv, each through its own weight matrix": (
        "查询向量来自 X_q，键向量来自 X_kv，各自经过自己的权重矩阵"
    ),
    "score_ij = q_i · k_j / √d_k, with q_i from X_q and k_j from X_kv: print the "
    "shapes of your queries, keys and scores": (
        "score_ij = q_i · k_j / √d_k，其中 q_i 来自 X_q，k_j 来自 X_kv："
        "把你的查询向量、键向量和注意力分数的形状打印出来"
    ),
    "one row per query: which factor of the product comes first?": (
        "每个查询向量占一行：乘积里哪个因子在前？"
    ),
    "queries come from X_q but keys from X_kv: where did your keys come from?": (
        "查询向量来自 X_q，键向量却来自 X_kv：你的键向量是从哪里来的？"
    ),
    "the chapter divides by the square root of d_k, not by d_k itself": (
        "本章除以的是 d_k 的平方根，而不是 d_k 本身"
    ),
    "row i of X[perm] is old token perm[i]: whose output belongs in row i?": (
        "X[perm] 的第 i 行是原来的第 perm[i] 个词元：第 i 行应当放谁的输出？"
    ),
    "the outputs move with their tokens: which token is row i of X[perm], and "
    "whose output belongs there?": (
        "输出跟着各自的词元移动：X[perm] 的第 i 行是哪个词元？那里应当放谁的输出？"
    ),
    "X_new = X[perm]: compare the way you indexed Z with the way X was indexed": (
        "X_new = X[perm]：把你索引 Z 的方式，和 X 被索引的方式比一比"
    ),
    "the 1 of row i goes in the column of word i's place in VOCABULARY": (
        "第 i 行的 1 放在第 i 个词在 VOCABULARY 中的位置那一列"
    ),
    "that is X's shape; Q = X W_Q: which factor gives Q its columns?": (
        "这是 X 的形状；Q = X W_Q：Q 的列数来自哪个因子？"
    ),
    "Q = X W_Q: write the two factors' shapes and see which sizes the product keeps": (
        "Q = X W_Q：写出两个因子的形状，看看乘积保留了哪些维度"
    ),
    "that is Q's shape; Z = α V takes its columns from V: how many has V?": (
        "这是 Q 的形状；Z = α V 的列数来自 V：V 有多少列？"
    ),
    "Z = α V: write the two factors' shapes and see which sizes the product keeps": (
        "Z = α V：写出两个因子的形状，看看乘积保留了哪些维度"
    ),
    "a shape is a tuple of two ints, such as (n, d)": "形状是由两个整数组成的元组，例如 (n, d)",
    "the formula above, α_l (g_l - Σ_j g_j α_j), for every row at once: one sum per "
    "row, which must line up with its own row": (
        "上面的公式 α_l (g_l - Σ_j g_j α_j)，一次算出所有行：每一行求一个和，"
        "这个和要与它自己那一行对齐"
    ),
    "each weight depends on every score of its row: the formula's second "
    "term, Σ_j g_j α_j, one number per row, is missing": (
        "每个注意力权重都取决于同一行的所有注意力分数：公式的第二项 Σ_j g_j α_j"
        "（每一行一个数）漏掉了"
    ),
    "the softmax normalises each row: the sum Σ_j g_j α_j runs along a row, not down a column": (
        "softmax 对每一行做归一化：和 Σ_j g_j α_j 是沿一行求的，而不是沿一列"
    ),
    "compare with step 1 of the backward pass above: which two terms does it have, "
    "and does your gradient have both?": (
        "和上面反向传播的第 1 步比一比：它有哪两项？你的梯度两项都有吗？"
    ),
    "step 1 of the backward pass has two terms: the model's probabilities are one": (
        "反向传播的第 1 步有两项：模型给出的概率是其中一项"
    ),
    "True where query i may attend to key j, that is where j <= i: print your mask": (
        "查询向量 i 可以关注键向量 j 的位置为 True，也就是 j <= i 的位置：把你的掩码打印出来"
    ),
    "attnlib wants booleans (True = may attend): your mask holds numbers; "
    "what dtype must it have?": (
        "attnlib 要的是布尔值（True = 可以关注）：你的掩码里是数；它应当是什么 dtype？"
    ),
    "attnlib, like scaled_dot_product_attention, uses True = may attend: "
    "your True and False are the other way round": (
        "attnlib 和 scaled_dot_product_attention 一样，用 True 表示可以关注：你的 True 和 False 弄反了"
    ),
    "row i is query i and may see keys j <= i: on and below the diagonal, not above": (
        "第 i 行是查询向量 i，它能看到 j <= i 的键向量：在对角线上及其下方，而不是上方"
    ),
    "each token may attend to itself: j <= i, not j < i": (
        "每个词元都可以关注自己：是 j <= i，不是 j < i"
    ),
    "the heads axis must come first: which two axes trade places?": (
        "头所在的轴应当在最前面：哪两个轴要交换位置？"
    ),
    "put the blocks side by side, head 0 first: row i of the result holds token i's "
    "row of every head; print your row 0 and compare it with parts[:, 0]": (
        "把各块左右并排，头 0 在最前：结果的第 i 行包含每个头中词元 i 的那一行；"
        "把你的第 0 行打印出来，和 parts[:, 0] 比一比"
    ),
    "each token keeps one row: the heads go side by side along the columns, not below each other": (
        "每个词元仍占一行：各个头沿列方向左右并排，而不是上下堆叠"
    ),
    "masks are True/False: your mask holds numbers": "掩码是 True/False：你的掩码里是数",
    # --- issue 33: check_pick, a position named in other ways, and its slips ---
    "{prediction!r} is not a token of this sequence: key {key!r} is there, but its "
    "pair holds another value": (
        "{prediction!r} 不是这个序列里的词元：键 {key!r} 在序列里，但它那一对存的是另一个值"
    ),
    "write the pair as printed, or its position (0 for the first token)": (
        "照打印出来的样子写这一对，或者写它的位置（第一个词元是 0）"
    ),
    "{prediction!r} is not a token of this sequence: no pair has the key {key!r}": (
        "{prediction!r} 不是这个序列里的词元：没有哪一对的键是 {key!r}"
    ),
    "the query is matched with the keys, not with the values: which pair holds the key {key!r}?": (
        "查询词元是拿来和键比对的，而不是和值比对：哪一对里存着键 {key!r}？"
    ),
    "{query!r} is the query itself: its row is the one we read; which pair holds the "
    "key {key!r} it asks for?": (
        "{query!r} 就是查询词元本身：我们读的正是它这一行；它要找的键 {key!r} 在哪一对里？"
    ),
    "{token!r} holds the same value as the pair the query weights most, but under "
    "another key: the query is matched with the keys, not with the values (they can "
    "repeat); which pair holds the key {key!r}?": (
        "{token!r} 存的值与查询词元最关注的那一对相同，但键不同：查询词元是拿来和键比对的，"
        "而不是和值比对（值可以重复）；哪一对里存着键 {key!r}？"
    ),
    "position {position} is {token!r}: did you count from 1? Positions count from 0; "
    "which pair holds the key {key!r}?": (
        "位置 {position} 是 {token!r}：你是不是从 1 开始数了？位置从 0 开始数；"
        "哪一对里存着键 {key!r}？"
    ),
}

# Hints in the notation's letters (τ, ℓ, d_k, k, the one-hot matrix): issue 33's rewrite,
# merged with the notation branch
MESSAGES |= {
    "τ acts on the scores, before the softmax: a τ above 1 must flatten each row; "
    "print your rows for τ = 1 and τ = 2": (
        "τ 作用在注意力分数上，在 softmax 之前：τ 大于 1 时，每一行都应当更平缓；"
        "把 τ = 1 和 τ = 2 时的各行打印出来比一比"
    ),
    "a higher temperature must flatten the rows; multiplying by τ sharpens them": (
        "τ 越大，各行应该越平缓；乘以 τ 却让它们更集中"
    ),
    "τ acts on the scores, before the softmax: dividing the weights afterwards breaks their sum": (
        "τ 作用在注意力分数上，在 softmax 之前：事后再除注意力权重，各行的和就不再是 1"
    ),
    "np.exp overflows here: what can each row lose before np.exp, unchanged, once it is "
    "divided by τ?": (
        "这里 np.exp 溢出了：除以 τ 之后、np.exp 之前，每一行可以减去什么而结果不变？"
    ),
    "row k of the table belongs to VOCABULARY[k]: which row holds each word?": (
        "表的第 k 行属于 VOCABULARY[k]：每个词在哪一行？"
    ),
    "the one-hot matrix has one row per word and one column per vocabulary entry; row i "
    "is all zeros but for one 1, in the column of word i's place in VOCABULARY": (
        "独热（one-hot）矩阵每个词一行、词表里每个词一列；第 i 行除了一个 1 全是 0，"
        "这个 1 在第 i 个词在 VOCABULARY 中的位置那一列"
    ),
    "head ℓ takes the block of columns ℓ·d_k … (ℓ+1)·d_k − 1 of every row: print "
    "parts[0] and compare it with those columns of M": (
        "头 ℓ 取每一行的第 ℓ·d_k … (ℓ+1)·d_k − 1 列这一整块：把 parts[0] 打印出来，和 M 的这几列比一比"
    ),
}
