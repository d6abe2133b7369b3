"""Best response and exploitability: what a perfect exploiter of the average strategy would do.

The tree, the gains and the exploiter's information sets live on the browser timeline: both best
responses are computed once for every frame, so moving t or switching the exploiter repaints in
the browser; the server hears t when the user pauses and the exploiter when it changes (for links).
"""
from __future__ import annotations

import streamlit as st

from cfrviz import app as ui
from cfrviz.teaching import texts
from cfrviz.util.text import clamped_exploitability, escape_markdown as md, number
from cfrviz.analysis import exploitability
from cfrviz.analysis.reference import game_value as reference_value
from cfrviz.analysis.reference import lp_equilibrium
from cfrviz.app import page_events, practice_box
from cfrviz.app.components import timeline
from cfrviz.teaching import practice
from cfrviz.figures.timeline import TimelineMode
from cfrviz.app.locks import exploitability_in_both_games
from cfrviz.figures.best_response import best_response_values_over_time, equilibrium_table
from cfrviz.figures.best_response_frames import best_response_frames, frames_with
from cfrviz.figures.drawn import is_drawn_whole
from cfrviz.tree import parts as tree_parts
from cfrviz.util.vocabulary import Player, parse_player, player_number, player_text

view = ui.setup_page("Best response and exploitability", page=ui.Page.BEST_RESPONSE)
run = ui.solved_run(view)
tree = view.tree
state = st.session_state
ui.rules_card(tree.game)

st.markdown(texts.BEST_RESPONSE_INTRO)

nodes = None
if not is_drawn_whole(tree):
    # Card games split by player 1's card (round 2 by line and public card); others by subtree.
    options = tree_parts.parts(tree, Player.FIRST if tree_parts.card_view(tree) else "subtree")

    def part_name(k: int) -> str:
        part = options[k]
        if part.root is None:
            return tree_parts.label_of(tree, part)
        return f"below {tree.node_label[part.root]} (node {part.root})"

    k = st.selectbox("Part of the tree (it is too big to draw whole)", range(len(options)),
                     format_func=page_events.labels(range(len(options)), part_name), key="br_part")
    nodes = tree_parts.part_nodes(tree, options[k]).tolist()
# This page's parts follow player 1's cards only: the inspector's "draw this set whole" is the Game tree's.
state.pop(timeline.WHOLE_SET_KEY, None)

# The exploiter is chosen in the timeline; what it reports is kept (and linked) here.
reported = state.pop(page_events.REPORTED_EXPLOITER_KEY, None)
if reported is not None:
    ui.set_page_value("br_player", player_text(reported))
exploiter = parse_player(ui.page_value("br_player"))
ui.set_page_value("br_player", player_text(exploiter))


game_value = reference_value(tree, view.settings.spec)
snapshots = frames_with(run, view.t)
drawn = None if nodes is None else tuple(sorted(nodes))
extra = timeline.Extra(key=("best_response", drawn, tuple(snapshots.tolist()), game_value),
                       build=lambda: best_response_frames(tree, run, snapshots, drawn, game_value))
timeline.mount(view, nodes=nodes, mode=TimelineMode.BEST_RESPONSE, key="br_timeline", extra=extra,
               events={"exploiter": page_events.exploiter_reported}, state={"exploiter": player_number(exploiter)})
st.caption(texts.BEST_RESPONSE_HOW)
ui.action_legend(tree.game)

strategy = run.average_strategy[view.snapshot]
exploitability_in_both_games(run, view.snapshot, exploitability(tree, strategy))
practice_box.ask(practice.Practice.BEST_RESPONSE,
                 lambda: practice.where_to_exploit(tree, strategy, int(exploiter)), (view.settings, view.t, exploiter))

st.subheader("Against an equilibrium")
equilibrium = lp_equilibrium(tree)
if equilibrium is None:
    st.info(f"The linear program found no exact equilibrium of {md(tree.game.title)} within its time limit; "
            "exploitability above is the measure of how close the average strategy is.")
else:
    st.caption(f"Player {player_number(exploiter)}'s information sets at t = {view.t:,}: one equilibrium of {md(tree.game.title)}, "
               f"solved exactly by the sequence-form linear program (its exploitability: "
               f"{number(clamped_exploitability(exploitability(tree, equilibrium)))}). Games can have many equilibria "
               "(Kuhn poker has a family of them), so a gap here means the average strategy differs from this "
               "one; exploitability above says whether it is an equilibrium.")
    st.dataframe(equilibrium_table(tree, strategy, equilibrium, exploiter), hide_index=True, width="stretch",
                 column_config={"largest gap": st.column_config.NumberColumn(format="%.3f")}, key="br_equilibrium")

if run.num_snapshots > 1:
    st.plotly_chart(best_response_values_over_time(tree, run.iterations.tolist(), run.average_strategy, game_value),
                    width="stretch", key="br_over_time")
