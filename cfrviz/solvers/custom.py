"""Your own update rule: a regret minimizer written in plain NumPy, solved like a built-in algorithm.

CFR splits into a traversal, which computes each information set's instantaneous counterfactual
regret r^t(I, a) and its player's own reach pi_i^t(I) under the strategy played (Zinkevich et al.
2007), and a regret minimizer at every information set, which turns those into the cumulative
regret, the strategy sum and the next strategy. cfrviz does the traversal (full width, over the
compiled tree, in NumPy); a `RegretMinimizer` subclass does the rest:

    import numpy as np
    import cfrviz

    class MyCFRPlus(cfrviz.RegretMinimizer):
        title = "My CFR+"

        def update(self, t, sets, regret, own_reach, strategy):
            self.strategy_sum[sets] += t * own_reach[:, None] * strategy          # linear averaging
            self.cumulative_regret[sets] = np.maximum(self.cumulative_regret[sets] + regret, 0.0)

    cfrviz.register_minimizer("my-cfr+", MyCFRPlus)
    run = cfrviz.solve("leduc", "my-cfr+", iterations=1000)

The name then works wherever an algorithm's name does: `cfrviz.solve`, `RunSettings`, the CLI, the
app's menus and links, compare, saved runs. The runner records snapshots, exploitability, own reach
and the inspector's numbers exactly as for a built-in. Nothing is compiled: an iteration costs tens
of NumPy calls per depth of the tree, some times slower than the numba kernels
(`scripts/custom_rule_speed.py` measures it).

The contract, per pass (one per player under alternating updates, player 1 first, the second
answering the first's updated strategy; one for both players under simultaneous updates):
`update(t, sets, regret, own_reach, strategy)` gets the updated player's information sets `sets`
[S], their instantaneous regret [S, A] (summed over each set's histories, weighted by the
opponent's and chance's reach; zero on illegal actions), their own reach [S] (summed over the
histories, as the classic tutorial code weights the average) and the strategy they played [S, A].
It updates `cumulative_regret` and `strategy_sum` [I, A] (rows `sets`; zero on illegal actions).
`next_strategy(sets)` then gives the strategy those sets play next, [S, A]: regret matching on
`cumulative_regret` unless overridden (for a predictive rule, say). The average strategy shown
everywhere is `strategy_sum` normalised.

Loading and trust: `register_minimizer` registers a class in this process. For the app, the CLI and
worker processes, which are other processes, name the classes in the environment variable
CFRVIZ_MINIMIZERS ("module:Class", comma-separated; each class sets `name`): `import cfrviz`
imports those modules and registers the classes (`load_from_environment`). Importing a module runs
its code with this process's rights, as PYTHONPATH or `python -m` would, so the variable is for
code you trust, set by whoever runs the process, never from a visitor's input. Nothing is ever
unpickled: a saved run records only the rule's name, and loading it needs the rule registered in
the loading process (otherwise a ValueError sentence says so).
"""
from __future__ import annotations

import os
import warnings
import weakref
from dataclasses import dataclass
from importlib import import_module
from typing import Any, ClassVar

import numpy as np

from cfrviz.solvers._kernel_tree import UNIFORM_CHANCE, kernel_tree
from cfrviz.solvers.base import Solver, regret_matching
from cfrviz.tree import GameTree
from cfrviz.util import vocabulary
from cfrviz.util.vocabulary import (DEFAULT_UPDATES, MINIMIZERS_VARIABLE, UPDATE_SCHEMES, Algorithm, Player,
                                    UpdateScheme)

__all__ = ["MinimizerSolver", "RegretMinimizer", "load_from_environment", "load_minimizers", "register_minimizer",
           "unregister_minimizer"]

#: How far a next strategy's row may stray from summing to 1.
_SUM_TOLERANCE = 1e-9


class RegretMinimizer:
    """An update rule at every information set (see the module's note for the contract).

    Arrays, all [I, A] (I information sets, A the most actions of any), zero on illegal actions:
      legal               which actions each set has (read-only)
      cumulative_regret   what the rule keeps as regret; the snapshots and the inspector show it
      strategy_sum        the weighted sum the average strategy is normalised from
    Subclasses implement `update` and may override `next_strategy`; `name` (for CFRVIZ_MINIMIZERS)
    and `title` (what menus show) are class attributes; `update_schemes` the schemes the rule
    supports (both by default).
    """

    name: ClassVar[str] = ""
    title: ClassVar[str] = ""
    update_schemes: ClassVar[tuple[UpdateScheme, ...]] = UPDATE_SCHEMES
    #: True: the pass adds each history's regret term to `cumulative_regret` itself, one at a time
    #: in the compiled kernels' order (CFR, CFR+ and DCFR add regret so), before `update`, which then
    #: must not add `regret` again. The same sums up to rounding; with it, the kernels' rounding, which
    #: matters over many iterations: CFR+ on Leduc amplifies a last-bit difference to 1e-4 in 1,000.
    regret_in_pass: ClassVar[bool] = False

    def __init__(self, legal: np.ndarray) -> None:
        self.legal = legal
        self.cumulative_regret = np.zeros(legal.shape)
        self.strategy_sum = np.zeros(legal.shape)

    def update(self, t: int, sets: np.ndarray, regret: np.ndarray, own_reach: np.ndarray,
               strategy: np.ndarray) -> None:
        """Fold iteration t's instantaneous regret [S, A] and the strategy played [S, A], weighted by
        own reach [S], into `cumulative_regret` and `strategy_sum` at rows `sets` [S]."""
        raise NotImplementedError(f"{type(self).__name__} must define update(t, sets, regret, own_reach, strategy).")

    def next_strategy(self, sets: np.ndarray) -> np.ndarray:
        """[S, A] the strategy the sets `sets` play next: regret matching on `cumulative_regret`
        (Hart and Mas-Colell 2000), uniform where no regret is positive."""
        return regret_matching(self.cumulative_regret[sets], self.legal[sets])


@dataclass(frozen=True, eq=False)
class _Passes:
    """A tree's arrays as the NumPy traversal reads them, made once per tree.

    depth_bounds [D + 1]: where each depth begins among the node ids (depth never decreases with
    the id). For every node but the root: column [N] (which reach the edge into it multiplies: the
    parent's actor, chance as 2) and slot [N] (infoset * A + action at a decision parent, else 0).
    The decision, chance and equally-likely chance nodes of each depth (`_kernel_tree.UNIFORM_CHANCE`).
    Decision nodes by player (nodes[p]) and their edges (edge_child[p], edge_parent[p],
    edge_slot[p]), p = 0, 1, or 2 for both players; sets[p] the information sets each pass updates.
    """

    depth_bounds: np.ndarray
    chance_edge: np.ndarray
    column: np.ndarray
    slot: np.ndarray
    decision_by_depth: tuple[np.ndarray, ...]
    chance_by_depth: tuple[np.ndarray, ...]
    uniform_by_depth: tuple[np.ndarray, ...]
    nodes: tuple[np.ndarray, np.ndarray, np.ndarray]
    edge_child: tuple[np.ndarray, np.ndarray, np.ndarray]
    edge_parent: tuple[np.ndarray, np.ndarray, np.ndarray]
    edge_slot: tuple[np.ndarray, np.ndarray, np.ndarray]
    sets: tuple[np.ndarray, np.ndarray, np.ndarray]


_PASSES: weakref.WeakKeyDictionary[GameTree, _Passes] = weakref.WeakKeyDictionary()


def _passes(tree: GameTree) -> _Passes:
    cached = _PASSES.get(tree)
    if cached is not None:
        return cached
    width = tree.max_actions
    depth_bounds = np.searchsorted(tree.depth, np.arange(int(tree.depth[-1]) + 2))
    parent = np.maximum(tree.parent, 0)
    above = tree.actor[parent].astype(np.int64)
    chance_edge = above == Player.CHANCE
    chance_edge[0] = True                          # the root's "edge" multiplies nothing (probability 1)
    column = np.where(chance_edge, 2, above)
    slot = np.where(chance_edge, 0, np.maximum(tree.infoset[parent], 0) * width + tree.action_index)
    decision = (tree.actor == Player.FIRST) | (tree.actor == Player.SECOND)
    uniform = kernel_tree(tree).kind == UNIFORM_CHANCE
    chance = (tree.actor == Player.CHANCE) & ~uniform

    def by_depth(mask: np.ndarray) -> tuple[np.ndarray, ...]:
        return tuple(np.flatnonzero(mask[lo:hi]) + lo for lo, hi in zip(depth_bounds[:-1], depth_bounds[1:]))

    children = np.arange(1, tree.num_nodes)
    nodes, edge_child, edge_parent, edge_slot, sets = [], [], [], [], []
    for who in ((Player.FIRST,), (Player.SECOND,), (Player.FIRST, Player.SECOND)):
        mine = np.isin(tree.actor, who)
        nodes.append(np.flatnonzero(mine))
        child = children[mine[tree.parent[children]]]
        # The kernels' order: deepest parents first, ids ascending within a depth.
        child = child[np.lexsort((child, -tree.depth[tree.parent[child]]))]
        edge_child.append(child)
        edge_parent.append(tree.parent[child])
        edge_slot.append(slot[child])
        sets.append(np.flatnonzero(np.isin(tree.infoset_player, who)))
    def three(arrays: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        return arrays[0], arrays[1], arrays[2]

    made = _Passes(depth_bounds, chance_edge, column, slot, by_depth(decision), by_depth(chance), by_depth(uniform),
                   three(nodes), three(edge_child), three(edge_parent), three(edge_slot), three(sets))
    _PASSES[tree] = made
    return made


class MinimizerSolver(Solver):
    """Full-width CFR whose per-set updates are a `RegretMinimizer`'s; `register_minimizer` makes
    one subclass per rule (with `minimizer` set), which the runner drives like any `Solver`."""

    minimizer: ClassVar[type[RegretMinimizer]] = RegretMinimizer
    #: regret matching on the stored regret is the next strategy unless the rule overrides it
    next_strategy_from_regret = True

    def __init__(self, tree: GameTree, *, updates: str = DEFAULT_UPDATES, seed: int = 0) -> None:
        super().__init__(tree, updates=updates, seed=seed)
        self.rule = self.minimizer(tree.legal)
        self._sync()
        self._passes = _passes(tree)
        self._next = self._checked_next(np.arange(tree.num_infosets), 1)
        self.current_strategy = self._next.copy()
        self._reach = np.ones((tree.num_nodes, 3))
        self._value = np.array(tree.payoff, dtype=np.float64)

    def iterate(self, n: int = 1) -> None:
        """Run n more iterations (one pass per player, or one for both)."""
        players = (0, 1) if self.updates == UpdateScheme.ALTERNATING else (2,)
        for t in range(self.iterations + 1, self.iterations + int(n) + 1):
            for player in players:
                regret, own_reach, root = self._pass(player)
                if player != 1:
                    self.last_value = root
                sets = self._passes.sets[player]
                played = self._next[sets]
                self.current_strategy[sets] = played
                self.rule.update(t, sets, regret[sets], own_reach[sets], played.copy())
                self._sync()
                self._next[sets] = self._checked_next(sets, t)
                self.nodes_touched += self.tree.num_nodes
            self.value_sum += self.last_value
            self.iterations = t

    def next_strategy(self) -> np.ndarray:
        """[I, A] the strategy the next iteration will play."""
        return self._next.copy()

    def _pass(self, player: int) -> tuple[np.ndarray, np.ndarray, float]:
        """One traversal under the strategy to play: (instantaneous regret [I, A] of `player`'s sets
        (2: both players'), their own reach summed over histories [I], player 1's root value)."""
        tree, passes, reach, value = self.tree, self._passes, self._reach, self._value
        probability = np.where(passes.chance_edge, tree.chance_probability, self._next.reshape(-1)[passes.slot])
        probability[0] = 1.0
        rows = np.arange(tree.num_nodes)
        bounds = passes.depth_bounds
        for lo, hi in zip(bounds[1:-1], bounds[2:]):          # reach: parents before children
            reach[lo:hi] = reach[tree.parent[lo:hi]]
            reach[rows[lo:hi], passes.column[lo:hi]] *= probability[lo:hi]
        for d in range(len(bounds) - 2, 0, -1):               # values: children before parents
            lo, hi, up = int(bounds[d]), int(bounds[d + 1]), int(bounds[d - 1])
            # Summed in child order from 0.0, as the kernels sum: the same bits, so a regret the
            # kernel finds exactly 0 is 0 here too (regret matching+ is not continuous there).
            sums = np.bincount(tree.parent[lo:hi] - up, weights=probability[lo:hi] * value[lo:hi], minlength=lo - up)
            inner = passes.decision_by_depth[d - 1]
            value[inner] = sums[inner - up]
            chance = passes.chance_by_depth[d - 1]
            value[chance] = sums[chance - up]
            uniform = passes.uniform_by_depth[d - 1]
            if uniform.size:        # equally likely outcomes: a plain average, one division (as the kernels)
                plain = np.bincount(tree.parent[lo:hi] - up, weights=value[lo:hi], minlength=lo - up)
                value[uniform] = plain[uniform - up] / tree.num_children[uniform]
        child, parent = passes.edge_child[player], passes.edge_parent[player]
        acting = tree.actor[parent]
        # Counterfactual reach: the opponent's times chance's; player 2's values are the negation.
        weight = reach[parent, 1 - acting] * reach[parent, 2] * np.where(acting == 0, 1.0, -1.0)
        terms = weight * (value[child] - value[parent])
        regret = np.bincount(passes.edge_slot[player], weights=terms,
                             minlength=tree.num_infosets * tree.max_actions).reshape(tree.legal.shape)
        if self.rule.regret_in_pass:     # one history at a time, in the kernels' order: their rounding
            slot = passes.edge_slot[player]
            np.add.at(self.rule.cumulative_regret, (slot // tree.max_actions, slot % tree.max_actions), terms)
        nodes = passes.nodes[player]
        own = np.bincount(tree.infoset[nodes], weights=reach[nodes, tree.actor[nodes]], minlength=tree.num_infosets)
        return regret, own, float(value[0])

    def _sync(self) -> None:
        """Point the solver's arrays at the rule's (a rule may assign new arrays), checking their shape."""
        for field in ("cumulative_regret", "strategy_sum"):
            array = getattr(self.rule, field)
            if not isinstance(array, np.ndarray) or array.shape != self.tree.legal.shape:
                raise ValueError(f"The update rule {self.title!r} must keep {field} as a [{self.tree.num_infosets}, "
                                 f"{self.tree.max_actions}] array, not {getattr(array, 'shape', type(array).__name__)}.")
            setattr(self, field, array)

    def _checked_next(self, sets: np.ndarray, t: int) -> np.ndarray:
        """The rule's next strategy [S, A] for `sets`, checked: a distribution over each set's legal actions."""
        strategy = np.asarray(self.rule.next_strategy(sets), dtype=np.float64)
        legal = self.tree.legal[sets]
        if strategy.shape != legal.shape:
            raise ValueError(f"The update rule {self.title!r} gave a next strategy of shape {list(strategy.shape)} "
                             f"for {len(sets)} information sets; it must be {list(legal.shape)}.")
        bad = ~np.isfinite(strategy).all(axis=1) | (strategy < 0.0).any(axis=1) | (strategy[~legal] != 0.0).any() \
            | (np.abs(strategy.sum(axis=1) - 1.0) > _SUM_TOLERANCE)
        if bad.any():
            key = self.tree.infosets[int(sets[int(np.argmax(bad))])].key
            raise ValueError(f"The update rule {self.title!r} gave, at iteration {t}, a next strategy at information set "
                             f"{key!r} that is not a probability distribution over its legal actions.")
        return strategy


_SOLVERS: dict[str, type[MinimizerSolver]] = {}


def register_minimizer(name: str, minimizer: type[RegretMinimizer], *, title: str | None = None) -> Algorithm:
    """Register the update rule `minimizer` under `name` in this process (replacing a rule of that
    name) and return its `Algorithm`; `title` is what menus show (the class's `title`, else `name`).

    name: 1 to 40 lower-case letters, digits and + . _ -, not a built-in algorithm's name.
    ValueError with one sentence for a bad name or class.
    """
    if not isinstance(minimizer, type) or not issubclass(minimizer, RegretMinimizer):
        raise ValueError(f"An update rule must be a subclass of cfrviz.RegretMinimizer, not {minimizer!r}.")
    if minimizer.update is RegretMinimizer.update:
        raise ValueError(f"{minimizer.__name__} must define update(t, sets, regret, own_reach, strategy).")
    schemes = tuple(minimizer.update_schemes)
    if not schemes or any(s not in UPDATE_SCHEMES for s in schemes):
        raise ValueError(f"{minimizer.__name__}.update_schemes must list 'simultaneous' and/or 'alternating'.")
    shown = title or minimizer.title or name
    info = vocabulary.add_custom_algorithm(name, shown, f"{minimizer.__module__}:{minimizer.__qualname__}",
                                           tuple(UpdateScheme(s) for s in schemes))
    namespace: dict[str, Any] = {
        "minimizer": minimizer, "algorithm": info.name, "__module__": __name__,
        "__doc__": f"{shown}: full-width CFR with the update rule {minimizer.__qualname__}.",
        "next_strategy_from_regret": minimizer.next_strategy is RegretMinimizer.next_strategy}
    _SOLVERS[name] = type(f"{minimizer.__name__}Solver", (MinimizerSolver,), namespace)
    return info.name


def unregister_minimizer(name: str) -> None:
    """Forget the update rule `name` in this process (no error when it is not registered)."""
    _SOLVERS.pop(name, None)
    vocabulary.remove_custom_algorithm(name)


def solver_for(name: str) -> type[MinimizerSolver]:
    """The solver class of the registered update rule `name`; ValueError when there is none."""
    found = _SOLVERS.get(name)
    if found is None:
        raise ValueError(vocabulary.unknown_algorithm(name))
    return found


def load_minimizers(entries: str) -> list[Algorithm]:
    """Import and register the update rules "module:Class, module:Class" names (each class sets
    `name`); returns their algorithms. Imports run the modules' code: see the module's note on trust.
    ValueError with one sentence for the first entry that does not load."""
    loaded = []
    for entry in (e.strip() for e in entries.split(",")):
        if not entry:
            continue
        module, _, attribute = entry.partition(":")
        if not module or not attribute:
            raise ValueError(f"{entry!r} must be module:Class, e.g. cfrviz.solvers.examples:NumpyCFRPlus.")
        try:
            found = getattr(import_module(module), attribute)
        except ImportError as error:
            raise ValueError(f"Cannot import {module!r} for {entry!r}: {error}.") from None
        except AttributeError:
            raise ValueError(f"Module {module!r} has no {attribute!r}.") from None
        if not isinstance(found, type) or not issubclass(found, RegretMinimizer):
            raise ValueError(f"{entry!r} is not a subclass of cfrviz.RegretMinimizer.")
        if not found.name:
            raise ValueError(f"{entry!r} sets no `name`, the algorithm name it is registered under.")
        loaded.append(register_minimizer(found.name, found))
    return loaded


def load_from_environment() -> list[Algorithm]:
    """`load_minimizers` on CFRVIZ_MINIMIZERS, called by `import cfrviz`. An entry that does not load
    is a warning, not an error (the package still imports); using its name then says why."""
    loaded = []
    for entry in filter(None, (e.strip() for e in os.environ.get(MINIMIZERS_VARIABLE, "").split(","))):
        try:
            loaded += load_minimizers(entry)
            vocabulary.LOAD_ERRORS.pop(entry, None)
        except ValueError as error:
            vocabulary.LOAD_ERRORS[entry] = str(error)
            warnings.warn(f"{MINIMIZERS_VARIABLE}: {error}", RuntimeWarning, stacklevel=2)
    return loaded
