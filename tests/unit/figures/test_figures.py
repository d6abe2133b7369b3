"""Figure builders, checked through their plotly JSON."""
from __future__ import annotations

import base64

import numpy as np
import pytest

import cfrviz
from cfrviz.figures.convergence import equilibrium_figure, exploitability_figure, value_figure
from cfrviz.figures.evolution import aggression_heatmap, infoset_curves_figure
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
