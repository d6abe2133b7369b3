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
