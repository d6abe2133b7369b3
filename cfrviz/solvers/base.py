"""The contract every solver keeps, and the small regret-matching maths they share.

A solver owns its state arrays over the compiled tree and advances them in
batches: `iterate(n)` runs n iterations in one call, and `advance` runs them while
writing the runner's snapshots, so a compiled kernel can run between snapshots
without returning to Python.
"""
from __future__ import annotations

import weakref
from abc import ABC, abstractmethod
from typing import ClassVar

import numpy as np

from cfrviz.util.vocabulary import ALGORITHMS, DEFAULT_UPDATES, UPDATE_SCHEMES, Algorithm, UpdateScheme
from cfrviz.tree import GameTree


def check_updates(updates: object, allowed: tuple[UpdateScheme, ...] = UPDATE_SCHEMES,
                  title: str = "This solver") -> UpdateScheme:
    """`updates` if it is one of `allowed`; otherwise a ValueError sentence naming the choices."""
    if updates not in allowed:
        if updates in UPDATE_SCHEMES:
            raise ValueError(f"{title} supports only {' or '.join(allowed)} updates; choose {allowed[0]}.")
        raise ValueError(f"Unknown update scheme {updates!r}; choose {' or '.join(repr(str(u)) for u in allowed)}.")
    return UpdateScheme(str(updates))


def regret_matching(cumulative_regret: np.ndarray, legal: np.ndarray) -> np.ndarray:
    """[I, A] strategy proportional to positive regret; uniform over legal actions where none is positive.

    Hart and Mas-Colell (2000); Neller and Lanctot's tutorial uses the same rule.
    """
    positive = np.where(legal, np.maximum(cumulative_regret, 0.0), 0.0)
    total = positive.sum(axis=-1, keepdims=True)
    uniform = legal / legal.sum(axis=-1, keepdims=True)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(total > 0.0, positive / np.where(total > 0.0, total, 1.0), uniform)


def normalize_average(strategy_sum: np.ndarray, legal: np.ndarray) -> np.ndarray:
    """[I, A] average strategy from a strategy sum; uniform where an information set was never reached."""
    total = strategy_sum.sum(axis=-1, keepdims=True)
    uniform = legal / legal.sum(axis=-1, keepdims=True)
    return np.where(total > 0.0, strategy_sum / np.where(total > 0.0, total, 1.0), uniform)


_PARENTS: weakref.WeakKeyDictionary[GameTree, tuple[tuple[np.ndarray, np.ndarray, np.ndarray], ...]] = \
    weakref.WeakKeyDictionary()


def _own_levels(tree: GameTree) -> tuple[tuple[np.ndarray, np.ndarray, np.ndarray], ...]:
    """Information sets by the length of their player's own sequence, each level as (sets [L],
    parent sets [L], parent slots [L]): the parent is the set where the player last acted before
    reaching the set, and its slot that action's index into a flattened [I * A] strategy.

    With perfect recall every history of a set has the same parent (and so, level by level, the
    same whole sequence of own decisions); a set whose histories disagree is refused. Time and
    memory are linear in the number of histories, whatever the depth.
    """
    cached = _PARENTS.get(tree)
    if cached is not None:
        return cached
    width = tree.max_actions
    # last[p, n]: slot of player p's last own decision above node n, -1 before their first.
    last = np.full((2, tree.num_nodes), -1, dtype=np.int64)
    starts = np.searchsorted(tree.depth, np.arange(int(tree.depth[-1]) + 2))
    for d in range(1, len(starts) - 1):      # depth never decreases with the node id
        lo, hi = int(starts[d]), int(starts[d + 1])
        parent = tree.parent[lo:hi]
        last[:, lo:hi] = last[:, parent]
        who = tree.actor[parent]
        for p in (0, 1):
            mine = who == p
            last[p, lo:hi][mine] = tree.infoset[parent[mine]] * width + tree.action_index[lo:hi][mine]
    counts = np.diff(tree.infoset_node_start)
    members = tree.infoset_nodes
    player = np.repeat(tree.infoset_player.astype(np.int64), counts)
    slots = last[player, members]                                  # [sum of set sizes]
    first = slots[tree.infoset_node_start[:-1]]                    # [I]
    differs = np.flatnonzero(slots != np.repeat(first, counts))
    if differs.size:
        i = int(tree.infoset[members[differs[0]]])
        raise ValueError(f"Information set {tree.infosets[i].key!r} of {tree.game.title} is reached by "
                         "different own actions: the game lacks perfect recall, which CFR needs.")
    parent_set = np.where(first >= 0, first // max(width, 1), -1)
    # A parent set is first met above its child set, so breadth-first ids put it first.
    own_depth = np.zeros(tree.num_infosets, dtype=np.int64)
    for i, p in enumerate(parent_set.tolist()):
        if p >= 0:
            own_depth[i] = own_depth[p] + 1
    order = np.argsort(own_depth, kind="stable")
    bounds = np.searchsorted(own_depth[order], np.arange(1, int(own_depth.max(initial=0)) + 2))
    levels = tuple((order[lo:hi], parent_set[order[lo:hi]], first[order[lo:hi]])
                   for lo, hi in zip(bounds[:-1], bounds[1:]))
    for level in levels:
        for array in level:
            array.setflags(write=False)   # shared by every session's thread
    _PARENTS[tree] = levels
    return levels


def own_reach_probability(tree: GameTree, strategy: np.ndarray) -> np.ndarray:
    """[..., I] each information set's own reach probability under strategy [..., I, A].

    The product of the acting player's own action probabilities on the path to the set
    (Zinkevich et al. 2007, pi_i); with perfect recall it is the same for every history of
    the set, and equals the reach of the set's parent (the player's previous set) times the
    probability of the action taken there. Computed level by level in that order, so memory is
    [..., I] whatever the depth.

    >>> from cfrviz.catalog import compile_game
    >>> kuhn = compile_game("kuhn")
    >>> reach = own_reach_probability(kuhn, kuhn.uniform_strategy())
    >>> float(reach[kuhn.infoset_index("Q")]), float(reach[kuhn.infoset_index("Q kb")])
    (1.0, 0.5)
    """
    array = np.asarray(strategy, dtype=np.float64)
    if array.shape[-2:] != tree.legal.shape:
        raise ValueError(f"A strategy for {tree.game.title} has shape [..., {tree.num_infosets}, "
                         f"{tree.max_actions}], not {list(array.shape)}.")
    lead = array.shape[:-2]
    flat = array.reshape(lead + (-1,))
    reach = np.ones(lead + (tree.num_infosets,))
    for sets, parents, slots in _own_levels(tree):
        reach[..., sets] = reach[..., parents] * flat[..., slots]
    return reach


class Solver(ABC):
    """One algorithm's state over a GameTree.

    Arrays, all [I, A] unless noted, zero on illegal actions:
      cumulative_regret   regret summed (and for CFR+/DCFR, clipped or discounted) so far
      strategy_sum        the weighted sum the average strategy is normalised from
      current_strategy    the strategy each player used in the last completed iteration
    Scalars after each `iterate`: `iterations` (completed), `last_value` (player 1's value
    of the last iteration, as the traversal computed it), `value_sum` (sum of those values
    over every iteration, for the running mean of iteration values, as in the classic tutorial code), `nodes_touched` (cumulative).
    """

    #: registry name, e.g. "cfr"; a concrete class sets it and reads the rest from `ALGORITHMS`
    algorithm: ClassVar[Algorithm | None] = None
    name: ClassVar[str] = ""
    #: display name, e.g. "Vanilla CFR" (from the algorithm's record)
    title: ClassVar[str] = ""
    #: True when `seed` changes the result (from the algorithm's record)
    sampling: ClassVar[bool] = False
    #: the update schemes this solver implements (from the algorithm's record)
    update_schemes: ClassVar[tuple[UpdateScheme, ...]] = UPDATE_SCHEMES
    #: True when the strategy of the next iteration is regret matching on `cumulative_regret`
    #: as stored (after any flooring or discounting), plus, when `predictive`, the regret of the
    #: iteration just done. The inspector relies on it to rebuild, from one snapshot, the
    #: strategy player 2 answered under alternating updates. A solver with another rule sets it False.
    next_strategy_from_regret: bool = True
    #: True when the next strategy also counts the last iteration's regret as a prediction
    #: (Farina, Kroer and Sandholm 2021)
    predictive: bool = False

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        if "algorithm" in cls.__dict__ and cls.algorithm is not None:   # metadata is kept once, in the record
            info = ALGORITHMS[cls.algorithm]
            cls.name, cls.title, cls.sampling = info.name, info.title, info.sampling
            cls.update_schemes = info.update_schemes

    def __init__(self, tree: GameTree, *, updates: str = DEFAULT_UPDATES, seed: int = 0) -> None:
        self.tree = tree
        self.updates = check_updates(updates, self.update_schemes, self.title or type(self).__name__)
        self.seed = seed
        shape = tree.legal.shape
        self.cumulative_regret = np.zeros(shape)
        self.strategy_sum = np.zeros(shape)
        self.current_strategy = tree.uniform_strategy()
        self.iterations = 0
        self.last_value = 0.0
        self.value_sum = 0.0
        self.nodes_touched = 0

    @abstractmethod
    def iterate(self, n: int = 1) -> None:
        """Run n more iterations."""

    def advance(self, n: int, schedule: np.ndarray, first_snapshot: int,
                outputs: tuple[np.ndarray, ...]) -> int:
        """Run n more iterations, writing a snapshot at each iteration in schedule[first_snapshot:]
        that they reach; the runner records every solver through this one method.

        outputs are (cumulative_regret [T, I, A], current_strategy [T, I, A],
        average_strategy [T, I, A], value [T], expected_value [T], nodes_touched [T]).
        Returns the index of the next snapshot to write. This version steps `iterate` from one
        snapshot to the next and copies the arrays; the compiled families write inside their kernels.
        """
        regret, current, average, value, expected, nodes = outputs
        target = self.iterations + n
        s = first_snapshot
        while s < len(schedule) and int(schedule[s]) <= target:
            if int(schedule[s]) > self.iterations:
                self.iterate(int(schedule[s]) - self.iterations)
            regret[s] = self.cumulative_regret
            current[s] = self.current_strategy
            average[s] = normalize_average(self.strategy_sum, self.tree.legal)  # uniform where unreached
            value[s] = self.last_value
            expected[s] = self.value_sum / max(self.iterations, 1)
            nodes[s] = self.nodes_touched
            s += 1
        if target > self.iterations:
            self.iterate(target - self.iterations)
        return s

    def average_strategy(self) -> np.ndarray:
        """[I, A] a fresh copy of the average strategy so far."""
        return normalize_average(self.strategy_sum, self.tree.legal)

    def next_strategy(self) -> np.ndarray:
        """[I, A] the strategy the next iteration will play."""
        return regret_matching(self.cumulative_regret, self.tree.legal)
