"""Figure titles, axis labels and explorer readouts (plotting, charts, readouts, widgets)."""

MESSAGES = {
    "key j": "键 j",
    "query i": "查询 i",
    "weights α = softmax(scores){masked}  {shape}": "注意力权重 α = softmax(scores){masked}  {shape}",
    ", masked 0": "，掩码处为 0",
}
