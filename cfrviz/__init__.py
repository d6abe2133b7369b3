"""cfrviz: counterfactual regret minimization you can see.

    >>> import cfrviz
    >>> run = cfrviz.solve("kuhn", "cfr", iterations=1000)   # doctest: +SKIP
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from cfrviz.catalog import GameSpec, compile_game, load_game
from cfrviz.util.vocabulary import DEFAULT_UPDATES, Algorithm, UpdateScheme
from cfrviz.tree import GameTree, build_tree

if TYPE_CHECKING:
    from cfrviz.games import Game
    from cfrviz.run import Run

__all__ = ["Algorithm", "GameSpec", "GameTree", "UpdateScheme", "build_tree", "compile_game", "load_game", "solve"]


def solve(game: GameSpec | str | Game | Sequence[Sequence[float]] | GameTree, algorithm: Algorithm | str = Algorithm.CFR,
          iterations: int = 1000, updates: UpdateScheme | str = DEFAULT_UPDATES, seed: int = 0,
          snapshots: int | str | None = None, progress: Callable[[float], object] | None = None,
          **game_params: Any) -> Run:
    """Solve `game` with `algorithm` for `iterations` iterations and return the recorded `Run`.

    game: a `GameSpec` (`cfrviz.catalog.get("kuhn", cards=5)`, `lookup("kuhn5")`: one value naming
    the game, which the run's settings then carry), a catalog name ("kuhn", "leduc", "rps", "matrix"), a link value ("kuhn5",
    "efg:<name>", "openspiel:<game string>"), a path to a Gambit .efg file, a payoff matrix
    [R, C], a `cfrviz.games.Game` or a compiled GameTree. algorithm: an `Algorithm` value
    ("cfr", "cfr+", "lcfr", "dcfr", "pcfr+", "dcfr+", "pdcfr+", "chance", "external", "outcome",
    "rm"). updates: an `UpdateScheme` value, alternating by default. seed: the sampling
    algorithms' random generator. snapshots: None (automatic), "all" or a stride. progress:
    called with the fraction done. game_params: the game's parameters (cards=N, suits=True,
    payoffs=...). The Run holds [T, I, A] snapshot arrays; see `cfrviz.runner.solve` for the
    details (imported on first use, so `import cfrviz` stays light). Bad input is a ValueError.
    """
    from cfrviz.runner import solve as _solve

    return _solve(game, algorithm, iterations, updates, seed, snapshots, progress, **game_params)
