"""Vanilla CFR's alternating passes skip the subtrees below an opponent or chance edge of probability
exactly 0, and keep every bit.

Reference: the same solver with pruning switched off (KernelTree.prunable False: every pass walks
every node that is not terminal, as before pruning). Below a zero-probability opponent or chance edge
the counterfactual reach is exactly 0, so every skipped regret update was 0 * x, and the skipped
node's value entered its parent's sum times that exact 0; sums that start at +0.0 never hold -0.0, so
dropping +-0.0 terms changes no bit. Own reach is the same product of the player's own probabilities
at every history of a set (perfect recall), added once per history either way.
"""
from __future__ import annotations

import numpy as np
import pytest

from cfrviz.catalog import compile_game
from cfrviz.solvers._kernel_tree import kernel_tree
from cfrviz.solvers.cfr import VanillaCFR
from cfrviz.tree import GameTree
from cfrviz.tree.locks import Locks, restrict


def _solver(tree: GameTree, prune: bool) -> VanillaCFR:
    solver = VanillaCFR(tree, updates="alternating")
    assert kernel_tree(tree).prunable and solver._prunable
    solver._prunable = prune
    return solver


CASES = [("kuhn", compile_game("kuhn"), 400), ("leduc", compile_game("leduc"), 150),
         ("leduc-suited", compile_game("leduc", suits=True), 20),
         # a lock turns player 1's J into a chance node that never bets: a chance edge of probability 0
         ("kuhn-J-locked", restrict(compile_game("kuhn"), Locks.parse("J=1,0")).tree, 400)]


@pytest.mark.parametrize(("tree", "iterations"), [(tree, n) for _, tree, n in CASES],
                         ids=[name for name, _, _ in CASES])
def test_pruned_passes_keep_every_bit(tree: GameTree, iterations: int) -> None:
    pruned, full = _solver(tree, prune=True), _solver(tree, prune=False)
    cut_seen = False
    # In chunks, so a snapshot of the strategy shows that pruning had something to skip.
    for _ in range(10):
        pruned.iterate(iterations // 10)
        full.iterate(iterations // 10)
        strategy = pruned.next_strategy()
        cut_seen |= bool(np.any((strategy == 0.0) & tree.legal))
        for name in ("cumulative_regret", "strategy_sum", "current_strategy", "_next"):
            np.testing.assert_array_equal(getattr(pruned, name), getattr(full, name), err_msg=name)
        assert (pruned.last_value, pruned.value_sum) == (full.last_value, full.value_sum)
    assert cut_seen or np.any(tree.chance_probability == 0.0)      # something was pruned
    zeros = pruned.cumulative_regret[pruned.cumulative_regret == 0.0]
    assert not np.any(np.signbit(zeros))                             # no -0.0 for a skip to keep


def test_a_zero_probability_chance_edge_is_pruned_in_the_locked_tree() -> None:
    # Reference: the lock J=1,0 gives the "bet" edge of each J history probability 0.
    tree = restrict(compile_game("kuhn"), Locks.parse("J=1,0")).tree
    assert int(np.sum(tree.chance_probability == 0.0)) == 2

