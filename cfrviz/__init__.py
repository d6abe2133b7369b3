"""cfrviz: counterfactual regret minimization you can see.

    >>> import cfrviz
    >>> run = cfrviz.solve("kuhn", "cfr", iterations=1000)   # doctest: +SKIP
"""
from __future__ import annotations

from cfrviz.catalog import compile_game, load_game
from cfrviz.tree import GameTree, build_tree

__all__ = ["GameTree", "build_tree", "compile_game", "load_game", "solve"]


def solve(*args, **kwargs):
    """Run a solver and record its snapshots; see `cfrviz.runner.solve`."""
    from cfrviz.runner import solve as _solve

    return _solve(*args, **kwargs)
