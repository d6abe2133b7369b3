"""The compiled tree: a game expanded once into flat arrays (`compiled`), cut into parts for drawing
(`parts`), named in the game's own words (`naming`), and written out for other tools (`efg_export`, `openspiel_export`).
"""
from __future__ import annotations

from cfrviz.tree.compiled import GameTree, build_tree

__all__ = ["GameTree", "build_tree"]
