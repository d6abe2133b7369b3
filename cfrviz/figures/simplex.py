"""Regret matching in a matrix game: presets, the payoff table's checks, simplex and line figures.

Seed 003 ("Why average strategy?") and seed 004: the current strategy keeps circling while
the average strategy settles on the equilibrium. A ternary plot shows it for three actions.
"""
from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import plotly.graph_objects as go

from cfrviz.figures._style import ACTOR_STYLE, PLAYER_NAMES, action_color, base_layout

MAX_MATRIX_SIZE = 5
MAX_PATH_POINTS_DRAWN = 3000


@dataclass(frozen=True)
class MatrixPreset:
    """A named payoff matrix (player 1's payoffs) with action names, and why it is interesting."""

    title: str
    payoffs: tuple[tuple[float, ...], ...]
    row_names: tuple[str, ...]
    column_names: tuple[str, ...]
    note: str


RPS = ("rock", "paper", "scissors")
PRESETS: dict[str, MatrixPreset] = {
    "rps": MatrixPreset("Rock-paper-scissors", ((0, -1, 1), (1, 0, -1), (-1, 1, 0)), RPS, RPS,
                        "Seed 004's game; the equilibrium plays each action a third of the time."),
    "weighted_rps": MatrixPreset(
        "Weighted rock-paper-scissors", ((0, -1, 2), (1, 0, -1), (-2, 1, 0)), RPS, RPS,
        "Rock beating scissors pays 2: the equilibrium (hand-solved) is rock 1/4, paper 1/2, scissors 1/4."),
    "pennies": MatrixPreset("Matching pennies", ((1, -1), (-1, 1)), ("heads", "tails"), ("heads", "tails"),
                            "Player 1 wins on a match; the equilibrium is 1/2, 1/2 for both."),
    "saddle": MatrixPreset("2×2 with a pure equilibrium", ((3, 1), (2, 0)), ("up", "down"), ("left", "right"),
                           "Up dominates down and player 2 then prefers right: the pure equilibrium "
                           "(up, right) is worth 1 to player 1."),
}


def payoff_table(rows: Sequence[Mapping[str, object]], column_names: Sequence[str],
                 name_key: str = "action") -> tuple[np.ndarray, tuple[str, ...], tuple[str, ...]]:
    """Check an edited table (one mapping per row: its name under `name_key`, then one cell per
    column name) and return (payoffs [R, C], row names, column names).

    Every problem is a ValueError naming the cell to fix.
    """
    columns = tuple(str(c).strip() for c in column_names)
    if not 2 <= len(columns) <= MAX_MATRIX_SIZE or not 2 <= len(rows) <= MAX_MATRIX_SIZE:
        raise ValueError(f"The matrix needs 2 to {MAX_MATRIX_SIZE} rows and 2 to {MAX_MATRIX_SIZE} columns; "
                         f"it has {len(rows)} rows and {len(columns)} columns.")
    if any(not c for c in columns) or len(set(columns)) != len(columns):
        raise ValueError("Every column needs its own non-empty name.")
    names: list[str] = []
    table = np.zeros((len(rows), len(columns)))
    for r, row in enumerate(rows):
        raw = row.get(name_key)
        name = "" if raw is None or (isinstance(raw, float) and math.isnan(raw)) else str(raw).strip()
        if not name:
            raise ValueError(f"Row {r + 1} needs a name.")
        names.append(name)
        for c, column in enumerate(columns):
            cell = row.get(column)
            try:
                value = float(cell)  # type: ignore[arg-type]
            except (TypeError, ValueError):
                value = math.nan
            if isinstance(cell, bool) or not math.isfinite(value):
                raise ValueError(f"The payoff in row {name!r}, column {column!r} must be a number, not {cell!r}.")
            table[r, c] = value
    if len(set(names)) != len(names):
        raise ValueError("Every row needs its own name; two rows share one.")
    return table, tuple(names), columns


def parse_probabilities(text: str, names: Sequence[str]) -> np.ndarray:
    """[C] a strategy typed as comma-separated probabilities, one per name, summing to 1."""
    parts = [p.strip() for p in str(text).replace(";", ",").split(",") if p.strip()]
    if len(parts) != len(names):
        raise ValueError(f"Give {len(names)} probabilities, one for each of {', '.join(names)}, separated by commas.")
    try:
        values = np.array([float(p) for p in parts])
    except ValueError:
        raise ValueError("The opponent's probabilities must be numbers like 0.4, 0.3, 0.3.") from None
    if not np.all(np.isfinite(values)) or np.any(values < 0):
        raise ValueError("The opponent's probabilities must be numbers of 0 or more.")
    if not math.isclose(values.sum(), 1.0, abs_tol=1e-6):
        raise ValueError(f"The opponent's probabilities must sum to 1; they sum to {values.sum():.4g}.")
    return values


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
        ternary={"aaxis": {"title": a, "min": 0}, "baxis": {"title": b, "min": 0},
                 "caxis": {"title": c, "min": 0}, "sum": 1},
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


def best_response_to(payoffs: np.ndarray, opponent: np.ndarray) -> np.ndarray:
    """[R] player 1's pure best response to a fixed column strategy (the first best row on ties):
    what regret matching against a fixed opponent heads for (seed 004: paper against 0.4/0.3/0.3)."""
    values = np.asarray(payoffs) @ np.asarray(opponent)
    response = np.zeros(len(values))
    response[int(np.argmax(values))] = 1.0
    return response
