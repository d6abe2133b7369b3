"""Text drawn in the app's colours reaches 4.5:1 on white, and the colour-blind-safe line colours stay (issue 30).

Reference: WCAG 2.1's contrast ratio, written out here from the standard (relative luminance of sRGB), and the
issue's measurements: yellow "QK" 1.3:1, sky-blue "check" 2.3:1, pink "bet" 3.1:1, white on orange 3.9:1.
"""
from __future__ import annotations

import colorsys

import pytest

from cfrviz.figures._style import ACTION_COLORS, ACTION_TEXT_COLORS, ACTOR_STYLE, PILL_COLORS
from cfrviz.figures.timeline import Player

OKABE_ITO = ("#56B4E9", "#CC79A7", "#009E73", "#F0E442", "#0072B2", "#D55E00")


def relative_luminance(color: str) -> float:
    def linear(c: float) -> float:
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (linear(int(color[k:k + 2], 16) / 255) for k in (1, 3, 5))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def ratio(a: str, b: str) -> float:
    high, low = max(relative_luminance(a), relative_luminance(b)), min(relative_luminance(a), relative_luminance(b))
    return (high + 0.05) / (low + 0.05)


def hue(color: str) -> float:
    return colorsys.rgb_to_hsv(*(int(color[k:k + 2], 16) / 255 for k in (1, 3, 5)))[0]


def test_the_issues_measurements_hold_for_the_line_colours() -> None:
    assert ratio("#F0E442", "#ffffff") == pytest.approx(1.3, abs=0.05)
    assert ratio("#56B4E9", "#ffffff") == pytest.approx(2.3, abs=0.05)
    assert ratio("#CC79A7", "#ffffff") == pytest.approx(3.1, abs=0.05)
    assert ratio("#D55E00", "#ffffff") == pytest.approx(3.8, abs=0.1)


def test_line_colours_stay_okabe_ito_and_text_shades_reach_4_5_to_1_in_the_same_hue() -> None:
    assert ACTION_COLORS[:6] == OKABE_ITO
    for line, text in zip(ACTION_COLORS, ACTION_TEXT_COLORS):
        assert ratio(text, "#ffffff") >= 4.5, (line, text)
        if line.lower() not in ("#000000", "#999999"):
            assert hue(text) == pytest.approx(hue(line), abs=0.02), (line, text)
    for player in (Player.FIRST, Player.SECOND):
        assert ratio(PILL_COLORS[player], "#ffffff") >= 4.5    # white text on the pill
        assert hue(PILL_COLORS[player]) == pytest.approx(hue(ACTOR_STYLE[player]["color"]), abs=0.02)
