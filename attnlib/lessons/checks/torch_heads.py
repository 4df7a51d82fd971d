"""The check of notebook 08's exercise: cutting a batch into heads, in PyTorch's layout.

:func:`check_to_heads` runs ``my_to_heads(M, heads)`` on a tensor of shape
(B, n, heads · w) and wants (B, heads, n, w), head h being columns h·w to
(h+1)·w − 1 of every row: the order of attnlib's ``multi_head_attention`` and of
``nn.MultiheadAttention``. The usual slips are recognised: a reshape straight to
(B, heads, n, w), which has the right shape and the wrong numbers; a view without
the transpose; the blocks taken in the wrong order (columns h, h + heads, ...).
"""

from __future__ import annotations

from collections.abc import Callable

from ...i18n import tr
from ..bridge import import_torch
from .runner import Failure, call, check, close, compare, expect_array


@check
def check_to_heads(func: Callable) -> str:
    """Check ``func(M, heads) -> tensor``: (B, n, heads·d_k) cut into (B, heads, n, d_k) (08).

    Tested on B = 2 sentences of n = 3 tokens, heads = 4 blocks of d_k = 5
    columns (no two sizes alike), numbered so that every entry says where it
    came from.

    Parameters
    ----------
    func : callable
        ``func(M, heads)`` with M a torch tensor of shape (B, n, heads * d_k);
        returns a tensor of shape (B, heads, n, d_k).

    Returns
    -------
    CheckResult
        Passed, or what went wrong and a hint.
    """
    torch = import_torch()
    B, n, heads, d_k = 2, 3, 4, 5
    M = torch.arange(B * n * heads * d_k, dtype=torch.float64).reshape(B, n, heads * d_k)
    what = tr("a tensor of shape (B, n, heads·d_k) = (2, 3, 20) and heads = 4")
    hint = tr(
        "first cut each row's heads·d_k columns into heads blocks of d_k, then bring the heads "
        "axis in front of the tokens: print the shape after each step"
    )
    got = expect_array(call(func, M.clone(), heads, hint=hint), what)
    blocks = M.numpy().reshape(B, n, heads, d_k)  # (B, n, h·d_k) -> (B, n, h, d_k)
    expected = blocks.transpose(0, 2, 1, 3)  # (B, n, h, d_k) -> (B, h, n, d_k)
    if got.shape == expected.shape and close(got, M.numpy().reshape(B, heads, n, d_k)):
        raise Failure(
            tr(
                "for {what}, your tensor has the right shape and the wrong numbers: a "
                "reshape to (B, heads, n, d_k) reads the entries in memory order, so each "
                "'head' holds pieces of several tokens",
                what=what,
            ),
            tr("keep each token's row whole while you cut it: which axes does the cut split?"),
        )
    if got.shape == blocks.shape and close(got, blocks):
        raise Failure(
            tr(
                "for {what}, you cut the blocks (shape {got}) but the heads still come after "
                "the tokens: expected (B, heads, n, d_k) = {want}",
                what=what,
                got=got.shape,
                want=expected.shape,
            ),
            tr("one more step moves an axis: which two axes trade places?"),
        )
    # head ℓ from the columns ℓ, ℓ + heads, ...: interleaved instead of a block
    interleaved = M.numpy().reshape(B, n, d_k, heads).transpose(0, 3, 1, 2)
    if got.shape == expected.shape and close(got, interleaved):
        raise Failure(
            tr(
                "for {what}, your head ℓ takes every heads-th column (ℓ, ℓ + heads, ...), "
                "not the block of d_k neighbouring columns",
                what=what,
            ),
            tr("head ℓ owns columns ℓ·d_k to (ℓ+1)·d_k − 1: in which order do the two sizes go?"),
        )
    compare(got, expected, what, hint, atol=0)
    return tr(
        "your heads are attnlib's and nn.MultiheadAttention's: "
        "head ℓ is columns ℓ·d_k to (ℓ+1)·d_k − 1"
    )
