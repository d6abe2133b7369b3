"""Regret matching in a two-player zero-sum matrix game (Hart and Mas-Colell 2000).

Player 1 picks a row, player 2 a column; payoffs are player 1's. Each iteration both
players (or player 1 alone, against a fixed opponent) play regret matching on their
cumulative regret, add the strategy to their strategy sum with weight 1, and add the
regret of every action against what happened. "What happened" is either one sampled
pair of actions, as Neller and Lanctot's rock-paper-scissors trainer plays it, or the opponent's whole mixed strategy
(expected-value updates).

Two entry points share one numba kernel:
  `regret_matching_path(payoffs, iterations, ...)`, a pure function for the regret-matching
  page (no tree), returning the strategies of every iteration; and
  `MatrixRegretMatching`, the `Solver` over a matrix GameTree that `cfrviz.solve` drives.
"""
from __future__ import annotations

import math
import numbers
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike
from numba import njit

from cfrviz.util.vocabulary import Player
from cfrviz.solvers.base import Solver, check_updates
from cfrviz.util.vocabulary import DEFAULT_UPDATES, Algorithm, UpdateScheme
from cfrviz.tree import GameTree

__all__ = ["TUTORIAL_OPPONENT", "MatrixRegretMatching", "RegretMatchingPath", "regret_matching_path"]

#: Player 2's fixed strategy in Neller and Lanctot's rock-paper-scissors trainer (rock 0.4, paper 0.3, scissors 0.3).
TUTORIAL_OPPONENT = (0.4, 0.3, 0.3)

#: Most iterations `regret_matching_path` records, to keep its arrays small.
MAX_PATH_POINTS = 200_000

# ---------------------------------------------------------------------------------------------
# Kernel
# ---------------------------------------------------------------------------------------------

@njit(cache=True, nogil=True, error_model="numpy", inline="always")
def _match(cumulative_regret: np.ndarray, out: np.ndarray) -> None:
    """out = positive regret normalised, uniform if none is positive (Hart and Mas-Colell 2000)."""
    k = cumulative_regret.shape[0]
    total = 0.0
    for a in range(k):
        r = cumulative_regret[a]
        out[a] = r if r > 0.0 else 0.0
        total += out[a]
    for a in range(k):
        out[a] = out[a] / total if total > 0.0 else 1.0 / k


@njit(cache=True, nogil=True, error_model="numpy", inline="always")
def _draw(rng: np.random.Generator, strategy: np.ndarray) -> int:
    u = rng.random()
    acc = 0.0
    last = 0
    for a in range(strategy.shape[0]):
        if strategy[a] > 0.0:
            last = a
            acc += strategy[a]
            if u < acc:
                return a
    return last


@njit(cache=True, nogil=True, error_model="numpy")
def _expected_row_update(payoffs: np.ndarray, row_strategy: np.ndarray, column_strategy: np.ndarray, regret_row: np.ndarray) -> float:
    """Add player 1's regrets against player 2's mixed strategy; returns the profile's value."""
    rows, columns = payoffs.shape
    utility = np.zeros(rows)
    value = 0.0
    for r in range(rows):
        for c in range(columns):
            utility[r] += payoffs[r, c] * column_strategy[c]
        value += row_strategy[r] * utility[r]
    for r in range(rows):
        regret_row[r] += utility[r] - value
    return value


@njit(cache=True, nogil=True, error_model="numpy")
def _expected_column_update(payoffs: np.ndarray, row_strategy: np.ndarray, column_strategy: np.ndarray, regret_column: np.ndarray) -> None:
    """Add player 2's regrets (its payoff is minus player 1's) against player 1's mixed strategy."""
    rows, columns = payoffs.shape
    utility = np.zeros(columns)
    value = 0.0
    for c in range(columns):
        for r in range(rows):
            utility[c] -= row_strategy[r] * payoffs[r, c]
        value += column_strategy[c] * utility[c]
    for c in range(columns):
        regret_column[c] += utility[c] - value


@njit(cache=True, nogil=True, error_model="numpy")
def matrix_regret_matching_kernel(payoffs: np.ndarray, regret_row: np.ndarray, regret_column: np.ndarray,
                                  sum_row: np.ndarray, sum_column: np.ndarray, opponent: np.ndarray,
                                  sampled: bool, alternating: bool, n: int, rng: np.random.Generator,
                                  current_row: np.ndarray, current_column: np.ndarray, every: int, start: int,
                                  path_current_row: np.ndarray, path_current_column: np.ndarray,
                                  path_regret_row: np.ndarray, path_regret_column: np.ndarray,
                                  path_sum_row: np.ndarray, path_sum_column: np.ndarray,
                                  path_value: np.ndarray) -> tuple[float, float]:
    """n iterations of regret matching; returns (sum of player 1's iteration values, last value).

    `opponent` is player 2's fixed strategy [C], or empty for self-play. The strategies of
    the last iteration are left in current_row [R] and current_column [C]. When every > 0,
    iteration start + t + 1 that is a multiple of `every` is written to row (start + t + 1)
    // every - 1 of the path arrays ([T, R] or [T, C]; path_value [T]).
    """
    rows, columns = payoffs.shape
    fixed = opponent.shape[0] > 0
    answer = np.empty(rows)
    value_sum = 0.0
    last = 0.0
    for t in range(n):
        _match(regret_row, current_row)
        if fixed:
            # Element by element: a whole-array copy compiles numba's shape-mismatch error
            # message (string formatting) into the kernel, seconds of a cold start.
            for c in range(columns):
                current_column[c] = opponent[c]
        else:
            _match(regret_column, current_column)
        for r in range(rows):
            sum_row[r] += current_row[r]
        for c in range(columns):
            sum_column[c] += current_column[c]
        if sampled:
            # Sampled play: each player draws an action; regret of r is u(r, b) - u(a, b).
            a = _draw(rng, current_row)
            b = _draw(rng, current_column)
            value = payoffs[a, b]
            for r in range(rows):
                regret_row[r] += payoffs[r, b] - value
            if not fixed:
                if alternating:
                    # Player 2 answers a fresh draw from player 1's updated strategy.
                    _match(regret_row, answer)
                    a = _draw(rng, answer)
                for c in range(columns):
                    regret_column[c] += payoffs[a, b] - payoffs[a, c]
        else:
            value = _expected_row_update(payoffs, current_row, current_column, regret_row)
            if not fixed:
                if alternating:
                    _match(regret_row, answer)
                    _expected_column_update(payoffs, answer, current_column, regret_column)
                else:
                    _expected_column_update(payoffs, current_row, current_column, regret_column)
        value_sum += value
        last = value
        step = start + t + 1
        if every > 0 and step % every == 0:
            j = step // every - 1
            for r in range(rows):
                path_current_row[j, r] = current_row[r]
                path_regret_row[j, r] = regret_row[r]
                path_sum_row[j, r] = sum_row[r]
            for c in range(columns):
                path_current_column[j, c] = current_column[c]
                path_regret_column[j, c] = regret_column[c]
                path_sum_column[j, c] = sum_column[c]
            path_value[j] = value
    return value_sum, last


# ---------------------------------------------------------------------------------------------
# Checks at the edge
# ---------------------------------------------------------------------------------------------

def _checked_payoffs(payoffs: object) -> np.ndarray:
    """[R, C] float payoffs; ValueError if not a finite 2-D table of at least 2 x 2."""
    try:
        table = np.array(payoffs, dtype=float)
    except (TypeError, ValueError):
        raise ValueError("The payoff matrix must be a table of numbers, one row per row action.") from None
    if table.ndim != 2 or table.shape[0] < 2 or table.shape[1] < 2:
        raise ValueError("The payoff matrix needs at least 2 rows and 2 columns of numbers.")
    if not np.all(np.isfinite(table)):
        r, c = np.argwhere(~np.isfinite(table))[0]
        raise ValueError(f"Payoff in row {r + 1}, column {c + 1} must be a finite number.")
    return np.ascontiguousarray(table)


def _checked_opponent(opponent: object, columns: int) -> np.ndarray:
    """[C] player 2's fixed strategy, or an empty array for self-play."""
    if opponent is None:
        return np.empty(0)
    try:
        strategy = np.array(opponent, dtype=float).reshape(-1)
    except (TypeError, ValueError):
        raise ValueError("The opponent's strategy must be a list of probabilities, one per column.") from None
    if strategy.shape[0] != columns:
        raise ValueError(f"The opponent's strategy needs {columns} probabilities, one per column; "
                         f"{strategy.shape[0]} were given.")
    if not np.all(np.isfinite(strategy)) or np.any(strategy < 0.0):
        raise ValueError("The opponent's probabilities must be finite numbers of 0 or more.")
    if not math.isclose(float(strategy.sum()), 1.0, abs_tol=1e-6):
        raise ValueError(f"The opponent's probabilities must sum to 1; they sum to {strategy.sum():.6g}.")
    normalized: np.ndarray = strategy / strategy.sum()
    return normalized


def _checked_whole(value: object, what: str, smallest: int) -> int:
    if not isinstance(value, numbers.Integral) or isinstance(value, bool) or value < smallest:
        raise ValueError(f"The {what} must be a whole number of {smallest} or more, not {value!r}.")
    return int(value)


def _normalized_rows(sums: np.ndarray) -> np.ndarray:
    rows: np.ndarray = sums / sums.sum(axis=-1, keepdims=True)
    return rows


# ---------------------------------------------------------------------------------------------
# Pure function API
# ---------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class RegretMatchingPath:
    """Every recorded iteration of one regret-matching run. T points, R rows, C columns.

    iterations        [T]     iteration numbers (1-based)
    current_row       [T, R]  player 1's strategy played in that iteration
    average_row       [T, R]  player 1's average strategy over iterations 1..t
    current_column    [T, C]  player 2's strategy (the fixed one against a fixed opponent)
    average_column    [T, C]  player 2's average strategy
    regret_row        [T, R]  player 1's cumulative regret after that iteration
    regret_column     [T, C]  player 2's cumulative regret (zero against a fixed opponent)
    value             [T]     player 1's payoff that iteration (sampled or expected)
    """

    iterations: np.ndarray
    current_row: np.ndarray
    average_row: np.ndarray
    current_column: np.ndarray
    average_column: np.ndarray
    regret_row: np.ndarray
    regret_column: np.ndarray
    value: np.ndarray

    @property
    def current(self) -> tuple[np.ndarray, np.ndarray]:
        """(player 1 [T, R], player 2 [T, C]) strategies played."""
        return self.current_row, self.current_column

    @property
    def average(self) -> tuple[np.ndarray, np.ndarray]:
        """(player 1 [T, R], player 2 [T, C]) average strategies."""
        return self.average_row, self.average_column


def regret_matching_path(payoffs: object, iterations: int, opponent: object = None, sampled: bool = False, seed: int = 0,
                         updates: str = UpdateScheme.SIMULTANEOUS, every: int = 1,
                         start_regret: tuple[ArrayLike, ArrayLike] | None = None) -> RegretMatchingPath:
    """Run regret matching on a payoff matrix and return the strategies of every `every`-th iteration.

    `payoffs` [R, C] are player 1's. `opponent` is player 2's fixed strategy [C] (e.g.
    `TUTORIAL_OPPONENT` in rock-paper-scissors), or None for self-play. `sampled=True` updates
    regrets from one sampled pair of actions per iteration, as the tutorial trainer does; False uses the
    expected payoff against the opponent's mixed strategy. `updates` "alternating" lets
    player 2 answer player 1's updated strategy (self-play only); simultaneous is the default here, as in the tutorial trainer this path follows. `start_regret` is
    (player 1 [R], player 2 [C]) cumulative regrets to start from instead of zero: expected-value
    self-play started at an equilibrium (uniform, in rock-paper-scissors) never moves.

    >>> path = regret_matching_path([[0, -1, 1], [1, 0, -1], [-1, 1, 0]], 3)
    >>> path.average_row[-1].round(3).tolist()
    [0.333, 0.333, 0.333]
    """
    table = _checked_payoffs(payoffs)
    fixed = _checked_opponent(opponent, table.shape[1])
    iterations = _checked_whole(iterations, "number of iterations", 1)
    every = _checked_whole(every, "recording interval", 1)
    seed = _checked_whole(seed, "seed", 0)
    alternating = check_updates(updates) == UpdateScheme.ALTERNATING
    points = iterations // every
    if points > MAX_PATH_POINTS:
        raise ValueError(f"That records {points} iterations; keep iterations / every at most "
                         f"{MAX_PATH_POINTS} by raising `every`.")
    rows, columns = table.shape
    row_arrays = [np.zeros((points, rows)) for _ in range(3)]
    column_arrays = [np.zeros((points, columns)) for _ in range(3)]
    value = np.zeros(points)
    rng = np.random.Generator(np.random.PCG64(seed))
    regret_row, regret_column = np.zeros(rows), np.zeros(columns)
    if start_regret is not None:
        try:
            regret_row = np.array(start_regret[0], dtype=float).reshape(rows)
            regret_column = np.array(start_regret[1], dtype=float).reshape(columns)
        except (TypeError, ValueError, IndexError):
            raise ValueError(f"The starting regrets must be {rows} numbers for player 1 and {columns} "
                             "for player 2.") from None
        if not (np.all(np.isfinite(regret_row)) and np.all(np.isfinite(regret_column))):
            raise ValueError("The starting regrets must be finite numbers.")
    matrix_regret_matching_kernel(
        table, regret_row, regret_column, np.zeros(rows), np.zeros(columns), fixed,
        bool(sampled), alternating, iterations, rng, np.zeros(rows), np.zeros(columns), every, 0,
        row_arrays[0], column_arrays[0], row_arrays[1], column_arrays[1], row_arrays[2], column_arrays[2],
        value)
    arrays = dict(
        iterations=np.arange(1, points + 1, dtype=np.int64) * every,
        current_row=row_arrays[0], average_row=_normalized_rows(row_arrays[2]),
        current_column=column_arrays[0], average_column=_normalized_rows(column_arrays[2]),
        regret_row=row_arrays[1], regret_column=column_arrays[1], value=value)
    for a in arrays.values():
        a.setflags(write=False)
    return RegretMatchingPath(**arrays)


# ---------------------------------------------------------------------------------------------
# Solver over a matrix GameTree
# ---------------------------------------------------------------------------------------------

def matrix_payoffs(tree: GameTree) -> np.ndarray:
    """[R, C] player 1's payoffs of a matrix-game tree; ValueError for any other game."""
    root = 0
    is_matrix = (tree.num_infosets == 2 and tree.actor[root] == 0
                 and not np.any(tree.actor == Player.CHANCE) and int(tree.depth.max()) == 2)
    if not is_matrix:
        raise ValueError(f"Regret matching runs on matrix games such as 'rps'; "
                         f"{tree.game.title} needs one of the CFR algorithms.")
    rows = int(tree.num_children[root])
    columns = int(tree.num_children[int(tree.first_child[root])])
    table = np.empty((rows, columns))
    for r in range(rows):
        node = int(tree.first_child[root]) + r
        for c in range(columns):
            leaf = int(tree.first_child[node]) + c
            assert int(tree.actor[leaf]) == Player.TERMINAL
            table[r, c] = tree.payoff[leaf]
    return table


class MatrixRegretMatching(Solver):
    """Regret matching over a matrix GameTree (Hart and Mas-Colell 2000).

    Player 1 (rows) and player 2 (columns) each have one information set. Keywords that
    `cfrviz.solve` may forward:
      updates    "simultaneous" (both answer the same strategies, as the tutorial trainer does) or
                 "alternating" (player 2 answers player 1's updated strategy); self-play only
      seed       whole number; the Generator that samples actions
      opponent   None for self-play (default), or player 2's fixed strategy, one probability
                 per column, e.g. `TUTORIAL_OPPONENT` = (0.4, 0.3, 0.3) for rock-paper-scissors
      sampled    True (default, as the tutorial trainer): regrets from one sampled pair of actions per
                 iteration; False: from the expected payoff against the mixed strategy
    `last_value` is player 1's payoff of the last play (sampled) or of the profile
    (expected); `nodes_touched` counts 3 histories per sampled play (two plays per
    alternating self-play iteration), the whole tree per player's expected update.
    """

    algorithm = Algorithm.REGRET_MATCHING

    def __init__(self, tree: GameTree, *, updates: str = DEFAULT_UPDATES, seed: int = 0,
                 opponent: object = None, sampled: bool = True) -> None:
        self.payoffs = matrix_payoffs(tree)
        super().__init__(tree, updates=updates, seed=_checked_whole(seed, "seed", 0))
        rows, columns = self.payoffs.shape
        self.opponent = _checked_opponent(opponent, columns)
        self.sampled = bool(sampled)
        self.rng = np.random.Generator(np.random.PCG64(self.seed))
        self._row = int(tree.infoset[0])
        self._column = int(tree.infoset[int(tree.first_child[0])])
        self._empty_path = (np.zeros((0, rows)), np.zeros((0, columns)))
        learners = 1 if self.opponent.size else 2
        if self.sampled:
            plays = 2 if learners == 2 and self.updates == UpdateScheme.ALTERNATING else 1
            self._nodes_per_iteration = 3 * plays
        else:
            self._nodes_per_iteration = learners * tree.num_nodes

    def next_strategy(self) -> np.ndarray:
        """[I, A] the strategy the next iteration will play (player 2's fixed one, if given)."""
        strategy = super().next_strategy()
        if self.opponent.size:
            strategy[self._column, :self.opponent.size] = self.opponent
        return strategy

    def iterate(self, n: int = 1) -> None:
        """Run n more iterations in one compiled call."""
        n = _checked_whole(n, "number of iterations", 0)
        if n == 0:
            return
        rows, columns = self.payoffs.shape
        regret_row = self.cumulative_regret[self._row, :rows]
        regret_column = self.cumulative_regret[self._column, :columns]
        sum_row = self.strategy_sum[self._row, :rows]
        sum_column = self.strategy_sum[self._column, :columns]
        current_row = np.zeros(rows)
        current_column = np.zeros(columns)
        no_rows, no_columns = self._empty_path
        value_sum, last = matrix_regret_matching_kernel(
            self.payoffs, regret_row, regret_column, sum_row, sum_column, self.opponent,
            self.sampled, self.updates == UpdateScheme.ALTERNATING, n, self.rng, current_row, current_column,
            0, 0, no_rows, no_columns, no_rows, no_columns, no_rows, no_columns, np.zeros(0))
        self.current_strategy[self._row, :rows] = current_row
        self.current_strategy[self._column, :columns] = current_column
        self.iterations += n
        self.value_sum += float(value_sum)
        self.last_value = float(last)
        self.nodes_touched += n * self._nodes_per_iteration
