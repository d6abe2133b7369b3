"""Evolution: regret and strategy of chosen information sets over the iterations, playback, heat map."""
from __future__ import annotations

import streamlit as st

from cfrviz import app as ui
from cfrviz.app import page_events
from cfrviz.app.links import sets_of_link
from cfrviz.figures.evolution import aggression_heatmap, infoset_curves_figure
from cfrviz.app.components import timeline
from cfrviz.figures.timeline import TimelineMode
from cfrviz.util.vocabulary import StrategyKind

PLAYBACK_ALL = 40  # most information sets shown all at once on the timeline
# Each chosen set adds curves and playback frames; on Leduc 5, 10, 20 and 40 sets cost 0.9, 1.1,
# 2.9 and 18.2 s of server time per rerun, so one visitor's click stays near a second.
MAX_CHOSEN = 8

view = ui.setup_page("Evolution", page=ui.Page.EVOLUTION)
run, tree = ui.solved_run(view), view.tree
ui.rules_card(tree.game)
keys = [record.key for record in tree.infosets]

default = [tree.infosets[tree.infoset[view.node]].key] if view.node is not None and tree.infoset[view.node] >= 0 \
    else keys[:2]
# The chosen sets live in the link as indices ("evo_sets"), so a shared link shows the same curves.
linked = str(ui.page_value("evo_sets"))
try:
    wanted = sets_of_link(linked, keys, MAX_CHOSEN)
except ValueError as problem:
    ui.notice(f"{problem}; showing the first information sets.")
    ui.set_page_value("evo_sets", "auto")
    wanted = None
if wanted is None:
    wanted = default
if st.session_state.get("evolution_infosets") != wanted:
    st.session_state["evolution_infosets"] = wanted


chosen = st.multiselect(f"Information sets (up to {MAX_CHOSEN})", keys, key="evolution_infosets",
                        on_change=page_events.sets_chosen, args=(list(keys), "evolution_infosets"),
                        max_selections=MAX_CHOSEN,
                        help="Information-set keys: private card, then the actions so far "
                             f"(k check, b bet, c call, f fold, r raise). At most {MAX_CHOSEN} at a time.")
ui.action_legend(tree.game)

# The app's one timeline: bars and curves follow it in the browser; the charts below follow on release.
everything = tree.num_infosets <= PLAYBACK_ALL
shown = range(tree.num_infosets) if everything else [tree.infoset_index(k) for k in chosen]
if shown:
    # One history names its set: the bars are per set, so the payload needs no numbers per history
    # (every history of an uploaded game's sets was 88,000 of them, past the payload's bound).
    timeline.mount(view, nodes=[int(tree.nodes_of(i)[0]) for i in shown], mode=TimelineMode.SETS,
                   key="evolution_timeline", focus=chosen)
    st.caption(("Every information set" if everything else "The chosen information sets")
               + " at iteration t, with the chosen ones' curves: press ▶ or drag the slider, all in your browser.")
else:
    timeline.mount(view, nodes=[], mode=TimelineMode.CHARTS, key="evolution_timeline")
if chosen:
    st.plotly_chart(infoset_curves_figure(run, [tree.infoset_index(k) for k in chosen], view.t),
                    key="evolution_curves")
else:
    st.info("Choose one or more information sets to plot their regret and strategy.")

kind = StrategyKind(st.radio("Strategy in the heat map", [k.value for k in StrategyKind], horizontal=True,
                             key="evolution_kind"))
st.subheader("Every information set over the iterations")
st.plotly_chart(aggression_heatmap(run, kind=kind, t=view.t), key="evolution_heatmap")
