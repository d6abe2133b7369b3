"""cfrviz: counterfactual regret minimization you can see.

    >>> import cfrviz
    >>> run = cfrviz.solve("kuhn", "cfr", iterations=1000)   # doctest: +SKIP
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cfrviz.catalog import GameSpec, compile_game, load_game
from cfrviz.util.vocabulary import Algorithm, UpdateScheme
from cfrviz.tree import GameTree, build_tree

if TYPE_CHECKING:
    from cfrviz.solving import solve as solve

__all__ = ["Algorithm", "GameSpec", "GameTree", "UpdateScheme", "build_tree", "compile_game", "load_game", "solve"]


def __getattr__(name: str) -> Any:
    """`cfrviz.solve` is `cfrviz.solving.solve` itself, imported on first use so `import cfrviz` stays light."""
    if name == "solve":
        from cfrviz.solving import solve

        return solve
    raise AttributeError(f"module 'cfrviz' has no attribute {name!r}")
