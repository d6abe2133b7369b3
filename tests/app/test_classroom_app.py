"""AppTest: the defects a new user hit (issue 30), each checked where the page draws it.

References: the issue's list (defects 3, 5, 8, 10); the link parameters are the registry's
(`cfrviz.app.registry`), the formatter is `cfrviz.util.text.number`.
"""
from __future__ import annotations

import re
from pathlib import Path

import cfrviz
from cfrviz.app import CHOICE_KEY
from cfrviz.app.links import Choice
from cfrviz.app.locks import LOCK_STEP, LOCK_WIDGET
from cfrviz.figures.timeline import read_component_data
from cfrviz.run.uploads import read_game_upload
from cfrviz.solvers import ALGORITHMS
from cfrviz.util.text import clamped_exploitability, number
from tests.support.apptest import open_page

ROOT = Path(__file__).resolve().parents[2]
EVOLUTION = "pages/2_Evolution.py"
SIDEBAR_SOLVE = ("game", "algo", "iters", "updates", "seed")


def test_evolutions_chosen_sets_are_in_the_link_and_a_link_chooses_them() -> None:
    # Defect 3: the chosen sets were not in the share link. Kuhn's sets in order (cfrviz's tree): index 3 and 5.
    at = open_page(EVOLUTION, {"game": "kuhn", "evo_sets": "3,5"})
    keys = [record.key for record in cfrviz.compile_game("kuhn").infosets]
    (box,) = [m for m in at.multiselect if m.key == "evolution_infosets"]
    assert box.value == [keys[3], keys[5]]
    box.set_value([keys[1]]).run()
    assert at.query_params["evo_sets"] == "1"
    at.multiselect(key="evolution_infosets").set_value([]).run()
    assert at.query_params["evo_sets"] == "none"


def test_a_bad_evolution_link_says_so_in_one_sentence() -> None:
    at = open_page(EVOLUTION, {"game": "kuhn", "evo_sets": "3,999"})
    text = " ".join(str(w.value) for w in at.warning) + " ".join(str(w.body) for w in at.get("alert"))
    assert "not up to 8 of this game's 12 sets" in text, text


def test_home_and_convergence_write_exploitability_with_one_formatter() -> None:
    # Defect 5: Home wrote 7.27e-03 where others wrote 0.00727. The default view: Kuhn, vanilla CFR, 1,000 iterations.
    run = cfrviz.solve("kuhn", "cfr", iterations=1000, updates="simultaneous")
    expected = number(clamped_exploitability(float(run.exploitability[-1])))
    home = open_page("app.py")
    assert any(f"Exploitability of the average strategy: {expected} chips" in m.value for m in home.markdown)
    convergence = open_page("pages/3_Convergence.py")
    (metric,) = [m for m in convergence.metric if m.label.startswith("Exploitability")]
    assert metric.value == expected
    assert not re.search(r"\de-0[0-2]\b", expected)


def test_pages_with_their_own_game_hide_the_sidebars_solve_and_keep_it_out_of_their_link() -> None:
    # Defect 8: Regret matching and the Walkthrough ignore the sidebar's solve, yet showed it and linked it.
    link = {"game": "leduc", "algo": "cfr+", "iters": "500", "rm_iters": "300", "walk_t": "2"}
    for page, own in (("pages/5_Regret_matching.py", "rm_iters"), ("pages/6_Walkthrough.py", "walk_t")):
        at = open_page(page, link)
        assert not at.sidebar.selectbox and not at.sidebar.number_input, page
        assert not set(SIDEBAR_SOLVE) & set(at.query_params), (page, dict(at.query_params))
        assert own in at.query_params
        # The navigation still carries the sidebar's solve to the pages that use it.
        tree_link = next(link for link in at.get("page_link") if link.proto.page == "Game_tree")
        assert "game=leduc" in tree_link.proto.query_string


def test_home_on_an_uploaded_game_says_the_lock_step_opens_kuhn_poker() -> None:
    # Defect 10: Home spoke of Kuhn's family on any game, and its lock step (a Kuhn poker link) switched
    # games silently. Myerson's card game (Myerson 1991, section 2.1), uploaded.
    game = read_game_upload("my game.efg", (ROOT / "cfrviz/games/data/games/myerson_card_game.efg").read_bytes())
    at = open_page("app.py", state={CHOICE_KEY: Choice(game, "cfr", 300)})
    text = " ".join(m.value for m in at.markdown)
    assert "Kuhn's family" not in text
    assert "This step opens **Kuhn poker** in place of your game, Myerson" in text
    assert "a link cannot carry" in text
    kuhn = open_page("app.py")
    assert "in place of your game" not in " ".join(m.value for m in kuhn.markdown)


def test_the_lock_step_says_it_costs_nothing_and_lists_player_2s_answer_first() -> None:
    # Defect 7. Reference: never bluffing with the jack is Kuhn's α = 0 equilibrium (Kuhn 1950), so the locked
    # game is still worth -1/18 to player 1; the lock is player 1's, so player 2 is the one who adapts.
    _, _, _, params = LOCK_STEP
    at = open_page("pages/1_Game_tree.py", params)
    assert not at.error, [e.value for e in at.error]
    assert any("This lock costs nothing" in s.value for s in at.success)
    values = [m.value for m in at.metric if "value change" in m.label]
    assert len(values) == 2 and not any(re.fullmatch(r"[−+-]0\.0+", v) for v in values), values
    table = next(frame.value for frame in at.dataframe if "moved" in frame.value.columns)
    players = table["player"].tolist()
    assert players == sorted(players, key=lambda p: p != 2), players   # player 2's sets first
    assert players[0] == 2


def test_lock_this_set_is_reachable_without_clicking_a_node() -> None:
    # Defect 7: the lock editor appeared only once a node was clicked.
    at = open_page("pages/1_Game_tree.py", {"game": "kuhn", "iters": "100"})
    assert any(e.label.startswith("🔒 Lock an information set") for e in at.expander)
    at.selectbox(key=f"{LOCK_WIDGET}set").set_value(1).run()
    at.button(key=f"{LOCK_WIDGET}pure_0").click().run()
    assert not at.exception
    key = cfrviz.compile_game("kuhn").infosets[1].key
    assert at.session_state[CHOICE_KEY].locks.text().startswith(f"{key}=1,0")


def test_regret_matching_opens_where_the_path_starts() -> None:
    # Defect 2: the page opened at its last iteration (10,000), where the current path is a tangle. Reference:
    # the timeline's header t is the iteration it opens on (tests/app/test_learner_pages.py reads it the same way).
    at = open_page("pages/5_Regret_matching.py")
    (element,) = at.get("bidi_component")
    header, payload = read_component_data(element.proto.bytes)
    # 10,000 iterations are recorded every second one (the path's bound on records): its first frame is t = 2.
    assert header["t"] == payload["extra"]["frames"][0] <= 2
    assert "rm_t" not in at.query_params
    # A link's 0 still means the last iteration.
    last = open_page("pages/5_Regret_matching.py", {"rm_t": "0", "rm_iters": "500"})
    (element,) = last.get("bidi_component")
    assert read_component_data(element.proto.bytes)[0]["t"] == 500


def test_play_opens_with_one_plain_paragraph_and_the_deal_button_before_the_rules() -> None:
    # Defect 6: Play opened with a paragraph of notation, "Deal the first hand" below the fold at 1280×800
    # (the browser's own check is tests/browser/test_accessibility_browser.py).
    at = open_page("pages/8_Play.py")
    first = at.markdown[0].value
    assert "v(I" not in first and len(first) < 400, first
    order = [type(e).__name__ + ":" + str(getattr(e, "label", "")) for e in at.main]
    deal = next(k for k, e in enumerate(order) if "Deal the first hand" in e)
    rules = next(k for k, e in enumerate(order) if "Expander" in e and "Rules" in e)
    assert deal < rules, order


def test_compare_says_every_chosen_algorithm_under_its_box() -> None:
    # Defect 6: at 1280×800 the box showed four chips and hid PCFR+'s successors without saying so (seen in a
    # browser); the page's default is six algorithms (cfrviz.app.registry, cmp_algos).
    at = open_page("pages/4_Compare.py", {"game": "kuhn", "cmp_iters": "20", "cmp_sampling_iters": "20"})
    chosen = at.multiselect(key="cmp_algos").value
    assert len(chosen) == 6
    (caption,) = [c.value for c in at.caption if c.value.startswith("6 chosen: ")]
    for algorithm in chosen:
        assert ALGORITHMS[algorithm].title in caption
