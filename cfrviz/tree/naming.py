"""Naming what happens in a game tree in the game's own words: its players' names and its moves.

A Gambit file names its players ("Alice", "Bob"); an OpenSpiel game names its moves with OpenSpiel's
`action_to_string` ("Roll 1", "1-1", "Liar"). These are text for the screen: plain strings, escaped
wherever they are shown, never markup.
"""
from __future__ import annotations

from cfrviz.tree.compiled import GameTree
from cfrviz.util.vocabulary import Player

__all__ = ["MAX_NAMED_MOVES", "moves_in_words", "player_names", "seat_names"]

_DEFAULT = ("player 1", "player 2")
#: Most moves named in words; a longer path keeps its last ones after "…".
MAX_NAMED_MOVES = 8


def player_names(tree: GameTree) -> tuple[str, str]:
    """The names the game gives its players (a Gambit file's own), else "player 1" and "player 2"."""
    given = getattr(tree.game, "players", None)
    if isinstance(given, tuple) and len(given) == 2 and all(isinstance(n, str) and n.strip() for n in given) \
            and tuple(n.strip().lower() for n in given) != _DEFAULT:
        return (given[0].strip(), given[1].strip())
    return _DEFAULT


def seat_names(tree: GameTree) -> tuple[str, str]:
    """The players as the screen names them: "Alice (player 1)" when the game names them, else "player 1"."""
    names = player_names(tree)
    if names == _DEFAULT:
        return _DEFAULT
    return (f"{names[0]} ({_DEFAULT[0]})", f"{names[1]} ({_DEFAULT[1]})")


def moves_in_words(tree: GameTree, node: int) -> str:
    """The moves from the root to `node` in the game's own action names, grouped by who made them:
    "chance: Roll 1, Roll 1; player 1: 1-1" (the game's player names where it has its own).

    >>> from cfrviz.catalog import compile_game
    >>> kuhn = compile_game("kuhn")
    >>> moves_in_words(kuhn, kuhn.node_label.index("JQ kb"))
    'chance: JQ; player 1: check; player 2: bet'
    """
    path = [node]
    while path[-1] > 0:
        path.append(int(tree.parent[path[-1]]))
    path.reverse()
    names = player_names(tree)
    steps = [("chance" if int(tree.actor[parent]) == Player.CHANCE else names[int(tree.actor[parent])],
              tree.edge_label[child]) for parent, child in zip(path[:-1], path[1:])]
    groups: list[tuple[str, list[str]]] = []
    for mover, move in steps[-MAX_NAMED_MOVES:]:
        if groups and groups[-1][0] == mover:
            groups[-1][1].append(move)
        else:
            groups.append((mover, [move]))
    words = "; ".join(f"{mover}: {', '.join(moves)}" for mover, moves in groups)
    return ("… " if len(steps) > MAX_NAMED_MOVES else "") + words
