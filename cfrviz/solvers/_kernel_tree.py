"""The tree's arrays as the compiled kernels read them: unsigned indices, made once per tree.

numba checks every array access made with a signed integer for a negative index, which Python
would count from the end (a compare and a select at each access); an unsigned index needs no
such check. GameTree marks "none" with -1 (the root's parent, the information set of
a chance or terminal node); here it is `NONE`, the largest uint64, which no kernel reads as an
index. Every kernel gets arrays of exactly these types, so numba compiles each kernel once.
"""
from __future__ import annotations

import threading
import weakref
from dataclasses import dataclass

import numpy as np

from cfrviz.solvers.base import _own_levels
from cfrviz.tree import GameTree
from cfrviz.util.vocabulary import Player

__all__ = ["NONE", "UNIFORM_CHANCE", "KernelTree", "kernel_tree"]

#: "No node" or "no information set" in the unsigned arrays (GameTree's -1).
NONE = np.uint64(np.iinfo(np.uint64).max)
#: KernelTree.kind of a chance node whose outcomes are equally likely (the tree's actors are 0 to 3).
UNIFORM_CHANCE = 4


@dataclass(frozen=True, eq=False)
class KernelTree:
    """Read-only copies of a GameTree's arrays in the kernels' types (N nodes, I information sets).

    parent [N] uint64 (NONE at the root), actor [N] uint8 (a `Player` value), infoset [N]
    uint64 (NONE unless a decision node), chance_probability [N] and payoff [N] float64,
    first_child, num_children and action_index [N] uint64, infoset_player [I] uint8 and
    num_actions [I] uint64.

    What the CFR family's passes walk, found once per tree: kind [N] uint8 (the actor, but
    UNIFORM_CHANCE at a chance node whose outcomes are all equally likely, which the passes
    average with one division), decision [M] uint64 (the ids of the M nodes that are not
    terminal, ascending) and decision_start [D + 1] uint64 (where each depth begins in
    `decision`, then M). Terminals need no work in a pass, and a test for them at every node
    was a branch the processor often guessed wrong: more than half of Leduc's nodes are
    terminal, spread through the depths.

    Each information set's own sequence, for pruned passes: own_parent [I] uint64 (the set where
    its player last acted before it, NONE if none) and own_action [I] uint64 (the action taken
    there), and histories [I] uint64 (how many histories it has). prunable: the game has perfect
    recall and every set's parent has a smaller id, so own reach can be computed set by set.
    """

    parent: np.ndarray
    actor: np.ndarray
    infoset: np.ndarray
    chance_probability: np.ndarray
    payoff: np.ndarray
    first_child: np.ndarray
    num_children: np.ndarray
    action_index: np.ndarray
    infoset_player: np.ndarray
    num_actions: np.ndarray
    kind: np.ndarray
    decision: np.ndarray
    decision_start: np.ndarray
    own_parent: np.ndarray
    own_action: np.ndarray
    histories: np.ndarray
    prunable: bool


_KERNEL_TREES: weakref.WeakKeyDictionary[GameTree, KernelTree] = weakref.WeakKeyDictionary()
_LOCK = threading.Lock()


def _unsigned(indices: np.ndarray) -> np.ndarray:
    """uint64 copy of an int64 index array, -1 becoming NONE."""
    unsigned = np.asarray(indices, dtype=np.int64).astype(np.uint64)
    unsigned[indices < 0] = NONE
    return unsigned


def _kind(tree: GameTree) -> np.ndarray:
    """[N] uint8: the actor, with UNIFORM_CHANCE where every outcome of a chance node has one probability."""
    kind = np.asarray(tree.actor, dtype=np.uint8).copy()
    child = np.arange(1, tree.num_nodes)
    above = tree.parent[child]
    from_chance = tree.actor[above] == Player.CHANCE
    first = tree.first_child[above[from_chance]]
    differs = tree.chance_probability[child[from_chance]] != tree.chance_probability[first]
    uniform = (tree.actor == Player.CHANCE)
    uniform[above[from_chance][differs]] = False
    kind[uniform] = UNIFORM_CHANCE
    return kind


def _decision_levels(tree: GameTree) -> tuple[np.ndarray, np.ndarray]:
    """(decision [M], decision_start [D + 1]): the non-terminal node ids, and where each depth begins among them."""
    decision = np.flatnonzero(tree.actor != Player.TERMINAL)
    levels = int(tree.depth[-1]) + 1          # depth never decreases with the id
    decision_start = np.searchsorted(tree.depth[decision], np.arange(levels + 1), side="left")
    return decision.astype(np.uint64), decision_start.astype(np.uint64)


def _own_sequences(tree: GameTree) -> tuple[np.ndarray, np.ndarray, bool]:
    """(own_parent [I], own_action [I], prunable): see KernelTree."""
    parent = np.full(tree.num_infosets, NONE, dtype=np.uint64)
    action = np.zeros(tree.num_infosets, dtype=np.uint64)
    try:
        levels = _own_levels(tree)
    except ValueError:                      # no perfect recall: sets have no single parent
        return parent, action, False
    width = max(tree.max_actions, 1)
    for sets, parent_sets, slots in levels:
        has = parent_sets >= 0
        parent[sets[has]] = parent_sets[has].astype(np.uint64)
        action[sets[has]] = (slots[has] - parent_sets[has] * width).astype(np.uint64)
    ids = np.arange(tree.num_infosets, dtype=np.uint64)
    ordered = bool(np.all((parent == NONE) | (parent < ids)))
    return parent, action, ordered


def _frozen(array: np.ndarray, dtype: type[np.generic]) -> np.ndarray:
    copy = np.ascontiguousarray(array, dtype=dtype).copy()
    copy.setflags(write=False)
    return copy


def kernel_tree(tree: GameTree) -> KernelTree:
    """The kernels' arrays of `tree`, built on first use and kept as long as the tree lives."""
    with _LOCK:
        cached = _KERNEL_TREES.get(tree)
        if cached is None:
            decision, decision_start = _decision_levels(tree)
            own_parent, own_action, prunable = _own_sequences(tree)
            cached = KernelTree(
                parent=_frozen(_unsigned(tree.parent), np.uint64),
                actor=_frozen(tree.actor, np.uint8),
                infoset=_frozen(_unsigned(tree.infoset), np.uint64),
                chance_probability=_frozen(tree.chance_probability, np.float64),
                payoff=_frozen(tree.payoff, np.float64),
                first_child=_frozen(tree.first_child, np.uint64),
                num_children=_frozen(tree.num_children, np.uint64),
                action_index=_frozen(tree.action_index, np.uint64),
                infoset_player=_frozen(tree.infoset_player, np.uint8),
                num_actions=_frozen(tree.num_actions, np.uint64),
                kind=_frozen(_kind(tree), np.uint8),
                decision=_frozen(decision, np.uint64),
                decision_start=_frozen(decision_start, np.uint64),
                own_parent=_frozen(own_parent, np.uint64),
                own_action=_frozen(own_action, np.uint64),
                histories=_frozen(np.diff(tree.infoset_node_start), np.uint64),
                prunable=prunable,
            )
            _KERNEL_TREES[tree] = cached
    return cached
