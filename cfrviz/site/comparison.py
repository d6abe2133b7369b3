"""The site's Compare page: each menu comparison solved at build time with `cfrviz.compare`, drawn as
the app's Compare figures (SVG, inline: no plotly, no script) with `summary_table` underneath.

Numbers are written as the app writes them (`cfrviz.util.text.number`), exploitability with its rounding
noise below zero as 0 and the app's note under the table. Every table cell carries its exact value
(`data-column`, `data-value`; exploitability after that clamp) beside the rounded text, so a test reads
the numbers the page shows without parsing them back from print.
"""
from __future__ import annotations

import html
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import pandas as pd

from cfrviz import catalog
from cfrviz.figures.compare import AXES, comparison_figure
from cfrviz.figures.svg import figures_svg
from cfrviz.site.markup import blocks, inline
from cfrviz.site.menu import Comparison
from cfrviz.solvers import ALGORITHMS
from cfrviz.solving.compare import compare, lines_from_table, summary_table
from cfrviz.teaching import texts
from cfrviz.util.intervals import band_words
from cfrviz.util.text import ROUNDING_NOTE, clamped_exploitability, number
from cfrviz.util.vocabulary import StrategyKind


def _number(value: object, signed: bool = False) -> str:
    """A cell as the app writes numbers (`number`); a missing value (NaN: no band with one seed) is empty."""
    return number(float(str(value)), signed=signed, missing="")


#: The summary table's columns the page shows, with their headings and how each is printed.
_SHOWN: tuple[tuple[str, str, Callable[[object], str]], ...] = (
    ("algorithm", "algorithm", lambda v: ALGORITHMS[str(v)].title),
    ("updates", "updates", str),
    ("iterations", "iterations", lambda v: f"{int(str(v)):,}"),
    ("seeds", "seeds", str),
    ("exploitability", "exploitability (chips per hand)", _number),
    ("exploitability_low", "band low", _number),
    ("exploitability_high", "band high", _number),
    ("current_exploitability", "current exploitability", _number),
    ("node_visits", "nodes touched", lambda v: f"{round(float(str(v))):,}"),
    ("seconds", "seconds", _number),
    ("value", "value to player 1", lambda v: _number(v, signed=True)),
)
#: Columns whose rounding noise below zero is shown (and carried in `data-value`) as 0, as the app's table.
_CLAMPED = frozenset({"exploitability", "current_exploitability"})


@dataclass(frozen=True)
class Solved:
    """One menu comparison and its `cfrviz.compare` table."""

    comparison: Comparison
    frame: pd.DataFrame


def solve(comparison: Comparison) -> Solved:
    """`cfrviz.compare` with the comparison's arguments."""
    return Solved(comparison, compare(**comparison.arguments()))


def _heading(comparison: Comparison) -> str:
    titles = " and ".join(catalog.lookup_hosted(game).title for game in comparison.games)
    sampling = ""
    if comparison.sampling_iterations != comparison.iterations:
        sampling = f" (sampling methods {comparison.sampling_iterations:,})"
    seeds = f", seeds 0–{comparison.seeds - 1} for sampling methods" if comparison.seeds > 1 else ""
    return f"{titles}: {comparison.iterations:,} iterations{sampling}{seeds}"


def _caption(seeds: int) -> str:
    band = f", with a band: the {band_words(seeds)}" if seeds > 1 else ""
    return (f"{texts.COMPARE_LEGEND} Sampling methods: the median of seeds 0–{seeds - 1}{band}. Seconds: each run's "
            "own solver seconds after a warm-up solve (compiling not counted), measured when the site was built on a "
            "machine that may have been shared, so small differences are noise.")


def table_html(summary: pd.DataFrame) -> str:
    """`summary_table`'s rows as an HTML table (one per game shown), each cell with its exact value, and
    under it the app's note on exploitability's rounding noise (shown as 0, as on the app's Compare page)."""
    head = "".join(f"<th scope=\"col\">{html.escape(title)}</th>" for _, title, _ in _SHOWN)
    rows = []
    for record in summary.to_dict("records"):
        values = {column: clamped_exploitability(float(record[column])) if column in _CLAMPED else record[column]
                  for column, _, _ in _SHOWN}
        cells = "".join(f'<td data-column="{column}" data-value="{html.escape(repr(values[column]))}">'
                        f"{html.escape(shown(values[column]))}</td>" for column, _, shown in _SHOWN)
        rows.append(f'<tr data-game="{html.escape(str(record["game"]))}">{cells}</tr>')
    return (f'<div class="cfrviz-scroll"><table class="cfrviz-table" data-testid="compare-table"><thead><tr>{head}'
            f"</tr></thead><tbody>{''.join(rows)}</tbody></table></div>"
            f'<p class="cfrviz-caption" data-testid="compare-rounding">{inline(ROUNDING_NOTE)}</p>')


def section_html(solved: Solved) -> str:
    """One comparison: a heading, each game's three figures (one SVG) with the legend's caption, the table."""
    comparison, frame = solved.comparison, solved.frame
    summary = summary_table(frame)
    parts = [f'<section class="cfrviz-compare"><h2>{html.escape(_heading(comparison))}</h2>']
    parts.extend(f'<p class="cfrviz-caption">{inline(note)}</p>' for note in frame.attrs.get("skipped", []))
    band = ([f"Sampling methods: the line is the median over seeds, the shaded band the {band_words(comparison.seeds)}."]
            if comparison.seeds > 1 else [])
    for game in pd.unique(frame["game"]):
        lines = lines_from_table(frame[frame["game"] == game])
        picture = figures_svg([comparison_figure(lines, axis, StrategyKind.AVERAGE) for axis in AXES], band)
        title = catalog.lookup_hosted(str(game)).title
        parts.append(f'<figure class="cfrviz-compare-figure" data-testid="compare-figure" data-game="{html.escape(str(game))}" '
                     f'aria-label="{html.escape(title)}: exploitability against iterations, nodes touched and seconds">'
                     f'<div class="cfrviz-scroll">{picture}</div>'
                     f"<figcaption class=\"cfrviz-caption\">{inline(_caption(comparison.seeds))}</figcaption></figure>")
    parts.append(table_html(summary))
    parts.append("</section>")
    return "\n".join(parts)


def intro_html(comparisons: Sequence[Comparison]) -> str:
    """The app's opening text, for the games the site compares."""
    games = dict.fromkeys(game for c in comparisons for game in c.games)
    titles = " and ".join(catalog.lookup_hosted(game).title for game in games)
    return blocks(texts.COMPARE_INTRO.format(game=titles) + " Every comparison here was solved when the site was "
                  "built; `cfrviz compare` and `cfrviz.compare` run any other on your own machine.")
