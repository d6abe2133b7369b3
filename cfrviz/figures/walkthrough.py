"""Figures for the walkthrough of one iteration: the traversed part of the tree and one step's numbers."""
from __future__ import annotations

from collections.abc import Sequence

import plotly.graph_objects as go

from cfrviz.figures._style import ACTOR_STYLE, HIGHLIGHT, PLAYER_NAMES, action_color, base_layout
from cfrviz.games import CHANCE, TERMINAL
from cfrviz.tree import GameTree
from cfrviz.walkthrough import IterationTrace, Step

# More nodes than this are cut down to the deal (root child) that holds the current node.
MAX_DRAWN_NODES = 120


def shown_nodes(trace: IterationTrace, step: Step) -> list[int]:
    """Node ids to draw for a step: every node the iteration touches, or, in a big tree,
    the root and the part under the deal that holds the step's node."""
    tree = trace.tree
    touched = sorted({s.node for s in trace.steps if s.kind != "finish"} | {0})
    if len(touched) <= MAX_DRAWN_NODES:
        return touched
    if step.node == 0:
        return [0] + [c for c in tree.children(0) if c in set(touched)]
    deal = step.node
    while int(tree.parent[deal]) > 0:
        deal = int(tree.parent[deal])
    keep = {0, deal}
    for n in touched:
        m = n
        while m > deal:
            m = int(tree.parent[m])
        if m == deal:
            keep.add(n)
    return sorted(keep)


def _layout(tree: GameTree, nodes: Sequence[int]) -> dict[int, tuple[float, float]]:
    """x by leaf order (parents centred over their drawn children), y = -depth."""
    drawn = set(nodes)
    kids = {n: [c for c in tree.children(n) if c in drawn] for n in nodes}
    position: dict[int, tuple[float, float]] = {}
    counter = [0]

    def place(n: int) -> float:
        if not kids[n]:
            x = float(counter[0])
            counter[0] += 1
        else:
            xs = [place(c) for c in kids[n]]
            x = sum(xs) / len(xs)
        position[n] = (x, -float(tree.depth[n]))
        return x

    for root in [n for n in nodes if int(tree.parent[n]) not in drawn]:
        place(root)
    return position


def walkthrough_tree_figure(trace: IterationTrace, step_index: int) -> go.Figure:
    """The part of the tree the iteration walks, with the current step's node highlighted.

    Nodes the traversal has already reached at this step are solid, later ones faded; the
    path from the root to the current node is drawn thick. Points carry node ids as customdata.
    """
    tree = trace.tree
    step = trace.steps[step_index]
    nodes = shown_nodes(trace, step)
    position = _layout(tree, nodes)
    reached = {s.node for s in trace.steps[:step_index + 1]}
    path = set()
    n = step.node
    while n >= 0:
        path.add(n)
        n = int(tree.parent[n])

    fig = go.Figure()
    for on_path in (False, True):
        xs: list[float | None] = []
        ys: list[float | None] = []
        for n in nodes:
            p = int(tree.parent[n])
            if p in position and (n in path) == on_path:
                xs += [position[p][0], position[n][0], None]
                ys += [position[p][1], position[n][1], None]
        fig.add_trace(go.Scatter(x=xs, y=ys, mode="lines", hoverinfo="skip", showlegend=False,
                                 line={"color": HIGHLIGHT if on_path else "#bbbbbb",
                                       "width": 3 if on_path else 1}))
    # Edge labels: the action or chance outcome, halfway along the edge.
    few = len(nodes) <= 60
    if few:
        fig.add_trace(go.Scatter(
            x=[(position[int(tree.parent[n])][0] + position[n][0]) / 2 for n in nodes if int(tree.parent[n]) in position],
            y=[(position[int(tree.parent[n])][1] + position[n][1]) / 2 for n in nodes if int(tree.parent[n]) in position],
            text=[tree.edge_label[n] for n in nodes if int(tree.parent[n]) in position],
            mode="text", textfont={"size": 10, "color": "#555555"}, hoverinfo="skip", showlegend=False))
    for actor in (CHANCE, 0, 1, TERMINAL):
        group = [n for n in nodes if int(tree.actor[n]) == actor]
        if not group:
            continue
        style = ACTOR_STYLE[actor]
        hover = []
        for n in group:
            i = int(tree.infoset[n])
            extra = f"<br>information set {tree.infosets[i].key}" if i >= 0 else ""
            if actor == TERMINAL:
                extra = f"<br>player 1 gets {tree.payoff[n]:+g}"
            hover.append(f"{tree.node_label[n]}{extra}")
        fig.add_trace(go.Scatter(
            x=[position[n][0] for n in group], y=[position[n][1] for n in group], mode="markers",
            name=style["name"], customdata=group, hovertext=hover, hoverinfo="text",
            marker={"color": style["color"], "symbol": style["symbol"], "size": 11 if few else 7,
                    "opacity": [1.0 if n in reached else 0.25 for n in group],
                    "line": {"width": 0}}))
    cx, cy = position.get(step.node, (0.0, 0.0))
    fig.add_trace(go.Scatter(x=[cx], y=[cy], mode="markers", name="current step", customdata=[step.node],
                             hovertext=[tree.node_label[step.node]], hoverinfo="text",
                             marker={"size": 22, "color": "rgba(0,0,0,0)", "symbol": "circle",
                                     "line": {"color": HIGHLIGHT, "width": 4}}))
    fig.update_layout(**base_layout(
        height=420, title=f"Step {step_index + 1} of {len(trace.steps)}: {step.kind} at {step.history}",
        legend={"orientation": "h", "y": -0.05, "x": 0},
        margin={"l": 10, "r": 10, "t": 50, "b": 30}))
    fig.update_xaxes(visible=False)
    fig.update_yaxes(visible=False)
    return fig


def step_figure(step: Step) -> go.Figure:
    """Bars of one return step: each action's utility, the node utility line, and the regret update."""
    fig = go.Figure()
    actions = list(step.actions)
    colors = [action_color(k) for k in range(len(actions))]
    fig.add_trace(go.Bar(x=actions, y=list(step.action_utility), name="action utility",
                         marker_color=colors, text=[f"{u:+.3g}" for u in step.action_utility],
                         textposition="outside"))
    fig.add_trace(go.Bar(x=actions, y=list(step.regret_update), name="added to cumulative regret",
                         marker_color=colors, marker_pattern_shape="/", opacity=0.6,
                         text=[f"{u:+.3g}" for u in step.regret_update], textposition="outside"))
    fig.add_hline(y=step.node_utility, line_dash="dash", line_color="#333333",
                  annotation_text=f"node utility {step.node_utility:+.3g}", annotation_position="top left")
    who = PLAYER_NAMES[step.player] if step.player in (0, 1) else "player 1"
    fig.update_layout(**base_layout(height=300, barmode="group",
                                    title=f"{step.information_set}: utilities for {who}",
                                    legend={"orientation": "h", "y": -0.2}))
    fig.update_yaxes(title="chips", zeroline=True)
    return fig
