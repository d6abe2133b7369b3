"""What `solve()` records about its snapshots comes from one judging walk per block of snapshots."""
from __future__ import annotations

import numpy as np
import pytest

import cfrviz
from cfrviz.analysis import exploitability_many
from cfrviz.solvers.base import own_reach_probability


@pytest.mark.parametrize(("game", "algorithm", "updates"), [("leduc", "cfr", "alternating"), ("kuhn", "cfr", "simultaneous"),
                                                           ("kuhn", "external", "alternating")])
def test_a_solve_records_the_walks_own_reach_and_exploitability(game: str, algorithm: str, updates: str) -> None:
    # Reference: own reach and exploitability computed apart from the solve, from its recorded strategies
    # (`own_reach_probability`, one-profile judging), bit for bit.
    run = cfrviz.solve(game, algorithm, iterations=40, updates=updates)
    tree = run.tree
    np.testing.assert_array_equal(run.reach, own_reach_probability(tree, run.current_strategy))
    np.testing.assert_array_equal(run.exploitability, exploitability_many(tree, run.average_strategy))
    np.testing.assert_array_equal(run.current_exploitability, exploitability_many(tree, run.current_strategy))
    assert not run.reach.flags.writeable
