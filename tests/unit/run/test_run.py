"""solve(), the snapshot schedule, and a Run's .npz and JSON round trips."""
from __future__ import annotations

import io
import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cfrviz
from cfrviz.run.strategy_json import read_strategy_file, read_strategy_json
from cfrviz.run import Run, export_strategy, load_run, run_from_strategy_json, save_run, snapshot_schedule
from tests.support.saved_runs import npz_bytes

# The solve behind `kuhn_run` (tests/unit/conftest.py) for this module's tests.
pytestmark = pytest.mark.kuhn_run(iterations=200)


# --------------------------------------------------------------------------- schedule


def test_default_schedule_is_dense_then_log_spaced():
    # Reference: the schedule the brief fixes: every iteration to 1,000, then log-spaced, <= 2,000, last included.
    np.testing.assert_array_equal(snapshot_schedule(7), np.arange(1, 8))
    schedule = snapshot_schedule(1_000_000)
    np.testing.assert_array_equal(schedule[:1000], np.arange(1, 1001))
    assert len(schedule) <= 2000 and schedule[-1] == 1_000_000
    assert np.all(np.diff(schedule) > 0)
    gaps = np.diff(schedule[1000:])
    assert gaps[-1] > gaps[0]          # spacing grows: log-spaced


def test_all_and_stride_schedules():
    # Hand computation: stride 3 over 10 iterations keeps 3, 6, 9 and the last, 10.
    np.testing.assert_array_equal(snapshot_schedule(10, 3), [3, 6, 9, 10])
    np.testing.assert_array_equal(snapshot_schedule(9, 3), [3, 6, 9])
    np.testing.assert_array_equal(snapshot_schedule(4, "all"), [1, 2, 3, 4])
    np.testing.assert_array_equal(snapshot_schedule(2, 5), [2])


@settings(deadline=None)
@given(iterations=st.integers(1, 10**7), stride=st.one_of(st.none(), st.integers(10, 10**6)))
def test_schedule_properties(iterations, stride):
    # Property from the schedule's definition: increasing, 1-based, ends at the last iteration,
    # and the default keeps at most 2,000 snapshots.
    schedule = snapshot_schedule(iterations, stride)
    assert schedule[0] >= 1 and schedule[-1] == iterations and np.all(np.diff(schedule) > 0)
    if stride is None:
        assert len(schedule) <= 2000
    else:
        assert len(schedule) == iterations // stride + (iterations % stride != 0)


@pytest.mark.parametrize("bad", [0, -2, "some", 1.5, True])
def test_bad_snapshots_are_sentences(bad):
    with pytest.raises(ValueError, match="snapshots must be"):
        snapshot_schedule(10, bad)


# --------------------------------------------------------------------------- solve


@pytest.mark.parametrize("kwargs, message", [
    (dict(game="kuhn", algorithm="magic"), "Unknown algorithm"),
    (dict(game="kuhn", algorithm="cfr", iterations=0), "iterations must be a whole number from 1"),
    (dict(game="kuhn", algorithm="cfr", iterations=10**9), "at most 100,000,000 iterations"),   # solving.MAX_ITERATIONS
    (dict(game="kuhn", algorithm="cfr", iterations=2.5), "iterations must be a whole number"),
    (dict(game="kuhn", algorithm="cfr", updates="both"), "update scheme"),
    (dict(game="kuhn", algorithm="rm"), "matrix games only"),
    (dict(game="chess", algorithm="cfr"), "Unknown game"),
    (dict(game="kuhn", algorithm="cfr", cards=2), "3 to"),
    (dict(game="kuhn", algorithm="cfr", seed=-1), "seed must be"),
    (dict(game="kuhn", algorithm="cfr", progress="yes"), "progress must be"),
    (dict(game="leduc", algorithm="cfr", iterations=10**6, snapshots="all"), "GB"),
])
def test_solve_rejects_bad_settings_with_a_sentence(kwargs, message):
    with pytest.raises(ValueError, match=message):
        cfrviz.solve(**kwargs)


def test_run_shapes_and_read_only(kuhn_run):
    # Reference: the Run docstring's shapes; Kuhn has 12 information sets of 2 actions.
    assert kuhn_run.cumulative_regret.shape == (200, 12, 2)
    assert kuhn_run.reach.shape == (200, 12)
    np.testing.assert_array_equal(kuhn_run.iterations, np.arange(1, 201))
    with pytest.raises(ValueError):
        kuhn_run.average_strategy[0, 0, 0] = 0.3
    assert np.all(np.diff(kuhn_run.nodes_touched) == 2 * kuhn_run.tree.num_nodes)
    assert np.all(np.diff(kuhn_run.seconds) >= 0)


def test_expected_value_is_the_running_mean_of_iteration_values():
    # Reference: the classic tutorial code's `main` averages the per-iteration values.
    run = cfrviz.solve("kuhn", "cfr", iterations=50, updates="simultaneous", snapshots="all")
    np.testing.assert_allclose(run.expected_value, np.cumsum(run.value) / np.arange(1, 51), rtol=1e-12)
    # Hand computation of iteration 1 (uniform play), with s = +1 when player 1 holds the higher
    # card: check then (check: s; bet then fold -1 / call 2s) is worth s - 1/4; bet (fold +1 /
    # call 2s) is worth s + 1/2; the mean is s + 1/8, and s averages 0 over the six deals.
    assert run.value[0] == pytest.approx(1 / 8, abs=1e-15)


def test_snapshot_copies_match_a_solver_stepped_by_hand():
    # Reference: the Solver contract; the recorded snapshot at t equals the solver's state after t iterations.
    from cfrviz.solvers.cfr import CFRPlus
    from cfrviz.catalog import compile_game

    run = cfrviz.solve("leduc", "cfr+", iterations=30, snapshots=7)
    solver = CFRPlus(compile_game("leduc"))
    solver.iterate(14)
    s = list(run.iterations).index(14)
    np.testing.assert_array_equal(run.cumulative_regret[s], solver.cumulative_regret)
    np.testing.assert_array_equal(run.current_strategy[s], solver.current_strategy)
    np.testing.assert_allclose(run.average_strategy[s], solver.average_strategy(), rtol=1e-12)


def test_progress_is_called_at_most_about_100_times_and_ends_at_one():
    calls: list[float] = []
    cfrviz.solve("kuhn", "cfr", iterations=5000, progress=calls.append)
    assert 2 <= len(calls) <= 101
    assert calls == sorted(calls) and calls[-1] == 1.0 and 0.0 < calls[0] < 1.0


def test_game_given_as_tree_or_matrix_names_itself():
    tree = cfrviz.compile_game("kuhn", cards=4)
    run = cfrviz.solve(tree, "cfr", iterations=5)
    assert run.settings.spec.name == "kuhn" and run.settings.spec.params == (("cards", 4),)
    matrix = cfrviz.solve([[0, 1], [1, 0]], "cfr", iterations=5)
    assert matrix.settings.spec.name == "matrix"
    again = cfrviz.solve(matrix.settings.spec.name, "cfr", iterations=5, **dict(matrix.settings.spec.params))
    np.testing.assert_array_equal(again.average_strategy, matrix.average_strategy)


# --------------------------------------------------------------------------- .npz


def _round_trip_equal(run: Run, loaded: Run) -> None:
    assert loaded.settings == run.settings
    for name in ("iterations", "cumulative_regret", "current_strategy", "average_strategy", "reach", "value",
                 "expected_value", "exploitability", "nodes_touched", "seconds"):
        np.testing.assert_array_equal(getattr(loaded, name), getattr(run, name))
    assert loaded.average_strategy_value == run.average_strategy_value
    assert [r.key for r in loaded.tree.infosets] == [r.key for r in run.tree.infosets]


def test_save_load_round_trip_path_and_bytes(tmp_path, kuhn_run):
    path = tmp_path / "run.npz"
    save_run(kuhn_run, path)
    _round_trip_equal(kuhn_run, load_run(path))
    _round_trip_equal(kuhn_run, load_run(npz_bytes(kuhn_run)))
    _round_trip_equal(kuhn_run, load_run(io.BytesIO(npz_bytes(kuhn_run))))


def test_matrix_game_payoffs_and_names_round_trip():
    run = cfrviz.solve([[2, -1], [-1, 1]], "cfr+", iterations=20, row_names=("up", "down"),
                       column_names=("left", "right"))
    loaded = load_run(npz_bytes(run))
    _round_trip_equal(run, loaded)
    assert loaded.tree.game.payoffs == ((2.0, -1.0), (-1.0, 1.0))
    assert loaded.tree.game.row_names == ("up", "down") and loaded.tree.game.column_names == ("left", "right")


def _tampered(run: Run, **replace) -> bytes:
    with np.load(io.BytesIO(npz_bytes(run)), allow_pickle=False) as archive:
        arrays = {name: archive[name] for name in archive.files}
    arrays.update(replace)
    for name, value in list(arrays.items()):
        if value is None:
            del arrays[name]
    buffer = io.BytesIO()
    np.savez(buffer, **arrays)
    return buffer.getvalue()


def test_bad_files_are_rejected_with_sentences(kuhn_run, tmp_path):
    average = np.array(kuhn_run.average_strategy)
    average[3, 2, 0] += 0.25
    nan_regret = np.array(kuhn_run.cumulative_regret)
    nan_regret[0, 0, 0] = np.nan
    settings = json.loads(kuhn_run.settings.to_json())
    settings["algorithm"] = "magic"
    cases = {
        b"hello, not a zip": "not a run saved by cfrviz",
        _tampered(kuhn_run, average_strategy=average): "sums to 1.25",
        _tampered(kuhn_run, cumulative_regret=nan_regret): "NaN",
        _tampered(kuhn_run, reach=None): "no 'reach' array",
        _tampered(kuhn_run, value=np.zeros(3)): "has shape",
        _tampered(kuhn_run, settings=np.array(json.dumps(settings))): "Unknown algorithm",
        _tampered(kuhn_run, settings=np.array("{oops")): "not valid JSON",
        _tampered(kuhn_run, seconds=np.array(["a"] * 200)): "instead of real numbers",
        _tampered(kuhn_run, format=np.array('{"format": "other"}')): "format marker",
    }
    for data, message in cases.items():
        with pytest.raises(ValueError, match=message):
            load_run(data)
    # An object array can only be read by unpickling; np.load(allow_pickle=False) refuses and so do we.
    with pytest.raises(ValueError, match="not a run saved by cfrviz"):
        load_run(_tampered(kuhn_run, iterations=np.array([{"x": 1}], dtype=object)))
    with pytest.raises(ValueError, match="no file"):
        load_run(tmp_path / "missing.npz")


# --------------------------------------------------------------------------- JSON


def test_export_strategy_fields_and_reader(tmp_path, kuhn_run):
    path = tmp_path / "strategy.json"
    text = export_strategy(kuhn_run, path)
    assert path.read_text() == text
    doc = read_strategy_file(path)
    assert doc == read_strategy_json(text.encode()) == read_strategy_json(json.loads(text))
    assert (doc["game"], doc["algorithm"], doc["updates"], doc["iterations"], doc["seed"]) == \
        ("kuhn", "cfr", "alternating", 200, 0)
    # Zero-sum: player 2's values are player 1's negated.
    assert doc["expected_value"][1] == -doc["expected_value"][0]
    assert doc["average_strategy_value"][0] == kuhn_run.average_strategy_value
    assert doc["exploitability"] == float(kuhn_run.exploitability[-1])
    by_key = {entry["key"]: entry for entry in doc["infosets"]}
    assert len(by_key) == 12
    entry = by_key["Q kb"]
    assert entry["player"] == 0 and entry["private"] == "Q" and entry["public"] is None
    assert entry["history"] == ["check", "bet"] and entry["actions"] == ["fold", "call"]
    i = kuhn_run.tree.infoset_index("Q kb")
    assert entry["average_strategy"] == list(kuhn_run.average_strategy[-1, i])
    loaded = run_from_strategy_json(doc)
    np.testing.assert_array_equal(loaded.average_strategy[0], kuhn_run.average_strategy[-1])


def test_leduc_export_names_public_cards():
    run = cfrviz.solve("leduc", "cfr", iterations=3)
    doc = json.loads(export_strategy(run))
    second_round = [e for e in doc["infosets"] if e["public"] is not None]
    assert second_round and all(e["public"] in "JQK" for e in second_round)
    assert read_strategy_json(doc)["game"] == "leduc"


def test_strategy_reader_rejects_bad_documents(kuhn_run):
    good = json.loads(export_strategy(kuhn_run))

    def broken(change) -> dict:
        doc = json.loads(json.dumps(good))
        change(doc)
        return doc

    cases = [
        (b"\xff\xfe", "not UTF-8"),
        ("[1, 2", "not valid JSON"),
        ([1, 2], "one JSON object"),
        (broken(lambda d: d.pop("seed")), "no 'seed' field"),
        (broken(lambda d: d.update(game="go")), "Unknown game"),
        (broken(lambda d: d.update(format="x")), "format marker"),
        (broken(lambda d: d["infosets"].pop()), "lacks the information set"),
        (broken(lambda d: d["infosets"].append(d["infosets"][0])), "appears twice"),
        (broken(lambda d: d["infosets"][0].update(key="Z")), "No information set"),
        (broken(lambda d: d["infosets"][0].update(average_strategy=[0.7, 0.7])), "summing to 1"),
        (broken(lambda d: d["infosets"][0].update(current_strategy=[1.0])), "list of 2 finite numbers"),
        (broken(lambda d: d["infosets"][0].update(actions=["bet", "check"])), "actions of"),
        (broken(lambda d: d.update(exploitability="low")), "finite numbers"),
    ]
    for document, message in cases:
        with pytest.raises(ValueError, match=message):
            read_strategy_json(document)


def test_huge_snapshot_requests_fail_before_allocating():
    # Hand computation (cfrviz.util.memory.solve_plan): a Kuhn snapshot (I = 12, A = 2) is 8 bytes x
    # (3 x 24 + 3 x 12 + 8) = 928 bytes, so 10^8 of them take 92.8 GB; the 200 MB budget holds
    # (200,000,000 - 9,496 fixed) // 928 = 215,507, so the stride must be ceil(10^8 / 215,507) = 465.
    with pytest.raises(ValueError, match=r"92\.8 GB.*at most 215,507 fit: ask for a stride of 465 or more"):
        cfrviz.solve("kuhn", "cfr", iterations=10**8, snapshots=1)
