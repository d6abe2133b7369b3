"""The contract every solver keeps, and the small regret-matching maths they share.

A solver owns its state arrays over the compiled tree and advances them in
batches: `iterate(n)` runs n iterations in one call, so a compiled kernel can
run between snapshots without returning to Python.
"""
from __future__ import annotations

import weakref
from abc import ABC, abstractmethod

import numpy as np

from cfrviz.tree import GameTree

UPDATE_SCHEMES = ("simultaneous", "alternating")


def check_updates(updates: object, allowed: tuple[str, ...] = UPDATE_SCHEMES, title: str = "This solver") -> str:
    """`updates` if it is one of `allowed`; otherwise a ValueError sentence naming the choices."""
    if updates not in allowed:
        if updates in UPDATE_SCHEMES:
            raise ValueError(f"{title} supports only {' or '.join(allowed)} updates; choose {allowed[0]}.")
        raise ValueError(f"Unknown update scheme {updates!r}; choose {' or '.join(repr(u) for u in allowed)}.")
    return str(updates)


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


_SEQUENCES: weakref.WeakKeyDictionary[GameTree, np.ndarray] = weakref.WeakKeyDictionary()


def _own_sequences(tree: GameTree) -> np.ndarray:
    """[I, D] for each information set, its player's own earlier decisions on the way to it, as
    indices into a flattened [I * A + 1] strategy (the last slot holds 1, for padding)."""
    cached = _SEQUENCES.get(tree)
    if cached is not None:
        return cached
    width = tree.max_actions
    # Each node's two sequences: the (set, action) slots each player chose on its path.
    paths: list[tuple[tuple[int, ...], tuple[int, ...]]] = [((), ())]
    for n in range(1, tree.num_nodes):
        parent = int(tree.parent[n])
        mine = paths[parent]
        who = int(tree.actor[parent])
        if who in (0, 1):
            slot = int(tree.infoset[parent]) * width + int(tree.action_index[n])
            mine = (mine[0] + (slot,), mine[1]) if who == 0 else (mine[0], mine[1] + (slot,))
        paths.append(mine)
    sequences = []
    for i in range(tree.num_infosets):
        player = int(tree.infoset_player[i])
        members = {paths[int(n)][player] for n in tree.nodes_of(i)}
        if len(members) != 1:
            raise ValueError(f"Information set {tree.infosets[i].key!r} of {tree.game.title} is reached by "
                             "different own actions: the game lacks perfect recall, which CFR needs.")
        sequences.append(members.pop())
    index = np.full((tree.num_infosets, max((len(q) for q in sequences), default=0) or 1),
                    tree.num_infosets * width, dtype=np.int64)
    for i, sequence in enumerate(sequences):
        index[i, :len(sequence)] = sequence
    index.setflags(write=False)   # shared by every session's thread
    _SEQUENCES[tree] = index
    return index


def own_reach_probability(tree: GameTree, strategy: np.ndarray) -> np.ndarray:
    """[..., I] each information set's own reach probability under strategy [..., I, A].

    The product of the acting player's own action probabilities on the path to the set
    (Zinkevich et al. 2007, pi_i); with perfect recall it is the same for every history of
    the set.

    >>> from cfrviz.tree import compile_game
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
    flat = np.concatenate([array.reshape(lead + (-1,)), np.ones(lead + (1,))], axis=-1)
    reach: np.ndarray = flat[..., _own_sequences(tree)].prod(axis=-1)
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

    #: registry name, e.g. "cfr"
    name: str = ""
    #: display name, e.g. "Vanilla CFR"
    title: str = ""
    #: True when `seed` changes the result
    sampling: bool = False
    #: the update schemes this solver implements
    update_schemes: tuple[str, ...] = UPDATE_SCHEMES
    #: True when the strategy of the next iteration is regret matching on `cumulative_regret`
    #: as stored (after any flooring or discounting), plus, when `predictive`, the regret of the
    #: iteration just done. The inspector relies on it to rebuild, from one snapshot, the
    #: strategy player 2 answered under alternating updates. A solver with another rule sets it False.
    next_strategy_from_regret: bool = True
    #: True when the next strategy also counts the last iteration's regret as a prediction
    #: (Farina, Kroer and Sandholm 2021)
    predictive: bool = False

    def __init__(self, tree: GameTree, *, updates: str = "alternating", seed: int = 0) -> None:
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

    def average_strategy(self) -> np.ndarray:
        """[I, A] a fresh copy of the average strategy so far."""
        return normalize_average(self.strategy_sum, self.tree.legal)

    def next_strategy(self) -> np.ndarray:
        """[I, A] the strategy the next iteration will play."""
        return regret_matching(self.cumulative_regret, self.tree.legal)
