"""Compare's, Regret matching's and the Walkthrough's first views are computed once per server start
and pinned: a first visit of each page costs no solve, and shows the same numbers as before.

Reference: the issue "A class at once" asks that each page's default view (the settings a first
visit gets) be computed once per server start and then cost no solve. The numbers are checked
against the computation the pages made before the move, written out here with its literal
arguments (the page settings' defaults: rock-paper-scissors with 10,000 iterations of expected-value
self-play from the leaning start, every 2nd kept; Kuhn, chance sampling, Q against K, iteration 1,
seed 0; Kuhn with CFR, CFR+, DCFR, PCFR+, PDCFR+ at 1,000 iterations and external sampling at 10,000
with seeds 0-4, all alternating, plus the sidebar's CFR run, 1,000 simultaneous iterations).
"""
from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest
import streamlit as st

from cfrviz import catalog
from cfrviz.app import page_results, solving
from cfrviz.games.matrix import PRESETS
from cfrviz.run.cache import RunCache
from cfrviz.solvers import matrix
from cfrviz.solving import compare
from cfrviz.solving.compare import Entry
from cfrviz.teaching import walkthrough
from cfrviz.util.text import clamped_exploitability, number
from tests.support.apptest import open_page


def counting(calls: Counter[str], name: str, work: Callable[..., Any]) -> Callable[..., Any]:
    def counted(*args: Any, **kwargs: Any) -> Any:
        calls[name] += 1
        return work(*args, **kwargs)
    return counted


@pytest.fixture(scope="module")
def calls() -> Iterator[Counter[str]]:
    """A server start: empty caches (the pages' Streamlit caches too, which the old pages used),
    every computation of the three pages counted, then the defaults computed."""
    counted: Counter[str] = Counter()
    earlier = solving._warm_thread
    if earlier is not None:     # an earlier test's warm-up: its default solves must not run among these counts
        earlier.join(timeout=300)
    with pytest.MonkeyPatch.context() as patch:
        # The pages' `start_warmup()` finds a warm-up and starts none: this fixture is the server start.
        patch.setattr(solving, "_warm_thread", threading.Thread(name="this module's server start"))
        st.cache_data.clear()
        st.cache_resource.clear()
        patch.setattr(solving, "_shared", RunCache(solving.RUN_CACHE_BYTES, solving.RUN_CACHE_ENTRIES,
                                                   solving.CONCURRENT_SOLVES))
        for name in ("compare_lines", "regret_paths", "walk_traces"):
            old = getattr(page_results, name)
            patch.setattr(page_results, name, page_results.SharedResults(old.name, old._lru.maxsize, old._lru.max_entries))
        patch.setattr(compare, "measure_line", counting(counted, "compare", compare.measure_line))
        patch.setattr(matrix, "regret_matching_path", counting(counted, "regret matching", matrix.regret_matching_path))
        patch.setattr(walkthrough, "trace_iteration", counting(counted, "walkthrough", walkthrough.trace_iteration))
        solving._presolve_defaults(page_results.pin_first_views)
        yield counted


@pytest.fixture(scope="module")
def at_start(calls: Counter[str]) -> Counter[str]:
    """What the server start computed (taken before any visit of this module)."""
    return Counter(calls)


def test_the_first_views_are_computed_at_start(at_start: Counter[str]) -> None:
    assert at_start == Counter({"compare": 7, "regret matching": 1, "walkthrough": 1})


def test_regret_matching_on_a_first_visit_costs_no_solve(at_start: Counter[str], calls: Counter[str]) -> None:
    calls.clear()
    solves = solving.shared_runs().stats().solves
    at = open_page("pages/5_Regret_matching.py")
    assert calls == Counter() and solving.shared_runs().stats().solves == solves
    assert any(c.value.startswith("Exact equilibrium: player 1 rock 0.333") for c in at.caption)
    path = page_results.regret_matching_path(page_results.regret_matching_first_visit())
    rps = np.array(PRESETS["rps"].payoffs, dtype=float)
    reference = matrix.regret_matching_path(rps, 10_000, opponent=None, sampled=False, seed=0, updates="simultaneous",
                                            every=2, start_regret=((1.0, 0.0, 0.0), (0.0, 1.0, 0.0)))
    for field in ("iterations", "current_row", "average_row", "current_column", "average_column", "value"):
        assert np.array_equal(getattr(path, field), getattr(reference, field)), field


def test_the_walkthrough_on_a_first_visit_costs_no_solve(at_start: Counter[str], calls: Counter[str]) -> None:
    calls.clear()
    at = open_page("pages/6_Walkthrough.py")
    assert calls == Counter()
    tree = catalog.get("kuhn").tree()
    regret, strategy_sum, prediction, _ = walkthrough.solver_state(tree, "chance", "simultaneous", 0, 1)
    reference = walkthrough.trace_iteration(tree, regret, strategy_sum, prediction=prediction, algorithm="chance",
                                            updates="simultaneous", iteration=1, deal="QK",
                                            rng=np.random.default_rng([0, 1]))
    assert any(c.value.startswith(f"{len(reference.steps):,} steps · deal QK · iteration 1.") for c in at.caption)
    trace = page_results.walkthrough_trace(page_results.walkthrough_first_visit())
    assert trace.steps == reference.steps and trace.value == reference.value
    assert np.array_equal(trace.cumulative_regret_after, reference.cumulative_regret_after)


def test_compare_on_a_first_visit_costs_no_solve(at_start: Counter[str], calls: Counter[str]) -> None:
    calls.clear()
    solves = solving.shared_runs().stats().solves
    at = open_page("pages/4_Compare.py")
    assert calls == Counter() and solving.shared_runs().stats().solves == solves
    shown = at.dataframe[0].value
    full = [Entry(a, "alternating", 1000) for a in ("cfr", "cfr+", "dcfr", "pcfr+", "pdcfr+")]
    entries = [*full, Entry("external", "alternating", 10_000, (0, 1, 2, 3, 4)),
               Entry("cfr", "simultaneous", 1000, (0,), sidebar=True)]
    assert len(shown) == len(entries)
    for row, entry in zip(shown.to_dict("records"), entries):
        line = compare.measure_line(catalog.get("kuhn"), entry, repeats=1)   # seconds are timed anew; the curves are exact
        assert row["iterations"] == entry.iterations and row["updates"] == entry.updates
        # The screen writes them with the app's one formatter (the CSV keeps full precision).
        assert row["exploitability"] == number(clamped_exploitability(float(line.exploitability[-1])))
        assert row["current exploitability"] == number(clamped_exploitability(float(line.current_exploitability[-1])))
        assert row["nodes touched"] == round(float(line.nodes_touched[-1]))
