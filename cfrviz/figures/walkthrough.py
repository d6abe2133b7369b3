"""Figures for the walkthrough of one iteration: the traversed part of the tree and one step's numbers."""
from __future__ import annotations

import plotly.graph_objects as go

from cfrviz.figures._style import HIGHLIGHT, PLAYER_NAMES, action_color, base_layout
from cfrviz.figures.tree import tree_figure, tree_layout
from cfrviz.games import CHANCE
from cfrviz.teaching.walkthrough import IterationTrace, Step

# More nodes than this are cut down to the betting round being walked.
MAX_DRAWN_NODES = 60  # all of Kuhn (55 nodes) stays whole


def shown_nodes(trace: IterationTrace, step: Step) -> list[int]:
    """Node ids to draw for a step: every node the iteration touches, or, in a big tree, the
    betting round being walked: the path from the root down to the round's start (the deal, or the
    chance node that opened the round) and the touched nodes of that round, with the chance nodes
    that end it as leaves."""
    tree = trace.tree
    touched = sorted({s.node for s in trace.steps if s.kind != "finish"} | {0})
    if len(touched) <= MAX_DRAWN_NODES:
        return touched
    if step.node == 0:
        return [0] + [c for c in tree.children(0) if c in set(touched)]
    path = [step.node]
    while int(tree.parent[path[-1]]) >= 0:
        path.append(int(tree.parent[path[-1]]))
    # The round's start: the nearest chance node at or above the step (the root aside), else the deal.
    start = next((m for m in path[:-1] if int(tree.actor[m]) == CHANCE), path[-2])
    keep = set(path[path.index(start):])
    for n in touched:
        m = int(tree.parent[n])
        while m > start and int(tree.actor[m]) != CHANCE:
            m = int(tree.parent[m])
        if m == start:
            keep.add(n)
    return sorted(keep)


def walkthrough_tree_figure(trace: IterationTrace, step_index: int) -> go.Figure:
    """The part of the tree the iteration walks (the app's tree figure), at one step.

    Edge widths show the iteration's current strategy; the step's node and its information
    set are highlighted, the path from the root to it is drawn thick, and nodes the traversal
    has not reached yet are faded. Points carry node ids as customdata.
    """
    tree = trace.tree
    step = trace.steps[step_index]
    nodes = shown_nodes(trace, step)
    fig = tree_figure(tree, trace.strategy, nodes=nodes, selected=step.node, strategy_name="current strategy",
                      title=f"Step {step_index + 1} of {len(trace.steps)}: {step.kind} at {step.history}")
    position = tree_layout(tree, nodes)
    reached = {s.node for s in trace.steps[:step_index + 1]}
    xs: list[float | None] = []
    ys: list[float | None] = []
    n = step.node
    while int(tree.parent[n]) >= 0 and n in position and int(tree.parent[n]) in position:
        p = int(tree.parent[n])
        xs += [position[p][0], position[n][0], None]
        ys += [position[p][1], position[n][1], None]
        n = p
    fig.add_trace(go.Scatter(x=xs, y=ys, mode="lines", hoverinfo="skip", name="path to this step",
                             line={"color": HIGHLIGHT, "width": 4}))
    later = [n for n in nodes if n not in reached]
    fig.add_trace(go.Scatter(x=[position[n][0] for n in later], y=[position[n][1] for n in later],
                             mode="markers", hoverinfo="skip", name="not reached yet",
                             marker={"size": 16, "color": "rgba(255,255,255,0.7)", "symbol": "square",
                                     "line": {"color": "#cccccc", "width": 1}}))
    height = fig.layout.height or 500
    fig.update_layout(height=min(height, 560), legend={"orientation": "h", "y": -0.02, "x": 0.0})
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
    # The node utility is a line across the bars, named in the legend (a label on it would cover a bar).
    fig.add_trace(go.Scatter(x=[-0.5, len(actions) - 0.5], y=[step.node_utility] * 2, mode="lines",
                             name=f"node utility {step.node_utility:+.3g}", hoverinfo="skip",
                             line={"dash": "dash", "color": "#333333"}, xaxis="x2"))
    fig.update_layout(xaxis2={"overlaying": "x", "range": [-0.5, len(actions) - 0.5], "visible": False})
    who = PLAYER_NAMES[step.player] if step.player in (0, 1) else "player 1"
    fig.update_layout(**base_layout(height=300, barmode="group",
                                    title=f"{step.information_set}: utilities for {who}",
                                    legend={"orientation": "h", "y": -0.2}))
    fig.update_yaxes(title="chips", zeroline=True)
    return fig
