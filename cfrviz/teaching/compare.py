"""Several algorithms on one game: which runs to make, each one's curves, the table and the CSV files.

Pure (no streamlit). A comparison is a list of `Entry`s (an algorithm, its update scheme, its
iterations and the random seeds it runs with); `measure_line` solves an entry once per seed,
times it separately, and keeps only the curves as a `Line`:

- exploitability of the average and of the current strategy per snapshot, the median over the
  entry's seeds with the lowest and highest seed as a band (one seed: no band);
- nodes touched, the median over seeds;
- solver seconds, the median over `repeats` timed solves made after a warm-up solve, so the
  time numba needs to compile or load a kernel is never counted.

`summary` makes the table, `table_csv` and `curves_csv` the files a researcher takes away.
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

from cfrviz.analysis import closest_alpha
from cfrviz.catalog import GameSpec
from cfrviz.run import Run, RunSettings, snapshot_schedule
from cfrviz.solving import planned_schedule, solve_settings, solver_seconds
from cfrviz.solvers import ALGORITHMS, UPDATE_SCHEMES, Algorithm, UpdateScheme, update_schemes
from cfrviz.tree import GameTree

#: Seeds each sampling method runs with by default (fixed, so a comparison can be repeated).
DEFAULT_SEEDS = (0, 1, 2, 3, 4)
#: Most seeds per sampling method.
MAX_SEEDS = 10
#: Timed solves per entry by default; the median is shown.
DEFAULT_REPEATS = 3
#: Most timed solves per entry.
MAX_REPEATS = 9
#: Most solves one comparison may ask for (entries x seeds), to bound the work of one click.
MAX_SOLVES = 60
#: What one iteration costs beyond its node visits (the kernel's per-iteration work), counted in node
#: visits: about 1.1 µs an iteration on a 7-node game, some 40 visits' worth (scripts/budget.py).
ITERATION_OVERHEAD_NODES = 40
#: Most node visits one comparison may cost, counted as if every iteration walked the whole tree
#: once per player (an upper bound for sampling methods). The slowest kernel (PCFR+, alternating)
#: costs about 17 ns of CPU a counted visit, so one click stays near 7 s of one core, within the
#: app's 10 s a click (README, "Per-click budget", Compare at its cap).
MAX_NODE_VISITS = 400_000_000

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
    if not 1 <= count <= MAX_SEEDS:
        raise ValueError(f"Run each sampling method with 1 to {MAX_SEEDS} seeds, not {count}.")
    return tuple(range(first, first + count))


def plan(algorithms: Iterable[str], updates: Iterable[str], iterations: int, sampling_iterations: int,
         seeds: Sequence[int] = DEFAULT_SEEDS) -> tuple[list[Entry], list[str]]:
    """Every (algorithm, update scheme) pair that exists, and a note for each skipped pair.

    Full-traversal algorithms run `iterations`, sampling ones `sampling_iterations` (a sampled
    iteration touches far fewer nodes) once per seed in `seeds`.
    """
    entries: list[Entry] = []
    skipped: list[str] = []
    schemes = [u for u in UPDATE_SCHEMES if u in set(updates)]
    seeds = tuple(int(s) for s in seeds) or (0,)
    for algorithm in algorithms:
        if algorithm not in ALGORITHMS or algorithm == Algorithm.REGRET_MATCHING:
            raise ValueError("Compare CFR algorithms: choose from "
                             f"{', '.join(a for a in ALGORITHMS if a != Algorithm.REGRET_MATCHING)}.")
        for scheme in schemes:
            if scheme not in update_schemes(algorithm):
                skipped.append(f"{ALGORITHMS[algorithm].title} is defined with alternating updates, so only its "
                               "alternating run is shown.")
                continue
            sampling = ALGORITHMS[algorithm].sampling
            entries.append(Entry(algorithm, scheme, sampling_iterations if sampling else iterations,
                                 seeds if sampling else (0,)))
    solves = sum(len(e.seeds) for e in entries)
    if solves > MAX_SOLVES:
        raise ValueError(f"This comparison needs {solves} solves; pick fewer algorithms or seeds "
                         f"(at most {MAX_SOLVES}).")
    return entries, skipped


def node_visits(entries: Sequence[Entry], num_nodes: int, repeats: int) -> int:
    """An upper bound on the node visits of solving every entry once per seed and timing it
    `repeats` times after a warm-up: each iteration walks the tree once per player, plus
    `ITERATION_OVERHEAD_NODES` for the iteration's own work."""
    return sum(entry.iterations * 2 * (num_nodes + ITERATION_OVERHEAD_NODES) * (len(entry.seeds) + repeats)
               for entry in entries)


def check_work(entries: Sequence[Entry], num_nodes: int, repeats: int) -> None:
    """ValueError with a sentence when the comparison would cost more than MAX_NODE_VISITS."""
    visits = node_visits(entries, num_nodes, repeats)
    if visits > MAX_NODE_VISITS:
        sidebar = " or leave out the sidebar's run" if any(entry.sidebar for entry in entries) else ""
        raise ValueError(f"This comparison could visit {visits / 1e6:,.0f} million tree nodes, more than the "
                         f"{MAX_NODE_VISITS / 1e6:,.0f} million one page may ask for; lower the iterations, the "
                         f"seeds or the timed solves, or pick fewer algorithms{sidebar}.")


@dataclass(frozen=True, eq=False)
class Line:
    """One entry's curves, all [T] over the snapshot iterations.

    exploitability, current_exploitability: median over the entry's seeds, of the average and of
    the current strategy; *_low, *_high: the lowest and highest seed (equal to the median for one
    seed). nodes_touched: median over seeds. seconds: cumulative solver seconds, the median of
    `repeats` timed solves after a warm-up. alpha: where Kuhn's α-family applies, the α ∈ [0, 1/3]
    of the equilibrium nearest the first seed's final average strategy (NaN otherwise).
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

    @property
    def label(self) -> str:
        return self.entry.label


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

    seconds(snapshot_schedule(2), entry.seeds[0])   # warm-up
    timings = [seconds(schedule, entry.seeds[k % len(entry.seeds)]) for k in range(repeats)]
    median: np.ndarray = np.median(np.stack(timings), axis=0)
    return median


@dataclass(frozen=True, eq=False)
class _SeedCurves:
    """The curves of an entry's runs, one row per seed ([S, T]), and what the first run leaves."""

    iterations: np.ndarray
    exploitability: np.ndarray
    current_exploitability: np.ndarray
    nodes_touched: np.ndarray
    tree: GameTree
    alpha: float


def _seed_curves(entry: Entry, runs: Iterable[Run]) -> _SeedCurves:
    """Read each run's curves as it comes and let it go: only one run (a Leduc run at the cap is
    tens of MB) is held at a time, however many seeds."""
    rows: dict[str, list[np.ndarray]] = {"exploitability": [], "current_exploitability": [], "nodes_touched": []}
    iterations: np.ndarray | None = None
    tree: GameTree | None = None
    alpha = math.nan
    for run in runs:
        if tree is None:
            iterations, tree = np.array(run.iterations), run.tree
            if run.settings.spec.alpha_family:
                alpha = float(closest_alpha(run.average_strategy[-1], tree))
        for field, kept in rows.items():
            kept.append(np.array(getattr(run, field), dtype=float))
    count = len(rows["exploitability"])
    if count != len(entry.seeds) or iterations is None or tree is None:
        raise ValueError(f"{entry.label} needs one run per seed ({len(entry.seeds)}), not {count}.")
    return _SeedCurves(iterations, np.stack(rows["exploitability"]), np.stack(rows["current_exploitability"]),
                       np.stack(rows["nodes_touched"]), tree, alpha)


def _line(entry: Entry, curves: _SeedCurves, seconds: np.ndarray, repeats: int) -> Line:
    average, current = curves.exploitability, curves.current_exploitability
    return Line(entry=entry, iterations=curves.iterations, exploitability=np.median(average, axis=0),
                exploitability_low=average.min(axis=0), exploitability_high=average.max(axis=0),
                current_exploitability=np.median(current, axis=0), current_low=current.min(axis=0),
                current_high=current.max(axis=0), nodes_touched=np.median(curves.nodes_touched, axis=0),
                seconds=np.asarray(seconds, dtype=float), repeats=int(repeats), alpha=curves.alpha)


def line_from_runs(entry: Entry, runs: Iterable[Run], seconds: np.ndarray, repeats: int) -> Line:
    """Summarise an entry's runs (one per seed, same iterations) and its timing as a `Line`."""
    return _line(entry, _seed_curves(entry, runs), seconds, repeats)


def measure_line(game: GameSpec, entry: Entry, repeats: int = DEFAULT_REPEATS, *,
                 solve_run: Solve | None = None, solver_slot: SolverSlot = contextlib.nullcontext) -> Line:
    """Solve `entry` on `game` once per seed (through `solve_run(settings)` when given, e.g. a cached
    solve that takes its own slot), time it, and keep its curves. The game is used as it is: nothing
    here asks the catalog again.

    Every solve made here (each seed's, the warm-up and the timed ones) holds `solver_slot()`, one
    at a time, so a server's other visitors' solves take turns with a comparison's. Runs are
    solved one after another and dropped once their curves are read.
    """
    if solve_run is None:
        def solve_run(settings: RunSettings) -> Run:
            return _held(solver_slot, lambda: solve_settings(settings))
    curves = _seed_curves(entry, (solve_run(entry.settings(game, seed)) for seed in entry.seeds))
    return _line(entry, curves, timed_seconds(curves.tree, entry, repeats, solver_slot=solver_slot), repeats)


def summary(lines: Sequence[Line]) -> list[dict[str, object]]:
    """One row per line: final exploitability of the average and current strategy (median over
    seeds), nodes touched, median solver seconds, and where Kuhn's α-family applies the
    α ∈ [0, 1/3] of the equilibrium nearest the final average strategy."""
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
    """Every line's curves as long-format CSV: one row per (line, snapshot), columns CURVE_COLUMNS."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CURVE_COLUMNS)
    for line in lines:
        entry = line.entry
        seeds = " ".join(str(s) for s in entry.seeds) if entry.sampling else ""
        columns = (line.nodes_touched, line.seconds, line.exploitability, line.exploitability_low,
                   line.exploitability_high, line.current_exploitability, line.current_low, line.current_high)
        for s, t in enumerate(line.iterations):
            writer.writerow([entry.algorithm, entry.updates, seeds, int(entry.sidebar), int(t)]
                            + ["" if math.isnan(float(c[s])) else repr(float(c[s])) for c in columns])
    return out.getvalue()


__all__ = [
    "DEFAULT_REPEATS",
    "DEFAULT_SEEDS",
    "ITERATION_OVERHEAD_NODES",
    "MAX_NODE_VISITS",
    "MAX_REPEATS",
    "MAX_SEEDS",
    "MAX_SOLVES",
    "Entry",
    "Line",
    "SolverSlot",
    "check_work",
    "curves_csv",
    "fixed_seeds",
    "line_from_runs",
    "measure_line",
    "node_visits",
    "plan",
    "summary",
    "table_csv",
    "timed_seconds",
]
