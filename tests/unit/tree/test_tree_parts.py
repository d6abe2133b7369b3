"""Tree parts (cfrviz.tree.parts): every information set of the acting player drawn whole.

References: the rules of Kuhn poker (Kuhn 1950) and Leduc poker (Southey et al. 2005), and
hand counts on 3-card Kuhn stated in the tests.
"""
from __future__ import annotations

import numpy as np
import pytest

from cfrviz.tree import GameTree
from cfrviz.catalog import compile_game
from cfrviz.tree.parts import Part, card_view, cards, checked_part, lines, part_nodes, part_of, parts, public_cards
from cfrviz.util.vocabulary import Player

GAMES = [("kuhn", {}), ("kuhn", {"cards": 5}), ("leduc", {}), ("leduc", {"suits": True})]


def _tree(game: str, params: dict[str, object]) -> GameTree:
    return compile_game(game, **params)


def _inside(tree: GameTree, part: Part) -> set[int]:
    return set(part_nodes(tree, part).tolist())


@pytest.mark.parametrize("game, params", GAMES)
def test_every_information_set_is_whole_in_its_players_part(game: str, params: dict[str, object]) -> None:
    tree = _tree(game, params)
    for i in range(tree.num_infosets):
        members = [int(n) for n in tree.nodes_of(i)]
        part = part_of(tree, members[0])
        assert part.by == (Player.FIRST if tree.infoset_player[i] == 0 else Player.SECOND)
        assert set(members) <= _inside(tree, part), tree.infosets[i].key
        # Each member names the same part, so a click anywhere in the set lands there.
        assert {part_of(tree, n) for n in members} == {part}


def test_issue_example_leduc_player_two_check() -> None:
    # Clicking "JQ k" (player 2 holds Q after player 1 checks) used to list "QQ k" and "KQ k",
    # neither of them drawn (the parts were by player 1's card). Now all three are in one part.
    leduc = compile_game("leduc")
    node = leduc.node_label.index("JQ k")
    part = part_of(leduc, node)
    assert part == Part(Player.SECOND, card="Q")
    labels = {leduc.node_label[n] for n in _inside(leduc, part)}
    assert {"JQ k", "QQ k", "KQ k"} <= labels
    assert part.label == "player 2 holds Q, round 1"


def test_kuhn_part_by_player_two_card_by_hand() -> None:
    # 3-card Kuhn: player 2 holds Q in the deals JQ and KQ. Each deal's subtree has 9 nodes
    # (deal, k, b, kk, kb, bf, bc, kbf, kbc); with the root that is 19 nodes.
    kuhn = compile_game("kuhn")
    assert cards(kuhn, Player.SECOND) == ("J", "Q", "K")
    nodes = _inside(kuhn, Part(Player.SECOND, card="Q"))
    assert len(nodes) == 19
    assert {kuhn.node_label[n][:2] for n in nodes if n > 0} == {"JQ", "KQ"}
    assert [p.card for p in parts(kuhn, Player.SECOND)] == ["J", "Q", "K"]      # no second round
    assert lines(kuhn, Player.SECOND, "Q") == () and public_cards(kuhn) == ()


@pytest.mark.parametrize("game, params", GAMES)
@pytest.mark.parametrize("by", [Player.FIRST, Player.SECOND])
def test_a_views_parts_split_each_round_once(game: str, params: dict[str, object], by: Player) -> None:
    # Round 1 parts share only the root; round-2 drill-downs share only the paths above their
    # public card. Every node below the root lies in a part of the view.
    tree = _tree(game, params)
    seen_round_one: set[int] = set()
    seen_round_two: set[int] = set()
    covered: set[int] = set()
    for part in parts(tree, by):
        nodes = _inside(tree, part)
        assert all(int(tree.parent[n]) in nodes for n in nodes if n > 0)      # a connected tree part
        covered |= nodes
        if part.line is None:
            assert not (seen_round_one & nodes) - {0}
            seen_round_one |= nodes
        else:
            below = {n for n in nodes if tree.actor[int(tree.parent[n])] == 2 and tree.parent[n] > 0}
            assert below, part
            subtree = {n for n in nodes if any(b in _ancestors(tree, n) for b in below)}
            assert not seen_round_two & subtree
            seen_round_two |= subtree
    assert covered == set(range(tree.num_nodes))


def _ancestors(tree: GameTree, node: int) -> set[int]:
    out = {node}
    while node > 0:
        node = int(tree.parent[node])
        out.add(node)
    return out


def test_leduc_round_two_drill_down_names_public_cards_as_the_sets_do() -> None:
    # With suits dealt, information sets ignore them (Leduc's rules), so the public card of a
    # drill-down is the rank: "K" covers the outcomes Ks and Kh, and player 2's round-2 sets
    # with Q after kk and a K on board (key "Q|K kk/") are whole in it.
    leduc = compile_game("leduc", suits=True)
    assert public_cards(leduc) == ("J", "Q", "K")
    assert set(lines(leduc, Player.SECOND, "Q")) == {"kk", "bc", "kbc", "brc", "kbrc"}
    part = Part(Player.SECOND, card="Q", line="kk", public="K")
    nodes = _inside(leduc, part)
    boards = {leduc.edge_label[n] for n in nodes if leduc.parent[n] > 0 and leduc.actor[int(leduc.parent[n])] == 2}
    assert boards == {"Ks", "Kh"}
    for i, record in enumerate(leduc.infosets):
        if record.key.startswith("Q|K kk/") and record.player == 1:
            assert set(leduc.nodes_of(i).tolist()) <= nodes
    some = next(n for n in sorted(nodes) if leduc.infoset[n] >= 0 and leduc.infosets[leduc.infoset[n]].public)
    assert part_of(leduc, some, Player.SECOND) == part
    assert part.label == "player 2 holds Q, after kk with public card K"


def test_leduc_player_one_drill_down_holds_only_the_chosen_card_line_and_public_card() -> None:
    # Reference: Leduc's rules (Southey et al. 2005); keys are "private|public round1/round2", and
    # the round-1 lines that reach the public card are kk, bc, kbc, brc and kbrc.
    leduc = compile_game("leduc")
    assert set(lines(leduc, Player.FIRST, "Q")) == {"kk", "bc", "kbc", "brc", "kbrc"}
    part = Part(Player.FIRST, card="Q", line="kbc", public="K")
    nodes = part_nodes(leduc, part).tolist()
    assert all(int(leduc.parent[n]) in nodes for n in nodes if n != 0)      # a connected part, from the root
    for n in nodes:
        if n > 0:
            assert leduc.node_label[n][0] == "Q"
        if "|" in leduc.node_label[n]:
            assert leduc.node_label[n][3:].startswith("K kbc/")
    assert part_of(leduc, nodes[-1], Player.FIRST) == part
    with pytest.raises(ValueError, match="cannot hold"):
        part_nodes(leduc, Part(Player.FIRST, card="A"))


def test_games_without_private_cards_fall_back_to_subtrees() -> None:
    rps = compile_game("rps")
    assert not card_view(rps)
    assert parts(rps, "subtree") == [Part("subtree", root=0)]
    assert part_of(rps, 5) == Part("subtree", root=0)
    assert checked_part(rps, Player.SECOND, "Q", node=4) == Part("subtree", root=0)
    with pytest.raises(ValueError, match="no private cards"):
        parts(rps, Player.FIRST)


def test_subtree_view_splits_a_big_tree_by_leaves() -> None:
    # The general view: subtrees of at most max_leaves terminals, every terminal in exactly one.
    leduc = compile_game("leduc")
    pieces = parts(leduc, "subtree", max_leaves=30)
    assert len(pieces) > 1
    terminals = np.flatnonzero(leduc.actor == 3)
    owners = np.zeros(leduc.num_nodes, dtype=int)
    for piece in pieces:
        nodes = part_nodes(leduc, piece)
        inside = nodes[leduc.actor[nodes] == 3]
        assert len(inside) <= 30
        owners[inside] += 1
    assert np.all(owners[terminals] == 1)
    node = int(terminals[100])
    assert node in part_nodes(leduc, part_of(leduc, node, "subtree"))


def test_checked_part_repairs_stale_values_and_follows_the_node() -> None:
    leduc = compile_game("leduc")
    assert checked_part(leduc, Player.SECOND, "A", "zz", "Z") == Part(Player.SECOND, card="J")
    assert checked_part(leduc, Player.SECOND, "Q", "kbc", "Z") == Part(Player.SECOND, card="Q", line="kbc", public="J")
    node = leduc.node_label.index("KQ k")
    assert checked_part(leduc, Player.SECOND, "J", None, None, node=node) == Part(Player.SECOND, card="Q")
    assert checked_part(leduc, "nobody", None) == Part(Player.FIRST, card="J")
    assert checked_part(leduc, "whole") == Part("whole")
    with pytest.raises(ValueError, match="cannot hold"):
        part_nodes(leduc, Part(Player.SECOND, card="A"))
    with pytest.raises(ValueError, match="not in the tree"):
        part_of(leduc, leduc.num_nodes)
