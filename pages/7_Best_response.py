"""Best response and exploitability: what a perfect exploiter of the average strategy would do."""
from __future__ import annotations

import streamlit as st

from cfrviz.tree import parts as tree_parts
from cfrviz import app as ui
from cfrviz.analysis import best_response, exploitability
from cfrviz.app.locks import exploitability_in_both_games
from cfrviz.figures.best_response import (
    best_response_table,
    best_response_tree_figure,
    best_response_values_over_time,
    equilibrium_table,
    exploitability_split_figure,
)
from cfrviz.figures.tree import is_drawn_whole
from cfrviz.analysis.reference import game_value as reference_value
from cfrviz.analysis.reference import lp_equilibrium, value_source

view = ui.setup_page("Best response and exploitability", page="best_response")
run = ui.solved_run(view)
tree = view.tree
ui.rules_card(tree.game)

st.markdown(
    "A **best response** plays, at every information set, the action that earns most against the "
    "other player's fixed strategy. **Exploitability** is the average of the two best-response "
    "values: zero exactly at an equilibrium. When it is not zero yet, the bars and the table below "
    "show which player can still gain, and where.")
ui.iteration_slider(view)

strategy = run.average_strategy[view.snapshot]
responses = [best_response(tree, strategy, p) for p in (0, 1)]
game_value = reference_value(tree)
value_1, value_2 = responses[0].value, responses[1].value

m1, m2, m3, m4 = st.columns(4)
m1.metric("Exploitability", f"{(value_1 + value_2) / 2:.5f}", help="chips per hand; (BR₁ + BR₂) / 2")
m2.metric("Player 1's best response earns", f"{value_1:+.5f}")
m3.metric("Player 2's best response earns", f"{value_2:+.5f}")
m4.metric("Game value (player 1)", "unknown" if game_value is None else f"{game_value:+.5f}",
          help="Known from the literature" if value_source(tree) == "known" else
          "Exact for a matrix game" if value_source(tree) != "linear program" else
          "Solved exactly by the sequence-form linear program (Koller, Megiddo & von Stengel 1994).")
st.caption(f"Average strategy after iteration t = {view.t:,} of {view.settings.iterations:,}.")
exploitability_in_both_games(run, view.snapshot, (value_1 + value_2) / 2)

st.plotly_chart(exploitability_split_figure(value_1, value_2, game_value), width="stretch", key="br_split",
                config={"displayModeBar": False})

player = int(st.radio("Best responder", ["1", "2"], format_func=lambda p: f"player {p}", horizontal=True,
                      **ui.bind("br_player"))) - 1
response = responses[player]
st.subheader(f"Player {player + 1}'s best response")
st.caption("Gain: how much more the best action earns than the average strategy's own mix at that "
           "information set, weighted by how often the opponent and chance reach it.")
st.dataframe(best_response_table(tree, strategy, response), hide_index=True, width="stretch",
             height=min(400, 38 + 35 * sum(1 for r in tree.infosets if r.player == player)),
             column_config={"gain": st.column_config.NumberColumn(format="%.5f")})
nodes = None
if not is_drawn_whole(tree):
    # Card games split by player 1's card (round 2 by line and public card); others by subtree.
    options = tree_parts.parts(tree, "player1" if tree_parts.card_view(tree) else "subtree")

    def part_name(k: int) -> str:
        part = options[k]
        if part.root is None:
            return tree_parts.label_of(tree, part)
        return f"below {tree.node_label[part.root]} (node {part.root})"

    k = st.selectbox("Part of the tree (it is too big to draw whole)", range(len(options)), format_func=part_name,
                     key="br_part")
    nodes = tree_parts.part_nodes(tree, options[k])
st.plotly_chart(best_response_tree_figure(tree, strategy, response, nodes=None if nodes is None else nodes.tolist()), width="stretch",
                key="br_tree")
ui.action_legend(tree.game)

st.subheader("Against an equilibrium")
equilibrium = lp_equilibrium(tree)
if equilibrium is None:
    st.info(f"The linear program found no exact equilibrium of {tree.game.title} within its time limit; "
            "exploitability above is the measure of how close the average strategy is.")
else:
    st.caption(f"One equilibrium of {tree.game.title}, solved exactly by the sequence-form linear program "
               f"(its exploitability: {exploitability(tree, equilibrium):.1e}). Games can have many equilibria "
               "(Kuhn poker has a family of them), so a gap here means the average strategy differs from this "
               "one; exploitability above says whether it is an equilibrium.")
    st.dataframe(equilibrium_table(tree, strategy, equilibrium, player), hide_index=True, width="stretch",
                 column_config={"largest gap": st.column_config.NumberColumn(format="%.3f")}, key="br_equilibrium")

if run.num_snapshots > 1:
    st.plotly_chart(best_response_values_over_time(tree, run.iterations.tolist(), run.average_strategy, game_value),
                    width="stretch", key="br_over_time")
