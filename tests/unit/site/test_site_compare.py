"""The site's Compare page: its menu entries are checked like runs, and its table is `summary_table`
of `cfrviz.compare` for the same settings.

References: `cfrviz.compare` and `summary_table` (cfrviz/solving/compare.py) computed here again for the
same arguments: every number is seeded, so the page must hold exactly the same values, except the
solver seconds (a wall-clock measure, never equal twice). The app's iteration cap of Kuhn poker
(100,000, `GameSpec.app_iteration_cap`) and the menu format written in cfrviz/site/menu.py. Numbers
are written as the app writes them: `cfrviz.util.text.number` of the same value, exploitability's
rounding noise below zero clamped to 0 first (`clamped_exploitability`), with the app's note.
"""
from __future__ import annotations

import json
import math
import re
from html.parser import HTMLParser
from pathlib import Path

import pandas as pd
import pytest

import cfrviz
from cfrviz.site.build import build_site, run_summary
from cfrviz.site.comparison import table_html
from cfrviz.site.menu import MAX_COMPARE_SEEDS, checked_menu, default_menu, read_menu_file, small_menu
from cfrviz.solving.compare import compare, summary_table
from cfrviz.util.text import ROUNDING_NOTE, clamped_exploitability, number

KUHN = {"game": "kuhn", "algo": "cfr+", "iters": 20, "updates": "alternating"}
SMALL = {"games": ["kuhn"], "algorithms": ["cfr+", "outcome"], "iterations": 50, "sampling_iterations": 300,
         "seeds": 3}


class _Cells(HTMLParser):
    """Each table row's cells as {data-column: data-value} and {data-column: the text shown}, and the
    figures' SVG count."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[dict[str, str]] = []
        self.texts: list[dict[str, str]] = []
        self.column: str | None = None
        self.figures = 0
        self.svgs = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag == "tr" and "data-game" in found:
            self.rows.append({"game": found["data-game"] or ""})
            self.texts.append({})
        elif tag == "td" and "data-column" in found:
            self.column = found["data-column"] or ""
            self.rows[-1][self.column] = found["data-value"] or ""
            self.texts[-1][self.column] = ""
        elif tag == "figure" and found.get("data-testid") == "compare-figure":
            self.figures += 1
        elif tag == "svg":
            self.svgs += 1

    def handle_endtag(self, tag: str) -> None:
        if tag == "td":
            self.column = None

    def handle_data(self, data: str) -> None:
        if self.column is not None:
            self.texts[-1][self.column] += data


def test_the_default_and_small_menus_compare_kuhns_methods() -> None:
    default = default_menu().compares
    assert [c.games for c in default] == [("kuhn",)]
    assert set(default[0].algorithms) == {"cfr", "cfr+", "dcfr", "pcfr+", "external", "outcome"}
    assert default[0].seeds > 1                     # a band across seeds
    assert [c.games for c in small_menu().compares] == [("kuhn",)]


@pytest.mark.parametrize(("entry", "sentence"), [
    ({**SMALL, "games": ["chess"]}, "The menu's comparison 1: "),
    ({**SMALL, "games": ["rps"]}, "is a matrix game"),
    ({**SMALL, "algorithms": ["rm"]}, "compare CFR algorithms, not 'rm'"),
    ({**SMALL, "algorithms": ["cfr+", "cfr+"]}, "algorithms lists a name twice"),
    ({**SMALL, "iterations": 10**9}, "iterations must be a whole number from 1 to 100,000"),
    ({**SMALL, "sampling_iterations": 0}, "sampling_iterations must be a whole number from 1"),
    ({**SMALL, "seeds": MAX_COMPARE_SEEDS + 1}, f"seeds must be a whole number from 1 to {MAX_COMPARE_SEEDS}"),
    ({**SMALL, "updates": ["sideways"]}, "unknown update scheme 'sideways'"),
    ({**SMALL, "colour": "red"}, "unknown key 'colour'"),
    ({"games": ["kuhn"], "iterations": 10}, "names its games, algorithms and iterations"),
])
def test_a_bad_comparison_is_refused_with_one_sentence_naming_it(entry: dict[str, object], sentence: str) -> None:
    with pytest.raises(ValueError) as refused:
        checked_menu({"runs": [KUHN], "compare": [entry]})
    text = str(refused.value)
    assert sentence in text and text.startswith("The menu's comparison 1") and "\n" not in text


def test_a_comparison_twice_and_a_compare_that_is_not_a_list_are_refused() -> None:
    with pytest.raises(ValueError, match="lists a comparison twice"):
        checked_menu({"runs": [KUHN], "compare": [SMALL, dict(SMALL)]})
    with pytest.raises(ValueError, match="compare must be a list"):
        checked_menu({"runs": [KUHN], "compare": "kuhn"})


def test_toml_compare_tables_read_as_json_lists(tmp_path: Path) -> None:
    (tmp_path / "m.json").write_text(json.dumps({"runs": [KUHN], "compare": [SMALL]}), encoding="utf-8")
    (tmp_path / "m.toml").write_text(
        '[[runs]]\ngame = "kuhn"\nalgo = "cfr+"\niters = 20\nupdates = "alternating"\n\n'
        '[[compare]]\ngames = ["kuhn"]\nalgorithms = ["cfr+", "outcome"]\niterations = 50\n'
        'sampling_iterations = 300\nseeds = 3\n', encoding="utf-8")
    assert read_menu_file(tmp_path / "m.json") == read_menu_file(tmp_path / "m.toml")


def _same(shown: str, expected: object) -> bool:
    if isinstance(expected, float) and math.isnan(expected):
        return shown == "nan"
    return shown == repr(expected)


#: A comparison whose PCFR+ line ends in rounding noise: its current strategy on Kuhn after 176 iterations
#: is an exact equilibrium, and its exploitability comes out as -1.39e-17 (checked in the test).
NOISY = {**SMALL, "algorithms": ["cfr+", "pcfr+", "outcome"], "iterations": 176}
_CLAMPED = ("exploitability", "current_exploitability")


def test_the_compare_pages_table_is_summary_table_of_compare(tmp_path: Path) -> None:
    menu = checked_menu({"runs": [KUHN], "compare": [NOISY]})
    build_site(tmp_path / "site", menu, "https://cfrviz.example.org", say=lambda _: None)
    page = (tmp_path / "site" / "Compare" / "index.html").read_text(encoding="utf-8")
    cells = _Cells()
    cells.feed(page)
    expected = summary_table(compare(["kuhn"], ["cfr+", "pcfr+", "outcome"], 176, ["alternating"], 3,
                                     sampling_iterations=300))
    assert len(cells.rows) == len(expected) == 3
    for row, text, want in zip(cells.rows, cells.texts, expected.to_dict("records")):
        assert row["game"] == want["game"]
        for column, value in want.items():
            if column in ("game", "seconds"):
                continue
            exact = clamped_exploitability(value) if column in _CLAMPED else value
            assert _same(row[column], exact), (column, row[column], value)
            if column in _CLAMPED or column in ("exploitability_low", "exploitability_high", "value"):
                # Written as the app writes it: `number` of the same (clamped) value; no band with one seed.
                shown = "" if math.isnan(exact) else number(exact, signed=column == "value")
                assert text[column] == shown, (column, text[column], shown)
        assert text["seconds"] == number(float(row["seconds"]))
    # PCFR+'s current exploitability is rounding noise below zero, shown as 0 with the app's note under the table.
    pcfr = expected[expected["algorithm"] == "pcfr+"].iloc[0]
    assert -1e-15 < pcfr["current_exploitability"] < 0
    assert cells.texts[1]["current_exploitability"] == "0" and cells.rows[1]["current_exploitability"] == "0.0"
    assert ROUNDING_NOTE in page
    assert cells.figures == cells.svgs == 1
    # The legend under the figure names the band (three seeds of outcome sampling).
    assert "95% t-interval of the geometric mean over 3 seeds" in page
    # Every other page's navigation now links to the site's Compare page, not the app's.
    home = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    assert re.search(r'<a data-page="Compare" href="Compare/index.html"', home)
    # A run's summary line writes its exploitability as the app does (`run_summary`).
    config = json.loads(re.search(r'<script type="application/json" id="cfrviz-site">(.*?)</script>', home,
                                  re.S).group(1))
    run = cfrviz.solve("kuhn", "cfr+", iterations=20)
    assert config["builds"][0]["summary"] == run_summary(config["builds"][0]["label"], float(run.exploitability[-1]), 20)
    assert f"exploitability of the average strategy {number(float(run.exploitability[-1]))} chips" in \
        config["builds"][0]["summary"]


def test_the_table_and_a_runs_summary_write_numbers_as_the_app_does() -> None:
    # Hand-written expectations (cfrviz.util.text.number's rules): -6.94e-18 (the rounding noise Compare's
    # table once showed) is 0, 1.574e-05 is 1.57e-05 (+1.57e-05 as a signed value), 0.07814 is 0.0781,
    # -0.0555555 is −0.0556 with the minus sign, 0.0123456 s is 0.0123.
    nan = math.nan
    summary = pd.DataFrame([
        {"game": "kuhn", "algorithm": "pcfr+", "updates": "alternating", "iterations": 176, "seeds": 1,
         "exploitability": 1.574e-05, "exploitability_low": nan, "exploitability_high": nan,
         "current_exploitability": -6.94e-18, "node_visits": 7040.0, "seconds": 0.0123456, "value": -0.0555555},
        {"game": "kuhn", "algorithm": "outcome", "updates": "alternating", "iterations": 300, "seeds": 3,
         "exploitability": 0.1351, "exploitability_low": 0.07814, "exploitability_high": 0.2461,
         "current_exploitability": 0.224, "node_visits": 2531.0, "seconds": 0.0015, "value": 1.574e-05}])
    cells = _Cells()
    cells.feed(table_html(summary))
    assert cells.texts == [
        {"algorithm": "Predictive CFR+", "updates": "alternating", "iterations": "176", "seeds": "1",
         "exploitability": "1.57e-05", "exploitability_low": "", "exploitability_high": "",
         "current_exploitability": "0", "node_visits": "7,040", "seconds": "0.0123", "value": "−0.0556"},
        {"algorithm": "Outcome-sampling MCCFR", "updates": "alternating", "iterations": "300", "seeds": "3",
         "exploitability": "0.135", "exploitability_low": "0.0781", "exploitability_high": "0.246",
         "current_exploitability": "0.224", "node_visits": "2,531", "seconds": "0.0015", "value": "+1.57e-05"}]
    assert cells.rows[0]["current_exploitability"] == "0.0" and cells.rows[0]["exploitability"] == "1.574e-05"
    assert ROUNDING_NOTE in table_html(summary)
    assert run_summary("Kuhn poker · PCFR+", -6.94e-18, 176) == \
        "Kuhn poker · PCFR+: exploitability of the average strategy 0 chips per hand after 176 iterations."
    assert run_summary("Kuhn poker · CFR+", 1.574e-05, 20_000) == \
        "Kuhn poker · CFR+: exploitability of the average strategy 1.57e-05 chips per hand after 20,000 iterations."


def test_a_menu_without_comparisons_links_compare_to_the_app(tmp_path: Path) -> None:
    build_site(tmp_path / "site", checked_menu({"runs": [KUHN]}), "https://cfrviz.example.org", say=lambda _: None)
    assert not (tmp_path / "site" / "Compare").exists()
    home = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    assert 'data-app-page="Compare" href="https://cfrviz.example.org/Compare"' in home
