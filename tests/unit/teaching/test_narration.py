"""The narrated line is made from the step's numbers (issue 30).

References: Kuhn, deal QK, iteration 1 from a uniform start, by hand (as in test_practice.py): player 1's Q at
the root has u(check) = −1.25, u(bet) = −0.5, u(node) = −0.875, so check's regret is −0.375 and bet's +0.375,
each weighted by the opponent's and chance's reach over the sampling probability (1 here). For the tree's line:
the run's own cumulative regret arrays, differenced by hand below.
"""
from __future__ import annotations

import numpy as np

import cfrviz
from cfrviz.teaching.narration import narrate_iteration, narrate_step
from cfrviz.teaching.walkthrough import trace_iteration
from cfrviz.util.vocabulary import Algorithm


def test_the_walkthroughs_line_says_the_hand_computed_regrets_at_the_root() -> None:
    kuhn = cfrviz.compile_game("kuhn")
    zeros = np.zeros(kuhn.legal.shape)
    trace = trace_iteration(kuhn, zeros, zeros, algorithm=Algorithm.CHANCE_SAMPLING, updates="simultaneous",
                            deal="QK")
    root = next(s for s in trace.steps if s.kind == "return" and s.history == "QK")
    line = narrate_step(root)
    assert "check is worth −1.25 and bet −0.5, against −0.875" in line
    assert "check did 0.375 worse, bet 0.375 better" in line
    assert "check's regret grows by −0.375 and bet's by 0.375" in line
    visit = next(s for s in trace.steps if s.kind == "visit" and s.history == "QK k")
    # Player 1 checked with probability ½ on the way: the reach passed down to player 2's node.
    assert "player 1 0.5, player 2 1, chance 0.167" in narrate_step(visit)


def test_the_trees_line_names_the_set_whose_regret_moved_most_and_by_how_much() -> None:
    run = cfrviz.solve("kuhn", "cfr", iterations=20, updates="simultaneous")
    snapshot = 5
    change = run.cumulative_regret[snapshot] - run.cumulative_regret[snapshot - 1]
    most = int(np.argmax(np.abs(np.where(run.tree.legal, change, 0.0)).sum(axis=1)))
    record = run.tree.infosets[most]
    line = narrate_iteration(run, snapshot)
    assert f"set {record.key} (player {int(record.player) + 1})" in line
    shown = f"{change[most, 0]:.3f}".rstrip("0").rstrip(".").replace("-", "−")
    assert f"{record.actions[0]} {shown}" in line
    chosen = narrate_iteration(run, snapshot, run.tree.infoset_index("K b"))
    assert "set K b (player 2)" in chosen


def test_a_set_whose_regrets_did_not_move_says_where_they_stayed() -> None:
    # Reference: CFR+ floors cumulative regret at zero (Tammelin 2014), and player 2 with the king
    # facing a bet always calls: its fold regret stays at 0 and call's does not grow (calling is best).
    run = cfrviz.solve("kuhn", "cfr+", iterations=200)
    k_b = run.tree.infoset_index("K b")
    assert np.allclose(run.cumulative_regret[30, k_b] - run.cumulative_regret[29, k_b], 0.0)
    line = narrate_iteration(run, 30, k_b)
    assert "its cumulative regrets stayed at fold 0, call 0" in line
    assert "most for" not in line and "changed its cumulative regrets" not in line
