"""Leduc poker (Southey et al. 2005), standard rules.

Deck J J Q Q K K; each player antes 1 and gets one private card. Two betting
rounds, player 1 first in each; bets and raises are 2 in round 1 and 4 in
round 2, at most two per round (the opening bet counts). One public card is
dealt between the rounds. A private card that pairs the public card wins,
otherwise the higher rank wins, and equal ranks split the pot.

By default chance deals ranks, not cards: outcomes of equal rank are merged,
each with the summed probability. That tree has the same information sets and
values with fewer nodes. `suits=True` deals the six cards one by one instead.
"""
from __future__ import annotations

from dataclasses import dataclass

from cfrviz.games.base import ACTION_LETTERS, InformationSet, poker_legend
from cfrviz.util.vocabulary import Player

RANKS = "JQK"
SUITS = "sh"
BET_SIZE = (2.0, 4.0)
MAX_BETS_PER_ROUND = 2
#: Player 1's value in chips per hand: the sequence-form LP's to full precision (`cfrviz.analysis.lp`, HiGHS);
#: published rounded as -0.0856064 (Southey et al. 2005; OpenSpiel).
VALUE = -0.08560642407800038


@dataclass(frozen=True)
class LeducPoker:
    """Leduc poker configuration. Build it with `cfrviz.load_game("leduc")`."""

    suits: bool = False
    name: str = "leduc"
    title: str = "Leduc poker"

    def initial_state(self) -> LeducState:
        return LeducState(self, None, None, ((),))

    @property
    def rules(self) -> str:
        """The rules as a person reads them (markdown)."""
        return (
            "**Deck:** six cards, two each of J, Q, K (jack, queen, king). Each player **antes 1 chip** "
            "and is dealt one private card.\n\n"
            "**Betting:** two rounds, player 1 acts first in each. A player may **check** or **bet** when "
            "nobody has bet, and **fold**, **call** or **raise** when facing a bet. Bets and raises are "
            f"**{BET_SIZE[0]:g} chips in round 1** and **{BET_SIZE[1]:g} chips in round 2**, at most "
            f"{MAX_BETS_PER_ROUND} per round (the opening bet counts).\n\n"
            "**Public card:** after round 1 one card is turned face up for both players.\n\n"
            "**End:** a player who folds loses what they put in. At showdown a private card that pairs "
            "the public card wins; otherwise the higher card wins, and equal cards split the pot.")

    @property
    def action_legend(self) -> dict[str, str]:
        """Letter -> meaning in keys such as "Q|K kbc/k" (holds Q, public K; round 1 / round 2)."""
        return poker_legend(RANKS, ("check", "bet", "fold", "call", "raise"),
                            {"|": "then the public card", "/": "separates round 1 from round 2"})

    def rank(self, card: int) -> int:
        return card // 2 if self.suits else card

    def card_name(self, card: int) -> str:
        return RANKS[card // 2] + SUITS[card % 2] if self.suits else RANKS[card]


def _round_over(actions: tuple[str, ...]) -> bool:
    return actions == ("check", "check") or (bool(actions) and actions[-1] == "call")


@dataclass(frozen=True)
class LeducState:
    game: LeducPoker
    deal: tuple[int, int] | None
    public: int | None
    rounds: tuple[tuple[str, ...], ...]

    def _all_actions(self) -> tuple[str, ...]:
        return tuple(a for r in self.rounds for a in r)

    def actor(self) -> Player:
        if self.deal is None:
            return Player.CHANCE
        current = self.rounds[-1]
        if current and current[-1] == "fold":
            return Player.TERMINAL
        if _round_over(current):
            return Player.CHANCE if len(self.rounds) == 1 else Player.TERMINAL
        return Player(len(current) % 2)

    def legal_actions(self) -> tuple[str, ...]:
        current = self.rounds[-1]
        if current and current[-1] in ("bet", "raise"):
            bets = sum(a in ("bet", "raise") for a in current)
            return ("fold", "call", "raise") if bets < MAX_BETS_PER_ROUND else ("fold", "call")
        return ("check", "bet")

    def _remaining(self) -> list[int]:
        """Count of each card (or rank) still in the deck."""
        if self.game.suits:
            left = [1] * 6
        else:
            left = [2, 2, 2]
        if self.deal is not None:
            for c in self.deal:
                left[c] -= 1
        return left

    def _chance_children(self) -> list[tuple[tuple[int, int] | int, float]]:
        """(deal, probability) at the root, else (public card, probability)."""
        left = self._remaining()
        total = sum(left)
        out: list[tuple[tuple[int, int] | int, float]] = []
        if self.deal is None:
            for i in range(len(left)):
                for j in range(len(left)):
                    second = left[j] - (i == j)
                    if left[i] and second > 0:
                        out.append(((i, j), left[i] / total * second / (total - 1)))
            return out
        out.extend((c, n / total) for c, n in enumerate(left) if n > 0)
        return out

    def chance_outcomes(self) -> tuple[tuple[str, float], ...]:
        name = self.game.card_name
        out = []
        for outcome, p in self._chance_children():
            if isinstance(outcome, tuple):
                out.append((name(outcome[0]) + name(outcome[1]), p))
            else:
                out.append((name(outcome), p))
        return tuple(out)

    def child(self, index: int) -> LeducState:
        if self.actor() == Player.CHANCE:
            outcome, _ = self._chance_children()[index]
            if isinstance(outcome, tuple):
                return LeducState(self.game, outcome, None, ((),))
            return LeducState(self.game, self.deal, outcome, self.rounds + ((),))
        action = self.legal_actions()[index]
        return LeducState(self.game, self.deal, self.public,
                          self.rounds[:-1] + (self.rounds[-1] + (action,),))

    def _contributions(self) -> list[float]:
        paid = [1.0, 1.0]
        for size, actions in zip(BET_SIZE, self.rounds):
            for i, action in enumerate(actions):
                player = i % 2
                if action in ("bet", "raise"):
                    paid[player] = max(paid) + size
                elif action == "call":
                    paid[player] = max(paid)
        return paid

    def payoff(self) -> float:
        assert self.deal is not None
        paid = self._contributions()
        current = self.rounds[-1]
        if current[-1] == "fold":
            folder = (len(current) - 1) % 2
            return -paid[0] if folder == 0 else paid[1]
        assert self.public is not None
        rank = self.game.rank
        board = rank(self.public)
        mine, theirs = rank(self.deal[0]), rank(self.deal[1])
        strength = [(r == board, r) for r in (mine, theirs)]
        if strength[0] == strength[1]:
            return 0.0
        return paid[1] if strength[0] > strength[1] else -paid[0]

    def _letters(self) -> str:
        return "/".join("".join(ACTION_LETTERS[a] for a in r) for r in self.rounds)

    def information_set(self) -> InformationSet:
        assert self.deal is not None
        player = Player(len(self.rounds[-1]) % 2)
        private = RANKS[self.game.rank(self.deal[player])]
        public = None if self.public is None else RANKS[self.game.rank(self.public)]
        key = f"{private}{'|' + public if public else ''} {self._letters()}".strip()
        return InformationSet(key, player, private, public, self._all_actions(), self.legal_actions())

    def label(self) -> str:
        if self.deal is None:
            return "deal"
        name = self.game.card_name
        cards = name(self.deal[0]) + name(self.deal[1])
        if self.public is not None:
            cards += "|" + name(self.public)
        return f"{cards} {self._letters()}".strip()
