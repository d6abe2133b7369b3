"""Figures for playing against the strategy: the running score, and
the play mode's data for the browser timeline (`play_extra`)."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas  # noqa: F401  (in full before plotly, which reads sys.modules['pandas'] without importing it)
import plotly.graph_objects as go

from cfrviz.figures._style import base_layout
from cfrviz.figures.timeline import _rounded, frame_snapshots
from cfrviz.util.cost import nice_below
from cfrviz.util.vocabulary import Player
from cfrviz.run import Run
from cfrviz.teaching.play import Hand, set_values_over
from cfrviz.tree import GameTree


def play_extra(tree: GameTree, run: Run, nodes: Sequence[int] | None, players: Sequence[int],
               include: int | None = None) -> dict[str, Any]:
    """The play mode's part of the timeline payload: for each frame (the timeline's, with the
    snapshot `include` added as `build_payload` adds it), the EV-loss numbers of
    `cfrviz.teaching.play.set_values` under that frame's average strategy, for the drawn
    information sets (`nodes`, default all) of `players`.

    "frames" [F] iterations; "keys" [S] set keys; "value" [F, S, A] v(I, a) and "setValue" [F, S]
    v(I), in the acting player's chips (None where a set is not reached or an action illegal).
    """
    snapshots = frame_snapshots(run.iterations, include=include)
    drawn = np.arange(tree.num_nodes) if nodes is None else np.asarray(sorted(int(n) for n in nodes), dtype=np.int64)
    sets = sorted({int(i) for i in tree.infoset[drawn] if i >= 0 and int(tree.infoset_player[i]) in players})
    # One frame's strategy at a time, keeping the drawn sets only (never [F, I, A] for the whole tree).
    action_value, set_value = set_values_over(tree, (run.average_strategy[s] for s in snapshots), sets)
    return {
        "frames": [int(run.iterations[s]) for s in snapshots],
        "keys": [tree.infosets[i].key for i in sets],
        "value": _rounded(action_value) if sets else [[] for _ in snapshots],
        "setValue": _rounded(set_value) if sets else [[] for _ in snapshots],
    }


def shown_snapshot_included(run: Run, t: int) -> int | None:
    """The snapshot the timeline adds to its frames for a linked `t` that is not a frame (else None),
    as `cfrviz.app.components.timeline.mount` does, so `play_extra` has the same frames."""
    shown = int(run.snapshot_at(t))
    return None if shown in set(frame_snapshots(run.iterations).tolist()) else shown


def hand_state(tree: GameTree, hand: Hand | None, seat: Player) -> dict[str, Any]:
    """What the play mode shows of the hand in the browser (the header's `state`): the human's
    seat, the key of the set where the human must act (None otherwise), the human's decisions
    this hand as [set key, action index], and the hand's path (node ids) once it is over, when
    hiding the bot's cards no longer matters."""
    if hand is None:
        return {"seat": int(seat), "pending": None, "decisions": [], "path": None}
    over = int(tree.actor[hand.node]) == Player.TERMINAL
    acting = int(tree.actor[hand.node]) == hand.seat
    return {
        "seat": int(hand.seat),      # JSON carries the player's index
        "pending": tree.infosets[int(tree.infoset[hand.node])].key if acting else None,
        "decisions": [[d.information_set, d.chosen] for d in hand.decisions],
        "path": list(hand.path) if over else None,
    }


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
    # Hands are whole: ticks every 1, 2, 5, 10 … hands (plotly's own would read 0, 0.2 … 1 after one hand).
    step = max(1, nice_below(len(results) / 5, (1, 2, 5))) if len(results) else 1
    fig.update_xaxes(title="hands played", rangemode="tozero", tickmode="linear", tick0=0, dtick=step,
                     tickformat=",d")
    fig.update_yaxes(title="chips per hand")
    return fig
