"""Numba kernels for the Monte Carlo CFR family over the flat GameTree arrays.

Every kernel runs a whole batch of iterations in one compiled call. Randomness comes
from the caller's `numpy.random.Generator`, passed straight into the kernel (numba
draws from its bit generator), so a seed fixes the run however it is split into batches.

Values are player 1's (the tree's `payoff`); a player-2 node flips the sign when it
turns them into regrets. Node ids are breadth first, so a pre-order visit list read
backwards always meets children before their parent.

Per-node work arrays, shape [N] (and [N, A] for `sigma`), are scratch: each traversal
writes the nodes it visits before reading them. The strategy played is only written on
recorded iterations (snapshots and the last of a batch), which keeps the
per-iteration cost to the histories a traversal touches. Recorded iterations redo the
current and average strategy only for information sets whose regret or strategy sum changed
since (flags `stale_regret`, `stale_sum`): an external-sampling iteration on Leduc changes
about 10 of 288, and redoing all of them was about half the cost of a snapshot.

Node ids, information sets, actions and stack positions are uint64 (see `_kernel_tree`): numba
checks a signed index for a negative value at every access, and a signed operand makes the result
signed, so constants are `ZERO`/`ONE`. The stacks count their items rather than pointing at
the top one, so nothing goes below zero.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from cfrviz.solvers._snapshot import write_snapshot_cached
from cfrviz.util.vocabulary import Player

# Player's actors as plain ints: numba freezes globals as compile-time constants, and the
# interpreted path compares a NumPy value with an int in ~20 ns, with an IntEnum member in ~4 us.
_CHANCE = int(Player.CHANCE)
_TERMINAL = int(Player.TERMINAL)
ZERO = np.uint64(0)
ONE = np.uint64(1)


@njit(cache=True, nogil=True, error_model="numpy", inline="always")
def _regret_matching_into(cumulative_regret, infoset, k, out, row):
    """out[row, :k] = positive regret normalised, uniform if none is positive (Hart and Mas-Colell 2000).

    A row index rather than a row view: a view is a new array, and numba counts references to it
    at every node."""
    total = 0.0
    for a in range(k):
        r = cumulative_regret[infoset, a]
        r = r if r > 0.0 else 0.0
        out[row, a] = r
        total += r
    if total > 0.0:
        for a in range(k):
            out[row, a] /= total
    else:
        for a in range(k):
            out[row, a] = 1.0 / k


@njit(cache=True, nogil=True, error_model="numpy", inline="always")
def _sample_index(rng, probabilities, row, k):
    """An index in [0, k) drawn from probabilities[row, :k]; round-off falls on the last positive one."""
    u = rng.random()
    acc = 0.0
    last = ZERO
    for a in range(k):
        p = probabilities[row, a]
        if p > 0.0:
            last = np.uint64(a)     # a is uint64 already; this tells mypy, which reads range() as int
            acc += p
            if u < acc:
                return a
    return last


@njit(cache=True, nogil=True, error_model="numpy", inline="always")
def _chance_child(u, chance_probability, first, k):
    """The child of a chance node (children first .. first + k - 1) that the uniform number u picks:
    the first whose cumulative probability passes u; round-off falls on the last positive one."""
    acc = 0.0
    last = first
    for c in range(first, first + k):
        p = chance_probability[c]
        if p > 0.0:
            last = c
            acc += p
            if u < acc:
                return c
    return last


@njit(cache=True, nogil=True, error_model="numpy", inline="always")
def _sample_chance(rng, chance_probability, first, k):
    return _chance_child(rng.random(), chance_probability, first, k)


@njit(cache=True, nogil=True, error_model="numpy")
def _refresh_current(cumulative_regret, num_actions, current_strategy, stale_regret):
    for i in range(np.uint64(current_strategy.shape[0])):
        if not stale_regret[i]:
            continue
        stale_regret[i] = 0
        k = num_actions[i]
        _regret_matching_into(cumulative_regret, i, k, current_strategy, i)
        for a in range(k, np.uint64(current_strategy.shape[1])):
            current_strategy[i, a] = 0.0


@njit(cache=True, nogil=True, error_model="numpy")
def _snapshot_due(t, schedule, s):
    """Whether iteration t is the next one to record, schedule[s]. Kept free of loops and of
    other arrays: numba then drops its reference counting, which a call per iteration would pay."""
    return s < schedule.shape[0] and schedule[s] == t


@njit(cache=True, nogil=True, error_model="numpy")
def _recorded_scratch(num_infosets, width):
    """Stale flags (all set: a call may start from any state) and the cached average."""
    return np.ones(num_infosets, np.uint8), np.ones(num_infosets, np.uint8), np.zeros((num_infosets, width))


@njit(cache=True, nogil=True, error_model="numpy")
def _chance_levels(first_child, num_children, actor):
    """[N] uint64: how many chance nodes lie above each node, and the largest such count at a chance node.

    Node ids are breadth first (a parent precedes its children), so one pass in id order suffices."""
    size = np.uint64(actor.shape[0])
    level = np.zeros(size, np.uint64)
    deepest = ZERO
    for h in range(size):
        below = level[h] + ONE if actor[h] == _CHANCE else level[h]
        if actor[h] == _CHANCE and level[h] > deepest:
            deepest = level[h]
        first = first_child[h]
        for c in range(first, first + num_children[h]):
            level[c] = below
    return level, deepest


@njit(cache=True, nogil=True, error_model="numpy")
def _chance_sampled_traversal(actor, infoset, first_child, num_children, chance_probability, payoff,
                              num_actions, cumulative_regret, strategy_sum,
                              stale_regret, stale_sum, update_player, deal, board, rng, stack, order, sampled, reach,
                              value, sigma, chance_level, level_draw, level_drawn):
    """One chance-sampled CFR traversal (Zinkevich et al. 2007; Lanctot et al. 2009); returns (root value, nodes).

    Every chance node the traversal reaches picks one child, and every decision node is walked
    full width. A chance node with j chance nodes above it (its level, `chance_level` [N]) picks
    with the uniform number drawn for level j, drawn when the traversal first meets that level.
    No history passes two chance nodes of one level, so along every history the choices are
    independent and a history is sampled with its chance probability, as Lanctot et al.'s
    estimator needs; nodes of one level on different betting lines share the number, so Leduc's
    public card is one card on every line of a deal (one chance outcome per traversal). The root's
    child is forced to `deal` when it is >= 0, and every level-1 node's to child `board` when it is
    >= 0 (Leduc's public card). update_player is 0, 1, or 2 for both (simultaneous updates, as the
    seed's worked example does). Regrets are weighted by the opponent's reach only: chance is
    sampled, so its probability drops out of the estimate.
    """
    size = ONE          # nodes on the stack
    count = ZERO        # nodes visited
    stack[0] = ZERO
    reach[0, 0] = 1.0
    reach[0, 1] = 1.0
    for level in range(np.uint64(level_drawn.shape[0])):
        level_drawn[level] = 0
    while size > ZERO:
        size -= ONE
        h = stack[size]
        order[count] = h
        count += ONE
        who = actor[h]
        if who == _TERMINAL:
            continue
        first = first_child[h]
        k = num_children[h]
        if who == _CHANCE:
            level = chance_level[h]
            if h == ZERO and deal >= 0:
                c = first + np.uint64(deal)
            elif level == ONE and board >= 0 and np.uint64(board) < k:
                c = first + np.uint64(board)
            else:
                if not level_drawn[level]:
                    level_draw[level] = rng.random()
                    level_drawn[level] = 1
                c = _chance_child(level_draw[level], chance_probability, first, k)
            sampled[h] = c
            reach[c, 0] = reach[h, 0]
            reach[c, 1] = reach[h, 1]
            stack[size] = c
            size += ONE
            continue
        _regret_matching_into(cumulative_regret, infoset[h], k, sigma, h)
        for a in range(k):
            c = first + a
            reach[c, 0] = reach[h, 0]
            reach[c, 1] = reach[h, 1]
            reach[c, who] *= sigma[h, a]
            stack[size] = c
            size += ONE
    j = count
    while j > ZERO:
        j -= ONE
        h = order[j]
        who = actor[h]
        if who == _TERMINAL:
            value[h] = payoff[h]
            continue
        if who == _CHANCE:
            value[h] = value[sampled[h]]
            continue
        first = first_child[h]
        k = num_children[h]
        v = 0.0
        for a in range(k):
            v += sigma[h, a] * value[first + a]
        value[h] = v
        if update_player == 2 or update_player == who:
            i = infoset[h]
            sign = 1.0 if who == 0 else -1.0
            opponent_reach = reach[h, ONE - who]
            mine = reach[h, who]
            for a in range(k):
                cumulative_regret[i, a] += sign * (value[first + a] - v) * opponent_reach
                strategy_sum[i, a] += mine * sigma[h, a]
            stale_regret[i] = 1
            stale_sum[i] = 1
    return value[0], count


@njit(cache=True, nogil=True, error_model="numpy")
def _traversal_scratch(size, width):
    """Per-call work arrays of a sampled traversal over `size` nodes: the explicit stack, the
    visit order, which child each chance or opponent node sampled, the two reaches [N, 2],
    node values and the strategy at each node [N, A]."""
    return (np.empty(size, np.uint64), np.empty(size, np.uint64), np.zeros(size, np.uint64),
            np.empty((size, 2)), np.empty(size), np.empty((size, width)))


@njit(cache=True, nogil=True, error_model="numpy")
def chance_sampling_kernel(actor, infoset, first_child, num_children, chance_probability, payoff,
                           num_actions, cumulative_regret, strategy_sum, current_strategy,
                           simultaneous, deal, board, rng, t0, n, value_sum, touched, schedule, s, out_regret, out_current, out_average,
                           out_value, out_expected, out_nodes):
    """Chance-sampled iterations: one traversal for both players, or one per player.

    Iterations t0 + 1 .. t0 + n; a snapshot is written at each iteration listed in
    schedule[s:] (outputs [T, I, A] and [T], as the runner's `advance` expects).
    value_sum and touched carry the running totals in. Returns
    (last value, value_sum, nodes touched, next snapshot index).
    """
    width = cumulative_regret.shape[1]
    stack, order, sampled, reach, value, sigma = _traversal_scratch(actor.shape[0], width)
    stale_regret, stale_sum, average = _recorded_scratch(num_actions.shape[0], width)
    chance_level, deepest = _chance_levels(first_child, num_children, actor)
    level_draw = np.empty(deepest + ONE)        # the uniform number of each chance level, this traversal
    level_drawn = np.zeros(deepest + ONE, np.uint8)
    last = 0.0
    for t in range(t0 + 1, t0 + n + 1):
        if t == t0 + n or _snapshot_due(t, schedule, s):
            # A recorded iteration: the strategy it plays goes to current_strategy.
            _refresh_current(cumulative_regret, num_actions, current_strategy, stale_regret)
        # Update player 2 (both at once), or 0 then 1. A loop variable, not a literal, so that
        # numba compiles the traversal once rather than once per constant.
        v = 0.0
        for update_player in range(2 if simultaneous else 0, 3 if simultaneous else 2):
            root, c = _chance_sampled_traversal(actor, infoset, first_child, num_children, chance_probability,
                                                payoff, num_actions, cumulative_regret, strategy_sum,
                                                stale_regret, stale_sum, update_player, deal, board, rng, stack,
                                                order, sampled, reach, value, sigma, chance_level, level_draw,
                                                level_drawn)
            touched += c
            if update_player != 1:
                v = root
        value_sum += v
        last = v
        if _snapshot_due(t, schedule, s):
            write_snapshot_cached(s, t, num_actions, cumulative_regret, strategy_sum, current_strategy,
                                  last, value_sum, touched, average, stale_sum, out_regret, out_current,
                                  out_average, out_value, out_expected, out_nodes)
            s += 1
    return last, value_sum, touched, s


@njit(cache=True, nogil=True, error_model="numpy")
def _external_traversal(actor, infoset, first_child, num_children, chance_probability, payoff,
                        cumulative_regret, strategy_sum, stale_regret, stale_sum,
                        traverser, rng,
                        stack, order, sampled, reach, value, sigma):
    """One external-sampling traversal for `traverser` (Lanctot et al. 2009, section 3.2).

    Chance and the opponent are sampled, the traverser's actions all walked. The
    opponent's strategy is added to its strategy sum at each sampled node, unweighted:
    its reach and the sampling probability cancel ("simple", stochastically-weighted
    averaging, as OpenSpiel's ExternalSamplingSolver does by default).
    """
    size = ONE          # nodes on the stack
    count = ZERO        # nodes visited
    stack[0] = ZERO
    reach[0, 0] = 1.0
    reach[0, 1] = 1.0
    while size > ZERO:
        size -= ONE
        h = stack[size]
        order[count] = h
        count += ONE
        who = actor[h]
        if who == _TERMINAL:
            continue
        first = first_child[h]
        k = num_children[h]
        if who == _CHANCE:
            c = _sample_chance(rng, chance_probability, first, k)
            sampled[h] = c
            reach[c, 0] = reach[h, 0]
            reach[c, 1] = reach[h, 1]
            stack[size] = c
            size += ONE
            continue
        i = infoset[h]
        _regret_matching_into(cumulative_regret, i, k, sigma, h)
        if who == traverser:
            for a in range(k):
                c = first + a
                reach[c, 0] = reach[h, 0]
                reach[c, 1] = reach[h, 1]
                reach[c, who] *= sigma[h, a]
                stack[size] = c
                size += ONE
        else:
            for a in range(k):
                strategy_sum[i, a] += sigma[h, a]
            stale_sum[i] = 1
            c = first + _sample_index(rng, sigma, h, k)
            sampled[h] = c
            reach[c, 0] = reach[h, 0]
            reach[c, 1] = reach[h, 1]
            reach[c, who] *= sigma[h, c - first]
            stack[size] = c
            size += ONE
    j = count
    while j > ZERO:
        j -= ONE
        h = order[j]
        who = actor[h]
        if who == _TERMINAL:
            value[h] = payoff[h]
        elif who == _CHANCE or who != traverser:
            value[h] = value[sampled[h]]
        else:
            first = first_child[h]
            k = num_children[h]
            v = 0.0
            for a in range(k):
                v += sigma[h, a] * value[first + a]
            value[h] = v
            i = infoset[h]
            sign = 1.0 if who == 0 else -1.0
            for a in range(k):
                cumulative_regret[i, a] += sign * (value[first + a] - v)
            stale_regret[i] = 1
    return value[0], count


@njit(cache=True, nogil=True, error_model="numpy")
def external_sampling_kernel(actor, infoset, first_child, num_children, chance_probability, payoff,
                             num_actions, cumulative_regret, strategy_sum, current_strategy,
                             rng, t0, n, value_sum, touched, schedule, s, out_regret, out_current, out_average,
                           out_value, out_expected, out_nodes):
    """External-sampling iterations, one traversal per player each.

    Iterations t0 + 1 .. t0 + n; a snapshot is written at each iteration listed in
    schedule[s:] (outputs [T, I, A] and [T], as the runner's `advance` expects).
    value_sum and touched carry the running totals in. Returns
    (last value, value_sum, nodes touched, next snapshot index).
    """
    width = cumulative_regret.shape[1]
    stack, order, sampled, reach, value, sigma = _traversal_scratch(actor.shape[0], width)
    stale_regret, stale_sum, average = _recorded_scratch(num_actions.shape[0], width)
    last = 0.0
    for t in range(t0 + 1, t0 + n + 1):
        if t == t0 + n or _snapshot_due(t, schedule, s):
            # A recorded iteration: the strategy it plays goes to current_strategy.
            _refresh_current(cumulative_regret, num_actions, current_strategy, stale_regret)
        v = 0.0
        for traverser in range(2):      # a loop variable: one compiled traversal, not one per literal
            root, c = _external_traversal(actor, infoset, first_child, num_children, chance_probability, payoff,
                                          cumulative_regret, strategy_sum, stale_regret,
                                          stale_sum, traverser, rng,
                                          stack, order, sampled, reach, value, sigma)
            touched += c
            if traverser == 0:
                v = root
        value_sum += v
        last = v
        if _snapshot_due(t, schedule, s):
            write_snapshot_cached(s, t, num_actions, cumulative_regret, strategy_sum, current_strategy,
                                  last, value_sum, touched, average, stale_sum, out_regret, out_current,
                                  out_average, out_value, out_expected, out_nodes)
            s += 1
    return last, value_sum, touched, s


@njit(cache=True, nogil=True, error_model="numpy")
def _outcome_episode(actor, infoset, first_child, num_children, chance_probability, payoff,
                     cumulative_regret, strategy_sum, stale_regret, stale_sum,
                     update_player, exploration,
                     rng, path, chosen, my_reach, opponent_reach, sample_reach, sigma, behaviour):
    """One outcome-sampling episode for `update_player` (Lanctot et al. 2009, section 3.1).

    The update player samples from exploration * uniform + (1 - exploration) * strategy, the
    opponent from its strategy, chance from its probabilities (which cancel in every ratio, so
    they are left out of both reaches). Regrets and the strategy sum are importance weighted
    by 1 / sample reach, as in OpenSpiel's OutcomeSamplingSolver with a zero baseline.
    Returns (the update player's value estimate at the root, path length).
    """
    h = ZERO
    depth = ZERO
    mine = 1.0
    theirs = 1.0
    behave = 1.0
    while actor[h] != _TERMINAL:
        who = actor[h]
        first = first_child[h]
        k = num_children[h]
        path[depth] = h
        my_reach[depth] = mine
        opponent_reach[depth] = theirs
        sample_reach[depth] = behave
        if who == _CHANCE:
            c = _sample_chance(rng, chance_probability, first, k)
        else:
            i = infoset[h]
            _regret_matching_into(cumulative_regret, i, k, sigma, depth)
            if who == update_player:
                for a in range(k):
                    behaviour[depth, a] = exploration / k + (1.0 - exploration) * sigma[depth, a]
            else:
                for a in range(k):
                    behaviour[depth, a] = sigma[depth, a]
            a = _sample_index(rng, behaviour, depth, k)
            c = first + a
            if who == update_player:
                mine *= sigma[depth, a]
            else:
                theirs *= sigma[depth, a]
            behave *= behaviour[depth, a]
        chosen[depth] = c - first
        depth += ONE
        h = c
    u = payoff[h] if update_player == 0 else -payoff[h]
    length = depth + ONE
    d = depth
    while d > ZERO:
        d -= ONE
        h = path[d]
        who = actor[h]
        if who == _CHANCE:
            continue
        a = chosen[d]
        k = num_children[h]
        # Child values: u / q(a) for the sampled action, 0 (the zero baseline) for the rest.
        child = u / behaviour[d, a]
        estimate = sigma[d, a] * child
        if who == update_player:
            i = infoset[h]
            weight = opponent_reach[d] / sample_reach[d]
            cf_value = estimate * weight
            for b in range(k):
                cf_action = child * weight if b == a else 0.0
                cumulative_regret[i, b] += cf_action - cf_value
                strategy_sum[i, b] += my_reach[d] * sigma[d, b] / sample_reach[d]
            stale_regret[i] = 1
            stale_sum[i] = 1
        u = estimate
    return u, length


@njit(cache=True, nogil=True, error_model="numpy")
def outcome_sampling_kernel(actor, infoset, first_child, num_children, chance_probability, payoff,
                            num_actions, cumulative_regret, strategy_sum, current_strategy,
                            exploration, max_depth, rng, t0, n, value_sum, touched, schedule, s, out_regret, out_current, out_average,
                           out_value, out_expected, out_nodes):
    """Outcome-sampling iterations, one episode per player each.

    Iterations t0 + 1 .. t0 + n; a snapshot is written at each iteration listed in
    schedule[s:] (outputs [T, I, A] and [T], as the runner's `advance` expects).
    value_sum and touched carry the running totals in. Returns
    (last value, value_sum, nodes touched, next snapshot index).
    """
    width = cumulative_regret.shape[1]
    path = np.empty(max_depth + 1, np.uint64)
    chosen = np.empty(max_depth + 1, np.uint64)
    my_reach = np.empty(max_depth + 1)
    opponent_reach = np.empty(max_depth + 1)
    sample_reach = np.empty(max_depth + 1)
    sigma = np.empty((max_depth + 1, width))
    behaviour = np.empty((max_depth + 1, width))
    stale_regret, stale_sum, average = _recorded_scratch(num_actions.shape[0], width)
    last = 0.0
    for t in range(t0 + 1, t0 + n + 1):
        if t == t0 + n or _snapshot_due(t, schedule, s):
            # A recorded iteration: the strategy it plays goes to current_strategy.
            _refresh_current(cumulative_regret, num_actions, current_strategy, stale_regret)
        v = 0.0
        for update_player in range(2):      # a loop variable: one compiled episode, not one per literal
            root, c = _outcome_episode(actor, infoset, first_child, num_children, chance_probability, payoff,
                                       cumulative_regret, strategy_sum, stale_regret,
                                       stale_sum, update_player, exploration, rng,
                                       path, chosen, my_reach, opponent_reach, sample_reach, sigma, behaviour)
            touched += c
            if update_player == 0:
                v = root
        value_sum += v
        last = v
        if _snapshot_due(t, schedule, s):
            write_snapshot_cached(s, t, num_actions, cumulative_regret, strategy_sum, current_strategy,
                                  last, value_sum, touched, average, stale_sum, out_regret, out_current,
                                  out_average, out_value, out_expected, out_nodes)
            s += 1
    return last, value_sum, touched, s
