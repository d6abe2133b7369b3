"""Writing one snapshot from inside a compiled solver loop, shared by every kernel.

The outputs are the runner's preallocated arrays: [T, I, A] for regret, current and
average strategy, [T, I] for own reach and [T] for value, running mean and nodes touched.
"""
from __future__ import annotations

from numba import njit


@njit(cache=True)
def write_snapshot(s, t, num_actions, regret, strategy_sum, played, own_reach, last_value,
                   value_sum, nodes_touched, out_regret, out_current, out_average, out_reach,
                   out_value, out_expected, out_nodes):
    """Snapshot s after iteration t: regret, the strategy `played`, the normalised average
    (uniform where never reached), own reach, last value, running mean and nodes touched."""
    for i in range(num_actions.shape[0]):
        k = num_actions[i]
        total = 0.0
        for a in range(k):
            total += strategy_sum[i, a]
        for a in range(k):
            out_regret[s, i, a] = regret[i, a]
            out_current[s, i, a] = played[i, a]
            out_average[s, i, a] = strategy_sum[i, a] / total if total > 0.0 else 1.0 / k
        out_reach[s, i] = own_reach[i]
    out_value[s] = last_value
    out_expected[s] = value_sum / t
    out_nodes[s] = nodes_touched
