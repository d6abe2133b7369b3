"""A human plays hands of any two-player game against a fixed strategy, one decision at a time.

A hand is a walk down the compiled tree. Chance nodes are sampled with their
probabilities, the bot samples its action from the strategy it is given, and
the human's choices come in from outside. Every random draw comes from a
`numpy.random.Generator` seeded by (session seed, hand number, step), so a hand
replays identically from its inputs and the app can keep only plain values.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from cfrviz.games import CHANCE, TERMINAL
from cfrviz.tree import GameTree


@dataclass(frozen=True)
class BotDecision:
    """One bot decision: where it acted, the probabilities it had, and what it chose."""

    node: int
    information_set: str
    actions: tuple[str, ...]
    probabilities: tuple[float, ...]
    chosen: int


@dataclass(frozen=True)
class Hand:
    """One hand in progress or finished.

    `seat` is the human's player index (0 = player 1). `path` lists every node
    visited from the root, the current node last. `bot_decisions` are in order.
    """

    seed: int
    number: int
    seat: int
    path: tuple[int, ...]
    bot_decisions: tuple[BotDecision, ...] = ()

    @property
    def node(self) -> int:
        return self.path[-1]


def _generator(hand: Hand) -> np.random.Generator:
    # One generator per (seed, hand, step): replaying a hand redraws the same numbers.
    return np.random.default_rng([hand.seed, hand.number, len(hand.path)])


def _check_strategy(tree: GameTree, strategy: np.ndarray) -> np.ndarray:
    strategy = np.asarray(strategy, dtype=float)
    if strategy.shape != tree.legal.shape:
        raise ValueError(f"The strategy has shape {strategy.shape} but {tree.game.title} needs "
                         f"{tree.legal.shape} (information sets x actions).")
    return strategy


def bot_probabilities(tree: GameTree, strategy: np.ndarray, node: int) -> np.ndarray:
    """[A_node] the bot's action probabilities at a decision node, renormalised over legal actions."""
    i = int(tree.infoset[node])
    n = int(tree.num_actions[i])
    p = np.clip(np.asarray(strategy[i, :n], dtype=float), 0.0, None)
    total = p.sum()
    return p / total if total > 0 else np.full(n, 1.0 / n)


def _advance(tree: GameTree, strategy: np.ndarray, hand: Hand) -> Hand:
    """Sample chance and bot moves until the human must act or the hand is over."""
    while True:
        node = hand.node
        who = int(tree.actor[node])
        if who == TERMINAL or who == hand.seat:
            return hand
        rng = _generator(hand)
        children = tree.children(node)
        if who == CHANCE:
            p = np.asarray(tree.chance_probability[children.start:children.stop])
            k = int(rng.choice(len(p), p=p / p.sum()))
            hand = Hand(hand.seed, hand.number, hand.seat, hand.path + (children[k],), hand.bot_decisions)
            continue
        p = bot_probabilities(tree, strategy, node)
        k = int(rng.choice(len(p), p=p))
        info = tree.infosets[int(tree.infoset[node])]
        decision = BotDecision(node, info.key, info.actions, tuple(float(x) for x in p), k)
        hand = Hand(hand.seed, hand.number, hand.seat, hand.path + (children[k],),
                    hand.bot_decisions + (decision,))


def start_hand(tree: GameTree, strategy: np.ndarray, *, seat: int, seed: int, number: int,
               deal: str | None = None) -> Hand:
    """Deal hand `number` with the human in `seat` (0 or 1) and play until the human must act.

    `strategy` [I, A] is the bot's (e.g. a run's average strategy). `deal` forces the
    root chance outcome by its label (e.g. "QK": player 1 holds Q, player 2 K);
    otherwise it is drawn with the tree's chance probabilities.
    """
    strategy = _check_strategy(tree, strategy)
    if seat not in (0, 1):
        raise ValueError(f"Seat must be 0 (player 1) or 1 (player 2), not {seat!r}.")
    hand = Hand(int(seed), int(number), seat, (0,))
    if deal is not None:
        if int(tree.actor[0]) != CHANCE:
            raise ValueError(f"{tree.game.title} starts without a deal, so there is no deal to choose.")
        labels = [tree.edge_label[c] for c in tree.children(0)]
        if deal not in labels:
            raise ValueError(f"No deal {deal!r} in {tree.game.title}; choose one of: {', '.join(labels)}.")
        hand = Hand(hand.seed, hand.number, seat, (0, tree.children(0)[labels.index(deal)]))
    return _advance(tree, strategy, hand)


def legal_actions(tree: GameTree, hand: Hand) -> tuple[str, ...]:
    """The human's action names at the current node (empty when the hand is over)."""
    node = hand.node
    if int(tree.actor[node]) != hand.seat:
        return ()
    return tree.infosets[int(tree.infoset[node])].actions


def act(tree: GameTree, strategy: np.ndarray, hand: Hand, action: str) -> Hand:
    """The hand after the human takes `action` (by name), played on until the human's next turn."""
    strategy = _check_strategy(tree, strategy)
    actions = legal_actions(tree, hand)
    if action not in actions:
        allowed = ", ".join(actions) if actions else "nothing (the hand is over or it is not your turn)"
        raise ValueError(f"You cannot {action!r} here; you can: {allowed}.")
    child = tree.children(hand.node)[actions.index(action)]
    return _advance(tree, strategy, Hand(hand.seed, hand.number, hand.seat, hand.path + (child,),
                                         hand.bot_decisions))


def is_over(tree: GameTree, hand: Hand) -> bool:
    return int(tree.actor[hand.node]) == TERMINAL


def human_chips(tree: GameTree, hand: Hand) -> float:
    """Chips the human won (negative: lost) in a finished hand."""
    if not is_over(tree, hand):
        raise ValueError("The hand is not over yet; finish it before scoring it.")
    payoff = float(tree.payoff[hand.node])
    return payoff if hand.seat == 0 else -payoff


def deal_labels(tree: GameTree, hand: Hand) -> tuple[str, ...]:
    """The chance outcomes dealt so far, in order (e.g. ("QK",) or ("QK", "J"))."""
    return tuple(tree.edge_label[n] for n in hand.path[1:] if int(tree.actor[tree.parent[n]]) == CHANCE)


def private_cards(tree: GameTree, hand: Hand) -> tuple[str, str]:
    """(player 1's card, player 2's card) from the deal's label, e.g. "QK" -> ("Q", "K")."""
    deal = tree.edge_label[hand.path[1]] if len(hand.path) > 1 else ""
    half = len(deal) // 2
    return deal[:half], deal[half:]


def information_set(tree: GameTree, hand: Hand) -> str | None:
    """The key of the information set the human is in (what they know), or None when it is not their turn."""
    node = hand.node
    if int(tree.actor[node]) != hand.seat:
        return None
    return tree.infosets[int(tree.infoset[node])].key


def public_card(tree: GameTree, hand: Hand) -> str | None:
    """The public card once it is dealt (Leduc), else None."""
    dealt = deal_labels(tree, hand)
    return dealt[1] if len(dealt) > 1 else None


def action_history(tree: GameTree, hand: Hand) -> tuple[tuple[int, str], ...]:
    """(player, action name) for every betting action so far."""
    return tuple((int(tree.actor[tree.parent[n]]), tree.edge_label[n]) for n in hand.path[1:]
                 if int(tree.actor[tree.parent[n]]) < CHANCE)


@dataclass(frozen=True)
class Score:
    """The human's running result: hands played, total and mean chips, and the mean's standard error."""

    hands: int
    total: float
    mean: float
    standard_error: float


def score(results: list[float] | tuple[float, ...]) -> Score:
    """Summarise per-hand chip results; the standard error is the sample std (ddof=1) / sqrt(n)."""
    n = len(results)
    if n == 0:
        return Score(0, 0.0, 0.0, math.nan)
    x = np.asarray(results, dtype=float)
    se = float(x.std(ddof=1) / math.sqrt(n)) if n > 1 else math.nan
    return Score(n, float(x.sum()), float(x.mean()), se)


def known_game_value(tree: GameTree) -> float | None:
    """Player 1's value of the game (`cfrviz.analysis.reference.game_value`: known, exact or from the LP)."""
    from cfrviz.analysis.reference import game_value

    return game_value(tree)


def seat_value(game_value: float, seat: int) -> float:
    """The game's value for a seat, given player 1's value (zero-sum: player 2 gets the negative)."""
    return game_value if seat == 0 else -game_value


def seat_for_hand(choice: str, number: int) -> int:
    """The human's seat for hand `number` (0-based): "player 1", "player 2" or "alternate"."""
    if choice == "player 1":
        return 0
    if choice == "player 2":
        return 1
    if choice == "alternate":
        return number % 2
    raise ValueError(f"Seat must be 'player 1', 'player 2' or 'alternate', not {choice!r}.")
