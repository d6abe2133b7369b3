"""Game tree: the tree drawn with edge widths from the strategy at t; click a node to inspect it."""
from __future__ import annotations

import pandas as pd
import streamlit as st

from cfrviz import ui
from cfrviz.figures.evolution import infoset_curves_figure
from cfrviz.figures.tree import (ROUND_ONE, choose_part, deal_cards, inspect_node, inspection_table, is_drawn_whole,
                                 public_cards, round_one_lines, tree_figure, tree_part)

view = ui.setup_page("Game tree")
tree, run = view.tree, view.run


def on_tree_select() -> None:
    points = st.session_state["tree_chart"]["selection"]["points"]
    if points:
        custom = points[0].get("customdata")
        node = custom[0] if isinstance(custom, list) else custom
        if node is not None:
            ui.select_node(int(node))


left, right = st.columns([3, 1])
with left:
    ui.iteration_slider(view)
with right:
    kind = st.radio("Edge width shows", ["current", "average"], horizontal=True, key="tree_strategy_kind",
                    help="Current: the strategy played in iteration t. Average: the average strategy up to t.")

nodes = None
if not is_drawn_whole(tree):
    # The part jumps to a newly selected node (or after a page switch dropped the widgets);
    # otherwise it stays where the user put it. Values are validated before the widgets exist.
    state = st.session_state
    fresh = view.node != state.get("tree_aligned_node") or state.get("tree_private") is None
    private, line, public = choose_part(tree, view.node if fresh else None, state.get("tree_private"),
                                        state.get("tree_line"), state.get("tree_public"))
    state["tree_aligned_node"] = view.node
    publics = public_cards(tree)
    state["tree_private"], state["tree_line"] = private, line
    state["tree_public"] = public or (publics[0] if publics else None)
    c1, c2, c3 = st.columns(3)
    private = c1.selectbox("Player 1's card", deal_cards(tree), key="tree_private")
    lines = (ROUND_ONE,) + round_one_lines(tree, private)
    if line not in lines:
        state["tree_line"] = line = ROUND_ONE
    if len(lines) > 1:
        line = c2.selectbox("Betting line", lines, key="tree_line")
    if line != ROUND_ONE and publics:
        public = c3.selectbox("Public card", publics, key="tree_public")
        nodes = tree_part(tree, private, line, public)
        where = f"after {line} with public card {public}"
    else:
        nodes = tree_part(tree, private)
        where = "round 1" if publics else "every deal"
    st.caption(f"{tree.game.title} is too big to draw whole: showing the deals where player 1 holds "
               f"{private}, {where}.")

strategy = None
if run is not None:
    strategy = (run.current_strategy if kind == "current" else run.average_strategy)[view.snapshot]
figure = tree_figure(tree, strategy, nodes=nodes, selected=view.node,
                     strategy_name=f"{kind} strategy at iteration {view.t:,}")
st.plotly_chart(figure, key="tree_chart", on_select=on_tree_select, selection_mode="points",
                config={"displayModeBar": False})
st.caption("Click a node to inspect it. Dotted curves join the histories a player cannot tell apart "
           "(one information set). Terminals show player 1's payoff in chips.")

st.subheader("Inspector")
if view.node is None:
    st.info("No node selected: click a node of the tree.")
    st.stop()

inspection = inspect_node(tree, view.node, run, view.snapshot)
head = f"**Node {inspection.node}: {inspection.label}** · {inspection.kind}"
if inspection.key is None:
    if inspection.payoff is not None:
        st.markdown(f"{head} · player 1 gets **{inspection.payoff:+g}** chips here.")
    else:
        st.markdown(f"{head} · chance deals: " + ", ".join(
            f"{tree.edge_label[c]} ({tree.chance_probability[c]:.3f})" for c in tree.children(view.node)))
    if st.button("Clear selection", key="tree_clear"):
        ui.select_node(None)
        st.rerun()
    st.stop()

st.markdown(f"{head} to act")
facts, numbers = st.columns([1, 2])
with facts:
    st.markdown(
        f"- information set: **`{inspection.key}`**\n"
        f"- acting player: **{inspection.player}**\n"
        f"- private card: **{inspection.private}**"
        + (f"\n- public card: **{inspection.public}**" if inspection.public else "")
        + f"\n- history: **{' → '.join(inspection.history) or '(first to act)'}**\n"
        f"- other histories in this set: {', '.join(f'{tree.node_label[n]} (node {n})' for n in inspection.partners) or 'none'}")
    if st.button("Clear selection", key="tree_clear"):
        ui.select_node(None)
        st.rerun()
with numbers:
    if inspection.reach is not None:
        m1, m2 = st.columns(2)
        m1.metric(f"Own reach ({inspection.player}), iteration {view.t:,}", f"{inspection.reach:.4f}",
                  help="Probability that the acting player's own past actions lead to this history.")
        m2.metric("Opponent and chance reach", f"{inspection.opponent_chance_reach:.4f}",
                  help="Probability that the opponent's actions and the deal lead here: the counterfactual weight.")
        st.dataframe(pd.DataFrame(inspection_table(inspection)).set_index("action"), width="stretch",
                     column_config={
                         "cf value": st.column_config.NumberColumn(
                             "cf value (chips)", format="%.4f",
                             help="Counterfactual value of each action for this history at iteration t."),
                         "regret": st.column_config.NumberColumn(
                             "cum. regret (chips)", format="%.4f",
                             help="Cumulative regret of the information set after iteration t."),
                         "current": st.column_config.NumberColumn(
                             "current", format="%.3f", help="Strategy played in iteration t."),
                         "average": st.column_config.NumberColumn(
                             "average", format="%.3f", help="Average strategy over iterations 1..t.")},
                     key="tree_inspector_table")
if run is not None:
    st.plotly_chart(infoset_curves_figure(run, [inspection.infoset], view.t, height_per_row=260),
                    key="tree_inspector_curves")
