"""Figures for best response and exploitability: why the average strategy is not exact yet."""
from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
import plotly.graph_objects as go

from cfrviz.analysis import BestResponse, best_response
from cfrviz.figures._style import ACTOR_STYLE, PLAYER_NAMES, base_layout
from cfrviz.figures.tree import tree_figure
from cfrviz.tree import GameTree


def best_response_table(tree: GameTree, strategy: np.ndarray, response: BestResponse) -> list[dict[str, object]]:
    """One row per information set of the best responder, largest gain first.

    Columns: the set, the strategy's own mix, the best-response action, the counterfactual
    value of each action (best response played below) and the gain of the best action over
    the strategy's mix there (chips, weighted by how often the opponent and chance reach it).
    """
    rows: list[dict[str, Any]] = []
    for i, record in enumerate(tree.infosets):
        if record.player != response.player:
            continue
        n = len(record.actions)
        rows.append({
            "information set": record.key,
            "strategy": " / ".join(f"{a} {p:.3f}" for a, p in zip(record.actions, strategy[i, :n])),
            "best response": response.action_names[i],
            "action values": " / ".join(f"{v:+.4f}" for v in response.action_value[i, :n]),
            "gain": float(response.gain[i]),
        })
    rows.sort(key=lambda r: (-r["gain"], r["information set"]))
    return rows


def exploitability_split_figure(value_1: float, value_2: float, game_value: float | None) -> go.Figure:
    """Two bars, one per player: what its best response gains against the other's average strategy.

    With a known game value V the bar is the gain over the equilibrium value (player 1's best
    response earns V + gain, player 2's -V + gain); exploitability is the mean of the two gains,
    since the V's cancel (NashConv / 2). Without V the bars are the raw values.
    """
    exploitability = (value_1 + value_2) / 2.0
    players = [f"{PLAYER_NAMES[0]}'s best response", f"{PLAYER_NAMES[1]}'s best response"]
    colors = [ACTOR_STYLE[0]["color"], ACTOR_STYLE[1]["color"]]
    if game_value is not None and math.isfinite(game_value):
        bases = [game_value, -game_value]
        bars = [value_1 - game_value, value_2 + game_value]
        text = [f"earns {v:+.4f}<br>= equilibrium {b:+.4f} + gain {g:.4f}"
                for v, b, g in zip((value_1, value_2), bases, bars)]
        axis = "gain over the equilibrium value (chips per hand)"
    else:
        bars = [value_1, value_2]
        text = [f"earns {v:+.4f}" for v in bars]
        axis = "best-response value (chips per hand)"
    # What each best response earns is part of its row's label, not text on the bars, so nothing
    # sits on the bars or on the exploitability line.
    names = [f"<b>{who}</b><br>{line}" for who, line in zip(players, text)]
    fig = go.Figure(go.Bar(y=names, x=bars, orientation="h", marker_color=colors, hoverinfo="skip",
                           showlegend=False, width=0.5))
    fig.add_trace(go.Scatter(x=[exploitability, exploitability], y=[names[0], names[1]], mode="lines",
                             name=f"exploitability {exploitability:.4f}", hoverinfo="skip",
                             line={"dash": "dash", "color": "#333333"}))
    top = max(max(bars), exploitability, 1e-9)
    low = min(min(bars), 0.0)
    fig.update_layout(**base_layout(
        height=330, title=f"Exploitability = mean of the two gains = {exploitability:.5f} chips/hand",
        legend={"orientation": "h", "y": -0.45, "x": 0}, margin={"l": 20, "r": 20, "t": 70, "b": 60}))
    fig.update_yaxes(automargin=True, autorange="reversed")  # player 1 on top
    fig.update_xaxes(title=axis, range=[low - 0.05 * (top - low), top + 0.1 * (top - low)], zeroline=True)
    return fig


def best_response_values_over_time(tree: GameTree, iterations: Sequence[int], strategies: np.ndarray,
                                   game_value: float | None, max_points: int = 80) -> go.Figure:
    """Each player's best-response value against the average strategy [T, I, A], over iterations.

    At most `max_points` snapshots (log-spaced) are evaluated. Both curves fall towards the
    game value (player 1) and its negative (player 2); the gap is the exploitability.
    """
    iteration_array = np.asarray(iterations)
    if len(iteration_array) > max_points:
        picks = np.unique(np.geomspace(1, len(iteration_array), max_points).astype(int) - 1)
    else:
        picks = np.arange(len(iteration_array))
    values = np.array([[best_response(tree, strategies[s], p).value for p in (0, 1)] for s in picks])
    fig = go.Figure()
    for p in (0, 1):
        fig.add_trace(go.Scatter(x=iteration_array[picks], y=values[:, p], mode="lines", name=f"{PLAYER_NAMES[p]}'s best response",
                                 line={"color": ACTOR_STYLE[p]["color"], "width": 2}))
        if game_value is not None and math.isfinite(game_value):
            target = game_value if p == 0 else -game_value
            # In the legend rather than on the line, which the curve approaches.
            fig.add_trace(go.Scatter(x=[iterations[0], iterations[-1]], y=[target, target], mode="lines",
                                     name=f"{PLAYER_NAMES[p]}'s equilibrium value {target:+.4f}", hoverinfo="skip",
                                     line={"dash": "dot", "color": ACTOR_STYLE[p]["color"]}))
    fig.update_layout(**base_layout(height=340, title="Best-response values against the average strategy",
                                    legend={"orientation": "h", "y": -0.25}))
    fig.update_xaxes(type="log", title="iteration")
    fig.update_yaxes(title="chips per hand")
    return fig


def best_response_tree_figure(tree: GameTree, strategy: np.ndarray, response: BestResponse,
                              nodes: Sequence[int] | None = None) -> go.Figure:
    """The tree with the best responder's part of the profile replaced by its pure best response."""
    who = PLAYER_NAMES[response.player]
    return tree_figure(tree, response.strategy, nodes=nodes,
                       strategy_name=f"{who}'s best response / the other player's average strategy",
                       title=f"{who.capitalize()}'s best response (thick edges)")


def equilibrium_table(tree: GameTree, strategy: np.ndarray, equilibrium: np.ndarray,
                      player: int) -> list[dict[str, object]]:
    """One row per information set of `player`: the average strategy beside a reference equilibrium
    (e.g. the sequence-form LP's), and the largest gap between them, largest gap first.

    An equilibrium need not be unique (Kuhn's α-family), so a gap says "differs from this one",
    not "is not an equilibrium"; exploitability is the test of that.
    """
    rows: list[dict[str, Any]] = []
    for i, record in enumerate(tree.infosets):
        if record.player != player:
            continue
        n = len(record.actions)
        rows.append({
            "information set": record.key,
            "average strategy": " / ".join(f"{a} {p:.3f}" for a, p in zip(record.actions, strategy[i, :n])),
            "LP equilibrium": " / ".join(f"{a} {p:.3f}" for a, p in zip(record.actions, equilibrium[i, :n])),
            "largest gap": float(np.max(np.abs(strategy[i, :n] - equilibrium[i, :n]))),
        })
    rows.sort(key=lambda r: (-r["largest gap"], r["information set"]))
    return rows
