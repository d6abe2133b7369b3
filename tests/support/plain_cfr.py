"""The test oracle: a plain recursive CFR in pure Python, written independently of the kernels.

It walks game states (not tree arrays) with a dict of information sets keyed by string, as the
classic tutorial code does; tests compare the compiled kernels with it, and `benchmarks/bench.py`
times it as the baseline a reader would write first.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from cfrviz.util.vocabulary import Player
from cfrviz.tree import GameTree


# ------------------------------------------------------------------------------------------
# A plain recursive CFR in pure Python, in the style of the classic tutorial code (dict of information sets
# keyed by string, recursion over game states), as the baseline a reader would write first.


class _PlainInformationSet:
    __slots__ = ("regret", "strategy_sum", "strategy")

    def __init__(self, n: int) -> None:
        self.regret = [0.0] * n
        self.strategy_sum = [0.0] * n
        self.strategy = [1.0 / n] * n


class PlainPythonCFR:
    """Recursive alternating CFR (or CFR+ with `plus=True`) over cfrviz's game states.

    Zinkevich et al. 2007; RM+ and linear averaging as OpenSpiel's CFRPlusSolver (Tammelin 2014).
    """

    def __init__(self, game: Any, plus: bool = False) -> None:
        self.root = game.initial_state()
        self.plus = plus
        self.infosets: dict[str, _PlainInformationSet] = {}
        self.iteration = 0

    def _walk(self, state: Any, player: int, reach: list[float]) -> float:
        """Player `player`'s counterfactual value of `state`; reach = [player 1, player 2, chance]."""
        actor = state.actor()
        if actor == Player.TERMINAL:
            payoff = float(state.payoff())
            return payoff if player == 0 else -payoff
        if actor == Player.CHANCE:
            total = 0.0
            for k, (_, p) in enumerate(state.chance_outcomes()):
                total += p * self._walk(state.child(k), player, [reach[0], reach[1], reach[2] * p])
            return total
        record = state.information_set()
        node = self.infosets.get(record.key)
        if node is None:
            node = self.infosets[record.key] = _PlainInformationSet(len(record.actions))
        values = []
        value = 0.0
        for a, p in enumerate(node.strategy):
            child_reach = list(reach)
            child_reach[actor] *= p
            v = self._walk(state.child(a), player, child_reach)
            values.append(v)
            value += p * v
        if actor == player:
            counterfactual = reach[1 - actor] * reach[2]
            weight = self.iteration if self.plus else 1.0
            for a, p in enumerate(node.strategy):
                node.regret[a] += counterfactual * (values[a] - value)
                node.strategy_sum[a] += weight * reach[actor] * p
        return value

    def _match(self, player_keys: set[str]) -> None:
        for key in player_keys:
            node = self.infosets[key]
            if self.plus:
                node.regret = [max(r, 0.0) for r in node.regret]
            positive = [max(r, 0.0) for r in node.regret]
            total = sum(positive)
            n = len(positive)
            node.strategy = [r / total for r in positive] if total > 0 else [1.0 / n] * n

    def iterate(self, n: int) -> None:
        for _ in range(n):
            self.iteration += 1
            for player in (0, 1):
                self._walk(self.root, player, [1.0, 1.0, 1.0])
                self._match(set(self.infosets))

    def average_strategy(self, tree: GameTree) -> np.ndarray:
        """[I, A] in the tree's information-set order."""
        out = tree.uniform_strategy().astype(float)
        for key, node in self.infosets.items():
            total = sum(node.strategy_sum)
            if total > 0:
                out[tree.infoset_index(key), :len(node.strategy_sum)] = np.array(node.strategy_sum) / total
        return out
