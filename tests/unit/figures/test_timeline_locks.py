"""The timeline's data for node locking: which drawn sets are locked and to what, and how far each
drawn set's average strategy moved from the unlocked run's.

References: the locks as written (a locked set's average strategy is its lock exactly); a hand
computation of total variation (for two actions, (a, 1 - a) against (0, 1) is a); the "moved"
column of the locked-vs-unlocked table (`cfrviz.analysis.locks.lock_effect`) at the last iteration;
Kuhn's tree in breadth-first ids.
"""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import cfrviz
from cfrviz.analysis.locks import lock_effect, strategy_change
from cfrviz.figures.timeline import MOVED_AT_LEAST, build_payload, frame_snapshots, lock_comparison
from cfrviz.tree import parts as tree_parts
from cfrviz.tree.locks import Locks
from cfrviz.util.vocabulary import Player

LOCKS = Locks.parse("J=0,1;J b=0,1")


@pytest.fixture(scope="module")
def runs() -> tuple[cfrviz.Run, cfrviz.Run]:
    locked = cfrviz.solve("kuhn", "cfr+", iterations=3000, locks=LOCKS)
    unlocked = cfrviz.solve("kuhn", "cfr+", iterations=3000)
    return locked, unlocked


def test_the_payload_says_which_drawn_sets_are_locked_and_to_what(runs: tuple[cfrviz.Run, cfrviz.Run]) -> None:
    locked, unlocked = runs
    payload = build_payload(locked.tree, locked)
    locks = {s["key"]: s["lock"] for s in payload["sets"] if s["lock"] is not None}
    assert locks == {"J": [0.0, 1.0], "J b": [0.0, 1.0]}
    # The locked sets' average strategy is the lock at every frame (sent rounded to 4 decimals).
    j = [s["key"] for s in payload["sets"]].index("J")
    assert all(frame[j] == [0.0, 1.0] for frame in payload["average"])
    assert all(s["lock"] is None for s in build_payload(unlocked.tree, unlocked)["sets"])
    assert all(s["lock"] is None for s in build_payload(locked.tree, None)["sets"])   # no run, no locks


def test_a_part_carries_the_locks_of_its_own_sets_only() -> None:
    run = cfrviz.solve("leduc", "cfr", iterations=20, updates="simultaneous", locks={"J": [1.0, 0.0], "Q": [0.5, 0.5]})
    part = tree_parts.Part(Player.FIRST, card="Q")   # player 1 holds Q: "Q" is drawn, "J" is not
    payload = build_payload(run.tree, run, tree_parts.part_nodes(run.tree, part).tolist())
    locks = {s["key"]: s["lock"] for s in payload["sets"] if s["lock"] is not None}
    assert locks == {"Q": [0.5, 0.5]}


def test_moved_is_the_tables_number_at_the_last_frame(runs: tuple[cfrviz.Run, cfrviz.Run]) -> None:
    locked, unlocked = runs
    comparison = lock_comparison(locked, unlocked)
    effect = lock_effect(unlocked, locked, LOCKS)
    last = comparison["moved"][-1]
    for s, key in enumerate(comparison["keys"]):
        assert last[s] == pytest.approx(effect.change[locked.tree.infoset_index(key)], abs=5e-5)
    # By hand: "J" went from the unlocked (a, 1 - a) to the lock (0, 1), a move of a.
    j = comparison["keys"].index("J")
    assert last[j] == pytest.approx(unlocked.average_strategy[-1, locked.tree.infoset_index("J"), 0], abs=5e-5)
    # The sets ringed (moved at least MOVED_AT_LEAST) are exactly those the table says moved that far.
    moved = {key for s, key in enumerate(comparison["keys"]) if last[s] >= MOVED_AT_LEAST}
    assert moved == {key for i, key in enumerate(effect.keys) if effect.change[i] >= MOVED_AT_LEAST}
    assert {"J", "J b"} <= moved


def test_every_frame_compares_the_runs_at_that_iteration(runs: tuple[cfrviz.Run, cfrviz.Run]) -> None:
    locked, unlocked = runs
    comparison = lock_comparison(locked, unlocked)
    snapshots = frame_snapshots(locked.iterations)
    assert comparison["frames"] == [int(t) for t in locked.iterations[snapshots]]
    assert comparison["frames"] == build_payload(locked.tree, locked)["frames"]
    q_b = comparison["keys"].index("Q b")
    i = locked.tree.infoset_index("Q b")
    for f in (0, 40, len(snapshots) - 1):
        before = unlocked.average_strategy[unlocked.snapshot_at(comparison["frames"][f]), i]
        after = locked.average_strategy[snapshots[f], i]
        assert comparison["unlocked"][f][q_b] == pytest.approx(before, abs=5e-5)
        assert comparison["moved"][f][q_b] == pytest.approx(0.5 * np.abs(after - before).sum(), abs=5e-5)


def test_a_part_compares_its_drawn_sets_only() -> None:
    locks = {"J": [1.0, 0.0]}
    locked = cfrviz.solve("leduc", "cfr", iterations=20, updates="simultaneous", locks=locks)
    unlocked = cfrviz.solve("leduc", "cfr", iterations=20, updates="simultaneous")
    nodes = tree_parts.part_nodes(locked.tree, tree_parts.Part(Player.FIRST, card="K")).tolist()
    comparison = lock_comparison(locked, unlocked, nodes)
    payload_keys = [s["key"] for s in build_payload(locked.tree, locked, nodes)["sets"]]
    assert comparison["keys"] == payload_keys
    assert "J" not in comparison["keys"] and "K" in comparison["keys"]
    assert np.asarray(comparison["moved"]).shape == (len(comparison["frames"]), len(payload_keys))


def test_runs_of_different_games_are_refused_in_one_sentence(runs: tuple[cfrviz.Run, cfrviz.Run]) -> None:
    other = cfrviz.solve("kuhn", "cfr", iterations=10, cards=4)
    with pytest.raises(ValueError, match="same game") as error:
        lock_comparison(runs[0], other)
    assert str(error.value).count(". ") == 0


def test_total_variation_by_hand() -> None:
    # (1, 0) against (0.25, 0.75): half of 0.75 + 0.75; a strategy against itself: 0; disjoint: 1.
    before = np.array([[1.0, 0.0], [0.2, 0.8], [1.0, 0.0]])
    after = np.array([[0.25, 0.75], [0.2, 0.8], [0.0, 1.0]])
    assert strategy_change(before, after).tolist() == [0.75, 0.0, 1.0]


simplex_rows = hnp.arrays(np.float64, (4, 3), elements=st.floats(0, 1)).filter(lambda a: (a.sum(axis=1) > 0).all())


@settings(deadline=None)
@given(simplex_rows, simplex_rows)
def test_total_variation_is_symmetric_and_between_0_and_1(a: np.ndarray, b: np.ndarray) -> None:
    # Reference: total variation between probability vectors is a metric bounded by 1.
    p, q = a / a.sum(axis=1, keepdims=True), b / b.sum(axis=1, keepdims=True)
    moved = strategy_change(p, q)
    assert np.allclose(moved, strategy_change(q, p))
    assert np.all((moved >= -1e-12) & (moved <= 1 + 1e-12))
    assert np.allclose(strategy_change(p, p), 0.0)
