"""The walkthrough's chance sampling draws what the solver's kernel draws (same generator, same iteration).

Reference: `cfrviz.solvers.sampling.ChanceSampling` itself. Its kernel draws one uniform number per
chance level and traversal, from the solver's `numpy.random.Generator`, so on Leduc every betting
line of a traversal sees one public card. A walkthrough handed the solver's generator at iteration t
must pick the same deal and board: then applying its updates to the state after t - 1 iterations
gives the kernel's state after t, and both generators end in the same state (the same draws used).
"""
from __future__ import annotations

import copy

import numpy as np
import pytest

from cfrviz.catalog import compile_game
from cfrviz.solvers.sampling import ChanceSampling
from cfrviz.teaching import walkthrough
from cfrviz.teaching.walkthrough import trace_iteration


def sampled_children(trace):
    """Per pass (split at the finish steps): the labels each chance step picked, in traversal order.
    A chance step's next step is the child it sampled (a depth-first walk)."""
    passes, current = [], []
    for step, after in zip(trace.steps, trace.steps[1:] + (None,)):
        if step.kind == "finish":
            passes.append(current)
            current = []
        elif step.kind == "chance":
            current.append((step.node, trace.tree.edge_label[after.node]))
    return passes


@pytest.mark.parametrize("updates", ["simultaneous", "alternating"])
@pytest.mark.parametrize("seed, t", [(0, 1), (3, 7), (11, 25)])
def test_leduc_walkthrough_replays_the_kernels_deal_and_board(updates, seed, t):
    tree = compile_game("leduc")
    solver = ChanceSampling(tree, updates=updates, seed=seed)
    if t > 1:
        solver.iterate(t - 1)
    rng = copy.deepcopy(solver.rng)
    trace = trace_iteration(tree, solver.cumulative_regret.copy(), solver.strategy_sum.copy(), algorithm="chance",
                            updates=updates, iteration=t, rng=rng)
    solver.iterate(1)
    np.testing.assert_allclose(trace.cumulative_regret_after, solver.cumulative_regret, rtol=0, atol=1e-12)
    np.testing.assert_allclose(trace.strategy_sum_after, solver.strategy_sum, rtol=0, atol=1e-12)
    assert rng.bit_generator.state == solver.rng.bit_generator.state
    # One board per traversal: every chance step below the root of one pass deals the same card.
    passes = sampled_children(trace)
    assert len(passes) == (1 if updates == "simultaneous" else 2)
    for picks in passes:
        boards = {label for node, label in picks if node != 0}
        assert len(boards) == 1, boards


def test_forced_deal_draws_the_board_as_the_forced_kernel_does():
    # The kernel with a forced deal skips the root's draw and draws the public card's level.
    tree = compile_game("leduc")
    solver = ChanceSampling(tree, updates="simultaneous", seed=5)
    solver.iterate(4)
    rng = copy.deepcopy(solver.rng)
    trace = trace_iteration(tree, solver.cumulative_regret.copy(), solver.strategy_sum.copy(), algorithm="chance",
                            updates="simultaneous", iteration=5, deal="KQ", rng=rng)
    solver.force("KQ")
    solver.iterate(1)
    np.testing.assert_allclose(trace.cumulative_regret_after, solver.cumulative_regret, rtol=0, atol=1e-12)
    assert rng.bit_generator.state == solver.rng.bit_generator.state
    assert trace.deal == "KQ"


@pytest.mark.parametrize("algorithm", ["chance", "cfr"])
def test_solver_state_positions_the_generator_at_the_iteration(algorithm):
    # solver_state gives the arrays and, for chance sampling, the generator the solver holds before t.
    tree = compile_game("kuhn")
    state = walkthrough.solver_state(tree, algorithm, "alternating", 9, 6)
    solver = ChanceSampling(tree, updates="alternating", seed=9)
    solver.iterate(5)
    if algorithm == "chance":
        np.testing.assert_array_equal(state.cumulative_regret, solver.cumulative_regret)
        assert state.rng is not None and state.rng.bit_generator.state == solver.rng.bit_generator.state
    else:
        assert state.rng is None
