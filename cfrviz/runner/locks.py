"""Solving with locks: `solve_locked` solves the restricted game and maps its run back to the game's sets.

The restricted game (`cfrviz.tree.locks.restrict`) is an ordinary tree, so `cfrviz.runner.solve_tree`
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
from dataclasses import dataclass
from typing import Any

import numpy as np

from cfrviz import catalog
from cfrviz.catalog import GameSpec
from cfrviz.games import CHANCE, Game
from cfrviz.run import Run, RunSettings
from cfrviz.runner import checked_choices, resolve_game, solve_tree
from cfrviz.solvers import ALGORITHMS, DEFAULT_UPDATES
from cfrviz.solvers.base import own_reach_probability
from cfrviz.util.vocabulary import Algorithm, UpdateScheme
from cfrviz.tree import GameTree
from cfrviz.tree.locks import Locks, RestrictedTree, restrict

__all__ = ["LockedSolve", "chance_sampling_applies", "lift_run", "solve_locked"]


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


def chance_sampling_applies(tree: GameTree) -> bool:
    """Whether chance-sampling MCCFR samples `tree` correctly.

    Its kernel samples the deal at the root, then draws ONE outcome index at the first later chance
    node and reuses it at every later chance node of the traversal (Leduc's public card, the same on
    every betting line). That is right only when, below each root outcome, every later chance node
    has the same outcome probabilities and no history passes two of them.
    """
    n = tree.num_nodes
    branch = np.zeros(n, dtype=np.int64)        # the root outcome above each node (0 if the root is no chance node)
    chance_above = np.zeros(n, dtype=bool)      # a later chance node lies above
    seen: dict[int, tuple[float, ...]] = {}
    root_is_chance = int(tree.actor[0]) == CHANCE
    for node in range(1, n):
        parent = int(tree.parent[node])
        branch[node] = node if parent == 0 and root_is_chance else branch[parent]
        chance_above[node] = chance_above[parent] or (parent != 0 and int(tree.actor[parent]) == CHANCE)
        if int(tree.actor[node]) != CHANCE:
            continue
        if chance_above[node]:
            return False
        probabilities = tuple(float(tree.chance_probability[c]) for c in tree.children(node))
        if seen.setdefault(int(branch[node]), probabilities) != probabilities:
            return False
    return True


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


def solve_locked(game: GameSpec | str | Game | Sequence[Sequence[float]] | GameTree,
                 algorithm: Algorithm | str = Algorithm.CFR, iterations: int = 1000,
                 locks: Locks | Mapping[str, Sequence[float]] | None = None, *,
                 updates: UpdateScheme | str = DEFAULT_UPDATES, seed: int = 0, snapshots: int | str | None = None,
                 progress: Callable[[float], object] | None = None, **game_params: Any) -> LockedSolve:
    """Solve `game` with `locks` fixed ({key: probabilities in the set's action order}) and return the
    run over the game's own sets, with the restricted game's run beside it. Arguments are
    `cfrviz.runner.solve`'s; the game is resolved once, here. ValueError (one sentence) for bad locks
    or an algorithm that cannot take them.

    >>> solved = solve_locked("kuhn", "cfr+", 2000, {"J": [0.0, 1.0]})
    >>> solved.run.average_strategy[-1, solved.run.tree.infoset_index("J")].tolist()
    [0.0, 1.0]
    >>> round(solved.run.average_strategy_value * 18, 2)     # the locked game's value is -5/18
    -5.0
    """
    name, iterations, chosen_updates, seed = checked_choices(algorithm, iterations, updates, seed)
    tree, spec = resolve_game(game, game_params)
    restricted = restrict(tree, locks)
    if name == Algorithm.REGRET_MATCHING:
        # A lock puts chance above the other player: the restricted game is no matrix game any more.
        raise ValueError(f"Regret matching ('rm') solves matrix games only, and {tree.game.title} with locks is "
                         "not one; pick a CFR algorithm.")
    if name == Algorithm.CHANCE_SAMPLING and not chance_sampling_applies(restricted.tree):
        raise ValueError(f"{ALGORITHMS[name].title} reuses one sampled outcome at every chance node after the "
                         "deal, so it cannot solve a game where a hand passes a lock and another chance node; "
                         "use external or outcome sampling or a deterministic algorithm.")
    # The restricted game is solved as a game of its own (its run is not rebuilt from settings, so it
    # is named a custom game instead of being written out as .efg and read back).
    restricted_spec = GameSpec(catalog.entry("custom"), (("title", f"{tree.game.title} with locks"),))
    restricted_run = solve_tree(restricted.tree, RunSettings(restricted_spec, name, iterations, chosen_updates, seed),
                                snapshots, progress)
    solved = restricted_run.settings
    settings = RunSettings(spec, solved.algorithm, solved.iterations, solved.updates, solved.seed,
                           locks=restricted.locks)
    return LockedSolve(lift_run(restricted_run, restricted, settings), restricted_run, restricted)
