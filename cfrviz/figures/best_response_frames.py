"""The Best response page's part of the timeline payload: both players' best responses to the
average strategy of every frame, computed once and scrubbed in the browser.

Pure (no streamlit). The page hands `best_response_frames(...)` to the timeline as its `extra`;
`cfrviz/figures/timeline_assets/modes/best_response.js` draws it: the exploiter's best-response actions
over the tree at t, each player's gain, and the table of the exploiter's information sets.
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from cfrviz.analysis import best_response
from cfrviz.figures.timeline import frame_snapshots
from cfrviz.run import Run
from cfrviz.tree import GameTree
from cfrviz.util.vocabulary import Player, parse_player

def drawn_sets(tree: GameTree, nodes: Sequence[int] | None) -> list[int]:
    """Information sets with a history among `nodes` (all by default), in id order: the payload's `sets`."""
    drawn = range(tree.num_nodes) if nodes is None else nodes
    return sorted({int(tree.infoset[n]) for n in drawn if tree.infoset[n] >= 0})


def frames_with(run: Run, t: int) -> np.ndarray:
    """[F] the timeline's snapshots when it is mounted at iteration `t`: its usual frames, plus
    t's snapshot when a link names an iteration that is not one of them."""
    return frame_snapshots(run.iterations, include=int(run.snapshot_at(t)))


def best_response_frames(tree: GameTree, run: Run, snapshots: Sequence[int] | np.ndarray,
                         nodes: Sequence[int] | None = None, game_value: float | None = None) -> dict[str, Any]:
    """Both best responses to the run's average strategy at each snapshot (F of them), JSON-ready.

    Over the information sets S of the drawn histories `nodes` (the payload's `sets`, in the same
    order), each set judged by its own player's best response (the other player keeps the
    average strategy): "best" [F, S] the best-response action, "gain" [F, S] its counterfactual
    value over the average strategy's mix at the set, "actionValue" [F, S, A] the counterfactual
    value of each action with the best response played below. "values" [F, 2] is what player 1's
    and player 2's best responses earn (chips per hand); their mean is the exploitability
    (NashConv / 2, Johanson et al. 2011). "frames" [F] are the snapshots' iterations.
    """
    picks = np.asarray(snapshots, dtype=np.int64)
    sets = np.asarray(drawn_sets(tree, nodes), dtype=np.int64)
    players = tree.infoset_player[sets] if len(sets) else np.zeros(0, dtype=np.int64)
    width = int(max((len(tree.infosets[i].actions) for i in sets), default=1))
    values = np.empty((len(picks), 2))
    best = np.zeros((len(picks), len(sets)), dtype=np.int64)
    gain = np.zeros((len(picks), len(sets)))
    action_value = np.zeros((len(picks), len(sets), width))
    mine = [players == p for p in (0, 1)]
    for f, s in enumerate(picks):
        strategy = run.average_strategy[s]
        for p in (0, 1):
            response = best_response(tree, strategy, p)
            values[f, p] = response.value
            rows = sets[mine[p]]
            best[f, mine[p]] = response.best_action[rows]
            gain[f, mine[p]] = response.gain[rows]
            action_value[f, mine[p]] = response.action_value[rows, :width]
    return {
        "frames": [int(run.iterations[s]) for s in picks],
        "sets": [tree.infosets[i].key for i in sets],
        # Unrounded: the page writes exploitability, their mean, with three significant digits however small.
        "values": values.tolist(),
        "best": best.tolist(),
        "gain": np.round(gain, 6).tolist(),
        "actionValue": np.round(action_value, 4).tolist(),
        "gameValue": game_value if game_value is not None and math.isfinite(game_value) else None,
        "locked": bool(run.settings.locks),
        "whole": nodes is None,
    }


def checked_exploiter(value: object) -> Player | None:
    """The exploiter the browser reported (1 or 2, as a number or text); None for anything else."""
    try:
        return parse_player(value)
    except ValueError:
        return None
