"""What a solve leaves behind: snapshots of every information set over the iterations.

OWNED BY THE SOLVER-CORE WORK (issue 2): save/load (.npz, allow_pickle=False),
export_strategy (JSON) and the snapshot schedule are to be completed here.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from cfrviz.tree import GameTree


@dataclass(frozen=True)
class RunSettings:
    """The plain values that produced a run (and key the app's cache)."""

    game: str                 # "kuhn", "leduc", "rps" or "matrix"
    game_params: tuple        # sorted (name, value) pairs, e.g. (("cards", 4),)
    algorithm: str            # a key of cfrviz.solvers.ALGORITHMS
    iterations: int
    updates: str              # "simultaneous" or "alternating"
    seed: int


@dataclass(frozen=True, eq=False)
class Run:
    """Snapshots of one solve. T snapshots, I information sets, A = most legal actions.

    iterations        [T]       iterations completed at each snapshot (1-based, increasing)
    cumulative_regret [T, I, A] after that iteration
    current_strategy  [T, I, A] the strategy played in that iteration
    average_strategy  [T, I, A] average over iterations 1..t
    reach             [T, I]    own reach probability of each information set in that iteration
    value             [T]       player 1's value of that iteration's current profile
    expected_value    [T]       the seeds' running mean of iteration values up to t
    exploitability    [T]       of the average strategy, chips per hand (NashConv / 2)
    nodes_touched     [T]       cumulative tree nodes visited
    seconds           [T]       cumulative solver seconds (exploitability excluded)
    All arrays are read-only.
    """

    settings: RunSettings
    tree: GameTree
    iterations: np.ndarray
    cumulative_regret: np.ndarray
    current_strategy: np.ndarray
    average_strategy: np.ndarray
    reach: np.ndarray
    value: np.ndarray
    expected_value: np.ndarray
    exploitability: np.ndarray
    nodes_touched: np.ndarray
    seconds: np.ndarray

    @property
    def num_snapshots(self) -> int:
        return len(self.iterations)

    def snapshot_at(self, iteration: int) -> int:
        """Index of the last snapshot taken at or before `iteration` (0 if none)."""
        return max(int(np.searchsorted(self.iterations, iteration, side="right")) - 1, 0)
