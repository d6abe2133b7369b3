"""Colours, markers and words shared by every cfrviz figure."""
from __future__ import annotations

from typing import Any

from cfrviz.util.vocabulary import Player

# Colour-blind-safe (Okabe–Ito) colours; every kind also has its own marker shape.
ACTOR_STYLE: dict[int, dict[str, str]] = {
    Player.CHANCE: {"name": "chance", "color": "#7f7f7f", "symbol": "diamond"},
    Player.FIRST: {"name": "player 1", "color": "#0072B2", "symbol": "circle"},
    Player.SECOND: {"name": "player 2", "color": "#D55E00", "symbol": "square"},
    Player.TERMINAL: {"name": "terminal (player 1's payoff)", "color": "#333333", "symbol": "triangle-down"},
}
PLAYER_NAMES = ("player 1", "player 2")
HIGHLIGHT = "#E69F00"
# One colour per action position (passive first, as every array orders them).
ACTION_COLORS = ("#56B4E9", "#CC79A7", "#009E73", "#F0E442", "#0072B2", "#D55E00",
                 "#999999", "#E69F00", "#000000", "#882255")
AGGRESSIVE_ACTIONS = frozenset({"bet", "call", "raise"})
#: WCAG 2.1's least contrast for normal text (success criterion 1.4.3, level AA).
TEXT_CONTRAST = 4.5


def _luminance(color: str) -> float:
    """WCAG 2.1's relative luminance of a "#rrggbb" colour."""
    channels = [int(color[k:k + 2], 16) / 255 for k in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast_ratio(first: str, second: str) -> float:
    """WCAG 2.1's contrast ratio of two "#rrggbb" colours, from 1 to 21.

    >>> round(contrast_ratio("#000000", "#ffffff"), 1), round(contrast_ratio("#F0E442", "#ffffff"), 2)
    (21.0, 1.32)
    """
    light, dark = sorted((_luminance(first), _luminance(second)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def text_shade(color: str, background: str = "#ffffff", ratio: float = TEXT_CONTRAST) -> str:
    """`color` darkened (each channel scaled by one factor, so the hue stays) until it reaches `ratio`
    against `background`: the shade for text (and for white text on a pill) of a colour-blind-safe line colour.

    >>> text_shade("#F0E442"), text_shade("#0072B2")
    ('#7f7923', '#0072B2')
    """
    if contrast_ratio(color, background) >= ratio:
        return color
    channels = [int(color[k:k + 2], 16) for k in (1, 3, 5)]
    for step in range(100, -1, -1):
        shade = "#" + "".join(f"{round(c * step / 100):02x}" for c in channels)
        if contrast_ratio(shade, background) >= ratio:
            return shade
    return "#000000"


#: The text shade of each action colour (labels such as "QK" or "check" drawn in an action's colour): the line
#: colours stay as they are, text gets the darker shade of the same hue, 4.5:1 on white.
ACTION_TEXT_COLORS = tuple(text_shade(color) for color in ACTION_COLORS)
#: The fill of a pill with white text in a player's colour (white on #D55E00 was 3.9:1), 4.5:1.
PILL_COLORS = {player: text_shade(style["color"]) for player, style in ACTOR_STYLE.items()}
FONT = {"family": "Inter, Segoe UI, Helvetica, Arial, sans-serif", "size": 13}


def action_color(index: int) -> str:
    """The colour of the action in position `index` (passive first)."""
    return ACTION_COLORS[index % len(ACTION_COLORS)]


#: Longest title line: about what fits a 390 px wide phone screen at the title's font size.
TITLE_LINE_CHARS = 44


def wrap_title(text: str, width: int = TITLE_LINE_CHARS) -> str:
    """`text` broken into lines of at most `width` characters at spaces (plotly never wraps).

    >>> wrap_title("Exploitability of the average strategy against iterations", 30)
    'Exploitability of the average<br>strategy against iterations'
    """
    lines: list[str] = []
    for word in text.split(" "):
        if lines and len(lines[-1]) + 1 + len(word) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return "<br>".join(lines)


def base_layout(**extra: Any) -> dict[str, Any]:
    """Layout keys every figure shares (white background, compact margins, titles that fit a phone)."""
    layout: dict[str, Any] = {"template": "plotly_white", "font": FONT, "margin": {"l": 60, "r": 20, "t": 50, "b": 50},
              "hoverlabel": {"font_size": 12}}
    layout.update(extra)
    title = layout.get("title")
    if isinstance(title, str) and "<br>" not in title and len(title) > TITLE_LINE_CHARS:
        layout["title"] = wrap_title(title)
        margin = dict(layout["margin"])
        margin["t"] = max(int(margin.get("t", 50)), 50) + 20 * layout["title"].count("<br>")
        layout["margin"] = margin
    return layout
