"""The contract every solver keeps, and the small regret-matching maths they share.

A solver owns its state arrays over the compiled tree and advances them in
batches: `iterate(n)` runs n iterations in one call, so a compiled kernel can
run between snapshots without returning to Python.
"""
from __future__ import annotations

from abc import ABC, abstractmethod

import numpy as np

from cfrviz.tree import GameTree

UPDATE_SCHEMES = ("simultaneous", "alternating")


def check_updates(updates: object, allowed: tuple[str, ...] = UPDATE_SCHEMES, title: str = "This solver") -> str:
    """`updates` if it is one of `allowed`; otherwise a ValueError sentence naming the choices."""
    if updates not in allowed:
        if updates in UPDATE_SCHEMES:
            raise ValueError(f"{title} supports only {' or '.join(allowed)} updates; choose {allowed[0]}.")
        raise ValueError(f"Unknown update scheme {updates!r}; choose {' or '.join(repr(u) for u in allowed)}.")
    return str(updates)


def regret_matching(cumulative_regret: np.ndarray, legal: np.ndarray) -> np.ndarray:
    """[I, A] strategy proportional to positive regret; uniform over legal actions where none is positive.

    Hart and Mas-Colell (2000); Neller and Lanctot's tutorial uses the same rule.
    """
    positive = np.where(legal, np.maximum(cumulative_regret, 0.0), 0.0)
    total = positive.sum(axis=-1, keepdims=True)
    uniform = legal / legal.sum(axis=-1, keepdims=True)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(total > 0.0, positive / np.where(total > 0.0, total, 1.0), uniform)


def normalize_average(strategy_sum: np.ndarray, legal: np.ndarray) -> np.ndarray:
    """[I, A] average strategy from a strategy sum; uniform where an information set was never reached."""
    total = strategy_sum.sum(axis=-1, keepdims=True)
    uniform = legal / legal.sum(axis=-1, keepdims=True)
    return np.where(total > 0.0, strategy_sum / np.where(total > 0.0, total, 1.0), uniform)


class Solver(ABC):
    """One algorithm's state over a GameTree.

    Arrays, all [I, A] unless noted, zero on illegal actions:
      cumulative_regret   regret summed (and for CFR+/DCFR, clipped or discounted) so far
      strategy_sum        the weighted sum the average strategy is normalised from
      current_strategy    the strategy each player used in the last completed iteration
      own_reach [I]       each information set's own reach probability (summed over its
                          histories) under that strategy; for sampling solvers, over the
                          histories the last iteration touched
    Scalars after each `iterate`: `iterations` (completed), `last_value` (player 1's value
    of the last iteration, as the traversal computed it), `value_sum` (sum of those values
    over every iteration, for the running mean of iteration values, as in the classic tutorial code), `nodes_touched` (cumulative).
    """

    #: registry name, e.g. "cfr"
    name: str = ""
    #: display name, e.g. "Vanilla CFR"
    title: str = ""
    #: True when `seed` changes the result
    sampling: bool = False
    #: the update schemes this solver implements
    update_schemes: tuple[str, ...] = UPDATE_SCHEMES

    def __init__(self, tree: GameTree, *, updates: str = "alternating", seed: int = 0) -> None:
        self.tree = tree
        self.updates = check_updates(updates, self.update_schemes, self.title or type(self).__name__)
        self.seed = seed
        shape = tree.legal.shape
        self.cumulative_regret = np.zeros(shape)
        self.strategy_sum = np.zeros(shape)
        self.current_strategy = tree.uniform_strategy()
        self.own_reach = np.zeros(tree.num_infosets)
        self.iterations = 0
        self.last_value = 0.0
        self.value_sum = 0.0
        self.nodes_touched = 0

    @abstractmethod
    def iterate(self, n: int = 1) -> None:
        """Run n more iterations."""

    def average_strategy(self) -> np.ndarray:
        """[I, A] a fresh copy of the average strategy so far."""
        return normalize_average(self.strategy_sum, self.tree.legal)

    def next_strategy(self) -> np.ndarray:
        """[I, A] the strategy the next iteration will play."""
        return regret_matching(self.cumulative_regret, self.tree.legal)
