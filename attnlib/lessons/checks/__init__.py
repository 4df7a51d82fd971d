"""Self-checks for the notebooks' exercises: ``attnlib.checks.check_*``.

Each ``check_*`` takes the learner's answer (a function they wrote, or a
prediction written before running a cell), compares it with attnlib, and
returns a :class:`CheckResult` that prints as a clear pass, or as what went
wrong plus a hint. A check never lets the learner's exception escape as a
bare traceback: it reports it instead.

- :mod:`.runner`: the result type and the one way a check runs and reports a failed step;
- :mod:`.reading`: how a prediction is read (a shape, a number, an index, a word in
  English or Chinese), and what a learner is told when it has the wrong form;
- :mod:`.inputs`: exercises of 2.1 and 2.2.1 (two sequences, reordering, embeddings, shapes);
- :mod:`.formulas`: exercises of 2.2.2 to 2.2.4 (Q, K, V, scores, softmax, weighted sum);
- :mod:`.predictions`: predictions of 01 and 02 written before a cell runs (a shape, a count);
- :mod:`.projections`: 03's predictions (the shapes of Q, K, V and of a fused product);
- :mod:`.worked`: 04's predictions (a score by hand, a variance, the winning key);
- :mod:`.weights`: 05's predictions (exps, a weight and an output by hand, doubled scores);
- :mod:`.layer`: 05's capstone, the learner's whole self-attention layer;
- :mod:`.learned`: exercises of notebook 06 (the softmax's and the loss's gradients, a pick);
- :mod:`.learned_predictions`: notebook 06's predictions (the untrained loss, its gradient,
  the gradients' size, the scores' spread);
- :mod:`.next_steps`: notebook 07's exercises (a causal mask, masked weights, heads);
- :mod:`.next_predictions`: notebook 07's predictions (mask counts, head shapes and sizes);
- :mod:`.torch_heads`: notebook 08's exercise (a batch cut into heads, in PyTorch's layout).

Examples
--------
>>> import numpy as np
>>> check_softmax(lambda s: np.exp(s) / np.exp(s).sum(axis=-1, keepdims=True))
✗ check_softmax: on scores of size 1000 your softmax gave nan (or inf) ...
>>> from attnlib import softmax
>>> check_softmax(softmax)
✓ check_softmax: passed ...
"""

from .formulas import (
    check_column_form,
    check_fused_qkv,
    check_qkv,
    check_row_entropy,
    check_scores,
    check_softmax,
    check_softmax_temperature,
    check_weighted_sum,
)
from .inputs import (
    check_cross_scores,
    check_embedding_lookup,
    check_one_hot,
    check_permutation,
    check_shapes,
)
from .layer import check_self_attention
from .learned import check_loss_gradient, check_pick, check_softmax_backward
from .learned_predictions import (
    check_prediction_gradient_size,
    check_prediction_loss_gradient,
    check_prediction_spread_growth,
    check_prediction_uniform_loss,
)
from .next_predictions import (
    check_prediction_causal_count,
    check_prediction_flipped_mask,
    check_prediction_head_parameters,
    check_prediction_head_shapes,
    check_prediction_wrong_d,
)
from .next_steps import (
    check_causal_mask,
    check_merge_heads,
    check_prediction_zero_weights,
    check_split_heads,
    check_window_mask,
)
from .predictions import (
    check_prediction_cost_ratio,
    check_prediction_cross_shape,
    check_prediction_embedding_row,
    check_prediction_moved_token,
    check_prediction_X_shape,
)
from .projections import check_prediction_fused_shape, check_prediction_qkv_shapes
from .runner import CheckResult
from .torch_heads import check_to_heads
from .weights import (
    check_prediction_alpha,
    check_prediction_doubled_scores,
    check_prediction_exps,
    check_prediction_output,
    check_prediction_temperature,
)
from .worked import (
    check_prediction_score,
    check_prediction_score_variance,
    check_prediction_winner,
)

__all__ = [
    "CheckResult",
    "check_causal_mask",
    "check_column_form",
    "check_cross_scores",
    "check_embedding_lookup",
    "check_fused_qkv",
    "check_loss_gradient",
    "check_merge_heads",
    "check_one_hot",
    "check_permutation",
    "check_pick",
    "check_prediction_X_shape",
    "check_prediction_alpha",
    "check_prediction_causal_count",
    "check_prediction_cost_ratio",
    "check_prediction_cross_shape",
    "check_prediction_doubled_scores",
    "check_prediction_embedding_row",
    "check_prediction_exps",
    "check_prediction_flipped_mask",
    "check_prediction_fused_shape",
    "check_prediction_gradient_size",
    "check_prediction_head_parameters",
    "check_prediction_head_shapes",
    "check_prediction_loss_gradient",
    "check_prediction_moved_token",
    "check_prediction_output",
    "check_prediction_qkv_shapes",
    "check_prediction_score",
    "check_prediction_score_variance",
    "check_prediction_spread_growth",
    "check_prediction_temperature",
    "check_prediction_uniform_loss",
    "check_prediction_winner",
    "check_prediction_wrong_d",
    "check_prediction_zero_weights",
    "check_qkv",
    "check_row_entropy",
    "check_scores",
    "check_self_attention",
    "check_shapes",
    "check_softmax",
    "check_softmax_backward",
    "check_softmax_temperature",
    "check_split_heads",
    "check_to_heads",
    "check_weighted_sum",
    "check_window_mask",
]
