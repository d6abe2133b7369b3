"""AppTest for the teaching pages (Regret matching, Best response, Play; Walkthrough in test_walkthrough_app.py),
and the pure pieces behind them: matrix presets and the payoff-table checks."""
from __future__ import annotations

import numpy as np
import pytest

from cfrviz import analysis, app as ui
from cfrviz import catalog
from cfrviz.run import RunSettings
from cfrviz.analysis.equilibria import best_response_to
from cfrviz.figures.timeline import read_component_data
from cfrviz.games.matrix import PRESETS, parse_probabilities, payoff_table
from cfrviz.solvers.matrix import regret_matching_path
from cfrviz.util.vocabulary import Player
from tests.support.apptest import mounted, open_page

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


def test_regret_matching_page_fixed_opponent_and_self_play():
    at = open_page("pages/5_Regret_matching.py")
    # Self-play with expected-value updates is the default: the current strategy circles.
    assert at.radio(key="rm_mode").value == "self" and at.radio(key="rm_update").value == "expected"
    header, payload = mounted(at)
    # The first recorded iteration by default (issue 30: the path starts there; 10,000 are recorded every 2nd).
    assert header["mode"] == "regret_matching" and header["t"] == 2
    extra = payload["extra"]
    # Both players, each with rock-paper-scissors' uniform equilibrium as the target.
    assert [p["name"] for p in extra["players"]] == ["player 1", "player 2"]
    assert all(p["target"] == pytest.approx([1 / 3] * 3, abs=1e-4) for p in extra["players"])
    assert extra["targetName"] == "equilibrium" and extra["frames"][-1] == 10_000
    # The frames are the page's own solve: the solver's average at the last frame.
    path = regret_matching_path(np.array(PRESETS["rps"].payoffs, dtype=float), 10_000, every=2,
                                start_regret=((1, 0, 0), (0, 1, 0)))
    assert extra["players"][0]["average"][-1] == pytest.approx(path.average_row[-1].tolist(), abs=5e-5)
    # Rock-paper-scissors is symmetric: its value is 0, written as every page writes numbers (`number`).
    assert any(c.value.endswith("; value 0 for player 1.") for c in at.caption), [c.value for c in at.caption]
    at.radio(key="rm_mode").set_value("fixed").run()
    at.radio(key="rm_update").set_value("sampled").run()
    assert not at.exception
    (player,) = mounted(at)[1]["extra"]["players"]
    # The tutorial trainer's opponent (0.4, 0.3, 0.3): the average heads for paper, marked as the target.
    assert player["target"] == [0.0, 1.0, 0.0] and player["average"][-1][1] > 0.9
    # Paper against it earns 0.4·1 + 0.3·0 + 0.3·(−1) = 0.1.
    assert any(c.value.endswith("(expected payoff +0.1).") for c in at.caption), [c.value for c in at.caption]
    at.text_input(key="rm_opponent_3").set_value("0.5, 0.6, 0.1").run()
    # Errors are escaped markdown; on screen the backslashes vanish.
    assert [e.value.replace("\\", "") for e in at.error] == [
        "The opponent's probabilities must sum to 1; they sum to 1.2."]


# --------------------------------------------------------------------------------------------
# Best response


def test_best_response_page_matches_analysis():
    at = open_page("pages/7_Best_response.py", {"game": "kuhn", "algo": "cfr", "iters": "200",
                                                "updates": "simultaneous"})
    # Reference: cfrviz.analysis on the same run's average strategy, at the first and the last frame.
    run = ui.cached_solve(RunSettings(catalog.get("kuhn"), "cfr", 200, "simultaneous", 0))
    header, payload = read_component_data(at.get("bidi_component")[0].proto.bytes)
    assert header["mode"] == "best_response" and header["state"] == {"exploiter": 1}
    extra = payload["extra"]
    assert extra["frames"] == payload["frames"] and extra["sets"] == [s["key"] for s in payload["sets"]]
    for f, t in ((0, 1), (-1, 200)):
        strategy = run.average_strategy[run.snapshot_at(t)]
        values = [analysis.best_response(run.tree, strategy, p).value for p in (0, 1)]
        assert extra["values"][f] == pytest.approx(values, abs=1e-6)
        assert sum(values) / 2 == pytest.approx(analysis.exploitability(run.tree, strategy))
    assert extra["gameValue"] == pytest.approx(-1 / 18)       # Kuhn's value (Kuhn 1950)
    assert abs(sum(extra["values"][-1]) / 2 - run.exploitability[-1]) < 1e-6
    assert min(min(row) for row in extra["gain"]) >= -1e-12   # a best response never loses


def test_best_response_keeps_the_reported_exploiter_in_the_link():
    # Reference: the exploiter the timeline reports (1 or 2) is the link's br_player and the header's state;
    # anything else from the browser is ignored (cfrviz.figures.best_response_frames.checked_exploiter).
    at = open_page("pages/7_Best_response.py", {"game": "kuhn", "algo": "cfr", "iters": "50", "br_player": "2"})
    header = read_component_data(at.get("bidi_component")[0].proto.bytes)[0]
    assert header["state"] == {"exploiter": 2}
    assert any("Player 2's information sets" in c.value for c in at.caption)
    at.session_state["_br_reported_exploiter"] = Player.FIRST     # what the page's callback keeps
    at.run()
    assert read_component_data(at.get("bidi_component")[0].proto.bytes)[0]["state"] == {"exploiter": 1}
    assert "br_player" not in at.query_params      # the default is left out of the link


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
    # Seat player 1 in Kuhn: the game value shown is -1/18 (Kuhn 1950), with the minus sign of `number`.
    assert metrics["Game value for your seats"] == "\u22120.0556"


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
