"""Walkthrough: one CFR iteration, one event at a time."""
from __future__ import annotations

from typing import Any

import numpy as np
import streamlit as st

from cfrviz import catalog, app as ui
from cfrviz.figures.walkthrough import step_figure, walkthrough_tree_figure
from cfrviz.solvers import ALGORITHMS, update_schemes
from cfrviz.teaching.walkthrough import (
    IterationTrace,
    WALKTHROUGH_ALGORITHMS,
    deal_options,
    information_set_table,
    solver_state_before,
    trace_iteration,
)

view = ui.setup_page(
    "Walkthrough of one iteration", solve=False, page="walkthrough",
    own_settings="This page has its own settings: the game, algorithm, deal, iteration and step below. "
                 "The sidebar's solve is not used here.")

STEP_KEY = "walk_step"
TRACE_KEY = "walk_trace_inputs"
RANDOM_DEAL = "random (from the seed)"


@st.cache_resource(max_entries=8, show_spinner="Replaying the iterations before t…")
def cached_trace(game: str, game_params: tuple[tuple[str, Any], ...], algorithm: str, updates: str, seed: int, t: int,
                 deal: str | None) -> IterationTrace:
    """The trace of iteration t, replayed from the real solver's state after t - 1 iterations."""
    tree = catalog.get(game, **dict(game_params)).tree()
    regret, strategy_sum, prediction = solver_state_before(tree, algorithm, updates, seed, t)
    return trace_iteration(tree, regret, strategy_sum, prediction=prediction, algorithm=algorithm, updates=updates,
                           iteration=t,
                           deal=deal, rng=np.random.default_rng([seed, t]))


st.markdown(
    "CFR walks the game tree once per iteration. Going down, each decision node plays its **current "
    "strategy** and passes the **reach probabilities** on. Coming back, it gets each action's "
    "**utility**, forms the node's utility, and adds the **regrets**, weighted by how likely the "
    "opponent and chance were to get there, to the cumulative regret. The defaults replay the "
    "worked example: chance sampling, as in Neller and Lanctot's Kuhn trainer, deals Q against K from a "
    "uniform start.")

c1, c2, c3, c4, c5 = st.columns([1.1, 1.7, 1.2, 0.8, 1.1])
# Small extensive-form games only: a step-by-step walk of a big tree would never end.
walkable = {str(g.link): g for g in catalog.menu() if g.walkthrough and not g.matrix}
chosen_game = view.choice.catalog_game
if chosen_game.walkthrough and not chosen_game.matrix and chosen_game.link is None:
    walkable = {"uploaded": chosen_game, **walkable}
keys = list(walkable)
# Kept values this game cannot take fall back before the widgets are drawn.
if ui.page_value("walk_game") not in walkable:
    ui.set_page_value("walk_game", "kuhn" if "kuhn" in walkable else keys[0])
game_key = c1.selectbox("Game", keys, format_func=lambda k: walkable[k].label, **ui.bind("walk_game"))
game = walkable[game_key]
# Chance sampling samples the deal, so it needs a game that starts with one.
replayable = [a for a in WALKTHROUGH_ALGORITHMS if a != "chance" or deal_options(game.tree())]
if ui.page_value("walk_algo") not in replayable:
    ui.set_page_value("walk_algo", "chance" if "chance" in replayable else replayable[0])
algorithm = c2.selectbox("Algorithm", replayable, format_func=lambda a: ALGORITHMS[a].title, **ui.bind("walk_algo"))
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
if algorithm == "chance":
    options = ["random", *deal_options(tree)]
    if ui.page_value("walk_deal") not in options:
        ui.set_page_value("walk_deal", "QK" if "QK" in options else "random")
    # Card games deal both players' cards at once; any other game's first chance event is named as it is.
    deal_label = "Deal (player 1, player 2)" if game.parts_by == "private card" else "First chance outcome"
    chosen = c5.selectbox(deal_label, options, format_func=lambda d: RANDOM_DEAL if d == "random" else d,
                          help="Chance sampling walks one deal per iteration.", **ui.bind("walk_deal"))
    deal = None if chosen == "random" else chosen
    seed = int(st.columns([1, 3])[0].number_input(
        "Seed", min_value=0, max_value=ui.MAX_SEED, step=1, **ui.bind("walk_seed"),
        help="Draws the deals of iterations 1 … t − 1, and this one's when the deal is random."))
else:
    c5.caption("Vanilla CFR and its variants walk every deal.")

trace = cached_trace(game.name, game.params, algorithm, updates, seed, t, deal)

# A new trace starts at its first step, unless the session has just opened a link naming a step.
inputs = (game.name, game.params, algorithm, updates, seed, t, deal)
if st.session_state.get(TRACE_KEY) != inputs:
    if st.session_state.get(TRACE_KEY) is not None:
        ui.set_page_value("walk_step", 1)
    st.session_state[TRACE_KEY] = inputs
last = len(trace.steps) - 1
step_index = min(max(int(ui.page_value("walk_step")) - 1, 0), last)
st.session_state[STEP_KEY] = step_index


def move(to: int) -> None:
    step = min(max(to, 0), last)
    st.session_state[STEP_KEY] = step
    ui.set_page_value("walk_step", step + 1)


def next_return(start: int) -> int:
    for s in trace.steps[start + 1:]:
        if s.kind in ("return", "finish"):
            return int(s.index)
    return last


b1, b2, b3, b4, b5 = st.columns([1, 1, 1, 1.3, 3])
b1.button("« Start", on_click=move, args=(0,), key="walk_first", width="stretch")
b2.button("◀ Back", on_click=move, args=(step_index - 1,), key="walk_back", width="stretch",
          disabled=step_index == 0)
b3.button("Next ▶", on_click=move, args=(step_index + 1,), key="walk_next", width="stretch",
          disabled=step_index == last)
b4.button("Next update »", on_click=move, args=(next_return(step_index),), key="walk_next_update",
          width="stretch", disabled=step_index == last,
          help="Jump to the next node whose regrets are updated.")
b5.markdown(f"**Step {step_index + 1} of {len(trace.steps)}**"
            + (f" · deal {trace.deal}" if trace.deal else "") + f" · iteration {t}")

step = trace.steps[step_index]
left, right = st.columns([1, 1])
with left:
    st.plotly_chart(walkthrough_tree_figure(trace, step_index), width="stretch", key="walk_tree",
                    config={"displayModeBar": False})
with right:
    st.subheader(f"{step.kind.capitalize()} · {step.history}")
    st.write(step.text)
    if step.kind in ("visit", "return", "terminal", "chance"):
        r1, r2, r3 = st.columns(3)
        r1.metric("Reach, player 1", f"{step.reach[0]:.3g}")
        r2.metric("Reach, player 2", f"{step.reach[1]:.3g}")
        r3.metric("Reach, chance", f"{step.reach[2]:.3g}")
    if step.kind == "visit":
        st.dataframe({"action": list(step.actions), "current strategy": list(step.strategy)},
                     hide_index=True, width="stretch")

if step.kind == "return":
    numbers, bars = st.columns([3, 2])
    with numbers:
        st.dataframe({
            "action": list(step.actions),
            "strategy": list(step.strategy),
            "utility": list(step.action_utility),
            "regret": list(step.regret),
            "Δ regret sum": list(step.regret_update),
            "Δ strategy sum": list(step.strategy_sum_update),
        }, hide_index=True, width="stretch", column_config={
            "Δ regret sum": st.column_config.NumberColumn(help=f"{step.counterfactual_weight:.3g} × regret"),
            "Δ strategy sum": st.column_config.NumberColumn(help=f"{step.strategy_weight:.3g} × strategy")})
        st.caption(f"Node utility for player {step.player + 1}: {step.node_utility:+.4g}. Δ regret sum = "
                   f"{step.counterfactual_weight:.3g} × regret: the opponent's and chance's reach (over the "
                   f"sampling probability for chance sampling). Δ strategy sum = {step.strategy_weight:.3g} × "
                   "strategy: the player's own reach.")
    with bars:
        st.plotly_chart(step_figure(step), width="stretch", key="walk_step_bars", config={"displayModeBar": False})

st.subheader("Every information set, before and after this iteration")
st.caption("The *after* columns fill in as the walk goes: a set shows its new sums once the walk has "
           "returned through it (… where the end of the pass still changes them).")
rows = information_set_table(trace, upto=step_index)
only_changed = st.toggle("Only information sets this iteration changes", value=True, key="walk_only_changed")
shown = [r for r in rows if r["changed"]] if only_changed else rows
current_key = step.information_set
narrow = st.column_config.TextColumn(width="small")
st.dataframe([{**{k: v for k, v in r.items() if k != "changed"},
               "information set": ("▶ " if r["information set"] == current_key else "") + str(r["information set"])}
              for r in shown], hide_index=True, width="stretch",
             column_config={"player": st.column_config.NumberColumn(width="small"), "actions": narrow,
                            "strategy": narrow, "strategy sum before": st.column_config.TextColumn("Σ strategy before"),
                            "strategy sum after": st.column_config.TextColumn("Σ strategy after")})
