"""The two ways into a solve: `solve`, a Python caller's loose values (checked once, as one
`RunSettings`), and `solve_settings`, a settings value the app or the CLI already holds. Both go to
`core.solve_tree`, or to `locked.solve_locked_tree` when the settings lock information sets."""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from cfrviz.catalog import GameSpec
from cfrviz.games import Game
from cfrviz.run import Run, RunSettings
from cfrviz.solvers import DEFAULT_UPDATES
from cfrviz.solving.core import settings_of, solve_tree
from cfrviz.solving.locked import solve_locked_tree
from cfrviz.tree import GameTree
from cfrviz.tree.locks import Locks
from cfrviz.util.vocabulary import Algorithm, UpdateScheme


def solve(game: GameSpec | str | Game | Sequence[Sequence[float]] | GameTree, algorithm: Algorithm | str = Algorithm.CFR,
          iterations: int = 1000, updates: UpdateScheme | str = DEFAULT_UPDATES, seed: int = 0,
          snapshots: int | str | None = None, progress: Callable[[float], object] | None = None,
          locks: Locks | Mapping[str, Sequence[float]] | str | None = None, **game_params: Any) -> Run:
    """Solve `game` with `algorithm` for `iterations` iterations and return the recorded `Run`.

    game: a `GameSpec` (`cfrviz.catalog.get("kuhn", cards=5)`, `lookup("kuhn5")`: used as it is, the
    catalog is not asked again), a catalog name ("kuhn" with cards=N, "leduc" with suits=True, "rps",
    "matrix" with payoffs=..., row_names=..., column_names=...), a link value ("kuhn5",
    "efg:<bundled name>", "openspiel:<game string>"), a path to a Gambit .efg file, a payoff matrix
    [R, C], any object with the `cfrviz.games.Game` members, or a compiled GameTree. A game no catalog
    entry knows is recorded as its .efg copy (checked to compile to the same tree), so its run saves
    and reloads. game_params: the game's parameters (cards=N, suits=True, payoffs=...).
    algorithm: an `Algorithm` ("cfr", "cfr+", "lcfr", "dcfr", "pcfr+", "dcfr+", "pdcfr+", "chance",
    "external", "outcome", "rm"), or the name of an update rule registered in this process
    (`cfrviz.register_minimizer`, `cfrviz.solvers.custom`). updates: an `UpdateScheme`, alternating by default. seed: the
    sampling algorithms' random generator. snapshots: None (every iteration up to 1,000, then
    log-spaced, at most 2,000, fewer where the memory budget holds fewer: `cfrviz.util.memory`),
    "all", or a stride; a choice that does not fit the budget is a ValueError saying what does.
    progress: called with the fraction done, at most about 100 times.
    locks: information sets to fix, {key: probabilities in the set's action order} or text
    "KEY=p1,p2;..." (`cfrviz.tree.locks`): the restricted game is solved and its run written back
    over the game's sets, locked sets playing the lock (`cfrviz.solving.locked`).

    The values become one `RunSettings` (checked there, once) and are solved as `solve_settings`
    solves them. The Run holds [T, I, A] snapshot arrays. Bad input is a ValueError sentence.

    >>> run = solve("kuhn", "cfr+", iterations=2000)
    >>> abs(run.average_strategy_value - (-1 / 18)) < 1e-3
    True
    """
    tree, settings = settings_of(game, algorithm, iterations, updates, seed, locks, game_params)
    return _solved(tree, settings, snapshots, progress)



def solve_settings(settings: RunSettings, snapshots: int | str | None = None,
                   progress: Callable[[float], object] | None = None) -> Run:
    """The run `settings` name, solved on their game's tree (`GameSpec.tree()`, the catalog's
    per-process tree: nothing is resolved again), with their locks if any. The app and the CLI
    hand their settings here whole."""
    return _solved(settings.spec.tree(), settings, snapshots, progress)


def _solved(tree: GameTree, settings: RunSettings, snapshots: int | str | None,
            progress: Callable[[float], object] | None) -> Run:
    if progress is not None and not callable(progress):
        raise ValueError("progress must be a function taking the fraction done, or None.")
    if settings.locks:
        return solve_locked_tree(tree, settings, snapshots, progress).run
    return solve_tree(tree, settings, snapshots, progress)
