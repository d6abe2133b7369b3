"""What a decision costs against the bot's strategy (EV loss), and the table's bets and pot."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from cfrviz.analysis.equilibria import kuhn_equilibrium
from cfrviz.catalog import compile_game
from cfrviz.util.vocabulary import Player
from cfrviz.teaching import play


def test_kuhn_equilibrium_losses_by_hand():
    # Kuhn (1950), alpha = 1/3: player 1 bets J with 1/3, never Q, K always. Player 2 holding J
    # and facing a bet therefore always faces K: calling loses 2 chips, folding 1, and the
    # equilibrium folds, so calling costs exactly 1 chip. Holding K facing a bet, the opponent
    # holds J (it bet) and calling wins 2 against folding's -1: folding costs 3.
    tree = compile_game("kuhn")
    values = play.set_values(tree, kuhn_equilibrium(1 / 3, tree))
    jb, kb = tree.infoset_index("J b"), tree.infoset_index("K b")
    assert values.action_value[jb].tolist() == pytest.approx([-1.0, -2.0])
    assert values.loss[jb].tolist() == pytest.approx([0.0, 1.0])
    assert values.loss[kb].tolist() == pytest.approx([3.0, 0.0])
    # Counterfactual reach of "J b": chance 1/6 (the deal KJ) times player 1 betting K (1).
    assert values.reach[jb] == pytest.approx(1 / 6)


@settings(max_examples=20, deadline=None)
@given(st.floats(0.0, 1 / 3))
def test_at_any_kuhn_equilibrium_no_action_beats_the_strategy(alpha):
    # At a Nash equilibrium (Kuhn's alpha family) the strategy's mix is a best response at every
    # reached set: every action's loss is >= 0 and the actions it plays lose nothing.
    tree = compile_game("kuhn")
    strategy = kuhn_equilibrium(alpha, tree)
    values = play.set_values(tree, strategy)
    reached = values.reach > 1e-12
    assert (values.loss[reached] >= -1e-9).all()
    played = (strategy > 1e-9) & reached[:, None]
    assert np.abs(values.loss[played]).max() < 1e-9


def test_a_decision_records_its_loss_and_the_iteration():
    # Same hand computation as above: the human as player 2 holds J and faces a bet (deal KJ,
    # player 1 bets K with probability 1 at alpha = 1/3); calling costs 1 chip.
    tree = compile_game("kuhn")
    strategy = kuhn_equilibrium(1 / 3, tree)
    hand = play.start_hand(tree, strategy, seat=1, seed=0, number=0, deal="KJ")
    assert play.information_set(tree, hand) == "J b"
    done = play.act(tree, strategy, hand, "call", iteration=40)
    (decision,) = done.decisions
    assert (decision.information_set, decision.actions[decision.chosen], decision.iteration) == ("J b", "call", 40)
    assert decision.loss == pytest.approx(1.0) and decision.set_value == pytest.approx(-1.0)
    assert play.session_loss([decision.loss, 0.25]) == (2, pytest.approx(1.25))


def test_a_uniform_strategy_loss_against_its_own_mix():
    # Hand computation, uniform profile, player 1 holding J at the root: checking, player 2
    # (Q or K) checks or bets with 1/2 each; after check-bet player 1 folds or calls with 1/2:
    # check = 1/2 (-1) + 1/2 (1/2 (-1) + 1/2 (-2)) = -5/4; bet = 1/2 (+1) + 1/2 (-2) = -1/2.
    # The uniform mix is worth -7/8, so checking loses 3/8 and betting gains 3/8 (a loss of -3/8).
    tree = compile_game("kuhn")
    values = play.set_values(tree, tree.uniform_strategy())
    j = tree.infoset_index("J")
    assert values.action_value[j].tolist() == pytest.approx([-1.25, -0.5])
    assert values.loss[j].tolist() == pytest.approx([0.375, -0.375])


def _paths_to_terminals(tree):
    for node in np.flatnonzero(tree.actor == Player.TERMINAL):
        path = [int(node)]
        while path[-1] > 0:
            path.append(int(tree.parent[path[-1]]))
        yield tuple(reversed(path))


@pytest.mark.parametrize("game", ["kuhn", "kuhn5", "leduc"])
def test_bets_and_pot_agree_with_every_payoff(game):
    # The rules (cfrviz.games): a player who folds loses what they put in; at showdown the loser
    # loses what they put in (both have put in the same), and a split pays nothing.
    tree = compile_game(game)
    for path in _paths_to_terminals(tree):
        steps = play.steps(tree, play.Hand(0, 0, 0, path))
        last = steps[-1]
        assert last.to_act == Player.TERMINAL and last.pot == sum(last.bets)
        payoff = float(tree.payoff[path[-1]])
        if last.action == "fold":
            assert payoff == (-last.bets[0] if last.actor == 0 else last.bets[1])
        else:
            assert last.bets[0] == last.bets[1] and abs(payoff) in (0.0, last.bets[0])


def test_leduc_bets_double_in_round_two():
    # Leduc (Southey et al. 2005): antes 1, bet 2 in round 1 and 4 in round 2, raises on top.
    tree = compile_game("leduc")
    node = next(n for n in range(tree.num_nodes) if tree.node_label[n] == "QK|J bc/brc")
    path = [node]
    while path[-1] > 0:
        path.append(int(tree.parent[path[-1]]))
    steps = play.steps(tree, play.Hand(0, 0, 0, tuple(reversed(path))))
    assert [(s.action, s.bets, s.pot) for s in steps if s.actor != Player.CHANCE] == [
        ("bet", (3.0, 1.0), 4.0), ("call", (3.0, 3.0), 6.0),
        ("bet", (7.0, 3.0), 10.0), ("raise", (7.0, 11.0), 18.0), ("call", (11.0, 11.0), 22.0)]


def test_games_without_chips_show_turns_only():
    tree = compile_game("rps")
    hand = play.start_hand(tree, tree.uniform_strategy(), seat=0, seed=1, number=0)
    assert play.stakes(tree) is None
    assert all(s.bets is None and s.pot is None for s in play.steps(tree, hand))
