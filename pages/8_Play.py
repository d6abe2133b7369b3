"""Play: a human plays hands of the chosen game against the run's average strategy."""
from __future__ import annotations

import math

import streamlit as st

from cfrviz import catalog, app as ui
from cfrviz.teaching import play
from cfrviz.figures.play import bot_decision_figure, score_figure
from cfrviz.games import CHANCE

view = ui.setup_page("Play against the strategy", page="play")
tree = view.tree

HAND_KEY = "play_hand"
RESULTS_KEY = "play_results"
SEATS_KEY = "play_seats"
SESSION_KEY = "play_session"

# Card games show the cards; any other game shows the information set the human is in.
cards_dealt = catalog.of_tree(tree).parts_by == "private card"
has_board = cards_dealt and bool(((tree.actor == CHANCE) & (tree.depth > 0)).any())

st.markdown(
    "You play against the **average strategy** of the sidebar's solve at the iteration below. "
    "Chance and the bot's choices come from a random generator built from the seed, so the "
    "same seed deals the same hands. After each bot decision you see the probabilities it had.")
ui.rules_card(tree.game, expanded=True)
ui.iteration_slider(view)
strategy = ui.solved_run(view).average_strategy[view.snapshot]

c1, c2, c3 = st.columns([2, 1, 1])
SEATS = {"p1": "player 1", "p2": "player 2", "alternate": "alternate"}
seat_choice = c1.radio("Your seat", list(SEATS), format_func=SEATS.get, horizontal=True, **ui.bind("play_seat"))
seed = int(c2.number_input("Seed", min_value=0, max_value=ui.MAX_SEED, step=1, **ui.bind("play_seed")))
game_value = play.known_game_value(tree)

# A new game or seed starts a new session of hands.
session = (tree.game.title, seed)
if st.session_state.get(SESSION_KEY) != session:
    st.session_state[SESSION_KEY] = session
    st.session_state[HAND_KEY] = None
    st.session_state[RESULTS_KEY] = []
    st.session_state[SEATS_KEY] = []


def deal() -> None:
    number = len(st.session_state[RESULTS_KEY])
    seat = play.seat_for_hand(SEATS[ui.page_value("play_seat")], number)
    st.session_state[HAND_KEY] = play.start_hand(tree, strategy, seat=seat, seed=seed, number=number)


def take(action: str) -> None:
    hand = play.act(tree, strategy, st.session_state[HAND_KEY], action)
    st.session_state[HAND_KEY] = hand
    if play.is_over(tree, hand):
        st.session_state[RESULTS_KEY] = [*st.session_state[RESULTS_KEY], play.human_chips(tree, hand)]
        st.session_state[SEATS_KEY] = [*st.session_state[SEATS_KEY], hand.seat]


def reset() -> None:
    st.session_state[HAND_KEY] = None
    st.session_state[RESULTS_KEY] = []
    st.session_state[SEATS_KEY] = []


c3.button("Reset the score", on_click=reset, key="play_reset", width="stretch")
hand: play.Hand | None = st.session_state.get(HAND_KEY)
if hand is not None and hand.path and hand.path[-1] >= tree.num_nodes:
    hand = None  # a hand from another game

table, side = st.columns([3, 2])
with table:
    if hand is None:
        st.button("Deal the first hand", on_click=deal, key="play_deal", type="primary")
    else:
        me = hand.seat
        over = play.is_over(tree, hand)
        st.subheader(f"Hand {hand.number + 1} · you are player {me + 1}")
        public = play.public_card(tree, hand) if cards_dealt else None
        if cards_dealt:
            cards = play.private_cards(tree, hand)
            k1, k2, k3 = st.columns(3)
            k1.metric("Your card", cards[me])
            k2.metric("Bot's card", cards[1 - me] if over else "?")
            if has_board:
                k3.metric("Public card", public or "not dealt")
        else:
            dealt = play.deal_labels(tree, hand)
            known = play.information_set(tree, hand)
            st.markdown((f"Chance dealt: **{' , '.join(dealt)}**. " if dealt and over else "")
                        + (f"Your information set: **`{known}`**" if known is not None else ""))
        lines = [f"{'you' if who == me else 'bot'} ({'player ' + str(who + 1)}): **{name}**"
                 for who, name in play.action_history(tree, hand)]
        st.markdown(("Betting so far: " if cards_dealt else "Moves so far: ")
                    + (" → ".join(lines) if lines else "nothing yet"))
        if over:
            chips = play.human_chips(tree, hand)
            verdict = "win" if chips > 0 else ("lose" if chips < 0 else "split the pot and get")
            history = play.action_history(tree, hand)
            folded = bool(history) and history[-1][1] == "fold"
            if cards_dealt:
                opening = (("You fold" if history[-1][0] == me else "The bot folds") + ". Cards revealed:"
                           if folded else "Showdown:")
                st.success(f"{opening} you held {cards[me]}, the bot held {cards[1 - me]}"
                           + (f", the board {public}" if public else "")
                           + f". You {verdict} {abs(chips):g} chip{'s' if abs(chips) != 1 else ''}.")
            else:
                st.success(f"The hand ends at {tree.node_label[hand.node]}. "
                           f"You {verdict} {abs(chips):g} chip{'s' if abs(chips) != 1 else ''}.")
            st.button("Deal the next hand", on_click=deal, key="play_deal", type="primary")
        else:
            st.write("Your move:")
            buttons = st.columns(len(play.legal_actions(tree, hand)))
            for column, action in zip(buttons, play.legal_actions(tree, hand)):
                column.button(action.capitalize(), on_click=take, args=(action,), key=f"play_action_{action}",
                              width="stretch")
with side:
    if hand is not None and hand.bot_decisions:
        st.caption("The bot's decisions this hand (probabilities from the average strategy):")
        for k, decision in enumerate(hand.bot_decisions):
            st.plotly_chart(bot_decision_figure(decision), width="stretch", key=f"play_bot_{k}",
                            config={"displayModeBar": False})

results = st.session_state[RESULTS_KEY]
if results:
    summary = play.score(results)
    seats = st.session_state[SEATS_KEY]
    seat_values = None if game_value is None else [play.seat_value(game_value, s) for s in seats]
    s1, s2, s3 = st.columns(3)
    s1.metric("Hands played", f"{summary.hands}")
    se = "" if math.isnan(summary.standard_error) else f" ± {summary.standard_error:.2f}"
    s2.metric("Your chips per hand", f"{summary.mean:+.3f}{se}", help="mean ± one standard error")
    s3.metric("Game value for your seats", "unknown" if seat_values is None
              else f"{sum(seat_values) / len(seat_values):+.4f}",
              help="What an equilibrium player earns on average in the seats you played.")
    st.caption(f"Total: {summary.total:+g} chips.")
    st.plotly_chart(score_figure(results, seat_values), width="stretch", key="play_score",
                    config={"displayModeBar": False})
