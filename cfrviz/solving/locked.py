"""Solving with locks: `solve_locked` solves the restricted game and maps its run back to the game's sets.

The restricted game (`cfrviz.tree.locks.restrict`) is an ordinary tree, so `cfrviz.solving.solve_tree`
runs any algorithm on it unchanged. The run it returns is then written over the original
information sets: a locked set's current and average strategy is its lock at every snapshot and
its regret is zero; every other set keeps the numbers its solver produced. Those regrets are the
restricted game's: a lock is chance there, so a set below a locked set of the same player has its
counterfactual values weighted by the lock's probability (regret matching, and so the strategy, is
unchanged by that factor), and a set that a lock never lets its own player reach gets no regret
and the uniform strategy.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any


from cfrviz import catalog
from cfrviz.catalog import GameSpec
from cfrviz.games import Game
from cfrviz.run import Run, RunSettings, snapshot_schedule
from cfrviz.solving.core import settings_of, solve_tree
from cfrviz.solvers import DEFAULT_UPDATES
from cfrviz.solvers.base import own_reach_probability
from cfrviz.util import memory
from cfrviz.util.vocabulary import Algorithm, UpdateScheme
from cfrviz.tree import GameTree
from cfrviz.tree.locks import Locks, RestrictedTree, restrict

__all__ = ["LockedSolve", "lift_run", "solve_locked", "solve_locked_tree"]


@dataclass(frozen=True, eq=False)
class LockedSolve:
    """A solve with locks: `run` over the game's own information sets (locked sets play the lock),
    `restricted_run` the solve of the restricted game itself, and `restricted` the two trees' mapping.

    `run.exploitability` and `run.current_exploitability` are the restricted game's (a best response
    may not change a locked set); `cfrviz.analysis.locks.full_exploitability` gives the whole game's.
    """

    run: Run
    restricted_run: Run
    restricted: RestrictedTree

    @property
    def locks(self) -> Locks:
        return self.restricted.locks


def lift_run(restricted_run: Run, restricted: RestrictedTree, settings: RunSettings) -> Run:
    """The run of the restricted game written over the original sets (see the module's note).

    `settings` name the original game. Snapshot arrays [T, I', A'] become [T, I, A]; own reach
    [T, I] is recomputed on the original tree, where a lock is its player's own action.
    """
    tree = restricted.original
    current = restricted.to_original(restricted_run.current_strategy)
    return Run(
        settings=settings, tree=tree, iterations=restricted_run.iterations,
        cumulative_regret=restricted.to_original(restricted_run.cumulative_regret, locked_value=0.0),
        current_strategy=current, average_strategy=restricted.to_original(restricted_run.average_strategy),
        reach=own_reach_probability(tree, current), value=restricted_run.value,
        expected_value=restricted_run.expected_value, exploitability=restricted_run.exploitability,
        nodes_touched=restricted_run.nodes_touched, seconds=restricted_run.seconds,
        average_strategy_value=restricted_run.average_strategy_value,
        current_exploitability=restricted_run.current_exploitability)


def _stride_for_both_runs(restricted: RestrictedTree, iterations: int) -> int | None:
    """None when the default snapshots fit the memory budget twice over, else the stride whose snapshots
    do: the restricted game's run and its copy over the original sets (`lift_run`) are held together
    for a moment, and on a large game the default, planned for one run, took a lock's click to 391 MB."""
    tree = restricted.tree
    plan = memory.solve_plan(tree.num_nodes, tree.num_infosets, tree.max_actions)
    budget = memory.budget_bytes()
    original = restricted.original
    # The lifted run's snapshot arrays: three [I, A] strategies or regrets and own reach [I], float64.
    lifted = 8 * (3 * original.num_infosets * original.max_actions + original.num_infosets)
    default = len(snapshot_schedule(iterations, None, most=max(plan.most_snapshots(budget), 1)))
    if plan.total(default) + lifted * default <= budget:
        return None
    most = (budget - plan.fixed) // (plan.per_snapshot + lifted)
    return memory.stride_for(iterations, most) if most >= 1 else None   # None: solve_tree says what does not fit


def solve_locked(game: GameSpec | str | Game | Sequence[Sequence[float]] | GameTree,
                 algorithm: Algorithm | str = Algorithm.CFR, iterations: int = 1000,
                 locks: Locks | Mapping[str, Sequence[float]] | None = None, *,
                 updates: UpdateScheme | str = DEFAULT_UPDATES, seed: int = 0, snapshots: int | str | None = None,
                 progress: Callable[[float], object] | None = None, **game_params: Any) -> LockedSolve:
    """Solve `game` with `locks` fixed ({key: probabilities in the set's action order}) and return the
    run over the game's own sets, with the restricted game's run beside it. Arguments are
    `cfrviz.solving.solve`'s; the game is resolved once, here. ValueError (one sentence) for bad locks
    or regret matching (a locked game is no matrix game).

    >>> solved = solve_locked("kuhn", "cfr+", 2000, {"J": [0.0, 1.0]})
    >>> solved.run.average_strategy[-1, solved.run.tree.infoset_index("J")].tolist()
    [0.0, 1.0]
    >>> round(solved.run.average_strategy_value * 18, 2)     # the locked game's value is -5/18
    -5.0
    """
    tree, settings = settings_of(game, algorithm, iterations, updates, seed, Locks.of(locks), game_params)
    return solve_locked_tree(tree, settings, snapshots, progress)


def solve_locked_tree(tree: GameTree, settings: RunSettings, snapshots: int | str | None = None,
                      progress: Callable[[float], object] | None = None) -> LockedSolve:
    """`settings` (with their locks) solved on `tree`, their game's tree: the restricted game's run
    and its copy over the game's own sets (see the module's note)."""
    restricted = restrict(tree, settings.locks)
    if settings.algorithm == Algorithm.REGRET_MATCHING:
        # A lock puts chance above the other player: the restricted game is no matrix game any more.
        raise ValueError(f"Regret matching ('rm') solves matrix games only, and {tree.game.title} with locks is "
                         "not one; pick a CFR algorithm.")
    # The restricted game is solved as a game of its own (its run is not rebuilt from settings, so it
    # is named a custom game instead of being written out as .efg and read back).
    restricted_spec = GameSpec(catalog.entry("custom"), (("title", f"{tree.game.title} with locks"),))
    if snapshots is None:
        snapshots = _stride_for_both_runs(restricted, settings.iterations)
    restricted_run = solve_tree(restricted.tree, replace(settings, spec=restricted_spec, locks=Locks()),
                                snapshots, progress)
    return LockedSolve(lift_run(restricted_run, restricted, settings), restricted_run, restricted)
