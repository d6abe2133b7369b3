"""What the browser timeline is given: the tree's layout and every frame's numbers, sent once.

Pure (no streamlit): `cfrviz.ui.timeline` mounts the component with the bytes built here, and
hands the values the browser sends back to `checked_iteration` and `checked_node`.

A frame is one snapshot of the run. Long runs keep a bounded number of frames: every snapshot
early, where CFR moves most, and log-spaced iterations later (`frame_snapshots`).
"""
from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from cfrviz import inspector
from cfrviz.figures._style import ACTION_COLORS, ACTOR_STYLE, PLAYER_NAMES
from cfrviz.games import CHANCE, TERMINAL
from cfrviz.games.base import ACTION_LETTERS
from cfrviz.run import Run
from cfrviz.tree import GameTree

MAX_FRAMES = 300
DENSE_FRAMES = 120  # the first snapshots kept one by one before frames thin out
PAYLOAD_VERSION = 1


# ---------------------------------------------------------------------------------------------
# Frames


def frame_snapshots(iterations: np.ndarray, max_frames: int = MAX_FRAMES, dense: int = DENSE_FRAMES,
                    include: int | None = None) -> np.ndarray:
    """[F] snapshot indices the browser gets, increasing: all of them when there are at most
    `max_frames`, else the first `dense` and log-spaced iterations after them, always the last.

    `include` (a snapshot index) is added when missing, so the iteration a link names is exact.
    """
    count = len(iterations)
    if count == 0:
        raise ValueError("A run without snapshots has no frames.")
    if count <= max_frames:
        chosen = np.arange(count)
    else:
        dense = min(dense, max_frames - 1)
        head = np.arange(dense)
        wanted = np.geomspace(float(iterations[dense]), float(iterations[-1]), max_frames - dense)
        tail = np.searchsorted(iterations, wanted, side="left").clip(dense, count - 1)
        chosen = np.unique(np.concatenate([head, tail, [count - 1]]))
    if include is not None and 0 <= include < count:
        chosen = np.unique(np.append(chosen, include))
    return chosen.astype(np.int64)


# ---------------------------------------------------------------------------------------------
# Layout: drawn left to right, one column per depth, leaves in the last column


def deal_card(tree: GameTree, node: int, player: int) -> str | None:
    """The private card of `player` in the deal below `node` (None above the deal or without cards)."""
    stack = [node]
    while stack:
        n = stack.pop()
        i = int(tree.infoset[n])
        if i >= 0 and tree.infoset_player[i] == player:
            return tree.infosets[i].private
        stack.extend(reversed(tree.children(n)))
    return None


@dataclass(frozen=True)
class Layout:
    """Positions of drawn nodes, in the order of `nodes`: column (depth) and row (leaf slot).

    `arrange_by` is the player whose card orders the deals, so that player's deals sit together.
    """

    name: str
    arrange_by: int
    column: tuple[int, ...]
    row: tuple[float, ...]
    columns: int
    rows: int


def tree_layout(tree: GameTree, nodes: Sequence[int], arrange_by: int = 0) -> Layout:
    """Left-to-right layered positions of `nodes`: leaves one row apart top to bottom, a parent
    centred on its drawn children, columns by depth with every leaf in the last column (so a
    column of decision nodes holds no terminal between them)."""
    drawn = sorted({int(n) for n in nodes})
    inside = set(drawn)
    kids: dict[int, list[int]] = {n: [c for c in tree.children(n) if c in inside] for n in drawn}
    roots = [n for n in drawn if int(tree.parent[n]) not in inside]
    top = min(int(tree.depth[n]) for n in drawn)
    last = max(int(tree.depth[n]) for n in drawn) - top
    row: dict[int, float] = {}
    next_row = 0

    def ordered(node: int) -> list[int]:
        children = kids[node]
        if tree.actor[node] == CHANCE and node == 0 and arrange_by in (0, 1):
            cards = {c: deal_card(tree, c, arrange_by) or "" for c in children}
            rank = {c: k for k, c in enumerate(children)}
            children = sorted(children, key=lambda c: (_card_rank(tree, cards[c]), rank[c]))
        return children

    stack: list[tuple[int, bool]] = [(r, False) for r in reversed(roots)]
    while stack:  # post-order without recursion (deep trees are fine)
        node, done = stack.pop()
        children = ordered(node)
        if not children:
            row[node] = float(next_row)
            next_row += 1
        elif done:
            row[node] = (row[children[0]] + row[children[-1]]) / 2.0
        else:
            stack.append((node, True))
            stack.extend((c, False) for c in reversed(children))
    column = tuple(last if not kids[n] else int(tree.depth[n]) - top for n in drawn)
    name = f"{PLAYER_NAMES[arrange_by]}'s card"
    return Layout(name, arrange_by, column, tuple(row[n] for n in drawn), last + 1, max(next_row, 1))


def _card_rank(tree: GameTree, card: str) -> tuple[int, str]:
    order = "23456789TJQKA"
    return (order.find(card[:1]) if card else -1, card)


# ---------------------------------------------------------------------------------------------
# Per-frame numbers


@dataclass(frozen=True)
class FrameNumbers:
    """The inspector's numbers over frames F, for M chosen histories and S chosen information sets (A actions).

    own_reach [F, M] and opponent_chance_reach [F, M] at decision nodes; counterfactual_value
    [F, M, A] per history; set_counterfactual_value [F, S, A] summed over the set's histories;
    instant_regret [F, S, A] the regret of the frame's iteration. `source` says how they were got.
    """

    own_reach: np.ndarray
    opponent_chance_reach: np.ndarray
    counterfactual_value: np.ndarray
    set_counterfactual_value: np.ndarray
    instant_regret: np.ndarray
    source: str


#: What the inspector's values are computed from, said under them.
NUMBERS_SOURCE = ("the strategies that produced iteration t's update (with alternating updates, "
                  "player 2's values answer player 1's updated strategy)")


def frame_numbers(run: Run, snapshots: Sequence[int] | np.ndarray,
                  nodes: Sequence[int] | None = None, sets: Sequence[int] | None = None) -> FrameNumbers:
    """The inspector's numbers at each snapshot in `snapshots`, for the histories `nodes` and the
    information sets `sets` (all by default), from `cfrviz.inspector.frame_numbers`: summed over
    a set, this iteration's regret is what vanilla CFR added to the cumulative regret."""
    numbers = inspector.frame_numbers(run, np.asarray(snapshots, dtype=np.int64), nodes=nodes, sets=sets)
    return FrameNumbers(numbers["own_reach"], numbers["opponent_chance_reach"], numbers["history_cfv"],
                        numbers["infoset_cfv"], numbers["instant_regret"], NUMBERS_SOURCE)


# ---------------------------------------------------------------------------------------------
# The payload


def _rounded(array: np.ndarray, digits: int = 4) -> Any:
    """Nested lists of floats rounded for the wire; NaN becomes None (JSON has no NaN)."""
    values = np.round(np.asarray(array, dtype=float), digits)
    listed = values.tolist()
    if not np.isnan(values).any():
        return listed

    def clean(x: Any) -> Any:
        if isinstance(x, list):
            return [clean(y) for y in x]
        return None if isinstance(x, float) and math.isnan(x) else x

    return clean(listed)


def edge_text(tree: GameTree, node: int) -> str:
    """Short label of the edge into `node`: poker actions as their letters, deals as dealt."""
    label = tree.edge_label[node]
    if node > 0 and tree.actor[int(tree.parent[node])] != CHANCE:
        return ACTION_LETTERS.get(label, label)
    return label


def build_payload(tree: GameTree, run: Run | None, nodes: Sequence[int] | None = None, *,
                  arrangements: Sequence[int] = (0,), include: int | None = None,
                  max_frames: int = MAX_FRAMES) -> dict[str, Any]:
    """Everything the browser needs for one drawn part (`nodes`, default the whole tree).

    Node arrays are in the order of the sorted drawn node ids; `set` indexes `sets`, the drawn
    information sets. Frame arrays are [F, ...] over `frames` (iterations).
    """
    drawn = sorted(set(range(tree.num_nodes) if nodes is None else (int(n) for n in nodes)))
    local = {n: k for k, n in enumerate(drawn)}
    set_ids = sorted({int(tree.infoset[n]) for n in drawn if tree.infoset[n] >= 0})
    set_local = {i: k for k, i in enumerate(set_ids)}
    layouts = [tree_layout(tree, drawn, by) for by in arrangements] if drawn else []
    payload: dict[str, Any] = {
        "version": PAYLOAD_VERSION,
        "title": tree.game.title,
        "players": list(PLAYER_NAMES),
        "colors": {"chance": ACTOR_STYLE[CHANCE]["color"], "player": [ACTOR_STYLE[0]["color"], ACTOR_STYLE[1]["color"]],
                   "terminal": ACTOR_STYLE[TERMINAL]["color"], "actions": list(ACTION_COLORS)},
        "nodes": {
            "id": drawn,
            "parent": [local.get(int(tree.parent[n]), -1) for n in drawn],
            "actor": [int(tree.actor[n]) for n in drawn],
            "set": [set_local.get(int(tree.infoset[n]), -1) for n in drawn],
            "action": [int(tree.action_index[n]) for n in drawn],
            "label": [tree.node_label[n] for n in drawn],
            "edge": [edge_text(tree, n) for n in drawn],
            "chance": [round(float(tree.chance_probability[n]), 6) if n > 0 and tree.actor[int(tree.parent[n])] == CHANCE
                       else None for n in drawn],
            "payoff": [float(tree.payoff[n]) if tree.actor[n] == TERMINAL else None for n in drawn],
        },
        "layouts": [{"name": lay.name, "by": lay.arrange_by, "column": list(lay.column), "row": list(lay.row),
                     "columns": lay.columns, "rows": lay.rows} for lay in layouts],
        "sets": [{
            "index": i,
            "key": tree.infosets[i].key,
            "player": int(tree.infoset_player[i]),
            "actions": list(tree.infosets[i].actions),
            "letters": [ACTION_LETTERS.get(a, a) for a in tree.infosets[i].actions],
            "histories": [[int(h), tree.node_label[int(h)], local.get(int(h), -1)] for h in tree.nodes_of(i)],
        } for i in set_ids],
    }
    if run is None:
        payload["frames"] = []
        return payload
    snapshots = frame_snapshots(run.iterations, max_frames, include=include)
    width = max((len(tree.infosets[i].actions) for i in set_ids), default=1)
    decision = [n for n in drawn if tree.infoset[n] >= 0]
    dec_local = [local[n] for n in decision]
    numbers = frame_numbers(run, snapshots, nodes=decision, sets=set_ids)   # set numbers [F, S, A]
    own = np.full((len(snapshots), len(drawn)), np.nan)
    others = np.full((len(snapshots), len(drawn)), np.nan)
    own[:, dec_local] = numbers.own_reach
    others[:, dec_local] = numbers.opponent_chance_reach
    values = np.full((len(snapshots), len(drawn), width), np.nan)
    values[:, dec_local] = numbers.counterfactual_value[:, :, :width]
    sets = np.asarray(set_ids, dtype=np.int64)
    pick = np.asarray(snapshots)

    def per_set(array: np.ndarray) -> Any:
        return _rounded(array[pick[:, None], sets, :width]) if len(sets) else [[] for _ in pick]

    payload.update({
        "iterations": int(run.iterations[-1]),
        "frames": [int(run.iterations[s]) for s in snapshots],
        "exploitability": _rounded(run.exploitability[pick], 8),
        "currentExploitability": (_rounded(run.current_exploitability[pick], 8)
                                  if len(run.current_exploitability) == run.num_snapshots
                                  and np.isfinite(run.current_exploitability).all() else None),
        "value": _rounded(run.value[pick], 6),
        "expectedValue": _rounded(run.expected_value[pick], 6),
        "current": per_set(run.current_strategy),
        "average": per_set(run.average_strategy),
        "regret": per_set(run.cumulative_regret),
        "instantRegret": _rounded(numbers.instant_regret[:, :, :width]) if len(sets) else [],
        "setValue": _rounded(numbers.set_counterfactual_value[:, :, :width]) if len(sets) else [],
        "ownReach": _rounded(own),
        "othersReach": _rounded(others),
        "cfValue": _rounded(values),
        "numbersSource": numbers.source,
        "algorithm": run.settings.algorithm,
        "updates": run.settings.updates,
    })
    return payload


def encode_payload(payload: dict[str, Any]) -> tuple[str, bytes]:
    """(id, compact UTF-8 JSON) of a payload; the id is a digest of the bytes."""
    body = json.dumps(payload, separators=(",", ":"), allow_nan=False).encode()
    return hashlib.blake2b(body, digest_size=8).hexdigest(), body


def component_data(payload_id: str, body: bytes, view: dict[str, Any]) -> bytes:
    """The bytes the component is mounted with: one JSON header line (id and view), then the body.

    The body is cached per run and part; only the short header changes from rerun to rerun.
    """
    header = json.dumps({"id": payload_id, **view}, separators=(",", ":"), allow_nan=False).encode()
    return header + b"\n" + body


# ---------------------------------------------------------------------------------------------
# Values the browser sends back


def checked_iteration(value: object, iterations: Sequence[int] | np.ndarray) -> int | None:
    """The snapshot iteration the browser reported, or None when it is not one of `iterations`."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        return None
    if value != int(value):
        return None
    t = int(value)
    return t if t in {int(i) for i in iterations} else None


def checked_node(value: object, tree: GameTree) -> int | None:
    """The node id the browser reported, or None when it is not a node of `tree`."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        return None
    if value != int(value) or not 0 <= int(value) < tree.num_nodes:
        return None
    return int(value)


def next_header(previous: dict[str, Any] | None, wanted: dict[str, Any], shown: tuple[Any, Any] | None,
                mounted: bool) -> dict[str, Any]:
    """The header to mount the component with: `previous` again when the component stayed mounted,
    nothing but `t` and `node` changed, and they changed only to what the browser itself reported
    (`shown`); otherwise `wanted`. Byte-identical data means no new payload goes to the browser.

    >>> old = {"id": "a", "t": 1000, "node": None}
    >>> next_header(old, {"id": "a", "t": 40, "node": None}, (40, None), mounted=True) is old
    True
    >>> next_header(old, {"id": "a", "t": 40, "node": None}, (40, None), mounted=False)["t"]
    40
    """
    if not mounted or previous is None or shown is None:
        return wanted
    rest = {k: v for k, v in wanted.items() if k not in ("t", "node")}
    if rest == {k: v for k, v in previous.items() if k not in ("t", "node")} and (wanted["t"], wanted["node"]) == shown:
        return previous
    return wanted


def read_component_data(data: bytes) -> tuple[dict[str, Any], dict[str, Any]]:
    """(header, payload) back from `component_data`'s bytes: what the browser parses, for tests."""
    header, _, body = bytes(data).partition(b"\n")
    return json.loads(header), json.loads(body)
