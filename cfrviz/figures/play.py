"""Figures for playing against the strategy: the bot's action probabilities and the running score."""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go

from cfrviz.figures._style import HIGHLIGHT, action_color, base_layout
from cfrviz.teaching.play import BotDecision


def bot_decision_figure(decision: BotDecision) -> go.Figure:
    """Bars of the bot's action probabilities at one decision; the chosen action is outlined."""
    fig = go.Figure(go.Bar(
        x=list(decision.probabilities), y=list(decision.actions), orientation="h",
        marker={"color": [action_color(k) for k in range(len(decision.actions))],
                "line": {"color": [HIGHLIGHT if k == decision.chosen else "rgba(0,0,0,0)"
                                   for k in range(len(decision.actions))], "width": 4}},
        text=[f"{p:.1%}" + (" ← chosen" if k == decision.chosen else "")
              for k, p in enumerate(decision.probabilities)],
        textposition="auto", hoverinfo="skip"))
    fig.update_layout(**base_layout(height=90 + 34 * len(decision.actions),
                                    title=f"Bot at {decision.information_set}",
                                    margin={"l": 60, "r": 20, "t": 40, "b": 20}))
    fig.update_xaxes(range=[0, 1], tickformat=".0%")
    fig.update_yaxes(autorange="reversed")
    return fig


def score_figure(results: Sequence[float], seat_values: Sequence[float] | None) -> go.Figure:
    """The human's running mean chips per hand with a ±2 standard-error band, and the game's value
    for the seats played (the mean of each hand's seat value) as a dotted line."""
    x = np.arange(1, len(results) + 1)
    chips = np.asarray(results, dtype=float)
    mean = np.cumsum(chips) / x
    # Running sample std (ddof=1); undefined for one hand.
    square = np.cumsum(chips ** 2)
    with np.errstate(invalid="ignore", divide="ignore"):
        variance = np.where(x > 1, (square - x * mean ** 2) / np.maximum(x - 1, 1), np.nan)
        se = np.sqrt(np.clip(variance, 0.0, None) / x)
    fig = go.Figure()
    upper, lower = mean + 2 * se, mean - 2 * se
    ok = np.isfinite(se)
    if ok.any():
        fig.add_trace(go.Scatter(x=np.concatenate([x[ok], x[ok][::-1]]),
                                 y=np.concatenate([upper[ok], lower[ok][::-1]]), fill="toself",
                                 fillcolor="rgba(0,114,178,0.15)", line={"width": 0}, hoverinfo="skip",
                                 name="±2 standard errors"))
    fig.add_trace(go.Scatter(x=x, y=mean, mode="lines+markers", name="your mean chips per hand",
                             line={"color": "#0072B2", "width": 2}))
    if seat_values is not None and len(seat_values):
        expected = np.cumsum(np.asarray(seat_values, dtype=float)) / x
        fig.add_trace(go.Scatter(x=x, y=expected, mode="lines", name="game value for your seats",
                                 line={"color": "#333333", "dash": "dot"}))
    fig.update_layout(**base_layout(height=280, title="Your running result", legend={"orientation": "h", "y": -0.3}))
    fig.update_xaxes(title="hands played", rangemode="tozero")
    fig.update_yaxes(title="chips per hand")
    return fig
