"""The errors attnlib raises for bad arguments, from every wing.

maths (validation, core, data, lookup, stats, backward), pictures (plotting, charts,
heatmap, panel, layout), explorers (explain, views, the page, the learned explorer,
the static page), lessons (the checks' own arguments, show_error) and the top level
(a misspelt name, set_language, require). Each says what was wrong and what was
expected, with the wrong value as the learner passed it.

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
    # stats.py: readout numbers
    "weights must be >= 0 (a softmax output), but weights{index} is {value}": (
        "注意力权重（weights）必须都 >= 0（它是 softmax 的输出），但 weights{index} 是 {value}"
    ),
    "each row of weights must sum to 1 (a softmax output), but row {row} sums to {total:.6g}": (
        "注意力权重（weights）的每一行之和必须是 1（它是 softmax 的输出），"
        "但第 {row} 行之和是 {total:.6g}"
    ),
    "{name} must list at least one size": "{name} 至少要列出一个大小",
    "values must be a 1-D array of finite sizes >= 0, got shape {shape}": (
        "values 必须是一维数组，元素都是 >= 0 的有限数，实际的形状是 {shape}"
    ),
    "{name} must be a positive number, got {value!r}": "{name} 必须是正数，实际是 {value!r}",
    # backward.py
    "dZ has shape {shape} but Z has ({n}, {d_v}): the gradient of the output "
    "must have the output's shape (n, d_v)": (
        "dZ 的形状是 {shape}，但 Z 的形状是 ({n}, {d_v})：输出的梯度必须和输出形状相同，即 (n, d_v)"
    ),
    # pictures: plotting.py, charts.py
    "tokens has {count} entries but the matrices have n = {n} rows: one token per row": (
        "词元（tokens）有 {count} 个，但矩阵有 n = {n} 行：每行对应一个词元"
    ),
    "key_tokens has {count} entries but the scores have {n} columns: one token per key": (
        "键的词元（key_tokens）有 {count} 个，但注意力分数有 {n} 列：每个键向量对应一个词元"
    ),
    "scores are ({n_q} × {n_kv}): cross-attention needs key_tokens "
    "(length {n_kv}) besides the {n_q} query tokens": (
        "注意力分数是 ({n_q} × {n_kv})：交叉注意力除了 {n_q} 个查询词元，"
        "还需要键的词元 key_tokens（共 {n_kv} 个）"
    ),
    "mh must be a MultiHead (from multi_head_attention), got {kind}": (
        "mh 必须是 multi_head_attention 返回的 MultiHead，实际是 {kind}"
    ),
    "{name} must come from a pass with scaled={wanted}, got one with scaled={got}": (
        "{name} 必须来自 scaled={wanted} 的一次计算，实际来自 scaled={got} 的计算"
    ),
    "plot_mix needs self-attention: weights are {shape}, V has n = {n} rows": (
        "plot_mix 需要自注意力机制的结果：注意力权重是 {shape}，而 V 有 n = {n} 行"
    ),
    "i must be a query index from 0 to {last}, got {i!r}": (
        "i 必须是 0 到 {last} 之间的查询下标，实际是 {i!r}"
    ),
    "d_ks must be at least 2 positive sizes, got {got!r}": (
        "d_ks 必须是至少 2 个正的大小，实际是 {got!r}"
    ),
    "{name} must be a pair (unscaled, scaled) of sequences": (
        "{name} 必须是一对序列：（未缩放，缩放后）"
    ),
    "{name} ({label}) has shape {shape} but d_ks has {length} entries": (
        "{name}（{label}）的形状是 {shape}，但 d_ks 有 {length} 个数"
    ),
    "{name} has {got} samples but there are {count} labels": (
        "{name} 有 {got} 组样本，但标签有 {count} 个"
    ),
    "{name}[{g}] must be a 1-D array of finite numbers": "{name}[{g}] 必须是由有限数组成的一维数组",
    "{name}[{g}] must hold sizes >= 0": "{name}[{g}] 的元素必须都 >= 0",
    "labels is empty: give one label per group": "标签（labels）是空的：每组给一个标签",
    "floor must be a positive number below near_zero, got {value!r}": (
        "floor 必须是小于 near_zero 的正数，实际是 {value!r}"
    ),
    "curves is empty: give at least one label -> losses": (
        "curves 是空的：至少给一个“标签 -> 损失”"
    ),
    "curves[{label!r}] must hold positive losses, one run or a list of runs "
    "of equal length; got {runs!r}": (
        "curves[{label!r}] 必须是正的损失值：一次训练的损失，或者若干次等长训练的损失列表；"
        "实际是 {runs!r}"
    ),
    "curves[{label!r}] must hold positive losses, one run or a list of runs "
    "of equal length; got shape {shape}": (
        "curves[{label!r}] 必须是正的损失值：一次训练的损失，或者若干次等长训练的损失列表；"
        "实际的形状是 {shape}"
    ),
    # pictures: heatmap.py, panel.py, layout.py
    "cell must be a pair (i, j), got {cell!r}": "cell 必须是一对 (i, j)，实际是 {cell!r}",
    "cell {name} must be an integer, got {value!r}": "cell 的 {name} 必须是整数，实际是 {value!r}",
    "cell {name} must be from 0 to {last}, got {value}": (
        "cell 的 {name} 必须在 0 到 {last} 之间，实际是 {value}"
    ),
    "mask must be a boolean array of the matrix's shape {want}, "
    "got dtype {dtype} and shape {shape}": (
        "掩码（mask）必须是和矩阵形状 {want} 相同的布尔数组，实际的 dtype 是 {dtype}，"
        "形状是 {shape}"
    ),
    "mask goes in the Panel (Panel(..., mask=...)), not beside it": (
        "掩码（mask）要放进 Panel 里（Panel(..., mask=...)），不要写在它旁边"
    ),
    "the heatmap is of kind {kind!r}, the panel {other!r}: draw a new heatmap for another kind": (
        "这张热力图的种类是 {kind!r}，而 Panel 的是 {other!r}：换一种就画一张新的热力图"
    ),
    "matrix has shape {shape} but the heatmap shows {shown}: "
    "pass a Panel (or draw a new heatmap) for a new shape": (
        "矩阵的形状是 {shape}，但热力图显示的是 {shown}：形状变了，请传入一个 Panel"
        "（或者画一张新的热力图）"
    ),
    "row_labels has {got} labels but matrix has {count} rows ({shape})": (
        "row_labels 有 {got} 个标签，但矩阵有 {count} 行（{shape}）"
    ),
    "col_labels has {got} labels but matrix has {count} columns ({shape})": (
        "col_labels 有 {got} 个标签，但矩阵有 {count} 列（{shape}）"
    ),
    "diagonal=True needs a square matrix, got shape {shape}": (
        "diagonal=True 需要方阵，实际的形状是 {shape}"
    ),
    "share_limit is for kind 'diverging' only, not {kind!r}": (
        "share_limit 只用于 'diverging' 这一种，不能用于 {kind!r}"
    ),
    "limit is for kind 'diverging' only, not {kind!r}": (
        "limit 只用于 'diverging' 这一种，不能用于 {kind!r}"
    ),
    "give the options in the Panel, not beside it: {options}": (
        "这些选项要写进 Panel 里，不要写在它旁边：{options}"
    ),
    "{unknown} is not an option of a heatmap; the options are Panel's fields: {names}": (
        "{unknown} 不是热力图的选项；选项就是 Panel 的字段：{names}"
    ),
    "panels must hold at least one Panel": "panels 至少要有一个 Panel",
    # explorers: explain (explanation.py)
    "att must be an attnlib Attention (what attention() and self_attention() return), got {kind}": (
        "att 必须是 attnlib 的 Attention（attention() 和 self_attention() 的返回值），实际是 {kind}"
    ),
    "{name} = {value} is out of range: att has {size} queries (rows of "
    "att.scores), so {name} must be from 0 to {last}": (
        "{name} = {value} 超出了范围：att 只有 {size} 个查询向量（att.scores 的行），"
        "所以 {name} 必须在 0 到 {last} 之间"
    ),
    "{name} = {value} is out of range: att has {size} keys (columns of "
    "att.scores), so {name} must be from 0 to {last}": (
        "{name} = {value} 超出了范围：att 只有 {size} 个键向量（att.scores 的列），"
        "所以 {name} 必须在 0 到 {last} 之间"
    ),
    "{name} must be a sequence of strings, one per token, got {tokens!r}": (
        "{name} 必须是字符串序列，每个词元一个，实际是 {tokens!r}"
    ),
    "{name} must hold strings, got {labels!r}": "{name} 里必须都是字符串，实际是 {labels!r}",
    "{name} has {count} labels but att has {size} queries: one label per row": (
        "{name} 有 {count} 个标签，但 att 有 {size} 个查询向量：每行一个标签"
    ),
    "tokens has {count} labels but att has {size} keys: one label per column; "
    "for cross-attention pass key_tokens=... too": (
        "词元（tokens）有 {count} 个标签，但 att 有 {size} 个键向量：每列一个标签；"
        "交叉注意力还要传入 key_tokens=..."
    ),
    "{name} has {count} labels but att has {size} keys: one label per column": (
        "{name} 有 {count} 个标签，但 att 有 {size} 个键向量：每列一个标签"
    ),
    "max_items must be an integer of at least 2, got {value!r}": (
        "max_items 必须是不小于 2 的整数，实际是 {value!r}"
    ),
    "decimals must be an integer, got {value!r}": "decimals 必须是整数，实际是 {value!r}",
    "decimals must be from 0 to 12, got {value}": "decimals 必须在 0 到 12 之间，实际是 {value}",
    "row {i} of att.scores has no finite entry, so it has no weights": (
        "att.scores 的第 {i} 行没有一个有限值，所以这一行没有注意力权重"
    ),
    # explorers: views, readouts, the page, the learned explorer, the static page
    "this view has no selectable panel in which to select a cell": (
        "这个视图没有可以选中格子的面板"
    ),
    "panel must be an integer, got {value!r}": "panel 必须是整数，实际是 {value!r}",
    "panel must be one of {allowed}, got {value!r}": "panel 必须是 {allowed} 之一，实际是 {value!r}",
    "{kind} has no panel in which to select a cell": "{kind} 没有可以选中格子的面板",
    "head must be from 0 to {last} with heads = {heads}, got {head!r}": (
        "heads = {heads} 时，head 必须在 0 到 {last} 之间，实际是 {head!r}"
    ),
    "{kind} takes {wanted} by keyword, got {got}": (
        "{kind} 要以关键字参数传入 {wanted}，实际传入的是 {got}"
    ),
    "{kind} has no control {name!r}; its controls are {controls}": (
        "{kind} 没有名为 {name!r} 的控件；它的控件是 {controls}"
    ),
    "{kind!r} object has no attribute {name!r}": "{kind!r} 对象没有属性 {name!r}",
    "history must be a lookup.History (what lookup.train returns), got {kind}": (
        "history 必须是 lookup.History（lookup.train 的返回值），实际是 {kind}"
    ),
    "task must be a lookup.Task (what lookup.make_task returns), got {kind}": (
        "task 必须是 lookup.Task（lookup.make_task 的返回值），实际是 {kind}"
    ),
    "seeds must hold at least one seed": "seeds 至少要有一个种子",
    "the explorer's seed {seed} is not among seeds {seeds}": (
        "探索器的种子 {seed} 不在 seeds {seeds} 之中"
    ),
    # lessons: the checks' own arguments (not the learner's answer), show_error
    "i must be from 0 to {last}, got {i}": "i 必须在 0 到 {last} 之间，实际是 {i}",
    "i must be from 0 to {last_i} and j from 0 to {last_j}, got i = {i}, j = {j}": (
        "i 必须在 0 到 {last_i} 之间，j 必须在 0 到 {last_j} 之间，实际是 i = {i}，j = {j}"
    ),
    "perm must reorder 0 to {last} and i be one of them, got {perm}, {i}": (
        "perm 必须是 0 到 {last} 的一种重新排列，i 必须是其中之一，实际是 {perm}，{i}"
    ),
    "show_error needs a function to call, got {kind} {func!r:.60}; "
    "pass the function and its arguments separately: "
    "show_error(f, x), not show_error(f(x))": (
        "show_error 需要一个可以调用的函数，实际收到的是 {kind} {func!r:.60}；"
        "请把函数和它的参数分开传入：show_error(f, x)，而不是 show_error(f(x))"
    ),
    # the top level: a misspelt name, set_language, require
    "module {module!r} has no attribute {name!r}": "模块 {module!r} 没有属性 {name!r}",
    "language must be one of {allowed}, got {value!r}": (
        "语言（language）必须是 {allowed} 之一，实际是 {value!r}"
    ),
    "minimum must be a version such as '0.2' or '1.0.3', got {value!r}": (
        "minimum 必须是版本号，例如 '0.2' 或 '1.0.3'，实际是 {value!r}"
    ),
}
