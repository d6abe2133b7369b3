"""The site's Compare page: its menu entries are checked like runs, and its table is `summary_table`
of `cfrviz.compare` for the same settings.

References: `cfrviz.compare` and `summary_table` (cfrviz/solving/compare.py) computed here again for the
same arguments: every number is seeded, so the page must hold exactly the same values, except the
solver seconds (a wall-clock measure, never equal twice). The app's iteration cap of Kuhn poker
(100,000, `GameSpec.app_iteration_cap`) and the menu format written in cfrviz/site/menu.py.
"""
from __future__ import annotations

import json
import math
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from cfrviz.site.build import build_site
from cfrviz.site.menu import MAX_COMPARE_SEEDS, checked_menu, default_menu, read_menu_file, small_menu
from cfrviz.solving.compare import compare, summary_table

KUHN = {"game": "kuhn", "algo": "cfr+", "iters": 20, "updates": "alternating"}
SMALL = {"games": ["kuhn"], "algorithms": ["cfr+", "outcome"], "iterations": 50, "sampling_iterations": 300,
         "seeds": 3}


class _Cells(HTMLParser):
    """Each table row's cells as {data-column: data-value}, and the figures' SVG count."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[dict[str, str]] = []
        self.figures = 0
        self.svgs = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag == "tr" and "data-game" in found:
            self.rows.append({"game": found["data-game"] or ""})
        elif tag == "td" and "data-column" in found:
            self.rows[-1][found["data-column"] or ""] = found["data-value"] or ""
        elif tag == "figure" and found.get("data-testid") == "compare-figure":
            self.figures += 1
        elif tag == "svg":
            self.svgs += 1


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


def test_the_compare_pages_table_is_summary_table_of_compare(tmp_path: Path) -> None:
    menu = checked_menu({"runs": [KUHN], "compare": [SMALL]})
    build_site(tmp_path / "site", menu, "https://cfrviz.example.org", say=lambda _: None)
    page = (tmp_path / "site" / "Compare" / "index.html").read_text(encoding="utf-8")
    cells = _Cells()
    cells.feed(page)
    expected = summary_table(compare(["kuhn"], ["cfr+", "outcome"], 50, ["alternating"], 3, sampling_iterations=300))
    assert len(cells.rows) == len(expected) == 2
    for row, want in zip(cells.rows, expected.to_dict("records")):
        assert row["game"] == want["game"]
        for column, value in want.items():
            if column in ("game", "seconds"):
                continue
            assert _same(row[column], value), (column, row[column], value)
    assert cells.figures == cells.svgs == 1
    # The legend under the figure names the band (three seeds of outcome sampling).
    assert "95% t-interval of the geometric mean over 3 seeds" in page
    # Every other page's navigation now links to the site's Compare page, not the app's.
    home = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    assert re.search(r'<a data-page="Compare" href="Compare/index.html"', home)


def test_a_menu_without_comparisons_links_compare_to_the_app(tmp_path: Path) -> None:
    build_site(tmp_path / "site", checked_menu({"runs": [KUHN]}), "https://cfrviz.example.org", say=lambda _: None)
    assert not (tmp_path / "site" / "Compare").exists()
    home = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    assert 'data-app-page="Compare" href="https://cfrviz.example.org/Compare"' in home
