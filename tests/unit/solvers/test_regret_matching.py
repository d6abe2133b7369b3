"""Regret matching: the shared rule (property tests) and matrix games.

References are named next to each test: a published regret-matching tutorial's output, hand computations of
expected payoffs and of equilibria, and the defining properties of regret matching
(Hart and Mas-Colell 2000).
"""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from cfrviz.solvers import solver_class
from cfrviz.solvers.base import regret_matching
from cfrviz.solvers.matrix import (TUTORIAL_OPPONENT, MatrixRegretMatching, matrix_payoffs,
                                            regret_matching_path)
from cfrviz.catalog import compile_game

RPS = [[0, -1, 1], [1, 0, -1], [-1, 1, 0]]
# Weighted rock-paper-scissors: rock beating scissors pays 2 (and losing that way costs 2).
WEIGHTED_RPS = [[0, -1, 2], [1, 0, -1], [-2, 1, 0]]
# Its equilibrium, by hand. The matrix is skew-symmetric, so the value is 0 and both players
# use the same strategy y with A y = 0:  -y_P + 2 y_S = 0,  y_R - y_S = 0,  -2 y_R + y_P = 0,
# so y_R = y_S and y_P = 2 y_S: y = (1/4, 1/2, 1/4). Full support with a rank-2 system of
# three equations makes it the only one.
WEIGHTED_RPS_EQUILIBRIUM = [0.25, 0.5, 0.25]


# ---------------------------------------------------------------------------------------------
# The rule itself, in cfrviz.solvers.base
# ---------------------------------------------------------------------------------------------

@st.composite
def regrets_and_legal(draw):
    sets = draw(st.integers(1, 6))
    width = draw(st.integers(1, 5))
    regret = draw(arrays(np.float64, (sets, width),
                         elements=st.floats(-1e6, 1e6, allow_nan=False, allow_subnormal=False)))
    legal = draw(arrays(np.bool_, (sets, width)))
    legal[:, 0] = True  # every information set has at least one legal action
    return regret, legal


@settings(max_examples=300, deadline=None)
@given(regrets_and_legal())
def test_regret_matching_is_a_distribution_over_legal_actions(case):
    # Definition (Hart and Mas-Colell 2000): probabilities proportional to positive regret.
    regret, legal = case
    strategy = regret_matching(regret, legal)
    assert np.all(strategy >= 0.0)
    np.testing.assert_allclose(strategy.sum(axis=1), 1.0)
    assert np.all(strategy[~legal] == 0.0)
    positive = np.where(legal, np.maximum(regret, 0.0), 0.0)
    for i in range(len(regret)):
        if positive[i].sum() > 0:
            np.testing.assert_allclose(strategy[i], positive[i] / positive[i].sum())
        else:
            # No positive regret: uniform over the legal actions.
            np.testing.assert_allclose(strategy[i], legal[i] / legal[i].sum())


def test_regret_matching_hand_example():
    # Hand computation: regrets (2, -1, 6) give (2, 0, 6) / 8; (-1, -2) gives uniform.
    legal = np.array([[True, True, True], [True, True, False]])
    strategy = regret_matching(np.array([[2.0, -1.0, 6.0], [-1.0, -2.0, 5.0]]), legal)
    np.testing.assert_allclose(strategy, [[0.25, 0.0, 0.75], [0.5, 0.5, 0.0]])


# ---------------------------------------------------------------------------------------------
# Matrix games
# ---------------------------------------------------------------------------------------------

def test_expected_update_by_hand_against_seed_opponent():
    # Hand computation. Against (0.4, 0.3, 0.3): EV(rock) = -0.3 + 0.3 = 0, EV(paper) =
    # 0.4 - 0.3 = 0.1, EV(scissors) = -0.4 + 0.3 = -0.1 (Neller and Lanctot's RPS trainer plays
    # this opponent). Uniform play is worth 0, so iteration 1 adds regrets (0, 0.1, -0.1), and
    # iteration 2 plays paper only; its regrets add (0 - 0.1, 0, -0.1 - 0.1).
    path = regret_matching_path(RPS, 2, opponent=TUTORIAL_OPPONENT, sampled=False)
    np.testing.assert_allclose(path.current_row, [[1 / 3, 1 / 3, 1 / 3], [0, 1, 0]])
    np.testing.assert_allclose(path.regret_row, [[0, 0.1, -0.1], [-0.1, 0.1, -0.3]], atol=1e-12)
    np.testing.assert_allclose(path.value, [0.0, 0.1], atol=1e-12)
    np.testing.assert_allclose(path.average_row[-1], [1 / 6, 2 / 3, 1 / 6])
    np.testing.assert_allclose(path.current_column, [TUTORIAL_OPPONENT, TUTORIAL_OPPONENT])
    assert np.all(path.regret_column == 0)


def test_sampled_against_seed_opponent_learns_to_play_paper():
    # A published regret-matching tutorial prints [6.7e-07, 0.999999, 3.3e-07] after 1,000,000 sampled iterations
    # against (0.4, 0.3, 0.3); paper is the best response (EV 0.1, by hand above). After
    # 100,000 iterations the average is already almost always paper.
    path = regret_matching_path(RPS, 100_000, opponent=TUTORIAL_OPPONENT, sampled=True, seed=0, every=1000)
    assert path.average_row[-1, 1] > 0.99
    assert path.average_row[-1].argmax() == 1
    assert path.current_row[-1, 1] == 1.0


@pytest.mark.parametrize("updates", ["simultaneous", "alternating"])
def test_sampled_self_play_approaches_one_third_each(updates):
    # Self-play ends near (1/3, 1/3, 1/3): RPS's unique equilibrium, by symmetry.
    path = regret_matching_path(RPS, 100_000, sampled=True, seed=0, updates=updates, every=100)
    np.testing.assert_allclose(path.average_row[-1], [1 / 3] * 3, atol=0.01)
    np.testing.assert_allclose(path.average_column[-1], [1 / 3] * 3, atol=0.01)
    # The current strategy keeps moving: it is the average that converges.
    assert np.abs(path.current_row[-1] - 1 / 3).max() > 0.01


@pytest.mark.parametrize("sampled, updates, tolerance", [
    (False, "simultaneous", 0.005), (False, "alternating", 0.005), (True, "simultaneous", 0.01)])
def test_weighted_rps_converges_to_its_exact_equilibrium(sampled, updates, tolerance):
    # Reference: (1/4, 1/2, 1/4) for both players, computed by hand at WEIGHTED_RPS above.
    path = regret_matching_path(WEIGHTED_RPS, 100_000, sampled=sampled, seed=1, updates=updates, every=100)
    np.testing.assert_allclose(path.average_row[-1], WEIGHTED_RPS_EQUILIBRIUM, atol=tolerance)
    np.testing.assert_allclose(path.average_column[-1], WEIGHTED_RPS_EQUILIBRIUM, atol=tolerance)


def test_path_shapes_and_recording_interval():
    path = regret_matching_path([[1, -1], [-1, 1], [0, 0]], 1000, every=250, sampled=True, seed=2)
    np.testing.assert_array_equal(path.iterations, [250, 500, 750, 1000])
    assert path.current_row.shape == path.average_row.shape == (4, 3)
    assert path.current_column.shape == path.average_column.shape == (4, 2)
    assert path.current == (path.current_row, path.current_column)
    assert not path.average_row.flags.writeable


@pytest.mark.parametrize("kwargs, message", [
    ({"opponent": [0.5, 0.5]}, "needs 3 probabilities"),
    ({"opponent": [0.5, 0.3, 0.3]}, "sum to 1"),
    ({"opponent": [1.2, -0.1, -0.1]}, "0 or more"),
    ({"opponent": [np.nan, 0.5, 0.5]}, "finite"),
    ({"iterations": 0}, "iterations"),
    ({"updates": "both"}, "update scheme"),
    ({"seed": -2}, "seed"),
])
def test_path_rejects_bad_input_with_a_sentence(kwargs, message):
    arguments = {"payoffs": RPS, "iterations": 10, **kwargs}
    with pytest.raises(ValueError, match=message):
        regret_matching_path(**arguments)


@pytest.mark.parametrize("payoffs, message", [
    ([[0, 1], [1, np.inf]], "row 2, column 2 must be a finite number"),
    ([[1, 2, 3]], "at least 2 rows"),
    ([["a", "b"], ["c", "d"]], "table of numbers"),
])
def test_path_rejects_bad_payoffs(payoffs, message):
    with pytest.raises(ValueError, match=message):
        regret_matching_path(payoffs, 10)


# ---------------------------------------------------------------------------------------------
# The solver over a matrix GameTree
# ---------------------------------------------------------------------------------------------

def test_registry_and_payoffs_from_the_tree():
    assert solver_class("rm") is MatrixRegretMatching
    # Rock-paper-scissors as cfrviz.games builds it (Neller and Lanctot's example game).
    np.testing.assert_array_equal(matrix_payoffs(compile_game("rps")), RPS)


@pytest.mark.parametrize("kwargs", [
    {"updates": "simultaneous", "sampled": True},
    {"updates": "alternating", "sampled": False},
    {"opponent": TUTORIAL_OPPONENT, "sampled": True},
])
def test_solver_matches_the_path_function(kwargs):
    # Same kernel, same seed, so the same numbers, however the iterations are batched.
    tree = compile_game("rps")
    solver = MatrixRegretMatching(tree, seed=5, **kwargs)
    solver.iterate(300)
    solver.iterate(700)
    path_kwargs = {k: v for k, v in kwargs.items()}
    path = regret_matching_path(RPS, 1000, seed=5, **path_kwargs)
    row, column = tree.infoset_index("player 1"), tree.infoset_index("player 2")
    average = solver.average_strategy()
    np.testing.assert_allclose(average[row], path.average_row[-1])
    np.testing.assert_allclose(average[column], path.average_column[-1])
    np.testing.assert_allclose(solver.current_strategy[row], path.current_row[-1])
    np.testing.assert_allclose(solver.cumulative_regret[column], path.regret_column[-1])
    assert solver.last_value == pytest.approx(path.value[-1])
    assert solver.value_sum == pytest.approx(path.value.sum())
    assert solver.iterations == 1000


def test_solver_bookkeeping_by_hand():
    tree = compile_game("rps")
    fixed = MatrixRegretMatching(tree, opponent=TUTORIAL_OPPONENT, sampled=False)
    fixed.iterate(1)
    # Hand computation above: regrets (0, 0.1, -0.1) so the next strategy is paper; player 2
    # keeps its fixed strategy. One expected update reads the whole 13-history tree.
    np.testing.assert_allclose(fixed.next_strategy(), [[0, 1, 0], TUTORIAL_OPPONENT])
    assert fixed.nodes_touched == 13
    sampled = MatrixRegretMatching(tree, updates="simultaneous", sampled=True)
    sampled.iterate(10)
    # One sampled play enters 3 histories: the root, player 2's node, a terminal.
    assert sampled.nodes_touched == 30


def test_solver_rejects_other_games_and_bad_opponents():
    with pytest.raises(ValueError, match="matrix games"):
        MatrixRegretMatching(compile_game("kuhn"))
    with pytest.raises(ValueError, match="sum to 1"):
        MatrixRegretMatching(compile_game("rps"), opponent=[0.2, 0.2, 0.2])


def test_package_attribute_stays_the_function_after_the_submodule_loads():
    # cfrviz.solvers exports the function `regret_matching` (its __all__); loading the matrix
    # solver's submodule must not replace it with a module of that name.
    import cfrviz.solvers as solvers

    solver_class("rm")
    assert callable(solvers.regret_matching) and solvers.regret_matching is regret_matching
