"""Compare: the plan, lines over fixed seeds, timing after a warm-up, CSV files, the figure and the page."""
from __future__ import annotations

import csv
import io
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from cfrviz.figures.timeline import read_component_data

import cfrviz
from cfrviz import analysis
from cfrviz.app.compare_budget import check_work, node_visits
from cfrviz.util.intervals import log_t_interval
from cfrviz.solving.compare import (
    CURVE_COLUMNS,
    Entry,
    _entry_table,
    curves_csv,
    fixed_seeds,
    line_from_table,
    measure_line,
    plan,
    summary,
    table_csv,
    timed_seconds,
)
from cfrviz.figures.compare import algorithm_color, comparison_figure
from cfrviz.figures.convergence import exploitability_figure
from cfrviz.solvers import ALGORITHMS
from cfrviz.catalog import compile_game
from tests.support.apptest import charts
from tests.support.figures import plotly_json

APP = str(Path(__file__).resolve().parents[3] / "app.py")
KUHN = cfrviz.catalog.get("kuhn")


def test_plan_skips_impossible_pairs_and_gives_sampling_its_fixed_seeds() -> None:
    entries, skipped = plan(["cfr", "outcome", "pcfr+"], ["simultaneous", "alternating"], 100, 1000,
                            fixed_seeds(3, first=7))
    assert [(e.algorithm, e.updates, e.iterations, e.seeds) for e in entries] == [
        ("cfr", "simultaneous", 100, (0,)), ("cfr", "alternating", 100, (0,)),
        ("outcome", "alternating", 1000, (7, 8, 9)), ("pcfr+", "alternating", 100, (0,))]
    assert len(skipped) == 2 and all("alternating" in note for note in skipped)
    assert entries[2].label == "Outcome-sampling MCCFR (alternating, seeds 7-9)"
    with pytest.raises(ValueError, match="Compare CFR algorithms"):
        plan(["rm"], ["alternating"], 10, 10)
    with pytest.raises(ValueError, match="at least 1 seed"):
        fixed_seeds(0)
    assert len(fixed_seeds(30)) == 30                  # any number of seeds outside the app
    with pytest.raises(ValueError, match="with 1 to 10 seeds on this shared server"):
        check_work(plan(["outcome"], ["alternating"], 10, 10, fixed_seeds(11))[0], 100, 1)
    with pytest.raises(ValueError, match="needs 80 solves"):
        check_work(plan(["chance", "external", "outcome"], ["simultaneous", "alternating"], 10, 10,
                        fixed_seeds(10) * 2)[0], 100, 1)


def test_sampling_band_is_a_t_interval_of_fixed_seeds_around_their_median() -> None:
    # Reference: the five runs themselves, solved with seeds 0-4, and the band recomputed by hand
    # from them (Student's t with 4 degrees of freedom on log10 values); a second line from the same
    # seeds is identical (fixed seeds make the band reproducible).
    entry = Entry("outcome", "alternating", 300, fixed_seeds(5))
    runs = [cfrviz.solve("kuhn", "outcome", iterations=300, seed=s) for s in entry.seeds]
    table = _entry_table(KUHN, entry).frame
    line = line_from_table(entry, table)
    each = np.stack([r.exploitability for r in runs])
    np.testing.assert_array_equal(line.exploitability, np.median(each, axis=0))
    logs = np.log10(each)
    half = 2.7764451052 * logs.std(axis=0, ddof=1) / np.sqrt(5)     # t(0.975, 4)
    np.testing.assert_allclose(line.exploitability_low, 10 ** (logs.mean(axis=0) - half), rtol=1e-9)
    np.testing.assert_allclose(line.exploitability_high, 10 ** (logs.mean(axis=0) + half), rtol=1e-9)
    assert np.any(line.exploitability_high > line.exploitability_low)       # the seeds really differ
    current = np.stack([r.current_exploitability for r in runs])
    np.testing.assert_array_equal(line.current_exploitability, np.median(current, axis=0))
    again = line_from_table(entry, _entry_table(KUHN, entry).frame)
    np.testing.assert_array_equal(again.exploitability, line.exploitability)
    assert line.band == "95% t-interval of the geometric mean over 5 seeds"
    with pytest.raises(ValueError, match="one run per seed"):
        line_from_table(entry, table[table["seed"] < 2])


def test_t_interval_on_hand_computed_numbers() -> None:
    # Hand computation: log10 of (1e-2, 1e-3, 1e-4) is (-2, -3, -4): mean -3, sample sd 1, n 3;
    # t(0.975, 2) = 4.3026527297 (Student's t table, 10 digits), so the half width is 4.3026527297 / sqrt(3)
    # = 2.484137 decades: 10 ** -5.484137 to 10 ** -0.515863.
    low, high = log_t_interval(np.array([[1e-2], [1e-3], [1e-4]]))
    half = 4.3026527297 / np.sqrt(3)
    assert low[0] == pytest.approx(10 ** (-3 - half), rel=1e-9)
    assert high[0] == pytest.approx(10 ** (-3 + half), rel=1e-9)
    # 90%: t(0.95, 2) = 2.9199855804.
    low, high = log_t_interval(np.array([[1e-2], [1e-3], [1e-4]]), confidence=0.9)
    assert high[0] == pytest.approx(10 ** (-3 + 2.9199855804 / np.sqrt(3)), rel=1e-9)
    # Equal samples: no spread, the interval is the point. One sample, or a zero: no interval.
    low, high = log_t_interval(np.array([[0.5, 0.0], [0.5, 0.1]]))
    assert low[0] == pytest.approx(0.5, rel=1e-12) and high[0] == pytest.approx(0.5, rel=1e-12)
    assert np.isnan(low[1]) and np.isnan(high[1])
    assert np.all(np.isnan(log_t_interval(np.array([[0.5, 0.1]]))[0]))


def test_timing_is_a_median_of_repeats_over_the_default_snapshots() -> None:
    tree = compile_game("kuhn")
    entry = Entry("cfr", "alternating", 50)
    seconds = timed_seconds(tree, entry, repeats=3)
    assert seconds.shape == (50,) and np.all(seconds > 0) and np.all(np.diff(seconds) >= 0)
    with pytest.raises(ValueError, match="1 to 9 times"):
        timed_seconds(tree, entry, repeats=0)
    line = measure_line(KUHN, entry, repeats=2)
    assert line.repeats == 2 and line.seconds.shape == line.iterations.shape


def test_summary_and_csv_files_round_trip_at_full_precision() -> None:
    lines = [measure_line(KUHN, Entry("cfr+", "alternating", 2000), repeats=1),
             measure_line(KUHN, Entry("external", "alternating", 200, fixed_seeds(2)), repeats=1)]
    rows = summary(lines)
    # Kuhn's α family (Kuhn 1950): the nearest α lies in [0, 1/3]; CFR+'s average is close to it.
    alpha = rows[0]["α heads for"]
    assert isinstance(alpha, float) and 0.0 <= alpha <= 1 / 3
    assert rows[0]["exploitability"] == lines[0].exploitability[-1] < 1e-3
    assert rows[1]["seeds"] == "0-1" and rows[0]["seeds"] == ""
    table = list(csv.DictReader(io.StringIO(table_csv(rows))))
    assert [r["algorithm"] for r in table] == ["CFR+", "External-sampling MCCFR"]
    assert float(table[0]["exploitability"]) == rows[0]["exploitability"]
    curves = list(csv.reader(io.StringIO(curves_csv(lines))))
    assert tuple(curves[0]) == CURVE_COLUMNS
    assert len(curves) == 1 + sum(len(line.iterations) for line in lines)
    last_cfr_plus = curves[len(lines[0].iterations)]
    assert last_cfr_plus[:5] == ["cfr+", "alternating", "", "0", "2000"]
    assert float(last_cfr_plus[CURVE_COLUMNS.index("exploitability")]) == lines[0].exploitability[-1]
    assert float(last_cfr_plus[CURVE_COLUMNS.index("current_exploitability")]) == lines[0].current_exploitability[-1]


def test_the_curves_csv_writes_rounding_noise_below_zero_as_0() -> None:
    # Reference: Compare's table and CSV showed -6.94e-18 (issue 30, defect 5). Exploitability is never
    # negative: within 1e-9 below zero is rounding, written 0.0; -0.1 is no rounding and is kept, to be seen.
    line = measure_line(KUHN, Entry("cfr+", "alternating", 20), repeats=1)
    noisy = np.array(line.exploitability)
    noisy[-1] = -6.94e-18
    wrong = np.array(line.current_exploitability)
    wrong[-1] = -0.1
    last = list(csv.reader(io.StringIO(curves_csv([replace(line, exploitability=noisy,
                                                                current_exploitability=wrong)]))))[-1]
    assert last[CURVE_COLUMNS.index("exploitability")] == "0.0"
    assert last[CURVE_COLUMNS.index("current_exploitability")] == "-0.1"
    assert float(last[CURVE_COLUMNS.index("nodes_touched")]) == line.nodes_touched[-1]


def test_figure_colours_by_algorithm_dashes_by_scheme_and_keeps_the_legend_off_the_axis_title() -> None:
    lines = [measure_line(KUHN, Entry("cfr+", scheme, 30), repeats=1) for scheme in ("alternating", "simultaneous")]
    lines.append(measure_line(KUHN, Entry("chance", "alternating", 100, fixed_seeds(3)), repeats=2))
    fig = plotly_json(comparison_figure(lines, "seconds", "both"))
    named = [t for t in fig["data"] if t.get("showlegend") is not False]
    plus = [t for t in named if t["meta"]["algorithm"] == "cfr+"]
    assert {t["line"]["color"] for t in plus} == {algorithm_color("cfr+")}
    assert {(t["meta"]["updates"], t["line"]["dash"]) for t in plus} == {("alternating", "solid"),
                                                                        ("simultaneous", "dash")}
    assert {t["meta"]["strategy"] for t in named} == {"average", "current"}
    bands = [t for t in fig["data"] if t.get("meta", {}).get("band")]
    assert len(bands) == 4 and all(t["meta"]["algorithm"] == "chance" for t in bands)   # average + current
    # The legend says what the band is; without a line over several seeds there is no band to name.
    assert "Median over seeds; shaded: 95% t-interval" in fig["layout"]["legend"]["title"]["text"]
    assert "title" not in plotly_json(comparison_figure(lines[:2]))["layout"]["legend"]
    # The legend sits under the plot area (beside it, it squeezed a phone's plot to about 100 px);
    # the x-axis title, between them, says how time was taken.
    legend = fig["layout"]["legend"]
    assert legend["orientation"] == "h" and legend["y"] < 0 and legend["yanchor"] == "top"
    assert "median of 1-2 timed solves after a warm-up" in fig["layout"]["xaxis"]["title"]["text"]
    assert len(ALGORITHMS) - 1 == len({algorithm_color(a) for a in ALGORITHMS if a != "rm"})
    with pytest.raises(ValueError, match="x axis"):
        comparison_figure(lines, "minutes")


@pytest.mark.parametrize("strategy, fields", [("average", ["average"]), ("current", ["current"]),
                                              ("both", ["average", "current"])])
def test_convergence_chart_shows_average_current_or_both(strategy: str, fields: list[str]) -> None:
    run = cfrviz.solve("kuhn", "pcfr+", iterations=100)
    fig = exploitability_figure(run, 10, strategy=strategy)
    curves = [t for t in fig.data if "strategy" in (t.meta or {})]
    assert [t.meta["strategy"] for t in curves] == fields
    for trace in curves:
        source = run.exploitability if trace.meta["strategy"] == "average" else run.current_exploitability
        ys = np.asarray(trace.y, dtype=float)
        np.testing.assert_array_equal(ys, source[source > 0])
    with pytest.raises(ValueError, match="'both'"):
        exploitability_figure(run, strategy="best")


def open_compare() -> AppTest:
    at = AppTest.from_file(APP, default_timeout=300)
    at.run()
    at.switch_page("pages/4_Compare.py").run()
    assert not at.exception, at.exception
    return at


def test_compare_page_with_every_algorithm_and_both_schemes() -> None:
    at = open_compare()
    at.multiselect(key="cmp_algos").set_value([a for a in ALGORITHMS if a != "rm"])
    at.multiselect(key="cmp_updates").set_value(["simultaneous", "alternating"])
    at.number_input(key="cmp_iters").set_value(40)
    at.number_input(key="cmp_sampling_iters").set_value(200)
    at.number_input(key="cmp_seeds").set_value(2)
    at.number_input(key="cmp_repeats").set_value(1).run()
    assert not at.exception, at.exception
    specs = charts(at)
    assert len(specs) == 3
    # 5 algorithms with both schemes, 5 alternating only, and the sidebar's run (CFR, alternating).
    expected = 5 * 2 + 5 + 1
    for chart in specs:
        named = [t for t in chart["data"] if t.get("showlegend") is not False]
        assert len(named) == expected
        assert {t["meta"]["algorithm"] for t in named} == {a for a in ALGORITHMS if a != "rm"}
        assert sum(t["meta"]["sidebar"] for t in named) == 1
    assert "timed solves after a warm-up" in specs[2]["layout"]["xaxis"]["title"]["text"]
    table = at.dataframe[0].value
    assert len(table) == expected and set(table["iterations"]) == {40, 200, 1000}
    assert {b.proto.label for b in at.get("download_button")} == {"Table (CSV)", "Curves (CSV)"}


def test_compare_settings_survive_a_page_switch() -> None:
    at = open_compare()
    at.multiselect(key="cmp_algos").set_value(["cfr+", "pdcfr+"])
    at.number_input(key="cmp_iters").set_value(30).run()
    at.switch_page("pages/3_Convergence.py").run()
    at.switch_page("pages/4_Compare.py").run()
    assert not at.exception, at.exception
    assert at.multiselect(key="cmp_algos").value == ["cfr+", "pdcfr+"]
    assert at.number_input(key="cmp_iters").value == 30


def test_current_exploitability_of_a_compare_line_is_that_of_the_solvers_last_iterate() -> None:
    # Reference: analysis.exploitability of PDCFR+'s strategy played in iteration 30.
    line = measure_line(KUHN, Entry("pdcfr+", "alternating", 30), repeats=1)
    run = cfrviz.solve("kuhn", "pdcfr+", iterations=30)
    assert line.current_exploitability[-1] == pytest.approx(
        analysis.exploitability(run.tree, run.current_strategy[-1]), abs=1e-12)


def test_convergence_page_offers_average_current_or_both() -> None:
    at = AppTest.from_file(APP, default_timeout=300)
    at.query_params["algo"] = "pcfr+"
    at.run()
    at.switch_page("pages/3_Convergence.py").run()
    at.radio(key="convergence_strategy").set_value("both").run()
    assert not at.exception, at.exception
    chart = next(c for c in charts(at) if "Exploitability" in c["layout"]["title"]["text"])
    assert [t["meta"]["strategy"] for t in chart["data"] if "strategy" in (t.get("meta") or {})] == ["average",
                                                                                                    "current"]


def test_one_comparison_is_bounded_in_tree_node_visits() -> None:
    # Reference: the bound counts iterations x 2 passes x (nodes + 40 for the iteration's own work)
    # x (seeds + timed solves), by hand.
    entries, _ = plan(["cfr", "external"], ["alternating"], 1000, 10_000, fixed_seeds(5))
    assert node_visits(entries, 1936, 3) == 1000 * 2 * 1976 * (1 + 3) + 10_000 * 2 * 1976 * (5 + 3)
    sidebar = Entry("cfr", "simultaneous", 1000, sidebar=True)
    check_work(entries + [sidebar], 1936, 3)            # Leduc's default comparison is allowed
    every = [a for a in ALGORITHMS if a != "rm"]
    entries, _ = plan(every, ["simultaneous", "alternating"], 20_000, 20_000, fixed_seeds(2))
    with pytest.raises(ValueError, match="million tree nodes.*algorithms[.]"):
        check_work(entries, 1936, 9)
    # The sidebar's run is timed too: Leduc's at 20,000 iterations with 9 timed solves is
    # 20,000 x 2 x 1,976 x 10 = 790 million visits alone.
    with pytest.raises(ValueError, match="leave out the sidebar's run"):
        check_work([Entry("cfr", "alternating", 20_000, sidebar=True)], 1936, 9)


@pytest.mark.parametrize("algorithm", ["pcfr+", "dcfr+", "pdcfr+"])
def test_walkthrough_page_replays_the_new_algorithms(algorithm: str) -> None:
    at = AppTest.from_file(APP, default_timeout=300)
    at.run()
    at.switch_page("pages/6_Walkthrough.py").run()
    at.selectbox(key="walk_algo").set_value(algorithm).run()
    assert not at.exception, at.exception
    # They alternate by definition: the page offers only that scheme.
    assert at.radio(key="walk_updates").options == ["alternating"]
    # The trace (with its table of information sets) goes to the browser's walkthrough mode.
    (element,) = at.get("bidi_component")
    header, payload = read_component_data(element.proto.bytes)
    assert header["mode"] == "walkthrough" and payload["extra"]["steps"]["kind"], "the trace is drawn"


def test_every_solve_of_a_line_waits_for_the_gate() -> None:
    # Reference: a line of one seed and one timed solve makes three solves (the run, a warm-up and
    # the timed one); each must take the gate, so while another holds it the line cannot finish.
    import threading

    from cfrviz.run.cache import RunCache

    cache = RunCache(10**9, 4, 1)
    taken: list[int] = []
    waited = threading.Event()

    def slot():
        taken.append(1)
        return cache.solver_slot(waited.set)

    lines: list[Any] = []
    worker = threading.Thread(target=lambda: lines.append(
        measure_line(KUHN, Entry("cfr+", "alternating", 25), repeats=1, solver_slot=slot)))
    with cache.solver_slot():                            # another visitor's solve holds the gate
        worker.start()
        assert waited.wait(timeout=120)
        assert worker.is_alive() and not lines
    worker.join(timeout=300)
    assert len(lines) == 1 and len(taken) == 3 and cache.stats().waits == 1
    assert lines[0].exploitability[-1] == pytest.approx(
        cfrviz.solve("kuhn", "cfr+", iterations=25).exploitability[-1], abs=1e-12)


def test_the_compare_page_waits_for_another_visitors_solve(monkeypatch: pytest.MonkeyPatch) -> None:
    # Reference: the page's one algorithm, one scheme, one timed solve and no sidebar run make three
    # solves (run, warm-up, timed), all through the process's gate (`ui.shared_runs()`).
    import contextlib
    import threading

    from cfrviz import app as ui

    at = open_compare()
    at.multiselect(key="cmp_algos").set_value(["lcfr"])
    at.multiselect(key="cmp_updates").set_value(["alternating"])
    at.number_input(key="cmp_iters").set_value(43)
    at.number_input(key="cmp_repeats").set_value(1)
    at.checkbox(key="cmp_sidebar").set_value(False)
    cache = ui.shared_runs()
    hold = cache.solver_slot
    taken: list[int] = []
    waited = threading.Event()

    def slot(on_wait=None):
        taken.append(1)

        def report() -> None:
            waited.set()
            if on_wait is not None:
                on_wait()
        return hold(report)

    monkeypatch.setattr(cache, "solver_slot", slot)
    page = threading.Thread(target=at.run)
    with contextlib.ExitStack() as others:
        for _ in range(ui.CONCURRENT_SOLVES):            # other visitors' solves hold every slot
            others.enter_context(hold())
        page.start()
        assert waited.wait(timeout=120)
        assert page.is_alive()
    page.join(timeout=300)
    assert not page.is_alive() and not at.exception, at.exception
    assert len(taken) == 3
    assert at.dataframe[0].value["iterations"].tolist() == [43]
