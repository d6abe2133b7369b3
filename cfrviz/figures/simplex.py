"""Regret matching in a matrix game: the simplex and line figures of strategy paths.

Regret matching in self-play (Hart and Mas-Colell 2000): the current strategy keeps circling while
the average strategy settles on the equilibrium. A ternary plot shows it for three actions.
"""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go

from cfrviz.figures._style import ACTOR_STYLE, PLAYER_NAMES, action_color, base_layout

MAX_PATH_POINTS_DRAWN = 3000


def _thin(n: int, limit: int = MAX_PATH_POINTS_DRAWN) -> np.ndarray:
    """Indices of at most `limit` evenly spaced points, always keeping the last."""
    if n <= limit:
        return np.arange(n)
    return np.unique(np.append(np.linspace(0, n - 1, limit).astype(int), n - 1))


def simplex_figure(current: np.ndarray, average: np.ndarray, names: Sequence[str],
                   target: np.ndarray | None, target_name: str = "equilibrium",
                   player: int = 0) -> go.Figure:
    """Ternary plot of one player's current [T, 3] and average [T, 3] strategy paths.

    The current strategy is drawn faint (it circles), the average bold (it settles); the start,
    the last average and `target` (the exact equilibrium, or the best response to a fixed
    opponent) are marked.
    """
    if current.shape[1] != 3:
        raise ValueError("A simplex plot needs exactly three actions.")
    keep = _thin(len(current))
    a, b, c = names
    color = ACTOR_STYLE[player]["color"]
    fig = go.Figure()
    fig.add_trace(go.Scatterternary(a=current[keep, 0], b=current[keep, 1], c=current[keep, 2], mode="lines",
                                    name="current strategy", line={"color": "#aaaaaa", "width": 1},
                                    hoverinfo="skip"))
    fig.add_trace(go.Scatterternary(a=average[keep, 0], b=average[keep, 1], c=average[keep, 2], mode="lines",
                                    name="average strategy", line={"color": color, "width": 3}))
    fig.add_trace(go.Scatterternary(a=[average[0, 0]], b=[average[0, 1]], c=[average[0, 2]], mode="markers",
                                    name="start", marker={"symbol": "circle-open", "size": 12, "color": "#333333"}))
    fig.add_trace(go.Scatterternary(a=[average[-1, 0]], b=[average[-1, 1]], c=[average[-1, 2]], mode="markers",
                                    name="last average", marker={"symbol": "circle", "size": 11, "color": color}))
    if target is not None:
        fig.add_trace(go.Scatterternary(a=[target[0]], b=[target[1]], c=[target[2]], mode="markers",
                                        name=target_name, marker={"symbol": "star", "size": 18, "color": "#E69F00",
                                                                  "line": {"color": "#333333", "width": 1}}))
    fig.update_layout(**base_layout(
        height=460, title=f"{PLAYER_NAMES[player].capitalize()}'s strategy on the simplex",
        # Corner names only: tick numbers at the corners would collide with them.
        ternary={axis: {"title": {"text": f"<b>{name}</b>"}, "min": 0, "showticklabels": False, "ticks": ""}
                 for axis, name in (("aaxis", a), ("baxis", b), ("caxis", c))} | {"sum": 1},
        legend={"orientation": "h", "y": -0.12}, margin={"l": 50, "r": 50, "t": 70, "b": 40}))
    return fig


def strategy_lines_figure(iterations: np.ndarray, current: np.ndarray, average: np.ndarray,
                          names: Sequence[str], target: np.ndarray | None, player: int = 0,
                          target_name: str = "equilibrium") -> go.Figure:
    """Each action's probability over iterations: current (thin, dotted) and average (solid),
    with `target` as dashed horizontal lines. Works for any number of actions."""
    keep = _thin(len(iterations))
    x = np.asarray(iterations)[keep]
    fig = go.Figure()
    for k, name in enumerate(names):
        color = action_color(k)
        fig.add_trace(go.Scatter(x=x, y=current[keep, k], mode="lines", name=f"{name} (current)",
                                 line={"color": color, "width": 1, "dash": "dot"}, opacity=0.6,
                                 legendgroup=name))
        fig.add_trace(go.Scatter(x=x, y=average[keep, k], mode="lines", name=f"{name} (average)",
                                 line={"color": color, "width": 3}, legendgroup=name))
        if target is not None:
            fig.add_hline(y=float(target[k]), line_dash="dash", line_color=color, opacity=0.8)
    if target is not None:
        # One legend entry explains the dashed target lines.
        fig.add_trace(go.Scatter(x=[None], y=[None], mode="lines", name=target_name,
                                 line={"color": "#555555", "dash": "dash"}))
    fig.update_layout(**base_layout(
        height=400, title=f"{PLAYER_NAMES[player].capitalize()} over iterations",
        legend={"orientation": "h", "y": -0.25}))
    fig.update_xaxes(type="log", title="iteration")
    fig.update_yaxes(range=[-0.02, 1.02], title="probability")
    return fig
