"""The CFR family and regret matching, as kernels over a compiled GameTree.

`ALGORITHMS` maps the names used by `cfrviz.solve` and the CLI to a title and
the solver class's import path; `solver_class(name)` imports it.
"""
from __future__ import annotations

from importlib import import_module

from cfrviz.solvers.base import UPDATE_SCHEMES, Solver, normalize_average, regret_matching

# name: (title, "module:Class", sampling)
ALGORITHMS: dict[str, tuple[str, str, bool]] = {
    "cfr": ("Vanilla CFR", "cfrviz.solvers.cfr:VanillaCFR", False),
    "cfr+": ("CFR+", "cfrviz.solvers.cfr:CFRPlus", False),
    "lcfr": ("Linear CFR", "cfrviz.solvers.cfr:LinearCFR", False),
    "dcfr": ("Discounted CFR", "cfrviz.solvers.cfr:DiscountedCFR", False),
    "pcfr+": ("Predictive CFR+", "cfrviz.solvers.cfr:PredictiveCFRPlus", False),
    "dcfr+": ("DCFR+", "cfrviz.solvers.cfr:DiscountedCFRPlus", False),
    "pdcfr+": ("PDCFR+", "cfrviz.solvers.cfr:PredictiveDiscountedCFRPlus", False),
    "chance": ("Chance-sampling MCCFR", "cfrviz.solvers.sampling:ChanceSampling", True),
    "external": ("External-sampling MCCFR", "cfrviz.solvers.sampling:ExternalSampling", True),
    "outcome": ("Outcome-sampling MCCFR", "cfrviz.solvers.sampling:OutcomeSampling", True),
    "rm": ("Regret matching", "cfrviz.solvers.matrix:MatrixRegretMatching", True),
}

__all__ = ["ALGORITHMS", "UPDATE_SCHEMES", "Solver", "normalize_average", "regret_matching", "solver_class",
           "update_schemes"]


def solver_class(name: str) -> type[Solver]:
    """The solver class registered under `name`; ValueError lists the known names."""
    key = name.strip().lower() if isinstance(name, str) else name
    if key not in ALGORITHMS:
        raise ValueError(f"Unknown algorithm {name!r}; choose one of: {', '.join(ALGORITHMS)}.")
    module, _, cls = ALGORITHMS[key][1].partition(":")
    solver: type[Solver] = getattr(import_module(module), cls)
    return solver


def update_schemes(name: str) -> tuple[str, ...]:
    """The update schemes the algorithm `name` implements (sampling per player needs alternating)."""
    return solver_class(name).update_schemes
