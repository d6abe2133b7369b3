"""AppTest: a `lock` link solves the locked game, the sidebar lists the lock with a remove button,
and a bad lock falls back with a notice.

References: the hand computation in tests/unit/analysis/test_locks.py (Kuhn with "J" = (check 0,
bet 1) is worth -5/18 to player 1) and the links' rule that bad values fall back with one sentence.
"""
from __future__ import annotations

import re
from pathlib import Path

from streamlit.testing.v1 import AppTest

import cfrviz
from cfrviz.app.locks import LOCK_EDITOR_SELECTOR, LOCK_WIDGET
from tests.app.test_upload_pages import upload_700
from tests.support.apptest import mounted, open_link, open_page

APP = str(Path(__file__).parents[2] / "app.py")


def param(at: AppTest, name: str) -> str | None:
    value = at.query_params.get(name)
    return value[0] if isinstance(value, list) else value


def test_a_lock_link_is_listed_kept_in_the_url_and_removed_by_its_button() -> None:
    # Reference: the link's canonical lock text is written back; removing the only lock drops the parameter.
    at = open_link({"game": "kuhn", "algo": "cfr+", "iters": "200", "lock": "J=0,1"})
    assert not at.exception and not at.warning
    assert param(at, "lock") == "J=0,1"
    assert any("J" in m.value and "bet 1" in m.value for m in at.markdown)
    from cfrviz import app as ui

    s = at.session_state[ui.CHOICE_KEY].settings()
    # The page's own solve, from the process's cache: its key carries the locks.
    run = ui.cached_solve(s)
    assert run.settings.locks.text() == "J=0,1"
    assert run.average_strategy[-1, run.tree.infoset_index("J"), :2].tolist() == [0.0, 1.0]
    at.button(key=f"{LOCK_WIDGET}remove_0").click().run()
    assert not at.exception
    assert param(at, "lock") is None
    assert not at.session_state[ui.CHOICE_KEY].locks


def test_a_bad_lock_link_shows_one_notice_and_the_game_without_locks() -> None:
    # Reference: Kuhn has no information set "Z".
    at = open_link({"game": "kuhn", "lock": "Z=1,0"})
    assert not at.exception
    assert len(at.warning) == 1 and "no information set" in at.warning[0].value
    assert param(at, "lock") is None


def test_lock_this_set_from_the_game_tree_locks_the_selected_nodes_set() -> None:
    # Reference: node 1 is the deal JQ (breadth-first ids: root, then JQ JK QJ QK ...), player 1's set "J",
    # whose actions are check and bet; "Always bet" is the pure lock (0, 1).
    at = AppTest.from_file(APP, default_timeout=60)
    for name, value in {"game": "kuhn", "iters": "100", "node": "1"}.items():
        at.query_params[name] = value
    at.switch_page("pages/1_Game_tree.py").run()
    assert not at.exception
    at.button(key=f"{LOCK_WIDGET}pure_1").click().run()
    assert not at.exception
    assert param(at, "lock") == "J=0,1" and param(at, "node") == "1"
    # A mixed lock from the sliders: weights 3 and 1 become probabilities 0.75 and 0.25.
    at.slider(key=f"{LOCK_WIDGET}w_J_0").set_value(0.75).run()
    at.slider(key=f"{LOCK_WIDGET}w_J_1").set_value(0.25).run()
    at.button(key=f"{LOCK_WIDGET}mixed").click().run()
    assert param(at, "lock") == "J=0.75,0.25"
    at.button(key=f"{LOCK_WIDGET}unlock").click().run()
    assert not at.exception and param(at, "lock") is None


def test_homes_lock_step_opens_locked_vs_unlocked_where_player_2_stops_calling_with_the_queen() -> None:
    # Reference: with "J" = (check 1, bet 0) a bet into player 2's Q holds K only, so Q b goes from
    # calling 1/3 (Kuhn 1950) to folding: the largest move among player 2's sets. That lock is the
    # alpha = 0 equilibrium's, so the values do not change (to the run's accuracy).
    from cfrviz.app.locks import LOCK_STEP

    home = open_link()
    assert any(link.proto.page == LOCK_STEP[0] or LOCK_STEP[1] in link.proto.label for link in home.get("page_link"))
    at = AppTest.from_file(APP, default_timeout=120)
    for name, value in LOCK_STEP[3].items():
        at.query_params[name] = value
    at.switch_page(LOCK_STEP[0]).run()
    assert not at.exception and not at.warning
    assert [h.value for h in at.subheader if h.value == "Locked vs unlocked"]
    (adapts,) = [m.value for m in at.markdown if "How player 2 adapts" in m.value]
    assert adapts.split("): ")[1].startswith("Q b moved 0.33")
    values = {m.label: m.value for m in at.metric}
    # Written with the app's one formatter (cfrviz.util.text.number): a minus sign, not a hyphen.
    assert abs(float(values["Player 1's value change"].replace("−", "-"))) < 1e-3
    assert float(values["Exploitability, locked game"]) < 1e-3


def test_convergence_targets_the_locked_value_and_best_response_shows_both_games() -> None:
    # Reference: Kuhn with "J" = (0, 1) is worth -5/18 = -0.2778 to player 1 (hand computation); always
    # betting the jack is off every Kuhn equilibrium, so the full game's exploitability stays positive.
    at = AppTest.from_file(APP, default_timeout=120)
    for name, value in {"game": "kuhn", "algo": "cfr+", "iters": "3000", "lock": "J=0,1"}.items():
        at.query_params[name] = value
    at.switch_page("pages/3_Convergence.py").run()
    assert not at.exception and not at.warning
    assert {m.label: m.value for m in at.metric}["Game value (chips/hand)"] == f"{-5 / 18:+.4f}"
    at.switch_page("pages/7_Best_response.py").run()
    assert not at.exception
    (note,) = [i.value for i in at.info if "Locked run" in i.value]
    locked_game, full_game = (float(x) for x in re.findall(r"\d+\.\d{5}", note))
    assert locked_game < 1e-3 < full_game


def _editor_keys(node: object) -> list[str]:
    """The keys of the lock editor's containers on the page (Streamlit ends a keyed block's id with its key)."""
    found = []
    block_id = str(getattr(getattr(node, "proto", None), "id", "") or "")
    if "cfrviz_lock_editor_" in block_id:
        found.append(block_id.rsplit("-", 1)[1])
    for child in getattr(node, "children", {}).values():
        found += _editor_keys(child)
    return found


def test_only_the_game_trees_enabled_lock_editor_is_named_in_the_timelines_header() -> None:
    # Reference: node 1 is the deal JQ, player 1's set "J" (information set 0 of Kuhn's tree, as
    # cfrviz.compile_game("kuhn").infoset_index("J") says): the header names the editor of set {set}, and
    # the page draws it for set 0. Best response has no lock editor, and an uploaded run's is disabled,
    # so their inspectors must not point to one (the browser: tests/browser/test_timeline_browser.py).
    assert cfrviz.compile_game("kuhn").infoset_index("J") == 0
    at = open_page("pages/1_Game_tree.py", {"game": "kuhn", "iters": "100", "node": "1"})
    assert mounted(at)[0]["locks"] == LOCK_EDITOR_SELECTOR == ".st-key-cfrviz_lock_editor_{set}"
    assert _editor_keys(at._tree) == ["cfrviz_lock_editor_0"]
    at.switch_page("pages/7_Best_response.py").run()
    assert not at.exception and "locks" not in mounted(at)[0]
    at.switch_page("pages/1_Game_tree.py").run()
    upload_700(at)
    assert not at.exception and "locks" not in mounted(at)[0]
