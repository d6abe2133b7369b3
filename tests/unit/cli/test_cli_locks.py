"""`python -m cfrviz solve ... --lock KEY=p1,p2`: the locked run's report, its JSON and .npz, and bad locks.

References, each stated at its test:
- The hand computation in tests/unit/analysis/test_locks.py: Kuhn with "J" = (check 0, bet 1) has
  value -5/18 for player 1.
- The exact value and exploitability of the written average strategy, recomputed here by
  cfrviz.analysis on the file's own numbers.
"""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from cfrviz.analysis import expected_value
from cfrviz.cli import main
from cfrviz.run import load_run


def test_a_locked_solve_prints_the_locked_target_and_both_exploitabilities(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # Reference: -5/18 for the "J" = (0, 1) lock (hand computation); the JSON's value is the exact value
    # of the file's own average strategy.
    strategy, saved = tmp_path / "s.json", tmp_path / "r.npz"
    assert main(["solve", "kuhn", "-a", "cfr+", "-n", "5000", "--lock", "J=0,1", "--json", str(strategy),
                 "--out", str(saved)]) == 0
    out = capsys.readouterr().out
    assert "locks: J=0,1" in out
    assert f"the locked game's value is {-5 / 18:.7g}" in out
    assert "exploitability in the locked game" in out and "exploitability in the full game" in out
    full = float(out.split("exploitability in the full game (a best response may change locked sets too): ")[1]
                 .split()[0])
    assert full > 0.05       # always betting the jack is far from Kuhn's equilibria
    document = json.loads(strategy.read_text())
    assert document["locks"] == {"J": [0.0, 1.0]}
    rows = {entry["key"]: entry["average_strategy"] for entry in document["infosets"]}
    assert rows["J"] == [0.0, 1.0]
    run = load_run(saved.read_bytes())
    assert run.settings.locks.text() == "J=0,1"
    exact = expected_value(run.tree, np.asarray(run.average_strategy[-1]))
    assert document["average_strategy_value"][0] == pytest.approx(exact, abs=1e-12)
    assert exact == pytest.approx(-5 / 18, abs=2 * float(run.exploitability[-1]) + 1e-9)
    printed = float(out.split("value of the average strategy for player 1: ")[1].split()[0])
    assert printed == pytest.approx(exact, abs=1e-6)


def test_two_lock_options_combine(capsys: pytest.CaptureFixture[str]) -> None:
    # Reference: the canonical text of the two locks, sorted by key.
    assert main(["solve", "kuhn", "-a", "cfr", "-n", "20", "--lock", "J b=0,1", "--lock", "J=0,1"]) == 0
    assert "locks: J=0,1;J b=0,1" in capsys.readouterr().out


@pytest.mark.parametrize(("lock", "phrase"), [
    ("Z=1,0", "no information set 'Z'"),
    ("J=0.5", "sums to 0.5"),
    ("J=1,0,0", "gives 3 probabilities"),
    ("J=-1,2", "negative probability"),
    ("garbage", "is not a lock"),
])
def test_bad_locks_end_in_one_sentence_and_exit_2(lock: str, phrase: str,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    # Reference: the checks of cfrviz.tree.locks, one sentence each, exit status 2.
    assert main(["solve", "kuhn", "-a", "cfr", "-n", "10", "--lock", lock]) == 2
    captured = capsys.readouterr()
    assert phrase in captured.err and captured.err.count("\n") == 1 and captured.out == ""
