"""The hosted app's per-click budget for the Compare page: how many seeds, solves and node visits one
click may ask of the shared server. It applies in the app only; `cfrviz.compare` and `cfrviz compare`
on one's own machine are bounded by the memory budget alone."""
from __future__ import annotations

from collections.abc import Sequence

from cfrviz.solving.compare import Entry

#: Most seeds per sampling method on the page.
MAX_SEEDS = 10
#: Most solves one comparison may ask for on the page (entries x seeds).
MAX_SOLVES = 60
#: What one iteration costs beyond its node visits (the kernel's per-iteration work), counted in node
#: visits: about 1.1 µs an iteration on a 7-node game, some 40 visits' worth (scripts/budget.py).
ITERATION_OVERHEAD_NODES = 40
#: Most node visits one comparison may cost, counted as if every iteration walked the whole tree
#: once per player (an upper bound for sampling methods). The slowest kernel (PCFR+, alternating)
#: costs about 17 ns of CPU a counted visit, so one click stays near 7 s of one core, within the
#: app's 10 s a click (README, "Per-click budget", Compare at its cap).
MAX_NODE_VISITS = 400_000_000


def node_visits(entries: Sequence[Entry], num_nodes: int, repeats: int) -> int:
    """An upper bound on the node visits of solving every entry once per seed and timing it
    `repeats` times after a warm-up: each iteration walks the tree once per player, plus
    `ITERATION_OVERHEAD_NODES` for the iteration's own work."""
    return sum(entry.iterations * 2 * (num_nodes + ITERATION_OVERHEAD_NODES) * (len(entry.seeds) + repeats)
               for entry in entries)


def check_work(entries: Sequence[Entry], num_nodes: int, repeats: int) -> None:
    """ValueError with a sentence when one click's comparison asks for more seeds, solves or node
    visits than this shared server gives one click."""
    solves = sum(len(e.seeds) for e in entries)
    if solves > MAX_SOLVES:
        raise ValueError(f"This comparison needs {solves} solves; pick fewer algorithms or seeds "
                         f"(at most {MAX_SOLVES} on this shared server).")
    most_seeds = max((len(entry.seeds) for entry in entries if entry.sampling), default=0)
    if most_seeds > MAX_SEEDS:
        raise ValueError(f"Run each sampling method with 1 to {MAX_SEEDS} seeds on this shared server, not "
                         f"{most_seeds}; `cfrviz compare` on your own machine takes any number.")
    visits = node_visits(entries, num_nodes, repeats)
    if visits > MAX_NODE_VISITS:
        sidebar = " or leave out the sidebar's run" if any(entry.sidebar for entry in entries) else ""
        raise ValueError(f"This comparison could visit {visits / 1e6:,.0f} million tree nodes, more than the "
                         f"{MAX_NODE_VISITS / 1e6:,.0f} million one click may ask of this shared server; lower "
                         f"the iterations, the seeds or the timed solves, or pick fewer algorithms{sidebar}.")


__all__ = ["ITERATION_OVERHEAD_NODES", "MAX_NODE_VISITS", "MAX_SEEDS", "MAX_SOLVES", "check_work", "node_visits"]
