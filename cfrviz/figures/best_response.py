"""Figures for best response and exploitability: why the average strategy is not exact yet.

The tree, the gains and the exploiter's sets are drawn by the browser timeline
(`cfrviz.figures.best_response_frames`); these are the figures beside it."""
from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas  # noqa: F401  (in full before plotly, which reads sys.modules['pandas'] without importing it)
import plotly.graph_objects as go

from cfrviz.analysis import best_response
from cfrviz.figures._style import ACTOR_STYLE, PLAYER_NAMES, base_layout
from cfrviz.tree import GameTree


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
    # The legend hangs under the x-axis title (plotly grows the bottom margin to fit it).
    fig.update_layout(**base_layout(height=400, title="Best-response values against the average strategy",
                                    legend={"orientation": "h", "y": -0.3, "yanchor": "top"}))
    fig.update_xaxes(type="log", title="iteration", dtick=1)
    fig.update_yaxes(title="chips per hand")
    return fig


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
