"""The browser timeline's Python side: frames, layout, payload, and the values sent back.

References: run.py's snapshot schedule (every iteration up to 1,000, then log-spaced, at most
2,000); Kuhn's tree in breadth-first ids (root 0, deals JQ JK QJ QK KJ KQ = 1-6); the run's own
arrays for the numbers the browser gets.
"""
from __future__ import annotations

import io
import json
from itertools import pairwise
from pathlib import Path

import networkx as nx

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.support.efg_shapes import myerson_named

import cfrviz
from cfrviz.util.vocabulary import Player, StrategyKind
from cfrviz.tree import parts as tree_parts
from cfrviz.games.efg import read_efg
from cfrviz.figures.timeline import (
    MAX_FRAMES,
    build_payload,
    checked_iteration,
    checked_node,
    component_data,
    encode_payload,
    frame_snapshots,
    read_component_data,
    tree_layout,
)

# The solve behind `kuhn_run` (tests/unit/conftest.py) for this module's tests.
pytestmark = pytest.mark.kuhn_run(iterations=1000, updates="simultaneous")


@settings(deadline=None)  # a shared 2-core machine stalls; the property is not about speed
@given(st.integers(min_value=1, max_value=20_000), st.integers(min_value=2, max_value=400))
def test_frames_are_bounded_increasing_and_keep_the_ends(iterations: int, max_frames: int) -> None:
    from cfrviz.run import snapshot_schedule

    schedule = snapshot_schedule(iterations)
    frames = frame_snapshots(schedule, max_frames=max_frames)
    assert len(frames) <= max(max_frames, 1) + 1
    assert frames[0] == 0 and frames[-1] == len(schedule) - 1
    assert np.all(np.diff(frames) > 0)
    if len(schedule) <= max_frames:
        assert len(frames) == len(schedule)


def test_frames_keep_every_early_iteration_and_an_asked_one() -> None:
    from cfrviz.run import snapshot_schedule

    schedule = snapshot_schedule(20_000)
    frames = frame_snapshots(schedule)
    assert len(frames) <= MAX_FRAMES
    assert list(schedule[frames[:100]]) == list(range(1, 101))       # CFR moves most early
    odd = int(np.setdiff1d(np.arange(len(schedule)), frames)[-1])
    assert odd in frame_snapshots(schedule, include=odd)


def test_layout_puts_leaves_last_and_parents_between_their_children() -> None:
    tree = cfrviz.compile_game("kuhn")
    layout = tree_layout(tree, range(tree.num_nodes))
    column, row = layout.column, layout.row
    assert layout.rows == tree.num_terminals == 30
    for n in range(tree.num_nodes):
        kids = list(tree.children(n))
        if not kids:
            assert column[n] == layout.columns - 1
        else:
            assert row[n] == (row[kids[0]] + row[kids[-1]]) / 2
            assert all(column[c] > column[n] for c in kids)
    # Two nodes of one column are at least one row apart: their labels cannot meet.
    for c in range(layout.columns):
        rows = sorted(row[n] for n in range(tree.num_nodes) if column[n] == c)
        assert all(b - a >= 1 for a, b in pairwise(rows))


def test_arranging_by_player_2s_card_puts_those_deals_together() -> None:
    # Deals sorted by player 2's card: QJ KJ (J), JQ KQ (Q), JK QK (K).
    tree = cfrviz.compile_game("kuhn")
    layout = tree_layout(tree, range(tree.num_nodes), arrange_by=1)
    deals = sorted(range(1, 7), key=lambda d: layout.row[d])
    assert [tree.node_label[d] for d in deals] == ["QJ", "KJ", "JQ", "KQ", "JK", "QK"]


def test_payload_carries_the_runs_numbers_for_the_drawn_part(kuhn_run: cfrviz.Run) -> None:
    payload = build_payload(kuhn_run.tree, kuhn_run, arrangements=(0, 1))
    frames = frame_snapshots(kuhn_run.iterations)
    assert payload["frames"] == [int(kuhn_run.iterations[s]) for s in frames]
    assert len(payload["frames"]) == MAX_FRAMES and payload["iterations"] == 1000
    assert [lay["by"] for lay in payload["layouts"]] == [0, 1]
    keys = [s["key"] for s in payload["sets"]]
    q_k = keys.index("Q k")
    infoset = kuhn_run.tree.infoset_index("Q k")
    for f in (0, 57, len(frames) - 1):
        assert payload["average"][f][q_k] == pytest.approx(kuhn_run.average_strategy[frames[f], infoset], abs=5e-5)
        assert payload["regret"][f][q_k] == pytest.approx(kuhn_run.cumulative_regret[frames[f], infoset], abs=5e-5)
    # Player 2's set "Q k" has the histories JQ k and KQ k, both drawn.
    assert [h[1] for h in payload["sets"][q_k]["histories"]] == ["JQ k", "KQ k"]
    assert all(h[2] >= 0 for h in payload["sets"][q_k]["histories"])
    # Own reach is a probability at every decision node and frame.
    reach = np.array([[np.nan if v is None else v for v in row] for row in payload["ownReach"]])
    decision = np.array(payload["nodes"]["set"]) >= 0
    assert np.all((reach[:, decision] >= 0) & (reach[:, decision] <= 1))
    assert np.all(np.isnan(reach[:, ~decision]))


def test_a_part_by_player_2s_card_draws_player_2s_sets_whole() -> None:
    run = cfrviz.solve("leduc", "cfr", iterations=30, updates="simultaneous")
    part = tree_parts.Part(Player.SECOND, card="Q")
    payload = build_payload(run.tree, run, tree_parts.part_nodes(run.tree, part).tolist(), arrangements=(1,))
    q_k = next(s for s in payload["sets"] if s["key"] == "Q k")
    assert sorted(h[1] for h in q_k["histories"]) == ["JQ k", "KQ k", "QQ k"]
    assert all(h[2] >= 0 for h in q_k["histories"])


def test_the_payload_says_whether_the_tree_splits_by_cards() -> None:
    # Reference: Kuhn and Leduc deal a private card to each player at the root (cfrviz.tree.parts'
    # card views); Myerson's card game as .efg (Myerson 1991, section 2.1) and rock-paper-scissors have
    # no private cards, so the timeline offers no "Draw this set whole" there.
    for game, splits in (("kuhn", True), ("leduc", True), (read_efg(myerson_named("x")), False),
                         ([[0, -1, 1], [1, 0, -1], [-1, 1, 0]], False)):
        tree = cfrviz.solve(game, "cfr", iterations=1).tree
        assert build_payload(tree, None, [0])["cardView"] is splits, game


def test_component_bytes_round_trip_and_the_body_is_shared(kuhn_run: cfrviz.Run) -> None:
    payload_id, body = encode_payload(build_payload(kuhn_run.tree, kuhn_run))
    assert encode_payload(build_payload(kuhn_run.tree, kuhn_run))[0] == payload_id   # deterministic
    header, back = read_component_data(component_data(payload_id, body, {"t": 40, "node": 7, "mode": "tree"}))
    assert header == {"id": payload_id, "t": 40, "node": 7, "mode": "tree"}
    assert back == json.loads(body)


@pytest.mark.parametrize(("value", "expected"), [
    (40, 40), (40.0, 40), (1000, 1000), (0, None), (1001, None), (40.5, None), ("40", None),
    (True, None), (None, None), (float("nan"), None), (float("inf"), None), ([40], None)])
def test_checked_iteration_takes_only_snapshot_iterations(value: object, expected: int | None) -> None:
    assert checked_iteration(value, np.arange(1, 1001)) == expected


@pytest.mark.parametrize(("value", "expected"), [
    (0, 0), (54, 54), (55, None), (-1, None), (7.0, 7), (7.5, None), ("7", None), (None, None), (False, None)])
def test_checked_node_takes_only_nodes_of_the_tree(value: object, expected: int | None) -> None:
    assert checked_node(value, cfrviz.compile_game("kuhn")) == expected


def test_the_last_header_goes_again_only_for_what_the_browser_reported() -> None:
    # Reference: the browser applies a header's t (and kind) only when it differs from the last
    # header's and from what it sent itself (timeline.js applyHeader), so an unchanged header is
    # always safe.
    from cfrviz.figures.timeline import next_header

    old = {"id": "a", "t": 1000, "node": None, "kind": "average", "mode": "tree", "focus": [], "log": False}
    moved = {**old, "t": 40}
    seen = {"t": 40, "node": None, "kind": "average"}
    assert next_header(old, moved, seen, mounted=True) is old                  # the browser's own release
    assert next_header(old, moved, {**seen, "t": 1000}, mounted=True) is moved  # t changed elsewhere
    assert next_header(old, moved, seen, mounted=False) is moved               # back from another page
    assert next_header(old, {**moved, "id": "b"}, seen, mounted=True)["id"] == "b"   # a new part
    assert next_header(old, {**moved, "focus": ["Q"]}, seen, mounted=True)["focus"] == ["Q"]
    assert next_header(None, moved, None, mounted=True) is moved
    # The visitor switched edge widths to "current": the server's header follows, the data stays.
    switched = {**old, "kind": "current"}
    assert next_header(old, switched, {**seen, "t": 1000, "kind": "current"}, mounted=True) is old
    # A link asked for "current" while the browser shows "average": the new header goes.
    assert next_header(old, switched, {**seen, "t": 1000}, mounted=True) is switched


@pytest.mark.parametrize(("value", "expected"), [
    ("average", StrategyKind.AVERAGE), ("current", StrategyKind.CURRENT), ("Average", None), ("", None), (None, None),
    (1, None)])
def test_checked_kind_takes_only_the_two_edge_widths(value: object, expected: StrategyKind | None) -> None:
    from cfrviz.figures.timeline import checked_kind

    assert checked_kind(value) is expected


# ---------------------------------------------------------------------------------------------
# networkx is the drawing's model


def graph_parts(graph: nx.DiGraph) -> tuple[set[tuple[int, int, str]], set[tuple[int, int]]]:
    """(tree edges with their action names, same-information-set links) of a to_networkx graph."""
    edges = {(u, v, d["label"]) for u, v, d in graph.edges(data=True) if d["kind"] == "action"}
    links = {(u, v) for u, v, d in graph.edges(data=True) if d["kind"] == "information_set"}
    return edges, links


def payload_parts(payload: dict) -> tuple[set[tuple[int, int, str]], set[tuple[int, int]]]:
    """The same two sets read off a payload, in history ids."""
    ids, e = payload["nodes"]["id"], payload["edges"]
    edges = {(ids[p], ids[c], name) for p, c, name in zip(e["parent"], e["child"], e["name"], strict=True)}
    links = {(ids[a], ids[b]) for a, b in payload["links"]}
    return edges, links


def drawn_parts() -> list[tuple[str, list[int] | None]]:
    """(game, nodes) cases: whole trees, parts by either player's card, a round-2 part, a part
    below a node of a game without cards, and an empty drawing (the charts' timeline)."""
    leduc = cfrviz.compile_game("leduc")
    round_two = tree_parts.Part(Player.SECOND, card="K", line=tree_parts.lines(leduc, Player.SECOND, "K")[0],
                                public=tree_parts.public_cards(leduc, Player.SECOND, "K",
                                                               tree_parts.lines(leduc, Player.SECOND, "K")[0])[0])
    bundled = cfrviz.compile_game("efg:matching_pennies")
    below = tree_parts.parts(bundled, "subtree")[-1]
    return [("kuhn", None), ("rps", None), ("efg:matching_pennies", None),
            ("leduc", tree_parts.part_nodes(leduc, tree_parts.Part(Player.FIRST, card="Q")).tolist()),
            ("leduc", tree_parts.part_nodes(leduc, tree_parts.Part(Player.SECOND, card="J")).tolist()),
            ("leduc", tree_parts.part_nodes(leduc, round_two).tolist()),
            ("efg:matching_pennies", tree_parts.part_nodes(bundled, below).tolist()),
            ("kuhn", [])]


@pytest.mark.parametrize(("game", "nodes"), drawn_parts())
def test_the_payloads_edges_and_links_are_the_graphs(game: str, nodes: list[int] | None) -> None:
    # Reference: GameTree.to_networkx is the model of the drawing (the payload reads the same
    # graph off the arrays); Kuhn's tree has 54 edges and 12 two-history sets (so 12 links).
    tree = cfrviz.compile_game(game)
    payload = build_payload(tree, None, nodes)
    graph = tree.to_networkx(nodes)
    assert payload["nodes"]["id"] == sorted(graph.nodes)
    assert payload_parts(payload) == graph_parts(graph)
    if game == "kuhn" and nodes is None:
        assert len(payload_parts(payload)[0]) == 54 and len(payload["links"]) == 12
    # Edges in the graph's sorted order, with its action index and chance probability.
    ids, e = payload["nodes"]["id"], payload["edges"]
    action_edges = sorted((u, v) for u, v, d in graph.edges(data=True) if d["kind"] == "action")
    assert [(ids[p], ids[c]) for p, c in zip(e["parent"], e["child"], strict=True)] == action_edges
    assert e["action"] == [graph.edges[u, v]["action"] for u, v in action_edges]
    assert e["chance"] == [round(graph.edges[u, v]["probability"], 6) if graph.nodes[u]["actor"] == Player.CHANCE else None
                           for u, v in action_edges]
    # The shaded groups are the connected components of the links: each set's drawn histories.
    groups = {frozenset(ids[k] for k in g) for g in payload["groups"]}
    assert groups == {frozenset(c) for c in nx.connected_components(nx.Graph(list(graph_parts(graph)[1])))}
    drawn = set(ids)
    by_set: dict[int, set[int]] = {}
    for n in drawn:
        if tree.infoset[n] >= 0:
            by_set.setdefault(int(tree.infoset[n]), set()).add(n)
    assert groups == {frozenset(m) for m in by_set.values() if len(m) > 1}
    # Node arrays: the graph's attributes.
    for k, n in enumerate(ids):
        assert payload["nodes"]["label"][k] == graph.nodes[n]["label"]
        assert payload["nodes"]["actor"][k] == graph.nodes[n]["actor"]
        if graph.nodes[n]["actor"] == Player.TERMINAL:
            assert payload["nodes"]["payoff"][k] == graph.nodes[n]["payoff"]


def test_the_wire_rounds_and_turns_nan_into_null() -> None:
    # Hand computation: 4 places by default, NaN has no JSON form and goes as null, shapes kept.
    from cfrviz.figures.timeline import _rounded

    assert _rounded(np.array([[1 / 3, np.nan], [-2 / 3, 0.5]])) == [[0.3333, None], [-0.6667, 0.5]]
    assert _rounded(np.array([1 / 7, 2.0]), 2) == [0.14, 2.0]
    assert _rounded(np.full((2, 0, 3), np.nan)) == [[], []]
    assert json.dumps(_rounded(np.array([np.nan, 1e-9]))) == "[null, 0.0]"


def test_the_payload_and_the_drawn_part_load_no_networkx_pandas_or_plotly() -> None:
    # Reference: the payload is lists built from the tree's arrays; a fresh interpreter shows what
    # building Kuhn's (a first visit to Game tree) imports.
    import subprocess
    import sys

    child = ("import sys, cfrviz\n"
             "from cfrviz.figures.drawn import is_drawn_whole\n"
             "from cfrviz.figures.timeline import build_payload\n"
             "run = cfrviz.solve('kuhn', 'cfr', 100)\n"
             "assert is_drawn_whole(run.tree) and build_payload(run.tree, run)['frames']\n"
             "print([m for m in ('networkx', 'pandas', 'plotly') if m in sys.modules])\n")
    done = subprocess.run([sys.executable, "-c", child], capture_output=True, text=True, timeout=300,
                          cwd=Path(__file__).parents[3])
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "[]"


def test_a_part_joins_the_drawn_histories_of_a_set_even_with_one_left_out() -> None:
    # Hand computation: Kuhn's set "Q k" (player 2 holds Q after a check) has the histories
    # JQ k and KQ k; the part of every deal but KQ draws only JQ k, so no link, no group, while a
    # part that leaves out a history in between still joins the two it keeps.
    tree = cfrviz.compile_game("kuhn")
    jq_k, kq_k = tree.node_label.index("JQ k"), tree.node_label.index("KQ k")
    without_kq = [n for n in range(tree.num_nodes) if not tree.node_label[n].startswith("KQ")]
    graph = tree.to_networkx(without_kq)
    assert jq_k in graph and kq_k not in graph
    assert not [v for v in graph.successors(jq_k) if graph.edges[jq_k, v]["kind"] == "information_set"]
    leduc = cfrviz.compile_game("leduc")
    q_k = leduc.infoset_index("Q k")
    members = [int(m) for m in leduc.nodes_of(q_k)]
    assert len(members) == 3
    kept = set(range(leduc.num_nodes)) - {members[1]}
    links = {(u, v) for u, v, d in leduc.to_networkx(kept).edges(data=True) if d["kind"] == "information_set"}
    assert (members[0], members[2]) in links


def test_graphml_reads_back_into_networkx() -> None:
    # Reference: networkx's own GraphML reader; Kuhn has 55 histories, 54 actions and 12 links.
    from cfrviz.figures.timeline import graphml_bytes

    tree = cfrviz.compile_game("kuhn")
    back = nx.read_graphml(io.BytesIO(graphml_bytes(tree)))
    assert back.number_of_nodes() == 55
    kinds = [d["kind"] for _, _, d in back.edges(data=True)]
    assert kinds.count("action") == 54 and kinds.count("information_set") == 12
    jq_k = tree.node_label.index("JQ k")
    assert back.nodes[str(jq_k)]["infoset_key"] == "Q k" and back.nodes[str(jq_k)]["label"] == "JQ k"
    assert back.edges[str(jq_k), str(tree.node_label.index("JQ kb"))]["label"] == "bet"
    assert "infoset_key" not in back.nodes["0"]        # the root deals: no information set
    assert back.graph["game"] == tree.game.title
