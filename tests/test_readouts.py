"""attnlib.readouts and attnlib.views: the text and pictures of the explorers, without widgets."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from attnlib import self_attention, toy_example
from attnlib.explorers.readouts import (
    LIST_ROWS,
    attention_readout,
    embedding_readout,
    qkv_readout,
    scaling_readout,
)
from attnlib.explorers.views import attention_view, embedding_view, qkv_view, scaling_view
from attnlib.maths.stats import max_weight, row_entropy, scaling_comparison


def test_readouts_and_views_load_without_ipywidgets():
    code = (
        "import sys; sys.modules['ipywidgets'] = None\n"  # any import of it now fails
        "import attnlib.readouts, attnlib.views\n"
        "print(attnlib.views.attention_view(n=3, d_k=2, seed=0, d=4).panels[0].shape)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "(3, 3)"


def test_attention_readout_reports_the_numbers_of_the_maths():
    ex = toy_example(5, d_k=3, seed=2)
    att = self_attention(*ex[1:])
    text = attention_readout(att)
    assert "Q (5, 3) · K (5, 3) · V (5, 3) · scores and weights (5, 5)" in text
    row = " ".join(f"{v:.2f}" for v in max_weight(att.weights))
    assert f"<code>{row}</code>" in text
    assert f"mean row entropy: {row_entropy(att.weights).mean():.2f} nats" in text
    assert f"{np.log(5):.2f} = spread evenly over 5" in text


@pytest.mark.parametrize("n", [LIST_ROWS + 1, 21, 32])
def test_a_long_sequence_gives_the_range_of_the_largest_weights_not_a_list(n):
    # n numbers would wrap on a laptop (1366 px, file browser open) and push the
    # entropy line below the fold: their range and median, on one short line
    att = self_attention(*toy_example(n, d_k=4, seed=0)[1:])
    text = attention_readout(att)
    top = max_weight(att.weights)
    assert (
        f"from <code>{top.min():.2f}</code> to <code>{top.max():.2f}</code>"
        f" (median {np.median(top):.2f} over {n} rows)"
    ) in text
    line = text.split("<br>")[1]
    assert len(line.replace("<code>", "").replace("</code>", "")) < 90, line


@pytest.mark.parametrize("d_k", [1, 4, 16])
def test_attention_readout_reads_att_scaled(d_k):
    ex = toy_example(4, d_k=d_k, seed=0)
    scaled = attention_readout(self_attention(*ex[1:]))
    unscaled = attention_readout(self_attention(*ex[1:], scaled=False))
    assert f"scores = q·k / √d_k, √{d_k} = {np.sqrt(d_k):.2f}" in scaled
    assert "√d_k" not in unscaled.replace("not divided by √d_k", "")
    assert "scores = q·k, not divided by √d_k (unscaled)" in unscaled


def test_embedding_qkv_and_scaling_readouts():
    ex = toy_example(6, d=8, d_k=4, d_v=3, seed=1)
    att = self_attention(*ex[1:])
    assert embedding_readout(ex).startswith("X (6, 8): n = 6 tokens, one row of d = 8 numbers")
    assert "V = X W_V: (6, 8) @ (8, 3) -> (6, 3)" in qkv_readout(ex, att)
    c = scaling_comparison(*toy_example(8, d_k=36, seed=0)[1:])
    text = scaling_readout(c)
    assert "<th>scaled by √d_k = 6.00</th>" in text
    assert f"<td>{c.score_variance_unscaled:.2f}</td><td>{c.score_variance_scaled:.2f}</td>" in text


def test_views_return_the_same_numbers_as_a_direct_call():
    v = attention_view(n=7, d_k=5, seed=3, d=8)
    want = self_attention(*toy_example(7, d=8, d_k=5, seed=3)[1:])
    np.testing.assert_array_equal(v.panels[0].matrix, want.scores)
    np.testing.assert_array_equal(v.panels[1].matrix, want.weights)
    assert v.readout == attention_readout(want)
    assert all(p.selectable for p in v.panels)
    np.testing.assert_array_equal(
        embedding_view(n=3, d=2, seed=1).panels[0].matrix, toy_example(3, d=2, seed=1).X
    )
    q = qkv_view(d_k=2, d_v=3, seed=0, n=4, d=8)
    assert [p.shape for p in q.panels] == [(4, 2), (4, 2), (4, 3)]
    s = scaling_view(d_k=9, seed=0, n=5, d=8)
    raw = self_attention(*toy_example(5, d_k=9, seed=0)[1:], scaled=False)
    np.testing.assert_array_equal(s.panels[0].matrix, raw.weights)
