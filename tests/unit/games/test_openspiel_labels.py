"""OpenSpiel games are shown in OpenSpiel's own words: moves named by `action_to_string`, titles in words.

Reference: OpenSpiel itself, read in a child process of the test (as the app reads it: never in this
process). The child walks every history and prints, per history, the `action_to_string` of each move
on its path and of each of its moves; the compiled tree's edges must name them alike. Known strings
(OpenSpiel 2.0.2, printed by hand the same way): Liar's dice rolls "Roll 1".."Roll 3", bids
"quantity-face" ("1-1" is one die showing 1) in increasing order, then "Liar"; Kuhn poker's "Deal:0",
"Pass", "Bet". Titles: the menu's words by hand; any other game OpenSpiel's long name ("Liars Dice",
read in the child) and the parameters written.
"""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from cfrviz.catalog import lookup
from cfrviz.catalog.openspiel_menu import OPENSPIEL_MENU, openspiel_menu_title
from cfrviz.figures.timeline import build_payload
from cfrviz.games.openspiel import load_openspiel
from cfrviz.tree import GameTree
from cfrviz.tree.parts import label_of, part_nodes, part_of

pytest.importorskip("pyspiel")

# Every history of an OpenSpiel game, depth first: [path of move names, names of its moves].
_WALK = """
import json, sys
import pyspiel
game = pyspiel.load_game(sys.argv[1])
if game.get_type().dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS:
    game = pyspiel.convert_to_turn_based(game)
out = []
def walk(state, path):
    if state.is_terminal():
        out.append([path, []]); return
    who = pyspiel.PlayerId.CHANCE if state.is_chance_node() else state.current_player()
    moves = [a for a, _ in state.chance_outcomes()] if state.is_chance_node() else state.legal_actions()
    names = [state.action_to_string(who, a) for a in moves]
    out.append([path, names])
    for a, name in zip(moves, names):
        walk(state.child(a), path + [name])
walk(game.new_initial_state(), [])
print(json.dumps({"histories": out, "long_name": game.get_type().long_name}))
"""


def openspiel_walk(game_string: str) -> dict[str, object]:
    """OpenSpiel's own names of every history's moves, read in a child process."""
    done = subprocess.run([sys.executable, "-c", _WALK, game_string], capture_output=True, text=True,
                          timeout=120, check=True)
    answer: dict[str, object] = json.loads(done.stdout)
    return answer


def path_names(tree: GameTree, node: int) -> tuple[str, ...]:
    names: list[str] = []
    while node > 0:
        names.append(tree.edge_label[node])
        node = int(tree.parent[node])
    return tuple(names[::-1])


@pytest.mark.parametrize("game_string", ["liars_dice(numdice=1,dice_sides=3)", "kuhn_poker",
                                         "goofspiel(num_cards=3,imp_info=True)"])
def test_every_edge_is_named_by_openspiels_action_to_string(game_string: str) -> None:
    reference = openspiel_walk(game_string)
    histories = reference["histories"]
    assert isinstance(histories, list)
    expected = {tuple(path): tuple(names) for path, names in histories}
    assert len(expected) == len(histories)   # the names along a path tell every history apart
    tree = lookup("openspiel:" + game_string).tree()
    shown = {path_names(tree, n): tuple(tree.edge_label[c] for c in tree.children(n)) for n in range(tree.num_nodes)}
    assert shown == expected


def test_liars_dice_shows_its_bids_on_edges_and_in_the_inspector() -> None:
    tree = lookup("openspiel:liars_dice(numdice=1,dice_sides=3)").tree()
    bids = ["1-1", "1-2", "1-3", "2-1", "2-2", "2-3"]
    assert [tree.edge_label[c] for c in tree.children(0)] == ["Roll 1", "Roll 2", "Roll 3"]
    # Breadth first: the root, 3 rolls of player 1's die, 9 of player 2's, then player 1's first bids.
    first_bid = 13
    assert [tree.edge_label[c] for c in tree.children(4)] == bids
    assert [tree.edge_label[c] for c in tree.children(first_bid)] == bids[1:] + ["Liar"]
    # What the browser draws for the part holding the first bid: its edges and the inspector's actions.
    part = part_of(tree, first_bid)
    payload = build_payload(tree, None, nodes=[int(n) for n in part_nodes(tree, part)])
    assert {"1-1", "1-2", "Liar"} <= set(payload["edges"]["name"])
    assert {"2-1", "Liar"} <= set(payload["edges"]["letter"])   # drawn as written (no poker letters)
    at_first_bid = next(s for s in payload["sets"] if s["key"] == tree.infosets[int(tree.infoset[first_bid])].key)
    assert at_first_bid["actions"] == bids[1:] + ["Liar"]
    assert label_of(tree, part) == "after chance: Roll 1, Roll 1; player 1: 1-1 (node 13)"


@pytest.mark.parametrize("game_string, title", [
    ("kuhn_poker", "Kuhn poker"),
    ("leduc_poker(suit_isomorphism=True)", "Leduc poker, suits merged"),
    ("liars_dice(numdice=1,dice_sides=5)", "Liar's dice, 1 die, 5 sides"),
    ("liars_dice(dice_sides=2,numdice=1)", "Liar's dice, 1 die, 2 sides"),
    ("goofspiel(num_cards=4,imp_info=True)", "Goofspiel, 4 cards, points in random order"),
    ("goofspiel(num_cards=1,imp_info=True,points_order=descending,returns_type=point_difference)",
     "Goofspiel, 1 card, points in descending order, paid the point difference"),
    ("oshi_zumo(coins=1,size=2,horizon=5,alesia=true)",
     "Oshi-zumo, 1 coin, 2 steps to the edge, at most 5 rounds, Alesia rules"),
    ("blotto(coins=8,fields=3)", "Colonel Blotto, 8 soldiers, 3 battlefields"),
    ("liars_dice(numdice=1,dice_sides=6)", None),   # off the menu (too big): the loader's own title
])
def test_menu_games_are_titled_in_words(game_string: str, title: str | None) -> None:
    assert openspiel_menu_title(game_string) == title


def test_every_menu_game_has_its_own_title() -> None:
    titles = [game.game_title() for game in OPENSPIEL_MENU]
    assert len(set(titles)) == len(titles) and not any("(" in t or "_" in t for t in titles)


def test_a_menu_game_is_titled_in_words_everywhere_the_catalog_names_it() -> None:
    spec = lookup("openspiel:liars_dice(numdice=1,dice_sides=3)")
    assert spec.title == spec.game().title == spec.tree().game.title == "Liar's dice, 1 die, 3 sides"
    assert spec.label == "Liar's dice, 1 die, 3 sides (OpenSpiel)"
    # The game string is still the game's identity: its link and its description name it exactly.
    assert spec.link == "openspiel:liars_dice(numdice=1,dice_sides=3)"
    assert "liars_dice(numdice=1,dice_sides=3)" in spec.game().description


def test_any_other_game_is_titled_by_openspiels_name_and_the_parameters_written() -> None:
    text = "liars_dice(numdice=1,dice_sides=2,bidding_rule=reset-quantity)"
    long_name = openspiel_walk(text)["long_name"]
    assert long_name == "Liars Dice"
    game = load_openspiel(text)
    assert game.title == "Liars Dice, numdice 1, dice sides 2, bidding rule reset-quantity"
    # The same game written another way is the cached one under its own title.
    again = load_openspiel("liars_dice(bidding_rule=reset-quantity,dice_sides=2,numdice=1)")
    assert again.title == "Liars Dice, bidding rule reset-quantity, dice sides 2, numdice 1"
    assert again.actor is game.actor
    # Asked for by another title (the catalog's menu words), the same tables again.
    named = load_openspiel(text, title="Two-sided dice")
    assert named.title == "Two-sided dice" and named.edge_labels is game.edge_labels
