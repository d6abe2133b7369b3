"""Game rules: Kuhn poker with N cards, Leduc poker and matrix games, behind one loader."""
from __future__ import annotations

from collections.abc import Sequence

from cfrviz.games.base import CHANCE, PLAYER_1, PLAYER_2, TERMINAL, Game, InformationSet
from cfrviz.games.kuhn import KuhnPoker
from cfrviz.games.leduc import LeducPoker
from cfrviz.games.matrix import MatrixGame, rock_paper_scissors

GAME_NAMES = ("kuhn", "leduc", "rps")

__all__ = ["CHANCE", "GAME_NAMES", "PLAYER_1", "PLAYER_2", "TERMINAL", "Game", "InformationSet",
           "KuhnPoker", "LeducPoker", "MatrixGame", "load_game", "rock_paper_scissors"]


def load_game(game: str | Game | Sequence[Sequence[float]], **params) -> Game:
    """Return a game from its name ("kuhn", "leduc", "rps"), a payoff matrix, or a game itself.

    `cards=N` sets Kuhn's deck size; `suits=True` deals Leduc's cards with explicit
    suits. A matrix accepts `row_names` and `column_names`.

    >>> load_game("kuhn", cards=4).title
    'Kuhn poker (4 cards)'
    """
    if isinstance(game, (KuhnPoker, LeducPoker, MatrixGame)):
        if params:
            raise ValueError("Parameters apply only when a game is given by name.")
        return game
    if isinstance(game, str):
        name = game.strip().lower()
        allowed = {"kuhn": {"cards"}, "leduc": {"suits"}, "rps": set()}
        if name not in allowed:
            raise ValueError(f"Unknown game {game!r}; choose one of: {', '.join(GAME_NAMES)}, "
                             "or pass a payoff matrix.")
        extra = set(params) - allowed[name]
        if extra:
            raise ValueError(f"The game {name!r} takes no parameter {sorted(extra)[0]!r}.")
        if name == "kuhn":
            return KuhnPoker(**params)
        if name == "leduc":
            return LeducPoker(suits=bool(params.get("suits", False)))
        return rock_paper_scissors()
    extra = set(params) - {"row_names", "column_names", "name", "title"}
    if extra:
        raise ValueError(f"A matrix game takes no parameter {sorted(extra)[0]!r}.")
    return MatrixGame.from_lists(game, **params)
