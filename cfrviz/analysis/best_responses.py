"""Judging a strategy: best response, exploitability, exact values and the known equilibria.

Everything here works on a compiled `GameTree` and `[I, A]` strategy arrays (a behaviour
strategy for both players at once, zero on illegal actions). The tree is walked as flat
arrays by numba kernels (`cfrviz.analysis._best_response_kernels`): node ids are breadth
first, so children always follow their parent and every node of one information set sits at
one depth. A best response is then one
top-down pass (opponent-and-chance reach) and one bottom-up pass, one depth level at a time,
choosing at each information set the action with the largest reach-weighted value summed
over its histories (Johanson et al. 2011, "Accelerating best response calculation").
"""
from __future__ import annotations

import threading
import weakref
from dataclasses import dataclass

import numpy as np

from cfrviz.analysis._batched_judging import _nash_conv_pairs_batched
from cfrviz.analysis._best_response_kernels import (_CHANCE, _INNER, _TERMINAL, _OPPONENT_SLOT, _PARENT_SLOT, _SET_ORDER, _best_responses,
                                                    _nash_conv_many, _nash_conv_one, _nash_conv_pairs,
                                                    _nash_conv_pairs_unblocked, _profile_values, _reach_pass)
from cfrviz.solvers._interpreted import pick
from cfrviz.solvers._kernel_tree import kernel_tree
from cfrviz.tree import GameTree
from cfrviz.util import idle

__all__ = ["BestResponse", "HistoryValues", "best_response", "expected_value", "exploitability",
           "exploitability_many", "exploitability_pairs", "history_values", "judge_snapshots", "nash_conv"]


#: Snapshots judged in one walk by `_nash_conv_pairs`: more amortise the tree's arrays over more
#: profiles; past 16 it measured no faster on Leduc.
_BLOCK = 16
#: Most bytes of `_nash_conv_pairs`' work arrays (32 per history and 48 per set and action, per snapshot
#: of a block); a tree too big for blocks of 4 is judged one snapshot at a time by `_nash_conv_pairs_unblocked`.
_BLOCK_BYTES = 16 * 2**20


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
