"""What Play's buttons do (deal, act, reset, show a loss), and the session keys they keep the hands in.

Streamlit keeps a session's button callbacks, with their arguments, until that session's next
run. A callback defined in the page keeps the page's every variable alive with it (its globals),
the solved run among them, for as long as the tab stays open. So the callbacks live here and take
what they need as arguments: the tree (the catalog's own, shared), the bot's strategy at t (a copy
of that one row of the run) and small numbers.
"""
from __future__ import annotations

from collections.abc import Hashable

import numpy as np
import streamlit as st

from cfrviz.app import registry
from cfrviz.app.settings import page_value
from cfrviz.teaching import play
from cfrviz.tree import GameTree

__all__ = ["HAND_KEY", "LOSSES_KEY", "PREDICTED_KEY", "RESULTS_KEY", "SEATS_KEY", "SECRET_KEY", "SESSION_KEY",
           "deal", "reset", "show_loss", "take"]

HAND_KEY = "play_hand"
RESULTS_KEY = "play_results"
SEATS_KEY = "play_seats"
LOSSES_KEY = "play_losses"
SESSION_KEY = "play_session"
SECRET_KEY = "play_secret"
PREDICTED_KEY = "play_predicted"   # (hand, decisions) whose EV loss the learner has chosen to see


def deal(tree: GameTree, strategy: np.ndarray, seed: int | None, number: int) -> None:
    """Deal hand `number` against `strategy`, from `seed` (a seeded replay) or the session's secret.
    `number` is the hand the button was drawn for: a second click deals nothing new."""
    current: play.Hand | None = st.session_state[HAND_KEY]
    if number != len(st.session_state[RESULTS_KEY]) or (current is not None and current.number == number
                                                         and current.path[-1] < tree.num_nodes):
        return
    seat = play.seat_for_hand(registry.parse_seat(str(page_value("play_seat"))), number)
    secret = int(st.session_state[SECRET_KEY])
    st.session_state[HAND_KEY] = play.start_hand(tree, strategy, seat=seat, seed=secret if seed is None else seed,
                                                 number=number)


def take(tree: GameTree, strategy: np.ndarray, iteration: int, action: str, number: int, step: int) -> None:
    """The human's `action` at step `step` of hand `number` (a click on a stale button changes nothing)."""
    current: play.Hand | None = st.session_state[HAND_KEY]
    if current is None:
        return
    hand = play.act_once(tree, strategy, current, action, number=number, step=step, iteration=iteration)
    if hand is current:
        return      # a click on buttons of a step already taken
    st.session_state[HAND_KEY] = hand
    st.session_state[LOSSES_KEY] = [*st.session_state[LOSSES_KEY], hand.decisions[-1].loss]
    if play.is_over(tree, hand):
        st.session_state[RESULTS_KEY] = [*st.session_state[RESULTS_KEY], play.human_chips(tree, hand)]
        st.session_state[SEATS_KEY] = [*st.session_state[SEATS_KEY], hand.seat]


def reset() -> None:
    """A new session of hands: no results, no hand, a new secret."""
    for key in (RESULTS_KEY, SEATS_KEY, LOSSES_KEY):
        st.session_state[key] = []
    st.session_state[HAND_KEY] = None
    st.session_state[SECRET_KEY] = play.secret_seed()


def show_loss(asked: Hashable) -> None:
    """The learner has guessed: show the EV loss of decision `asked`."""
    st.session_state.setdefault(PREDICTED_KEY, set()).add(asked)
