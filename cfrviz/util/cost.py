"""What a solve costs in CPU time, estimated from the tree's size before solving: the iteration caps.

A full-traversal solve (`cfrviz.solve` end to end) does two kinds of work, each about linear in the
number of histories N: every iteration walks the tree (the solver's passes), and every snapshot is
judged by another walk (the exploitability of its average and current strategy). So

    seconds(N, T) = N * (T * NODE_ITERATION_SECONDS + snapshots(T) * NODE_SNAPSHOT_SECONDS)

with snapshots(T) the default schedule's count: min(T, most), where most is `MAX_DEFAULT_SNAPSHOTS` or
fewer when the memory budget holds fewer (`cfrviz.util.memory.SolvePlan.most_snapshots`). Both constants are
measured, not guessed: `python scripts/budget.py --caps` solves the largest games with every
algorithm, fits them to the slowest algorithm's CPU time, and prints the fit beside the measured
cost at each game's cap. Sampling MCCFR touches a fraction of the tree per iteration and costs
less; the caps are set by the full traversals.
"""
from __future__ import annotations

import math

from cfrviz.util.memory import MAX_DEFAULT_SNAPSHOTS

__all__ = ["CLICK_SECONDS", "NODE_ITERATION_SECONDS", "NODE_SNAPSHOT_SECONDS", "iteration_cap", "nice_below",
           "solve_seconds"]

#: CPU seconds one click of the shared app may cost: the largest solve it may ask for.
CLICK_SECONDS = 1.0
#: CPU seconds per history per iteration of the slowest full-traversal algorithm, and per history
#: per judged snapshot: `scripts/budget.py --caps` on 2026-11-24 (09:38 UTC, load 2.3 to 6), fitted
#: over the five largest games and scaled so that none costs more than its estimate (the README's
#: "largest games" table).
NODE_ITERATION_SECONDS = 17.9e-9
NODE_SNAPSHOT_SECONDS = 12.6e-9

#: Round numbers a cap is rounded down to, times a power of ten.
_NICE = (1.0, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0, 6.0, 8.0)


def solve_seconds(nodes: int, iterations: int, most: int = MAX_DEFAULT_SNAPSHOTS) -> float:
    """Estimated CPU seconds of a default solve of a tree of `nodes` histories for `iterations`, keeping
    at most `most` snapshots."""
    snapshots = min(iterations, most, MAX_DEFAULT_SNAPSHOTS)
    return nodes * (iterations * NODE_ITERATION_SECONDS + snapshots * NODE_SNAPSHOT_SECONDS)


def nice_below(value: float, steps: tuple[float, ...] = _NICE) -> int:
    """The largest of `steps` (by default 1, 1.5, 2, 2.5, 3, 4, 5, 6 or 8; each at most 1 must be 1) times a
    power of ten that is at most `value` (>= 1).

    >>> nice_below(34_567), nice_below(3_999), nice_below(1), nice_below(34_567, (1, 2, 5))
    (30000, 3000, 1, 20000)
    """
    value = max(float(value), 1.0)
    power = 10 ** math.floor(math.log10(value))
    return int(max(m * power for m in steps if m * power <= value))


def iteration_cap(nodes: int, seconds: float, low: int, high: int, most: int = MAX_DEFAULT_SNAPSHOTS) -> int:
    """Most iterations (a round number, within [low, high]) whose estimated solve, keeping at most `most`
    snapshots, fits in `seconds`."""
    nodes = max(int(nodes), 1)
    most = max(min(int(most), MAX_DEFAULT_SNAPSHOTS), 1)
    per_iteration = nodes * NODE_ITERATION_SECONDS
    # Solve seconds(N, T) = seconds for T: past `most` iterations the snapshot term is fixed.
    fixed = nodes * most * NODE_SNAPSHOT_SECONDS
    raw = (seconds - fixed) / per_iteration
    if raw < most:
        raw = seconds / (per_iteration + nodes * NODE_SNAPSHOT_SECONDS)
    return int(min(max(nice_below(raw), low), high))
