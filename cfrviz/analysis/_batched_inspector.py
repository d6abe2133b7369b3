"""The inspector's numbers without the compiler: `_frames_kernel`'s walk in NumPy, batched over frames.

Used by `cfrviz.analysis.inspector.frame_numbers` for small trees while the compiled kernel is still
being built (see `cfrviz.solvers._interpreted.pick`), so a first visit to the Game tree page need
not wait for numba.
"""
from __future__ import annotations

import numpy as np

from cfrviz.util.vocabulary import Player

# Player's actors as plain ints: numba freezes globals as compile-time constants, and the
# interpreted path compares a NumPy value with an int in ~20 ns, with an IntEnum member in ~4 us.
_CHANCE = int(Player.CHANCE)
_TERMINAL = int(Player.TERMINAL)


def _frames_batched(nodes: np.ndarray, chance_probability: np.ndarray, payoff: np.ndarray, profiles: np.ndarray,
                    known: np.ndarray, same_profile: bool, column: np.ndarray, own_out: np.ndarray,
                    opponent_out: np.ndarray, cfv_out: np.ndarray, value_out: np.ndarray,
                    infoset_cfv: np.ndarray) -> None:
    """`_frames_kernel` in NumPy, with its arguments and outputs: per-history outputs [F, M(, A)] at
    the columns `column` [N], and counterfactual values added into infoset_cfv [F, I, A].

    The same reach pass (top down) and value pass (bottom up), node by node in the kernel's order,
    but each node's numbers are vectors over the F frames: every element sees the kernel's
    operations in the kernel's order, so the results are the same bits, and the interpreter's
    cost is per node, not per node and frame. Frames where `known[f, p]` is False are computed
    but not written, as the kernel skips them.
    """
    frames = profiles.shape[0]
    if frames == 0:
        return
    n_nodes = nodes.shape[1]
    width = profiles.shape[3]
    actor, infoset, first_child, num_children = (nodes[row].astype(np.int64) for row in range(4))
    for p in range(2):
        written = known[:, p]
        if not written.any():
            continue
        # The profile player p's update answered: the kernel reuses player 1's passes for player 2
        # when both played one profile, which is the same as walking profile 0 again.
        chosen = profiles[:, 0]
        if p == 1:
            again = np.full(frames, not same_profile) | ~known[:, 0]
            chosen = np.where(again[:, None, None], profiles[:, 1], profiles[:, 0])
        strategy = np.ascontiguousarray(chosen.transpose(1, 2, 0))          # [I, A, F]
        reach = np.empty((n_nodes, 3, frames))
        reach[0] = 1.0
        for n in range(n_nodes):
            who = int(actor[n])
            if who == _TERMINAL:
                continue
            # All children at once: each entry is still the kernel's one product, parent's reach times p.
            children = slice(int(first_child[n]), int(first_child[n]) + int(num_children[n]))
            reach[children] = reach[n]
            if who == _CHANCE:
                reach[children, 2] *= chance_probability[children, None]
            else:
                reach[children, who] *= strategy[int(infoset[n]), :int(num_children[n])]
        value = np.empty((n_nodes, frames))
        action_value = np.zeros((n_nodes, width, frames))
        for n in range(n_nodes - 1, -1, -1):
            who = int(actor[n])
            if who == _TERMINAL:
                value[n] = payoff[n]
                continue
            first = int(first_child[n])
            v = np.zeros(frames)
            for a in range(int(num_children[n])):
                c = first + a
                if who == _CHANCE:
                    v += chance_probability[c] * value[c]
                else:
                    v += strategy[int(infoset[n]), a] * value[c]
                    action_value[n, a] = value[c] if who == 0 else -value[c]
            value[n] = v
        sign = 1.0 if p == 0 else -1.0
        for node in np.flatnonzero(actor == p).tolist():
            n = int(node)
            i = int(infoset[n])
            counterfactual = reach[n, 1 - p] * reach[n, 2]
            m = int(column[n])
            for a in range(int(num_children[n])):
                cf = counterfactual * action_value[n, a]
                infoset_cfv[written, i, a] += cf[written]
                if m >= 0:
                    cfv_out[written, m, a] = cf[written]
            if m >= 0:
                own_out[written, m] = reach[n, p][written]
                opponent_out[written, m] = counterfactual[written]
                value_out[written, m] = (sign * counterfactual * value[n])[written]
