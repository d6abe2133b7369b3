"""Figures that tell their story: legible Leduc walkthroughs, simplex corners, self-play that moves.

References: hand counts of Leduc's betting rounds (at most 2 bets or raises per round: 9 betting
lines, 17 histories per round under one deal or public card); Hart and Mas-Colell 2000 for regret
matching (expected-value self-play from an equilibrium stays there).
"""
from __future__ import annotations


import numpy as np

from cfrviz.catalog import compile_game
from cfrviz.figures.walkthrough import step_parts
from cfrviz.util.vocabulary import Player
from cfrviz.solvers.matrix import regret_matching_path
from cfrviz.teaching.walkthrough import solver_state, trace_iteration

RPS = [[0, -1, 1], [1, 0, -1], [-1, 1, 0]]


def test_a_leduc_walkthrough_draws_only_the_round_being_walked():
    tree = compile_game("leduc")
    regret, strategy_sum, prediction, _ = solver_state(tree, "chance", "simultaneous", 0, 1)
    trace = trace_iteration(tree, regret, strategy_sum, prediction=prediction, algorithm="chance",
                            updates="simultaneous", iteration=1, deal="QK", rng=np.random.default_rng([0, 1]))
    parts, part_of_step = step_parts(trace)
    for step in trace.steps:
        nodes = list(parts[part_of_step[step.index]])
        assert step.node in nodes and 0 in nodes
        # One round of betting: its 17 histories at most, the path above it and the chance nodes below.
        assert len(nodes) <= 25, (step.index, len(nodes))
        # Never two rounds at once: no drawn node has a drawn chance node strictly between it and
        # the drawn round's start.
        below_chance = [n for n in nodes if n != 0 and int(tree.actor[int(tree.parent[n])]) == Player.CHANCE]
        assert len(below_chance) <= 3


def test_kuhn_walkthroughs_stay_whole():
    tree = compile_game("kuhn")
    regret, strategy_sum, prediction, _ = solver_state(tree, "cfr", "simultaneous", 0, 1)
    trace = trace_iteration(tree, regret, strategy_sum, prediction=prediction, algorithm="cfr",
                            updates="simultaneous", iteration=1, deal=None, rng=np.random.default_rng([0, 1]))
    parts, part_of_step = step_parts(trace)
    assert parts == [tuple(range(tree.num_nodes))] and set(part_of_step) == {0}


def test_expected_value_self_play_moves_only_when_started_away_from_equilibrium():
    # Uniform play is rock-paper-scissors' equilibrium: every regret stays zero, nothing moves.
    still = regret_matching_path(RPS, 200)
    assert np.allclose(still.current_row, 1 / 3)
    # Leaning on rock (player 1) and paper (player 2), the current strategies circle while the
    # averages approach 1/3 each.
    moving = regret_matching_path(RPS, 20_000, start_regret=((1, 0, 0), (0, 1, 0)), every=10)
    assert np.ptp(moving.current_row[-500:], axis=0).min() > 0.3
    assert np.abs(moving.average_row[-1] - 1 / 3).max() < 0.02
