"""Judging a locked strategy: the restricted game's exact value, exploitability in two games, and
what a lock changed.

With locks (`cfrviz.tree.locks`) there are two games to judge a profile in:

- the restricted game, where the locked sets are chance nodes: a best response may not change
  them. A solve of the locked game drives this exploitability to zero.
- the full game, where the locked sets' strategy is the lock but a best response may change
  anything: how exploitable the locked strategy is.

A best response in the full game has more choices, so the full-game exploitability is never
below the restricted one.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from cfrviz.analysis.best_responses import expected_value, exploitability, exploitability_many, history_values
from cfrviz.util.vocabulary import Player
from cfrviz.analysis.lp import solve_lp
from cfrviz.run import Run
from cfrviz.tree import GameTree
from cfrviz.tree.locks import Locks, RestrictedTree

__all__ = ["LockEffect", "full_exploitability", "lock_effect", "restricted_equilibrium",
           "restricted_exploitability", "strategy_change"]


def restricted_equilibrium(restricted: RestrictedTree) -> tuple[float, np.ndarray]:
    """(player 1's exact value of the locked game, an equilibrium [I, A] over the original sets).

    The sequence-form linear program of the restricted tree (Koller, Megiddo and von Stengel 1994),
    where every locked history is a chance node; locked sets play their lock. Computed once per
    restricted tree. ValueError when the program is too big to solve in its time limit.
    """
    value, strategy = solve_lp(restricted.tree)
    return value, restricted.to_original(strategy)


def _judged(tree: GameTree, strategy: np.ndarray) -> float | np.ndarray:
    array = np.ascontiguousarray(strategy, dtype=np.float64)
    if array.ndim == 2:
        return exploitability(tree, array)
    if array.ndim == 3:
        many: np.ndarray = exploitability_many(tree, array)
        return many
    raise ValueError(f"Expected a strategy [I, A] or strategies [T, I, A], not shape {list(array.shape)}.")


def restricted_exploitability(restricted: RestrictedTree, strategy: np.ndarray) -> float | np.ndarray:
    """Exploitability (NashConv / 2, chips per hand) in the locked game of a profile [I, A] (float) or of
    profiles [T, I, A] ([T]) over the original sets: a best response may not change a locked set, whose
    rows are ignored (the lock is played). Zero exactly at an equilibrium of the locked game."""
    return _judged(restricted.tree, restricted.to_restricted(strategy))


def full_exploitability(restricted: RestrictedTree, strategy: np.ndarray) -> float | np.ndarray:
    """Exploitability in the whole game of a profile [I, A] (float) or profiles [T, I, A] ([T]) with
    every locked set playing its lock: a best response may change any set, locked ones included."""
    return _judged(restricted.original, restricted.with_locks(strategy))


@dataclass(frozen=True, eq=False)
class LockEffect:
    """What locks changed: an unlocked run's and a locked run's average strategies, set by set.

    keys              [I] information-set keys; `player` [I] 0 or 1; `locked` [I] bool
    unlocked_strategy [I, A] the unlocked run's average strategy
    locked_strategy   [I, A] the locked run's (locked sets play the lock)
    change            [I] how far each set's strategy moved: total variation distance, half the
                      sum of absolute differences, from 0 (unchanged) to 1 (disjoint)
    reach             [I] the probability that play reaches the set under the locked run's profile
                      (chance and both players), summed over its histories
    unlocked_value, locked_value
                      player 1's exact values of the two profiles, chips per hand
    """

    keys: tuple[str, ...]
    player: np.ndarray
    locked: np.ndarray
    unlocked_strategy: np.ndarray
    locked_strategy: np.ndarray
    change: np.ndarray
    reach: np.ndarray
    unlocked_value: float
    locked_value: float

    def value_change(self, player: int) -> float:
        """Locked minus unlocked value for `player` (0 or 1): negative is what the locks cost them."""
        if player not in (0, 1):
            raise ValueError(f"Player must be 0 (player 1) or 1 (player 2), not {player!r}.")
        change = self.locked_value - self.unlocked_value
        return change if player == 0 else -change

    def moved_most(self, player: int, count: int = 5, at_least: float = 1e-6) -> tuple[int, ...]:
        """Up to `count` free sets of `player` whose strategy moved most (by `change`, then by `reach`),
        largest first, leaving out sets that moved less than `at_least`.

        Not weighted by reach: a lock often makes the opponent's answer unreached (never bluff with the
        jack, and player 2 stops calling a bet that no longer comes), and that answer is the lesson.
        """
        candidates = np.flatnonzero((self.player == player) & ~self.locked & (self.change >= at_least))
        order = sorted(candidates.tolist(), key=lambda i: (-self.change[i], -self.reach[i], i))
        return tuple(int(i) for i in order[:max(int(count), 0)])


def strategy_change(before: np.ndarray, after: np.ndarray) -> np.ndarray:
    """How far each set's strategy moved, [..., I] from strategies [..., I, A]: the total variation
    distance, half the sum of absolute differences, from 0 (unchanged) to 1 (disjoint).

    >>> float(strategy_change(np.array([[1.0, 0.0]]), np.array([[0.25, 0.75]]))[0])
    0.75
    """
    difference = np.asarray(after, dtype=np.float64) - np.asarray(before, dtype=np.float64)
    moved: np.ndarray = 0.5 * np.abs(difference).sum(axis=-1)
    return moved


def _set_reach(tree: GameTree, strategy: np.ndarray) -> np.ndarray:
    """[I] the probability of reaching each information set (chance and both players), over its histories."""
    reach = history_values(tree, strategy).reach
    decision = np.flatnonzero(tree.actor < Player.CHANCE)
    total = np.zeros(tree.num_infosets)
    np.add.at(total, tree.infoset[decision], reach[decision].prod(axis=1))
    return total


def lock_effect(unlocked: Run, locked: Run, locks: Locks, iteration: int | None = None) -> LockEffect:
    """Compare an unlocked run with a locked run of the same game at `iteration` (each run's snapshot at or
    before it; None: their last snapshots). `locks` are the locked run's. ValueError for runs of different
    games or locks the game does not have."""
    tree = locked.tree
    if [r.key for r in unlocked.tree.infosets] != [r.key for r in tree.infosets] or \
            unlocked.tree.legal.shape != tree.legal.shape:
        raise ValueError("Compare two runs of the same game; these have different information sets.")
    Locks.of(locks).check(tree)
    at = (lambda run: -1) if iteration is None else (lambda run: run.snapshot_at(iteration))
    before = np.asarray(unlocked.average_strategy[at(unlocked)], dtype=np.float64)
    after = np.asarray(locked.average_strategy[at(locked)], dtype=np.float64)
    marked = np.zeros(tree.num_infosets, dtype=bool)
    for key in locks:
        marked[tree.infoset_index(key)] = True
    change = strategy_change(before, after)
    reach = _set_reach(tree, after)
    for array in (before, after, marked, change, reach):
        array.setflags(write=False)
    return LockEffect(tuple(r.key for r in tree.infosets), np.asarray(tree.infoset_player), marked, before, after,
                      change, reach, expected_value(tree, before), expected_value(tree, after))
