"""attnlib.lookup_charts: the loss curves hold the losses they were given."""

import math

import numpy as np
import pytest

from attnlib.lookup_charts import plot_losses


def test_each_run_is_a_line_with_its_losses():
    one = np.array([2.3, 1.0, 0.2])
    runs = np.array([[2.4, 2.2, 2.0], [2.5, 1.5, 0.5]])
    fig = plot_losses({"scaled": one, "unscaled": runs}, title="t")
    ax = fig.axes[0]
    lines = ax.get_lines()
    assert len(lines) == 4  # 1 + 2 runs + the chance line
    np.testing.assert_array_equal(lines[0].get_xdata(), [1, 2, 3])
    np.testing.assert_array_equal(lines[0].get_ydata(), one)
    np.testing.assert_array_equal(lines[2].get_ydata(), runs[1])
    assert lines[1].get_color() == lines[2].get_color() != lines[0].get_color()
    assert lines[3].get_ydata()[0] == pytest.approx(math.log(10))
    assert ax.get_yscale() == "log" and ax.get_title() == "t"
    assert [t.get_text() for t in ax.get_legend().get_texts()][:2] == ["scaled", "unscaled"]


@pytest.mark.parametrize("curves", [{}, {"x": [1.0, -1.0]}, {"x": []}])
def test_bad_curves_are_refused(curves):
    with pytest.raises(ValueError, match="curves"):
        plot_losses(curves)
