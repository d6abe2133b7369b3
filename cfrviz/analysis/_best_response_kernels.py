"""The compiled walks behind `cfrviz.analysis.best_responses`: numba kernels over the packed tree.

Node ids are breadth first, so children follow their parent and every node of one information set
sits at one depth: a best response is one top-down pass (opponent-and-chance reach, `_reach_pass`)
and one bottom-up pass a depth level at a time (`_best_responses`; Johanson et al. 2011), and the
snapshot judges fuse both for many profiles (`_nash_conv_pairs`). The arrays they take are
`best_responses._Packed`'s; the public functions there check and pack what callers pass.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from cfrviz.util.vocabulary import Player

# Player's actors as plain ints: numba freezes globals as compile-time constants, and the
# interpreted path compares a NumPy value with an int in ~20 ns, with an IntEnum member in ~4 us.
_CHANCE = int(Player.CHANCE)
_TERMINAL = int(Player.TERMINAL)

# Rows of the packed integer node table handed to the kernels (one array = one dispatch cost).
_ACTOR, _INFOSET, _FIRST_CHILD, _NUM_CHILDREN = 0, 1, 2, 3
# Rows of the snapshot judge's table (`_Packed.judging`).
_INNER, _OPPONENT_SLOT, _PARENT_SLOT, _SET_ORDER = 0, 1, 2, 3
# The table is uint64 (see cfrviz.solvers._kernel_tree): numba checks every signed index for a
# negative value, and a signed operand makes a sum signed again, so kernels count with these.
_ZERO = np.uint64(0)
_ONE = np.uint64(1)
_TWO = np.uint64(2)


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
