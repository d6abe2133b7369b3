"""The browser timeline's Python side: frames, layout, payload, and the values sent back.

References: run.py's snapshot schedule (every iteration up to 1,000, then log-spaced, at most
2,000); Kuhn's tree in breadth-first ids (root 0, deals JQ JK QJ QK KJ KQ = 1-6); the run's own
arrays for the numbers the browser gets.
"""
from __future__ import annotations

import json
from itertools import pairwise

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cfrviz
from cfrviz import tree_parts
from cfrviz.timeline import (
    MAX_FRAMES,
    build_payload,
    checked_iteration,
    checked_node,
    component_data,
    encode_payload,
    frame_snapshots,
    read_component_data,
    tree_layout,
)


@pytest.fixture(scope="module")
def kuhn_run() -> cfrviz.Run:
    return cfrviz.solve("kuhn", "cfr", iterations=1000, updates="simultaneous")


@settings(deadline=None)  # a shared 2-core machine stalls; the property is not about speed
@given(st.integers(min_value=1, max_value=20_000), st.integers(min_value=2, max_value=400))
def test_frames_are_bounded_increasing_and_keep_the_ends(iterations: int, max_frames: int) -> None:
    from cfrviz.run import snapshot_schedule

    schedule = snapshot_schedule(iterations)
    frames = frame_snapshots(schedule, max_frames=max_frames)
    assert len(frames) <= max(max_frames, 1) + 1
    assert frames[0] == 0 and frames[-1] == len(schedule) - 1
    assert np.all(np.diff(frames) > 0)
    if len(schedule) <= max_frames:
        assert len(frames) == len(schedule)


def test_frames_keep_every_early_iteration_and_an_asked_one() -> None:
    from cfrviz.run import snapshot_schedule

    schedule = snapshot_schedule(20_000)
    frames = frame_snapshots(schedule)
    assert len(frames) <= MAX_FRAMES
    assert list(schedule[frames[:100]]) == list(range(1, 101))       # CFR moves most early
    odd = int(np.setdiff1d(np.arange(len(schedule)), frames)[-1])
    assert odd in frame_snapshots(schedule, include=odd)


def test_layout_puts_leaves_last_and_parents_between_their_children() -> None:
    tree = cfrviz.compile_game("kuhn")
    layout = tree_layout(tree, range(tree.num_nodes))
    column, row = layout.column, layout.row
    assert layout.rows == tree.num_terminals == 30
    for n in range(tree.num_nodes):
        kids = list(tree.children(n))
        if not kids:
            assert column[n] == layout.columns - 1
        else:
            assert row[n] == (row[kids[0]] + row[kids[-1]]) / 2
            assert all(column[c] > column[n] for c in kids)
    # Two nodes of one column are at least one row apart: their labels cannot meet.
    for c in range(layout.columns):
        rows = sorted(row[n] for n in range(tree.num_nodes) if column[n] == c)
        assert all(b - a >= 1 for a, b in pairwise(rows))


def test_arranging_by_player_2s_card_puts_those_deals_together() -> None:
    # Deals sorted by player 2's card: QJ KJ (J), JQ KQ (Q), JK QK (K).
    tree = cfrviz.compile_game("kuhn")
    layout = tree_layout(tree, range(tree.num_nodes), arrange_by=1)
    deals = sorted(range(1, 7), key=lambda d: layout.row[d])
    assert [tree.node_label[d] for d in deals] == ["QJ", "KJ", "JQ", "KQ", "JK", "QK"]


def test_payload_carries_the_runs_numbers_for_the_drawn_part(kuhn_run: cfrviz.Run) -> None:
    payload = build_payload(kuhn_run.tree, kuhn_run, arrangements=(0, 1))
    frames = frame_snapshots(kuhn_run.iterations)
    assert payload["frames"] == [int(kuhn_run.iterations[s]) for s in frames]
    assert len(payload["frames"]) == MAX_FRAMES and payload["iterations"] == 1000
    assert [lay["by"] for lay in payload["layouts"]] == [0, 1]
    keys = [s["key"] for s in payload["sets"]]
    q_k = keys.index("Q k")
    infoset = kuhn_run.tree.infoset_index("Q k")
    for f in (0, 57, len(frames) - 1):
        assert payload["average"][f][q_k] == pytest.approx(kuhn_run.average_strategy[frames[f], infoset], abs=5e-5)
        assert payload["regret"][f][q_k] == pytest.approx(kuhn_run.cumulative_regret[frames[f], infoset], abs=5e-5)
    # Player 2's set "Q k" has the histories JQ k and KQ k, both drawn.
    assert [h[1] for h in payload["sets"][q_k]["histories"]] == ["JQ k", "KQ k"]
    assert all(h[2] >= 0 for h in payload["sets"][q_k]["histories"])
    # Own reach is a probability at every decision node and frame.
    reach = np.array([[np.nan if v is None else v for v in row] for row in payload["ownReach"]])
    decision = np.array(payload["nodes"]["set"]) >= 0
    assert np.all((reach[:, decision] >= 0) & (reach[:, decision] <= 1))
    assert np.all(np.isnan(reach[:, ~decision]))


def test_a_part_by_player_2s_card_draws_player_2s_sets_whole() -> None:
    run = cfrviz.solve("leduc", "cfr", iterations=30, updates="simultaneous")
    part = tree_parts.Part("player2", card="Q")
    payload = build_payload(run.tree, run, tree_parts.part_nodes(run.tree, part).tolist(), arrangements=(1,))
    q_k = next(s for s in payload["sets"] if s["key"] == "Q k")
    assert sorted(h[1] for h in q_k["histories"]) == ["JQ k", "KQ k", "QQ k"]
    assert all(h[2] >= 0 for h in q_k["histories"])


def test_component_bytes_round_trip_and_the_body_is_shared(kuhn_run: cfrviz.Run) -> None:
    payload_id, body = encode_payload(build_payload(kuhn_run.tree, kuhn_run))
    assert encode_payload(build_payload(kuhn_run.tree, kuhn_run))[0] == payload_id   # deterministic
    header, back = read_component_data(component_data(payload_id, body, {"t": 40, "node": 7, "mode": "tree"}))
    assert header == {"id": payload_id, "t": 40, "node": 7, "mode": "tree"}
    assert back == json.loads(body)


@pytest.mark.parametrize(("value", "expected"), [
    (40, 40), (40.0, 40), (1000, 1000), (0, None), (1001, None), (40.5, None), ("40", None),
    (True, None), (None, None), (float("nan"), None), (float("inf"), None), ([40], None)])
def test_checked_iteration_takes_only_snapshot_iterations(value: object, expected: int | None) -> None:
    assert checked_iteration(value, np.arange(1, 1001)) == expected


@pytest.mark.parametrize(("value", "expected"), [
    (0, 0), (54, 54), (55, None), (-1, None), (7.0, 7), (7.5, None), ("7", None), (None, None), (False, None)])
def test_checked_node_takes_only_nodes_of_the_tree(value: object, expected: int | None) -> None:
    assert checked_node(value, cfrviz.compile_game("kuhn")) == expected


def test_the_last_header_goes_again_only_for_what_the_browser_reported() -> None:
    # Reference: the browser applies a header's t only when it differs from the last header's and
    # from what it sent itself (timeline.js applyHeader), so an unchanged header is always safe.
    from cfrviz.timeline import next_header

    old = {"id": "a", "t": 1000, "node": None, "mode": "tree", "focus": [], "log": False}
    moved = {**old, "t": 40}
    assert next_header(old, moved, (40, None), mounted=True) is old           # the browser's own release
    assert next_header(old, moved, (1000, None), mounted=True) is moved       # t changed elsewhere
    assert next_header(old, moved, (40, None), mounted=False) is moved        # back from another page
    assert next_header(old, {**moved, "id": "b"}, (40, None), mounted=True)["id"] == "b"   # a new part
    assert next_header(old, {**moved, "focus": ["Q"]}, (40, None), mounted=True)["focus"] == ["Q"]
    assert next_header(None, moved, None, mounted=True) is moved
