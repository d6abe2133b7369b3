"""Judging snapshots without the compiler: the fused best-response walk in NumPy, batched over snapshots.

Used by `cfrviz.analysis.best_responses.exploitability_pairs` and `judge_snapshots` for small trees
while the compiled kernel `_nash_conv_pairs` is still being built (see `cfrviz.solvers._interpreted.pick`).
"""
from __future__ import annotations

import numpy as np

from cfrviz.util.vocabulary import Player

# Player's actors as plain ints: numba freezes globals as compile-time constants, and the
# interpreted path compares a NumPy value with an int in ~20 ns, with an IntEnum member in ~4 us.
_CHANCE = int(Player.CHANCE)
_TERMINAL = int(Player.TERMINAL)

# Rows of the packed tables (as in `cfrviz.analysis._best_response_kernels`).
_ACTOR, _INFOSET, _FIRST_CHILD, _NUM_CHILDREN = 0, 1, 2, 3
_INNER, _OPPONENT_SLOT, _PARENT_SLOT, _SET_ORDER = 0, 1, 2, 3


def _nash_conv_pairs_batched(nodes: np.ndarray, chance_probability: np.ndarray, chance_reach: np.ndarray,
                             payoff: np.ndarray, judging: np.ndarray, inner_levels: np.ndarray,
                             first_profiles: np.ndarray, second_profiles: np.ndarray,
                             own_reach: np.ndarray, block: int = 0) -> np.ndarray:
    """`_nash_conv_pairs` in NumPy, for small trees while that kernel compiles: NashConv [T, 2], and
    own_reach [T, I] of the second profiles filled in. `block` (`_nash_conv_blocks`' snapshots per walk)
    is accepted and unused: this walk takes all T at once.

    The same walk as the kernel, set by set and node by node in the same order, but each number is a
    vector over the T profiles ([T] per entry): every element sees the kernel's operations in the
    kernel's order, so the results are the same bits, and the interpreter's cost is per node, not per
    node and profile.
    """
    count, n_sets, width = first_profiles.shape
    n_nodes = nodes.shape[1]
    actor, infoset, first_child, num_children = (nodes[row].astype(np.int64) for row in range(4))
    table = judging.astype(np.int64)
    # [T, I, A] -> [I, A, T]: a profile entry over all T is then one contiguous vector.
    profiles = (np.ascontiguousarray(first_profiles.transpose(1, 2, 0)),
                np.ascontiguousarray(second_profiles.transpose(1, 2, 0)))
    none = n_sets * width
    reach = np.empty((2, none + 1, count))
    reach[:, none] = 1.0
    for j in range(n_sets):
        i = int(table[_SET_ORDER, j])
        parent = int(table[_PARENT_SLOT, i])
        own_reach[:, i] = reach[1, parent]
        for q in range(2):
            reach[q, i * width:(i + 1) * width] = reach[q, parent] * profiles[q][i]
    value = np.empty((n_nodes, 4, count))
    terminal = actor == _TERMINAL
    value[terminal, 0::2] = payoff[terminal, None, None]
    value[terminal, 1::2] = -payoff[terminal, None, None]
    action_value = np.zeros((2, n_sets, width, count))
    best_action = np.full((2, n_sets), -1, dtype=np.int64)   # -1: not chosen yet
    chosen = np.zeros((2, n_sets, count), dtype=np.int64)
    inner = table[_INNER]
    for d in range(inner_levels.shape[0] - 2, -1, -1):
        level = inner[int(inner_levels[d]):int(inner_levels[d + 1])]
        for n in level.tolist():
            who = int(actor[n])
            first = int(first_child[n])
            k = int(num_children[n])
            if who == _CHANCE:
                expected = np.zeros((4, count))
                for a in range(k):
                    expected += chance_probability[first + a] * value[first + a]
                value[n] = expected
            else:
                i = int(infoset[n])
                other = 1 - who
                slot = int(table[_OPPONENT_SLOT, n])
                for q in range(2):
                    weight = reach[q, slot] * chance_reach[n]
                    v = np.zeros(count)
                    for a in range(k):
                        action_value[q, i, a] += weight * value[first + a, who + 2 * q]
                        v += profiles[q][i, a] * value[first + a, other + 2 * q]
                    value[n, other + 2 * q] = v
        for n in level.tolist():
            who = int(actor[n])
            if who == _CHANCE:
                continue
            i = int(infoset[n])
            first = int(first_child[n])
            for q in range(2):
                if best_action[q, i] < 0:
                    # The first action with the largest value, as the kernel's strict comparison picks it.
                    best = np.zeros(count, dtype=np.int64)
                    best_value = action_value[q, i, 0].copy()
                    for a in range(1, int(num_children[n])):
                        better = action_value[q, i, a] > best_value
                        best[better] = a
                        best_value[better] = action_value[q, i, a][better]
                    chosen[q, i] = best
                    best_action[q, i] = 1
                column = who + 2 * q
                value[n, column] = value[first + chosen[q, i], column, np.arange(count)]
    out = np.empty((count, 2))
    out[:, 0] = value[0, 0] + value[0, 1]
    out[:, 1] = value[0, 2] + value[0, 3]
    return out
