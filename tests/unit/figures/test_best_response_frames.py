"""The Best response page's timeline data: both best responses at every frame.

References: Kuhn poker's uniform profile has NashConv 11/12 (OpenSpiel's exploitability tests);
vanilla CFR's first iteration plays uniformly, so the average strategy at t = 1 is uniform; a best
response never earns less than the strategy's own mix (gain >= 0, by its definition); the
payload's `sets` and `frames` (cfrviz.figures.timeline), which the browser indexes the data by.
"""
from __future__ import annotations

import json

import numpy as np
import pytest

import cfrviz
from cfrviz.analysis import best_response
from cfrviz.figures.best_response_frames import best_response_frames, checked_exploiter, frames_with
from cfrviz.figures.timeline import build_payload, frame_snapshots
from cfrviz.tree import parts as tree_parts
from cfrviz.util.vocabulary import Player

# The solve behind `kuhn_run` (tests/unit/conftest.py) for this module's tests.
pytestmark = pytest.mark.kuhn_run(iterations=200, updates="simultaneous")


def test_the_uniform_first_frame_has_kuhns_published_nash_conv(kuhn_run: cfrviz.Run) -> None:
    frames = best_response_frames(kuhn_run.tree, kuhn_run, frame_snapshots(kuhn_run.iterations), game_value=-1 / 18)
    assert frames["frames"][0] == 1
    assert sum(frames["values"][0]) == pytest.approx(11 / 12, abs=1e-5)
    assert frames["gameValue"] == pytest.approx(-1 / 18) and frames["locked"] is False and frames["whole"] is True


def test_every_frame_holds_cfrvizs_best_response_of_each_sets_player(kuhn_run: cfrviz.Run) -> None:
    tree = kuhn_run.tree
    snapshots = frame_snapshots(kuhn_run.iterations)
    frames = best_response_frames(tree, kuhn_run, snapshots)
    sets = [tree.infosets.index(next(r for r in tree.infosets if r.key == key)) for key in frames["sets"]]
    for f in (0, 9, len(snapshots) - 1):
        strategy = kuhn_run.average_strategy[snapshots[f]]
        responses = [best_response(tree, strategy, p) for p in (0, 1)]
        assert frames["values"][f] == pytest.approx([r.value for r in responses], abs=1e-6)
        for k, i in enumerate(sets):
            response = responses[int(tree.infoset_player[i])]
            assert frames["best"][f][k] == response.best_action[i]
            assert frames["gain"][f][k] == pytest.approx(response.gain[i], abs=1e-6)
            assert frames["actionValue"][f][k] == pytest.approx(response.action_value[i].tolist(), abs=1e-4)
    assert min(min(row) for row in frames["gain"]) >= 0.0
    # The exploitability the run recorded is the mean of the two values, at every frame.
    means = np.mean(frames["values"], axis=1)
    assert means == pytest.approx(kuhn_run.exploitability[snapshots], abs=1e-6)


def test_a_leduc_part_lists_the_payloads_sets_and_frames_in_order() -> None:
    run = cfrviz.solve("leduc", "cfr", iterations=30, updates="simultaneous")
    tree = run.tree
    nodes = tree_parts.part_nodes(tree, tree_parts.parts(tree, Player.FIRST)[0]).tolist()
    t = int(run.iterations[17])
    snapshots = frames_with(run, t)
    frames = best_response_frames(tree, run, snapshots, nodes)
    payload = build_payload(tree, run, nodes, include=int(run.snapshot_at(t)))
    assert frames["sets"] == [s["key"] for s in payload["sets"]] and frames["whole"] is False
    assert frames["frames"] == payload["frames"]
    assert len(frames["best"][0]) == len(payload["sets"]) < tree.num_infosets
    json.dumps(frames, allow_nan=False)   # what the wire takes


def test_a_linked_iteration_between_frames_gets_its_frame() -> None:
    # 400 snapshots keep 300 frames; iteration 131 is the first one left out after the dense head.
    run = cfrviz.solve("kuhn", "cfr", iterations=400, updates="simultaneous")
    plain = frame_snapshots(run.iterations).tolist()
    missing = next(i for i in range(len(run.iterations)) if i not in plain)
    t = int(run.iterations[missing])
    assert t in best_response_frames(run.tree, run, frames_with(run, t))["frames"]
    assert frames_with(run, int(run.iterations[-1])).tolist() == plain


@pytest.mark.parametrize(("value", "expected"), [(1, Player.FIRST), (2.0, Player.SECOND), ("2", Player.SECOND),
                                                 (True, None), (3, None), ("player 2", None), (None, None),
                                                 (float("nan"), None)])
def test_checked_exploiter_takes_only_the_two_players(value: object, expected: Player | None) -> None:
    assert checked_exploiter(value) == expected
