"""Evolution: regret and strategy of chosen information sets over the iterations, playback, heat map."""
from __future__ import annotations

import streamlit as st

from cfrviz import ui
from cfrviz.figures.evolution import aggression_heatmap, infoset_curves_figure, strategy_playback_figure

PLAYBACK_ALL = 40  # most information sets animated all at once
# Each chosen set adds curves and playback frames; on Leduc 5, 10, 20 and 40 sets cost 0.9, 1.1,
# 2.9 and 18.2 s of server time per rerun, so one visitor's click stays near a second.
MAX_CHOSEN = 8

view = ui.setup_page("Evolution")
run, tree = view.run, view.tree
keys = [record.key for record in tree.infosets]

ui.iteration_slider(view)
default = [tree.infosets[tree.infoset[view.node]].key] if view.node is not None and tree.infoset[view.node] >= 0 \
    else keys[:2]
chosen = st.multiselect(f"Information sets (up to {MAX_CHOSEN})", keys, default=default, key="evolution_infosets",
                        max_selections=MAX_CHOSEN,
                        help="Information-set keys: private card, then the actions so far "
                             f"(k check, b bet, c call, f fold, r raise). At most {MAX_CHOSEN} at a time.")
ui.action_legend(tree.game)
if chosen:
    st.plotly_chart(infoset_curves_figure(run, [tree.infoset_index(k) for k in chosen], view.t),
                    key="evolution_curves")
else:
    st.info("Choose one or more information sets to plot their regret and strategy.")

st.subheader("Playback")
kind = st.radio("Strategy", ["average", "current"], horizontal=True, key="evolution_kind")
# Playing every one of Leduc's 288 sets would ship megabytes of frames; big games animate the chosen ones.
everything = tree.num_infosets <= PLAYBACK_ALL
st.caption(("Press ▶ Play to animate every information set in your browser. " if everything else
            f"{tree.game.title} has {tree.num_infosets} information sets: ▶ Play animates the ones chosen above. ")
           + "The slider under the chart scrubs its own frames; it starts at iteration t.")
if everything or chosen:
    rows = None if everything else [tree.infoset_index(k) for k in chosen]
    st.plotly_chart(strategy_playback_figure(run, kind=kind, start=view.snapshot, infosets=rows),
                    key="evolution_playback")

st.subheader("Every information set over the iterations")
st.plotly_chart(aggression_heatmap(run, kind=kind, t=view.t), key="evolution_heatmap")
