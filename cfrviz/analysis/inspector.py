"""The inspector's numbers for a run, computed so that they explain each other.

For a snapshot taken after iteration t, every number here comes from the strategy profile
that really produced that iteration's regret update (Zinkevich et al. 2007):

- Simultaneous updates: both players' regrets are computed against sigma^t, the strategy
  both played in iteration t (`Run.current_strategy[s]`).
- Alternating updates: player 1 updates first, against sigma^t; player 2 then updates
  against player 1's UPDATED strategy sigma_1^(t+1) and their own sigma_2^t. sigma_1^(t+1)
  is the strategy player 1 plays in iteration t + 1: it is read from the next snapshot when
  that snapshot is iteration t + 1, and otherwise re-derived by regret matching on
  `cumulative_regret[s]` (plus player 1's regret of iteration t for predictive solvers), for
  solvers whose next strategy is exactly that (`Solver.next_strategy_from_regret`; true for
  every solver in this package). Where neither is possible the player's numbers are NaN and
  `recorded[f, 1]` is False.

So, summed over an information set's histories, `instant_regret` is exactly what vanilla CFR
added to its cumulative regret in iteration t (`regret_change`). CFR+ adds it and then floors
the sum at zero; linear and discounted CFR add it and then scale the sum; the Monte Carlo
solvers add a sampled estimate whose expectation is `instant_regret`.

Values are counterfactual values for the acting player (player 2's are the negation of
player 1's payoffs), weighted by the opponent's and chance's reach. Pure numpy and numba; no
streamlit.
"""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numba import njit

# The one reach and value pass, shared with best response and exploitability.
from cfrviz.util import memory
from cfrviz.analysis._best_response_kernels import _profile_values, _reach_pass
from cfrviz.analysis.best_responses import _packed
from cfrviz.analysis._batched_inspector import _frames_batched
from cfrviz.run import Run
from cfrviz.solvers import UpdateScheme, solver_class
from cfrviz.solvers._interpreted import pick
from cfrviz.solvers.base import regret_matching

__all__ = ["MAX_FRAME_VALUES", "frame_numbers", "update_profiles"]

#: Most per-history numbers (frames x nodes x actions) one `frame_numbers` call returns.
MAX_FRAME_VALUES = 20_000_000
#: [I, A] arrays one frame's profiles take while they are rebuilt (two profiles, regret matching's
#: temporaries, the summed values).
_WORK_ARRAYS = 10


@njit(cache=True, nogil=True)
def _frames_kernel(nodes: np.ndarray, chance_probability: np.ndarray, payoff: np.ndarray, profiles: np.ndarray,
                   known: np.ndarray, same_profile: bool, column: np.ndarray, own_out: np.ndarray,
                   opponent_out: np.ndarray, cfv_out: np.ndarray, value_out: np.ndarray,
                   infoset_cfv: np.ndarray) -> None:
    """Fill the per-history outputs [F, M(, A)] at the columns `column` [N] (-1: not returned)
    and add each history's counterfactual values into infoset_cfv [F, I, A] (zeroed by the caller).

    nodes is analysis's packed [4, N] table (actor, infoset, first child, number of children).
    profiles [F, 2, I, A]: profile p is the one player p's update was computed against;
    same_profile: both are the same (simultaneous updates), so one pass serves both players.
    """
    n_nodes = nodes.shape[1]
    reach = np.empty((n_nodes, 3))
    value = np.empty(n_nodes)
    action_value = np.empty((n_nodes, profiles.shape[3]))
    for f in range(profiles.shape[0]):
        for p in range(2):
            if not known[f, p]:
                continue
            if p == 0 or not same_profile or not known[f, 0]:
                _reach_pass(nodes, chance_probability, profiles[f, p], reach)
                _profile_values(nodes, chance_probability, payoff, profiles[f, p], value, action_value, True)
            sign = 1.0 if p == 0 else -1.0
            for n in range(n_nodes):
                if nodes[0, n] != p:
                    continue
                i = nodes[1, n]
                counterfactual = reach[n, 1 - p] * reach[n, 2]
                m = column[n]
                for a in range(nodes[3, n]):
                    cf = counterfactual * action_value[n, a]
                    infoset_cfv[f, i, a] += cf
                    if m >= 0:
                        cfv_out[f, m, a] = cf
                if m >= 0:
                    own_out[f, m] = reach[n, p]
                    opponent_out[f, m] = counterfactual
                    value_out[f, m] = sign * counterfactual * value[n]


def _snapshot_indices(run: Run, snapshots: Sequence[int] | np.ndarray) -> np.ndarray:
    array = np.asarray(snapshots)
    if array.ndim != 1 or (array.size and array.dtype.kind not in "iu"):
        raise ValueError("Snapshots must be a list of whole-number snapshot indices.")
    indices = array.astype(np.int64)
    if indices.size and (indices.min() < -run.num_snapshots or indices.max() >= run.num_snapshots):
        raise ValueError(f"Snapshot indices run from 0 to {run.num_snapshots - 1} for this run.")
    return np.where(indices < 0, indices + run.num_snapshots, indices)


def _infoset_cfv(run: Run, indices: np.ndarray, profiles: np.ndarray, known: np.ndarray) -> np.ndarray:
    """[F, I, A] counterfactual values summed over each set, for the players `known` [F, 2] marks."""
    tree = run.tree
    width = tree.max_actions
    nothing = np.full(tree.num_nodes, -1, dtype=np.int64)
    scratch = np.empty((len(indices), 0)), np.empty((len(indices), 0, width))
    infoset_cfv = np.zeros((len(indices), tree.num_infosets, width))
    packed = _packed(tree)
    frames_pass = pick(_frames_kernel, 2 * len(indices) * tree.num_nodes, _frames_batched)   # NumPy while it compiles
    frames_pass(packed.nodes, packed.chance_probability, packed.payoff, np.ascontiguousarray(profiles),
                known, False, nothing, scratch[0], scratch[0], scratch[1], scratch[0], infoset_cfv)
    return infoset_cfv


def _instant_regret(infoset_cfv: np.ndarray, strategy: np.ndarray) -> np.ndarray:
    """[..., I, A] counterfactual value of each action minus the set's value under `strategy`."""
    regret: np.ndarray = infoset_cfv - (strategy * infoset_cfv).sum(axis=-1, keepdims=True)
    return regret


def update_profiles(run: Run, snapshots: Sequence[int] | np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The profiles that produced each player's regret update in the snapshots' iterations.

    Returns (profiles [F, 2, I, A], recorded [F, 2] bool): profiles[f, p] is the profile
    player p's counterfactual values were computed against in iteration iterations[s]
    (see the module docstring); recorded[f, p] is False where it cannot be known from the
    run, and that profile is then NaN. Player 1's updated strategy is the next snapshot's
    when that is iteration t + 1; otherwise regret matching on the stored cumulative regret,
    plus (predictive solvers: Farina, Kroer and Sandholm 2021) player 1's regret of iteration
    t, which is computed here from the profile of player 1's own update.
    """
    indices = _snapshot_indices(run, snapshots)
    tree = run.tree
    current = run.current_strategy[indices]
    profiles = np.repeat(current[:, None], 2, axis=1)
    recorded = np.ones((len(indices), 2), dtype=bool)
    if run.settings.updates != UpdateScheme.ALTERNATING:
        return profiles, recorded
    first = tree.infoset_player == 0
    solver = solver_class(run.settings.algorithm)
    from_regret, predictive = solver.next_strategy_from_regret, solver.predictive
    derived = []
    for f, s in enumerate(indices):
        t = int(run.iterations[s])
        if s + 1 < run.num_snapshots and int(run.iterations[s + 1]) == t + 1:
            profiles[f, 1, first] = run.current_strategy[s + 1, first]
        elif from_regret:
            derived.append(f)
        else:
            profiles[f, 1] = np.nan
            recorded[f, 1] = False
    if derived:
        regret = run.cumulative_regret[indices[derived]]
        if predictive:
            only_first = np.zeros((len(derived), 2), dtype=bool)
            only_first[:, 0] = True
            cfv = _infoset_cfv(run, indices[derived], profiles[derived], only_first)
            regret = regret + _instant_regret(cfv, current[derived])
        profiles[derived, 1, :, :] = np.where(first[:, None], regret_matching(regret, tree.legal),
                                              profiles[derived, 1])
    return profiles, recorded


def frame_numbers(run: Run, snapshots: Sequence[int] | np.ndarray,
                  nodes: Sequence[int] | np.ndarray | None = None,
                  sets: Sequence[int] | np.ndarray | None = None) -> dict[str, np.ndarray]:
    """The inspector's numbers at each of F snapshot indices, as arrays (for the timeline).

    `nodes` picks the M histories whose per-history numbers are returned, in that order
    (all N by default); `sets` picks the S information sets whose set numbers are returned,
    in that order (all I by default). Keys and shapes:

      iterations            [F]        iteration t of each frame
      recorded              [F, 2]     whether the profile player p updated against is known
      own_reach             [F, M]     the acting player's own reach of the history
      opponent_chance_reach [F, M]     the opponent's reach times chance's
      history_cfv           [F, M, A]  counterfactual value of each action at the history
      history_value         [F, M]     counterfactual value of the history (its strategy's mean)
      infoset_cfv           [F, S, A]  history_cfv summed over the set's histories
      instant_regret        [F, S, A]  this iteration's regret: infoset_cfv minus its mean
                                       under the set's current strategy
      regret_change         [F, S, A]  cumulative_regret[s] - cumulative_regret[s - 1], NaN
                                       where snapshot s - 1 is not iteration t - 1
      cumulative_regret, current_strategy, average_strategy [F, S, A]  the run's arrays

    Per-history numbers are NaN at chance and terminal nodes; values are NaN on illegal
    actions and wherever `recorded` is False for the acting player. Numbers are the acting
    player's, from the profile that produced the update (module docstring).

    Memory is bounded before anything is allocated: the outputs must fit the process's budget
    (`cfrviz.util.memory`; ValueError otherwise), and the profiles behind them, [2, I, A] per frame,
    are rebuilt a chunk of frames at a time, within a quarter of the budget.
    """
    indices = _snapshot_indices(run, snapshots)
    tree = run.tree
    chosen = np.arange(tree.num_nodes) if nodes is None else np.asarray(nodes, dtype=np.int64).reshape(-1)
    if chosen.size and (chosen.min() < 0 or chosen.max() >= tree.num_nodes):
        raise ValueError(f"Node ids run from 0 to {tree.num_nodes - 1} in {tree.game.title}.")
    picked = np.arange(tree.num_infosets) if sets is None else np.asarray(sets, dtype=np.int64).reshape(-1)
    if picked.size and (picked.min() < 0 or picked.max() >= tree.num_infosets):
        raise ValueError(f"Information set ids run from 0 to {tree.num_infosets - 1} in {tree.game.title}.")
    frames, width = len(indices), tree.max_actions
    if frames * len(chosen) * width > MAX_FRAME_VALUES:
        raise ValueError(f"{frames:,} frames of {len(chosen):,} histories are too many numbers to send at "
                         f"once; ask for fewer frames or one part of the tree.")
    budget = memory.budget_bytes()
    outputs = 8 * frames * (len(chosen) * (width + 3) + 6 * len(picked) * width)
    per_frame = 8 * _WORK_ARRAYS * tree.num_infosets * width     # profiles and their temporaries
    if outputs + per_frame > budget:
        raise ValueError(f"The numbers of {frames:,} frames of {tree.game.title} would take "
                         f"{memory.shown_bytes(outputs + per_frame)}, more than this process's "
                         f"{memory.shown_bytes(budget)} budget; ask for fewer frames or one part of the tree.")
    # The run is already held when its numbers are asked for: rebuild profiles within a quarter of the budget.
    chunk = max(min(budget // 4, budget - outputs) // per_frame, 1)
    column = np.full(tree.num_nodes, -1, dtype=np.int64)
    column[chosen] = np.arange(len(chosen))
    recorded = np.ones((frames, 2), dtype=bool)
    own = np.full((frames, len(chosen)), np.nan)
    opponent = np.full((frames, len(chosen)), np.nan)
    history_cfv = np.full((frames, len(chosen), width), np.nan)
    history_value = np.full((frames, len(chosen)), np.nan)
    infoset_cfv = np.zeros((frames, len(picked), width))
    instant = np.zeros((frames, len(picked), width))
    packed = _packed(tree)
    unknown_set = tree.infoset_player[picked].astype(np.int64)
    for lo in range(0, frames, chunk):
        part = slice(lo, min(lo + chunk, frames))
        profiles, recorded[part] = update_profiles(run, indices[part])
        summed = np.zeros((part.stop - lo, tree.num_infosets, width))
        # Batched in NumPy while the warm-up compiles the kernel (small trees only): the same bits.
        frames_pass = pick(_frames_kernel, 2 * (part.stop - lo) * tree.num_nodes, _frames_batched)
        frames_pass(packed.nodes, packed.chance_probability, packed.payoff, np.ascontiguousarray(profiles),
                    recorded[part], run.settings.updates != UpdateScheme.ALTERNATING, column,
                    own[part], opponent[part], history_cfv[part], history_value[part], summed)
        del profiles
        infoset_cfv[part] = summed[:, picked]
        instant[part] = _instant_regret(infoset_cfv[part], run.current_strategy[indices[part, None], picked])
    unknown = ~recorded[:, unknown_set]                                   # [F, S]
    illegal = ~tree.legal[picked]                                         # [S, A]
    for array in (infoset_cfv, instant):
        array[unknown] = np.nan
        array[:, illegal] = np.nan
    return {
        "iterations": run.iterations[indices].copy(),
        "recorded": recorded,
        "own_reach": own,
        "opponent_chance_reach": opponent,
        "history_cfv": history_cfv,
        "history_value": history_value,
        "infoset_cfv": infoset_cfv,
        "instant_regret": instant,
        "regret_change": _regret_change(run, indices, picked),
        # Indexed as [F, 1] x [S]: the [F, S, A] result without an [F, I, A] copy first.
        "cumulative_regret": run.cumulative_regret[indices[:, None], picked],
        "current_strategy": run.current_strategy[indices[:, None], picked],
        "average_strategy": run.average_strategy[indices[:, None], picked],
    }


def _regret_change(run: Run, indices: np.ndarray, sets: np.ndarray) -> np.ndarray:
    """[F, S, A] cumulative_regret[s] - cumulative_regret[s - 1] at `sets` where that is one iteration's change."""
    change = np.full((len(indices), len(sets), run.tree.max_actions), np.nan)
    for f, s in enumerate(indices):
        t = int(run.iterations[s])
        if t == 1:
            change[f] = run.cumulative_regret[s, sets]
        elif s > 0 and int(run.iterations[s - 1]) == t - 1:
            change[f] = run.cumulative_regret[s, sets] - run.cumulative_regret[s - 1, sets]
    change[:, ~run.tree.legal[sets]] = np.nan
    return change
