"""`cfrviz.compare`: the tidy table, its summary and its lines, against the solves they come from."""
from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

import cfrviz
from cfrviz import analysis
from cfrviz.util.intervals import log_t_interval
from cfrviz.solving.compare import (
    COLUMNS,
    compare,
    lines_from_table,
    summary_table,
)


def test_deterministic_rows_are_cfrviz_solve_for_the_same_settings() -> None:
    # Reference: cfrviz.solve with the same game, algorithm, iterations and updates; the table
    # must carry that run's curves unchanged, and its value column is analysis.expected_value of
    # each snapshot's average strategy.
    table = compare("kuhn", ["cfr+", "lcfr"], 300, ["alternating", "simultaneous"])
    assert tuple(table.columns) == COLUMNS
    assert list(table.attrs["skipped"]) == []
    for (algorithm, updates), rows in table.groupby(["algorithm", "updates"]):
        run = cfrviz.solve("kuhn", algorithm, iterations=300, updates=updates)
        assert set(rows["seed"]) == {0} and set(rows["game"]) == {"kuhn"}
        np.testing.assert_array_equal(rows["iteration"], run.iterations)
        np.testing.assert_array_equal(rows["exploitability"], run.exploitability)
        np.testing.assert_array_equal(rows["current_exploitability"], run.current_exploitability)
        np.testing.assert_array_equal(rows["node_visits"], run.nodes_touched)
        assert rows["value"].iloc[-1] == pytest.approx(analysis.expected_value(run.tree, run.average_strategy[-1]),
                                                       abs=1e-15)
        assert np.all(np.diff(rows["seconds"]) >= 0) and rows["seconds"].iloc[-1] > 0
    summary = summary_table(table)
    final = summary.set_index(["algorithm", "updates"]).loc[("cfr+", "alternating")]
    assert final["exploitability"] == cfrviz.solve("kuhn", "cfr+", iterations=300).exploitability[-1]
    assert final["seeds"] == 1 and math.isnan(final["exploitability_low"])


def test_sampling_methods_run_every_seed_and_the_summary_gives_their_median_and_t_interval() -> None:
    # Reference: each seed's own cfrviz.solve; the interval is log_t_interval of the seeds' finals
    # (its arithmetic is checked on hand-computed numbers in test_compare.py).
    table = compare(["kuhn"], "outcome", 20, seeds=[3, 5, 8], sampling_iterations=400)
    finals = []
    for seed in (3, 5, 8):
        rows = table[table["seed"] == seed]
        run = cfrviz.solve("kuhn", "outcome", iterations=400, seed=seed)
        np.testing.assert_array_equal(rows["exploitability"], run.exploitability)
        finals.append(run.exploitability[-1])
    row = summary_table(table).iloc[0]
    assert row["seeds"] == 3 and row["iterations"] == 400
    assert row["exploitability"] == np.median(finals)
    low, high = log_t_interval(np.array(finals)[:, None])
    assert (row["exploitability_low"], row["exploitability_high"]) == (low[0], high[0])
    (line,) = lines_from_table(table)
    assert line.entry.seeds == (3, 5, 8) and line.band.startswith("95% t-interval")
    assert line.exploitability[-1] == np.median(finals)


def test_a_pair_an_algorithm_does_not_define_is_skipped_with_a_note() -> None:
    # Reference: PCFR+ is defined with alternating updates only (cfrviz.solvers.update_schemes).
    table = compare("kuhn", ["cfr", "pcfr+"], 10, ["simultaneous"])
    assert set(table["algorithm"]) == {"cfr"}
    assert any("Predictive CFR+" in note for note in table.attrs["skipped"])


@pytest.mark.parametrize("call, words", [
    (lambda: compare("rps", "cfr", 10), "matrix game"),
    (lambda: compare("kuhn", "rm", 10), "Compare CFR algorithms"),
    (lambda: compare("kuhn", "cfr", 0), "at least 1"),
    (lambda: compare("kuhn", "cfr", 10, "sideways"), "Unknown update scheme"),
    (lambda: compare("kuhn", "outcome", 10, seeds=0), "at least 1 seed"),
    (lambda: compare("kuhn", "outcome", 10, seeds=[1, 1]), "each seed once"),
    (lambda: compare("kuhn", [], 10), "at least one algorithm"),
    (lambda: compare("chess", "cfr", 10), "chess"),
])
def test_bad_arguments_are_one_sentence(call, words: str) -> None:
    with pytest.raises(ValueError, match=words):
        call()


def test_the_table_is_held_to_the_memory_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    # Reference: cfrviz.util.memory reads the budget from CFRVIZ_MEMORY_MB; 1 MB holds Kuhn's runs
    # but not 1,000 seeds x 2,000 snapshots of table rows (about 240 MB at 120 bytes a row).
    monkeypatch.setenv("CFRVIZ_MEMORY_MB", "1")
    with pytest.raises(ValueError, match="table would take .* budget"):
        compare("kuhn", "outcome", 20_000, seeds=1000)


def test_progress_reaches_one_and_never_goes_back() -> None:
    seen: list[float] = []
    compare("kuhn", ["cfr", "external"], 50, seeds=2, progress=seen.append)
    assert seen and seen[-1] == pytest.approx(1.0) and all(b >= a for a, b in zip(seen, seen[1:]))


def test_two_games_share_one_table() -> None:
    table = compare(["kuhn", "kuhn4"], "cfr+", 20)
    assert list(pd.unique(table["game"])) == ["kuhn", "kuhn4"]
    assert len(summary_table(table)) == 2
    with pytest.raises(ValueError, match="one game at a time"):
        lines_from_table(table)
