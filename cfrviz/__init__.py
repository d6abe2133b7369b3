"""cfrviz: counterfactual regret minimization you can see.

    >>> import cfrviz
    >>> run = cfrviz.solve("kuhn", "cfr", iterations=1000)   # doctest: +SKIP
    >>> table = cfrviz.compare("leduc", ["cfr+", "dcfr+", "pcfr+"], 5000)   # doctest: +SKIP

An update rule of your own (`RegretMinimizer`, `register_minimizer`: `cfrviz.solvers.custom`) is
solved like a built-in algorithm. Importing the package registers the rules the environment variable
CFRVIZ_MINIMIZERS names ("module:Class,..."), which imports those modules: code you trust only.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cfrviz.catalog import GameSpec, compile_game, load_game
from cfrviz.solvers.custom import RegretMinimizer, load_from_environment, register_minimizer, unregister_minimizer
from cfrviz.util.vocabulary import Algorithm, UpdateScheme
from cfrviz.tree import GameTree, build_tree

if TYPE_CHECKING:
    from cfrviz.solving import solve as solve
    from cfrviz.solving.compare import compare as compare

__all__ = ["Algorithm", "GameSpec", "GameTree", "RegretMinimizer", "UpdateScheme", "build_tree", "compare",
           "compile_game", "load_game", "register_minimizer", "solve", "unregister_minimizer"]


def __getattr__(name: str) -> Any:
    """`cfrviz.solve` is `cfrviz.solving.solve` itself and `cfrviz.compare` is `cfrviz.solving.compare.compare`,
    imported on first use so `import cfrviz` stays light (no numba, no pandas)."""
    if name == "solve":
        from cfrviz.solving import solve

        return solve
    if name == "compare":
        from cfrviz.solving.compare import compare

        return compare
    raise AttributeError(f"module 'cfrviz' has no attribute {name!r}")


# Last, once every name above is bound: a rule's module may itself `import cfrviz`.
load_from_environment()
