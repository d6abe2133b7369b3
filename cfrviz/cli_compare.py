"""`python -m cfrviz compare GAME -a ALG1,ALG2 -n N [--seeds S] [--csv FILE | --parquet FILE] [--plot FILE.svg]`.

Runs `cfrviz.compare` (games × algorithms × update schemes × seeds → one tidy table) on one game and
prints the summary: each line's final exploitability, the median over seeds with a t-interval
across seeds for sampling methods, its numbers written as the app writes them
(`cfrviz.util.text.number`). The table goes to CSV or Parquet at full precision (exploitability's
rounding noise below zero as 0, as the app's CSV files write it), the app's Compare figures to one
SVG file. A progress bar goes to stderr when it is a terminal and the run lasts.

`cfrviz.cli` wires this in: it hands over its argument readers and its all-or-none file writer, so
both subcommands read and write alike (and this module does not import the CLI that imports it).
"""
from __future__ import annotations

import argparse
import importlib.util
import math
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import IO, TYPE_CHECKING, TextIO

from cfrviz.catalog import GameSpec
from cfrviz.solvers import ALGORITHMS, UPDATE_SCHEMES
from cfrviz.util.text import ROUNDING_NOTE, clamped_exploitability, number
from cfrviz.util.vocabulary import Algorithm, UpdateScheme
from cfrviz.util.whole_numbers import MAX_SEED

if TYPE_CHECKING:
    import pandas as pd

#: A parsed file check: (path, flag) -> None, or a ValueError sentence (`cfrviz.cli._writable`).
Writable = Callable[[Path, str], None]
#: Writes every (file, writer) pair or none (`cfrviz.cli.write_all_or_none`).
WriteAll = Callable[[Sequence[tuple[Path, Callable[[IO[bytes]], object]]]], None]
#: Seconds a run lasts before the progress bar shows (short runs print only their table).
PROGRESS_AFTER_SECONDS = 0.5
#: Strategies the figure can show.
STRATEGIES = ("average", "current", "both")
_COMPARED = tuple(a for a in ALGORITHMS if a != Algorithm.REGRET_MATCHING)


def _names(flag: str, options: Sequence[str], what: str) -> Callable[[str], list[str]]:
    """A reader of a comma-separated list of `options` ("cfr+,dcfr+"), each once, in the order given."""
    def parse(text: str) -> list[str]:
        chosen: list[str] = []
        for part in text.split(","):
            name = part.strip().lower()
            if name not in options:
                raise argparse.ArgumentTypeError(f"Unknown {what} {part.strip()!r} in {flag}; choose from: "
                                                 f"{', '.join(options)} (comma-separated).")
            if name not in chosen:
                chosen.append(name)
        return chosen

    parse.__name__ = flag
    return parse


def add_parser(commands: argparse._SubParsersAction,   # type: ignore[type-arg]  # argparse's own generic
               game: Callable[[str], GameSpec], whole_number: Callable[[str, int], Callable[[str], int]]) -> None:
    """Add `compare` to the CLI's subcommands, reading games and numbers with the CLI's own readers."""
    compare = commands.add_parser(
        "compare", help="compare algorithms over seeds: a summary table, CSV or Parquet, an SVG figure",
        description="Solve one game with several algorithms (and update schemes and seeds) and print each "
                    "one's final exploitability (chips per hand): for sampling methods the median over seeds "
                    "and a 95% t-interval across seeds (of the geometric mean). The memory budget "
                    "(CFRVIZ_MEMORY_MB, 200 MB by default) holds; no other limit than each game's iteration cap.",
        epilog="Examples: python -m cfrviz compare leduc -a cfr+,dcfr+,pcfr+ -n 5000; python -m cfrviz compare "
               "kuhn -a external,outcome -n 20000 --seeds 30 --plot cmp.svg")
    compare.add_argument("game", type=game, metavar="GAME",
                         help="kuhn, kuhn4 … kuhn13, leduc, efg:<name>, a path to a Gambit .efg file, or "
                              "openspiel:<game string> (as for solve; not a matrix game)")
    compare.add_argument("--algorithms", "-a", required=True, type=_names("--algorithms", _COMPARED, "algorithm"),
                         metavar="A1,A2", help="comma-separated: " + ", ".join(_COMPARED))
    compare.add_argument("--iterations", "-n", required=True, type=whole_number("--iterations", 1), metavar="N",
                         help="iterations of each solve (capped per game, as for solve)")
    compare.add_argument("--sampling-iterations", type=whole_number("--sampling-iterations", 1), metavar="N",
                         help="iterations of the sampling methods (chance, external, outcome); default: N")
    compare.add_argument("--updates", default=[UpdateScheme.ALTERNATING],
                         type=_names("--updates", UPDATE_SCHEMES, "update scheme"), metavar="U1,U2",
                         help="alternating (default), simultaneous, or both comma-separated; a pair an algorithm "
                              "does not define is skipped with a note")
    compare.add_argument("--seeds", default=1, type=whole_number("--seeds", 1), metavar="S",
                         help="seeds 0 … S-1 for each sampling method (default 1; deterministic methods run once)")
    table = compare.add_mutually_exclusive_group()
    table.add_argument("--csv", type=Path, metavar="FILE",
                       help="write the tidy table (one row per snapshot) as CSV, at full precision (exploitability's "
                            "rounding noise below zero written as 0)")
    table.add_argument("--parquet", type=Path, metavar="FILE", help="write the tidy table as Parquet (needs pyarrow)")
    compare.add_argument("--plot", type=Path, metavar="FILE.svg",
                         help="draw the app's Compare figures (against iterations, node visits, seconds) to SVG")
    compare.add_argument("--strategy", default="average", type=_names("--strategy", STRATEGIES, "strategy"),
                         metavar="S", help="whose exploitability the figure draws: average (default), current or both")


def _check(args: argparse.Namespace, writable: Writable) -> None:
    """ValueError sentences for what argparse cannot see, before anything is solved."""
    game: GameSpec = args.game
    cap = game.cli_iteration_cap
    for flag, asked in (("--iterations", args.iterations), ("--sampling-iterations", args.sampling_iterations)):
        if asked is not None and asked > cap:
            raise ValueError(f"{flag} is capped at {cap:,} for {game.title} so one solve cannot tie up the "
                             f"machine; {asked:,} was asked for.")
    if args.seeds - 1 > MAX_SEED:
        raise ValueError(f"--seeds numbers seeds from 0 to at most {MAX_SEED}; {args.seeds} seeds do not fit.")
    if len(args.strategy) != 1:
        raise ValueError(f"--strategy takes one of {', '.join(STRATEGIES)}.")
    outputs = [(flag, path) for flag, path in (("--csv", args.csv), ("--parquet", args.parquet),
                                                ("--plot", args.plot)) if path is not None]
    if args.plot is not None and args.plot.suffix.lower() != ".svg":
        raise ValueError(f"--plot must name an .svg file, such as cmp.svg; {args.plot} was given.")
    if args.parquet is not None and importlib.util.find_spec("pyarrow") is None:   # pandas writes Parquet through it
        raise ValueError("--parquet needs the pyarrow package (pip install pyarrow); --csv needs nothing more.")
    for flag, path in outputs:
        writable(path, flag)
    if len({path.resolve() for _, path in outputs}) != len(outputs):
        raise ValueError("--csv, --parquet and --plot must name different files.")


class ProgressBar:
    """A one-line bar on `stream` (stderr), redrawn in place, shown only on a terminal and only once
    the run has lasted `after` seconds; `close()` clears it."""

    def __init__(self, stream: TextIO, after: float = PROGRESS_AFTER_SECONDS, width: int = 30) -> None:
        self.stream, self.after, self.width = stream, after, width
        self.start = time.monotonic()
        self.shown = False
        self.terminal = bool(getattr(stream, "isatty", lambda: False)())

    def __call__(self, fraction: float) -> None:
        spent = time.monotonic() - self.start
        if not self.terminal or spent < self.after:
            return
        fraction = min(max(float(fraction), 0.0), 1.0)
        filled = round(self.width * fraction)
        left = f", about {spent * (1 - fraction) / fraction:,.0f} s left" if fraction > 0.02 else ""
        self.stream.write(f"\rcomparing [{'#' * filled}{'.' * (self.width - filled)}] {fraction:4.0%} "
                          f"({spent:,.0f} s{left})   ")
        self.stream.flush()
        self.shown = True

    def close(self) -> None:
        if self.shown:
            self.stream.write("\r" + " " * (self.width + 60) + "\r")
            self.stream.flush()


#: The exploitability columns of `compare`'s table and `summary_table`: rounding noise below zero is 0.
EXPLOITABILITY_COLUMNS = ("exploitability", "current_exploitability")


def clamped_table(table: pd.DataFrame) -> pd.DataFrame:
    """A copy of a `compare` or `summary_table` table with exploitability's rounding noise below zero
    written as 0 (`clamped_exploitability`), as the app's CSV files write it; full precision otherwise."""
    out = table.copy()
    for column in EXPLOITABILITY_COLUMNS:
        out[column] = out[column].map(clamped_exploitability)
    return out


def format_summary(summary: pd.DataFrame, title: str, skipped: Sequence[str], stream: TextIO) -> None:
    """Print `summary_table`'s rows as an aligned text table, with what its numbers are. Numbers are
    written as the app and the static site write them (`cfrviz.util.text.number`), exploitability
    with its rounding noise below zero as 0, said in a note when it happens."""
    header = ("algorithm", "updates", "iterations", "seeds", "exploitability", "95% interval",
              "current expl.", "node visits", "seconds", "value")
    shown = clamped_table(summary)
    rows = []
    for record in shown.to_dict("records"):
        interval = ("" if math.isnan(record["exploitability_low"]) else
                    f"{number(record['exploitability_low'])} to {number(record['exploitability_high'])}")
        rows.append((ALGORITHMS[record["algorithm"]].title, str(record["updates"]), f"{record['iterations']:,}",
                     str(record["seeds"]), number(record["exploitability"], missing=""), interval,
                     number(record["current_exploitability"], missing=""), f"{record['node_visits']:,.0f}",
                     number(record["seconds"], missing=""), number(record["value"], signed=True, missing="")))
    widths = [max(len(h), *(len(r[k]) for r in rows)) for k, h in enumerate(header)]
    right = {2, 3, 4, 6, 7, 8, 9}

    def line(cells: Sequence[str]) -> str:
        return "  ".join(c.rjust(w) if k in right else c.ljust(w) for k, (c, w) in enumerate(zip(cells, widths)))

    print(title, file=stream)
    print(file=stream)
    print(line(header).rstrip(), file=stream)
    for row in rows:
        print(line(row).rstrip(), file=stream)
    print(file=stream)
    print("exploitability: of the final average strategy (current expl.: of the final current strategy), chips per "
          "hand; value: player 1's value of the final average strategy.", file=stream)
    if (summary["seeds"] > 1).any():
        print("Several seeds: the median over seeds; the interval is the 95% t-interval of the geometric mean across "
              "seeds (it need not be centred on the median). Node visits, seconds and value: medians.", file=stream)
    print("Seconds count the solver only, after a warm-up solve (no compiling); the machine may be busy.",
          file=stream)
    if not shown[list(EXPLOITABILITY_COLUMNS)].equals(summary[list(EXPLOITABILITY_COLUMNS)]):
        print(ROUNDING_NOTE + " The CSV and Parquet files write it as 0 too.", file=stream)
    for note in skipped:
        print(note, file=stream)


def run(args: argparse.Namespace, writable: Writable, write_all_or_none: WriteAll, stdout: TextIO = sys.stdout,
        stderr: TextIO = sys.stderr) -> None:
    """The `compare` subcommand: check, solve with a progress bar, print the summary, write the files."""
    _check(args, writable)
    from cfrviz.solving.compare import compare_plan, lines_from_table, summary_table, compare

    game: GameSpec = args.game
    # Planned first, so a bad combination is one sentence before anything runs.
    compare_plan(game, args.algorithms, args.iterations, args.updates, args.seeds, args.sampling_iterations)
    bar = ProgressBar(stderr)
    try:
        frame = compare(game, args.algorithms, args.iterations, args.updates, args.seeds,
                        sampling_iterations=args.sampling_iterations, progress=bar)
    finally:
        bar.close()
    sampling = args.sampling_iterations or args.iterations
    iterations = (f"{args.iterations:,} iterations" if sampling == args.iterations else
                  f"{args.iterations:,} iterations (sampling methods {sampling:,})")
    seeds = f", seeds 0-{args.seeds - 1} for sampling methods" if args.seeds > 1 else ""
    format_summary(summary_table(frame), f"{game.title}: {iterations}{seeds}", frame.attrs.get("skipped", []), stdout)
    frame = clamped_table(frame)   # the files and the figure: full precision, rounding noise below zero as 0
    outputs: list[tuple[Path, Callable[[IO[bytes]], object]]] = []
    if args.csv is not None:
        text = frame.to_csv(index=False).encode("utf-8")
        outputs.append((args.csv, lambda handle: handle.write(text)))
    if args.parquet is not None:
        outputs.append((args.parquet, lambda handle: frame.to_parquet(handle, index=False)))
    if args.plot is not None:
        from cfrviz.figures.compare import AXES, comparison_figure
        from cfrviz.figures.svg import figures_svg

        lines = lines_from_table(frame)
        notes = ["Sampling methods: the line is the median over seeds, the shaded band the 95% t-interval of the "
                 "geometric mean across seeds." if args.seeds > 1 else "",
                 "Drawn by cfrviz from the app's Compare figures (its own SVG writer: plotly's image export needs "
                 "kaleido and Chrome)."]
        picture = figures_svg([comparison_figure(lines, axis, args.strategy[0]) for axis in AXES],
                              [note for note in notes if note]).encode("utf-8")
        outputs.append((args.plot, lambda handle: handle.write(picture)))
    write_all_or_none(outputs)


__all__ = ["EXPLOITABILITY_COLUMNS", "PROGRESS_AFTER_SECONDS", "ProgressBar", "add_parser", "clamped_table",
           "format_summary", "run"]
