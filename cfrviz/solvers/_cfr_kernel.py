"""Compiled full-traversal CFR over the flat GameTree arrays.

One iteration is a forward pass (node ids ascending: reach probabilities, since a
parent always precedes its children) and a backward pass (ids descending: values,
then regrets). No recursion, no Python objects, no string keys. `run_iterations`
runs many iterations in one call and writes snapshots itself, so a whole solve
can stay inside compiled code.

Values are player 1's throughout; player 2's regret uses their negation.

Predictive variants (PCFR+, PDCFR+) keep this iteration's instantaneous regret r^t apart
from the cumulative regret, because the next strategy is regret matching on R^t + r^t
(the last instantaneous regret is the prediction of the next one).

Vanilla CFR's alternating passes skip the subtrees below an opponent or chance edge of
probability exactly 0 (`_pruned_pass`), with the same bits: about half of Leduc's histories
in a pass once regret matching has zeroed actions.

Node and information-set indices are uint64 (`_kernel_tree.KernelTree`), and so are the loop
variables that index with them: numba checks every signed index for a negative value, and
mixing signed with unsigned gives a signed result, so constants are `ZERO`/`ONE`, never `0`/`1`.
error_model="numpy" drops the zero-division check before each division; every divisor here is
checked positive first, so the results are the same bits.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from cfrviz.solvers._kernel_tree import NONE, UNIFORM_CHANCE
from cfrviz.solvers._snapshot import write_snapshot as _write_snapshot
from cfrviz.util.vocabulary import AverageWeight, Player, RegretMode

# Player's actors as plain ints: numba freezes globals as compile-time constants, and the
# interpreted path compares a NumPy value with an int in ~20 ns, with an IntEnum member in ~4 us.
_CHANCE = int(Player.CHANCE)
_TERMINAL = int(Player.TERMINAL)
ZERO = np.uint64(0)
ONE = np.uint64(1)

# Regret transforms applied after a player's regrets were updated, and the average's weights
# (`RegretMode`, `AverageWeight`), as plain ints: numba freezes globals as compile-time constants.
REGRET_PLAIN = int(RegretMode.PLAIN)
REGRET_PLUS = int(RegretMode.PLUS)
REGRET_DISCOUNT = int(RegretMode.DISCOUNT)
REGRET_DISCOUNT_PLUS = int(RegretMode.DISCOUNT_PLUS)
AVERAGE_UNIFORM = int(AverageWeight.UNIFORM)
AVERAGE_LINEAR = int(AverageWeight.LINEAR)


@njit(cache=True, nogil=True, error_model="numpy", inline="always")
def _traverse(player, kind, infoset, chance_probability, first_child, num_children, strategy, regret,
              own_reach, reach, value, decision, decision_start):
    """One full pass; updates regrets of `player` (or of both when player < 0).

    Regrets are added to `regret` [I, A]: the cumulative regret, or for predictive variants
    the instantaneous-regret array (zeroed before the pass). reach [N, 3] (player 1,
    player 2, chance) and value [N] are scratch, except that value must already hold
    payoff at terminals. kind [N], decision [M] and decision_start [D + 1] (`KernelTree`):
    each node's actor with equally likely chance marked, the nodes that are not terminal,
    ascending, and where each depth begins among them.
    Adds each updated information set's own reach, summed over its histories, to own_reach
    [I]: the weight of its strategy in the average (Run.reach is the probability itself,
    derived later). Returns player 1's root value.

    Inlined into run_iterations: a call passes every array as its data pointer, shape and
    strides, and on Kuhn the four calls per iteration cost a fifth of it.
    """
    reach[0, 0] = 1.0
    reach[0, 1] = 1.0
    reach[0, 2] = 1.0
    # Parent by parent: one branch on the actor per parent rather than per child, and each
    # parent's children and strategy row are read contiguously.
    for j in range(decision.shape[0]):
        n = decision[j]
        who = kind[n]
        first = first_child[n]
        k = num_children[n]
        r0 = reach[n, 0]
        r1 = reach[n, 1]
        rc = reach[n, 2]
        if who >= _CHANCE:
            for a in range(k):
                c = first + a
                reach[c, 0] = r0
                reach[c, 1] = r1
                reach[c, 2] = rc * chance_probability[c]
        elif who == 0:
            i = infoset[n]
            for a in range(k):
                c = first + a
                reach[c, 0] = r0 * strategy[i, a]
                reach[c, 1] = r1
                reach[c, 2] = rc
        else:
            i = infoset[n]
            for a in range(k):
                c = first + a
                reach[c, 0] = r0
                reach[c, 1] = r1 * strategy[i, a]
                reach[c, 2] = rc
    # Depths last to first, but nodes ascending within a depth: an information set's regrets
    # then add up in deal order, as the recursive tutorial code does, so its printed numbers
    # come out digit for digit.
    level = np.uint64(decision_start.shape[0] - 1)
    while level > ZERO:
        level -= ONE
        for j in range(decision_start[level], decision_start[level + ONE]):
            n = decision[j]
            who = kind[n]
            c = first_child[n]
            k = num_children[n]
            v = 0.0
            if who == UNIFORM_CHANCE:   # equally likely outcomes: one division, as a plain average
                for a in range(k):
                    v += value[c + a]
                value[n] = v / k
                continue
            if who == _CHANCE:
                for a in range(k):
                    v += chance_probability[c + a] * value[c + a]
                value[n] = v
                continue
            i = infoset[n]
            for a in range(k):
                v += strategy[i, a] * value[c + a]
            value[n] = v
            if player >= 0 and who != player:
                continue
            # Counterfactual reach: the opponent's and chance's part (Zinkevich et al. 2007).
            if who == 0:
                counterfactual = reach[n, 1] * reach[n, 2]
                own_reach[i] += reach[n, 0]
                for a in range(k):
                    regret[i, a] += counterfactual * (value[c + a] - v)
            else:
                counterfactual = reach[n, 0] * reach[n, 2]
                own_reach[i] += reach[n, 1]
                for a in range(k):
                    regret[i, a] += counterfactual * (v - value[c + a])
    return value[0]


@njit(cache=True, nogil=True, error_model="numpy")
def _pruned_pass(player, kind, infoset, chance_probability, first_child, num_children, strategy, regret,
                 own_reach, reach, value, levels, live, live_start, infoset_player, own_parent, own_action,
                 histories, sequence_reach):
    """`_traverse` for one player (player >= 0) over the nodes their counterfactual reach can reach.

    A node below an edge of probability exactly 0 taken by the opponent or chance has
    counterfactual reach exactly 0: every regret update below it is 0 * x, and its value enters
    its parent's sum times that exact 0. Such subtrees are skipped in both passes (their values
    stay as they were, finite). The forward pass lists the live nodes that are not terminal,
    depth by depth, in live [N] (ids ascending within a depth, as `decision`) and live_start
    [D + 1]; the backward pass walks that list. Same bits as `_traverse` when a sum that
    skips can hold no -0.0 (see `run_iterations`).

    Own reach does not depend on the opponent, and with perfect recall every history of an
    information set has the same one, a product of the player's own probabilities along their
    sequence: sequence_reach [I] computes it set by set, parents first (own_parent [I], NONE at
    a player's first sets, and own_action [I]), with the path's multiplications in the path's
    order, and own_reach [I] adds it once per history (histories [I]), as `_traverse` would.
    """
    reach[0, 0] = 1.0
    reach[0, 1] = 1.0
    reach[0, 2] = 1.0
    live[0] = ZERO
    live_start[0] = ZERO
    live_start[1] = ONE
    count = ONE
    for level in range(levels - ONE):
        for j in range(live_start[level], live_start[level + ONE]):
            n = live[j]
            who = kind[n]
            first = first_child[n]
            k = num_children[n]
            r0 = reach[n, 0]
            r1 = reach[n, 1]
            rc = reach[n, 2]
            # The child is listed unless it is terminal or its edge cuts the player's counterfactual
            # reach; written always and counted only then, so no branch depends on it.
            if who >= _CHANCE:
                for a in range(k):
                    c = first + a
                    p = chance_probability[c]
                    reach[c, 0] = r0
                    reach[c, 1] = r1
                    reach[c, 2] = rc * p
                    live[count] = c
                    count += np.uint64((kind[c] != _TERMINAL) & (p != 0.0))
            elif who == player:
                i = infoset[n]
                for a in range(k):
                    c = first + a
                    s = strategy[i, a]
                    if who == 0:
                        reach[c, 0] = r0 * s
                        reach[c, 1] = r1
                    else:
                        reach[c, 0] = r0
                        reach[c, 1] = r1 * s
                    reach[c, 2] = rc
                    live[count] = c
                    count += np.uint64(kind[c] != _TERMINAL)
            elif who == 0:
                i = infoset[n]
                for a in range(k):
                    c = first + a
                    s = strategy[i, a]
                    reach[c, 0] = r0 * s
                    reach[c, 1] = r1
                    reach[c, 2] = rc
                    live[count] = c
                    count += np.uint64((kind[c] != _TERMINAL) & (s != 0.0))
            else:
                i = infoset[n]
                for a in range(k):
                    c = first + a
                    s = strategy[i, a]
                    reach[c, 0] = r0
                    reach[c, 1] = r1 * s
                    reach[c, 2] = rc
                    live[count] = c
                    count += np.uint64((kind[c] != _TERMINAL) & (s != 0.0))
        live_start[level + np.uint64(2)] = count
    # The backward pass is _traverse's, written out again: as an inlined helper taking the arrays
    # it ran five times slower (reference counting of every array at every node).
    level = levels
    while level > ZERO:
        level -= ONE
        for j in range(live_start[level], live_start[level + ONE]):
            n = live[j]
            who = kind[n]
            c = first_child[n]
            k = num_children[n]
            v = 0.0
            if who == UNIFORM_CHANCE:
                for a in range(k):
                    v += value[c + a]
                value[n] = v / k
                continue
            if who == _CHANCE:
                for a in range(k):
                    v += chance_probability[c + a] * value[c + a]
                value[n] = v
                continue
            i = infoset[n]
            for a in range(k):
                v += strategy[i, a] * value[c + a]
            value[n] = v
            if who != player:
                continue
            if who == 0:
                counterfactual = reach[n, 1] * reach[n, 2]
                for a in range(k):
                    regret[i, a] += counterfactual * (value[c + a] - v)
            else:
                counterfactual = reach[n, 0] * reach[n, 2]
                for a in range(k):
                    regret[i, a] += counterfactual * (v - value[c + a])
    for i in range(infoset_player.shape[0]):
        if infoset_player[i] != player:
            continue
        above = own_parent[i]
        x = 1.0 if above == NONE else sequence_reach[above] * strategy[above, own_action[i]]
        sequence_reach[i] = x
        total = 0.0
        for _ in range(histories[i]):
            total += x
        own_reach[i] = total
    return value[0]


@njit(cache=True, nogil=True, error_model="numpy", inline="always")
def _finish_player(player, t, infoset_player, num_actions, regret, instant, predictive, strategy_sum,
                   strategy, played, own_reach, regret_mode, alpha, beta, offset, average_mode, gamma):
    """After a pass: add to the strategy sum, transform regrets and pick the next strategy (inlined, as `_traverse`).

    average_mode 0: weight 1 (Zinkevich et al. 2007); 1: weight t (CFR+, OpenSpiel's
    linear averaging); 2: weight t^gamma (DCFR, Brown & Sandholm 2019).
    predictive: the pass wrote this iteration's regret r into `instant`; fold it into the
    cumulative regret here and play regret matching on [R + r]^+ next.
    Discount factors are t^alpha / (t^alpha + offset); offset is 1 in the papers.
    """
    if average_mode == AVERAGE_UNIFORM:
        weight = 1.0
    elif average_mode == AVERAGE_LINEAR:
        weight = float(t)
    else:
        weight = float(t) ** gamma
    if regret_mode == REGRET_DISCOUNT or regret_mode == REGRET_DISCOUNT_PLUS:
        positive_scale = float(t) ** alpha / (float(t) ** alpha + offset)
        negative_scale = float(t) ** beta / (float(t) ** beta + offset)
    else:
        positive_scale = 1.0
        negative_scale = 1.0
    for i in range(np.uint64(infoset_player.shape[0])):
        if player >= 0 and infoset_player[i] != player:
            continue
        k = num_actions[i]
        reach_weight = weight * own_reach[i]
        for a in range(k):
            played[i, a] = strategy[i, a]
            strategy_sum[i, a] += reach_weight * strategy[i, a]
            if predictive:
                regret[i, a] += instant[i, a]
            if regret_mode == REGRET_PLUS:
                if regret[i, a] < 0.0:
                    regret[i, a] = 0.0
            elif regret_mode == REGRET_DISCOUNT:
                if regret[i, a] >= 0.0:
                    regret[i, a] *= positive_scale
                else:
                    regret[i, a] *= negative_scale
            elif regret_mode == REGRET_DISCOUNT_PLUS:
                regret[i, a] = regret[i, a] * positive_scale if regret[i, a] > 0.0 else 0.0
        # The next strategy: regret matching (Hart and Mas-Colell 2000) on R, or for the predictive
        # variants on R + r (Farina, Kroer and Sandholm 2021); uniform when nothing is positive.
        # Written out here: a helper taking the arrays costs two reference-count updates per
        # array per call, and per information set that was a fifth of an iteration.
        total = 0.0
        for a in range(k):
            x = regret[i, a] + instant[i, a] if predictive else regret[i, a]
            if x > 0.0:
                total += x
        if total > 0.0:
            for a in range(k):
                x = regret[i, a] + instant[i, a] if predictive else regret[i, a]
                strategy[i, a] = x / total if x > 0.0 else 0.0
        else:
            for a in range(k):
                strategy[i, a] = 1.0 / k


@njit(cache=True, nogil=True, error_model="numpy")
def run_iterations(parent, actor, infoset, chance_probability, payoff, first_child, num_children,
                   action_index, infoset_player, num_actions, kind, decision, decision_start,
                   own_parent, own_action, histories, prunable,
                   regret, instant, strategy_sum, strategy, played, own_reach, reach, value,
                   t0, n, alternating, regret_mode, predictive, alpha, beta, offset, average_mode, gamma,
                   value_sum, nodes_touched,
                   schedule, s0, out_regret, out_current, out_average,
                   out_value, out_expected, out_nodes):
    """Run iterations t0+1 .. t0+n; write a snapshot at every iteration listed in schedule[s0:].

    The tree's arrays, then kind [N], decision [M] and decision_start [D + 1]
    (`_kernel_tree.KernelTree`: the passes walk the M nodes that are not terminal, depth by depth),
    own_parent, own_action and histories [I], and prunable: whether vanilla CFR's alternating
    passes may skip what a zero-probability edge cuts off (`_pruned_pass`; the same bits).

    regret, strategy_sum, played [I, A]; strategy [I, A] is the next strategy to play;
    instant [I, A] each player's instantaneous regret of their last pass (predictive
    variants only; untouched otherwise); own_reach [I], reach [N, 3] and value [N] are
    scratch. Returns
    (last_value, value_sum, nodes_touched, next snapshot index).
    """
    n_nodes = parent.shape[0]
    # Terminal values never change: write them once here, not in every pass. Elsewhere a finite
    # number, since a pruned child's value (left as it was) enters its parent's sum times 0.
    for h in range(n_nodes):
        value[h] = payoff[h] if actor[h] == _TERMINAL else 0.0
    # Skipping an update of 0 * x leaves the same bits unless the sum holds -0.0 (x + -0.0 is x
    # for every other x; a sum that starts at +0.0 never becomes -0.0, as a round-to-nearest sum
    # is -0.0 only when both terms are). Cumulative regret starts at +0.0 and is only added to,
    # or clipped to +0.0 (CFR+, DCFR+); predictive variants add to an instantaneous regret zeroed
    # to +0.0 before each pass. DCFR's discount can underflow a negative regret to -0.0, after
    # which 0 * x gives +0.0 or -0.0 by the sign of x, so DCFR and linear CFR could not be pruned.
    # Pruning pays where many actions have probability exactly 0: vanilla CFR, whose regret
    # matching zeroes about half of them on Leduc (CFR+ and its kin zero fewer, and measured no
    # faster), with alternating updates (simultaneous ones need a node only one player can skip).
    prune = prunable and alternating and regret_mode == REGRET_PLAIN and not predictive
    levels = np.uint64(decision_start.shape[0] - 1)
    # Every child is written before it is counted, so the list needs room past the last one counted.
    live = np.empty(n_nodes, dtype=np.uint64)
    live_start = np.empty(decision_start.shape[0], dtype=np.uint64)
    sequence_reach = np.empty(infoset_player.shape[0])
    last_value = 0.0
    s = s0
    # Chosen once, outside the loop: a choice between arrays inside it costs reference counting
    # on every array of the call.
    pass_regret = instant if predictive else regret
    for t in range(t0 + 1, t0 + n + 1):
        for i in range(own_reach.shape[0]):
            own_reach[i] = 0.0
        # Alternating: one pass per player. Simultaneous: one pass as player -1, updating both
        # players' regrets, as Neller and Lanctot's tutorial code does. A loop variable rather
        # than a literal -1 keeps numba from compiling _traverse and _finish_player a second time for Literal[int](-1).
        for player in range(0 if alternating else -1, 2 if alternating else 0):
            if predictive:
                for i in range(infoset_player.shape[0]):
                    if player < 0 or infoset_player[i] == player:
                        for a in range(instant.shape[1]):
                            instant[i, a] = 0.0
            if prune:
                root = _pruned_pass(player, kind, infoset, chance_probability, first_child, num_children,
                                    strategy, pass_regret, own_reach, reach, value, levels, live, live_start,
                                    infoset_player, own_parent, own_action, histories, sequence_reach)
            else:
                root = _traverse(player, kind, infoset, chance_probability, first_child, num_children, strategy,
                                 pass_regret, own_reach, reach, value, decision, decision_start)
            if player <= 0:
                last_value = root
            _finish_player(player, t, infoset_player, num_actions, regret, instant, predictive,
                           strategy_sum, strategy, played, own_reach, regret_mode, alpha, beta,
                           offset, average_mode, gamma)
            nodes_touched += n_nodes
        value_sum += last_value
        if s < schedule.shape[0] and schedule[s] == t:
            _write_snapshot(s, t, num_actions, regret, strategy_sum, played,
                            last_value, value_sum, nodes_touched, out_regret, out_current,
                            out_average, out_value, out_expected, out_nodes)
            s += 1
    return last_value, value_sum, nodes_touched, s


def empty_outputs(num_infosets: int, max_actions: int) -> tuple[np.ndarray, ...]:
    """Zero-length snapshot arrays for calls that record nothing."""
    return (np.zeros((0, num_infosets, max_actions)), np.zeros((0, num_infosets, max_actions)),
            np.zeros((0, num_infosets, max_actions)), np.zeros(0), np.zeros(0), np.zeros(0, dtype=np.int64))
