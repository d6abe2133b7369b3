"""Game tree: the tree and its inspector on one timeline that runs in the browser.

Scrubbing, playing and hovering never rerun this script; the timeline tells the server `t` when
the user lets go (or pauses stepping) and `node` when a node is clicked, so links stay in sync.
"""
from __future__ import annotations

import streamlit as st

from cfrviz import tree_parts, ui
from cfrviz.figures.tree import ROUND_ONE, choose_part, deal_cards, is_drawn_whole, public_cards, round_one_lines, tree_part
from cfrviz.ui import timeline

view = ui.setup_page("Game tree")
tree = view.tree

nodes = None
arrangements = (0, 1)
if not is_drawn_whole(tree) and not tree_parts.card_view(tree):
    # No private cards to split by (a game from a file): one subtree at a time, following the selected node.
    options = tree_parts.parts(tree, "subtree")
    roots = [int(p.root or 0) for p in options]
    if view.node is not None and view.node != st.session_state.get("tree_aligned_node"):
        st.session_state["tree_subtree"] = roots.index(int(tree_parts.part_of(tree, view.node, "subtree").root or 0))
    st.session_state["tree_aligned_node"] = view.node
    if st.session_state.get("tree_subtree") not in range(len(options)):
        st.session_state["tree_subtree"] = 0
    k = st.selectbox("Part of the tree", range(len(options)), key="tree_subtree",
                     format_func=lambda k: f"below {tree.node_label[roots[k]]} (node {roots[k]})")
    nodes = tree_parts.part_nodes(tree, options[k])
    arrangements = (0,)
    st.caption(f"{tree.game.title} is too big to draw whole: showing one subtree at a time.")
elif not is_drawn_whole(tree):
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
    arrangements = (0,)
    st.caption(f"{tree.game.title} is too big to draw whole: showing the deals where player 1 holds "
               f"{private}, {where}.")

timeline.mount(view, nodes=nodes, key="tree_timeline", arrangements=arrangements)
st.caption("Drag the slider, press ▶, or click the tree and use ← → Home End and space: everything moves in "
           "your browser. Click a node to inspect it; hover one to peek at its numbers at t.")
ui.action_legend(tree.game)
