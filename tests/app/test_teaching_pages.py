"""AppTest for the teaching pages (Regret matching, Walkthrough, Best response, Play),
and the pure pieces behind them: matrix presets and the payoff-table checks."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from cfrviz import analysis, app as ui
from cfrviz.analysis.equilibria import best_response_to
from cfrviz.figures.timeline import read_component_data
from cfrviz.games.matrix import PRESETS, parse_probabilities, payoff_table
from cfrviz.solvers.matrix import regret_matching_path

APP = str(Path(__file__).resolve().parents[2] / "app.py")


def open_page(page: str, query: dict | None = None) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=120)
    for key, value in (query or {}).items():
        at.query_params[key] = value
    at.run()
    at.switch_page(page).run()
    assert not at.exception, at.exception
    return at


def charts(at: AppTest) -> list[dict]:
    return [json.loads(chart.proto.spec) for chart in at.get("plotly_chart")]


# --------------------------------------------------------------------------------------------
# Regret matching


@pytest.mark.parametrize("name", list(PRESETS))
@pytest.mark.parametrize("sampled", [False, True])
def test_presets_converge_to_their_exact_equilibria(name, sampled):
    # References: the exact equilibria by hand — RPS and matching pennies uniform, weighted RPS
    # (1/4, 1/2, 1/4) (indifference: -y + 2z = x - z = -2x + y with x + y + z = 1), the 2x2 saddle
    # pure (up, right) — and they agree with analysis.matrix_equilibrium. Regret matching's average
    # strategy converges to them in self-play (Hart and Mas-Colell 2000).
    hand = {"rps": [1 / 3] * 3, "weighted_rps": [0.25, 0.5, 0.25], "pennies": [0.5, 0.5], "saddle": [1.0, 0.0]}
    preset = PRESETS[name]
    row, column, _ = analysis.matrix_equilibrium(preset.payoffs)
    np.testing.assert_allclose(row, hand[name], atol=1e-9)
    path = regret_matching_path(np.array(preset.payoffs, dtype=float), 100_000, sampled=sampled, seed=1, every=1000)
    np.testing.assert_allclose(path.average_row[-1], row, atol=0.01)
    np.testing.assert_allclose(path.average_column[-1], column, atol=0.01)


def test_payoff_table_rejects_bad_cells_with_a_sentence():
    good = [{"action": "up", "left": 3, "right": 1}, {"action": "down", "left": 2, "right": 0}]
    table, rows, columns = payoff_table(good, ["left", "right"])
    assert table.tolist() == [[3.0, 1.0], [2.0, 0.0]] and rows == ("up", "down") and columns == ("left", "right")
    with pytest.raises(ValueError, match="row 'down', column 'right' must be a number"):
        payoff_table([good[0], {"action": "down", "left": 2, "right": "lots"}], ["left", "right"])
    with pytest.raises(ValueError, match="Row 2 needs a name"):
        payoff_table([good[0], {"action": " ", "left": 2, "right": 0}], ["left", "right"])
    with pytest.raises(ValueError, match="2 to 5 rows"):
        payoff_table(good * 3, ["left", "right"])
    with pytest.raises(ValueError, match="sum to 1"):
        parse_probabilities("0.5, 0.6", ["left", "right"])
    # Neller and Lanctot's RPS trainer: against rock 0.4 / paper 0.3 / scissors 0.3, the best response is paper.
    assert best_response_to(np.array(PRESETS["rps"].payoffs, dtype=float), np.array([0.4, 0.3, 0.3])).tolist() == [0, 1, 0]


def timeline_data(at: AppTest) -> tuple[dict, dict]:
    """(header, payload) the page's timeline component is mounted with."""
    (element,) = at.get("bidi_component")
    return read_component_data(element.proto.bytes)


def test_regret_matching_page_fixed_opponent_and_self_play():
    at = open_page("pages/5_Regret_matching.py")
    # Self-play with expected-value updates is the default: the current strategy circles.
    assert at.radio(key="rm_mode").value == "self" and at.radio(key="rm_update").value == "expected"
    header, payload = timeline_data(at)
    assert header["mode"] == "regret_matching" and header["t"] == 10_000   # the last iteration by default
    extra = payload["extra"]
    # Both players, each with rock-paper-scissors' uniform equilibrium as the target.
    assert [p["name"] for p in extra["players"]] == ["player 1", "player 2"]
    assert all(p["target"] == pytest.approx([1 / 3] * 3, abs=1e-4) for p in extra["players"])
    assert extra["targetName"] == "equilibrium" and extra["frames"][-1] == 10_000
    # The frames are the page's own solve: the solver's average at the last frame.
    path = regret_matching_path(np.array(PRESETS["rps"].payoffs, dtype=float), 10_000, every=2,
                                start_regret=((1, 0, 0), (0, 1, 0)))
    assert extra["players"][0]["average"][-1] == pytest.approx(path.average_row[-1].tolist(), abs=5e-5)
    at.radio(key="rm_mode").set_value("fixed").run()
    at.radio(key="rm_update").set_value("sampled").run()
    assert not at.exception
    (player,) = timeline_data(at)[1]["extra"]["players"]
    # The tutorial trainer's opponent (0.4, 0.3, 0.3): the average heads for paper, marked as the target.
    assert player["target"] == [0.0, 1.0, 0.0] and player["average"][-1][1] > 0.9
    at.text_input(key="rm_opponent_3").set_value("0.5, 0.6, 0.1").run()
    # Errors are escaped markdown; on screen the backslashes vanish.
    assert [e.value.replace("\\", "") for e in at.error] == [
        "The opponent's probabilities must sum to 1; they sum to 1.2."]


# --------------------------------------------------------------------------------------------
# Walkthrough


def test_walkthrough_page_steps_to_the_hand_worked_example():
    at = open_page("pages/6_Walkthrough.py")
    assert at.session_state["walk_step"] == 0
    # "Next update" lands on the first return: the hand-worked node Qpb, regret sum +0.25 / -0.25.
    at.button(key="walk_next_update").click().run()
    assert at.subheader[0].value == "Return · QK kb"
    table = at.dataframe[0].value
    assert list(table["Δ regret sum"]) == [0.25, -0.25]  # 0.5 x regret (the caption names the weight)
    tree_spec = charts(at)[0]
    path = next(t for t in tree_spec["data"] if t["name"] == "path to this step")
    assert len([v for v in path["x"] if v is not None]) == 6  # three edges: deal, Q check, K bet
    changed = at.dataframe[-1].value.set_index("information set")
    # The "after" columns fill in step by step: Q kb is updated, K b not reached yet.
    assert changed.loc["▶ Q kb", "regret after"] == "+0.25 / -0.25"
    assert changed.loc["K b", "regret after"] == "+0 / +0"
    assert changed[changed["player"] == 1].index.tolist() == ["Q", "▶ Q kb"]
    at.button(key="walk_back").click().run()
    assert at.session_state["walk_step"] == 6 and at.subheader[0].value.startswith("Terminal")
    for _ in range(3):  # Next update x3 from the terminal: Q kb, K k, then K b
        at.button(key="walk_next_update").click().run()
    changed = at.dataframe[-1].value.set_index("information set")
    assert changed.loc["▶ K b", "regret after"] == "-0.75 / +0.75"  # by hand: Kb regret sum -0.75 / +0.75
    assert at.query_params["walk_step"] in ("13", ["13"])  # the link names the step (1-based)


# --------------------------------------------------------------------------------------------
# Best response


def test_best_response_page_matches_analysis():
    at = open_page("pages/7_Best_response.py", {"game": "kuhn", "algo": "cfr", "iters": "200",
                                                "updates": "simultaneous"})
    # Reference: cfrviz.analysis on the same run's average strategy at the last iteration.
    run = ui.cached_solve("kuhn", (), "cfr", 200, "simultaneous", 0)
    strategy = run.average_strategy[-1]
    values = [analysis.best_response(run.tree, strategy, p).value for p in (0, 1)]
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["Player 1's best response earns"] == f"{values[0]:+.5f}"
    assert metrics["Player 2's best response earns"] == f"{values[1]:+.5f}"
    assert metrics["Exploitability"] == f"{analysis.exploitability(run.tree, strategy):.5f}"
    assert abs((values[0] + values[1]) / 2 - run.exploitability[-1]) < 1e-12
    table = at.dataframe[0].value
    assert len(table) == 6 and table["gain"].min() >= -1e-12  # player 1's six sets; a BR never loses


# --------------------------------------------------------------------------------------------
# Play


def test_play_page_plays_a_hand_and_scores_it():
    at = open_page("pages/8_Play.py", {"game": "kuhn", "algo": "cfr", "iters": "100"})
    at.button(key="play_deal").click().run()
    for _ in range(3):
        actions = [b.key for b in at.button if b.key and b.key.startswith("play_action_")]
        if not actions:
            break
        at.button(key=actions[0]).click().run()
    assert not at.exception
    assert at.success and ("Showdown" in at.success[0].value or "fold" in at.success[0].value)
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["Hands played"] == "1"
    # Seat player 1 in Kuhn: the game value shown is -1/18 (Kuhn 1950).
    assert metrics["Game value for your seats"] == "-0.0556"


def test_play_page_plays_a_matrix_game():
    # Any two-player game is playable: in rock-paper-scissors player 1 (the human) picks a row at
    # their one information set, the bot answers, and the hand is scored from the payoff matrix.
    at = open_page("pages/8_Play.py", {"game": "rps", "iters": "100"})
    at.button(key="play_deal").click().run()
    assert any("player 1" in m.value for m in at.markdown)
    at.button(key="play_action_rock").click().run()
    assert not at.exception
    assert at.success and "The hand ends at rock / " in at.success[0].value
    assert {m.label: m.value for m in at.metric}["Hands played"] == "1"
