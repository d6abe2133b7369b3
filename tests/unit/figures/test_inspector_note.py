"""The inspector's note on where its values come from names the run's update scheme (issue 30, defect 4).

Reference: with simultaneous updates both players' regrets come from the same strategies of iteration t
(Zinkevich et al. 2007); only alternating updates let player 2 answer player 1's updated strategy.
"""
from __future__ import annotations

import cfrviz
from cfrviz.figures.timeline import frame_numbers


def test_a_simultaneous_run_is_not_said_to_alternate() -> None:
    run = cfrviz.solve("kuhn", "cfr", iterations=5, updates="simultaneous")
    for nodes in ([], [0, 1]):
        source = frame_numbers(run, [0], nodes=nodes, sets=[]).source
        assert "alternating" not in source and "simultaneous" in source


def test_an_alternating_run_says_player_2_answers_the_update() -> None:
    run = cfrviz.solve("kuhn", "cfr", iterations=5, updates="alternating")
    assert "with alternating updates, player 2's values answer player 1's updated strategy" in \
        frame_numbers(run, [0], nodes=[0, 1], sets=[]).source
