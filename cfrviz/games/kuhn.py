"""Kuhn poker with N cards (Kuhn 1950; the classic game has N = 3: J, Q, K).

Each player antes 1 and is dealt one card; player 1 acts first. Bets and calls
are 1 chip. One chance node deals both cards at once, each ordered pair with
probability 1 / (N (N - 1)), as in Neller and Lanctot's tutorial.
"""
from __future__ import annotations

from dataclasses import dataclass

from cfrviz.games.base import ACTION_LETTERS, InformationSet, poker_legend
from cfrviz.util.vocabulary import Player
from cfrviz.util.text import quoted

RANKS = "23456789TJQKA"
MAX_CARDS = len(RANKS)
#: Player 1's value of 3-card Kuhn poker in chips per hand, in closed form (Kuhn 1950).
VALUE = -1.0 / 18.0


def card_names(cards: int) -> str:
    """Rank names, weakest first. Three cards are J Q K; up to twelve end at K; 13 add A."""
    if cards <= 12:
        return RANKS[:-1][-cards:]
    return RANKS[-cards:]


@dataclass(frozen=True)
class KuhnPoker:
    """Kuhn poker configuration. Build it with `cfrviz.load_game("kuhn", cards=N)`."""

    cards: int = 3

    def __post_init__(self) -> None:
        if not isinstance(self.cards, int) or isinstance(self.cards, bool):
            raise ValueError(f"Kuhn poker needs a whole number of cards, not {quoted(self.cards)}.")
        if not 3 <= self.cards <= MAX_CARDS:
            raise ValueError(f"Kuhn poker takes 3 to {MAX_CARDS} cards; {self.cards} was asked for.")

    @property
    def name(self) -> str:
        return "kuhn" if self.cards == 3 else f"kuhn{self.cards}"

    @property
    def title(self) -> str:
        return "Kuhn poker" if self.cards == 3 else f"Kuhn poker ({self.cards} cards)"

    @property
    def ranks(self) -> str:
        return card_names(self.cards)

    @property
    def rules(self) -> str:
        """The rules as a person reads them (markdown)."""
        ranks = self.ranks
        deck = ", ".join(ranks) + (" (T is ten)" if "T" in ranks else "")
        return (
            f"**Deck:** {self.cards} cards, {deck}, lowest first. Each player **antes 1 chip** and is dealt "
            "one card the other cannot see.\n\n"
            "**Betting:** one round, **bets are 1 chip**, player 1 acts first.\n"
            "- Player 1 **checks** or **bets**.\n"
            "- After a check, player 2 checks (showdown for the antes) or bets; then player 1 **folds** or "
            "**calls**.\n"
            "- After a bet, player 2 folds or calls.\n\n"
            "**End:** a player who folds loses their ante (1 chip). Otherwise the higher card wins the pot: "
            "1 chip after check-check, 2 chips after a called bet.")

    @property
    def action_legend(self) -> dict[str, str]:
        """Letter -> meaning in information-set keys ("Q kb": holds Q, check then bet) and tree labels."""
        return poker_legend(self.ranks, ("check", "bet", "fold", "call"))

    def initial_state(self) -> KuhnState:
        return KuhnState(self, None, ())


@dataclass(frozen=True)
class KuhnState:
    game: KuhnPoker
    deal: tuple[int, int] | None
    actions: tuple[str, ...]

    def actor(self) -> Player:
        if self.deal is None:
            return Player.CHANCE
        if self.actions in (("check", "check"), ("bet", "fold"), ("bet", "call"),
                            ("check", "bet", "fold"), ("check", "bet", "call")):
            return Player.TERMINAL
        return Player(len(self.actions) % 2)

    def legal_actions(self) -> tuple[str, ...]:
        facing_bet = bool(self.actions) and self.actions[-1] == "bet"
        return ("fold", "call") if facing_bet else ("check", "bet")

    def chance_outcomes(self) -> tuple[tuple[str, float], ...]:
        n = self.game.cards
        p = 1.0 / (n * (n - 1))
        ranks = self.game.ranks
        return tuple((ranks[i] + ranks[j], p) for i in range(n) for j in range(n) if i != j)

    def child(self, index: int) -> KuhnState:
        if self.deal is None:
            n = self.game.cards
            pairs = [(i, j) for i in range(n) for j in range(n) if i != j]
            return KuhnState(self.game, pairs[index], ())
        return KuhnState(self.game, self.deal, self.actions + (self.legal_actions()[index],))

    def payoff(self) -> float:
        assert self.deal is not None
        if self.actions[-1] == "fold":
            # The player who folded loses the ante; player 1 folds after check-bet.
            return 1.0 if len(self.actions) == 2 else -1.0
        stake = 2.0 if "bet" in self.actions else 1.0
        return stake if self.deal[0] > self.deal[1] else -stake

    def information_set(self) -> InformationSet:
        assert self.deal is not None
        player = Player(len(self.actions) % 2)
        private = self.game.ranks[self.deal[player]]
        letters = "".join(ACTION_LETTERS[a] for a in self.actions)
        key = f"{private} {letters}".strip()
        return InformationSet(key, player, private, None, self.actions, self.legal_actions())

    def label(self) -> str:
        if self.deal is None:
            return "deal"
        ranks = self.game.ranks
        letters = "".join(ACTION_LETTERS[a] for a in self.actions)
        return f"{ranks[self.deal[0]]}{ranks[self.deal[1]]} {letters}".strip()
