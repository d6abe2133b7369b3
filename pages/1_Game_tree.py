"""Game tree: the tree and its inspector on one timeline that runs in the browser.

Scrubbing, playing and hovering never rerun this script; the timeline tells the server `t` when
the user lets go (or pauses stepping) and `node` when a node is clicked, so links stay in sync.
"""
from __future__ import annotations

import functools

import streamlit as st

from cfrviz.tree import parts as tree_parts
from cfrviz.util.vocabulary import Player, player_number
from cfrviz import app as ui
from cfrviz.teaching import texts
from cfrviz.util.text import escape_markdown as md
from cfrviz.figures.timeline import graphml_bytes, lock_comparison
from cfrviz.figures.drawn import ROUND_ONE, is_drawn_whole
from cfrviz.app.components import timeline
from cfrviz.app.locks import LOCK_ASKED_KEY, LOCK_EDITOR_SELECTOR, lock_editor, locked_vs_unlocked
from cfrviz.app import page_events, practice_box
from cfrviz.teaching import practice
from cfrviz.teaching.narration import narrate_iteration

view = ui.setup_page("Game tree", page=ui.Page.GAME_TREE)
tree = view.tree
state = st.session_state
ui.rules_card(tree.game)

nodes = None
arrangements: tuple[int, ...] = (0, 1) if tree_parts.card_view(tree) else (0,)
if not is_drawn_whole(tree):
    # A newly selected node outside the drawn part (or "draw the whole set") moves the part to the
    # view of the player acting there, so its information set is whole; otherwise the part stays
    # where the user put it. Values are checked before the widgets exist.
    fresh = view.node != state.get("tree_aligned_node") or state.get("tree_by") is None
    if not tree_parts.card_view(tree):
        # No private cards to split by (a game from a file): one subtree at a time, following the selected node.
        options = tree_parts.parts(tree, "subtree")
        roots = [int(p.root or 0) for p in options]
        if view.node is not None and fresh:
            root = int(tree_parts.part_of(tree, view.node, "subtree").root or 0)
            state["tree_subtree"] = roots.index(root) if root in roots else 0
            if tree.depth[root] > tree.depth[view.node]:
                st.caption(f"Node {view.node} lies above every part small enough to draw: showing the first "
                           "part below it, drawn with its path from the root.")
        state["tree_aligned_node"], state["tree_by"] = view.node, "subtree"
        if state.get("tree_subtree") not in range(len(options)):
            state["tree_subtree"] = 0
        k = st.selectbox("Part of the tree", range(len(options)), key="tree_subtree",
                         format_func=page_events.labels(range(len(options)),
                                                        lambda k: tree_parts.label_of(tree, options[k])))
        part = options[k]
        arrangements = (0,)
    else:
        by: Player | str = state["tree_by"] if state.get("tree_by") in tree_parts.BY_CARD else Player.FIRST
        line = state.get("tree_line")
        part = tree_parts.checked_part(tree, by, state.get("tree_private"),
                                       None if line in (None, ROUND_ONE) else line, state.get("tree_public"))
        whole_set = state.pop(timeline.WHOLE_SET_KEY, None) is not None
        if view.node is not None and (whole_set or (fresh and (state.get("tree_private") is None or
                                                               view.node not in tree_parts.part_nodes(tree, part)))):
            part = tree_parts.part_of(tree, view.node)   # the acting player's view: the node's set drawn whole
        state["tree_aligned_node"] = view.node
        state["tree_by"], state["tree_private"] = part.by, part.card
        state["tree_line"] = part.line or ROUND_ONE
        c0, c1, c2, c3 = st.columns([1.3, 1, 1, 1])
        by = Player(c0.radio("Split by the cards of", tree_parts.BY_CARD, key="tree_by", horizontal=True,
                             format_func=page_events.labels(tree_parts.BY_CARD, lambda p: f"player {player_number(p)}"),
                             help="Every information set of that player is drawn whole in its part."))
        held = tree_parts.cards(tree, by)
        if state.get("tree_private") not in held:
            state["tree_private"] = held[0]
        card = c1.selectbox(f"Player {player_number(by)}'s card", held, key="tree_private")
        lines = (ROUND_ONE,) + tree_parts.lines(tree, by, card)
        if state.get("tree_line") not in lines:
            state["tree_line"] = ROUND_ONE
        line = c2.selectbox("Betting line", lines, key="tree_line") if len(lines) > 1 else ROUND_ONE
        public = None
        if line != ROUND_ONE:
            publics = tree_parts.public_cards(tree, by, card, line)
            if state.get("tree_public") not in publics:
                state["tree_public"] = part.public if part.public in publics else publics[0]
            public = c3.selectbox("Public card", publics, key="tree_public")
        part = tree_parts.Part(by, card=card, line=None if line == ROUND_ONE else line, public=public)
        arrangements = (int(by),)
    nodes = tree_parts.part_nodes(tree, part).tolist()
    st.caption(f"{md(tree.game.title)} is too big to draw whole: showing {md(tree_parts.label_of(tree, part))}.")

# The edge widths (average or current strategy) go into the link: a value the link brings (one
# this page has not shown yet) is handed to the timeline; the timeline's own choice is linked back.
linked = ui.page_value("edges")
if state.get("_tree_edges_linked") != linked:
    state["tree_edges"] = linked
# With locks, the same settings solved without them: the tree rings the sets whose strategy moved.
if view.choice.locks and not view.uploaded:
    view = ui.solve_view(view)
locked, unlocked, comparison = view.run, None, None
if view.choice.locks and not view.uploaded and locked is not None:
    unlocked = ui.cached_solve(view.settings.without_locks())
    drawn = None if nodes is None else tuple(nodes)
    comparison = timeline.Extra(key=("lock comparison", unlocked.settings, int(unlocked.iterations[-1]), drawn),
                                build=functools.partial(lock_comparison, locked, unlocked, drawn))
if view.run is None:
    view = ui.solve_view(view)
run = ui.solved_run(view)
selected_set = int(tree.infoset[view.node]) if view.node is not None else -1
# What the solver just did at iteration t, in plain words (the selected node's set, or the one that moved most).
st.markdown(md(narrate_iteration(run, view.snapshot, selected_set if selected_set >= 0 else None)))


edges = timeline.mount(view, nodes=nodes, key="tree_timeline", arrangements=arrangements, kind_key="tree_edges",
                       whole_sets=True, locks=None if view.uploaded else LOCK_EDITOR_SELECTOR,
                       extra=comparison, events={"lockSet": functools.partial(page_events.lock_asked, tree)})
ui.set_page_value("edges", edges)
state["_tree_edges_linked"] = edges
lock_editor(tree, view.node, view.choice.locks, ui.set_locks, disabled=view.uploaded,
            asked=view.node is not None and state.get(LOCK_ASKED_KEY) == view.node)
if locked is not None and unlocked is not None:
    locked_vs_unlocked(tree, locked, unlocked, view.choice.locks)
st.caption(texts.TREE_HOW)
ui.action_legend(tree.game)
asked = practice.practice_set(tree, view.node)
if asked is not None:
    practice_box.ask(practice.Practice.GAME_TREE, functools.partial(practice.shared_information_set, tree, asked),
                     (view.settings.spec, asked))
stem = "".join(c if c.isascii() and c.isalnum() else "_" for c in view.settings.spec.name)[:40]
st.download_button("Download GraphML", data=functools.partial(graphml_bytes, tree, nodes),
                   file_name=f"cfrviz_{stem}_tree.graphml", mime="application/graphml+xml",
                   on_click="ignore", key="tree_graphml",
                   help="The drawn tree (from `run.tree.to_networkx()`) with its information-set links, "
                        "for Gephi, yEd or networkx. Built when you click.")
