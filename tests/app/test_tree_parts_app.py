"""AppTest: a node above every drawn part of a big tree selects a part, on the Game tree and after.

A tree too big to draw whole and without private cards is drawn one subtree at a time (subtrees of
at most `MAX_PART_LEAVES` leaves). A node above all of them (the root of a big perfect-information
game such as OpenSpiel's goofspiel, the upper decisions of a deep chain) once raised `ValueError: ... is not in list` on every run of the
page, through a click (the timeline's node event sets `ui.NODE_KEY`) or a link's `node=`.
"""
from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from cfrviz import app as ui
from cfrviz.app import CHOICE_KEY
from cfrviz.app.links import Choice
from cfrviz.run.uploads import read_game_upload
from cfrviz.tree import parts as tree_parts
from tests.support.efg_shapes import chain_efg, wide_efg

ROOT = Path(__file__).resolve().parents[2]
APP = str(ROOT / "app.py")
WIDE = wide_efg(30).encode()
CHAIN = chain_efg(300).encode()


def _game_tree(name: str, data: bytes) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=120)
    at.session_state[CHOICE_KEY] = Choice(read_game_upload(name, data), "cfr", 20)
    at.run()
    at.switch_page("pages/1_Game_tree.py").run()
    assert not at.exception, at.exception
    return at


def _click(at: AppTest, node: int) -> AppTest:
    """What the timeline's node event does: the clicked node becomes the session's selection."""
    at.session_state[ui.NODE_KEY] = node
    return at.run()


@pytest.mark.parametrize("name, data, node", [
    # A perfect-information game too big to draw whole: 30 root actions, each answered 2 ways, so the
    # root has 60 leaves (more than 40) and each answer node 2; the root lies above every drawn part.
    ("wide.efg", WIDE, 0),
    # A chain of 300 "go on or stop" decisions: node d (d < 260) has 301 - d > 40 leaves below it and
    # every node above it does too, so no drawn part starts at or above decision 5.
    ("chain.efg", CHAIN, 5),
    ("chain.efg", CHAIN, 0),
], ids=["wide root", "chain decision 5", "chain root"])
def test_a_node_above_every_drawn_part_selects_the_first_part_below_it(name: str, data: bytes, node: int) -> None:
    at = _click(_game_tree(name, data), node)
    assert not at.exception, at.exception
    tree = read_game_upload(name, data).tree()
    options = tree_parts.parts(tree, "subtree")
    chosen = options[at.selectbox(key="tree_subtree").value]
    assert node in tree_parts.part_nodes(tree, chosen).tolist()     # the clicked node is drawn
    assert tree.depth[int(chosen.root or 0)] > tree.depth[node]     # ... on the path to the part below it
    assert any("lies above every part" in c.value for c in at.caption)
    # The session goes on: another page and back, and a node inside a part.
    at.switch_page("pages/7_Best_response.py").run()
    assert not at.exception, at.exception
    at.switch_page("pages/1_Game_tree.py").run()
    assert not at.exception, at.exception
    leaf = tree.num_nodes - 1
    _click(at, leaf)
    assert not at.exception, at.exception
    assert leaf in tree_parts.part_nodes(tree, options[at.selectbox(key="tree_subtree").value]).tolist()


def test_every_node_of_a_deep_chain_has_a_drawn_part() -> None:
    # Every node of the chain, the upper decisions included, maps to one of the drawn parts, and
    # that part's drawing holds it (the page draws `part_nodes` of that part).
    tree = read_game_upload("chain.efg", CHAIN).tree()
    roots = {p.root for p in tree_parts.parts(tree, "subtree")}
    for node in range(tree.num_nodes):
        part = tree_parts.part_of(tree, node, "subtree")
        assert part.root in roots, node
        assert node in tree_parts.part_nodes(tree, part), node


def test_a_link_to_the_root_of_openspiels_goofspiel() -> None:
    # The menu's goofspiel (3 cards, bids hidden, random point order): a chance root with no private
    # cards, drawn by subtrees; the issue counted 4 nodes above every drawn part, the root first.
    pytest.importorskip("pyspiel")
    from tests.support.apptest import open_page

    at = open_page("pages/1_Game_tree.py", {"game": "openspiel:goofspiel(num_cards=3,imp_info=True)", "node": "0",
                                      "iters": "20"})
    assert any("lies above every part" in c.value for c in at.caption)
