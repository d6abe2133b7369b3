"""Figure builders, checked through their plotly JSON."""
from __future__ import annotations

import base64

import numpy as np
import pytest

import cfrviz
from cfrviz.figures.convergence import equilibrium_figure, exploitability_figure, value_figure
from cfrviz.figures.evolution import MAX_FRAMES, aggression_heatmap, infoset_curves_figure, strategy_playback_figure
from cfrviz.figures.tree import (edge_width, inspect_node, part_of_node, round_one_lines, tree_figure, tree_layout,
                                 tree_part)
from tests.support.figures import plotly_json

# The solve behind `kuhn_run` (tests/unit/conftest.py) for this module's tests.
pytestmark = pytest.mark.kuhn_run(iterations=300, updates="simultaneous")


def array(value) -> np.ndarray:
    """A plotly JSON array: a list, or numpy's typed-array encoding {"dtype", "bdata", "shape"}."""
    if isinstance(value, dict) and "bdata" in value:
        flat = np.frombuffer(base64.b64decode(value["bdata"]), dtype=np.dtype(value["dtype"]))
        shape = value.get("shape")
        return flat.reshape([int(n) for n in str(shape).split(",")]) if shape else flat
    return np.array(value, dtype=float)


def test_dotted_information_set_traces_join_exactly_the_nodes_of_each_set(kuhn):
    # Reference: 3-card Kuhn has 12 information sets, each holding the 2 deals that share the
    # acting player's card (hand count); the dotted curve starts and ends at those nodes.
    fig = plotly_json(tree_figure(kuhn, kuhn.uniform_strategy()))
    position = tree_layout(kuhn)
    links = [t for t in fig["data"] if t.get("meta", {}).get("infoset") is not None
             and t["line"].get("dash") == "dot"]
    assert len(links) == 12
    for trace in links:
        i = trace["meta"]["infoset"]
        nodes = [int(n) for n in kuhn.nodes_of(i)]
        assert trace["meta"]["nodes"] == nodes and len(nodes) == 2
        assert all(kuhn.infoset[n] == i for n in nodes)
        assert (trace["x"][0], trace["y"][0]) == pytest.approx(position[nodes[0]])
        assert (trace["x"][-2], trace["y"][-2]) == pytest.approx(position[nodes[1]])  # last is the None break
        assert trace["hoverinfo"] == "skip"


def test_long_information_set_links_are_faint_and_stay_above_the_next_layer(kuhn):
    # Reference: in 3-card Kuhn, player 1's sets join neighbouring deals (JQ-JK ...) while
    # player 2's join deals far apart (e.g. QJ-KJ after a check); the far ones are drawn faint.
    # Every curve dips below its nodes but less than one layer (layers are 1 apart in y).
    fig = plotly_json(tree_figure(kuhn, kuhn.uniform_strategy()))
    links = [t for t in fig["data"] if t.get("meta", {}).get("infoset") is not None
             and t["line"].get("dash") == "dot"]
    colors = {kuhn.infoset_player[t["meta"]["infoset"]]: set() for t in links}
    for trace in links:
        colors[kuhn.infoset_player[trace["meta"]["infoset"]]].add(trace["line"]["color"])
        ys = [y for y in trace["y"] if y is not None]
        assert min(ys) > ys[0] - 1.0
    assert "rgba" not in "".join(colors[0])       # player 1: solid colour
    assert any("rgba" in c for c in colors[1])    # player 2: some faint


def test_edge_widths_follow_the_strategy(kuhn):
    # Reference: hand-set strategy: player 1 with K checks 1/4, bets 3/4; widths are 0.6 + 7 p.
    strategy = kuhn.uniform_strategy().copy()
    k = kuhn.infoset_index("K")
    strategy[k, :2] = (0.25, 0.75)
    fig = plotly_json(tree_figure(kuhn, strategy))
    edges = {(t["meta"]["parent"], t["meta"]["child"]): t for t in fig["data"] if "parent" in t.get("meta", {})}
    assert len(edges) == kuhn.num_nodes - 1
    for node in kuhn.nodes_of(k):
        check, bet = kuhn.children(int(node))
        assert edges[(int(node), check)]["line"]["width"] == pytest.approx(0.6 + 7 * 0.25)
        assert edges[(int(node), bet)]["line"]["width"] == pytest.approx(0.6 + 7 * 0.75)
    # Chance edges: 1/6 each (one chance node deals both cards).
    assert edges[(0, 1)]["meta"]["probability"] == pytest.approx(1 / 6)
    assert edge_width(1.0) > edge_width(0.5) > edge_width(0.0)


def test_node_markers_carry_every_node_id_once_and_lines_skip_hover(kuhn):
    # Reference: the click contract of st.plotly_chart selections (customdata = node ids, lines hoverinfo="skip").
    fig = plotly_json(tree_figure(kuhn, None, selected=4))
    ids = [n for t in fig["data"] if t.get("customdata") is not None for n in t["customdata"]]
    assert sorted(ids) == list(range(kuhn.num_nodes))
    assert all(t["hoverinfo"] == "skip" for t in fig["data"] if t.get("mode") == "lines")
    highlight = next(t for t in fig["data"] if t.get("name") == "selected information set")
    assert highlight["meta"]["nodes"] == [3, 4]  # node 4 is the deal QK; its set "Q" also holds QJ (node 3)


def test_leduc_parts_hold_only_the_chosen_card_line_and_public_card():
    # Reference: Leduc's rules (Southey et al. 2005); keys are "private|public round1/round2".
    leduc = cfrviz.compile_game("leduc")
    assert set(round_one_lines(leduc, "Q")) == {"kk", "bc", "kbc", "brc", "kbrc"}
    part = tree_part(leduc, "Q", "kbc", "K")
    assert all(int(leduc.parent[n]) in part for n in part if n != 0)
    for n in part:
        if n > 0:
            assert leduc.node_label[n][0] == "Q"
        if "|" in leduc.node_label[n]:
            assert leduc.node_label[n][3:].startswith("K kbc/")
    node = part[-1]
    assert part_of_node(leduc, node) == ("Q", "kbc", "K")
    with pytest.raises(ValueError, match="cannot hold"):
        tree_part(leduc, "A")


def test_inspector_numbers_at_the_first_iteration(kuhn_run):
    # Hand computation, iteration 1 plays uniformly: at "QK k" player 2 (K) has own reach 1 and
    # opponent-and-chance reach 1/2 * 1/6 = 1/12; checking wins 1, betting wins
    # 1/2 * 1 (fold) + 1/2 * 2 (call) = 1.5; counterfactual values are those times 1/12.
    tree = kuhn_run.tree
    node = tree.node_label.index("QK k")
    inspection = inspect_node(tree, node, kuhn_run, snapshot=0)
    assert int(kuhn_run.iterations[0]) == 1
    assert inspection.key == "K k" and inspection.player == "player 2"
    assert inspection.reach == pytest.approx(1.0)
    assert inspection.opponent_chance_reach == pytest.approx(1 / 12)
    assert inspection.counterfactual_value == pytest.approx([1 / 12, 1.5 / 12])
    assert inspection.partners == (tree.node_label.index("JK k"),)


def test_alpha_band_spans_kuhns_equilibrium_family(kuhn_run):
    # Reference: Kuhn 1950: player 1 bets J with α ∈ [0, 1/3], bets K with 3α, calls with Q at α + 1/3.
    fig = plotly_json(equilibrium_figure(kuhn_run, int(kuhn_run.iterations[-1])))
    tree = kuhn_run.tree
    bands = {(tree.infosets[t["meta"]["infoset"]].key, t["meta"]["action"]): (t["meta"]["low"], t["meta"]["high"])
             for t in fig["data"] if t.get("meta", {}).get("band")}
    assert bands == pytest.approx({("J", 1): (0.0, 1 / 3), ("K", 1): (0.0, 1.0), ("Q kb", 1): (1 / 3, 2 / 3)})
    assert all(t["fill"] == "toself" for t in fig["data"] if t.get("meta", {}).get("band"))
    alpha = fig["layout"]["meta"]["alpha"]
    assert 0.0 <= alpha <= 1 / 3
    unique = {tree.infosets[t["meta"]["infoset"]].key: t["meta"]["value"]
              for t in fig["data"] if t.get("meta", {}).get("equilibrium")}
    # Player 2's unique equilibrium: bet J after a check 1/3, call Q 1/3, always bet/call with K.
    assert unique["J k"] == pytest.approx(1 / 3) and unique["Q b"] == pytest.approx(1 / 3)
    assert unique["K b"] == pytest.approx(1.0) and unique["J b"] == pytest.approx(0.0)


def test_matrix_equilibrium_lines_are_uniform_for_rock_paper_scissors():
    # Reference: rock-paper-scissors' unique equilibrium plays each action 1/3.
    run = cfrviz.solve("rps", "rm", iterations=200)
    fig = plotly_json(equilibrium_figure(run, 200))
    values = [t["meta"]["value"] for t in fig["data"] if t.get("meta", {}).get("equilibrium")]
    assert len(values) == 6 and values == pytest.approx([1 / 3] * 6)


def test_exploitability_is_log_log_with_a_one_over_root_t_guide(kuhn_run):
    # Reference: the guide is c / sqrt(T) (Zinkevich et al. 2007 regret bound), so y sqrt(x) is constant.
    fig = plotly_json(exploitability_figure(kuhn_run, 10))
    assert fig["layout"]["xaxis"]["type"] == "log" and fig["layout"]["yaxis"]["type"] == "log"
    guide = next(t for t in fig["data"] if t.get("meta", {}).get("guide"))
    x, y = array(guide["x"]), array(guide["y"])
    assert np.allclose(y * np.sqrt(x), y[0] * np.sqrt(x[0]))
    curve = fig["data"][0]
    assert np.allclose(array(curve["customdata"]), array(curve["y"]) * 1000.0)  # milli-chips in hover


def test_value_figure_marks_kuhns_value_and_both_curves(kuhn_run):
    # Reference: Kuhn's value for player 1 is -1/18 (Kuhn 1950).
    fig = plotly_json(value_figure(kuhn_run))
    (line,) = [t for t in fig["data"] if t["name"].startswith("game value")]
    assert all(abs(y + 1 / 18) < 1e-12 for y in array(line["y"]))
    # Named in the legend, never written on the plot where the curves run.
    assert not fig["layout"].get("annotations")
    names = [t["name"] for t in fig["data"]]
    assert any("exact" in n for n in names) and any("running mean" in n for n in names)


def test_playback_has_frames_buttons_and_its_own_slider(kuhn_run):
    # Reference: plotly's animation contract: frames + updatemenus(animate) + sliders.
    fig = plotly_json(strategy_playback_figure(kuhn_run))
    assert len(fig["frames"]) == min(kuhn_run.num_snapshots, MAX_FRAMES)
    assert fig["layout"]["updatemenus"][0]["buttons"][0]["method"] == "animate"
    assert len(fig["layout"]["sliders"][0]["steps"]) == len(fig["frames"])
    # Every frame's bars sum to 1 per information set (a probability distribution).
    total = sum(array(bar["x"]) for bar in fig["frames"][-1]["data"])
    assert np.allclose(total, 1.0)


def test_heat_map_rows_are_information_sets_coloured_by_aggression(kuhn_run):
    # Reference: for "K b" (player 2 holds K facing a bet) the aggressive action is call.
    fig = plotly_json(aggression_heatmap(kuhn_run, t=50))
    heat = fig["data"][0]
    z = array(heat["z"])
    groups, labels = heat["y"]
    assert z.shape == (kuhn_run.tree.num_infosets, len(array(heat["x"])))
    row = labels.index("K b")
    assert groups[row] == "player 2, K"
    i = kuhn_run.tree.infoset_index("K b")
    assert z[row, -1] == pytest.approx(kuhn_run.average_strategy[-1, i, 1])
    # Grouped by player, then card in deal order (J, Q, K): player 1's sets first.
    assert groups[:6] == ["player 1, J"] * 2 + ["player 1, Q"] * 2 + ["player 1, K"] * 2
    # Columns on a log axis.
    assert fig["layout"]["xaxis"]["type"] == "log"
    x = array(heat["x"])
    assert x[0] == 1 and x[-1] == kuhn_run.iterations[-1] and np.all(np.diff(x) > 0)
    assert fig["layout"]["shapes"][0]["x0"] == 50
    # Thinned columns are spaced evenly in log(iteration): over iterations 1..10,000 each of
    # the first 50 keeps its column and each later decade still gets about a hundred, where even
    # spacing would give [100, 1,000) only 27.
    from cfrviz.figures.evolution import log_spaced_snapshots

    picks = log_spaced_snapshots(np.arange(1, 10_001))
    assert len(picks) <= 300 and picks[0] == 0 and picks[-1] == 9_999
    shown = picks + 1
    assert set(range(1, 51)) <= set(shown.tolist())
    assert np.count_nonzero((shown >= 100) & (shown < 1000)) >= 60
    assert np.count_nonzero(shown >= 1000) >= 60


def test_infoset_curves_mark_t_and_refuse_an_empty_choice(kuhn_run):
    fig = plotly_json(infoset_curves_figure(kuhn_run, [0, 1], 50))
    assert fig["layout"]["meta"]["t"] == 50
    assert sum(1 for s in fig["layout"]["shapes"] if s["x0"] == 50) == 4
    with pytest.raises(ValueError, match="at least one"):
        infoset_curves_figure(kuhn_run, [], 50)


def test_choose_part_validates_values_and_follows_a_node_outside_the_part():
    # Reference: node 1000 of Leduc is QK|K kbc/kb; 3-card Kuhn's cards are J, Q, K.
    leduc = cfrviz.compile_game("leduc")
    from cfrviz.figures.tree import choose_part

    assert choose_part(leduc, None, "A", "zz", "Z") == ("J", "round 1", None)
    assert choose_part(leduc, None, "Q", "kbc", "Z") == ("Q", "kbc", "J")
    assert choose_part(leduc, 1000, "J", "round 1", None) == ("Q", "kbc", "K")
    assert choose_part(leduc, 1000, "Q", "kbc", "K") == ("Q", "kbc", "K")
