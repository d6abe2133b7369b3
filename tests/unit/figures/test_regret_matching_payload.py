"""The Regret matching page's timeline data (cfrviz.figures.regret_matching).

References: the solver's own path (`regret_matching_path`) for every number sent; a hand
computation for the best response to the tutorial opponent (0.4, 0.3, 0.3) in rock-paper-scissors
(rock earns 0, paper 0.4 - 0.3 = 0.1, scissors -0.4 + 0.3 = -0.1, so paper); the uniform
equilibrium of rock-paper-scissors; the frame rule as documented (dense start, then evenly and
log-spaced records, always the last).
"""
from __future__ import annotations

import json

import numpy as np
import pytest

from cfrviz.analysis.equilibria import best_response_to
from cfrviz.figures.regret_matching import index_of_iteration, linked_point, path_points, regret_matching_payload
from cfrviz.solvers.matrix import TUTORIAL_OPPONENT, regret_matching_path

RPS = np.array([[0, -1, 1], [1, 0, -1], [-1, 1, 0]], dtype=float)
NAMES = ("rock", "paper", "scissors")
LEANING = ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0))   # the page's start for expected-value self-play


def test_frames_start_dense_then_spread_and_always_end_on_the_last_record() -> None:
    iterations = np.arange(1, 10_001) * 2            # every second iteration recorded, as for 10,000 on the page
    points = path_points(iterations)
    assert points[:100].tolist() == list(range(100))   # one by one at the start
    assert points[-1] == len(iterations) - 1
    assert np.all(np.diff(points) > 0)
    assert len(points) <= 100 + 2 * 250 + 1
    shown = iterations[points]
    # After the dense start (iterations 2..200) the rest spans two decades, 202 to 20,000: log
    # spacing puts about half its 250 records in the first decade, where even spacing puts about 23.
    assert np.count_nonzero((shown > 200) & (shown <= 2_020)) >= 100
    # Even spacing keeps the linear axis covered: no gap wider than 1/250 of the records.
    assert np.max(np.diff(points[100:])) <= -(-(len(iterations) - 100) // 249)


def test_a_linked_iteration_becomes_a_frame_and_a_frame_changes_nothing() -> None:
    iterations = np.arange(1, 5_001)
    points = set(path_points(iterations).tolist())
    missing = next(k for k in range(100, 5_000) if k not in points)
    assert linked_point(iterations, int(iterations[missing])) == missing
    assert missing in path_points(iterations, include=missing)
    assert linked_point(iterations, 5_000) is None
    # Iteration 7 recorded every 2 iterations (2, 4, 6, ...) shows the record at 6.
    assert index_of_iteration(np.arange(1, 10) * 2, 7) == 2


def test_self_play_sends_both_players_at_every_frame_as_the_solver_recorded_them() -> None:
    path = regret_matching_path(RPS, 3_000, start_regret=LEANING)
    payload = regret_matching_payload(path, NAMES, NAMES, [np.full(3, 1 / 3)] * 2, "equilibrium",
                                      fixed_opponent=False)
    json.dumps(payload, allow_nan=False)    # JSON-ready: the component gets it as is
    frames = payload["frames"]
    assert frames[0] == 1 and frames[-1] == 3_000 and payload["iterations"] == 3_000
    assert [p["name"] for p in payload["players"]] == ["player 1", "player 2"]
    for shown, (current, average, regret) in zip(payload["players"],
                                                 [(path.current_row, path.average_row, path.regret_row),
                                                  (path.current_column, path.average_column, path.regret_column)]):
        assert shown["actions"] == list(NAMES) and shown["target"] == pytest.approx([1 / 3] * 3, abs=1e-4)
        rows = [t - 1 for t in frames]      # every iteration recorded: row t - 1 is iteration t
        assert np.allclose(shown["average"], average[rows], atol=5e-5)
        assert np.allclose(shown["current"], current[rows], atol=5e-5)
        assert np.allclose(shown["regret"], regret[rows], atol=5e-4)
        assert len(shown["average"]) == len(frames)


def test_against_a_fixed_opponent_only_player_1_is_sent_with_its_best_response() -> None:
    opponent = np.array(TUTORIAL_OPPONENT)
    path = regret_matching_path(RPS, 500, opponent=opponent, sampled=True, seed=3)
    response = best_response_to(RPS, opponent)
    assert response.tolist() == [0.0, 1.0, 0.0]     # paper, by hand
    payload = regret_matching_payload(path, NAMES, NAMES, [response, None], "best response to player 2",
                                      fixed_opponent=True, include=450)
    (player,) = payload["players"]
    assert player["player"] == 0 and player["target"] == [0.0, 1.0, 0.0]
    assert payload["targetName"] == "best response to player 2"
    assert 451 in payload["frames"]                 # the included record: iteration 451
    k = payload["frames"].index(451)
    assert player["average"][k] == pytest.approx(path.average_row[450].tolist(), abs=5e-5)
