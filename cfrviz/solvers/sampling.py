"""Monte Carlo CFR: chance, external and outcome sampling over a compiled GameTree.

Each solver keeps the `Solver` arrays and advances them with one numba kernel call per
`iterate(n)` (see `_sampling_kernels`). All randomness is drawn from one
`numpy.random.Generator` built from `seed`, so the same seed gives the same run, however
the iterations are split into batches.

An iteration here is what the CFR tutorials and OpenSpiel call one: chance sampling with
simultaneous updates is one traversal for both players; with alternating updates, and
for external and outcome sampling always, it is one traversal (episode) per player.
`last_value` is player 1's value as player 1's traversal estimated it; `nodes_touched`
counts every history a traversal enters, terminals included.
"""
from __future__ import annotations

import numbers
from abc import abstractmethod
from typing import Any

import numpy as np

from cfrviz.util.vocabulary import Player
from cfrviz.solvers import _sampling_kernels as kernels
from cfrviz.solvers._kernel_tree import kernel_tree
from cfrviz.solvers.base import Solver
from cfrviz.util.vocabulary import DEFAULT_UPDATES, Algorithm, UpdateScheme
from cfrviz.tree import GameTree

__all__ = ["ChanceSampling", "ExternalSampling", "OutcomeSampling"]

def _checked_seed(seed: int) -> int:
    if not isinstance(seed, numbers.Integral) or isinstance(seed, bool) or seed < 0:
        raise ValueError(f"The seed must be a whole number 0 or larger, not {seed!r}.")
    return int(seed)


def _checked_count(n: int) -> int:
    if not isinstance(n, numbers.Integral) or isinstance(n, bool) or n < 0:
        raise ValueError(f"The number of iterations must be a whole number 0 or larger, not {n!r}.")
    return int(n)


class _SamplingSolver(Solver):
    """State and batching shared by the Monte Carlo solvers; subclasses call their kernel."""

    def __init__(self, tree: GameTree, *, updates: str = DEFAULT_UPDATES, seed: int = 0) -> None:
        super().__init__(tree, updates=updates, seed=_checked_seed(seed))
        #: the only source of randomness; numba kernels draw from it directly
        self.rng = np.random.Generator(np.random.PCG64(self.seed))
        arrays = kernel_tree(tree)      # unsigned indices, made once per tree
        self._tree_arrays = (arrays.actor, arrays.infoset, arrays.first_child, arrays.num_children,
                             arrays.chance_probability, arrays.payoff, arrays.num_actions)
        shape = tree.legal.shape
        self._no_schedule = np.zeros(0, dtype=np.int64)
        self._no_outputs = (np.zeros((0,) + shape), np.zeros((0,) + shape), np.zeros((0,) + shape),
                            np.zeros(0), np.zeros(0), np.zeros(0, dtype=np.int64))

    def iterate(self, n: int = 1) -> None:
        """Run n more iterations in one compiled call."""
        self.advance(_checked_count(n), self._no_schedule, 0, self._no_outputs)

    def advance(self, n: int, schedule: np.ndarray, first_snapshot: int,
                outputs: tuple[np.ndarray, ...]) -> int:
        """Run n more iterations, writing a snapshot at each iteration in schedule[first_snapshot:].

        outputs are (cumulative_regret [T, I, A], current_strategy [T, I, A],
        average_strategy [T, I, A], value [T], expected_value [T], nodes_touched [T]),
        the runner's compiled-recording contract. Returns the index of the next snapshot
        to write.
        """
        n = _checked_count(n)
        if n == 0:
            return first_snapshot
        last, value_sum, touched, s = self._run_kernel(
            self.iterations, n, float(self.value_sum), int(self.nodes_touched),
            np.asarray(schedule, dtype=np.int64), int(first_snapshot), *outputs)
        self.iterations += n
        self.last_value = float(last)
        self.value_sum = float(value_sum)
        self.nodes_touched = int(touched)
        return int(s)

    @abstractmethod
    def _run_kernel(self, *progress_and_outputs: Any) -> tuple[float, float, int, int]:
        """Call the subclass's kernel with (t0, n, value_sum, nodes_touched, schedule, s0, *outputs)."""


class ChanceSampling(_SamplingSolver):
    """Chance-sampling MCCFR (Zinkevich et al. 2007; Lanctot et al. 2009).

    Each traversal samples one chance outcome, the deal and (in Leduc) one public card
    used on every betting line, then walks every action of both players. Where a history
    passes several chance nodes (locks, which are chance nodes in the restricted game, or
    a game with several draws), each is sampled on its own, so every history is sampled
    with its chance probability (Lanctot et al. 2009). Regrets are
    weighted by the opponent's reach only, the strategy sum by the acting player's own
    reach, as in the seed's worked example.

    Keywords: `updates` "simultaneous" (one traversal updates both players, as the seed
    does) or "alternating" (one traversal per player, player 1 first, each with its own
    sampled deal); `seed`; `deal` and `board`, which force the root chance outcome, by
    label (e.g. "QK": player 1 holds Q, player 2 holds K) or index, and Leduc's public
    card (e.g. "K"), for the walkthrough and tests. `force()` changes or clears them.
    """

    algorithm = Algorithm.CHANCE_SAMPLING

    def __init__(self, tree: GameTree, *, updates: str = DEFAULT_UPDATES, seed: int = 0,
                 deal: str | int | None = None, board: str | None = None) -> None:
        super().__init__(tree, updates=updates, seed=seed)
        self._deal, self._board = -1, -1
        self.force(deal, board)

    @property
    def deal(self) -> str | None:
        """Label of the forced root chance outcome, or None when the deal is sampled."""
        return None if self._deal < 0 else self.tree.edge_label[int(self.tree.first_child[0]) + self._deal]

    @property
    def board(self) -> str | None:
        """Label of the forced public card, or None when it is sampled."""
        return self._board_label

    def force(self, deal: str | int | None = None, board: str | None = None) -> None:
        """Force the next iterations' deal (label like "QK", or index) and public card (label like "K").

        `force()` with no arguments samples both again. A board needs a forced deal, since
        which public cards can come depends on the private cards.
        """
        tree = self.tree
        if deal is None:
            if board is not None:
                raise ValueError("Force a deal before forcing the public card.")
            self._deal, self._board, self._board_label = -1, -1, None
            return
        if int(tree.actor[0]) != Player.CHANCE:
            raise ValueError(f"{tree.game.title} has no deal to force; leave deal unset.")
        deals = [tree.edge_label[c] for c in tree.children(0)]
        if isinstance(deal, str) and deal in deals:
            index = deals.index(deal)
        elif isinstance(deal, numbers.Integral) and not isinstance(deal, bool) and 0 <= deal < len(deals):
            index = int(deal)
        else:
            raise ValueError(f"Unknown deal {deal!r} for {tree.game.title}; choose one of: {', '.join(deals)}.")
        board_index = -1
        if board is not None:
            public = self._public_chance_node(int(tree.first_child[0]) + index)
            if public < 0:
                raise ValueError(f"{tree.game.title} has no public card to force; leave board unset.")
            cards = [tree.edge_label[c] for c in tree.children(public)]
            if board not in cards:
                raise ValueError(f"The public card {board!r} cannot follow the deal {deals[index]}; "
                                 f"choose one of: {', '.join(cards)}.")
            board_index = cards.index(board)
        self._deal, self._board, self._board_label = index, board_index, board

    def _public_chance_node(self, start: int) -> int:
        """The first chance node below `start` (breadth first), or -1 if there is none."""
        frontier = [start]
        while frontier:
            node = frontier.pop(0)
            if int(self.tree.actor[node]) == Player.CHANCE:
                return node
            frontier.extend(self.tree.children(node))
        return -1

    def _run_kernel(self, *progress_and_outputs: Any) -> tuple[float, float, int, int]:
        result: tuple[float, float, int, int] = kernels.chance_sampling_kernel(
            *self._tree_arrays, self.cumulative_regret, self.strategy_sum, self.current_strategy,
            self.updates == UpdateScheme.SIMULTANEOUS, self._deal, self._board, self.rng,
            *progress_and_outputs)
        return result


class ExternalSampling(_SamplingSolver):
    """External-sampling MCCFR (Lanctot, Waugh, Zinkevich and Bowling 2009, "Monte Carlo
    sampling for regret minimization in extensive games", section 3.2).

    Each iteration runs one traversal per player: the traverser's actions are all walked,
    chance and the opponent are sampled once per history. The average strategy uses
    stochastically-weighted ("simple") averaging: the opponent adds its current strategy,
    unweighted, at every node where it was sampled, as OpenSpiel's default does.

    Keywords: `updates` must be "alternating" (traversals are per player by definition);
    `seed`.
    """

    algorithm = Algorithm.EXTERNAL_SAMPLING

    def _run_kernel(self, *progress_and_outputs: Any) -> tuple[float, float, int, int]:
        result: tuple[float, float, int, int] = kernels.external_sampling_kernel(
            *self._tree_arrays, self.cumulative_regret, self.strategy_sum, self.current_strategy,
            self.rng, *progress_and_outputs)
        return result


class OutcomeSampling(_SamplingSolver):
    """Outcome-sampling MCCFR (Lanctot et al. 2009, section 3.1), as OpenSpiel's OutcomeSamplingSolver.

    Each iteration samples one terminal history per player. The updating player explores:
    it samples from `exploration` * uniform + (1 - `exploration`) * its strategy; the
    opponent and chance sample on-policy. Regrets and strategy-sum increments are divided
    by the probability of the sampled history (importance weighting), so they are unbiased.
    Unlike OpenSpiel, regrets and sums start at zero rather than 1e-6.

    Keywords: `updates` must be "alternating" (episodes are per player by definition);
    `seed`; `exploration` (default 0.6, OpenSpiel's value), from 0 to 1.
    """

    algorithm = Algorithm.OUTCOME_SAMPLING

    exploration: float
    _max_depth: int

    def __init__(self, tree: GameTree, *, updates: str = DEFAULT_UPDATES, seed: int = 0,
                 exploration: float = 0.6) -> None:
        if (not isinstance(exploration, numbers.Real) or isinstance(exploration, bool)
                or not 0.0 <= float(exploration) <= 1.0):
            raise ValueError(f"Exploration must be a number from 0 to 1, not {exploration!r}.")
        super().__init__(tree, updates=updates, seed=seed)
        self.exploration = float(exploration)
        self._max_depth = int(tree.depth.max())

    def _run_kernel(self, *progress_and_outputs: Any) -> tuple[float, float, int, int]:
        result: tuple[float, float, int, int] = kernels.outcome_sampling_kernel(
            *self._tree_arrays, self.cumulative_regret, self.strategy_sum, self.current_strategy,
            self.exploration, self._max_depth, self.rng, *progress_and_outputs)
        return result
