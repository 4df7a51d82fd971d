"""The explorers' controls: tooltips, menu entries and notes (attnlib.widgets).

A control's caption is a word in the learner's language (随机种子, 头数, 掩码, 训练步数,
示例) or a symbol of the chapter that stays as the formulas write it (n, d, d_k, d_v).
The code keeps the English names (``explorer(seed=...)``, ``e.seed``).
"""

MESSAGES = {
    # the captions beside the controls (attnlib.explorers.controller.caption, shown in the page)
    "seed": "随机种子",
    "heads": "头数",
    "mask": "掩码",
    "step": "训练步数",
    "example": "示例",
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
    "training step of the checkpoint": "这组参数保存时的训练步数",
    # the explorers drawn in the page (attnlib.explorers.page, front/explorer.js)
    "click a cell, or focus the picture and press the arrow keys, to see where its "
    "numbers come from": "点击一个格子，或者选中图片后按方向键，看它的数从哪里来",
    "Heatmaps: {titles}.": "热力图：{titles}。",
    "Selected: {what}": "已选中：{what}",
    "no cell selected": "没有选中的格子",
    "stop": "停止",
    "{name} must be one of {allowed}, got {value!r}": "{name} 必须是 {allowed} 之一，实际是 {value!r}",
}
