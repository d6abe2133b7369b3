"""Playing hands against a strategy: dealing, bot decisions and scoring."""
from __future__ import annotations

import math

import numpy as np
import pytest

from cfrviz.teaching import play
from cfrviz.catalog import compile_game
from cfrviz.util.vocabulary import Player


def pure(tree, index: int) -> np.ndarray:
    """[I, A] a bot that always takes the action with this index (0 = check/fold, 1 = bet/call)."""
    strategy = np.zeros(tree.legal.shape)
    strategy[:, index] = 1.0
    return strategy


def check_or_call(actions: tuple[str, ...]) -> str:
    return "check" if "check" in actions else "call"


def play_scripted(tree, bot, seed, hands, seat_choice=None):   # None: alternate seats
    finished = []
    for n in range(hands):
        hand = play.start_hand(tree, bot, seat=play.seat_for_hand(seat_choice, n), seed=seed, number=n)
        while not play.is_over(tree, hand):
            hand = play.act(tree, bot, hand, check_or_call(play.legal_actions(tree, hand)))
        finished.append(hand)
    return finished


def test_scripted_kuhn_session_gives_hand_computed_chips():
    # Bot always bets or calls; the human (alternating seats, player 1 first) always checks or calls,
    # so every hand is a showdown for 2 chips. The deals are pinned by seed 2026 (PCG64).
    # Hand computation, human's chips:
    #   hand 0, human P1, KQ: check, bet, call; K beats Q  -> +2
    #   hand 1, human P2, JQ: bet, call; human holds Q > J -> +2
    #   hand 2, human P1, JQ: human J loses to Q           -> -2
    #   hand 3, human P2, JQ: human Q wins                 -> +2
    #   hand 4, human P1, JQ: human J loses                -> -2
    #   hand 5, human P2, JK: human K wins                 -> +2
    tree = compile_game("kuhn")
    hands = play_scripted(tree, pure(tree, 1), seed=2026, hands=6)
    assert [play.deal_labels(tree, h) for h in hands] == [("KQ",), ("JQ",), ("JQ",), ("JQ",), ("JQ",), ("JK",)]
    assert [h.seat for h in hands] == [0, 1, 0, 1, 0, 1]
    assert [play.action_history(tree, h) for h in hands[:2]] == [
        ((0, "check"), (1, "bet"), (0, "call")), ((0, "bet"), (1, "call"))]
    chips = [play.human_chips(tree, h) for h in hands]
    assert chips == [2.0, 2.0, -2.0, 2.0, -2.0, 2.0]
    result = play.score(chips)
    # Hand computation: total 4, mean 2/3; sample variance = (4 * (4/3)^2 + 2 * (8/3)^2) / 5 = 64/15.
    assert result.total == 4.0
    assert result.mean == pytest.approx(2 / 3)
    assert result.standard_error == pytest.approx(math.sqrt(64 / 15 / 6))


def test_same_seed_replays_identically_and_bot_records_probabilities():
    # Reproducibility is the contract of the seeded generator (one per seed, hand and step).
    tree = compile_game("kuhn")
    bot = tree.uniform_strategy()
    first = play_scripted(tree, bot, seed=11, hands=5)
    again = play_scripted(tree, bot, seed=11, hands=5)
    assert first == again
    decisions = [d for h in first for d in h.bot_decisions]
    assert decisions, "the bot acts in every Kuhn hand"
    # Uniform strategy: every recorded decision had probabilities (1/2, 1/2).
    assert all(d.probabilities == (0.5, 0.5) for d in decisions)


def test_forced_deal_and_passive_bot():
    # Hand computation: human P1 holds Q vs K. Betting into an always-fold bot wins the ante (+1);
    # checking behind an always-check bot goes to showdown, Q loses to K (-1).
    tree = compile_game("kuhn")
    bot = pure(tree, 0)
    hand = play.start_hand(tree, bot, seat=Player.FIRST, seed=0, number=0, deal="QK")
    assert play.legal_actions(tree, hand) == ("check", "bet")
    assert play.human_chips(tree, play.act(tree, bot, hand, "bet")) == 1.0
    assert play.human_chips(tree, play.act(tree, bot, hand, "check")) == -1.0


def test_leduc_hand_with_public_card():
    # Hand computation (Leduc rules, LeducPoker.rules): human P1 holds K, the bot J and always bets or calls.
    # Round 1: check, bot bets 2, call. Round 2: check, bot bets 4, call.
    tree = compile_game("leduc")
    bot = pure(tree, 1)
    hand = play.start_hand(tree, bot, seat=Player.FIRST, seed=0, number=0, deal="KJ")
    hand = play.act(tree, bot, hand, "check")           # bot bets 2
    hand = play.act(tree, bot, hand, "call")            # public card is dealt at random
    assert play.deal_labels(tree, hand)[0] == "KJ"
    public = play.deal_labels(tree, hand)[1]
    hand = play.act(tree, bot, hand, "check")           # bot bets 4
    hand = play.act(tree, bot, hand, "call")
    assert play.is_over(tree, hand)
    # Paid 1 + 2 + 4 = 7 each; K wins unless the public card is a J (pairs the bot).
    assert play.human_chips(tree, hand) == (-7.0 if public == "J" else 7.0)


def test_bad_input_is_a_clear_value_error():
    tree = compile_game("kuhn")
    bot = tree.uniform_strategy()
    with pytest.raises(ValueError, match="Seat must be"):
        play.start_hand(tree, bot, seat=Player.CHANCE, seed=0, number=0)
    with pytest.raises(ValueError, match="No deal"):
        play.start_hand(tree, bot, seat=Player.FIRST, seed=0, number=0, deal="QQ")
    hand = play.start_hand(tree, bot, seat=Player.FIRST, seed=0, number=0, deal="QK")
    with pytest.raises(ValueError, match="cannot 'raise'"):
        play.act(tree, bot, hand, "raise")
    with pytest.raises(ValueError, match="not over"):
        play.human_chips(tree, hand)
    rps = compile_game("rps")
    with pytest.raises(ValueError, match="starts without a deal"):
        play.start_hand(rps, rps.uniform_strategy(), seat=Player.FIRST, seed=0, number=0, deal="QK")


def test_a_matrix_game_is_played_too():
    # Rock-paper-scissors: the human (player 2) moves after the bot without seeing its row, so they
    # are asked at their one information set, and the payoff is the matrix entry (rock vs paper: +1).
    rps = compile_game("rps")
    rock = np.zeros(rps.legal.shape)
    rock[:, 0] = 1.0
    hand = play.start_hand(rps, rock, seat=Player.SECOND, seed=0, number=0)
    assert play.legal_actions(rps, hand) == ("rock", "paper", "scissors")
    assert play.information_set(rps, hand) == "player 2"
    hand = play.act(rps, rock, hand, "paper")
    assert play.is_over(rps, hand) and play.human_chips(rps, hand) == 1.0


def test_seat_value_is_zero_sum():
    # Kuhn's value for player 1 is -1/18 (Kuhn 1950); player 2's seat is worth +1/18.
    assert play.seat_value(-1 / 18, 0) == -1 / 18
    assert play.seat_value(-1 / 18, 1) == 1 / 18


def test_a_click_replayed_after_the_hand_moved_on_counts_once():
    # Kuhn, human player 1 holding Q against K, bot always bets (Kuhn's rules: check, bet, then the
    # human must call or fold). A browser that sends "check" twice (two clicks 0 ms apart) replays
    # the first click's hand number and step: the second is ignored, not "You cannot 'check' here".
    tree = compile_game("kuhn")
    bot = pure(tree, 1)
    hand = play.start_hand(tree, bot, seat=Player.FIRST, seed=0, number=4, deal="QK")
    step = len(hand.path)
    once = play.act_once(tree, bot, hand, "check", number=4, step=step)
    assert play.legal_actions(tree, once) == ("fold", "call") and len(once.decisions) == 1
    assert play.act_once(tree, bot, once, "check", number=4, step=step) is once
    # A click on the current buttons still counts; a stale step, another hand or an illegal action do not.
    assert play.act_once(tree, bot, once, "call", number=4, step=step) is once
    assert play.act_once(tree, bot, once, "call", number=3, step=len(once.path)) is once
    assert play.act_once(tree, bot, once, "bet", number=4, step=len(once.path)) is once
    done = play.act_once(tree, bot, once, "call", number=4, step=len(once.path))
    assert play.is_over(tree, done) and play.human_chips(tree, done) == -2.0   # Q loses to K for 2
    assert play.act_once(tree, bot, done, "call", number=4, step=len(once.path)) is done


def test_secret_seeds_differ():
    # 128 random bits: two draws coincide with probability 2**-128.
    assert play.secret_seed() != play.secret_seed()
    assert 0 <= play.secret_seed() < 2 ** play.SECRET_BITS
