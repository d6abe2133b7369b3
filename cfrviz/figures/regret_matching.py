"""What the browser timeline's "regret_matching" mode is given: a regret-matching path as frames.

Pure (no streamlit). The Regret matching page mounts the timeline with this as the payload's
`extra`; the mode (cfrviz/figures/timeline_assets/modes/regret_matching.js) draws each player's simplex
with the current-strategy trajectory up to t and the average strategy at t, and the strategy and
cumulative-regret curves with a cursor at t (Hart and Mas-Colell 2000: in self-play the current
strategy circles while the average converges to an equilibrium).

The frames are the iterations the timeline steps through: every recorded iteration early, where
regret matching moves most, then evenly spaced and log-spaced ones, so both of the timeline's
scales (linear and log) see the whole path.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from cfrviz.figures._style import ACTION_COLORS, ACTION_TEXT_COLORS, ACTOR_STYLE, PLAYER_NAMES
from cfrviz.solvers.matrix import RegretMatchingPath
from cfrviz.util.vocabulary import StrategyKind

#: Recorded iterations kept one by one at the start of the path.
DENSE_POINTS = 100
#: Evenly spaced and log-spaced iterations kept after them (each).
SPREAD_POINTS = 250


def path_points(iterations: np.ndarray, dense: int = DENSE_POINTS, spread: int = SPREAD_POINTS,
                include: int | None = None) -> np.ndarray:
    """[F] indices into a path's recorded `iterations` [T], increasing: the first `dense`, then
    `spread` evenly spaced and `spread` log-spaced ones, always the last; `include` (an index) is
    added when missing, so the iteration a link names is a frame.

    >>> path_points(np.arange(1, 11), dense=3, spread=2).tolist()
    [0, 1, 2, 3, 9]
    """
    count = len(iterations)
    if count == 0:
        raise ValueError("A regret-matching path without recorded iterations has no frames.")
    head = np.arange(min(dense, count))
    if count > dense:
        even = np.linspace(dense, count - 1, spread).round().astype(np.int64)
        wanted = np.geomspace(float(iterations[dense]), float(iterations[-1]), spread)
        logged = np.searchsorted(iterations, wanted, side="left").clip(dense, count - 1)
        head = np.concatenate([head, even, logged, [count - 1]])
    if include is not None and 0 <= include < count:
        head = np.append(head, include)
    return np.unique(head).astype(np.int64)


def index_of_iteration(iterations: np.ndarray, t: int) -> int:
    """Index of the recorded iteration shown for iteration `t` [T]: the last one at or before t
    (the first when t precedes every record)."""
    return max(0, int(np.searchsorted(iterations, t, side="right")) - 1)


def linked_point(iterations: np.ndarray, t: int) -> int | None:
    """The index to add to `path_points` so that iteration `t` (from a link) is a frame, or None
    when it is one already (then the payload, and its cache entry, stay the same).

    >>> linked_point(np.arange(1, 1001), 1000), linked_point(np.arange(1, 1001), 997)
    (None, 996)
    """
    index = index_of_iteration(iterations, t)
    return None if index in set(path_points(iterations).tolist()) else index


def _rounded(array: np.ndarray, digits: int) -> Any:
    return np.round(np.asarray(array, dtype=float), digits).tolist()


def regret_matching_payload(path: RegretMatchingPath, row_names: Sequence[str], column_names: Sequence[str],
                            targets: Sequence[np.ndarray | None], target_name: str, *, fixed_opponent: bool,
                            include: int | None = None) -> dict[str, Any]:
    """The mode's data (JSON-ready) for `path`: `frames` [F] (iterations), and per shown player
    (player 1 only against a fixed opponent) its `actions` [A], `current`, `average` and `regret`
    [F, A] at the frames, and `target` [A] (the exact equilibrium, or player 1's best response to
    the fixed opponent; None when not drawn), named `target_name`.

    `include`, an index into the path (`linked_point`), makes that recorded iteration a frame.
    """
    points = path_points(path.iterations, include=include)
    players = [0] if fixed_opponent else [0, 1]
    shown = []
    for player in players:
        names = list(row_names if player == 0 else column_names)
        current = path.current_row if player == 0 else path.current_column
        average = path.average_row if player == 0 else path.average_column
        regret = path.regret_row if player == 0 else path.regret_column
        target = targets[player]
        shown.append({
            "player": player,
            "name": PLAYER_NAMES[player],
            "color": ACTOR_STYLE[player]["color"],
            "actions": names,
            StrategyKind.CURRENT: _rounded(current[points], 4),
            StrategyKind.AVERAGE: _rounded(average[points], 4),
            # Regret grows like sqrt(t) or with the payoffs; three significant digits suffice on a curve.
            "regret": _rounded(regret[points], 3),
            "target": None if target is None else _rounded(target, 4),
        })
    return {
        "frames": [int(path.iterations[k]) for k in points],
        "iterations": int(path.iterations[-1]),
        "targetName": target_name,
        "colors": list(ACTION_COLORS),
        "textColors": list(ACTION_TEXT_COLORS),   # the same hues, dark enough for text (4.5:1 on white)
        "players": shown,
    }

