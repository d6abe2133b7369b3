"""The CFR family and regret matching, as kernels over a compiled GameTree.

`ALGORITHMS` maps the names used by `cfrviz.solve` and the CLI (`Algorithm`) to one
`AlgorithmInfo` record (title, family, sampling, update schemes, the solver class's
import path); `solver_class(name)` imports the class. An update rule of one's own joins them through
`cfrviz.solvers.custom.register_minimizer` (`cfrviz.register_minimizer`).
"""
from __future__ import annotations

from importlib import import_module

from cfrviz.solvers.base import Solver, normalize_average, regret_matching
from cfrviz.solvers.custom import RegretMinimizer, register_minimizer, solver_for, unregister_minimizer
from cfrviz.util.vocabulary import (
    ALGORITHMS, DEFAULT_UPDATES, UPDATE_SCHEMES, Algorithm, AlgorithmInfo, AverageWeight, RegretMode,
    UpdateScheme, unknown_algorithm,
)

__all__ = ["ALGORITHMS", "DEFAULT_UPDATES", "UPDATE_SCHEMES", "Algorithm", "AlgorithmInfo", "AverageWeight",
           "RegretMinimizer", "RegretMode", "Solver", "UpdateScheme", "normalize_average", "regret_matching", "register_minimizer",
           "solver_class", "unregister_minimizer", "update_schemes"]


def solver_class(name: str) -> type[Solver]:
    """The solver class registered under `name`; ValueError lists the known names."""
    key = name.strip().lower() if isinstance(name, str) else name
    if key not in ALGORITHMS:
        raise ValueError(unknown_algorithm(name))
    if ALGORITHMS[key].custom:
        return solver_for(key)
    module, _, cls = ALGORITHMS[key].solver.partition(":")
    solver: type[Solver] = getattr(import_module(module), cls)
    return solver


def update_schemes(name: str) -> tuple[UpdateScheme, ...]:
    """The update schemes the algorithm `name` implements (sampling per player needs alternating)."""
    return solver_class(name).update_schemes
