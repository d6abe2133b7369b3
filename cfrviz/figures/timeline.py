"""What the browser timeline is given: the tree's layout and every frame's numbers, sent once.

Pure (no streamlit): `cfrviz.app.components.timeline` mounts the component with the bytes built here, and
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
from enum import StrEnum
from typing import Any

import numpy as np

from cfrviz.analysis import inspector
from cfrviz.analysis.locks import strategy_change
from cfrviz.figures._style import ACTION_COLORS, ACTION_TEXT_COLORS, ACTOR_STYLE, PILL_COLORS, PLAYER_NAMES
from cfrviz.util.text import clamped_exploitability
from cfrviz.util.vocabulary import Player, StrategyKind, UpdateScheme
from cfrviz.games.base import ACTION_LETTERS
from cfrviz.run import Run
from cfrviz.tree import GameTree
from cfrviz.tree.naming import seat_names
from cfrviz.tree.parts import card_view

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
        if node == 0 and int(tree.actor[node]) == Player.CHANCE and arrange_by in (0, 1):
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


def numbers_source(updates: UpdateScheme | str) -> str:
    """What the inspector's values are computed from, said under them: the note on player 2's values
    holds only when the run alternates (a simultaneous run updates both from the same strategies)."""
    if UpdateScheme(updates) == UpdateScheme.ALTERNATING:
        return ("the strategies that produced iteration t's update (with alternating updates, "
                "player 2's values answer player 1's updated strategy)")
    return ("the strategies that produced iteration t's update (simultaneous updates: both players' values "
            "answer the same strategies)")


def frame_numbers(run: Run, snapshots: Sequence[int] | np.ndarray,
                  nodes: Sequence[int] | None = None, sets: Sequence[int] | None = None) -> FrameNumbers:
    """The inspector's numbers at each snapshot in `snapshots`, for the histories `nodes` and the
    information sets `sets` (all by default), from `cfrviz.analysis.inspector.frame_numbers`: summed over
    a set, this iteration's regret is what vanilla CFR added to the cumulative regret."""
    if nodes is not None and sets is not None and not len(nodes) and not len(sets):
        # A drawing without histories or sets (the charts): no walk over the tree at all.
        frames, width = len(snapshots), run.tree.max_actions
        return FrameNumbers(np.empty((frames, 0)), np.empty((frames, 0)), np.empty((frames, 0, width)),
                            np.empty((frames, 0, width)), np.empty((frames, 0, width)),
                            numbers_source(run.settings.updates))
    numbers = inspector.frame_numbers(run, np.asarray(snapshots, dtype=np.int64), nodes=nodes, sets=sets)
    return FrameNumbers(numbers["own_reach"], numbers["opponent_chance_reach"], numbers["history_cfv"],
                        numbers["infoset_cfv"], numbers["instant_regret"],
                        numbers_source(run.settings.updates))


# ---------------------------------------------------------------------------------------------
# The payload


def _exploitability(array: np.ndarray) -> list[float | None]:
    """Exploitability [F] for the wire, unrounded (the browser writes it with the pages' `number`, three
    significant digits however small) and with rounding noise below zero clamped, as the pages show it;
    NaN becomes None."""
    return [None if v != v else clamped_exploitability(v) for v in np.asarray(array, dtype=float).tolist()]


def _rounded(array: np.ndarray, digits: int = 4) -> Any:
    """Nested lists of floats rounded for the wire; NaN becomes None (JSON has no NaN)."""
    values = np.round(np.asarray(array, dtype=float), digits)
    missing = np.isnan(values)
    if not missing.any():
        return values.tolist()
    # Python floats and None in one object array: a tenth of the time of a walk over the lists.
    listed = values.astype(object)
    listed[missing] = None
    return listed.tolist()


def grouped_sets(tree: GameTree) -> list[int]:
    """Information sets ordered by player, then private card (in deal order), then key: the rows of
    Evolution's heat map and its bars share this order."""
    card_order: dict[object, int] = {}
    for record in tree.infosets:
        card_order.setdefault(record.private, len(card_order))
    return sorted(range(tree.num_infosets), key=lambda i: (tree.infosets[i].player,
                                                           card_order[tree.infosets[i].private],
                                                           len(tree.infosets[i].key), tree.infosets[i].key))


def graphml_bytes(tree: GameTree, nodes: Sequence[int] | None = None) -> bytes:
    """The tree (or the histories `nodes`) as GraphML, for Gephi, yEd or networkx.

    The graph is `tree.to_networkx(nodes)`; GraphML has no null, so a chance or terminal node
    has no `infoset_key` attribute.
    """
    import io

    import networkx as nx

    graph = tree.to_networkx(nodes)
    for _, attributes in graph.nodes(data=True):
        if attributes.get("infoset_key") is None:
            attributes.pop("infoset_key", None)
    out = io.BytesIO()
    nx.write_graphml(graph, out, encoding="utf-8")
    return out.getvalue()


def _drawn_graph(tree: GameTree, drawn: list[int], local: dict[int, int], set_ids: list[int]
                 ) -> tuple[list[tuple[int, int, int]], list[tuple[int, int]], list[list[int]]]:
    """The edges of `tree.to_networkx(drawn)`, read from the tree's arrays (networkx costs a first
    visit about half a second to import): tree edges as (local parent, local child, child's history
    id), sorted; same-information-set links [L] as local pairs, sorted; and the links' connected
    components, sorted lists sorted. A set's drawn histories are joined left to right, and a
    history is in one set, so each component is one set's drawn histories (two or more)."""
    chains = [[local[int(m)] for m in tree.nodes_of(i) if int(m) in local] for i in set_ids]
    links = sorted((a, b) for chain in chains for a, b in zip(chain[:-1], chain[1:], strict=True))
    # As in a DiGraph, a link between a history and its child replaces the tree edge between them.
    linked = set(links)
    tree_edges = sorted((local[int(tree.parent[n])], local[n], n) for n in drawn
                        if n > 0 and int(tree.parent[n]) in local and (local[int(tree.parent[n])], local[n]) not in linked)
    groups = sorted(sorted(chain) for chain in chains if len(chain) > 1)
    return tree_edges, links, groups


def build_payload(tree: GameTree, run: Run | None, nodes: Sequence[int] | None = None, *,
                  arrangements: Sequence[int] = (0,), include: int | None = None,
                  max_frames: int = MAX_FRAMES, extra: Any = None) -> dict[str, Any]:
    """Everything the browser needs for one drawn part (`nodes`, default the whole tree).

    What is drawn is the graph `tree.to_networkx(nodes)`, read from the arrays: node arrays [M]
    are in the order of its sorted node ids (local indices); `edges` [E] are its tree edges and `links` its
    same-information-set edges, `groups` the connected components of the links; `set` indexes
    `sets`, the drawn information sets. Frame arrays are [F, ...] over `frames` (iterations).
    `extra` (JSON-ready) is a page mode's own data, passed through as "extra". A set the run
    locks carries its lock ("lock": probabilities in action order; null when it is free).
    """
    drawn = list(range(tree.num_nodes)) if nodes is None else sorted({int(n) for n in nodes})
    local = {n: k for k, n in enumerate(drawn)}
    actor = [int(tree.actor[n]) for n in drawn]
    set_ids = sorted({int(tree.infoset[n]) for n in drawn if tree.infoset[n] >= 0})
    set_local = {i: k for k, i in enumerate(set_ids)}
    layouts = [tree_layout(tree, drawn, by) for by in arrangements] if drawn else []
    tree_edges, links, groups = _drawn_graph(tree, drawn, local, set_ids)
    locks = run.settings.locks if run is not None else None
    payload: dict[str, Any] = {
        "version": PAYLOAD_VERSION,
        "title": tree.game.title,
        "players": list(seat_names(tree)),   # a Gambit file's own player names, with their numbers
        "colors": {"chance": ACTOR_STYLE[Player.CHANCE]["color"], "player": [ACTOR_STYLE[0]["color"], ACTOR_STYLE[1]["color"]],
                   "terminal": ACTOR_STYLE[Player.TERMINAL]["color"], "actions": list(ACTION_COLORS),
                   # Text in an action's colour, and pills with white text, in shades that reach 4.5:1 (issue 30).
                   "actionText": list(ACTION_TEXT_COLORS),
                   "pills": [PILL_COLORS[Player.FIRST], PILL_COLORS[Player.SECOND]]},
        "nodes": {
            "id": drawn,
            "actor": actor,
            "set": [set_local.get(int(tree.infoset[n]), -1) for n in drawn],
            "label": [str(tree.node_label[n]) for n in drawn],
            "payoff": [float(tree.payoff[n]) if actor[k] == Player.TERMINAL else None for k, n in enumerate(drawn)],
        },
        # Tree edges (local indices) with the action's name, its index and letter (poker actions
        # as letters, deals as dealt), and a chance outcome's probability.
        "edges": {
            "parent": [u for u, _, _ in tree_edges],
            "child": [v for _, v, _ in tree_edges],
            "name": [str(tree.edge_label[n]) for _, _, n in tree_edges],
            "action": [int(tree.action_index[n]) for _, _, n in tree_edges],
            "letter": [str(tree.edge_label[n]) if actor[u] == Player.CHANCE else
                       ACTION_LETTERS.get(tree.edge_label[n], tree.edge_label[n]) for u, _, n in tree_edges],
            "chance": [round(float(tree.chance_probability[n]), 6) if actor[u] == Player.CHANCE else None
                       for u, _, n in tree_edges],
        },
        # Same-information-set links, and their connected components: one shaded group each.
        "links": [list(link) for link in links],
        "groups": groups,
        "layouts": [{"name": lay.name, "by": lay.arrange_by, "column": list(lay.column), "row": list(lay.row),
                     "columns": lay.columns, "rows": lay.rows} for lay in layouts],
        # Whether the tree splits by the players' private cards: its parts then go by a player's card, and
        # a set can be drawn whole (an OpenSpiel or .efg game's parts are subtrees).
        "cardView": card_view(tree),
        "sets": [{
            "index": i,
            "key": tree.infosets[i].key,
            "player": int(tree.infoset_player[i]),
            "actions": list(tree.infosets[i].actions),
            "letters": [ACTION_LETTERS.get(a, a) for a in tree.infosets[i].actions],
            "histories": [[int(h), tree.node_label[int(h)], local.get(int(h), -1)] for h in tree.nodes_of(i)],
            "lock": list(locks[tree.infosets[i].key]) if locks and tree.infosets[i].key in locks else None,
        } for i in set_ids],
        # The order bars are listed in (positions in "sets"): the heat map's row order.
        "order": [set_local[i] for i in grouped_sets(tree) if i in set_local],
    }
    if extra is not None:
        payload["extra"] = extra
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
        "exploitability": _exploitability(run.exploitability[pick]),
        "currentExploitability": (_exploitability(run.current_exploitability[pick])
                                  if len(run.current_exploitability) == run.num_snapshots
                                  and np.isfinite(run.current_exploitability).all() else None),
        "value": _rounded(run.value[pick], 6),
        "expectedValue": _rounded(run.expected_value[pick], 6),
        StrategyKind.CURRENT: per_set(run.current_strategy),
        StrategyKind.AVERAGE: per_set(run.average_strategy),
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


#: A set whose average strategy moved at least this far (total variation) from the unlocked run's
#: is ringed on the tree; below it the change is rounding and sampling noise.
MOVED_AT_LEAST = 0.01
#: The ring's colours from a move of 0 to a move of 1, light to dark (ColorBrewer's Purples: away
#: from the players' blue and vermillion, the selection's orange and the shaded sets' green).
MOVED_COLORS = ("#9e9ac8", "#807dba", "#6a51a3", "#54278f", "#3f007d")


def lock_comparison(locked: Run, unlocked: Run, nodes: Sequence[int] | None = None,
                    max_frames: int = MAX_FRAMES) -> dict[str, Any]:
    """What the tree needs to ring the sets a lock moved: for the drawn information sets (of
    `nodes`, default all) and the locked run's frames, the unlocked run's average strategy and how
    far the locked run's moved from it. JSON-ready: the tree mode's "extra".

    kind      "lock comparison" (what the tree mode looks for in the extra)
    frames    [F] iterations (the locked run's frames; the unlocked run's snapshot at or before each)
    keys      [S] the drawn sets' keys (the browser matches them to the payload's sets)
    unlocked  [F, S, A] the unlocked run's average strategy (A: the widest drawn set)
    moved     [F, S] total variation distance between the two average strategies
              (`cfrviz.analysis.locks.strategy_change`), the "moved" column of the locked-vs-unlocked table
    ValueError when the runs are not of the same game.
    """
    tree = locked.tree
    if [r.key for r in unlocked.tree.infosets] != [r.key for r in tree.infosets]:
        raise ValueError("Compare two runs of the same game; these have different information sets.")
    drawn = range(tree.num_nodes) if nodes is None else nodes
    set_ids = np.asarray(sorted({int(tree.infoset[n]) for n in drawn if int(tree.infoset[n]) >= 0}), dtype=np.int64)
    snapshots = frame_snapshots(locked.iterations, max_frames)
    iterations = locked.iterations[snapshots]
    before = np.asarray([unlocked.snapshot_at(int(t)) for t in iterations], dtype=np.int64)
    width = max((len(tree.infosets[i].actions) for i in set_ids), default=1)
    after_strategy = locked.average_strategy[snapshots[:, None], set_ids]          # [F, S, A]
    before_strategy = unlocked.average_strategy[before[:, None], set_ids]
    moved = strategy_change(before_strategy, after_strategy)                       # [F, S]
    return {
        "kind": "lock comparison",
        "frames": [int(t) for t in iterations],
        "keys": [tree.infosets[i].key for i in set_ids],
        "unlocked": _rounded(before_strategy[:, :, :width]) if len(set_ids) else [[] for _ in iterations],
        "moved": _rounded(moved) if len(set_ids) else [[] for _ in iterations],
        "movedAtLeast": MOVED_AT_LEAST,
        "colors": list(MOVED_COLORS),
        "locks": locked.settings.locks.text(),
    }


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


#: What the tree's edge widths (and the strategy bars and curves) show: the average strategy,
#: which converges, or the current strategy of iteration t.
EDGE_WIDTHS: tuple[StrategyKind, ...] = (StrategyKind.AVERAGE, StrategyKind.CURRENT)


class TimelineMode(StrEnum):
    """The drawings the component has: the one list of modes. `timeline_code` writes these values
    into the script (TIMELINE_MODES), and each is registered by exactly one module of
    timeline_assets/ (tree.js, charts.js, and the pages' own modes in modes/*.js)."""

    TREE = "tree"
    CHARTS = "charts"
    EXPLOITABILITY = "exploitability"
    SETS = "sets"
    WALKTHROUGH = "walkthrough"
    BEST_RESPONSE = "best_response"
    REGRET_MATCHING = "regret_matching"
    PLAY = "play"


#: Header values the browser changes itself and reports back.
BROWSER_VALUES = ("t", "node", "kind")


def checked_kind(value: object) -> StrategyKind | None:
    """The edge-width choice the browser reported ("average" or "current"), or None."""
    return StrategyKind(value) if isinstance(value, str) and value in EDGE_WIDTHS else None


def next_header(previous: dict[str, Any] | None, wanted: dict[str, Any], shown: dict[str, Any] | None,
                mounted: bool) -> dict[str, Any]:
    """The header to mount the component with: `previous` again when the component stayed mounted,
    nothing but the browser's own values (`BROWSER_VALUES`: t, node, kind) changed, and they
    changed only to what the browser itself reported (`shown`); otherwise `wanted`.
    Byte-identical data means no new payload goes to the browser.

    >>> old = {"id": "a", "t": 1000, "node": None, "kind": "average"}
    >>> next_header(old, {**old, "t": 40}, {"t": 40, "node": None, "kind": "average"}, mounted=True) is old
    True
    >>> next_header(old, {**old, "t": 40}, {"t": 40, "node": None, "kind": "average"}, mounted=False)["t"]
    40
    """
    if not mounted or previous is None or shown is None:
        return wanted
    rest = {k: v for k, v in wanted.items() if k not in BROWSER_VALUES}
    same_rest = rest == {k: v for k, v in previous.items() if k not in BROWSER_VALUES}
    if same_rest and all(wanted.get(k) == shown.get(k) for k in BROWSER_VALUES):
        return previous
    return wanted


def read_component_data(data: bytes) -> tuple[dict[str, Any], dict[str, Any]]:
    """(header, payload) back from `component_data`'s bytes: what the browser parses, for tests."""
    header, _, body = bytes(data).partition(b"\n")
    return json.loads(header), json.loads(body)
