"""Writing one snapshot from inside a compiled solver loop, shared by every kernel.

The outputs are the runner's preallocated arrays: [T, I, A] for regret, current and
average strategy and [T] for value, running mean and nodes touched. Own reach is not
written here: the runner reads it off the walk that judges the snapshots
(`cfrviz.analysis.best_responses.judge_snapshots`).
Indices are uint64, as in the kernels that call these (see `_kernel_tree`): no negative-index
checks.
"""
from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True, nogil=True, error_model="numpy", inline="always")
def _average_row(strategy_sum, i, k, out):
    """out[i, :k] = strategy_sum[i, :k] normalised, uniform where it sums to zero (as write_snapshot)."""
    total = 0.0
    for a in range(k):
        total += strategy_sum[i, a]
    for a in range(k):
        out[i, a] = strategy_sum[i, a] / total if total > 0.0 else 1.0 / k


@njit(cache=True, nogil=True, error_model="numpy")
def write_snapshot(s, t, num_actions, regret, strategy_sum, played, last_value,
                   value_sum, nodes_touched, out_regret, out_current, out_average,
                   out_value, out_expected, out_nodes):
    """Snapshot s after iteration t: regret, the strategy `played`, the normalised average
    (uniform where never reached), last value, running mean and nodes touched."""
    row = np.uint64(s)
    for i in range(np.uint64(num_actions.shape[0])):
        k = num_actions[i]
        total = 0.0
        for a in range(k):
            total += strategy_sum[i, a]
        for a in range(k):
            out_regret[row, i, a] = regret[i, a]
            out_current[row, i, a] = played[i, a]
            out_average[row, i, a] = strategy_sum[i, a] / total if total > 0.0 else 1.0 / k
    out_value[s] = last_value
    out_expected[s] = value_sum / t
    out_nodes[s] = nodes_touched


@njit(cache=True, nogil=True, error_model="numpy")
def write_snapshot_cached(s, t, num_actions, regret, strategy_sum, played, last_value,
                          value_sum, nodes_touched, average, stale, out_regret, out_current,
                          out_average, out_value, out_expected, out_nodes):
    """write_snapshot for kernels that touch few information sets per iteration: the
    normalised average is kept in `average` [I, A] and redone only where stale[i] is set
    (its strategy sum changed); an iteration changes a few sets, the snapshot holds them all."""
    row = np.uint64(s)
    for i in range(np.uint64(num_actions.shape[0])):
        k = num_actions[i]
        if stale[i]:
            _average_row(strategy_sum, i, k, average)
            stale[i] = 0
        for a in range(k):
            out_regret[row, i, a] = regret[i, a]
            out_current[row, i, a] = played[i, a]
            out_average[row, i, a] = average[i, a]
    out_value[s] = last_value
    out_expected[s] = value_sum / t
    out_nodes[s] = nodes_touched
