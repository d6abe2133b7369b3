"""Play's running-result chart counts hands in whole numbers (issue 30, defect 6).

Reference: after one hand plotly's automatic axis read 0, 0.2 … 1; hands played are whole, so every tick is.
"""
from __future__ import annotations

import numpy as np
import pytest

from cfrviz.figures.play import score_figure


@pytest.mark.parametrize("hands, step", [(1, 1), (4, 1), (12, 2), (60, 10), (333, 50)])
def test_hands_played_ticks_are_whole_numbers(hands: int, step: int) -> None:
    figure = score_figure([1.0, -1.0] * (hands // 2) + [2.0] * (hands % 2), None)
    axis = figure.layout.xaxis
    assert axis.tickmode == "linear" and axis.tick0 == 0 and axis.dtick == step and axis.tickformat == ",d"
    ticks = np.arange(0, hands + 1, axis.dtick)
    assert np.all(ticks == ticks.astype(int)) and 2 <= len(ticks) <= 7 or hands < 2
