"""Best response, exploitability and equilibria against published numbers and hand computations."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

import cfrviz
from cfrviz.analysis import (KUHN_VALUE, best_response, closest_alpha, distance_to_equilibrium,
                             expected_value, exploitability, exploitability_many, exploitability_pairs,
                             history_values,
                             kuhn_equilibrium, matrix_equilibrium, matrix_strategy, nash_conv)
from cfrviz.tree import build_tree
from cfrviz.catalog import compile_game
from cfrviz.games.efg import read_efg
from tests.support.efg_shapes import random_perfect_recall_efg


def first_action(tree):
    strategy = np.zeros(tree.legal.shape)
    strategy[:, 0] = 1.0
    return strategy


def random_profile(tree, seed):
    rng = np.random.default_rng(seed)
    weights = rng.random(tree.legal.shape) * tree.legal
    return weights / weights.sum(axis=1, keepdims=True)


def test_kuhn_uniform_nash_conv_is_eleven_twelfths():
    # OpenSpiel's exploitability tests: the uniform policy on Kuhn poker has NashConv 11/12.
    tree = compile_game("kuhn")
    assert nash_conv(tree, tree.uniform_strategy()) == pytest.approx(11 / 12, abs=1e-12)
    assert exploitability(tree, tree.uniform_strategy()) == pytest.approx(11 / 24, abs=1e-12)


def test_kuhn_always_first_action_nash_conv_is_two():
    # OpenSpiel's exploitability tests: always taking the first action (check / fold) has NashConv 2.
    tree = compile_game("kuhn")
    assert nash_conv(tree, first_action(tree)) == pytest.approx(2.0, abs=1e-12)


@pytest.mark.parametrize("suits", [False, True])
def test_leduc_uniform_exploitability(suits):
    # OpenSpiel's Leduc tests: the uniform policy has NashConv 4.7472222 (exploitability 2.3736111).
    # The merged-rank tree and the explicit-suit tree must agree.
    tree = compile_game("leduc") if not suits else build_tree(cfrviz.load_game("leduc", suits=True))
    assert nash_conv(tree, tree.uniform_strategy()) == pytest.approx(4.7472222, abs=1e-6)
    assert exploitability(tree, tree.uniform_strategy()) == pytest.approx(2.3736111, abs=1e-6)


@pytest.mark.parametrize("alpha", [0.0, 0.1, 1 / 6, 0.25, 1 / 3])
def test_every_kuhn_alpha_equilibrium_is_unexploitable_with_value_minus_one_eighteenth(alpha):
    # Kuhn (1950): each member of the α-family is a Nash equilibrium of value -1/18 for player 1.
    tree = compile_game("kuhn")
    strategy = kuhn_equilibrium(alpha)
    assert exploitability(tree, strategy) == pytest.approx(0.0, abs=1e-12)
    assert expected_value(tree, strategy) == pytest.approx(KUHN_VALUE, abs=1e-12)
    assert closest_alpha(strategy) == pytest.approx(alpha, abs=1e-12)
    assert distance_to_equilibrium(strategy) == pytest.approx(0.0, abs=1e-12)


def test_kuhn_equilibrium_probabilities_by_key():
    # Kuhn's family (Kuhn 1950), at α = 0.2: J bets 0.2, K bets 0.6, Q calls 0.2 + 1/3.
    tree = compile_game("kuhn")
    strategy = kuhn_equilibrium(0.2)
    bet_or_call = {r.key: strategy[i, 1] for i, r in enumerate(tree.infosets)}
    assert bet_or_call["J"] == pytest.approx(0.2)
    assert bet_or_call["K"] == pytest.approx(0.6)
    assert bet_or_call["Q kb"] == pytest.approx(0.2 + 1 / 3)
    assert bet_or_call["J k"] == pytest.approx(1 / 3) and bet_or_call["Q b"] == pytest.approx(1 / 3)
    assert (bet_or_call["Q"], bet_or_call["J kb"], bet_or_call["J b"]) == (0.0, 0.0, 0.0)
    assert (bet_or_call["K kb"], bet_or_call["K k"], bet_or_call["K b"]) == (1.0, 1.0, 1.0)
    np.testing.assert_allclose(strategy.sum(axis=1), 1.0)


def test_closest_alpha_of_a_perturbed_equilibrium_by_hand():
    # Start at α = 0.2 and raise J's bet to 0.25. The max deviation over α is
    # max(|0.25 - α|, |0.6 - 3α|, |0.5333 - (α + 1/3)|); on [0.2, 0.25] the first two cross where
    # 0.25 - α = 3α - 0.6, i.e. α = 0.2125, at distance 0.0375.
    tree = compile_game("kuhn")
    strategy = kuhn_equilibrium(0.2).copy()
    strategy[tree.infoset_index("J")] = [0.75, 0.25]
    assert closest_alpha(strategy) == pytest.approx(0.2125, abs=1e-12)
    assert distance_to_equilibrium(strategy) == pytest.approx(0.0375, abs=1e-12)


def test_uniform_is_half_away_from_every_kuhn_equilibrium():
    # Q never bets at equilibrium and uniform bets 0.5 there; no α-dependent term exceeds 0.5.
    assert distance_to_equilibrium(compile_game("kuhn").uniform_strategy()) == pytest.approx(0.5)


def test_kuhn_equilibrium_rejects_alpha_outside_the_family():
    # Kuhn (1950): the family exists for α in [0, 1/3] and for the 3-card game only.
    with pytest.raises(ValueError, match="between 0 and 1/3"):
        kuhn_equilibrium(0.5)
    with pytest.raises(ValueError, match="3-card Kuhn"):
        closest_alpha(compile_game("kuhn", cards=4).uniform_strategy(), compile_game("kuhn", cards=4))


def test_best_response_to_uniform_kuhn_by_hand():
    # Player 1 against a uniform player 2, by hand: with J, bet (-1/2) beats check (-1); with Q,
    # bet (1/2) beats check (0: call after check-bet breaks even); with K both give 3/2 and the
    # first action (check) is kept. Value (-1/2 + 1/2 + 3/2) / 3 = 1/2. NashConv 11/12 then
    # leaves 5/12 for player 2.
    tree = compile_game("kuhn")
    uniform = tree.uniform_strategy()
    first = best_response(tree, uniform, 0)
    assert first.value == pytest.approx(0.5, abs=1e-12)
    names = {r.key: first.action_names[i] for i, r in enumerate(tree.infosets)}
    assert (names["J"], names["Q"], names["K"], names["Q kb"]) == ("bet", "bet", "check", "call")
    # Counterfactual action values at "J": chance 1/3 of holding J times the value above.
    j = tree.infoset_index("J")
    np.testing.assert_allclose(first.action_value[j], [-1 / 3, -1 / 6], atol=1e-12)
    # Gain at "J": -1/6 - (uniform mix (-1/3 - 1/6) / 2 = -1/4) = 1/12.
    assert first.gain[j] == pytest.approx(1 / 12, abs=1e-12)
    assert np.all(first.best_action[tree.infoset_player == 1] == -1)
    second = best_response(tree, uniform, 1)
    assert second.value == pytest.approx(5 / 12, abs=1e-12)
    # Playing the pure best response reaches exactly the best-response value.
    assert expected_value(tree, first.strategy) == pytest.approx(first.value, abs=1e-12)
    assert -expected_value(tree, second.strategy) == pytest.approx(second.value, abs=1e-12)


@pytest.mark.parametrize("game, params", [("kuhn", {}), ("kuhn", {"cards": 5}), ("leduc", {}), ("rps", {})])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_best_responses_bound_the_value_and_sum_to_nash_conv(game, params, seed):
    # Definition: a best response does at least as well as the profile's own play, and
    # NashConv is the sum of the two best-response values (zero-sum).
    tree = compile_game(game, **params)
    profile = random_profile(tree, seed)
    first, second = best_response(tree, profile, 0), best_response(tree, profile, 1)
    value = expected_value(tree, profile)
    assert first.value >= value - 1e-12 and second.value >= -value - 1e-12
    assert first.value + second.value == pytest.approx(nash_conv(tree, profile), abs=1e-12)
    assert np.all(first.gain >= -1e-12) and np.all(second.gain >= -1e-12)


def test_exploitability_many_matches_one_at_a_time():
    # The batched kernel must give exactly what separate calls give.
    tree = compile_game("leduc")
    profiles = np.stack([random_profile(tree, s) for s in range(5)] + [tree.uniform_strategy()])
    batched = exploitability_many(tree, profiles)
    assert batched.shape == (6,)
    np.testing.assert_allclose(batched, [exploitability(tree, p) for p in profiles], atol=1e-12)
    assert batched[-1] == pytest.approx(2.3736111, abs=1e-6)


@pytest.mark.parametrize("game", ["kuhn", "leduc", "random efg"])
def test_exploitability_pairs_match_two_separate_calls(game):
    # Reference: the per-profile kernel (`exploitability_many`, itself checked against closed forms
    # above). The fused walk runs each profile's sums in the same order, so the numbers agree to 1e-12
    # (and in practice bit for bit), on average-like and current-like stacks of different profiles.
    tree = (build_tree(read_efg(random_perfect_recall_efg(3))) if game == "random efg"
            else compile_game(game))
    first = np.stack([random_profile(tree, s) for s in range(4)] + [tree.uniform_strategy(), first_action(tree)])
    second = np.stack([first_action(tree), tree.uniform_strategy()] + [random_profile(tree, 10 + s) for s in range(4)])
    average, current = exploitability_pairs(tree, first, second)
    np.testing.assert_allclose(average, exploitability_many(tree, first), rtol=0, atol=1e-12)
    np.testing.assert_allclose(current, exploitability_many(tree, second), rtol=0, atol=1e-12)
    with pytest.raises(ValueError, match="one shape"):
        exploitability_pairs(tree, first, second[:2])


def test_shape_errors_are_one_sentence():
    # Kuhn has I = 12 information sets of A = 2 actions; anything else is the caller's mistake.
    tree = compile_game("kuhn")
    with pytest.raises(ValueError, match=r"shape \[I, A\]"):
        exploitability(tree, np.zeros((3, 2)))
    with pytest.raises(ValueError, match=r"\[T, I, A\]"):
        exploitability_many(tree, tree.uniform_strategy())


def test_history_values_uniform_kuhn_by_hand():
    tree = compile_game("kuhn")
    values = history_values(tree, tree.uniform_strategy())
    # Root, by hand: for a deal where player 1's card wins (s = 1) or loses (s = -1), uniform play
    # gives kk 1/4 * s, kbf 1/8 * -1, kbc 1/8 * 2s, bf 1/4 * 1, bc 1/4 * 2s = s + 1/8; s averages 0.
    assert values.value[0] == pytest.approx(1 / 8, abs=1e-12)
    assert expected_value(tree, tree.uniform_strategy()) == pytest.approx(1 / 8, abs=1e-12)
    node = tree.node_label.index("QK kb")
    # Reached by the deal (1/6), player 1 checking (1/2) and player 2 betting (1/2).
    np.testing.assert_allclose(values.reach[node], [1 / 2, 1 / 2, 1 / 6], atol=1e-12)
    # Player 1 holds Q against K: fold loses 1, call loses 2; the node is worth -3/2.
    np.testing.assert_allclose(values.action_value[node], [-1.0, -2.0], atol=1e-12)
    assert values.value[node] == pytest.approx(-1.5, abs=1e-12)
    # Counterfactual: weighted by player 2's reach times chance, 1/12.
    np.testing.assert_allclose(values.counterfactual_action_value[node], [-1 / 12, -2 / 12], atol=1e-12)
    # Player 2 facing a bet with K: fold gives player 2 -1, call +2 (values are the actor's).
    node = tree.node_label.index("QK b")
    np.testing.assert_allclose(values.action_value[node], [-1.0, 2.0], atol=1e-12)
    assert values.counterfactual_reach[node] == pytest.approx(1 / 2 * 1 / 6, abs=1e-12)


def test_rock_paper_scissors_equilibrium_is_uniform_with_value_zero():
    # Symmetric game: the unique equilibrium is (1/3, 1/3, 1/3) for both, value 0.
    row, column, value = matrix_equilibrium([[0, -1, 1], [1, 0, -1], [-1, 1, 0]])
    np.testing.assert_allclose(row, [1 / 3] * 3, atol=1e-12)
    np.testing.assert_allclose(column, [1 / 3] * 3, atol=1e-12)
    assert value == pytest.approx(0.0, abs=1e-12)
    tree = compile_game("rps")
    assert exploitability(tree, matrix_strategy(tree, row, column)) == pytest.approx(0.0, abs=1e-12)


def test_matching_pennies_equilibrium():
    # Matching pennies: each side mixes 1/2, 1/2 and the value is 0.
    row, column, value = matrix_equilibrium([[1, -1], [-1, 1]])
    np.testing.assert_allclose(row, [0.5, 0.5], atol=1e-12)
    np.testing.assert_allclose(column, [0.5, 0.5], atol=1e-12)
    assert value == pytest.approx(0.0, abs=1e-12)


def test_weighted_rock_paper_scissors_by_hand():
    # Rock beats scissors for 2 instead of 1: A = [[0, -1, 2], [1, 0, -1], [-1, 1, 0]].
    # Column (r, p, s) makes the rows indifferent: -p + 2s = r - s = -r + p = v, so r = v + s,
    # p = 2v + s, s = 3v, r = 4v, p = 5v; r + p + s = 12v = 1 gives v = 1/12 and
    # (1/3, 5/12, 1/4). The row (R, P, S) makes the columns indifferent: P - S = -R + S = 2R - P = v,
    # so S = v + R, P = 2v + R, R = 3v: (1/4, 5/12, 1/3).
    payoffs = [[0, -1, 2], [1, 0, -1], [-1, 1, 0]]
    row, column, value = matrix_equilibrium(payoffs)
    np.testing.assert_allclose(row, [1 / 4, 5 / 12, 1 / 3], atol=1e-12)
    np.testing.assert_allclose(column, [1 / 3, 5 / 12, 1 / 4], atol=1e-12)
    assert value == pytest.approx(1 / 12, abs=1e-12)
    tree = compile_game(payoffs)
    strategy = matrix_strategy(tree, row, column)
    assert expected_value(tree, strategy) == pytest.approx(1 / 12, abs=1e-12)
    assert exploitability(tree, strategy) == pytest.approx(0.0, abs=1e-12)


def test_two_by_two_with_a_saddle_point():
    # [[3, 1], [4, 2]]: row 2 dominates row 1, and against it column 2 (2 < 4) is best for the
    # minimiser. Maximin = minimax = 2 at (row 2, column 2).
    row, column, value = matrix_equilibrium([[3, 1], [4, 2]])
    np.testing.assert_allclose(row, [0.0, 1.0], atol=1e-12)
    np.testing.assert_allclose(column, [0.0, 1.0], atol=1e-12)
    assert value == pytest.approx(2.0)


@settings(max_examples=60, deadline=None)
@given(arrays(np.float64, st.tuples(st.integers(2, 4), st.integers(2, 4)),
              elements=st.integers(-5, 5).map(float)))
def test_matrix_equilibrium_satisfies_the_minimax_theorem(payoffs):
    # von Neumann's minimax theorem: at an equilibrium, the row strategy guarantees at least the
    # value against every column and the column strategy concedes at most the value to every row.
    row, column, value = matrix_equilibrium(payoffs)
    assert row.min() >= 0 and column.min() >= 0
    assert row.sum() == pytest.approx(1.0) and column.sum() == pytest.approx(1.0)
    assert np.min(row @ payoffs) >= value - 1e-8
    assert np.max(payoffs @ column) <= value + 1e-8


def test_matrix_equilibrium_rejects_bad_input():
    # No equilibrium exists for a payoff that is not a number, nor for a matrix that is not 2-D.
    with pytest.raises(ValueError, match="finite"):
        matrix_equilibrium([[0.0, float("nan")], [1.0, 0.0]])
    with pytest.raises(ValueError, match="rows and columns"):
        matrix_equilibrium([1.0, 2.0])
