"""The explorers' controls: tooltips, menu entries and notes (attnlib.widgets).

The controls keep their names (n, d_k, seed, heads, mask, step): they are the
names of the arguments in the code the learner calls.
"""

MESSAGES = {
    "sequence length": "序列长度",
    "embedding size": "向量编码（Embedding）的维度",
    "query/key size": "查询向量 / 键向量的维度",
    "value size": "值向量的维度",
    "random seed": "随机种子",
    "a sequence of the task": "任务中的一个序列",
    "number of heads, each of width d_k": "头的个数，每个头的维度为 d_k",
    "none": "无",
    "causal": "因果掩码",
    "every query sees every key": "每个查询都能看到所有键",
    "query i sees keys 0 … i only": "查询 i 只能看到键 0 … i",
    "click a cell to see where its numbers come from, or choose one:": (
        "点击一个格子，看它的数从哪里来；或者在这里选择："
    ),
    "training step of the checkpoint": "这组参数保存时的训练步数",
}
