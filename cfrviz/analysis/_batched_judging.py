"""Judging snapshots without the compiler: the fused best-response walk in NumPy, batched over snapshots.

Used by `cfrviz.analysis.best_responses.exploitability_pairs` for small trees while the compiled
kernel `_nash_conv_pairs` is still being built (see `cfrviz.solvers._interpreted.pick`).
"""
from __future__ import annotations

import numpy as np

from cfrviz.games import CHANCE, TERMINAL


def _nash_conv_pairs_batched(nodes: np.ndarray, chance_probability: np.ndarray, payoff: np.ndarray,
                             levels: np.ndarray, first_profiles: np.ndarray, second_profiles: np.ndarray) -> np.ndarray:
    """`_nash_conv_pairs` in NumPy, for small trees while that kernel compiles: NashConv [T, 2].

    The same walk as `_reach_pass_pair` and `_best_responses_pair`, node by node in the same
    order, but each node's numbers are vectors over the T profiles ([T] per entry): every element
    sees the kernel's operations in the kernel's order, so the results are the same bits, and the
    interpreter's cost is per node, not per node and profile.
    """
    count = first_profiles.shape[0]
    n_nodes = nodes.shape[1]
    actor, infoset, first_child, num_children = (nodes[row].astype(np.int64) for row in range(4))
    # [T, I, A] -> [I, A, T]: a profile entry over all T is then one contiguous vector.
    profiles = (np.ascontiguousarray(first_profiles.transpose(1, 2, 0)),
                np.ascontiguousarray(second_profiles.transpose(1, 2, 0)))
    reach = np.empty((n_nodes, 6, count))
    reach[0] = 1.0
    for n in range(n_nodes):
        who = int(actor[n])
        if who == TERMINAL:
            continue
        i = int(infoset[n])
        for a in range(int(num_children[n])):
            c = int(first_child[n]) + a
            reach[c] = reach[n]
            if who == CHANCE:
                reach[c, 2] *= chance_probability[c]
                reach[c, 5] *= chance_probability[c]
            else:
                reach[c, who] *= profiles[0][i, a]
                reach[c, who + 3] *= profiles[1][i, a]
    value = np.empty((n_nodes, 4, count))
    action_value = np.zeros((2,) + first_profiles.shape[1:] + (count,))
    best_action = np.full((2, first_profiles.shape[1]), -1, dtype=np.int64)   # -1: not chosen yet
    chosen = np.zeros((2, first_profiles.shape[1], count), dtype=np.int64)
    for d in range(levels.shape[0] - 2, -1, -1):
        lo, hi = int(levels[d]), int(levels[d + 1])
        for n in range(lo, hi):
            who = int(actor[n])
            first = int(first_child[n])
            k = int(num_children[n])
            if who == TERMINAL:
                value[n, 0::2] = payoff[n]
                value[n, 1::2] = -payoff[n]
            elif who == CHANCE:
                expected = np.zeros((4, count))
                for a in range(k):
                    expected += chance_probability[first + a] * value[first + a]
                value[n] = expected
            else:
                i = int(infoset[n])
                other = 1 - who
                for q in range(2):
                    weight = reach[n, other + 3 * q] * reach[n, 2 + 3 * q]
                    v = np.zeros(count)
                    for a in range(k):
                        action_value[q, i, a] += weight * value[first + a, who + 2 * q]
                        v += profiles[q][i, a] * value[first + a, other + 2 * q]
                    value[n, other + 2 * q] = v
        for n in range(lo, hi):
            who = int(actor[n])
            if who >= CHANCE:
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
