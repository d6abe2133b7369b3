"""Walkthrough: one CFR iteration, one event at a time, stepped in the browser.

The whole trace goes to the timeline component once; stepping, playing and the table of
information sets never rerun this script. The component tells the server the step only when the
visitor pauses, so the share link (`walk_step`) keeps it.
"""
from __future__ import annotations

import dataclasses
import functools

import streamlit as st

from cfrviz import app as ui
from cfrviz.teaching import texts
from cfrviz.app import page_events, page_results, practice_box
from cfrviz.app.components import timeline
from cfrviz.figures.timeline import TimelineMode
from cfrviz.figures.walkthrough import first_part, walkthrough_payload
from cfrviz.solvers import ALGORITHMS, Algorithm, update_schemes
from cfrviz.teaching import practice
from cfrviz.teaching.narration import narrate_step
from cfrviz.util.text import escape_markdown
from cfrviz.teaching.walkthrough import deal_options

view = ui.setup_page(
    "Walkthrough of one iteration", solve=False, page=ui.Page.WALKTHROUGH,
    own_settings="This page has its own settings: the game, algorithm, deal, iteration and step below. "
                 "The sidebar's solve is not used here.")

TRACE_KEY = "walk_trace_inputs"
RANDOM_DEAL = "random (from the seed)"


st.markdown(texts.WALKTHROUGH_INTRO)

c1, c2, c3, c4, c5 = st.columns([1.1, 1.7, 1.2, 0.8, 1.1])
# Small extensive-form games only: a step-by-step walk of a big tree would never end.
walkable = page_results.walkable_games(view.choice.spec)
keys = list(walkable)
# Kept values this game cannot take fall back before the widgets are drawn.
if ui.page_value("walk_game") not in walkable:
    ui.set_page_value("walk_game", "kuhn" if "kuhn" in walkable else keys[0])
game_key = c1.selectbox("Game", keys, format_func=page_events.labels(keys, lambda k: walkable[k].label), **ui.bind("walk_game"))
game = walkable[game_key]
# Chance sampling samples the deal, so it needs a game that starts with one.
# The widget lists the algorithms' link strings; the page works with the `Algorithm` it names.
replayable = [a.value for a in page_results.replayable_algorithms(game)]
if ui.page_value("walk_algo") not in replayable:
    ui.set_page_value("walk_algo", Algorithm.CHANCE_SAMPLING.value if Algorithm.CHANCE_SAMPLING in replayable
                      else replayable[0])
algorithm = Algorithm(c2.selectbox("Algorithm", replayable, format_func=page_events.labels(replayable, lambda a: ALGORITHMS[a].title),
                                   **ui.bind("walk_algo")))
schemes = list(update_schemes(algorithm))
if ui.page_value("walk_updates") not in schemes:
    ui.set_page_value("walk_updates", schemes[0])
updates = c3.radio("Updates", schemes, horizontal=True, **ui.bind("walk_updates"))
t_cap = game.walkthrough_iteration_cap
ui.set_page_value("walk_t", min(int(ui.page_value("walk_t")), t_cap))
t = int(c4.number_input("Iteration t", help=f"1 to {t_cap:,}", min_value=1, max_value=t_cap, step=1,
                        **ui.bind("walk_t")))
tree = game.tree()
ui.rules_card(tree.game)
deal: str | None = None
seed = 0
if algorithm == Algorithm.CHANCE_SAMPLING:
    options = ["random", *deal_options(tree)]
    if ui.page_value("walk_deal") not in options:
        ui.set_page_value("walk_deal", "QK" if "QK" in options else "random")
    # Card games deal both players' cards at once; any other game's first chance event is named as it is.
    deal_label = "Deal (player 1, player 2)" if game.parts_by == "private card" else "First chance outcome"
    chosen = c5.selectbox(deal_label, options, format_func=page_events.labels(options, lambda d: RANDOM_DEAL if d == "random" else d),
                          help="Chance sampling walks one deal per iteration.", **ui.bind("walk_deal"))
    deal = None if chosen == "random" else chosen
    seed = int(st.columns([1, 3])[0].number_input(
        "Seed", min_value=0, max_value=ui.MAX_SEED, step=1, **ui.bind("walk_seed"),
        help="Draws the deals of iterations 1 … t − 1, and this one's when the deal is random."))
else:
    c5.caption("Vanilla CFR and its variants walk every deal.")

# The trace and its payload wait in line once for both, not once each (only when not kept yet).
with ui.heavy_page():
    request = page_results.TraceRequest(game, algorithm, updates, seed, t, deal)
    trace = page_results.walkthrough_trace(request)

    # A new trace starts at its first step, unless the session has just opened a link naming a step.
    inputs = (game.name, game.params, algorithm, updates, seed, t, deal)
    if st.session_state.get(TRACE_KEY) != inputs:
        if st.session_state.get(TRACE_KEY) is not None:
            ui.set_page_value("walk_step", 1)
        st.session_state[TRACE_KEY] = inputs
    count = len(trace.steps)
    step = min(max(int(ui.page_value("walk_step")), 1), count)

    # What the solver just did at the step shown, in plain words (follows the step the browser reports).
    st.markdown(escape_markdown(narrate_step(trace.steps[step - 1])))   # plain text: game names are in it
    # The timeline's t is the step here: the component opens at it and reports it back as "walk_step".
    walk_view = dataclasses.replace(view, tree=trace.tree, run=None, t=step, node=None, uploaded=False)
    timeline.mount(walk_view, nodes=first_part(trace), mode=TimelineMode.WALKTHROUGH, key="walk_timeline",
                   extra=timeline.Extra(key=("walkthrough", *inputs), build=lambda: walkthrough_payload(trace)),
                   events={"walk_step": functools.partial(page_events.walkthrough_step, count)},
                   file_about={"page": f"walkthrough of iteration {t}", "game name": str(game.name),
                               "algorithm": str(algorithm), "updates": str(updates), "seed": f"{seed}",
                               "deal": trace.deal or "every deal"})
st.caption(f"{count:,} steps" + (f" · deal {trace.deal}" if trace.deal else "") + f" · iteration {t}. " + texts.WALKTHROUGH_KEYS)
practice_box.ask(practice.Practice.WALKTHROUGH, lambda: practice.walkthrough_regret(trace, step - 1), (inputs, step))
