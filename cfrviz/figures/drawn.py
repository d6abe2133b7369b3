"""How much of a tree is drawn at once: the whole tree when it is small, else one part of it.

Plain names only (no plotly, no pandas), so a page can decide what to draw, and send the
browser its timeline, before any figure code is loaded.
"""
from __future__ import annotations

from cfrviz.tree import GameTree

# Trees with more leaves than this are drawn in parts (one private card of player 1 at a time).
MAX_DRAWN_LEAVES = 40

# The betting-line choice that means "round 1 of the deals" (no line and no public card yet).
ROUND_ONE = "round 1"


def is_drawn_whole(tree: GameTree) -> bool:
    """Whether the whole tree fits on screen (3-card Kuhn, matrix games)."""
    return tree.num_terminals <= MAX_DRAWN_LEAVES
