"""Reference numbers for any catalog game: its value and an equilibrium to judge a run against.

The value is the literature's where the catalog knows one (Kuhn -1/18, Leduc -0.0856064240780,
rock-paper-scissors 0), exact for a matrix game, and otherwise the value of the
sequence-form linear program (Koller, Megiddo & von Stengel 1994) solved by `cfrviz.analysis.lp`.
Known equilibria: Kuhn's α-family (Kuhn 1950) and a matrix game's exact equilibrium.
"""
from __future__ import annotations

import numpy as np

from cfrviz import catalog
from cfrviz.catalog import GameSpec
from cfrviz.analysis.equilibria import ALPHA_MAX, kuhn_equilibrium, matrix_equilibrium, matrix_strategy
from cfrviz.analysis.lp import solve_lp
from cfrviz.tree import GameTree


def game_value(tree: GameTree, game: GameSpec) -> float | None:
    """Player 1's value of the game `game` (whose tree is `tree`: a caller holds both, so nothing is
    resolved again) in chips per hand: known, exact (matrix games) or from the LP (computed once per
    tree); None when the LP finds no answer within its time limit."""
    if game.known_value is not None:
        return game.known_value
    if game.matrix:
        return float(matrix_equilibrium(tree.game.payoffs)[2])   # type: ignore[attr-defined]  # a matrix entry's game is a MatrixGame, which has payoffs
    try:
        return solve_lp(tree)[0]
    except ValueError:   # the LP's time limit: too big to solve exactly while a page waits
        return None


def value_source(game: GameSpec) -> str:
    """Where `game_value` comes from, in words for a caption."""
    if game.known_value is not None:
        return "known"
    if game.matrix:
        return "exact (matrix game)"
    return "linear program"


def known_equilibria(tree: GameTree) -> tuple[np.ndarray, np.ndarray, str] | None:
    """(low [I, A], high [I, A], description) bounding the known equilibria in closed form, or None.

    3-card Kuhn: player 1's strategy is linear in α, so the α ∈ [0, 1/3] band is spanned by the
    ends α = 0 and α = 1/3 (Kuhn 1950). Matrix games: the exact equilibrium, low = high.
    """
    game = catalog.of_tree(tree)
    if game.alpha_family:
        ends = np.stack([kuhn_equilibrium(0.0, tree), kuhn_equilibrium(ALPHA_MAX, tree)])
        return ends.min(axis=0), ends.max(axis=0), "Kuhn's equilibria, α from 0 to 1/3"
    if game.matrix:
        row, column, _ = matrix_equilibrium(tree.game.payoffs)   # type: ignore[attr-defined]  # a matrix entry's game is a MatrixGame, which has payoffs
        exact = matrix_strategy(tree, row, column)
        return exact, exact, "the exact equilibrium"
    return None


def lp_equilibrium(tree: GameTree) -> np.ndarray | None:
    """[I, A] an equilibrium from the sequence-form LP (one of possibly many), both players' parts;
    None when the LP finds no answer within its time limit."""
    try:
        return solve_lp(tree)[1]
    except ValueError:
        return None
