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

import threading
import weakref
from dataclasses import dataclass

import numpy as np
from numba import njit

from cfrviz.analysis._batched_judging import _nash_conv_pairs_batched
from cfrviz.solvers._interpreted import pick
from cfrviz.solvers._kernel_tree import kernel_tree
from cfrviz.tree import GameTree
from cfrviz.util import idle
from cfrviz.util.vocabulary import Player

__all__ = ["BestResponse", "HistoryValues", "best_response", "expected_value", "exploitability",
           "exploitability_many", "exploitability_pairs", "history_values", "judge_snapshots", "nash_conv"]


# Rows of the packed integer node table handed to the kernels (one array = one dispatch cost).
_ACTOR, _INFOSET, _FIRST_CHILD, _NUM_CHILDREN = 0, 1, 2, 3
# Rows of the snapshot judge's table (`_Packed.judging`).
_INNER, _OPPONENT_SLOT, _PARENT_SLOT, _SET_ORDER = 0, 1, 2, 3
# The table is uint64 (see cfrviz.solvers._kernel_tree): numba checks every signed index for a
# negative value, and a signed operand makes a sum signed again, so kernels count with these.
_ZERO = np.uint64(0)
_ONE = np.uint64(1)
_TWO = np.uint64(2)
# Player's actors as plain ints: numba freezes globals as compile-time constants, and the
# interpreted path compares a NumPy value with an int in ~20 ns, with an IntEnum member in ~4 us.
_CHANCE = int(Player.CHANCE)
_TERMINAL = int(Player.TERMINAL)
#: Snapshots judged in one walk by `_nash_conv_pairs`: more amortise the tree's arrays over more
#: profiles; past 16 it measured no faster on Leduc.
_BLOCK = 16
#: Most bytes of `_nash_conv_pairs`' work arrays (32 per history and 48 per set and action, per snapshot
#: of a block); a tree too big for blocks of 4 is judged one snapshot at a time by `_nash_conv_pairs_unblocked`.
_BLOCK_BYTES = 16 * 2**20


# --------------------------------------------------------------------------------------------
# Kernels


@njit(cache=True, nogil=True, error_model="numpy")
def _reach_pass(nodes: np.ndarray, chance_probability: np.ndarray, strategy: np.ndarray, reach: np.ndarray) -> None:
    """Fill reach [N, 3]: player 1's, player 2's and chance's reach probability of every node."""
    n_nodes = np.uint64(nodes.shape[1])
    reach[0, 0] = 1.0
    reach[0, 1] = 1.0
    reach[0, 2] = 1.0
    for n in range(n_nodes):
        who = nodes[_ACTOR, n]
        if who == _TERMINAL:
            continue
        first = nodes[_FIRST_CHILD, n]
        for a in range(nodes[_NUM_CHILDREN, n]):
            c = first + a
            reach[c, 0] = reach[n, 0]
            reach[c, 1] = reach[n, 1]
            reach[c, 2] = reach[n, 2]
            if who == _CHANCE:
                reach[c, 2] *= chance_probability[c]
            else:
                reach[c, who] *= strategy[nodes[_INFOSET, n], a]


@njit(cache=True, nogil=True, error_model="numpy")
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
            if who == _TERMINAL:
                value[n, 0] = payoff[n]
                value[n, 1] = -payoff[n]
            elif who == _CHANCE:
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
            if who >= _CHANCE:
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


@njit(cache=True, nogil=True, error_model="numpy")
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


@njit(cache=True, nogil=True, error_model="numpy")
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


@njit(cache=True, nogil=True, error_model="numpy")
def _nash_conv_pairs_unblocked(nodes: np.ndarray, chance_probability: np.ndarray, chance_reach: np.ndarray, payoff: np.ndarray,
                     judging: np.ndarray, inner_levels: np.ndarray, first_profiles: np.ndarray, second_profiles: np.ndarray,
                     own_reach: np.ndarray) -> np.ndarray:
    """NashConv [T, 2] of first_profiles [T, I, A] (column 0) and second_profiles [T, I, A] (column 1),
    both judged in one bottom-up walk per t; fills own_reach [T, I] with each set's own reach under
    the second profile (its player's own action probabilities on the path, Zinkevich et al. 2007).

    Reach is kept per sequence, not per history: with perfect recall a player's reach at a history is
    the reach of their last (set, action) above it, so one pass over the I sets in `set_order` gives
    every player's reach ([2, I * A + 1], the last slot 1.0: no own action yet), and the walk reads the
    opponent's at each decision node through `judging[_OPPONENT_SLOT]` (`judging` [4, N]: see `_Packed`). Products run from the root in
    path order, as `_reach_pass` multiplies them, and each history's sums run as in `_best_responses`,
    so the results are the same bits. Terminal values do not depend on the profile: they are written
    once, and the walk visits only the chance and decision nodes (`judging[_INNER]`, by depth).
    """
    n_sets = first_profiles.shape[1]
    width = first_profiles.shape[2]
    none = np.uint64(n_sets * width)
    reach = np.empty((2, n_sets * width + 1))
    reach[0, none] = 1.0
    reach[1, none] = 1.0
    value = np.empty((nodes.shape[1], 4))
    for n in range(np.uint64(nodes.shape[1])):
        if nodes[_ACTOR, n] == _TERMINAL:
            value[n, 0] = payoff[n]
            value[n, 1] = -payoff[n]
            value[n, 2] = payoff[n]
            value[n, 3] = -payoff[n]
    action_value = np.empty((2, n_sets, width))
    best_action = np.empty((2, n_sets), dtype=np.int64)
    out = np.empty((first_profiles.shape[0], 2))
    for t in range(np.uint64(first_profiles.shape[0])):
        # Own reach of every set, then of every sequence, parents first.
        for j in range(np.uint64(n_sets)):
            i = judging[_SET_ORDER, j]
            parent = judging[_PARENT_SLOT, i]
            r0 = reach[0, parent]
            r1 = reach[1, parent]
            own_reach[t, i] = r1
            row = i * np.uint64(width)
            for a in range(np.uint64(width)):
                reach[0, row + a] = r0 * first_profiles[t, i, a]
                reach[1, row + a] = r1 * second_profiles[t, i, a]
                action_value[0, i, a] = 0.0
                action_value[1, i, a] = 0.0
            best_action[0, i] = -1
            best_action[1, i] = -1
        d = np.uint64(inner_levels.shape[0] - 1)
        while d > _ZERO:
            d -= _ONE
            lo = inner_levels[d]
            hi = inner_levels[d + _ONE]
            for m in range(lo, hi):
                n = judging[_INNER, m]
                who = nodes[_ACTOR, n]
                first = nodes[_FIRST_CHILD, n]
                k = nodes[_NUM_CHILDREN, n]
                if who == _CHANCE:
                    v0 = 0.0
                    v1 = 0.0
                    v2 = 0.0
                    v3 = 0.0
                    for a in range(k):
                        p = chance_probability[first + a]
                        v0 += p * value[first + a, 0]
                        v1 += p * value[first + a, 1]
                        v2 += p * value[first + a, 2]
                        v3 += p * value[first + a, 3]
                    value[n, 0] = v0
                    value[n, 1] = v1
                    value[n, 2] = v2
                    value[n, 3] = v3
                else:
                    i = nodes[_INFOSET, n]
                    other = _ONE - who
                    slot = judging[_OPPONENT_SLOT, n]
                    weight = reach[0, slot] * chance_reach[n]
                    weight2 = reach[1, slot] * chance_reach[n]
                    who2 = who + np.uint64(2)
                    other2 = other + np.uint64(2)
                    v = 0.0
                    v2 = 0.0
                    for a in range(k):
                        action_value[0, i, a] += weight * value[first + a, who]
                        v += first_profiles[t, i, a] * value[first + a, other]
                        action_value[1, i, a] += weight2 * value[first + a, who2]
                        v2 += second_profiles[t, i, a] * value[first + a, other2]
                    value[n, other] = v
                    value[n, other2] = v2
            # Every history of a set is on this level, so its action values are complete.
            for m in range(lo, hi):
                n = judging[_INNER, m]
                who = nodes[_ACTOR, n]
                if who == _CHANCE:
                    continue
                i = nodes[_INFOSET, n]
                for q in range(2):
                    if best_action[q, i] < 0:
                        best = _ZERO
                        for a in range(_ONE, nodes[_NUM_CHILDREN, n]):
                            if action_value[q, i, a] > action_value[q, i, best]:
                                best = np.uint64(a)
                        best_action[q, i] = best
                    column = who + np.uint64(2 * q)
                    value[n, column] = value[nodes[_FIRST_CHILD, n] + np.uint64(best_action[q, i]), column]
        out[t, 0] = value[0, 0] + value[0, 1]
        out[t, 1] = value[0, 2] + value[0, 3]
    return out


@njit(cache=True, nogil=True, error_model="numpy")
def _nash_conv_pairs(nodes: np.ndarray, chance_probability: np.ndarray, chance_reach: np.ndarray, payoff: np.ndarray,
                      judging: np.ndarray, inner_levels: np.ndarray, first_profiles: np.ndarray,
                      second_profiles: np.ndarray, own_reach: np.ndarray, block: int) -> np.ndarray:
    """`_nash_conv_pairs_unblocked` for `block` snapshots per walk: the same numbers, bit for bit, and own_reach.

    The 2 * block profiles of a walk (first profiles, then second) sit side by side in the innermost
    axis of every work array, flat: profile [I * A, Q], reach [I * A + 1, Q], value [N, 2, Q] (player
    1's and player 2's best-response value) and action_value [I * A, Q], Q = 2 * block. Each
    history's loop over Q then runs on contiguous numbers, which the compiler turns into vector
    instructions, and the tree's arrays are read once per block. Each profile still sees the
    operations of `_nash_conv_pairs_unblocked` in its order. The last block repeats the last snapshot.
    """
    # Q is a run-time count on purpose, and each loop over Q holds one statement: LLVM then vectorises
    # it with a run-time overlap check. A constant Q was unrolled to scalar code, and fused loops
    # measured slower.
    count = np.uint64(first_profiles.shape[0])
    n_sets = np.uint64(first_profiles.shape[1])
    width = np.uint64(first_profiles.shape[2])
    n_nodes = np.uint64(nodes.shape[1])
    b_count = np.uint64(min(block, first_profiles.shape[0]))
    nq = b_count * _TWO
    none = n_sets * width
    profile = np.empty(none * nq)
    reach = np.empty((none + _ONE) * nq)
    for q in range(nq):
        reach[none * nq + q] = 1.0
    value = np.empty(n_nodes * _TWO * nq)
    for n in range(n_nodes):
        if nodes[_ACTOR, n] == _TERMINAL:
            p = payoff[n]
            for q in range(nq):
                value[n * _TWO * nq + q] = p
            for q in range(nq):
                value[(n * _TWO + _ONE) * nq + q] = -p
    action_value = np.empty(none * nq)
    best_action = np.empty(n_sets * nq, dtype=np.uint64)
    chosen = np.zeros(n_sets, dtype=np.uint64)
    weight = np.empty(nq)
    acc = np.empty(nq)
    acc2 = np.empty(nq)
    best_value = np.empty(nq)
    out = np.empty((first_profiles.shape[0], 2))
    stamp = _ZERO
    t0 = _ZERO
    while t0 < count:
        stamp += _ONE
        last = count - _ONE
        for i in range(n_sets):
            for a in range(width):
                row = (i * width + a) * nq
                # Written in order, read from `block` rows at once (measured faster than the transpose).
                for b in range(b_count):
                    profile[row + b] = first_profiles[min(t0 + b, last), i, a]
                for b in range(b_count):
                    profile[row + b_count + b] = second_profiles[min(t0 + b, last), i, a]
        for j in range(n_sets):
            i = judging[_SET_ORDER, j]
            parent = judging[_PARENT_SLOT, i] * nq
            for b in range(b_count):
                if t0 + b < count:
                    own_reach[t0 + b, i] = reach[parent + b_count + b]
            for a in range(width):
                row = (i * width + a) * nq
                for q in range(nq):
                    reach[row + q] = reach[parent + q] * profile[row + q]
                for q in range(nq):
                    action_value[row + q] = 0.0
        d = np.uint64(inner_levels.shape[0] - 1)
        while d > _ZERO:
            d -= _ONE
            lo = inner_levels[d]
            hi = inner_levels[d + _ONE]
            for m in range(lo, hi):
                n = judging[_INNER, m]
                who = nodes[_ACTOR, n]
                first = nodes[_FIRST_CHILD, n]
                k = nodes[_NUM_CHILDREN, n]
                if who == _CHANCE:
                    for q in range(nq):
                        acc[q] = 0.0
                    for q in range(nq):
                        acc2[q] = 0.0
                    for a in range(k):
                        c = first + a
                        p = chance_probability[c]
                        v0 = c * _TWO * nq
                        v1 = v0 + nq
                        for q in range(nq):
                            acc[q] += p * value[v0 + q]
                        for q in range(nq):
                            acc2[q] += p * value[v1 + q]
                    v0 = n * _TWO * nq
                    for q in range(nq):
                        value[v0 + q] = acc[q]
                    for q in range(nq):
                        value[v0 + nq + q] = acc2[q]
                else:
                    i = nodes[_INFOSET, n]
                    other = _ONE - who
                    slot = judging[_OPPONENT_SLOT, n] * nq
                    cr = chance_reach[n]
                    for q in range(nq):
                        weight[q] = reach[slot + q] * cr
                    for q in range(nq):
                        acc[q] = 0.0
                    for a in range(k):
                        c = first + a
                        row = (i * width + a) * nq
                        mine = (c * _TWO + who) * nq
                        theirs = (c * _TWO + other) * nq
                        for q in range(nq):
                            action_value[row + q] += weight[q] * value[mine + q]
                        for q in range(nq):
                            acc[q] += profile[row + q] * value[theirs + q]
                    v0 = (n * _TWO + other) * nq
                    for q in range(nq):
                        value[v0 + q] = acc[q]
            for m in range(lo, hi):
                n = judging[_INNER, m]
                who = nodes[_ACTOR, n]
                if who == _CHANCE:
                    continue
                i = nodes[_INFOSET, n]
                first = nodes[_FIRST_CHILD, n]
                if chosen[i] != stamp:
                    chosen[i] = stamp
                    row = i * width * nq
                    for q in range(nq):
                        best_value[q] = action_value[row + q]
                    for q in range(nq):
                        best_action[i * nq + q] = _ZERO
                    for a in range(_ONE, nodes[_NUM_CHILDREN, n]):
                        row = (i * width + a) * nq
                        for q in range(nq):     # the first largest, as `_best_responses` picks it
                            x = action_value[row + q]
                            better = x > best_value[q]
                            best_value[q] = x if better else best_value[q]
                            best_action[i * nq + q] = a if better else best_action[i * nq + q]
                v0 = (n * _TWO + who) * nq
                for q in range(nq):
                    value[v0 + q] = value[((first + best_action[i * nq + q]) * _TWO + who) * nq + q]
        for b in range(b_count):
            if t0 + b < count:
                out[t0 + b, 0] = value[b] + value[nq + b]
                out[t0 + b, 1] = value[b_count + b] + value[nq + b_count + b]
        t0 += b_count
    return out


@njit(cache=True, nogil=True, error_model="numpy")
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
        if who == _TERMINAL:
            value[n] = payoff[n]
            continue
        first = nodes[_FIRST_CHILD, n]
        v = 0.0
        for a in range(nodes[_NUM_CHILDREN, n]):
            c = first + a
            if who == _CHANCE:
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
    chance_reach: np.ndarray        # [N] product of the chance probabilities from the root: no profile changes it
    # [4, N] uint64, for the snapshot judges (S = I * A, the slot of "no own action yet"):
    #   _INNER          the M chance and decision nodes, breadth first (entries M.. unused)
    #   _OPPONENT_SLOT  at a decision node, slot i * A + a of the opponent's last action above it, else S
    #   _PARENT_SLOT    of set i (entries I.. unused), slot of its player's last action before it, else S
    #   _SET_ORDER      the I sets, each after the set its player last acted at (entries I.. unused)
    judging: np.ndarray
    inner_levels: np.ndarray        # [D + 2] uint64: first index into judging[_INNER] of each depth, then M
    perfect_recall: bool            # every history of a set has the same own sequence (the snapshot judge needs it)


_PACKED: weakref.WeakKeyDictionary[GameTree, _Packed] = weakref.WeakKeyDictionary()
_PACKED_LOCK = threading.Lock()
# (tree, packed) of the latest call, replaced as one tuple: every session's thread reads it, and
# a tree paired with another tree's arrays would send the unchecked kernels out of bounds.
_last: tuple[GameTree, _Packed] | None = None


def _forget_last() -> None:
    global _last
    _last = None


idle.on_idle("last judged tree", _forget_last)   # it would keep its tree and arrays alive


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
    levels = np.searchsorted(tree.depth, np.arange(int(tree.depth[-1]) + 2))
    n_nodes, width = tree.num_nodes, tree.max_actions
    none = tree.num_infosets * width
    actor = tree.actor.astype(np.int64)
    chance_reach = np.ones(n_nodes)
    # last[p, n]: slot of player p's last action above node n; none before their first.
    last = np.full((2, n_nodes), none, dtype=np.int64)
    for d in range(1, len(levels) - 1):      # depth never decreases with the node id
        lo, hi = int(levels[d]), int(levels[d + 1])
        parent = tree.parent[lo:hi]
        who = actor[parent]
        # x * 1.0 is x: the same products, in path order, as `_reach_pass` forms them.
        chance_reach[lo:hi] = chance_reach[parent] * np.where(who == _CHANCE, tree.chance_probability[lo:hi], 1.0)
        last[:, lo:hi] = last[:, parent]
        for p in (0, 1):
            mine = who == p
            last[p, lo:hi][mine] = tree.infoset[parent[mine]] * width + tree.action_index[lo:hi][mine]
    decision = actor < _CHANCE
    inner = np.flatnonzero(actor != _TERMINAL)
    inner_levels = np.searchsorted(tree.depth[inner], np.arange(len(levels)))
    judging = np.full((4, n_nodes), none, dtype=np.int64)
    judging[_INNER, :len(inner)] = inner
    judging[_OPPONENT_SLOT, decision] = last[1 - actor[decision], np.flatnonzero(decision)]
    counts = np.diff(tree.infoset_node_start)
    members = tree.infoset_nodes
    owner = np.repeat(tree.infoset_player.astype(np.int64), counts)
    slots = last[owner, members]
    perfect_recall = True
    if tree.num_infosets:
        firsts = tree.infoset_node_start[:-1]
        judging[_PARENT_SLOT, :tree.num_infosets] = slots[firsts]
        perfect_recall = bool((slots == np.repeat(slots[firsts], counts)).all())
        # A set's earlier own set holds an ancestor of each of its histories, so it has a smaller first node.
        judging[_SET_ORDER, :tree.num_infosets] = np.argsort(np.minimum.reduceat(members, firsts), kind="stable")
    return _Packed(nodes, np.ascontiguousarray(tree.chance_probability, dtype=np.float64),
                   np.ascontiguousarray(tree.payoff, dtype=np.float64), levels.astype(np.uint64), chance_reach,
                   judging.astype(np.uint64), inner_levels.astype(np.uint64), perfect_recall)


def checked_strategies(tree: GameTree, strategies: np.ndarray, ndim: int) -> np.ndarray:
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
    array = checked_strategies(tree, strategies, 3)
    return 0.5 * _nash_conv_many(packed.nodes, packed.chance_probability, packed.payoff, packed.levels, array)


def exploitability_pairs(tree: GameTree, first: np.ndarray, second: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Exploitability [T] of each profile in first [T, I, A] and in second [T, I, A] (e.g. the average and
    the current strategy of every snapshot), in one compiled walk of the tree per t for both.

    The same numbers as two `exploitability_many` calls, bit for bit, for about half the node visits.
    """
    first, second = _checked_pairs(tree, first, second)
    if not _packed(tree).perfect_recall:    # the sequence-reach walk needs it; the per-history one does not
        return exploitability_many(tree, first), exploitability_many(tree, second)
    first_exploitability, second_exploitability, _ = _judged_pairs(tree, first, second)
    return first_exploitability, second_exploitability


def judge_snapshots(tree: GameTree, average: np.ndarray,
                    current: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """What a solve records about its snapshots, from one walk of the tree per snapshot: exploitability [T]
    of each average [T, I, A] and of each current strategy [T, I, A], and own reach [T, I] of each set
    under the current strategy (the same bits as `cfrviz.solvers.base.own_reach_probability`)."""
    average, current = _checked_pairs(tree, average, current)
    if not _packed(tree).perfect_recall:
        raise ValueError(f"{tree.game.title} has an information set reached by different own actions: the game "
                         "lacks perfect recall, which CFR needs.")
    return _judged_pairs(tree, average, current)


def _checked_pairs(tree: GameTree, first: np.ndarray, second: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    first = checked_strategies(tree, first, 3)
    second = checked_strategies(tree, second, 3)
    if first.shape != second.shape:
        raise ValueError(f"Expected two stacks of profiles of one shape; got {first.shape} and {second.shape}.")
    return first, second


def _judged_pairs(tree: GameTree, first: np.ndarray, second: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    packed = _packed(tree)
    own_reach = np.empty(first.shape[:2])
    arrays = (packed.nodes, packed.chance_probability, packed.chance_reach, packed.payoff, packed.judging,
              packed.inner_levels, first, second, own_reach)
    visits = 2 * first.shape[0] * tree.num_nodes
    # Per snapshot of a block: values [N, 2] of two profiles, and profile, reach and action value [I * A] of two.
    block = min(_BLOCK, first.shape[0], _BLOCK_BYTES // (32 * tree.num_nodes + 48 * tree.legal.size))
    # While the warm-up compiles the kernel, a small call runs in NumPy instead: the same numbers.
    if block >= 4:
        both = 0.5 * pick(_nash_conv_pairs, visits, _nash_conv_pairs_batched)(*arrays, block)
    else:
        both = 0.5 * pick(_nash_conv_pairs_unblocked, visits, _nash_conv_pairs_batched)(*arrays)
    return np.ascontiguousarray(both[:, 0]), np.ascontiguousarray(both[:, 1]), own_reach


def nash_conv(tree: GameTree, strategy: np.ndarray) -> float:
    """NashConv of a profile [I, A]: best-response value of player 1 plus that of player 2.

    Zero-sum, so the game value cancels (Johanson et al. 2011; OpenSpiel's `nash_conv`).
    """
    packed = _packed(tree)
    array = checked_strategies(tree, strategy, 2)
    return _nash_conv_one(packed.nodes, packed.chance_probability, packed.payoff, packed.levels, array)


def exploitability(tree: GameTree, strategy: np.ndarray) -> float:
    """Exploitability of a profile [I, A] in chips per hand: NashConv / 2, zero exactly at an equilibrium."""
    packed = _packed(tree)
    array = checked_strategies(tree, strategy, 2)
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
    array = checked_strategies(tree, strategy, 2)
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
    array = checked_strategies(tree, strategy, 2)
    reach = np.empty((tree.num_nodes, 3))
    value = np.empty(tree.num_nodes)
    action_value = np.empty((tree.num_nodes, tree.max_actions))
    _reach_pass(packed.nodes, packed.chance_probability, array, reach)
    _profile_values(packed.nodes, packed.chance_probability, packed.payoff, array, value, action_value, True)
    actor = tree.actor.astype(np.int64)
    decision = actor < _CHANCE
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
    array = checked_strategies(tree, strategy, 2)
    value = np.empty(tree.num_nodes)
    profile_values = pick(_profile_values, tree.num_nodes)    # interpreted while the warm-up compiles it
    profile_values(packed.nodes, packed.chance_probability, packed.payoff, array, value, np.empty((0, 0)), False)
    return float(value[0])
