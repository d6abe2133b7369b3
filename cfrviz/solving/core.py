"""One tree solved as one `RunSettings` says: run the solver, keep snapshots on a schedule, judge
them, return a `Run` (`solve_tree`); and the game a Python caller names, resolved once (`resolve_game`).

Every solver is driven through `Solver.advance`: the compiled families record their
snapshots inside the kernel, any other solver steps `iterate` and is copied at each
snapshot. Solver time is measured per chunk of iterations; the
exploitability of every snapshot, of the average and of the current strategy, is computed
afterwards in one batched call that walks the tree once for both and also gives each
information set's own reach under the current strategy.
"""
from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from cfrviz import catalog
from cfrviz.catalog import GameSpec
from cfrviz.util import memory
from cfrviz.analysis import expected_value as profile_value
from cfrviz.analysis.best_responses import judge_snapshots
from cfrviz.run import Run, RunSettings, snapshot_count, snapshot_schedule
from cfrviz.solvers import DEFAULT_UPDATES, Solver, solver_class
from cfrviz.tree import GameTree, build_tree
from cfrviz.tree.locks import Locks

#: Most calls to `progress` per solve.
PROGRESS_CALLS = 100
#: Most iterations one solve runs (a run's record may claim more: `cfrviz.run.record.MAX_RECORDED_ITERATIONS`);
#: the app and the CLI cap each game lower (`GameSpec.app_iteration_cap`, `cli_iteration_cap`).
MAX_ITERATIONS = 100_000_000


def resolve_game(game: object, game_params: Mapping[str, Any]) -> tuple[GameTree, GameSpec]:
    """The tree to solve and the `GameSpec` its run's settings name, resolved once: a `GameSpec` is
    used as it is; anything else goes through the catalog here, and nowhere else in the solve."""
    if isinstance(game, GameSpec):
        if game_params:
            raise ValueError("Game parameters apply only when a game is given by name.")
        return game.tree(), game
    if isinstance(game, GameTree):
        if game_params:
            raise ValueError("Game parameters apply only when a game is given by name.")
        return catalog.restorable(game)
    if not isinstance(game, str) and not hasattr(game, "initial_state"):
        try:
            game = [[float(v) if isinstance(v, (int, float, np.number)) and not isinstance(v, bool) else v
                     for v in row] for row in game]   # type: ignore[attr-defined]  # a payoff matrix given as nested sequences; a TypeError is caught below
        except TypeError:
            raise ValueError("Give a game by name ('kuhn', 'leduc', 'rps', 'efg:<name>', 'openspiel:<game>'), "
                             "a path to an .efg file, a payoff matrix, a Game or a GameTree.") from None
    spec = catalog.resolve(game, **game_params)   # type: ignore[arg-type]  # the matrix or game is checked by resolve, which raises a ValueError sentence
    if spec.entry.name != "custom":
        return spec.tree(), spec
    # A game no catalog entry knows is solved as its .efg copy when that is the same tree, so its runs reload.
    return catalog.restorable(build_tree(game))   # type: ignore[arg-type]  # a rules object: resolve just recognised its members


def settings_of(game: object, algorithm: object, iterations: object, updates: object, seed: object,
                locks: Locks | Mapping[str, Sequence[float]] | str | None,
                game_params: Mapping[str, Any]) -> tuple[GameTree, RunSettings]:
    """The tree and the one `RunSettings` a Python caller's loose values name (`solve`, `solve_locked`):
    the game resolved once (`resolve_game`), every value checked by `RunSettings` itself."""
    chosen = Locks.parse(locks) if isinstance(locks, str) else Locks.of(locks)
    tree, spec = resolve_game(game, game_params)
    return tree, RunSettings(spec, algorithm, iterations, updates, seed, chosen)   # type: ignore[arg-type]  # RunSettings checks each value and says what is wrong


def solve_tree(tree: GameTree, settings: RunSettings, snapshots: int | str | None = None,
               progress: Callable[[float], object] | None = None) -> Run:
    """Solve `tree` as `settings` say (their algorithm, iterations, updates and seed; their game is what
    the run is recorded as, and the catalog is not asked) and return the recorded `Run`."""
    algorithm, updates, seed = settings.algorithm, settings.updates, settings.seed
    if settings.iterations > MAX_ITERATIONS:
        raise ValueError(f"One solve runs at most {MAX_ITERATIONS:,} iterations; {settings.iterations:,} "
                         "were asked for.")
    schedule = planned_schedule(tree, settings.iterations, snapshots)
    solver = solver_class(algorithm)(tree, updates=updates, seed=seed)
    recorded = _record(solver, schedule, progress)
    average = recorded["average_strategy"]
    # The last iterate too: what predictive methods are studied for (Farina, Kroer and Sandholm 2021).
    # Both profiles of every snapshot are judged in one walk of the tree, which also yields own reach.
    recorded["exploitability"], recorded["current_exploitability"], recorded["reach"] = judge_snapshots(
        tree, average, recorded["current_strategy"])
    final_value = profile_value(tree, average[-1])
    if progress is not None:
        progress(1.0)
    return Run(settings=settings, tree=tree, iterations=schedule, average_strategy_value=float(final_value),
               **recorded)


def planned_schedule(tree: GameTree, iterations: int, snapshots: int | str | None = None) -> np.ndarray:
    """[T] the snapshot iterations of a solve of `tree`, checked against the memory budget before
    anything is allocated (`cfrviz.util.memory`): the default keeps as many as fit, an explicit choice
    that does not fit is a ValueError sentence naming the stride that does."""
    if snapshots is not None:
        snapshot_schedule(1, snapshots)      # cheap check: raises the sentence for a bad value
    plan = memory.solve_plan(tree.num_nodes, tree.num_infosets, tree.max_actions)
    budget = memory.budget_bytes()
    most = plan.most_snapshots(budget)
    title = tree.game.title
    if most < 1:
        raise ValueError(f"Solving {title} needs {memory.shown_bytes(plan.fixed)} before keeping any snapshot, "
                         f"more than this process's {memory.shown_bytes(budget)} budget ({memory.BUDGET_VARIABLE}).")
    if snapshots is None:
        return snapshot_schedule(iterations, None, most=most)
    count = snapshot_count(iterations, snapshots)
    if count > most:
        stride = memory.stride_for(iterations, most)
        raise ValueError(f"Keeping {count:,} snapshots of {title} would take {memory.shown_bytes(plan.total(count))}, "
                         f"more than this process's {memory.shown_bytes(budget)} budget "
                         f"({memory.BUDGET_VARIABLE}); at most {most:,} fit: ask for a stride of {stride:,} or more "
                         f"(one snapshot every {stride:,} iterations), or leave snapshots to the default.")
    return snapshot_schedule(iterations, snapshots)


def solver_seconds(tree: GameTree, algorithm: str, schedule: np.ndarray, updates: str = DEFAULT_UPDATES,
                   seed: int = 0) -> np.ndarray:
    """[T] cumulative solver seconds at each iteration of `schedule`, timed exactly as `solve` times
    them (per chunk, snapshots kept), without judging the snapshots: for timing repeats."""
    schedule = np.asarray(schedule, dtype=np.int64)
    plan = memory.solve_plan(tree.num_nodes, tree.num_infosets, tree.max_actions)
    if plan.total(len(schedule)) > memory.budget_bytes():
        raise ValueError(f"Timing {len(schedule):,} snapshots of {tree.game.title} would take "
                         f"{memory.shown_bytes(plan.total(len(schedule)))}, more than this process's budget; "
                         "time the default schedule (`planned_schedule`).")
    solver = solver_class(algorithm)(tree, updates=updates, seed=seed)
    seconds: np.ndarray = _record(solver, schedule, None)["seconds"]
    return seconds


def _chunks(schedule: np.ndarray, progress: bool) -> list[int]:
    """Indices into schedule that end a chunk: at most ~100 with progress, else ~20 for timing."""
    count = PROGRESS_CALLS if progress else 20
    total = int(schedule[-1])
    targets = np.linspace(total / count, total, count)
    ends = np.unique(np.searchsorted(schedule, targets, side="left").clip(0, len(schedule) - 1))
    return [int(e) for e in ends]


def _record(solver: Solver, schedule: np.ndarray,
            progress: Callable[[float], object] | None) -> dict[str, np.ndarray]:
    tree = solver.tree
    t = len(schedule)
    shape = (t,) + tree.legal.shape
    out = {"cumulative_regret": np.zeros(shape), "current_strategy": np.zeros(shape),
           "average_strategy": np.zeros(shape), "value": np.zeros(t), "expected_value": np.zeros(t),
           "nodes_touched": np.zeros(t, dtype=np.int64)}
    seconds = np.zeros(t)
    outputs = (out["cumulative_regret"], out["current_strategy"], out["average_strategy"], out["value"],
               out["expected_value"], out["nodes_touched"])
    start_index, elapsed, total = 0, 0.0, float(schedule[-1])
    for end_index in _chunks(schedule, progress is not None):
        first = int(solver.iterations)
        clock = time.perf_counter()
        # The compiled families write the snapshots inside their kernels; `Solver.advance` copies them.
        solver.advance(int(schedule[end_index]) - first, schedule, start_index, outputs)
        spent = time.perf_counter() - clock
        # Iterations of one chunk cost about the same; spread the chunk's time over them.
        done = schedule[start_index:end_index + 1]
        seconds[start_index:end_index + 1] = elapsed + spent * (done - first) / max(int(done[-1]) - first, 1)
        elapsed += spent
        start_index = end_index + 1
        if progress is not None and end_index < t - 1:
            progress(float(schedule[end_index]) / total)
    out["seconds"] = seconds
    return out


__all__ = ["MAX_ITERATIONS", "planned_schedule", "resolve_game", "settings_of",
           "solve_tree", "solver_seconds"]
