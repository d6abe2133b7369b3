"""A drawing without a run is kept under the game it draws, not under its title.

Reference: two Gambit files with the same title and the same tree, whose actions are named apart
("go"/"stop" and "on"/"halt"): each drawing must carry its own file's names. The title alone named
them both (and an OpenSpiel game's title is words now, no longer its game string).
"""
from __future__ import annotations

import json

from cfrviz.app.components import timeline
from cfrviz.games.efg import read_efg
from cfrviz.tree import build_tree
from tests.support.efg_shapes import chain_efg


def _edge_names(body: bytes) -> set[str]:
    return set(json.loads(body)["edges"]["name"])


def test_two_games_with_one_title_get_their_own_drawings() -> None:
    first = build_tree(read_efg(chain_efg(3)))
    second = build_tree(read_efg(chain_efg(3).replace('"go"', '"on"').replace('"stop"', '"halt"')))
    assert first.game.title == second.game.title and first.num_nodes == second.num_nodes
    _, one = timeline.payload_bytes(first, None, None)
    _, two = timeline.payload_bytes(second, None, None)
    assert _edge_names(one) == {"go", "stop"}
    assert _edge_names(two) == {"on", "halt"}
