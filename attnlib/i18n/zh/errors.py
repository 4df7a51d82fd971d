"""The errors attnlib raises for bad arguments (maths.validation, maths.core, maths.data, maths.lookup).

Code names stay as they are (X, W_Q, d_k, np.asarray(...)): the learner types them.
An argument named by an English word is glossed in the glossary's way, the Chinese
term with the name in brackets: 注意力分数（scores）, 掩码（mask）, 学习率（lr）.
"""

MESSAGES = {
    # maths/validation.py: arrays and sizes at the boundary
    "{name} must be a 2-D array of shape ({rows}, {cols}), got {ndim}-D with shape {shape}": (
        "{name} 必须是形状为 ({rows}, {cols}) 的二维数组，实际是形状为 {shape} 的 {ndim} 维数组"
    ),
    ". {hint}": "。{hint}",
    "{name} is empty (shape {shape}): it needs at least one row and one column "
    "({rows} >= 1, {cols} >= 1)": (
        "{name} 是空的（形状 {shape}）：至少要有一行一列（{rows} >= 1，{cols} >= 1）"
    ),
    "{name} must be an array of numbers, got a {kind}": "{name} 必须是数值数组，实际是 {kind}",
    "{name} must be a rectangular array of numbers: {error}": (
        "{name} 必须是每行一样长的数值数组：{error}"
    ),
    "{name} must hold real numbers (int or float), got dtype {dtype}": (
        "{name} 的元素必须是实数（int 或 float），实际的 dtype 是 {dtype}"
    ),
    " (ragged rows or mixed types?)": "（是不是各行长短不一，或者混进了别的类型？）",
    "; to use True/False as 1/0, convert first: np.asarray({name}, dtype=float)": (
        "；若要把 True/False 当作 1/0，请先转换：np.asarray({name}, dtype=float)"
    ),
    "{name} must be finite, but {name}{index} is {value}": (
        "{name} 的元素必须都是有限数，但 {name}{index} 是 {value}"
    ),
    "{name} must be an integer, got {value!r} ({kind})": (
        "{name} 必须是整数，实际是 {value!r}（{kind}）"
    ),
    "{name} must be an integer >= {minimum}, got {value}": (
        "{name} 必须是不小于 {minimum} 的整数，实际是 {value}"
    ),
    "{name} must be an integer from {minimum} to {maximum}, got {value}": (
        "{name} 必须是 {minimum} 到 {maximum} 之间的整数，实际是 {value}"
    ),
    "{name} must be a 1-D sequence of at least 2 numbers, got shape {shape}": (
        "{name} 必须是至少有 2 个数的一维序列，实际的形状是 {shape}"
    ),
    "{name} has {size} entries but ns has {length}: one measurement per n": (
        "{name} 有 {size} 个数，而 ns 有 {length} 个：每个 n 对应一次测量"
    ),
    "{name} must hold positive finite numbers (log axes), got {array}": (
        "{name} 必须都是有限的正数（坐标轴是对数刻度），实际是 {array}"
    ),
    # core.py: softmax
    "scores": "注意力分数（scores）",
    "scores must have at least one dimension, got a scalar": (
        "注意力分数（scores）至少要有一个维度，实际是一个标量"
    ),
    "axis {axis} is out of range for scores of shape {shape}": (
        "axis={axis} 超出了注意力分数（scores）的维度范围，它的形状是 {shape}"
    ),
    "scores has no entries along axis {axis} (shape {shape})": (
        "注意力分数（scores）沿 axis={axis} 一个元素也没有（形状 {shape}）"
    ),
    "contains NaN": "含有 NaN",
    "contains +inf": "含有 +inf",
    "has no finite entry (all -inf), so no weight can be positive": (
        "没有一个有限值（全是 -inf），所以没有哪个注意力权重能大于 0"
    ),
    "row {row} of scores": "注意力分数（scores）的第 {row} 行",
    "index {i}": "下标 {i}",
    " at {at}": "（{at}）",
    "{where} {reason}": "{where}{reason}",
    "softmax: {where} {reason}": "softmax 出错：{where}{reason}",
    # core.py: overflow
    "the scores": "注意力分数",
    "the values V": "值向量（V）",
    "{what} overflowed: ": "{what}溢出了：",
    "{detail}, ": "{detail}；",
    "although every input is finite, some number is beyond the largest {dtype} "
    "({largest:.3g}), so the inputs are too large. Scale them down "
    "(e.g. X / np.abs(X).max(), or weights with entries about 1/sqrt(d))": (
        "每个输入都是有限数，但算出的数超过了 {dtype} 能表示的最大值（{largest:.3g}），"
        "说明输入太大。请把它们缩小（例如 X / np.abs(X).max()，"
        "或者让权重矩阵的元素在 1/sqrt(d) 左右）"
    ),
    ", or pass float64 arrays": "，或者改用 float64 数组",
    # core.py: weight matrices, heads
    "{name} has {columns} columns, which do not split into heads = {heads} blocks of equal "
    "width: it needs heads * {width} columns, e.g. {example}": (
        "{name} 有 {columns} 列，无法平均分给 heads = {heads} 个头：列数应当是 "
        "heads * {width}，例如 {example}"
    ),
    "W_K has shape {shape_k} but W_Q has {shape_q}: both need heads * d_k columns, because "
    "each head's scores are dot products q_i . k_j of length d_k": (
        "W_K 的形状是 {shape_k}，W_Q 的却是 {shape_q}：两者都要有 heads * d_k 列，"
        "因为每个头的注意力分数都是 d_k 维向量的点积 q_i . k_j"
    ),
    "W_O has shape {shape_o} but the heads' outputs Z have heads * d_v = {columns} columns "
    "(W_V has shape {shape_v}): W_O needs {columns} rows": (
        "W_O 的形状是 {shape_o}，但各个头的输出 Z 拼起来有 heads * d_v = {columns} 列"
        "（W_V 的形状是 {shape_v}）：W_O 需要 {columns} 行"
    ),
    "W_K has shape {shape_k} but W_Q has {shape_q}: d_k must match, because each score is "
    "a dot product q_i . k_j of two vectors of length d_k": (
        "W_K 的形状是 {shape_k}，W_Q 的却是 {shape_q}：两者的 d_k 必须相同，"
        "因为每个注意力分数都是两个 d_k 维向量的点积 q_i . k_j"
    ),
    "{name} has shape {shape} but {x_name} has {d_name} = {d} columns: {name} needs {d} "
    "rows, shape ({d}, {columns})": (
        "{name} 的形状是 {shape}，但 {x_name} 有 {d_name} = {d} 列：{name} 需要 {d} 行，"
        "即形状 ({d}, {columns})"
    ),
    "For one matrix per head, (heads, d, {width}), put them side by side: "
    "np.concatenate(list({name}), axis=1) -> (d, heads * {width})": (
        "如果每个头各有一个矩阵，形状为 (heads, d, {width})，请把它们左右拼在一起："
        "np.concatenate(list({name}), axis=1) -> (d, heads * {width})"
    ),
    "attnlib works on one sequence at a time: for a batch of shape (b, {rows}, {cols}), run "
    "each sequence and stack the results, e.g. {batch}": (
        "attnlib 一次只处理一个序列：形状为 (b, {rows}, {cols}) 的一批序列，"
        "请逐个计算，再把结果堆叠起来，例如 {batch}"
    ),
    "scaled must be True or False, got {value!r}": "缩放开关（scaled）必须是 True 或 False，实际是 {value!r}",
    # core.py: masks
    "mask must be a boolean array, got a {kind}": "掩码（mask）必须是布尔数组，实际是 {kind}",
    "mask must be a rectangular boolean array: {error}": (
        "掩码（mask）必须是每行一样长的布尔数组：{error}"
    ),
    "mask must be a boolean array, True where query i may attend to key j, got dtype "
    "{dtype}. Convert first: an additive mask of 0 and -inf with mask = (m == 0); a 0/1 "
    "mask with mask = (m == 1) if 1 means 'may attend', or (m == 0) if 1 means 'blocked' "
    "(as True does in nn.MultiheadAttention)": (
        "掩码（mask）必须是布尔数组，查询 i 可以关注键 j 的位置为 True，实际的 dtype 是 "
        "{dtype}。请先转换：由 0 和 -inf 组成的加性掩码，用 mask = (m == 0)；由 0 和 1 "
        "组成的掩码，若 1 表示“可以关注”，用 mask = (m == 1)，若 1 表示“被掩码”"
        "（nn.MultiheadAttention 里的 True 就是这个意思），用 (m == 0)"
    ),
    "mask has shape {shape} but the scores are (n_q, n_kv) = ({n_q}, {n_kv}): one row per "
    "query, one column per key": (
        "掩码（mask）的形状是 {shape}，但注意力分数的形状是 (n_q, n_kv) = ({n_q}, {n_kv})："
        "每个查询一行，每个键一列"
    ),
    " (transposed?)": "（是不是转置了？）",
    "mask row {rows} is all False: query {query} ": "掩码（mask）的第 {rows} 行全是 False：查询 {query} ",
    "mask rows {rows} are all False: query {query} ": (
        "掩码（mask）的这几行全是 False：{rows}；查询 {query} "
    ),
    "may attend to no key, so its weights cannot sum to 1. Every row needs at least one "
    "True (causal_mask and padding_mask always keep one)": (
        "不能关注任何键，它的注意力权重也就无法加起来等于 1。每一行至少要有一个 True"
        "（causal_mask 和 padding_mask 总会保留一个）"
    ),
    # data.py
    "words not in the vocabulary: {unknown!r}; see attnlib.data.VOCABULARY": (
        "这些词不在词表里：{unknown!r}；词表见 attnlib.data.VOCABULARY"
    ),
    # lookup.py: the lookup task and its training
    "qk_scale must be a positive number, got {value!r}": "qk_scale 必须是正数，实际是 {value!r}",
    "lr must be a positive number, got {value!r}": "学习率（lr）必须是正数，实际是 {value!r}",
    "qk_lr must be a positive number, got {value!r}": (
        "W_Q 和 W_K 的学习率（qk_lr）必须是正数，实际是 {value!r}"
    ),
    "a checkpoint step": "检查点的步数",
    "task has {have} sequences but batch_size + count = {need} are needed": (
        "task 里只有 {have} 个序列，但需要 batch_size + count = {need} 个"
    ),
    "params must be a Params (see init_params), got {kind}": (
        "参数（params）必须是 init_params 给出的 Params，实际是 {kind}"
    ),
    "losses must be 1-D with at least window = {window} entries, got shape {shape}": (
        "损失序列（losses）必须是一维的，且至少有 window = {window} 个数，实际的形状是 {shape}"
    ),
    "step {step!r} is not a checkpoint; the checkpoints are {checkpoints}": (
        "第 {step!r} 步不是检查点；检查点是 {checkpoints}"
    ),
}
