"""Judging a strategy: best response, exploitability, exact values and the known equilibria.

Everything here works on a compiled `GameTree` and `[I, A]` strategy arrays (a behaviour
strategy for both players at once, zero on illegal actions). The tree is walked as flat
arrays by numba kernels: node ids are breadth first, so children always follow their parent
and every node of one information set sits at one depth. A best response is then one
top-down pass (opponent-and-chance reach) and one bottom-up pass, one depth level at a time,
choosing at each information set the action with the largest reach-weighted value summed
over its histories (Johanson et al. 2011, "Accelerating best response calculation").
"""
from __future__ import annotations

import functools
import threading
import weakref
from dataclasses import dataclass
from itertools import combinations

import numpy as np
from numba import njit

from cfrviz.games import CHANCE, TERMINAL, MatrixGame, kuhn, leduc
from cfrviz.solvers._kernel_tree import kernel_tree
from cfrviz.tree import GameTree
from cfrviz.catalog import compile_game

__all__ = [
    "ALPHA_MAX", "KUHN_VALUE", "LEDUC_VALUE", "BestResponse", "HistoryValues", "best_response", "closest_alpha",
    "distance_to_equilibrium", "expected_value", "exploitability", "exploitability_many",
    "history_values", "kuhn_equilibrium", "matrix_equilibrium", "matrix_strategy", "nash_conv",
]

#: Player 1's values of 3-card Kuhn poker and Leduc poker, chips per hand (defined with their rules).
KUHN_VALUE = kuhn.VALUE
LEDUC_VALUE = leduc.VALUE

# Rows of the packed integer node table handed to the kernels (one array = one dispatch cost).
_ACTOR, _INFOSET, _FIRST_CHILD, _NUM_CHILDREN = 0, 1, 2, 3
# The table is uint64 (see cfrviz.solvers._kernel_tree): numba checks every signed index for a
# negative value, and a signed operand makes a sum signed again, so kernels count with these.
_ZERO = np.uint64(0)
_ONE = np.uint64(1)


# --------------------------------------------------------------------------------------------
# Kernels


@njit(cache=True, error_model="numpy")
def _reach_pass(nodes: np.ndarray, chance_probability: np.ndarray, strategy: np.ndarray, reach: np.ndarray) -> None:
    """Fill reach [N, 3]: player 1's, player 2's and chance's reach probability of every node."""
    n_nodes = np.uint64(nodes.shape[1])
    reach[0, 0] = 1.0
    reach[0, 1] = 1.0
    reach[0, 2] = 1.0
    for n in range(n_nodes):
        who = nodes[_ACTOR, n]
        if who == TERMINAL:
            continue
        first = nodes[_FIRST_CHILD, n]
        for a in range(nodes[_NUM_CHILDREN, n]):
            c = first + a
            reach[c, 0] = reach[n, 0]
            reach[c, 1] = reach[n, 1]
            reach[c, 2] = reach[n, 2]
            if who == CHANCE:
                reach[c, 2] *= chance_probability[c]
            else:
                reach[c, who] *= strategy[nodes[_INFOSET, n], a]


@njit(cache=True, error_model="numpy")
def _best_responses(nodes: np.ndarray, chance_probability: np.ndarray, payoff: np.ndarray, levels: np.ndarray,
                    strategy: np.ndarray, reach: np.ndarray, value: np.ndarray, action_value: np.ndarray,
                    best_action: np.ndarray) -> tuple[float, float]:
    """Both players' best-response values against `strategy`, in one bottom-up pass.

    `reach` [N, 3] must already hold the profile's reach probabilities. Fills `value` [N, 2]
    (column p: player p's value of each subtree when p best-responds below it and the other
    player follows `strategy`), `action_value` [I, A] (at each set, the sum over its histories
    of opponent-and-chance reach times its player's value after the action: the
    counterfactual value of each action) and `best_action` [I]. Each set belongs to one
    player, so both responses share these arrays. Returns player 1's and player 2's values.
    """
    action_value[:, :] = 0.0
    best_action[:] = -1
    d = np.uint64(levels.shape[0] - 1)
    while d > _ZERO:
        d -= _ONE
        lo = levels[d]
        hi = levels[d + _ONE]
        # Pass 1: values of terminals, chance and the responder's opponent; sum action values.
        for n in range(lo, hi):
            who = nodes[_ACTOR, n]
            first = nodes[_FIRST_CHILD, n]
            k = nodes[_NUM_CHILDREN, n]
            if who == TERMINAL:
                value[n, 0] = payoff[n]
                value[n, 1] = -payoff[n]
            elif who == CHANCE:
                v0 = 0.0
                v1 = 0.0
                for a in range(k):
                    v0 += chance_probability[first + a] * value[first + a, 0]
                    v1 += chance_probability[first + a] * value[first + a, 1]
                value[n, 0] = v0
                value[n, 1] = v1
            else:
                i = nodes[_INFOSET, n]
                other = _ONE - who
                weight = reach[n, other] * reach[n, 2]
                v = 0.0
                for a in range(k):
                    action_value[i, a] += weight * value[first + a, who]
                    v += strategy[i, a] * value[first + a, other]
                value[n, other] = v
        # Pass 2: every history of a set is on this level, so its action values are complete.
        for n in range(lo, hi):
            who = nodes[_ACTOR, n]
            if who >= CHANCE:
                continue
            i = nodes[_INFOSET, n]
            if best_action[i] < 0:
                best = _ZERO
                for a in range(_ONE, nodes[_NUM_CHILDREN, n]):
                    if action_value[i, a] > action_value[i, best]:
                        best = np.uint64(a)     # a is uint64 already; mypy reads range() as int
                best_action[i] = best
            value[n, who] = value[nodes[_FIRST_CHILD, n] + np.uint64(best_action[i]), who]
    return value[0, 0], value[0, 1]


@njit(cache=True, error_model="numpy")
def _nash_conv_one(nodes: np.ndarray, chance_probability: np.ndarray, payoff: np.ndarray, levels: np.ndarray,
                   strategy: np.ndarray) -> float:
    """NashConv of one profile [I, A]."""
    n_nodes = nodes.shape[1]
    reach = np.empty((n_nodes, 3))
    value = np.empty((n_nodes, 2))
    action_value = np.empty(strategy.shape)
    best_action = np.empty(strategy.shape[0], dtype=np.int64)
    _reach_pass(nodes, chance_probability, strategy, reach)
    first, second = _best_responses(nodes, chance_probability, payoff, levels, strategy, reach, value,
                                    action_value, best_action)
    return first + second


@njit(cache=True, error_model="numpy")
def _nash_conv_many(nodes: np.ndarray, chance_probability: np.ndarray, payoff: np.ndarray, levels: np.ndarray,
                    strategies: np.ndarray) -> np.ndarray:
    """NashConv [T] of every profile in strategies [T, I, A], reusing one set of work arrays."""
    n_nodes = nodes.shape[1]
    reach = np.empty((n_nodes, 3))
    value = np.empty((n_nodes, 2))
    action_value = np.empty(strategies.shape[1:])
    best_action = np.empty(strategies.shape[1], dtype=np.int64)
    out = np.empty(strategies.shape[0])
    for t in range(strategies.shape[0]):
        strategy = strategies[t]
        _reach_pass(nodes, chance_probability, strategy, reach)
        first, second = _best_responses(nodes, chance_probability, payoff, levels, strategy, reach, value,
                                        action_value, best_action)
        out[t] = first + second
    return out


@njit(cache=True, error_model="numpy")
def _profile_values(nodes: np.ndarray, chance_probability: np.ndarray, payoff: np.ndarray, strategy: np.ndarray,
                    value: np.ndarray, action_value: np.ndarray, with_actions: bool) -> None:
    """Player 1's value of every node under `strategy`, bottom up; action_value [N, A] gets the
    acting player's value of each child at decision nodes (zero elsewhere), unless `with_actions`
    is False (then it is not touched and may be empty: one number needs no [N, A] table)."""
    if with_actions:
        action_value[:, :] = 0.0
    n = np.uint64(nodes.shape[1])
    while n > _ZERO:
        n -= _ONE
        who = nodes[_ACTOR, n]
        if who == TERMINAL:
            value[n] = payoff[n]
            continue
        first = nodes[_FIRST_CHILD, n]
        v = 0.0
        for a in range(nodes[_NUM_CHILDREN, n]):
            c = first + a
            if who == CHANCE:
                v += chance_probability[c] * value[c]
            else:
                v += strategy[nodes[_INFOSET, n], a] * value[c]
                if with_actions:
                    action_value[n, a] = value[c] if who == 0 else -value[c]
        value[n] = v


# --------------------------------------------------------------------------------------------
# Packed tree arrays, built once per tree


@dataclass(frozen=True)
class _Packed:
    nodes: np.ndarray               # [4, N] uint64: actor, infoset (NONE if none), first_child, num_children
    chance_probability: np.ndarray  # [N]
    payoff: np.ndarray              # [N]
    levels: np.ndarray              # [D + 2] uint64: first node id of each depth, then N


_PACKED: weakref.WeakKeyDictionary[GameTree, _Packed] = weakref.WeakKeyDictionary()
_PACKED_LOCK = threading.Lock()
# (tree, packed) of the latest call, replaced as one tuple: every session's thread reads it, and
# a tree paired with another tree's arrays would send the unchecked kernels out of bounds.
_last: tuple[GameTree, _Packed] | None = None


def _packed(tree: GameTree) -> _Packed:
    global _last
    last = _last
    if last is not None and last[0] is tree:
        return last[1]
    if not isinstance(tree, GameTree):
        raise ValueError("Pass a compiled game tree (cfrviz.compile_game(...)), not "
                         f"{type(tree).__name__}.")
    with _PACKED_LOCK:
        packed = _PACKED.get(tree)
        if packed is None:
            packed = _pack(tree)
            _PACKED[tree] = packed
    _last = (tree, packed)
    return packed


def _pack(tree: GameTree) -> _Packed:
    # Private and never written after this; left writeable so the kernels keep one compiled signature.
    arrays = kernel_tree(tree)      # the solvers' unsigned copies, made once per tree
    nodes = np.ascontiguousarray(np.stack([arrays.actor.astype(np.uint64), arrays.infoset,
                                           arrays.first_child, arrays.num_children]))
    levels = np.searchsorted(tree.depth, np.arange(int(tree.depth[-1]) + 2)).astype(np.uint64)
    packed = _Packed(nodes, np.ascontiguousarray(tree.chance_probability, dtype=np.float64),
                     np.ascontiguousarray(tree.payoff, dtype=np.float64), levels)
    return packed


def _checked_strategies(tree: GameTree, strategies: np.ndarray, ndim: int) -> np.ndarray:
    if not (type(strategies) is np.ndarray and strategies.dtype == np.float64
            and strategies.flags.c_contiguous):
        strategies = np.ascontiguousarray(strategies, dtype=np.float64)
    shape = tree.legal.shape
    if strategies.ndim != ndim or strategies.shape[-2:] != shape:
        want = "[I, A]" if ndim == 2 else "[T, I, A]"
        raise ValueError(f"Expected a strategy array of shape {want} with I, A = {shape[0]}, {shape[1]} "
                         f"for {tree.game.title}; got {strategies.shape}.")
    return strategies


# --------------------------------------------------------------------------------------------
# Exploitability


def exploitability_many(tree: GameTree, strategies: np.ndarray) -> np.ndarray:
    """Exploitability [T] of each profile in strategies [T, I, A], chips per hand, in one compiled call.

    Exploitability = NashConv / 2: the mean of the two best-response values.
    """
    packed = _packed(tree)
    array = _checked_strategies(tree, strategies, 3)
    return 0.5 * _nash_conv_many(packed.nodes, packed.chance_probability, packed.payoff, packed.levels, array)


def nash_conv(tree: GameTree, strategy: np.ndarray) -> float:
    """NashConv of a profile [I, A]: best-response value of player 1 plus that of player 2.

    Zero-sum, so the game value cancels (Johanson et al. 2011; OpenSpiel's `nash_conv`).
    """
    packed = _packed(tree)
    array = _checked_strategies(tree, strategy, 2)
    return _nash_conv_one(packed.nodes, packed.chance_probability, packed.payoff, packed.levels, array)


def exploitability(tree: GameTree, strategy: np.ndarray) -> float:
    """Exploitability of a profile [I, A] in chips per hand: NashConv / 2, zero exactly at an equilibrium."""
    packed = _packed(tree)
    array = _checked_strategies(tree, strategy, 2)
    return 0.5 * _nash_conv_one(packed.nodes, packed.chance_probability, packed.payoff, packed.levels, array)


# --------------------------------------------------------------------------------------------
# Best response


@dataclass(frozen=True, eq=False)
class BestResponse:
    """A best response of `player` (0 or 1) against the other player's part of a profile.

    value            the best responder's expected value, chips per hand
    best_action      [I] action index chosen at each of the player's information sets; -1 at the
                     other player's sets
    action_names     [I] name of that action ("" at the other player's sets)
    action_value     [I, A] counterfactual value of each action at the player's sets: the sum over
                     the set's histories of opponent-and-chance reach times the player's value after
                     the action, best response played below; zero elsewhere and on illegal actions
    gain             [I] counterfactual value of the best action minus that of the profile's own mix
                     at the set (best response played below); zero at the other player's sets
    strategy         [I, A] the profile with the player's part replaced by the pure best response
    """

    player: int
    value: float
    best_action: np.ndarray
    action_names: tuple[str, ...]
    action_value: np.ndarray
    gain: np.ndarray
    strategy: np.ndarray


def best_response(tree: GameTree, strategy: np.ndarray, player: int) -> BestResponse:
    """The best response of `player` (0 = player 1, 1 = player 2) to the other player's part of `strategy` [I, A]."""
    if player not in (0, 1):
        raise ValueError(f"Player must be 0 (player 1) or 1 (player 2), not {player!r}.")
    packed = _packed(tree)
    array = _checked_strategies(tree, strategy, 2)
    reach = np.empty((tree.num_nodes, 3))
    value = np.empty((tree.num_nodes, 2))
    action_value = np.empty(tree.legal.shape)
    best = np.empty(tree.num_infosets, dtype=np.int64)
    _reach_pass(packed.nodes, packed.chance_probability, array, reach)
    roots = _best_responses(packed.nodes, packed.chance_probability, packed.payoff, packed.levels,
                            array, reach, value, action_value, best)
    root = roots[player]
    # The kernel answers for both players; keep the responder's sets only.
    others = tree.infoset_player != player
    best[others] = -1
    action_value[others] = 0.0
    rows = np.flatnonzero(~others)
    gain = np.zeros(tree.num_infosets)
    gain[rows] = action_value[rows, best[rows]] - (array[rows] * action_value[rows]).sum(axis=1)
    response = array.copy()
    response[rows] = 0.0
    response[rows, best[rows]] = 1.0
    names = tuple(tree.infosets[i].actions[best[i]] if best[i] >= 0 else "" for i in range(tree.num_infosets))
    for a in (best, action_value, gain, response):
        a.setflags(write=False)
    return BestResponse(player, float(root), best, names, action_value, gain, response)


# --------------------------------------------------------------------------------------------
# Values of a profile


@dataclass(frozen=True, eq=False)
class HistoryValues:
    """Per-history numbers of one profile (N histories, A = most legal actions).

    reach                       [N, 3] reach probability of player 1, player 2 and chance
    value                       [N] player 1's expected value of the subtree
    action_value                [N, A] at decision nodes, the acting player's expected value after
                                each action (the tutorials' "utility" of the action); zero elsewhere
    counterfactual_reach        [N] at decision nodes, the reach of the opponent times chance
    counterfactual_action_value [N, A] counterfactual_reach times action_value (Zinkevich et al. 2007)
    """

    reach: np.ndarray
    value: np.ndarray
    action_value: np.ndarray
    counterfactual_reach: np.ndarray
    counterfactual_action_value: np.ndarray


def history_values(tree: GameTree, strategy: np.ndarray) -> HistoryValues:
    """Reach probabilities, values and counterfactual action values of every history under `strategy` [I, A]."""
    packed = _packed(tree)
    array = _checked_strategies(tree, strategy, 2)
    reach = np.empty((tree.num_nodes, 3))
    value = np.empty(tree.num_nodes)
    action_value = np.empty((tree.num_nodes, tree.max_actions))
    _reach_pass(packed.nodes, packed.chance_probability, array, reach)
    _profile_values(packed.nodes, packed.chance_probability, packed.payoff, array, value, action_value, True)
    actor = tree.actor.astype(np.int64)
    decision = actor < CHANCE
    cf_reach = np.zeros(tree.num_nodes)
    opponent = np.where(decision, 1 - actor, 0)
    cf_reach[decision] = reach[decision, opponent[decision]] * reach[decision, 2]
    cf_value = cf_reach[:, None] * action_value
    for a in (reach, value, action_value, cf_reach, cf_value):
        a.setflags(write=False)
    return HistoryValues(reach, value, action_value, cf_reach, cf_value)


def expected_value(tree: GameTree, strategy: np.ndarray) -> float:
    """Exact expected value of the profile `strategy` [I, A] for player 1, chips per hand."""
    packed = _packed(tree)
    array = _checked_strategies(tree, strategy, 2)
    value = np.empty(tree.num_nodes)
    _profile_values(packed.nodes, packed.chance_probability, packed.payoff, array, value, np.empty((0, 0)), False)
    return float(value[0])


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
    array = _checked_strategies(tree, strategy, 2)
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
    array = _checked_strategies(tree, strategy, 2)
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
