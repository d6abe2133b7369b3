"""Play: a human plays hands of the chosen game against the run's average strategy at the iteration
chosen on the browser timeline, and sees what each decision cost against that strategy.

The server keeps the hand (dealt and answered from generators built from a secret seed drawn for
the session, or from the visitor's seed in a seeded replay) and the session's results in session
state, so no rerun loses them; every button sends the hand and step it was drawn for, so a second
click on a stale button is ignored; the timeline (tree, the bot's
strategy at t, what each decision costs at t) runs in the browser and tells the server `t`.
"""
from __future__ import annotations

import functools
import math

import numpy as np

import streamlit as st

from cfrviz import app as ui
from cfrviz.app import registry
from cfrviz.app import play_buttons, practice_box
from cfrviz.app.play_buttons import HAND_KEY, LOSSES_KEY, PREDICTED_KEY, RESULTS_KEY, SEATS_KEY, SECRET_KEY, SESSION_KEY
from cfrviz.app.components import timeline
from cfrviz.figures.timeline import TimelineMode
from cfrviz.figures._style import PLAYER_NAMES
from cfrviz.figures.play import hand_state, play_extra, score_figure, shown_snapshot_included
from cfrviz.figures.drawn import is_drawn_whole
from cfrviz.util.vocabulary import DECISION_PLAYERS, Player, player_text
from cfrviz.teaching import play, practice
from cfrviz.tree import parts as tree_parts
from cfrviz.util.text import escape_markdown as md, number

view = ui.setup_page("Play against the strategy", page=ui.Page.PLAY)
tree = view.tree
run = ui.solved_run(view)
t = int(run.iterations[view.snapshot])
strategy = run.average_strategy[view.snapshot]

# The bot's strategy at t for the buttons: a copy of the one row, so what Streamlit keeps of the
# buttons until the next run holds no solved run (`cfrviz.app.play_buttons`).
bot = np.array(strategy)

# Card games show the cards; any other game shows the information set the human is in.
cards_dealt = view.settings.spec.parts_by == "private card"
has_board = cards_dealt and bool(((tree.actor == Player.CHANCE) & (tree.depth > 0)).any())

# One plain paragraph first, so "Deal the first hand" is in view at 1280×800; the notation waits in an expander.
st.markdown(
    "Play hands against a bot that plays the solver's **average strategy at iteration t** (move t on the "
    "timeline below). After each of your decisions you see its **EV loss**: how many chips that choice gives "
    "up against the strategy. Zero means you played as well as the strategy.")
with st.expander("How the EV loss and the deals work"):
    st.markdown(
        "At your information set I, the EV loss is the strategy's value v(I) minus the value v(I, a) of the "
        "action a you chose, where v(I, a) is the chips you expect after a, given only what you know at I (the "
        "opponent's and chance's reach of each history in I weighting it), when both players follow the "
        "strategy from then on. That is a's counterfactual value divided by the set's counterfactual reach; "
        "v(I) mixes the actions as the strategy does. The session's total adds every decision's loss.\n\n"
        "Chance and the bot draw from a secret seed drawn for your visit, so no one can tell the cards in "
        "advance; a **seeded replay** deals the seed's hands instead (the same seed, here or from a link, deals "
        "the same hands).")

c1, c2, c3, c4 = st.columns([2, 1.4, 1, 1])
# The seat's options are the link's strings; `registry.parse_seat` turns one into a player (None: alternate).
SEATS = {**{player_text(p, registry.SEAT_PREFIX): name for p, name in zip(DECISION_PLAYERS, PLAYER_NAMES)},
         registry.ALTERNATE_SEAT: "alternate"}
DEALS = {"secret": "secret", "seeded": "seeded replay"}
c1.radio("Your seat", list(SEATS), format_func=SEATS.get, horizontal=True, **ui.bind("play_seat"))
seeded = c2.radio("Deals", list(DEALS), format_func=DEALS.get, horizontal=True, **ui.bind("play_deals"),
                  help="Secret: cards from a seed drawn for your visit, which no one can predict. Seeded replay: "
                       "the hands of the seed on the right, the same every time.") == "seeded"
seed = int(c3.number_input("Seed", min_value=0, max_value=ui.MAX_SEED, step=1, disabled=not seeded,
                           **ui.bind("play_seed")))
game_value = play.known_game_value(tree, view.settings.spec)

# A new game, way of dealing or seed starts a new session of hands (with a new secret). The game is
# its catalog value (game string, file, payoffs): two files may share a title.
session = (view.settings.spec, seeded, seed if seeded else None)
dealt_seed = seed if seeded else None       # None: the session's secret
if st.session_state.get(SESSION_KEY) != session or SECRET_KEY not in st.session_state:
    st.session_state[SESSION_KEY] = session
    st.session_state[SECRET_KEY] = play.secret_seed()
    st.session_state[HAND_KEY] = None
    st.session_state[RESULTS_KEY] = []
    st.session_state[SEATS_KEY] = []
    st.session_state[LOSSES_KEY] = []


c4.button("Reset the score", on_click=play_buttons.reset, key="play_reset", width="stretch")
predicting = st.toggle("Practice: predict each decision's EV loss before it is shown", key="play_predict")
hand: play.Hand | None = st.session_state.get(HAND_KEY)
if hand is not None and hand.path and hand.path[-1] >= tree.num_nodes:
    hand = None  # a hand from another game


def chips(x: float) -> str:
    return f"{x:g} chip{'' if x == 1 else 's'}"


def who(player: int, me: int) -> str:
    return f"{'you' if player == me else 'bot'} (player {player + 1})"


table, side = st.columns([3, 2])
with table:
    if hand is None:
        st.button("Deal the first hand", on_click=play_buttons.deal, args=(tree, bot, dealt_seed, len(st.session_state[RESULTS_KEY])), key="play_deal",
                  type="primary")
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
            # Names from a file are a stranger's text: escaped, so they show as written and never as markup.
            st.markdown((f"Chance dealt: **{' , '.join(md(d) for d in dealt)}**. " if dealt and over else "")
                        + (f"Your information set: **{md(known)}**" if known is not None else ""))
        history = play.action_history(tree, hand)
        lines = [f"{who(player, me)}: **{md(name)}**" for player, name in history]
        st.markdown(("Betting so far: " if cards_dealt else "Moves so far: ")
                    + (" → ".join(lines) if lines else "nothing yet"))
        # The table at every step: who moved, what, the chips each has put in, the pot, who is next.
        steps = play.steps(tree, hand)
        with_chips = bool(steps) and steps[0].bets is not None
        rows = ["| who | what | " + ("in: you / bot | pot | " if with_chips else "") + "next |",
                "|---|---|" + ("---:|---:|" if with_chips else "") + "---|"]
        deals = 0
        for step in steps:
            if step.actor == Player.CHANCE:
                deals += 1
                if cards_dealt and deals == 1:
                    what = f"deals your card {md(cards[me])}" + (f", the bot's {md(cards[1 - me])}" if over else "")
                elif cards_dealt:
                    what = f"turns the public card {md(step.action)}"
                else:
                    what = "deals" + (f" {md(step.action)}" if over else "")
                mover = "chance"
            else:
                what, mover = md(step.action), who(step.actor, me)
            nxt = ("hand over" if step.to_act == Player.TERMINAL else "chance" if step.to_act == Player.CHANCE
                   else who(step.to_act, me))
            money = (f"{step.bets[me]:g} / {step.bets[1 - me]:g} | {step.pot:g} | "
                     if with_chips and step.bets is not None and step.pot is not None else "")
            rows.append(f"| {mover} | {what} | {money}{nxt} |")
        st.markdown("\n".join(rows))
        for decision in hand.decisions[-1:]:
            chosen = md(decision.actions[decision.chosen])
            asked = (hand.number, len(hand.decisions))
            if predicting:
                # Predict, then reveal: the loss is shown once the learner has committed to a guess.
                played = bot if decision.iteration is None else \
                    np.array(run.average_strategy[run.snapshot_at(decision.iteration)])   # the strategy the loss was judged by
                practice_box.ask(practice.Practice.PLAY, functools.partial(
                    practice.play_mistake, tree, played, decision.information_set,
                    decision.actions[decision.chosen]), (session, asked), expanded=True)
            if predicting and asked not in st.session_state.get(PREDICTED_KEY, set()) \
                    and not practice_box.answered(practice.Practice.PLAY, (session, asked)):
                st.button("Show the EV loss", key="play_show_loss", on_click=play_buttons.show_loss, args=(asked,))
                continue
            st.info(f"**EV loss of your {chosen} at {md(decision.information_set)}: {number(decision.loss, signed=True)} "
                    f"chips** against the average strategy of iteration t = {decision.iteration:,}: the strategy is "
                    f"worth {number(decision.set_value, signed=True)} there and {chosen} "
                    f"{number(decision.action_values[decision.chosen], signed=True)}.",
                    icon=":material/balance:")
        if over:
            won = play.human_chips(tree, hand)
            verdict = "win" if won > 0 else ("lose" if won < 0 else "split the pot and get")
            folded = bool(history) and history[-1][1] == "fold"
            if cards_dealt:
                opening = (("You fold" if history[-1][0] == me else "The bot folds") + ". Cards revealed:"
                           if folded else "Showdown:")
                st.success(f"{opening} you held {md(cards[me])}, the bot held {md(cards[1 - me])}"
                           + (f", the board {md(public)}" if public else "")
                           + f". You {verdict} {chips(abs(won))}.")
            else:
                st.success(f"The hand ends at {md(tree.node_label[hand.node])}. You {verdict} {chips(abs(won))}.")
            st.button("Deal the next hand", on_click=play_buttons.deal, args=(tree, bot, dealt_seed, len(st.session_state[RESULTS_KEY])),
                      key="play_deal", type="primary")
        else:
            last = steps[-1] if steps else None
            owed = (last.bets[1 - me] - last.bets[me]) if last is not None and last.bets is not None else 0.0
            st.markdown(f"**Your move** at t = {t:,}" + (f" · pot {last.pot:g}" if last and last.pot is not None else "")
                        + (f" · {chips(owed)} to call" if owed > 0 else ""))
            buttons = st.columns(len(play.legal_actions(tree, hand)))
            for column, action in zip(buttons, play.legal_actions(tree, hand)):
                column.button(md(action.capitalize()), on_click=play_buttons.take,
                              args=(tree, bot, t, action, hand.number, len(hand.path)),
                              key=f"play_action_{action}", width="stretch")

with side:
    count, total = play.session_loss(st.session_state[LOSSES_KEY])
    st.metric("EV loss this session", f"{number(total, signed=True)} chips",
              help="The sum of every decision's EV loss against the strategy the bot was playing.")
    st.caption(f"over {count} decision{'s' if count != 1 else ''}"
               + (f", {number(total / count, signed=True)} chips per decision" if count else ""))
    results = st.session_state[RESULTS_KEY]
    if results:
        summary = play.score(results)
        seats = st.session_state[SEATS_KEY]
        seat_values = None if game_value is None else [play.seat_value(game_value, s) for s in seats]
        s1, s2 = st.columns(2)
        s1.metric("Hands played", f"{summary.hands}")
        se = "" if math.isnan(summary.standard_error) else f" ± {number(summary.standard_error)}"
        s2.metric("Your chips per hand", f"{number(summary.mean, signed=True)}{se}", help="mean ± one standard error")
        st.metric("Game value for your seats", "unknown" if seat_values is None
                  else number(sum(seat_values) / len(seat_values), signed=True),
                  help="What an equilibrium player earns on average in the seats you played.")
        st.caption(f"Total: {number(summary.total, signed=True)} chips.")

# The part of the tree the human is in: their own view, so nothing shows the bot's cards.
ui.rules_card(tree.game, expanded=hand is None)   # below the table: the deal button comes first
seat = hand.seat if hand is not None else play.seat_for_hand(registry.parse_seat(str(ui.page_value("play_seat"))),
                                                              len(st.session_state[RESULTS_KEY]))
nodes: list[int] | None = None
players: tuple[Player, ...] = DECISION_PLAYERS
if not is_drawn_whole(tree):
    mine = [d.node for d in hand.decisions] if hand is not None else []
    if hand is not None and not play.is_over(tree, hand):
        mine.append(hand.node)
    if mine:
        part = tree_parts.part_of(tree, mine[-1])
    elif tree_parts.card_view(tree):
        part = tree_parts.parts(tree, seat)[0]
    else:
        part = tree_parts.parts(tree, "subtree")[0]
    nodes = tree_parts.part_nodes(tree, part).tolist()
    players = (seat,)
    st.caption(f"{md(tree.game.title)} is too big to draw whole: showing {md(tree_parts.label_of(tree, part))}.")
include = shown_snapshot_included(run, view.t)
timeline.mount(view, nodes=nodes, mode=TimelineMode.PLAY, key="play_timeline",
               arrangements=(0, 1) if tree_parts.card_view(tree) else (0,), kind_key="play_edges",
               extra=timeline.Extra(key=("play", players),
                                    build=lambda: play_extra(tree, run, nodes, players, include)),
               state=hand_state(tree, hand, seat))
ui.action_legend(tree.game)

if hand is not None and hand.bot_decisions:
    # A bot's information set names its card: its decisions show once the hand is over.
    if play.is_over(tree, hand):
        st.markdown("**The bot's decisions this hand** (its probabilities: the average strategy it played):\n\n"
                    + "\n".join(f"- at {md(d.information_set)}: "
                                 + " · ".join(f"{md(a)} {p:.4f}" for a, p in zip(d.actions, d.probabilities))
                                 + f" → **{md(d.actions[d.chosen])}**" for d in hand.bot_decisions))
    else:
        st.caption("The bot's probabilities at its decisions show when the hand is over (its information set "
                   "names its card).")
results = st.session_state[RESULTS_KEY]
if results:
    seat_values = None if game_value is None else [play.seat_value(game_value, s)
                                                   for s in st.session_state[SEATS_KEY]]
    st.plotly_chart(score_figure(results, seat_values), width="stretch", key="play_score",
                    config={"displayModeBar": False})
