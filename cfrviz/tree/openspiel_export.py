"""A strategy on an OpenSpiel game's compiled tree, handed back to OpenSpiel.

`openspiel_records` gives each information set's OpenSpiel information-state string and action ids
(the strategy JSON carries them); `policy_table` and `tabular_policy` turn a strategy [I, A] into
the tables OpenSpiel's own algorithms read. The loader (rules only) is `cfrviz.games.openspiel`.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from cfrviz.games.openspiel import OpenSpielGame, available

if TYPE_CHECKING:
    from cfrviz.tree.compiled import GameTree

__all__ = ["openspiel_records", "policy_table", "tabular_policy"]


def openspiel_records(tree: GameTree) -> list[tuple[str, tuple[int, ...]]] | None:
    """Per information set of `tree` (tree order): OpenSpiel's information-state string and the
    OpenSpiel action ids of its actions; None when the tree is not an OpenSpiel game's."""
    game = tree.game
    if not isinstance(game, OpenSpielGame) or not game.information_state_strings:
        return None
    own = {record.key: j for j, record in enumerate(game.infosets)}
    return [(game.information_state_strings[own[r.key]], game.action_ids[own[r.key]]) for r in tree.infosets]


def policy_table(tree: GameTree, strategy: np.ndarray) -> dict[str, list[tuple[int, float]]]:
    """A strategy [I, A] on the compiled tree of an OpenSpiel game, as OpenSpiel reads policies:
    information-state string -> [(OpenSpiel action id, probability)], for both players."""
    records = openspiel_records(tree)
    if records is None:
        raise ValueError(f"{tree.game.title} is not an OpenSpiel game, so it has no OpenSpiel policy.")
    strategy = np.asarray(strategy, dtype=np.float64)
    if strategy.shape != tree.legal.shape:
        raise ValueError(f"A strategy of {tree.game.title} has shape {tree.legal.shape}, not {strategy.shape}.")
    return {state: [(a, float(strategy[i, k])) for k, a in enumerate(ids)]
            for i, (state, ids) in enumerate(records)}


def tabular_policy(tree: GameTree, strategy: np.ndarray) -> Any:
    """The strategy [I, A] as an OpenSpiel `TabularPolicy` of OpenSpiel's own game (needs OpenSpiel)."""
    table = policy_table(tree, strategy)
    if not available():
        raise ValueError("OpenSpiel is not installed, so no OpenSpiel policy can be made; "
                         "`pip install open_spiel` adds it.")
    import pyspiel
    from open_spiel.python import policy as policy_lib

    game = tree.game
    assert isinstance(game, OpenSpielGame)
    spiel_game = pyspiel.load_game(game.game_string)
    if game.turn_based:
        spiel_game = pyspiel.convert_to_turn_based(spiel_game)
    policy = policy_lib.TabularPolicy(spiel_game)
    for state, pairs in table.items():
        row = policy.policy_for_key(state)
        row[:] = 0.0
        for action, probability in pairs:
            row[action] = probability
    return policy
