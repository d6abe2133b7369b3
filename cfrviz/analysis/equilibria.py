"""Known equilibria and values: Kuhn poker's α-family (Kuhn 1950) and the exact equilibrium of a
zero-sum matrix game (support enumeration, Shapley and Snow 1950), and the distance of a strategy
to them. Strategies are `[I, A]` arrays on a compiled `GameTree`; best responses and
exploitability are in `cfrviz.analysis.best_responses`.
"""
from __future__ import annotations

import functools
from itertools import combinations

import numpy as np

from cfrviz.games import MatrixGame, kuhn, leduc
from cfrviz.tree import GameTree
from cfrviz.catalog import compile_game
from cfrviz.analysis.best_responses import checked_strategies

__all__ = ["ALPHA_MAX", "KUHN_VALUE", "LEDUC_VALUE", "closest_alpha", "distance_to_equilibrium", "kuhn_equilibrium",
           "matrix_equilibrium", "matrix_strategy"]


#: Player 1's values of 3-card Kuhn poker and Leduc poker, chips per hand (defined with their rules).
KUHN_VALUE = kuhn.VALUE
LEDUC_VALUE = leduc.VALUE


# --------------------------------------------------------------------------------------------
# Kuhn poker's equilibria (Kuhn 1950)

# Probability of the second action (bet or call) at each 3-card Kuhn information set:
# a constant, or (constant, slope) in α for player 1's three α-dependent sets.
_KUHN_SECOND_ACTION: dict[str, tuple[float, float]] = {
    "J": (0.0, 1.0), "Q": (0.0, 0.0), "K": (0.0, 3.0),
    "J kb": (0.0, 0.0), "Q kb": (1.0 / 3.0, 1.0), "K kb": (1.0, 0.0),
    "J k": (1.0 / 3.0, 0.0), "Q k": (0.0, 0.0), "K k": (1.0, 0.0),
    "J b": (0.0, 0.0), "Q b": (1.0 / 3.0, 0.0), "K b": (1.0, 0.0),
}
#: Largest α of Kuhn's equilibrium family.
ALPHA_MAX = 1.0 / 3.0


def _kuhn_tree(tree: GameTree | None) -> GameTree:
    tree = compile_game("kuhn") if tree is None else tree
    keys = {r.key for r in tree.infosets}
    if keys != set(_KUHN_SECOND_ACTION):
        raise ValueError("The α-family equilibria are known for 3-card Kuhn poker only.")
    return tree


def kuhn_equilibrium(alpha: float, tree: GameTree | None = None) -> np.ndarray:
    """[I, A] the Kuhn equilibrium with parameter α ∈ [0, 1/3] (player 1 bets J with α, K with 3α,
    calls with Q at α + 1/3; player 2's part is unique), on the 3-card Kuhn tree."""
    alpha = float(alpha)
    if not 0.0 <= alpha <= ALPHA_MAX + 1e-12:
        raise ValueError(f"α must lie between 0 and 1/3; {alpha} was given.")
    tree = _kuhn_tree(tree)
    strategy = np.zeros(tree.legal.shape)
    for i, record in enumerate(tree.infosets):
        constant, slope = _KUHN_SECOND_ACTION[record.key]
        second = min(constant + slope * alpha, 1.0)
        strategy[i, 0] = 1.0 - second
        strategy[i, 1] = second
    return strategy


def _alpha_deviation(strategy: np.ndarray, tree: GameTree, alpha: float) -> float:
    return float(np.max(np.abs(strategy[:, :2] - kuhn_equilibrium(alpha, tree))))


def closest_alpha(strategy: np.ndarray, tree: GameTree | None = None) -> float:
    """The α ∈ [0, 1/3] whose Kuhn equilibrium is nearest to `strategy` [I, A] in max abs deviation.

    The deviation is a maximum of terms linear in α, so it is convex and piecewise linear; its
    minimum lies at an end of [0, 1/3] or where two α-dependent terms cross, which are all tried.
    """
    tree = _kuhn_tree(tree)
    array = checked_strategies(tree, strategy, 2)
    second = {r.key: array[i, 1] for i, r in enumerate(tree.infosets)}
    # Each α-dependent term is |p - (c + s α)|: zero at (p - c) / s; two cross where
    # (p1 - c1 - s1 α) = ±(p2 - c2 - s2 α).
    terms = [(second[k], *_KUHN_SECOND_ACTION[k]) for k in ("J", "K", "Q kb")]
    candidates = [0.0, ALPHA_MAX] + [(p - c) / s for p, c, s in terms]
    for (p1, c1, s1), (p2, c2, s2) in combinations(terms, 2):
        for sign in (1.0, -1.0):
            slope = s1 - sign * s2
            if slope != 0.0:
                candidates.append(((p1 - c1) - sign * (p2 - c2)) / slope)
    candidates = [min(max(float(a), 0.0), ALPHA_MAX) for a in candidates]
    return float(min(candidates, key=lambda a: (_alpha_deviation(array, tree, a), a)))


def distance_to_equilibrium(strategy: np.ndarray, tree: GameTree | None = None) -> float:
    """Largest absolute difference of any action probability from the nearest α-family equilibrium.

    0 exactly for the Kuhn equilibria; 1 at most. Defined on 3-card Kuhn poker.
    """
    tree = _kuhn_tree(tree)
    array = checked_strategies(tree, strategy, 2)
    return _alpha_deviation(array, tree, closest_alpha(array, tree))


# --------------------------------------------------------------------------------------------
# Matrix games


def _payoff_matrix(payoffs: object) -> np.ndarray:
    if isinstance(payoffs, MatrixGame):
        payoffs = payoffs.payoffs
    try:
        matrix = np.asarray(payoffs, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError("The payoff matrix must be a list of rows of numbers.") from None
    if matrix.ndim != 2 or min(matrix.shape) < 1:
        raise ValueError("The payoff matrix must be a non-empty table of rows and columns.")
    if not np.all(np.isfinite(matrix)):
        raise ValueError("Every payoff in the matrix must be a finite number.")
    return matrix


def matrix_equilibrium(payoffs: object) -> tuple[np.ndarray, np.ndarray, float]:
    """An exact equilibrium (row strategy [m], column strategy [n], value) of a zero-sum matrix game.

    `payoffs` [m, n] are the row player's. Every extreme pair of optimal strategies solves the
    indifference equations on some square submatrix (Shapley and Snow 1950), so square supports
    are enumerated (all k x k submatrices for one k in one batched solve), and the first pair
    that passes the best-response check is returned. A 10 x 10 game takes a second or two at
    worst, once: answers are remembered per payoff matrix (a few dozen matrices).
    """
    matrix = _payoff_matrix(payoffs)
    row, column, value = _matrix_equilibrium_cached(matrix.shape, matrix.tobytes())
    return row.copy(), column.copy(), value


@functools.lru_cache(maxsize=32)
def _matrix_equilibrium_cached(shape: tuple[int, int], payoff_bytes: bytes) -> tuple[np.ndarray, np.ndarray, float]:
    matrix = np.frombuffer(payoff_bytes, dtype=np.float64).reshape(shape)
    # Solve the game scaled to payoffs in [-1, 1]: determinants of k x k supports multiply k
    # payoffs, which overflows for large ones; the strategies are the same and the value scales.
    scale = float(np.max(np.abs(matrix)))
    if scale == 0.0:
        uniform = (np.full(shape[0], 1.0 / shape[0]), np.full(shape[1], 1.0 / shape[1]))
        return uniform[0], uniform[1], 0.0
    with np.errstate(over="raise", invalid="raise", divide="raise"):
        try:
            row, column = _equilibrium_of_scaled(matrix / scale)
        except FloatingPointError:
            raise ValueError("No equilibrium was found; the payoff matrix is badly scaled.") from None
    row.setflags(write=False)
    column.setflags(write=False)
    return row, column, float(row @ matrix @ column)


#: Square supports solved per batch: bounds the memory of one equilibrium (10 x 10: 63,504 pairs of 5 x 5
#: supports would take about 100 MB at once; 4,096 pairs take a few MB).
_SUPPORT_BATCH = 4_096


def _equilibrium_of_scaled(matrix: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Support enumeration on a matrix whose largest payoff size is 1."""
    m, n = matrix.shape
    tolerance = 1e-9
    largest = min(m, n)
    # The largest supports first (few systems, and a fully mixed game ends there), then upward from 1.
    for k in [largest] + list(range(1, largest)):
        rows = np.array(list(combinations(range(m), k)), dtype=np.int64)      # [R, k]
        cols = np.array(list(combinations(range(n), k)), dtype=np.int64)      # [C, k]
        pairs = len(rows) * len(cols)
        rhs = np.zeros(k + 1)
        rhs[k] = 1.0
        for start in range(0, pairs, _SUPPORT_BATCH):
            pair = np.arange(start, min(start + _SUPPORT_BATCH, pairs))
            ri, ci = pair // len(cols), pair % len(cols)
            sub = matrix[rows[ri][:, :, None], cols[ci][:, None, :]]            # [B, k, k]
            # Bordered systems: sub^T x = v 1, 1^T x = 1 (row) and sub y = v 1, 1^T y = 1 (column).
            system = np.zeros((len(sub), 2, k + 1, k + 1))
            system[:, 0, :k, :k] = np.swapaxes(sub, 1, 2)
            system[:, 1, :k, :k] = sub
            system[:, :, :k, k] = -1.0
            system[:, :, k, :k] = 1.0
            det = np.linalg.det(system)                                          # [B, 2]
            ok = np.all(np.abs(det) > 1e-12, axis=1)
            if not np.any(ok):
                continue
            solved = np.linalg.solve(system[ok], np.broadcast_to(rhs, (int(ok.sum()), 2, k + 1))[..., None])[..., 0]
            for b, solution in zip(np.flatnonzero(ok), solved):
                x_sub, y_sub = solution[0, :k], solution[1, :k]
                if np.any(x_sub < -tolerance) or np.any(y_sub < -tolerance):
                    continue
                row = np.zeros(m)
                row[rows[ri[b]]] = np.clip(x_sub, 0.0, None)
                column = np.zeros(n)
                column[cols[ci[b]]] = np.clip(y_sub, 0.0, None)
                row /= row.sum()
                column /= column.sum()
                # Equilibrium: no column does better for player 2, no row better for player 1.
                value = float(row @ matrix @ column)
                if np.min(row @ matrix) >= value - tolerance and np.max(matrix @ column) <= value + tolerance:
                    return row, column
    raise ValueError("No equilibrium was found; the payoff matrix may be badly scaled.")


def matrix_strategy(tree: GameTree, row: np.ndarray, column: np.ndarray) -> np.ndarray:
    """[I, A] profile on a matrix-game tree: player 1's set plays `row`, player 2's plays `column`."""
    strategy = np.zeros(tree.legal.shape)
    for i, record in enumerate(tree.infosets):
        part = np.asarray(row if record.player == 0 else column, dtype=np.float64)
        if record.key not in ("player 1", "player 2") or len(part) != len(record.actions):
            raise ValueError(f"{tree.game.title} is not the matrix game these strategies belong to.")
        strategy[i, :len(part)] = part
    return strategy


def best_response_to(payoffs: np.ndarray, opponent: np.ndarray) -> np.ndarray:
    """[R] player 1's pure best response to a fixed column strategy (the first best row on ties):
    what regret matching against a fixed opponent heads for (paper against Neller and Lanctot's 0.4/0.3/0.3)."""
    values = np.asarray(payoffs) @ np.asarray(opponent)
    response = np.zeros(len(values))
    response[int(np.argmax(values))] = 1.0
    return response
