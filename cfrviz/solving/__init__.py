"""Solving: a game and an algorithm in, a recorded `Run` out.

`solve` takes a Python caller's loose values and `solve_settings` a `RunSettings` whole (`entry`);
`core` solves one tree as the settings say and records its snapshots; `locked` solves a game with
information sets fixed, through the restricted game. (`cfrviz.run` is the record a solve returns:
the `Run`, its settings, files and caches.)
"""
from __future__ import annotations

from cfrviz.solving.core import (MAX_ITERATIONS, PROGRESS_CALLS, planned_schedule, resolve_game, settings_of,
                                 solve_tree, solver_seconds)
from cfrviz.solving.entry import solve, solve_settings
from cfrviz.solving.locked import LockedSolve, lift_run, solve_locked, solve_locked_tree

__all__ = ["MAX_ITERATIONS", "PROGRESS_CALLS", "LockedSolve", "lift_run", "planned_schedule", "resolve_game",
           "settings_of", "solve", "solve_locked", "solve_locked_tree", "solve_settings", "solve_tree",
           "solver_seconds"]
