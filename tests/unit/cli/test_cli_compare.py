"""`python -m cfrviz compare`, run as a user runs it: the summary table, the files it writes, the SVG
figure and one sentence for every bad argument.

The table writes numbers as the app and the static site do: the reference is `cfrviz.util.text.number`
of the same value (three significant digits, powers of ten below 0.001, the minus sign), with
exploitability's rounding noise below zero clamped to 0 by `clamped_exploitability` first."""
from __future__ import annotations

import io
import math
import re
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import cfrviz
from cfrviz.cli_compare import ProgressBar, format_summary
from cfrviz.solving.compare import COLUMNS
from cfrviz.util.intervals import log_t_interval
from cfrviz.util.text import ROUNDING_NOTE, clamped_exploitability, number
from tests.support.cli import refusal, run_cli

SVG = "{http://www.w3.org/2000/svg}"


def table_rows(stdout: str) -> dict[str, list[str]]:
    """The summary table's rows by algorithm title: the cells split on runs of two spaces or more."""
    lines = stdout.split("\n\n")[1].splitlines()
    header = [cell for cell in lines[0].split("  ") if cell.strip()]
    assert header[0] == "algorithm"
    return {row.split("  ")[0]: [cell.strip() for cell in row.split("  ") if cell.strip()] for row in lines[1:]}


def test_deterministic_comparison_prints_each_final_exploitability_as_solve_finds_it(tmp_path: Path) -> None:
    # Reference: cfrviz.solve with the same settings; the CSV is the tidy table, one row per snapshot.
    table_file = tmp_path / "table.csv"
    result = run_cli("compare", "kuhn", "-a", "cfr+,lcfr", "-n", "500", "--csv", str(table_file))
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""                              # not a terminal: no progress bar
    rows = table_rows(result.stdout)
    for title, algorithm in (("CFR+", "cfr+"), ("Linear CFR", "lcfr")):
        expected = cfrviz.solve("kuhn", algorithm, iterations=500).exploitability[-1]
        assert rows[title][4] == number(clamped_exploitability(expected))     # as the app writes it
    table = pd.read_csv(table_file)
    assert tuple(table.columns) == COLUMNS and len(table) == 2 * 500
    last = table[table["algorithm"] == "cfr+"].iloc[-1]
    assert last["exploitability"] == cfrviz.solve("kuhn", "cfr+", iterations=500).exploitability[-1]


def test_seeds_give_a_median_an_interval_parquet_and_an_svg_of_the_compare_figures(tmp_path: Path) -> None:
    # Reference: the seeds' own solves; the interval is log_t_interval of their final exploitability.
    parquet, picture = tmp_path / "table.parquet", tmp_path / "cmp.svg"
    result = run_cli("compare", "kuhn", "-a", "external,outcome", "-n", "300", "--seeds", "4",
                     "--parquet", str(parquet), "--plot", str(picture))
    assert result.returncode == 0, result.stderr
    row = table_rows(result.stdout)["Outcome-sampling MCCFR"]
    finals = np.array([cfrviz.solve("kuhn", "outcome", iterations=300, seed=s).exploitability[-1] for s in range(4)])
    assert row[3] == "4" and row[4] == number(clamped_exploitability(float(np.median(finals))))
    low, high = log_t_interval(finals[:, None])
    assert row[5] == f"{number(low[0])} to {number(high[0])}"
    assert "95% t-interval of the geometric mean" in result.stdout
    table = pd.read_parquet(parquet)
    assert sorted(set(table["seed"])) == [0, 1, 2, 3]
    svg = ElementTree.parse(picture).getroot()
    titles = [t.text or "" for t in svg.iter(f"{SVG}text") if (t.text or "").startswith("Exploitability")]
    assert len(titles) == 3 and {"iteration", "nodes touched", "solver seconds"} == {t.rsplit("against ", 1)[1]
                                                                                     for t in titles}
    legend = [t.text or "" for t in svg.iter(f"{SVG}text") if "MCCFR" in (t.text or "")]
    assert len(legend) == 6 and all(name.endswith("seeds 0-3)") for name in legend)
    assert sum("Median over seeds; shaded: 95% t-interval" in (t.text or "") for t in svg.iter(f"{SVG}text")) == 3
    assert len(list(svg.iter(f"{SVG}polygon"))) == 6                     # a band per line per panel
    assert len(list(svg.iter(f"{SVG}polyline"))) == 6


def cell(stdout: str, title: str, heading: str) -> str:
    """The cell under `heading` in the row of `title`, read by position: a right-justified column ends
    where its heading ends, so a cell that is not aligned is read wrong (or runs into its neighbour)."""
    lines = stdout.split("\n\n")[1].splitlines()
    header, row = lines[0], next(line for line in lines[1:] if line.startswith(title + "  "))
    if heading == "95% interval":                                            # the one left-justified number
        return row[header.index(heading):].split("  ")[0]
    end = header.index(heading) + len(heading)
    assert row[end:end + 2] in ("  ", ""), (heading, row)                   # the column ends where its heading does
    return re.split(r"\s{2,}", row[:end])[-1]


def test_the_summary_writes_numbers_as_the_app_does_with_rounding_noise_as_zero() -> None:
    # Hand-written expectations (cfrviz.util.text.number's rules): -1.39e-17 (PCFR+'s current strategy on
    # Kuhn at 176 iterations, below) is rounding noise and prints 0; 4.288e-06 prints 4.29e-06, 1.574e-05
    # as a signed value +1.57e-05, -0.0555555 −0.0556 with the minus sign, 0.0123456 s 0.0123.
    nan = math.nan
    summary = pd.DataFrame([
        {"game": "kuhn", "algorithm": "pcfr+", "updates": "alternating", "iterations": 176, "seeds": 1,
         "exploitability": 4.288e-06, "exploitability_low": nan, "exploitability_high": nan,
         "current_exploitability": -1.3877787807814457e-17, "node_visits": 7040.0, "seconds": 0.0123456,
         "value": -0.0555555},
        {"game": "kuhn", "algorithm": "outcome", "updates": "alternating", "iterations": 300, "seeds": 3,
         "exploitability": 0.1351, "exploitability_low": 0.07814, "exploitability_high": 0.2461,
         "current_exploitability": 0.224, "node_visits": 2531.0, "seconds": 0.0015, "value": 1.574e-05}])
    out = io.StringIO()
    format_summary(summary, "Kuhn poker", [], out)
    shown = out.getvalue()
    expected = {"Predictive CFR+": {"exploitability": "4.29e-06", "95% interval": "", "current expl.": "0",
                                    "node visits": "7,040", "seconds": "0.0123", "value": "−0.0556"},
                "Outcome-sampling MCCFR": {"exploitability": "0.135", "95% interval": "0.0781 to 0.246",
                                           "current expl.": "0.224", "node visits": "2,531", "seconds": "0.0015",
                                           "value": "+1.57e-05"}}
    for title, cells in expected.items():
        for heading, text in cells.items():
            assert cell(shown, title, heading) == text, (title, heading, shown)
    # The reference for every number cell: `number` of the same (clamped) value.
    for column, heading in (("exploitability", "exploitability"), ("current_exploitability", "current expl."),
                            ("seconds", "seconds")):
        for record in summary.to_dict("records"):
            title = {"pcfr+": "Predictive CFR+", "outcome": "Outcome-sampling MCCFR"}[record["algorithm"]]
            value = record[column] if column == "seconds" else clamped_exploitability(record[column])
            assert cell(shown, title, heading) == number(value)
    assert ROUNDING_NOTE in shown and "-1.39e-17" not in shown and "−1.39e-17" not in shown
    # Without rounding noise, no note.
    quiet = io.StringIO()
    format_summary(summary.assign(current_exploitability=[0.0, 0.224]), "Kuhn poker", [], quiet)
    assert ROUNDING_NOTE not in quiet.getvalue()


def test_rounding_noise_below_zero_prints_and_saves_as_zero(tmp_path: Path) -> None:
    # Reference: cfrviz.solve itself: PCFR+'s current strategy on Kuhn after 176 iterations is an exact
    # equilibrium, and its exploitability comes out as -1.39e-17 in floating point (checked here first).
    raw = cfrviz.solve("kuhn", "pcfr+", iterations=176)
    assert -1e-15 < float(raw.current_exploitability[-1]) < 0
    table_file = tmp_path / "table.csv"
    result = run_cli("compare", "kuhn", "-a", "pcfr+", "-n", "176", "--csv", str(table_file))
    assert result.returncode == 0, result.stderr
    assert cell(result.stdout, "Predictive CFR+", "current expl.") == "0"
    assert cell(result.stdout, "Predictive CFR+", "exploitability") == number(float(raw.exploitability[-1]))
    assert ROUNDING_NOTE in result.stdout
    # The file keeps full precision and writes the noise as 0, as the app's CSV files do.
    table = pd.read_csv(table_file)
    assert (table["current_exploitability"] >= 0).all() and table["current_exploitability"].iloc[-1] == 0.0
    current = np.array([clamped_exploitability(float(v)) for v in raw.current_exploitability])
    assert np.array_equal(table["current_exploitability"].to_numpy(), current)
    assert np.array_equal(table["exploitability"].to_numpy(), np.asarray(raw.exploitability, dtype=float))


@pytest.mark.parametrize("args, words", [
    (["compare", "kuhn", "-n", "10"], "--algorithms"),
    (["compare", "kuhn", "-a", "cfr,cfr++", "-n", "10"], "Unknown algorithm 'cfr++'"),
    (["compare", "kuhn", "-a", "rm", "-n", "10"], "Unknown algorithm 'rm'"),
    (["compare", "rps", "-a", "cfr", "-n", "10"], "matrix game"),
    (["compare", "chess", "-a", "cfr", "-n", "10"], "Unknown game 'chess'"),
    (["compare", "kuhn", "-a", "cfr", "-n", "0"], "at least 1"),
    (["compare", "kuhn", "-a", "cfr", "-n", "٣"], "digits 0 to 9"),
    (["compare", "leduc", "-a", "cfr", "-n", "1" + "0" * 9], "capped at 1,000,000"),
    (["compare", "kuhn", "-a", "outcome", "-n", "10", "--seeds", "0"], "at least 1"),
    (["compare", "kuhn", "-a", "cfr", "-n", "10", "--updates", "sideways"], "Unknown update scheme 'sideways'"),
    (["compare", "kuhn", "-a", "pcfr+", "-n", "10", "--updates", "simultaneous"], "alternating"),
    (["compare", "kuhn", "-a", "cfr", "-n", "10", "--plot", "cmp.png"], ".svg"),
    (["compare", "kuhn", "-a", "cfr", "-n", "10", "--csv", "a.csv", "--parquet", "a.parquet"], "not allowed with"),
    (["compare", "kuhn", "-a", "cfr", "-n", "10", "--csv", "/nonexistent/a.csv"], "does not exist"),
    (["compare", "kuhn", "-a", "cfr", "-n", "10", "--strategy", "best"], "Unknown strategy 'best'"),
])
def test_bad_arguments_are_one_sentence(args: list[str], words: str) -> None:
    sentence = refusal(run_cli(*args))
    assert words in sentence, sentence


def test_an_svg_and_a_table_file_may_not_be_the_same_file(tmp_path: Path) -> None:
    same = tmp_path / "out.svg"
    assert "different files" in refusal(run_cli("compare", "kuhn", "-a", "cfr", "-n", "5", "--csv", str(same),
                                                "--plot", str(same)))
    assert not same.exists()


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_the_progress_bar_draws_on_a_terminal_only_and_clears_itself() -> None:
    terminal, pipe = _Terminal(), io.StringIO()
    for stream in (terminal, pipe):
        bar = ProgressBar(stream, after=0.0)
        bar(0.5)
        bar(1.0)
        bar.close()
    assert pipe.getvalue() == ""
    drawn = terminal.getvalue()
    assert " 50%" in drawn and "100%" in drawn and drawn.endswith("\r")
