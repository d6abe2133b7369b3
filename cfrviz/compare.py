"""Several algorithms on one game: which runs to make, and the table that sums them up.

Pure (no streamlit): the Compare page and scripts build `Entry`s, solve each one (the
page through its cached solve, scripts through `run_comparison`), and summarise the runs.
"""
from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from cfrviz.analysis import closest_alpha
from cfrviz.catalog import of_tree
from cfrviz.run import Run
from cfrviz.runner import solve
from cfrviz.solvers import ALGORITHMS, UPDATE_SCHEMES

#: Algorithms that traverse for one player at a time by definition.
ALTERNATING_ONLY = ("external", "outcome")


@dataclass(frozen=True)
class Entry:
    """One line of a comparison: an algorithm, its update scheme, iterations and seed."""

    algorithm: str
    updates: str
    iterations: int
    seed: int = 0

    @property
    def sampling(self) -> bool:
        return ALGORITHMS[self.algorithm][2]

    @property
    def label(self) -> str:
        title = ALGORITHMS[self.algorithm][0]
        return f"{title} ({self.updates}" + (f", seed {self.seed})" if self.sampling else ")")


def plan(algorithms: Iterable[str], updates: Iterable[str], iterations: int, sampling_iterations: int,
         seeds: dict[str, int] | None = None) -> tuple[list[Entry], list[str]]:
    """Every (algorithm, update scheme) pair that exists, and a note for each skipped pair.

    Full-traversal algorithms run `iterations`, sampling ones `sampling_iterations`
    (a sampled iteration touches far fewer nodes; comparisons in the MCCFR literature give them more iterations too).
    """
    seeds = seeds or {}
    entries: list[Entry] = []
    skipped: list[str] = []
    schemes = [u for u in UPDATE_SCHEMES if u in set(updates)]
    for algorithm in algorithms:
        if algorithm not in ALGORITHMS or algorithm == "rm":
            raise ValueError(f"Compare CFR algorithms: choose from {', '.join(a for a in ALGORITHMS if a != 'rm')}.")
        for scheme in schemes:
            if scheme == "simultaneous" and algorithm in ALTERNATING_ONLY:
                skipped.append(f"{ALGORITHMS[algorithm][0]} updates one player at a time, so only its "
                               "alternating run is shown.")
                continue
            sampling = ALGORITHMS[algorithm][2]
            entries.append(Entry(algorithm, scheme, sampling_iterations if sampling else iterations,
                                 int(seeds.get(algorithm, 0)) if sampling else 0))
    return entries, skipped


def run_comparison(game: str, entries: Sequence[Entry],
                   progress: Callable[[int, float], object] | None = None, **game_params) -> list[Run]:
    """Solve every entry in order; `progress(entry_index, fraction)` reports each solve's progress."""
    runs = []
    for k, entry in enumerate(entries):
        report = None if progress is None else (lambda fraction, k=k: progress(k, fraction))
        runs.append(solve(game, entry.algorithm, iterations=entry.iterations, updates=entry.updates,
                          seed=entry.seed, progress=report, **game_params))
    return runs


def summary(entries: Sequence[Entry], runs: Sequence[Run]) -> list[dict[str, object]]:
    """One row per run: final exploitability, nodes touched, solver seconds, and where Kuhn's α-family applies
    the α ∈ [0, 1/3] of the equilibrium nearest to the final average strategy."""
    rows = []
    for entry, run in zip(entries, runs):
        row: dict[str, object] = {
            "algorithm": entry.label,
            "iterations": int(run.iterations[-1]),
            "exploitability": float(run.exploitability[-1]),
            "nodes touched": int(run.nodes_touched[-1]),
            "seconds": float(run.seconds[-1]),
        }
        row["α heads for"] = float(closest_alpha(run.average_strategy[-1], run.tree)) if of_tree(run.tree).alpha_family \
            else math.nan
        rows.append(row)
    return rows
