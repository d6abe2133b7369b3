"""A human plays hands of any two-player game against a fixed strategy, one decision at a time.

A hand is a walk down the compiled tree. Chance nodes are sampled with their
probabilities, the bot samples its action from the strategy it is given, and
the human's choices come in from outside. Every random draw comes from a
`numpy.random.Generator` seeded by (session seed, hand number, step), so a hand
replays identically from its inputs and the app can keep only plain values.
A seed anyone can read (a link's) makes every deal predictable, so the app deals
from `secret_seed()` unless the visitor asks for a seeded replay.

**What a decision costs (EV loss).** Let sigma be the profile the bot plays (a run's average
strategy at iteration t, for both players) and I the information set where the human, player i,
chooses action a. With pi_-i(h) the probability that chance and the opponent reach history h
under sigma, and u_i(sigma, h.a) player i's expected chips after taking a at h and following
sigma from there on,

    v(I, a)  = sum_{h in I} pi_-i(h) u_i(sigma, h.a) / sum_{h in I} pi_-i(h)
    v(I)     = sum_a sigma(I, a) v(I, a)
    loss(a)  = v(I) - v(I, a)

v(I, a) is the action's counterfactual value (Zinkevich et al. 2007) divided by the set's
counterfactual reach: the chips the human expects after a, given only what they know at I.
The loss is in chips per time the human reaches I. At an equilibrium no action loses anything
against the strategy's own mix at a set (actions it plays lose 0, others lose 0 or more); far
from one a loss can be negative, which means the action beats the strategy's mix there.
"""
from __future__ import annotations

import math
import secrets
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

import numpy as np

from cfrviz.analysis.best_responses import history_values
from cfrviz.catalog import GameSpec
from cfrviz.util.vocabulary import DECISION_PLAYERS, Player
from cfrviz.games.kuhn import KuhnPoker
from cfrviz.games.leduc import BET_SIZE, LeducPoker
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
class HumanDecision:
    """One of the human's decisions and what it cost against the strategy the bot played.

    `action_values` [A] are v(I, a) and `set_value` is v(I) (see the module's docstring), in the
    human's chips; `loss` = set_value - action_values[chosen]. `iteration` is the t whose average
    strategy was played (None when the strategy came from elsewhere).
    """

    node: int
    information_set: str
    actions: tuple[str, ...]
    chosen: int
    strategy: tuple[float, ...]
    action_values: tuple[float, ...]
    set_value: float
    loss: float
    iteration: int | None = None


@dataclass(frozen=True)
class Hand:
    """One hand in progress or finished.

    `seat` is the human's player. `path` lists every node
    visited from the root, the current node last. `bot_decisions` and `decisions`
    (the human's) are in order.
    """

    seed: int
    number: int
    seat: Player
    path: tuple[int, ...]
    bot_decisions: tuple[BotDecision, ...] = ()
    decisions: tuple[HumanDecision, ...] = ()

    @property
    def node(self) -> int:
        return self.path[-1]


#: Bits of a session's secret seed: as many as a `SeedSequence` draws from the OS for itself.
SECRET_BITS = 128


def secret_seed() -> int:
    """A seed nobody can guess (the OS's randomness), for deals no link or package can predict."""
    return secrets.randbits(SECRET_BITS)


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
        if who == Player.TERMINAL or who == hand.seat:
            return hand
        rng = _generator(hand)
        children = tree.children(node)
        if who == Player.CHANCE:
            p = np.asarray(tree.chance_probability[children.start:children.stop])
            k = int(rng.choice(len(p), p=p / p.sum()))
            hand = replace(hand, path=hand.path + (children[k],))
            continue
        p = bot_probabilities(tree, strategy, node)
        k = int(rng.choice(len(p), p=p))
        info = tree.infosets[int(tree.infoset[node])]
        decision = BotDecision(node, info.key, info.actions, tuple(float(x) for x in p), k)
        hand = replace(hand, path=hand.path + (children[k],), bot_decisions=hand.bot_decisions + (decision,))


def start_hand(tree: GameTree, strategy: np.ndarray, *, seat: Player, seed: int, number: int,
               deal: str | None = None) -> Hand:
    """Deal hand `number` with the human in `seat` (player 1 or 2) and play until the human must act.

    `strategy` [I, A] is the bot's (e.g. a run's average strategy). `deal` forces the
    root chance outcome by its label (e.g. "QK": player 1 holds Q, player 2 K);
    otherwise it is drawn with the tree's chance probabilities.
    """
    strategy = _check_strategy(tree, strategy)
    if seat not in DECISION_PLAYERS:
        raise ValueError(f"Seat must be player 1 or player 2, not {seat!r}.")
    hand = Hand(int(seed), int(number), Player(seat), (0,))
    if deal is not None:
        if int(tree.actor[0]) != Player.CHANCE:
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


def act(tree: GameTree, strategy: np.ndarray, hand: Hand, action: str, *, iteration: int | None = None) -> Hand:
    """The hand after the human takes `action` (by name), played on until the human's next turn.

    The decision is recorded with its EV loss against `strategy` [I, A] (the bot's, for both
    players), the average strategy of iteration `iteration` when given.
    """
    strategy = _check_strategy(tree, strategy)
    actions = legal_actions(tree, hand)
    if action not in actions:
        allowed = ", ".join(actions) if actions else "nothing (the hand is over or it is not your turn)"
        raise ValueError(f"You cannot {action!r} here; you can: {allowed}.")
    node = hand.node
    i = int(tree.infoset[node])
    chosen = actions.index(action)
    values = set_values(tree, strategy)
    n = len(actions)
    decision = HumanDecision(node, tree.infosets[i].key, actions, chosen,
                             tuple(float(x) for x in bot_probabilities(tree, strategy, node)),
                             tuple(float(x) for x in values.action_value[i, :n]), float(values.set_value[i]),
                             float(values.loss[i, chosen]), iteration)
    child = tree.children(node)[chosen]
    return _advance(tree, strategy, replace(hand, path=hand.path + (child,), decisions=hand.decisions + (decision,)))


def act_once(tree: GameTree, strategy: np.ndarray, hand: Hand, action: str, *, number: int, step: int,
             iteration: int | None = None) -> Hand:
    """`act`, for an action sent at step `step` (len of the path) of hand `number`: the same `hand`
    when that step is past (a second click, or a click on buttons drawn before the hand moved on)
    or `action` is not the human's to take now. A browser can send one click twice; it counts once.
    """
    if hand.number != number or len(hand.path) != step or action not in legal_actions(tree, hand):
        return hand
    return act(tree, strategy, hand, action, iteration=iteration)


@dataclass(frozen=True, eq=False)
class SetValues:
    """What each action is worth at each information set under one profile (I sets, A actions).

    action_value [I, A]: v(I, a), the acting player's expected chips after a given only what they
    know at I (NaN for illegal actions and for sets the profile never reaches); set_value [I]:
    v(I) under the profile's own mix; loss [I, A] = set_value - action_value; reach [I]: the
    set's counterfactual reach, sum over h in I of pi_-i(h).
    """

    action_value: np.ndarray
    set_value: np.ndarray
    loss: np.ndarray
    reach: np.ndarray


def set_values(tree: GameTree, strategy: np.ndarray) -> SetValues:
    """`SetValues` of the profile `strategy` [I, A] (the EV-loss numbers of the module's docstring)."""
    strategy = _check_strategy(tree, strategy)
    numbers = history_values(tree, strategy)
    decision = np.flatnonzero(tree.infoset >= 0)
    sets = tree.infoset[decision]
    # bincount, not np.add.at: the same sums in the same order, many times faster (a Play click on
    # Liar's dice sums 300 frames of 51,181 histories, holding the interpreter lock while it does).
    reach = np.bincount(sets, weights=numbers.counterfactual_reach[decision], minlength=tree.num_infosets)
    values = numbers.counterfactual_action_value[decision]
    summed = np.stack([np.bincount(sets, weights=values[:, a], minlength=tree.num_infosets)
                       for a in range(tree.max_actions)], axis=1) if tree.max_actions else \
        np.zeros((tree.num_infosets, 0))
    with np.errstate(invalid="ignore", divide="ignore"):
        action_value = np.where(reach[:, None] > 0, summed / reach[:, None], np.nan)
    action_value[~tree.legal] = np.nan
    mix = np.where(tree.legal, strategy, 0.0)
    mix = mix / np.maximum(mix.sum(axis=1, keepdims=True), 1e-300)
    set_value = np.nansum(mix * np.nan_to_num(action_value), axis=1)
    set_value[reach <= 0] = np.nan
    return SetValues(action_value, set_value, set_value[:, None] - action_value, reach)


def set_values_over(tree: GameTree, strategies: Iterable[np.ndarray],
                    sets: Sequence[int] | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(action_value [F, S, A], set_value [F, S]) of `set_values` for each profile [I, A] of `strategies`,
    kept for the information sets `sets` only (default: all I) and A = the widest of them.

    One profile at a time: only one frame's numbers for the whole tree are ever held, so a big
    game's many frames (liar's dice: 300 frames x 5,120 sets x 10 actions) cost only what is kept.
    """
    index = np.arange(tree.num_infosets) if sets is None else np.asarray(sets, dtype=np.int64)
    width = int(tree.num_actions[index].max()) if len(index) else 0
    action_values: list[np.ndarray] = []
    set_value_rows: list[np.ndarray] = []
    for strategy in strategies:
        frame = set_values(tree, strategy)
        action_values.append(frame.action_value[index, :width])
        set_value_rows.append(frame.set_value[index])
    if not action_values:
        return np.zeros((0, len(index), width)), np.zeros((0, len(index)))
    return np.stack(action_values), np.stack(set_value_rows)


def session_loss(decisions: list[float] | tuple[float, ...]) -> tuple[int, float]:
    """(decisions, total EV loss in chips) over a session's decisions, as solver trainers keep it."""
    return len(decisions), float(sum(decisions))


# ---------------------------------------------------------------------------------------------
# The table: who has put in what, the pot, whose turn


@dataclass(frozen=True)
class Step:
    """One step of a hand as the table shows it.

    `actor` is who moved (first, second or chance) and `action` what (a chance step's outcome label); `bets`
    are the chips each player has put in after the step (antes included) and `pot` their sum
    (None in games without chips); `to_act` is who moves next.
    """

    node: int
    actor: Player
    action: str
    bets: tuple[float, float] | None
    pot: float | None
    to_act: Player


def stakes(tree: GameTree) -> tuple[float, tuple[float, ...]] | None:
    """(ante, bet size of each betting round) of a poker game in chips, None for other games."""
    game = tree.game
    if isinstance(game, KuhnPoker):
        return 1.0, (1.0,)
    if isinstance(game, LeducPoker):
        return 1.0, tuple(BET_SIZE)
    return None


def steps(tree: GameTree, hand: Hand) -> tuple[Step, ...]:
    """Every step of the hand so far, chance deals included, with the bets and pot after each.

    A bet or raise puts in the round's size on top of the most anyone has in; a call matches it.
    """
    chips = stakes(tree)
    bets = [chips[0], chips[0]] if chips else None
    betting_round = -1   # the root deal starts round 0
    out = []
    for node in hand.path[1:]:
        parent = int(tree.parent[node])
        who = Player(int(tree.actor[parent]))
        action = tree.edge_label[node]
        if who == Player.CHANCE:
            betting_round += 1
        elif bets is not None and chips is not None:
            size = chips[1][min(max(betting_round, 0), len(chips[1]) - 1)]
            if action in ("bet", "raise"):
                bets[who] = max(bets) + size
            elif action == "call":
                bets[who] = max(bets)
        out.append(Step(node, who, action, None if bets is None else (bets[0], bets[1]),
                        None if bets is None else bets[0] + bets[1], Player(int(tree.actor[node]))))
    return tuple(out)


def is_over(tree: GameTree, hand: Hand) -> bool:
    return int(tree.actor[hand.node]) == Player.TERMINAL


def human_chips(tree: GameTree, hand: Hand) -> float:
    """Chips the human won (negative: lost) in a finished hand."""
    if not is_over(tree, hand):
        raise ValueError("The hand is not over yet; finish it before scoring it.")
    payoff = float(tree.payoff[hand.node])
    return payoff if hand.seat == Player.FIRST else -payoff


def deal_labels(tree: GameTree, hand: Hand) -> tuple[str, ...]:
    """The chance outcomes dealt so far, in order (e.g. ("QK",) or ("QK", "J"))."""
    return tuple(tree.edge_label[n] for n in hand.path[1:] if int(tree.actor[tree.parent[n]]) == Player.CHANCE)


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
                 if int(tree.actor[tree.parent[n]]) < Player.CHANCE)


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


def known_game_value(tree: GameTree, game: GameSpec) -> float | None:
    """Player 1's value of `game`, whose tree is `tree` (`cfrviz.analysis.reference.game_value`: known,
    exact or from the LP)."""
    from cfrviz.analysis.reference import game_value

    return game_value(tree, game)


def seat_value(game_value: float, seat: Player) -> float:
    """The game's value for a seat, given player 1's value (zero-sum: player 2 gets the negative)."""
    return game_value if seat == Player.FIRST else -game_value


def seat_for_hand(choice: Player | None, number: int) -> Player:
    """The human's seat for hand `number` (0-based): the chosen player, or with `choice` None
    alternating, player 1 first."""
    if choice is None:
        return DECISION_PLAYERS[number % 2]
    if choice not in DECISION_PLAYERS:
        raise ValueError(f"Seat must be player 1 or player 2, not {choice!r}.")
    return choice
