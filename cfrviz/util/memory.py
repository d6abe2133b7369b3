"""How much memory one solve may take in this process, planned from the tree's sizes before allocating.

A solve's arrays are known from three numbers: N histories, I information sets and A, the most
actions at any set. The snapshot arrays ([T, I, A] three times, [T, I] own reach, [T] the rest)
grow with the number of snapshots T; the solver's state and the passes that judge each snapshot
(best response and exploitability, one profile at a time) do not. `SolvePlan` adds them up, so a
solve can choose its snapshots, or refuse, before anything is allocated:

    >>> plan = solve_plan(num_nodes=1_936, num_infosets=288, max_actions=3)   # Leduc poker
    >>> plan.per_snapshot, plan.most_snapshots(200_000_000) >= 2_000
    (27712, True)

The budget is per process: 200 MB by default, measured so that one click of the hosted app grows
the server by less than 300 MB (the solve, the figures and the browser payload together; see the
README's per-click table). A local user with more memory raises it with the environment variable
CFRVIZ_MEMORY_MB (megabytes).

Trees are bounded too (`check_tree_size`): every tree that is accepted can be solved within the
budget with at least `MIN_SNAPSHOTS` snapshots, and its [N, A] arrays (per-history action values)
stay within `MAX_NODE_ACTION_CELLS` numbers.
"""
from __future__ import annotations

import math
import os
from dataclasses import dataclass

__all__ = ["BUDGET_VARIABLE", "DEFAULT_BUDGET_BYTES", "MAX_DEFAULT_SNAPSHOTS", "MAX_NODE_ACTION_CELLS", "MIN_SNAPSHOTS", "SolvePlan",
           "budget_bytes", "check_tree_size", "shown_bytes", "solve_plan"]

#: Bytes one solve may plan for its arrays unless CFRVIZ_MEMORY_MB says otherwise.
DEFAULT_BUDGET_BYTES = 200_000_000
#: The environment variable that sets the budget, in megabytes.
BUDGET_VARIABLE = "CFRVIZ_MEMORY_MB"
#: Most snapshots the default schedule takes (fewer where the budget holds fewer: `SolvePlan.most_snapshots`).
MAX_DEFAULT_SNAPSHOTS = 2_000
#: Fewest snapshots every accepted tree must be able to keep within the budget.
MIN_SNAPSHOTS = 20
#: Most numbers in one [N, A] array (histories x most actions): 32 MB of float64.
MAX_NODE_ACTION_CELLS = 4_000_000

_FLOAT = 8


def budget_bytes() -> int:
    """The per-process budget of one solve, in bytes (CFRVIZ_MEMORY_MB megabytes, else 200 MB).

    A malformed value is a ValueError sentence, not a silent default.
    """
    text = os.environ.get(BUDGET_VARIABLE, "").strip()
    if not text:
        return DEFAULT_BUDGET_BYTES
    if not (text.isascii() and text.isdigit()) or not 1 <= int(text) <= 10**7:
        raise ValueError(f"{BUDGET_VARIABLE} must be a whole number of megabytes from 1 to 10,000,000, "
                         f"not {text[:20]!r}.")
    return int(text) * 1_000_000


def shown_bytes(size: float) -> str:
    """A byte count in words: "1.3 GB", "240 MB", "12 kB"."""
    if size >= 1e9:
        return f"{size / 1e9:,.1f} GB"
    if size >= 1e6:
        return f"{size / 1e6:,.0f} MB"
    return f"{max(size, 0) / 1e3:,.0f} kB"


@dataclass(frozen=True)
class SolvePlan:
    """Bytes a solve allocates: `fixed` whatever the snapshots, plus `per_snapshot` for each one kept."""

    fixed: int
    per_snapshot: int

    def total(self, snapshots: int) -> int:
        """Bytes of a solve keeping `snapshots` snapshots."""
        return self.fixed + self.per_snapshot * int(snapshots)

    def most_snapshots(self, budget: int) -> int:
        """The most snapshots that fit `budget` bytes (0 when not even the fixed part fits)."""
        return max((int(budget) - self.fixed) // self.per_snapshot, 0)


def solve_plan(num_nodes: int, num_infosets: int, max_actions: int) -> SolvePlan:
    """What a solve of a tree with these sizes allocates, in bytes (float64 and int64 are 8 bytes).

    Fixed: the solver's state (regret, strategy sum, strategies, prediction: at most 7 [I, A]
    arrays, [N, 4] reach and values), best response's work arrays ([N, 5], [I, A], [I]) and the
    packed tree it walks ([N, 7]), one [N] value pass, and own reach's parent table ([I, 3]).
    Per snapshot: regret, current and average strategy (3 [I, A]), own reach ([I], and at most
    2 [I] while it is computed) and eight [T] records.
    """
    n, i, a = int(num_nodes), int(num_infosets), int(max_actions)
    fixed = _FLOAT * (7 * i * a + 4 * n + i          # solver state
                      + 5 * n + i * a + i            # best response, reused for every snapshot
                      + 7 * n + n                    # packed tree, expected value
                      + 3 * i)                       # own reach's parents
    per_snapshot = _FLOAT * (3 * i * a + 3 * i + 8)
    return SolvePlan(fixed, per_snapshot)


def check_tree_size(title: str, num_nodes: int, num_infosets: int, max_actions: int) -> None:
    """Raise a ValueError sentence unless a tree of these sizes can be solved within the budget
    with at least MIN_SNAPSHOTS snapshots and its [N, A] arrays stay within MAX_NODE_ACTION_CELLS."""
    budget = budget_bytes()
    cells = int(num_nodes) * int(max_actions)
    if cells > MAX_NODE_ACTION_CELLS:
        raise ValueError(f"{title} has {num_nodes:,} histories and up to {max_actions:,} actions at one "
                         f"information set: {cells:,} numbers per history table, more than the "
                         f"{MAX_NODE_ACTION_CELLS:,} cfrviz allows; offer fewer actions.")
    needed = solve_plan(num_nodes, num_infosets, max_actions).total(MIN_SNAPSHOTS)
    if needed > budget:
        raise ValueError(f"{title} has {num_infosets:,} information sets of up to {max_actions:,} actions: "
                         f"{MIN_SNAPSHOTS} snapshots of a solve would need {shown_bytes(needed)}, more than "
                         f"this process's {shown_bytes(budget)} budget ({BUDGET_VARIABLE}); offer fewer actions "
                         "or information sets.")


def stride_for(iterations: int, most: int) -> int:
    """The smallest stride k whose schedule (every k-th iteration and the last) keeps at most `most` snapshots."""
    return max(math.ceil(int(iterations) / max(int(most), 1)), 1)
