"""The small state interface every game speaks, and the information-set record.

A game is rules only: who acts, which actions are legal, what chance deals,
what each player sees, and the payoffs. `cfrviz.tree` expands a game once
into flat arrays; nothing downstream walks these objects again.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from cfrviz.util.vocabulary import Player

# One-letter codes for poker actions, used in information-set keys.
ACTION_LETTERS = {"check": "k", "bet": "b", "call": "c", "fold": "f", "raise": "r"}
#: What a card letter in a key or label stands for ("T" is ten, as in poker notation).
RANK_NAMES = {"2": "two", "3": "three", "4": "four", "5": "five", "6": "six", "7": "seven", "8": "eight",
              "9": "nine", "T": "ten", "J": "jack", "Q": "queen", "K": "king", "A": "ace"}


class TryAgainLater(ValueError):
    """A refusal that says nothing about the game itself (the server was busy, or no process could
    start): the same request may succeed later, so caches of refusals never keep it."""


def poker_legend(ranks: str, actions: tuple[str, ...], extra: dict[str, str] | None = None) -> dict[str, str]:
    """Letter -> meaning for the keys and tree labels of a poker game: actions, then cards.

    >>> poker_legend("JQK", ("check", "bet"))["k"], poker_legend("TJQK", ("bet",))["T"]
    ('check', 'ten')
    """
    legend = {ACTION_LETTERS[a]: a for a in actions}
    legend.update({r: RANK_NAMES[r] for r in ranks})
    legend.update(extra or {})
    return legend


@dataclass(frozen=True)
class InformationSet:
    """What the acting player knows at a decision: the row of the information-set table.

    `history` lists the action names taken so far by both players, in order, across
    rounds; `actions` are the legal action names, in the order every array uses.
    """

    key: str
    player: Player
    private: str | None
    public: str | None
    history: tuple[str, ...]
    actions: tuple[str, ...]


class State(Protocol):
    """A history of the game. Implementations are immutable."""

    def actor(self) -> Player:
        """Who acts here: a `Player`."""

    def legal_actions(self) -> tuple[str, ...]:
        """Names of the legal actions at a decision node."""

    def chance_outcomes(self) -> tuple[tuple[str, float], ...]:
        """(label, probability) pairs at a chance node."""

    def child(self, index: int) -> State:
        """The history after the action or chance outcome with this index."""

    def payoff(self) -> float:
        """Player 1's payoff at a terminal history (player 2 gets the negative)."""

    def information_set(self) -> InformationSet:
        """The acting player's information set at a decision node."""

    def label(self) -> str:
        """A short human-readable name of this history, unique within the game."""


class Game(Protocol):
    """A two-player zero-sum game with chance, as rules.

    Games written here also carry `rules` (markdown: ante, bets, order of play, showdown) and
    `action_legend` (letter -> meaning for keys and tree labels); pages read both with
    `getattr`, so games from files may go without.

    Any object with these members can be solved (`cfrviz.solve(game, ...)`); the catalog
    (`cfrviz.catalog`) knows which ones can also be rebuilt from a saved run's settings.
    """

    @property
    def name(self) -> str:
        """A short name without spaces."""

    @property
    def title(self) -> str:
        """The name shown on screen."""

    def initial_state(self) -> State:
        """The root history."""
