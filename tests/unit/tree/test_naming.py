"""A tree's moves and players in the game's own words (cfrviz.tree.naming), and the parts named by them.

References: the games' own files, read by hand: Myerson's card game (Myerson 1991, section 2.1) with a
name appended to every title, player, action and outcome (tests.support.efg_shapes.myerson_named), and a
chain of "go on or stop" decisions whose players are named "Player 1" and "Player 2" (the defaults).
"""
from __future__ import annotations

from cfrviz.figures.timeline import build_payload
from cfrviz.games.efg import read_efg
from cfrviz.tree import GameTree, build_tree
from cfrviz.tree.naming import MAX_NAMED_MOVES, moves_in_words, player_names, seat_names
from cfrviz.tree.parts import label_of, part_of, parts
from tests.support.efg_shapes import chain_efg, myerson_named

# A name with markup in it: it must reach the screen as text (the .efg reader already drops `<>[]*`).
NAME = "x & y"


def _myerson() -> GameTree:
    return build_tree(read_efg(myerson_named(NAME)))


def _node(tree: GameTree, *moves: str) -> int:
    node = 0
    for move in moves:
        node = next(c for c in tree.children(node) if tree.edge_label[c] == move)
    return node


def test_a_gambit_files_players_and_moves_are_named_as_the_file_names_them() -> None:
    tree = _myerson()
    assert player_names(tree) == (f"P1 {NAME}", f"P2 {NAME}")
    assert seat_names(tree) == (f"P1 {NAME} (player 1)", f"P2 {NAME} (player 2)")
    node = _node(tree, f"red {NAME}", f"raise {NAME}")
    assert moves_in_words(tree, node) == f"chance: red {NAME}; P1 {NAME}: raise {NAME}"
    assert label_of(tree, part_of(tree, node, "subtree")) == "the whole game from its start (node 0)"
    # The inspector names the player to act as the file does, with the number the colours use.
    assert build_payload(tree, None)["players"] == [f"P1 {NAME} (player 1)", f"P2 {NAME} (player 2)"]


def test_default_player_names_stay_player_1_and_2() -> None:
    tree = build_tree(read_efg(chain_efg(3)))
    assert player_names(tree) == seat_names(tree) == ("player 1", "player 2")
    assert moves_in_words(tree, _node(tree, "go", "go")) == "player 1: go; player 2: go"


def test_a_deep_part_is_named_by_its_last_moves() -> None:
    tree = build_tree(read_efg(chain_efg(300)))
    # The chain's decisions alternate players, so each move is its own group; the first part lies
    # 260 moves down (301 - d <= 40 leaves from decision d = 261 on).
    first = parts(tree, "subtree")[0]
    assert first.root is not None and int(tree.depth[first.root]) > MAX_NAMED_MOVES
    label = label_of(tree, first)
    assert label.startswith("after … ") and label.endswith(f" (node {first.root})")
    assert label.count(": go") == MAX_NAMED_MOVES
    # Every part of the picker has its own name.
    labels = [label_of(tree, p) for p in parts(tree, "subtree")]
    assert len(set(labels)) == len(labels)
