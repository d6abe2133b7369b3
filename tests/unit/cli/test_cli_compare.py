"""`python -m cfrviz compare`, run as a user runs it: the summary table, the files it writes, the SVG
figure and one sentence for every bad argument."""
from __future__ import annotations

import io
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import cfrviz
from cfrviz.cli_compare import ProgressBar
from cfrviz.solving.compare import COLUMNS
from cfrviz.util.intervals import log_t_interval
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
        assert float(rows[title][4]) == pytest.approx(expected, rel=1e-3)     # printed to 4 digits
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
    assert row[3] == "4" and float(row[4]) == pytest.approx(np.median(finals), rel=1e-3)
    low, high = log_t_interval(finals[:, None])
    assert row[5] == f"{low[0]:.2e} to {high[0]:.2e}"
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
