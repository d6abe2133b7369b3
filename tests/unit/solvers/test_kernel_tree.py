"""The arrays the CFR family's passes walk (`KernelTree.kind`, `decision`, `decision_start`).

References: Kuhn poker's tree by hand (one chance node dealing 6 equally likely card pairs, 12
decision nodes per player, 30 terminals), and the tree's own `actor` and `depth` arrays read one
node at a time; a lock turns a set's histories into chance nodes with the lock's probabilities.
"""
from __future__ import annotations

import numpy as np
import pytest

from cfrviz.catalog import compile_game
from cfrviz.util.vocabulary import Player
from cfrviz.solvers._kernel_tree import UNIFORM_CHANCE, kernel_tree
from cfrviz.tree import GameTree
from cfrviz.tree.locks import Locks, restrict


def _walk_order(tree: GameTree) -> list[list[int]]:
    """The non-terminal nodes depth by depth, ids ascending, read one node at a time."""
    levels: list[list[int]] = [[] for _ in range(int(tree.depth.max()) + 1)]
    for n in range(tree.num_nodes):
        if int(tree.actor[n]) != Player.TERMINAL:
            levels[int(tree.depth[n])].append(n)
    return levels


@pytest.mark.parametrize(("game", "params"), [("kuhn", {}), ("leduc", {}), ("kuhn", {"cards": 5})])
def test_decision_lists_hold_every_non_terminal_node_depth_by_depth(game: str, params: dict[str, int]) -> None:
    tree = compile_game(game, **params)
    arrays = kernel_tree(tree)
    decision, start = arrays.decision.tolist(), arrays.decision_start.tolist()
    levels = _walk_order(tree)
    assert len(start) == len(levels) + 1 and start[0] == 0 and start[-1] == len(decision)
    assert [decision[start[d]:start[d + 1]] for d in range(len(levels))] == levels
    assert arrays.decision.dtype == np.uint64 and arrays.decision_start.dtype == np.uint64


def test_kuhn_by_hand() -> None:
    tree = compile_game("kuhn")
    arrays = kernel_tree(tree)
    assert len(arrays.decision) == 25                 # the deal, 12 + 12 decisions; 30 terminals are left out
    assert arrays.kind[0] == UNIFORM_CHANCE           # six card pairs, 1/6 each
    assert np.array_equal(arrays.kind[1:], tree.actor[1:])


def test_a_lock_makes_chance_nodes_uniform_or_not_by_its_probabilities() -> None:
    kuhn = compile_game("kuhn")
    for locks, expected in (("J=1/4,3/4", Player.CHANCE), ("J=1/2,1/2", UNIFORM_CHANCE), ("J=0,1", Player.CHANCE)):
        tree = restrict(kuhn, Locks.parse(locks)).tree
        locked = np.flatnonzero((tree.actor == Player.CHANCE) & (np.arange(tree.num_nodes) > 0))
        assert len(locked) == 2                       # player 1 holds J against Q and against K
        kind = kernel_tree(tree).kind
        assert kind[0] == UNIFORM_CHANCE and all(kind[n] == expected for n in locked), locks
