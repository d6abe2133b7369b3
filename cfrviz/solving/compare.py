"""Compare algorithms: games × algorithms × update schemes × seeds → one tidy table.

`compare` is the researcher's entry (`cfrviz.compare`, `cfrviz compare` on the command line): it
solves every combination, one run at a time, and returns a pandas DataFrame with one row per
(game, algorithm, updates, seed, snapshot) and the columns `COLUMNS`:

    game                    the game's link name ("kuhn", "leduc", "efg:…") or its title
    algorithm, updates      the algorithm ("cfr+", "outcome", …) and update scheme
    seed                    the random seed (deterministic algorithms run once, as seed 0)
    iteration               the snapshot's iteration (1-based)
    node_visits             tree nodes visited so far (cumulative)
    seconds                 solver seconds so far (cumulative; a warm-up solve before the first
                            seed loads or compiles the kernel, so compiling is not counted)
    exploitability          of the average strategy, chips per hand (NashConv / 2)
    current_exploitability  of the current strategy (the last iterate), chips per hand
    value                   player 1's exact value of the average strategy, chips per hand

`summary_table` keeps each line's final snapshot: the median over seeds and, for sampling methods
run with two seeds or more, a t-interval across seeds (`log_t_interval`). `lines_from_table` gives
the figures' `Line`s (median and band), the same ones the app's Compare page draws.

The app's Compare page goes through `measure_line`, which solves an entry with the same code
(`_entry_table`) and adds its own timing repeats; the app's per-click budget lives in the app
(`cfrviz.app.compare_budget`), not here. Here only the memory budget holds: each run's snapshots are
checked by `planned_schedule` before anything is allocated, one run is held at a time, and the
table's own size is checked before the first solve.
"""
from __future__ import annotations

import contextlib
import csv
import io
import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TypeVar, cast

import numpy as np
import pandas as pd

from cfrviz.analysis import closest_alpha, expected_value
from cfrviz.catalog import GameSpec
from cfrviz.run import Run, RunSettings, snapshot_schedule
from cfrviz.solvers import ALGORITHMS, UPDATE_SCHEMES, Algorithm, UpdateScheme, update_schemes
from cfrviz.solving.core import planned_schedule, resolve_game, solver_seconds
from cfrviz.solving.entry import solve_settings
from cfrviz.tree import GameTree
from cfrviz.util import memory
from cfrviz.util.intervals import CONFIDENCE, band_words, log_t_interval
from cfrviz.util.text import clamped_exploitability
from cfrviz.util.whole_numbers import MAX_SEED

#: The tidy table's columns, in order (the module docstring says what each holds).
COLUMNS = ("game", "algorithm", "updates", "seed", "iteration", "node_visits", "seconds", "exploitability",
           "current_exploitability", "value")
#: Seeds each sampling method runs with on the app's page by default (fixed, so a comparison can be repeated).
DEFAULT_SEEDS = (0, 1, 2, 3, 4)
#: Timed solves per entry on the app's page by default; the median is shown.
DEFAULT_REPEATS = 3
#: Most timed solves per entry.
MAX_REPEATS = 9
#: Bytes one table row takes in memory, about: seven 8-byte numbers, three string references and the index.
_ROW_BYTES = 120

#: A run's settings -> the run (the runner's `solve_settings`, or a server's cached solve)
Solve = Callable[[RunSettings], Run]
#: A context held around every solve, e.g. a server's solve gate (`cfrviz.run.cache.RunCache.solver_slot`);
#: the default holds nothing. If it hands over a function (`with slot() as run_elsewhere`), the solve
#: is `run_elsewhere(solve)`: the app's gate runs it on its solve pool.
SolverSlot = Callable[[], contextlib.AbstractContextManager[object]]

_T = TypeVar("_T")


def _held(solver_slot: SolverSlot, work: Callable[[], _T]) -> _T:
    """`work()` while holding `solver_slot()`, run where the slot says (in this thread by default)."""
    with solver_slot() as run_elsewhere:
        if callable(run_elsewhere):
            return cast(_T, run_elsewhere(work))
        return work()


@dataclass(frozen=True)
class Entry:
    """One line of a comparison: an algorithm, its update scheme, iterations and random seeds.

    `seeds` has one element for deterministic algorithms; `sidebar` marks the run chosen in the
    app's sidebar, drawn beside the comparison's own lines.
    """

    algorithm: str
    updates: str
    iterations: int
    seeds: tuple[int, ...] = (0,)
    sidebar: bool = False

    @property
    def sampling(self) -> bool:
        return ALGORITHMS[self.algorithm].sampling

    def settings(self, game: GameSpec, seed: int) -> RunSettings:
        """The settings of this entry's run with `seed` on `game`."""
        return RunSettings(game, Algorithm(self.algorithm), self.iterations, UpdateScheme(self.updates), seed)

    @property
    def title(self) -> str:
        return ALGORITHMS[self.algorithm].title

    @property
    def label(self) -> str:
        """E.g. "CFR+ (alternating)", "Outcome-sampling MCCFR (alternating, seeds 0-4)", "CFR+
        (alternating, sidebar)": short enough for a legend on a phone (the table has the counts)."""
        parts = [str(self.updates)]
        if self.sampling:
            parts.append(_seed_words(self.seeds))
        if self.sidebar:
            parts.append("sidebar")
        return f"{self.title} ({', '.join(parts)})"


def _seed_words(seeds: Sequence[int]) -> str:
    if len(seeds) == 1:
        return f"seed {seeds[0]}"
    if list(seeds) == list(range(seeds[0], seeds[0] + len(seeds))):
        return f"seeds {seeds[0]}-{seeds[-1]}"
    return "seeds " + ", ".join(str(s) for s in seeds)


def fixed_seeds(count: int, first: int = 0) -> tuple[int, ...]:
    """`count` consecutive seeds from `first`: the fixed seeds of every sampling method."""
    if count < 1 or first < 0 or first + count - 1 > MAX_SEED:
        raise ValueError(f"Run each sampling method with at least 1 seed, numbered 0 to {MAX_SEED}; "
                         f"{count} seeds from {first} were asked for.")
    return tuple(range(first, first + count))


def plan(algorithms: Iterable[str], updates: Iterable[str], iterations: int, sampling_iterations: int,
         seeds: Sequence[int] = DEFAULT_SEEDS) -> tuple[list[Entry], list[str]]:
    """Every (algorithm, update scheme) pair that exists, and a note for each skipped pair.

    Full-traversal algorithms run `iterations` once (with seed 0: they draw no random numbers), sampling ones
    `sampling_iterations` (a sampled iteration touches far fewer nodes) once per seed in `seeds`.
    """
    entries: list[Entry] = []
    skipped: list[str] = []
    asked = {str(u).strip().lower() for u in updates}
    unknown = sorted(asked - set(UPDATE_SCHEMES))
    if unknown:
        raise ValueError(f"Unknown update scheme {unknown[0]!r}; choose from {', '.join(UPDATE_SCHEMES)}.")
    schemes = [u for u in UPDATE_SCHEMES if u in asked]
    seeds = tuple(int(s) for s in seeds) or (0,)
    for algorithm in algorithms:
        if algorithm not in ALGORITHMS or algorithm == Algorithm.REGRET_MATCHING:
            raise ValueError(f"Compare CFR algorithms, not {algorithm!r}: choose from "
                             f"{', '.join(a for a in ALGORITHMS if a != Algorithm.REGRET_MATCHING)}.")
        for scheme in schemes:
            if scheme not in update_schemes(algorithm):
                skipped.append(f"{ALGORITHMS[algorithm].title} is defined with alternating updates, so only its "
                               "alternating run is shown.")
                continue
            sampling = ALGORITHMS[algorithm].sampling
            entries.append(Entry(algorithm, scheme, sampling_iterations if sampling else iterations,
                                 seeds if sampling else (0,)))
    return entries, skipped


@dataclass(frozen=True, eq=False)
class Line:
    """One entry's curves, all [T] over the snapshot iterations.

    exploitability, current_exploitability: median over the entry's seeds, of the average and of
    the current strategy; *_low, *_high: the `confidence` t-interval across seeds (`log_t_interval`;
    NaN for one seed). nodes_touched: median over seeds. seconds: cumulative solver seconds, the
    median of `repeats` timed solves after a warm-up (repeats 0: the median of the seeds' own runs,
    each after a warm-up). alpha: where Kuhn's α-family applies, the α ∈ [0, 1/3] of the
    equilibrium nearest the first seed's final average strategy (NaN otherwise).
    """

    entry: Entry
    iterations: np.ndarray
    exploitability: np.ndarray
    exploitability_low: np.ndarray
    exploitability_high: np.ndarray
    current_exploitability: np.ndarray
    current_low: np.ndarray
    current_high: np.ndarray
    nodes_touched: np.ndarray
    seconds: np.ndarray
    repeats: int
    alpha: float = math.nan
    confidence: float = CONFIDENCE

    @property
    def label(self) -> str:
        return self.entry.label

    @property
    def band(self) -> str:
        """What the band is ("" for one seed: no band)."""
        return band_words(len(self.entry.seeds), self.confidence) if len(self.entry.seeds) > 1 else ""


def timed_seconds(tree: GameTree, entry: Entry, repeats: int = DEFAULT_REPEATS, *,
                  solver_slot: SolverSlot = contextlib.nullcontext) -> np.ndarray:
    """[T] cumulative solver seconds at the default snapshots: the median of `repeats` solves.

    A short warm-up solve first loads or compiles the kernel, so no timed solve pays for it.
    Sampling methods cycle through the entry's seeds. Each solve holds `solver_slot()`.
    """
    if not 1 <= repeats <= MAX_REPEATS:
        raise ValueError(f"Time each run 1 to {MAX_REPEATS} times, not {repeats}.")
    schedule = planned_schedule(tree, entry.iterations)   # the solves' own default snapshots

    def seconds(iterations: np.ndarray, seed: int) -> np.ndarray:
        return _held(solver_slot, lambda: solver_seconds(tree, entry.algorithm, iterations, entry.updates, seed))

    _warm_up(tree, entry, solver_slot)
    timings = [seconds(schedule, entry.seeds[k % len(entry.seeds)]) for k in range(repeats)]
    median: np.ndarray = np.median(np.stack(timings), axis=0)
    return median


def _warm_up(tree: GameTree, entry: Entry, solver_slot: SolverSlot) -> None:
    """A two-iteration solve: loads or compiles the kernel, so the next solve's seconds do not count it."""
    _held(solver_slot, lambda: solver_seconds(tree, entry.algorithm, snapshot_schedule(2), entry.updates,
                                              entry.seeds[0]))


@dataclass(frozen=True, eq=False)
class _EntryTable:
    """An entry's runs read into table columns (one run at a time), and what the first run leaves."""

    frame: pd.DataFrame
    tree: GameTree
    alpha: float


def _game_name(game: GameSpec) -> str:
    return game.link or game.title


def _entry_table(game: GameSpec, entry: Entry, *, solve_run: Solve | None = None,
                 solver_slot: SolverSlot = contextlib.nullcontext, warm_up: bool = True, values: bool = True,
                 progress: Callable[[float], object] | None = None) -> _EntryTable:
    """Solve `entry` on `game` once per seed and read each run into the table's columns as it comes,
    then let it go: only one run (a Leduc run at the cap is tens of MB) is held at a time, however
    many seeds. warm_up: a short solve first, so the seeds' own seconds exclude compiling. values:
    whether to compute the `value` column (NaN otherwise). progress: the fraction of this entry done."""
    finished = [0]

    def within(fraction: float) -> None:
        if progress is not None:
            progress((finished[0] + fraction) / len(entry.seeds))

    if solve_run is None:
        def solve_run(settings: RunSettings) -> Run:
            return _held(solver_slot, lambda: solve_settings(settings, progress=within))
    tree = game.tree()
    if warm_up:
        _warm_up(tree, entry, solver_slot)
    parts: list[pd.DataFrame] = []
    alpha = math.nan
    for k, seed in enumerate(entry.seeds):
        run = solve_run(entry.settings(game, seed))
        if k == 0:
            tree = run.tree
            if run.settings.spec.alpha_family:
                alpha = float(closest_alpha(run.average_strategy[-1], tree))
        parts.append(_run_rows(game, entry, seed, run, values))
        del run
        finished[0] = k + 1
        within(0.0)
    return _EntryTable(pd.concat(parts, ignore_index=True), tree, alpha)


def _run_rows(game: GameSpec, entry: Entry, seed: int, run: Run, with_values: bool = True) -> pd.DataFrame:
    """One run's snapshots as table rows (`COLUMNS`)."""
    count = len(run.iterations)
    values = ([expected_value(run.tree, run.average_strategy[t]) for t in range(count)] if with_values
              else [math.nan] * count)
    return pd.DataFrame({
        "game": [_game_name(game)] * count, "algorithm": [str(entry.algorithm)] * count,
        "updates": [str(entry.updates)] * count, "seed": np.full(count, seed, dtype=np.int64),
        "iteration": np.asarray(run.iterations, dtype=np.int64),
        "node_visits": np.asarray(run.nodes_touched, dtype=np.int64),
        "seconds": np.asarray(run.seconds, dtype=float),
        "exploitability": np.asarray(run.exploitability, dtype=float),
        "current_exploitability": np.asarray(run.current_exploitability, dtype=float),
        "value": np.asarray(values, dtype=float)}, columns=list(COLUMNS))


def _seed_matrix(frame: pd.DataFrame, column: str) -> np.ndarray:
    """[S, T] `column` of one entry's rows, one row per seed (seeds in the order they were run)."""
    wide = frame.pivot(index="seed", columns="iteration", values=column)
    wide = wide.reindex(index=pd.unique(frame["seed"]))
    return np.asarray(wide.to_numpy(dtype=float))


def line_from_table(entry: Entry, frame: pd.DataFrame, seconds: np.ndarray | None = None, repeats: int = 0,
                    alpha: float = math.nan, confidence: float = CONFIDENCE) -> Line:
    """The figure's line of one entry from its table rows: medians over seeds and the t-interval band.
    seconds: [T] timed seconds (`timed_seconds`, made `repeats` times); None: the median over seeds of
    the table's own seconds."""
    rows = frame[(frame["algorithm"] == entry.algorithm) & (frame["updates"] == entry.updates)
                 & frame["seed"].isin(entry.seeds)]
    present = set(int(s) for s in pd.unique(rows["seed"]))
    if present != set(entry.seeds):
        raise ValueError(f"{entry.label} needs one run per seed ({len(entry.seeds)}), not {len(present)}.")
    iterations = np.sort(pd.unique(rows["iteration"])).astype(np.int64)
    average, current = _seed_matrix(rows, "exploitability"), _seed_matrix(rows, "current_exploitability")
    if np.isnan(average).any():
        raise ValueError(f"{entry.label}: its seeds' runs must share their snapshot iterations.")
    low, high = log_t_interval(average, confidence)
    current_low, current_high = log_t_interval(current, confidence)
    timing = np.median(_seed_matrix(rows, "seconds"), axis=0) if seconds is None else np.asarray(seconds, float)
    return Line(entry=entry, iterations=iterations, exploitability=np.median(average, axis=0),
                exploitability_low=low, exploitability_high=high,
                current_exploitability=np.median(current, axis=0), current_low=current_low,
                current_high=current_high, nodes_touched=np.median(_seed_matrix(rows, "node_visits"), axis=0),
                seconds=timing, repeats=int(repeats), alpha=alpha, confidence=confidence)


def measure_line(game: GameSpec, entry: Entry, repeats: int = DEFAULT_REPEATS, *,
                 solve_run: Solve | None = None, solver_slot: SolverSlot = contextlib.nullcontext) -> Line:
    """Solve `entry` on `game` once per seed as `compare` does (through `solve_run(settings)` when
    given, e.g. a cached solve that takes its own slot), time it `repeats` times after a warm-up
    (`timed_seconds`), and keep its curves. The game is used as it is: nothing here asks the
    catalog again. The app's Compare page draws these lines.

    Every solve made here (each seed's, the warm-up and the timed ones) holds `solver_slot()`, one
    at a time, so a server's other visitors' solves take turns with a comparison's.
    """
    # The page times its own repeats and shows no value column: no warm-up and no values here.
    table = _entry_table(game, entry, solve_run=solve_run, solver_slot=solver_slot, warm_up=False, values=False)
    seconds = timed_seconds(table.tree, entry, repeats, solver_slot=solver_slot)
    return line_from_table(entry, table.frame, seconds, repeats, table.alpha)


def _as_list(value: object, what: str) -> list[object]:
    if isinstance(value, (str, GameSpec)) or not isinstance(value, Iterable):
        return [value]
    listed = list(value)
    if not listed:
        raise ValueError(f"Give at least one {what}.")
    return listed


def _seed_list(seeds: int | Sequence[int]) -> tuple[int, ...]:
    if isinstance(seeds, (int, np.integer)) and not isinstance(seeds, bool):
        return fixed_seeds(int(seeds))
    listed = tuple(seeds)   # type: ignore[arg-type]  # anything else must be a sequence of seeds: checked below
    if not listed or any(isinstance(s, bool) or not isinstance(s, (int, np.integer)) or not 0 <= s <= MAX_SEED
                         for s in listed):
        raise ValueError(f"seeds is a count of seeds (1 or more) or a list of whole numbers from 0 to {MAX_SEED}.")
    if len(set(listed)) != len(listed):
        raise ValueError("seeds lists each seed once.")
    return tuple(int(s) for s in listed)


@dataclass(frozen=True)
class ComparePlan:
    """What `compare` will solve: each game with its entries, and the notes of skipped pairs."""

    games: tuple[tuple[GameSpec, tuple[Entry, ...]], ...]
    skipped: tuple[str, ...]

    @property
    def solves(self) -> int:
        return sum(len(e.seeds) for _, entries in self.games for e in entries)

    def rows(self) -> int:
        """Rows of the table: each run's snapshots (the default schedule, within the memory budget)."""
        return sum(len(e.seeds) * len(planned_schedule(game.tree(), e.iterations))
                   for game, entries in self.games for e in entries)

    def work(self) -> list[tuple[GameSpec, Entry, float]]:
        """Each entry with its share of the work: iterations × nodes × seeds (sampling methods'
        iterations visit fewer nodes; an estimate for the progress bar, not a budget)."""
        weights = [(game, e, float(e.iterations) * game.tree().num_nodes * len(e.seeds)
                    * (0.05 if e.sampling else 1.0)) for game, entries in self.games for e in entries]
        total = sum(w for _, _, w in weights) or 1.0
        return [(game, e, w / total) for game, e, w in weights]


def compare_plan(games: object, algorithms: str | Sequence[str], iterations: int,
                 updates: str | Sequence[str] = UpdateScheme.ALTERNATING, seeds: int | Sequence[int] = 1,
                 sampling_iterations: int | None = None) -> ComparePlan:
    """The games and entries `compare` solves for these arguments (checked; ValueError sentences)."""
    specs = [resolve_game(game, {})[1] for game in _as_list(games, "game")]
    names = [str(a).strip().lower() for a in _as_list(algorithms, "algorithm")]
    schemes = [str(u) for u in _as_list(updates, "update scheme")]
    seed_list = _seed_list(seeds)
    for number, what in ((iterations, "iterations"), (sampling_iterations, "sampling_iterations")):
        if number is not None and (isinstance(number, bool) or not isinstance(number, (int, np.integer))
                                   or number < 1):
            raise ValueError(f"{what} must be a whole number of at least 1, not {number!r}.")
    planned: list[tuple[GameSpec, tuple[Entry, ...]]] = []
    skipped: list[str] = []
    for spec in specs:
        if spec.matrix:
            raise ValueError(f"Compare runs the CFR family on extensive-form games; {spec.title} is a matrix "
                             "game (its regret matching has its own page and `cfrviz solve GAME -a rm`).")
        entries, notes = plan(names, schemes, int(iterations),
                              int(iterations if sampling_iterations is None else sampling_iterations), seed_list)
        if not entries:
            raise ValueError("No algorithm runs with these update schemes; add alternating updates.")
        planned.append((spec, tuple(entries)))
        skipped.extend(note for note in notes if note not in skipped)
    return ComparePlan(tuple(planned), tuple(skipped))


def check_memory(plan: ComparePlan) -> None:
    """ValueError with a sentence when the table would not fit the memory budget (`cfrviz.util.memory`);
    every run's own snapshots are checked when it is solved."""
    for game, entries in plan.games:
        for entry in entries:
            planned_schedule(game.tree(), entry.iterations)   # raises the run's own sentence
    size = plan.rows() * _ROW_BYTES
    budget = memory.budget_bytes()
    if size > budget:
        raise ValueError(f"This comparison's table would take {memory.shown_bytes(size)}, more than this process's "
                         f"{memory.shown_bytes(budget)} budget ({memory.BUDGET_VARIABLE}); ask for fewer seeds, "
                         "algorithms or games.")


def compare(games: object, algorithms: str | Sequence[str], iterations: int,
            updates: str | Sequence[str] = UpdateScheme.ALTERNATING, seeds: int | Sequence[int] = 1, *,
            sampling_iterations: int | None = None,
            progress: Callable[[float], object] | None = None) -> pd.DataFrame:
    """Solve every game × algorithm × update scheme × seed and return one tidy DataFrame.

    games: one game or a list, each as `cfrviz.solve` takes it ("kuhn", "leduc", "efg:<name>", a
    `GameSpec`, a path to an .efg file, ...). algorithms: CFR-family names ("cfr+", "dcfr+", "pcfr+",
    "external", "outcome", ...). updates: "alternating" (default), "simultaneous" or both; a pair an
    algorithm does not define (PCFR+ simultaneous) is skipped. seeds: a count (seeds 0 … N-1) or a
    list; deterministic algorithms run once (seed 0). sampling_iterations: iterations of
    the sampling methods (default: `iterations`). progress: called with the fraction done.

    One row per (game, algorithm, updates, seed, snapshot), columns `COLUMNS` (see the module
    docstring); snapshots are each run's default schedule (every iteration up to 1,000, then
    log-spaced). Runs are solved one after another, each dropped once read, and the memory budget
    holds (`check_memory`). Bad arguments are a ValueError sentence.

    >>> table = compare("kuhn", ["cfr+", "outcome"], 200, seeds=3)
    >>> sorted(table.groupby("algorithm")["seed"].nunique().items())
    [('cfr+', 1), ('outcome', 3)]
    """
    chosen = compare_plan(games, algorithms, iterations, updates, seeds, sampling_iterations)
    check_memory(chosen)
    if progress is not None and not callable(progress):
        raise ValueError("progress must be a function taking the fraction done, or None.")
    parts: list[pd.DataFrame] = []
    done = 0.0
    for game, entry, share in chosen.work():
        def report(fraction: float, start: float = done, share: float = share) -> None:
            if progress is not None:
                progress(min(1.0, start + share * fraction))

        parts.append(_entry_table(game, entry, progress=report).frame)
        done += share
    frame = pd.concat(parts, ignore_index=True)
    frame.attrs["skipped"] = list(chosen.skipped)
    return frame


def _final_rows(frame: pd.DataFrame) -> pd.DataFrame:
    last = frame.groupby(["game", "algorithm", "updates", "seed"], sort=False)["iteration"].transform("max")
    return frame[frame["iteration"] == last]


def summary_table(frame: pd.DataFrame, confidence: float = CONFIDENCE) -> pd.DataFrame:
    """One row per (game, algorithm, updates) of a `compare` table, from each seed's final snapshot.

    Columns: game, algorithm, updates, iterations, seeds (how many), exploitability (median over
    seeds), exploitability_low and exploitability_high (the `confidence` t-interval across seeds of
    `log_t_interval`; NaN with one seed), current_exploitability (median), node_visits (median),
    seconds (median), value (median)."""
    missing = [c for c in COLUMNS if c not in frame.columns]
    if missing:
        raise ValueError(f"This is not a comparison table: it has no {missing[0]!r} column.")
    rows = []
    for (game, algorithm, updates), group in _final_rows(frame).groupby(["game", "algorithm", "updates"],
                                                                        sort=False):
        finals = group["exploitability"].to_numpy(dtype=float)
        low, high = log_t_interval(finals[:, None], confidence)
        rows.append({"game": game, "algorithm": algorithm, "updates": updates,
                     "iterations": int(group["iteration"].max()), "seeds": int(group["seed"].nunique()),
                     "exploitability": float(np.median(finals)), "exploitability_low": float(low[0]),
                     "exploitability_high": float(high[0]),
                     "current_exploitability": float(group["current_exploitability"].median()),
                     "node_visits": float(group["node_visits"].median()),
                     "seconds": float(group["seconds"].median()), "value": float(group["value"].median())})
    return pd.DataFrame(rows)


def lines_from_table(frame: pd.DataFrame, confidence: float = CONFIDENCE) -> list[Line]:
    """The figure's lines of a `compare` table with one game (median and t-interval band, the
    seeds' own seconds), in the table's order."""
    games = list(pd.unique(frame["game"]))
    if len(games) != 1:
        raise ValueError(f"Draw one game at a time; this table holds {len(games)}.")
    lines = []
    for (algorithm, updates), group in frame.groupby(["algorithm", "updates"], sort=False):
        seeds = tuple(int(s) for s in pd.unique(group["seed"]))
        entry = Entry(str(algorithm), str(updates), int(group["iteration"].max()), seeds)
        lines.append(line_from_table(entry, group, confidence=confidence))
    return lines


def summary(lines: Sequence[Line]) -> list[dict[str, object]]:
    """The app's table, one row per line: final exploitability of the average and current strategy
    (median over seeds), nodes touched, median solver seconds, and where Kuhn's α-family applies
    the α ∈ [0, 1/3] of the equilibrium nearest the final average strategy."""
    rows = []
    for line in lines:
        entry = line.entry
        rows.append({
            "algorithm": entry.title + (" (sidebar)" if entry.sidebar else ""),
            "updates": entry.updates,
            "seeds": _seed_words(entry.seeds).removeprefix("seeds ").removeprefix("seed ") if entry.sampling else "",
            "iterations": int(line.iterations[-1]),
            "exploitability": float(line.exploitability[-1]),
            "current exploitability": float(line.current_exploitability[-1]),
            "nodes touched": round(float(line.nodes_touched[-1])),
            "seconds": float(line.seconds[-1]),
            "α heads for": float(line.alpha),
        })
    return rows


def table_csv(rows: Sequence[dict[str, object]]) -> str:
    """The summary table as CSV text (full precision; empty cells for NaN)."""
    if not rows:
        return ""
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=list(rows[0]), lineterminator="\n")
    writer.writeheader()
    for row in rows:
        writer.writerow({k: ("" if isinstance(v, float) and math.isnan(v) else
                             repr(v) if isinstance(v, float) else v) for k, v in row.items()})
    return out.getvalue()


CURVE_COLUMNS = ("algorithm", "updates", "seeds", "sidebar", "iteration", "nodes_touched", "seconds",
                 "exploitability", "exploitability_low", "exploitability_high", "current_exploitability",
                 "current_low", "current_high")


def curves_csv(lines: Sequence[Line]) -> str:
    """Every line's curves as long-format CSV: one row per (line, snapshot), columns CURVE_COLUMNS.
    Exploitability's rounding noise below zero is written as 0 (`clamped_exploitability`), as the
    summary table shows it."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CURVE_COLUMNS)
    for line in lines:
        entry = line.entry
        seeds = " ".join(str(s) for s in entry.seeds) if entry.sampling else ""
        exploitabilities = (line.exploitability, line.exploitability_low, line.exploitability_high,
                            line.current_exploitability, line.current_low, line.current_high)
        for s, t in enumerate(line.iterations):
            cells = [float(line.nodes_touched[s]), float(line.seconds[s])] + [
                clamped_exploitability(float(c[s])) for c in exploitabilities]
            writer.writerow([entry.algorithm, entry.updates, seeds, int(entry.sidebar), int(t)]
                            + ["" if math.isnan(c) else repr(c) for c in cells])
    return out.getvalue()


__all__ = [
    "COLUMNS",
    "CONFIDENCE",
    "CURVE_COLUMNS",
    "DEFAULT_REPEATS",
    "DEFAULT_SEEDS",
    "MAX_REPEATS",
    "ComparePlan",
    "Entry",
    "Line",
    "SolverSlot",
    "band_words",
    "check_memory",
    "compare",
    "compare_plan",
    "curves_csv",
    "fixed_seeds",
    "line_from_table",
    "lines_from_table",
    "log_t_interval",
    "measure_line",
    "plan",
    "summary",
    "summary_table",
    "table_csv",
    "timed_seconds",
]
