"""The tree's lock key (L): which values from the browser name a node whose set can be locked.

Reference: Kuhn's tree in breadth-first ids (cfrviz.tree): node 0 is the chance deal, nodes 1-6
player 1's first decisions; a terminal node has no information set.
"""
from __future__ import annotations

import cfrviz
from cfrviz.app.locks import lockable_node


def test_only_a_decision_node_of_the_tree_is_lockable() -> None:
    tree = cfrviz.solve("kuhn", "cfr", iterations=1).tree
    terminal = next(n for n in range(tree.num_nodes) if int(tree.infoset[n]) < 0 and n > 0)
    assert lockable_node(1, tree) == 1
    assert lockable_node(0, tree) is None            # chance
    assert lockable_node(terminal, tree) is None
    for bad in (-1, tree.num_nodes, True, "1", 1.0, None, [1]):
        assert lockable_node(bad, tree) is None
