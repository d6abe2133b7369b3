"""cfrviz: counterfactual regret minimization you can see.

    >>> import cfrviz
    >>> run = cfrviz.solve("kuhn", "cfr", iterations=1000)   # doctest: +SKIP
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cfrviz.catalog import compile_game, load_game
from cfrviz.tree import GameTree, build_tree

if TYPE_CHECKING:
    from cfrviz.run import Run

__all__ = ["GameTree", "build_tree", "compile_game", "load_game", "solve"]


def solve(*args: Any, **kwargs: Any) -> Run:
    """Run a solver and record its snapshots; see `cfrviz.runner.solve` (imported on first use, so
    `import cfrviz` stays light)."""
    from cfrviz.runner import solve as _solve

    return _solve(*args, **kwargs)
