"""AppTest: every app-core page renders, the sidebar and t drive it, deep links restore it."""
from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from cfrviz import app as ui
from cfrviz import catalog
from cfrviz.run import RunSettings
from cfrviz.run import export_strategy
from cfrviz.util.vocabulary import Player
from cfrviz.util.text import clamped_exploitability, number
from tests.support.apptest import charts, mounted, open_link

APP = str(Path(__file__).parents[2] / "app.py")
PAGES = ["pages/1_Game_tree.py", "pages/2_Evolution.py", "pages/3_Convergence.py"]


def test_landing_page_shows_the_headline_chart_and_links():
    # Reference: the brief's landing page: exploitability over iterations and links to every page;
    # the numbers are the default run's own (the same solve in this process, compiled).
    at = open_link()
    assert not at.exception
    assert not charts(at)                     # no plotly on Home: its chart is the timeline's
    header, payload = mounted(at)
    assert header["mode"] == "exploitability" and header["log"] is True
    run = ui.cached_solve(RunSettings(catalog.get("kuhn"), "cfr", 1000, "simultaneous", 0))
    assert payload["frames"][-1] == 1000 and payload["nodes"]["id"] == [] and payload["sets"] == []
    assert payload["exploitability"][-1] == clamped_exploitability(float(run.exploitability[-1]))
    title = (f"Exploitability of the average strategy: {number(clamped_exploitability(run.exploitability[-1]))} chips "
             "per hand after 1,000 iterations")
    assert any(title in markdown.value for markdown in at.markdown)
    assert len(at.get("page_link")) >= len(PAGES)


@pytest.mark.parametrize("page", PAGES)
def test_each_page_renders_without_error_and_keeps_the_view_in_the_url(page):
    # Reference: the app's deep links (README): game, algo, iters, updates, t stay in the URL on every page.
    at = open_link()
    at.switch_page(page).run()
    assert not at.exception
    assert charts(at) or at.get("bidi_component")
    assert {k: at.query_params[k][0] if isinstance(at.query_params[k], list) else at.query_params[k]
            for k in ("game", "algo", "iters", "updates")} == {
        "game": "kuhn", "algo": "cfr", "iters": "1000", "updates": "simultaneous"}


def test_t_from_the_timeline_reaches_the_url_and_survives_a_page_switch():
    # Reference: the run's snapshots are every iteration up to 1000 (run.py's default schedule),
    # so t = 10 is a snapshot. The browser reports t as the component's state; AppTest cannot
    # run the JavaScript, so the state is set the way the component's callback sets it.
    at = open_link({"node": "4"})
    at.switch_page("pages/1_Game_tree.py").run()
    header, payload = mounted(at)
    assert (header["t"], header["node"], header["mode"]) == (1000, 4, "tree")
    assert payload["frames"][-1] == 1000 and len(payload["frames"]) <= 300
    at.session_state[ui.T_KEY] = 10
    at.run()
    assert not at.exception
    assert at.query_params["t"] in ("10", ["10"]) and mounted(at)[0]["t"] == 10
    assert mounted(at)[0]["id"] == header["id"]          # same run and part: the same payload
    at.switch_page("pages/2_Evolution.py").run()
    assert at.session_state[ui.T_KEY] == 10


def test_selecting_a_node_through_session_state_opens_its_inspector_and_the_url():
    # Reference: node 4 is the deal QK (breadth-first ids: root, then JQ JK QJ QK ...), information set "Q".
    at = open_link()
    at.switch_page("pages/1_Game_tree.py").run()
    assert mounted(at)[0]["node"] is None
    at.session_state[ui.NODE_KEY] = 4
    at.run()
    header, payload = mounted(at)
    assert header["node"] == 4
    assert at.query_params["node"] in ("4", ["4"])
    q = payload["nodes"]["set"][payload["nodes"]["id"].index(4)]
    assert payload["sets"][q]["key"] == "Q" and [h[0] for h in payload["sets"][q]["histories"]] == [3, 4]


def test_the_sidebar_switches_the_game_and_resets_the_node():
    # Reference: Leduc is drawn in parts chosen by player 1's card (README, Game tree).
    at = open_link({"node": "4"})
    at.switch_page("pages/1_Game_tree.py").run()
    at.selectbox(key="cfrviz_w_game").set_value("leduc").run()
    assert not at.exception
    assert at.session_state[ui.NODE_KEY] is None
    assert at.query_params["game"] in ("leduc", ["leduc"])
    assert any(s.label == "Player 1's card" for s in at.selectbox)


def test_a_deep_link_restores_game_run_t_and_node():
    # Reference: the app's promise: a link opened in a fresh browser shows the same view.
    at = AppTest.from_file(APP, default_timeout=60)
    for name, value in {"game": "leduc", "algo": "cfr+", "iters": "300", "updates": "alternating",
                        "t": "120", "node": "1000"}.items():
        at.query_params[name] = value
    at.switch_page("pages/1_Game_tree.py").run()
    assert not at.exception and not at.warning
    assert at.selectbox(key="cfrviz_w_game").value == "leduc"
    assert at.selectbox(key="cfrviz_w_algo").value == "cfr+"
    assert (mounted(at)[0]["t"], mounted(at)[0]["node"]) == (120, 1000)
    assert 1000 in mounted(at)[1]["nodes"]["id"]
    # The part drawn is the one holding node 1000 (QK|K kbc/kb): Q, line kbc, public K.
    assert [s.value for s in at.selectbox if s.label in ("Player 1's card", "Betting line", "Public card")] == \
        ["Q", "kbc", "K"]


def test_bad_deep_links_fall_back_with_visible_notices():
    # Reference: the house rule: malformed values fall back to a default with a notice, never a traceback.
    at = AppTest.from_file(APP, default_timeout=60)
    for name, value in {"game": "poker9", "iters": "lots", "t": "-4", "node": "99999"}.items():
        at.query_params[name] = value
    at.switch_page("pages/3_Convergence.py").run()
    assert not at.exception
    assert len(at.warning) == 4
    assert at.query_params["game"] in ("kuhn", ["kuhn"])


def test_asking_for_more_than_the_cap_gives_a_clear_message():
    # Reference: the catalog's app cap for Kuhn (100,000).
    at = open_link()
    at.number_input(key="cfrviz_w_iters").set_value(5_000_000).run()
    assert not at.exception
    assert any("capped at 100,000" in w.value for w in at.warning)
    assert at.number_input(key="cfrviz_w_iters").value == 100_000


def test_convergence_for_leduc_explains_the_missing_closed_form():
    # Reference: OpenSpiel publishes Leduc's value (-0.0856) but no closed-form equilibrium.
    at = open_link({"game": "leduc", "iters": "200"})
    at.switch_page("pages/3_Convergence.py").run()
    assert not at.exception
    assert any("No closed-form equilibrium" in i.value for i in at.info)
    assert any(m.value == "-0.0856" for m in at.metric)


def test_evolution_for_leduc_animates_only_the_chosen_sets():
    # Reference: Leduc has 288 information sets (tests/unit/games/test_games.py); the timeline keeps to the chosen ones.
    at = open_link({"game": "leduc", "iters": "200"})
    at.switch_page("pages/2_Evolution.py").run()
    assert not at.exception
    at.multiselect(key="evolution_infosets").set_value(["Q", "K"]).run()
    header, payload = mounted(at)
    assert header["mode"] == "sets" and header["focus"] == ["Q", "K"]
    assert [s["key"] for s in payload["sets"]] == ["Q", "K"]


def test_leduc_part_follows_a_new_node_but_keeps_the_users_choice():
    # Reference: node 1000 of Leduc is QK|K kbc/kb (cfrviz.tree's breadth-first ids).
    at = open_link({"game": "leduc", "iters": "100", "node": "1000"})
    at.switch_page("pages/1_Game_tree.py").run()
    assert at.selectbox(key="tree_private").value == "Q"
    at.selectbox(key="tree_private").set_value("J").run()
    assert not at.exception
    assert at.selectbox(key="tree_private").value == "J"       # the user's choice holds
    assert at.session_state[ui.NODE_KEY] == 1000               # and the selection stays
    at.session_state[ui.NODE_KEY] = 5                          # node 5 is the deal QQ
    at.run()
    assert at.selectbox(key="tree_private").value == "Q"


def test_an_uploaded_one_snapshot_strategy_renders_every_page():
    # Reference: cfrviz.run.uploads turns a strategy .json into a one-snapshot run (tests/unit/run/test_uploads.py);
    # the page shows that run's own strategy at node 4 (deal QK, information set "Q").
    import cfrviz
    from cfrviz.run.uploads import read_upload

    solved = cfrviz.solve("kuhn", "cfr", iterations=50, updates="simultaneous")
    uploaded = read_upload("strategy.json", export_strategy(solved).encode())
    at = open_link()
    at.session_state[ui.UPLOAD_KEY] = uploaded
    at.session_state[ui.NODE_KEY] = 4
    for page in ["app.py"] + PAGES:
        at.switch_page(page).run()
        assert not at.exception, page
        assert any("uploaded run" in c.value for c in at.caption)
    at.switch_page("pages/1_Game_tree.py").run()
    header, payload = mounted(at)
    q = next(k for k, s in enumerate(payload["sets"]) if s["key"] == "Q")
    assert payload["frames"] == [50]
    assert payload["average"][0][q] == pytest.approx(list(solved.average_strategy[-1, solved.tree.infoset_index("Q"), :2]),
                                                    abs=1e-4)


def test_convergence_names_the_runs_alpha_at_t():
    # Reference: cfrviz.analysis.equilibria.closest_alpha of the average strategy at t (Kuhn's α-family, Kuhn 1950).
    import cfrviz
    from cfrviz.analysis import closest_alpha

    at = open_link({"iters": "400", "t": "200"})
    at.switch_page("pages/3_Convergence.py").run()
    assert not at.exception
    run = cfrviz.solve("kuhn", "cfr", iterations=400, updates="simultaneous")
    alpha = closest_alpha(run.average_strategy[run.snapshot_at(200)], run.tree)
    assert any(f"α = {alpha:.3f}" in c.value and "iteration 200" in c.value for c in at.caption)


def test_choosing_an_alternating_only_sampler_switches_updates_with_a_notice():
    # Reference: ExternalSampling.update_schemes == ("alternating",); the sidebar's default is
    # simultaneous, so choosing external sampling must not end in an error.
    at = open_link()
    at.sidebar.selectbox(key="cfrviz_w_algo").set_value("external").run()
    assert not at.exception and not at.error
    assert at.query_params["updates"] in ("alternating", ["alternating"])
    assert any("one player per traversal" in w.value for w in at.warning)
    (updates,) = [r for r in at.radio if r.key == "cfrviz_w_updates"]
    assert updates.value == "alternating" and updates.disabled


def test_a_click_inside_the_part_keeps_it_and_draw_whole_set_switches_to_the_players_cards():
    # Reference: cfrviz.tree.parts: the part "player 1 holds Q, round 1" holds the history "QJ k"
    # (player 2 to act); its set "J k" is whole only in the part "player 2 holds J".
    from cfrviz.app.components import timeline as ui_timeline

    tree = cfrviz_tree("leduc")
    at = open_link({"game": "leduc", "iters": "50", "node": str(tree.node_label.index("QQ"))})
    at.switch_page("pages/1_Game_tree.py").run()
    assert (at.radio(key="tree_by").value, at.selectbox(key="tree_private").value) == (Player.FIRST, "Q")
    qj_k = tree.node_label.index("QJ k")
    at.session_state[ui.NODE_KEY] = qj_k           # what the component's click callback sets
    at.run()
    assert (at.radio(key="tree_by").value, at.selectbox(key="tree_private").value) == (Player.FIRST, "Q")
    at.session_state[ui_timeline.WHOLE_SET_KEY] = qj_k
    at.run()
    assert (at.radio(key="tree_by").value, at.selectbox(key="tree_private").value) == (Player.SECOND, "J")
    drawn = set(mounted(at)[1]["nodes"]["id"])
    assert {tree.node_label.index(h) for h in ("QJ k", "KJ k", "JJ k")} <= drawn


def cfrviz_tree(game: str):
    import cfrviz

    return cfrviz.compile_game(game)
