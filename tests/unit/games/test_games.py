"""Game rules and compiled trees, against counts and payoffs worked out by hand."""
import numpy as np
import pytest

import cfrviz
from cfrviz.util.vocabulary import Player
from cfrviz.tree import build_tree
from cfrviz.catalog import compile_game


def test_kuhn_counts_match_the_issue():
    # 6 deals x (4 decisions, 5 terminals); 3 cards x 4 histories = 12 information sets.
    tree = compile_game("kuhn")
    assert (tree.num_infosets, tree.num_decision_nodes, tree.num_terminals) == (12, 24, 30)


def test_leduc_counts_with_suits_and_merged_ranks():
    explicit = build_tree(cfrviz.load_game("leduc", suits=True))
    assert (explicit.num_infosets, explicit.num_decision_nodes, explicit.num_terminals) == (288, 3780, 5520)
    merged = compile_game("leduc")
    assert merged.num_infosets == 288
    assert [r.key for r in merged.infosets] == [r.key for r in explicit.infosets]
    assert merged.num_decision_nodes < explicit.num_decision_nodes


@pytest.mark.parametrize("game, params", [("kuhn", {}), ("kuhn", {"cards": 5}), ("leduc", {}),
                                          ("leduc", {"suits": True}), ("rps", {})])
def test_chance_probabilities_sum_to_one_and_tree_is_breadth_first(game, params):
    tree = compile_game(game, **params)
    for n in np.flatnonzero(tree.actor == Player.CHANCE):
        kids = list(tree.children(n))
        assert sum(tree.chance_probability[k] for k in kids) == pytest.approx(1.0, abs=1e-12)
    assert np.all(tree.parent[1:] < np.arange(1, tree.num_nodes))
    assert np.all(np.diff(tree.depth) >= 0)
    # Every node of one information set has the same actor and the same legal actions.
    for i in range(tree.num_infosets):
        nodes = tree.nodes_of(i)
        assert set(tree.actor[nodes]) == {tree.infoset_player[i]}
        assert set(tree.num_children[nodes]) == {tree.num_actions[i]}


def test_kuhn_payoffs_by_hand():
    tree = compile_game("kuhn")
    payoff = {tree.node_label[n]: tree.payoff[n] for n in np.flatnonzero(tree.actor == Player.TERMINAL)}
    assert payoff["QK kk"] == -1      # showdown, K wins the antes
    assert payoff["KQ bc"] == 2       # bet, call: K wins 2
    assert payoff["JK bf"] == 1       # player 2 folds to a bet
    assert payoff["KJ kbf"] == -1     # player 1 folds after check-bet
    assert payoff["QJ kbc"] == 2


def test_leduc_payoffs_by_hand():
    tree = compile_game("leduc")
    payoff = {tree.node_label[n]: tree.payoff[n] for n in np.flatnonzero(tree.actor == Player.TERMINAL)}
    assert payoff["JQ|J kk/kk"] == 1          # J pairs the board
    assert payoff["JQ|K kk/kk"] == -1         # no pair: Q beats J
    assert payoff["KK|J kk/kk"] == 0          # equal ranks split
    assert payoff["QJ|K brc/brc"] == 1 + 4 + 8 # a raised pot in both rounds, paid by player 2
    assert payoff["QJ brf"] == -3             # player 1 bet 2 into the ante, then folds to a raise
    assert payoff["QK|J bc/kbf"] == -3


def test_loader_rejects_bad_input_with_sentences():
    with pytest.raises(ValueError, match="Unknown game"):
        cfrviz.load_game("chess")
    with pytest.raises(ValueError, match="3 to 13 cards"):
        cfrviz.load_game("kuhn", cards=2)
    with pytest.raises(ValueError, match="finite number"):
        cfrviz.load_game([[0, float("nan")], [1, 0]])
    with pytest.raises(ValueError, match="same number of columns"):
        cfrviz.load_game([[0, 1], [1]])


def test_networkx_links_information_sets():
    graph = compile_game("kuhn").to_networkx()
    links = [(a, b) for a, b, d in graph.edges(data=True) if d["kind"] == "information_set"]
    assert len(links) == 12  # 12 sets of 2 histories each
    for a, b in links:
        assert graph.nodes[a]["infoset_key"] == graph.nodes[b]["infoset_key"]


def test_matrix_action_names_stay_plain_text():
    # Names are drawn as labels in markdown captions and plotly text, which would interpret
    # markup such as links or <b> tags; only letters, digits, spaces, '-' and '.' are allowed.
    for bad in ("[x](http://example.org)", "<b>x</b>", "a*b", "x" * 25):
        with pytest.raises(ValueError, match="only letters, digits"):
            cfrviz.load_game([[0, 1], [1, 0]], row_names=(bad, "y"))
    from cfrviz.games.matrix import payoff_table
    with pytest.raises(ValueError, match="only letters, digits"):
        payoff_table([{"action": "<i>up</i>", "l": 1, "r": 0}, {"action": "down", "l": 0, "r": 1}], ["l", "r"])
    game = cfrviz.load_game([[0, 1], [1, 0]], row_names=("Ünïcode 1", "two-2.0"))
    assert game.row_names == ("Ünïcode 1", "two-2.0")
