"""Locks through `cfrviz.solve` and the saved formats: a locked run keeps its locks in its settings,
its .npz and its strategy JSON, and reloads as locked.

References, each stated at its test:
- Kuhn (1950) and the hand computation in tests/unit/analysis/test_locks.py: with "J" = (check 0,
  bet 1) the locked game's value is -5/18 for player 1.
- The lock itself: a locked set's average strategy is the lock, bit for bit (it is never solved).
"""
from __future__ import annotations

import io
import json

import numpy as np
import pytest

import cfrviz
from cfrviz import catalog
from cfrviz.run import RunSettings
from cfrviz.run.npz import load_run, save_run
from cfrviz.run.strategy_json import export_strategy, run_from_strategy_json
from cfrviz.solving.locked import solve_locked
from cfrviz.tree.locks import Locks


def test_solve_with_a_lock_mapping_is_the_locked_solve() -> None:
    # Reference: solve_locked is the same computation (same algorithm, same iterations), so every array agrees.
    run = cfrviz.solve("kuhn", "cfr+", 300, locks={"J": [0.0, 1.0]})
    direct = solve_locked("kuhn", "cfr+", 300, {"J": [0.0, 1.0]}).run
    assert run.settings.locks == Locks.of({"J": [0.0, 1.0]}) == direct.settings.locks
    np.testing.assert_array_equal(run.average_strategy, direct.average_strategy)
    j = run.tree.infoset_index("J")
    assert run.average_strategy[:, j, :2].tolist() == [[0.0, 1.0]] * run.num_snapshots


def test_solve_reads_locks_as_text_and_the_value_approaches_the_lock_value() -> None:
    # Reference: -5/18 for "J" = (0, 1) (hand computation); a profile's value lies within twice its
    # exploitability of the game's value. Two locks joined by ";" read back as the canonical text.
    run = cfrviz.solve("kuhn", "cfr+", 5000, locks="J=0,1")
    assert abs(run.average_strategy_value - (-5 / 18)) <= 2 * run.exploitability[-1] + 1e-9
    two = cfrviz.solve("kuhn", "cfr", 10, locks="J=0,1; J b=0,1")
    assert two.settings.locks.text() == "J=0,1;J b=0,1"


def test_an_unlocked_run_keeps_its_old_settings_text() -> None:
    # Reference: files written before locks had no "locks" field; an unlocked run must still write none.
    run = cfrviz.solve("kuhn", "cfr", 5)
    assert "locks" not in json.loads(run.settings.to_json())
    assert "locks" not in json.loads(export_strategy(run))
    assert not run.settings.locks


def test_a_saved_locked_run_reloads_as_locked() -> None:
    # Reference: the run that was saved; arrays are stored exactly.
    run = cfrviz.solve("kuhn", "cfr+", 200, locks={"J": [0.0, 1.0], "K b": [0.25, 0.75]})
    buffer = io.BytesIO()
    save_run(run, buffer)
    again = load_run(buffer.getvalue())
    assert again.settings == run.settings and again.settings.locks == run.settings.locks
    np.testing.assert_array_equal(again.average_strategy, run.average_strategy)


def test_the_strategy_json_carries_the_locks_and_the_lock_exactly() -> None:
    # Reference: the lock as given; JSON writes floats with repr, which reads back exactly.
    run = cfrviz.solve("kuhn", "cfr+", 200, locks={"J": [0.0, 1.0], "K b": [0.25, 0.75]})
    document = json.loads(export_strategy(run))
    assert document["locks"] == {"J": [0.0, 1.0], "K b": [0.25, 0.75]}
    rows = {entry["key"]: entry["average_strategy"] for entry in document["infosets"]}
    assert rows["J"] == [0.0, 1.0] and rows["K b"] == [0.25, 0.75]
    again = run_from_strategy_json(document)
    assert again.settings.locks == run.settings.locks


@pytest.mark.parametrize(("locks", "phrase"), [
    ({"Z": [0.5, 0.5]}, "no information set 'Z'"),
    ({"Q": [0.5, 0.5]}, "must be its lock"),
    ({"J": [0.5, 0.25]}, "sums to 0.75"),
    ("not a mapping", "mapping from information-set key"),
])
def test_a_strategy_file_with_bad_locks_ends_in_one_sentence(locks: object, phrase: str) -> None:
    # Reference: the checks of cfrviz.tree.locks and of the reader, one sentence each.
    document = json.loads(export_strategy(cfrviz.solve("kuhn", "cfr", 5, locks={"J": [0.0, 1.0]})))
    document["locks"] = locks
    with pytest.raises(ValueError, match=phrase) as raised:
        run_from_strategy_json(document)
    assert "\n" not in str(raised.value)


def test_saved_settings_with_a_lock_the_game_lacks_do_not_load() -> None:
    # Reference: Kuhn's sets are J, Q, K and their continuations; "A" is none of them.
    text = RunSettings(catalog.get("kuhn"), "cfr", 5, "alternating", 0, Locks.of({"A": [1.0, 0.0]})).to_json()
    settings = RunSettings.from_json(text)
    with pytest.raises(ValueError, match="no information set 'A'"):
        settings.build_tree()
    with pytest.raises(ValueError, match="at most 4,000|sums to|negative"):
        cfrviz.solve("kuhn", "cfr", 5, locks="J=-1,2")


def test_a_saved_locked_run_whose_locked_set_moved_does_not_load() -> None:
    # Reference: a locked set is never solved, so a file where it differs from its lock was altered.
    run = cfrviz.solve("kuhn", "cfr", 20, locks={"J": [0.0, 1.0]})
    buffer = io.BytesIO()
    save_run(run, buffer)
    with np.load(io.BytesIO(buffer.getvalue()), allow_pickle=False) as saved:
        contents = {name: saved[name] for name in saved.files}
    j = run.tree.infoset_index("J")
    contents["average_strategy"] = contents["average_strategy"].copy()
    contents["average_strategy"][-1, j, :2] = [0.5, 0.5]
    altered = io.BytesIO()
    np.savez_compressed(altered, **contents)
    with pytest.raises(ValueError, match="must be its lock at every snapshot"):
        load_run(altered.getvalue())
