"""AppTest: what a learner meets first. Plain words, the guided path, the app's own navigation, rules cards.

References: issue 13 (a learner's first hour) for what must be on screen; the games' own rules for the
rules cards (Kuhn 1950: ante 1, bet 1; Leduc: bets 2 then 4).
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from cfrviz import app as ui
from cfrviz.figures.timeline import read_component_data
from cfrviz.util.vocabulary import Player
from tests.support.apptest import open_link, screen_text

ROOT = Path(__file__).parents[2]
APP = str(ROOT / "app.py")
# Where the Best response page keeps the exploiter its timeline reported (pages/7_Best_response.py).
BR_REPORTED = "_br_reported_exploiter"
PAGE_FILES = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "pages").glob("*.py"))
# Words that mean nothing to a user: the project's private source documents.
PRIVATE_WORDS = re.compile(r"seed article|seed 00\d|the seeds|seeds'|DESIGN\.md|TESTING\.md", re.I)


@pytest.mark.parametrize("page", ["app.py", *PAGE_FILES])
def test_no_page_speaks_of_private_documents(page):
    at = open_link()
    if page != "app.py":
        at.switch_page(page).run()
    assert not at.exception
    text = screen_text(at)
    assert len(text) > 500  # the page really drew something
    assert not PRIVATE_WORDS.search(text), PRIVATE_WORDS.search(text)


def test_home_shows_the_guided_path_in_a_learners_order():
    at = open_link()
    labels = [link.proto.label for link in at.get("page_link")]
    path = [label for label in labels if re.match(r"\d\. ", label)]
    assert path == ["1. Regret matching", "2. Walkthrough", "3. Game tree", "4. Convergence",
                    "5. Best response", "6. Play", "7. Lock a set"]   # the last: node locking, a deep link
    text = screen_text(at)
    assert "Start here" in text and "Notice how the current strategy keeps circling" in text


def test_the_first_navigation_label_is_home_and_every_page_is_listed():
    at = open_link()
    sidebar_links = [link.proto for link in at.sidebar.get("page_link")]
    assert sidebar_links[0].label == "Home"
    assert [link.label for link in sidebar_links] == [label for _, label, _ in ui.PAGES]
    # The links carry the view, so a page switch keeps the game and solve.
    assert "game=kuhn" in sidebar_links[1].page or "game=kuhn" in str(sidebar_links[1])


def test_the_configuration_hides_streamlits_own_navigation():
    config = (ROOT / ".streamlit" / "config.toml").read_text()
    assert re.search(r"^\[client\][^\[]*showSidebarNavigation\s*=\s*false", config, re.M | re.S)


def test_play_shows_the_rules_with_ante_and_bet_size():
    at = open_link()
    at.switch_page("pages/8_Play.py").run()
    (card,) = [e for e in at.expander if e.label == "Rules of Kuhn poker"]
    text = "\n".join(m.value for m in card.markdown)
    assert "antes 1 chip" in text and "bets are 1 chip" in text
    assert "`k` check" in text and "`f` fold" in text


def test_leduc_rules_name_both_bet_sizes_and_the_public_card():
    at = open_link({"game": "leduc", "iters": "50"})
    at.switch_page("pages/8_Play.py").run()
    markdown = "\n".join(m.value for m in at.markdown)
    assert "2 chips in round 1" in markdown and "4 chips in round 2" in markdown
    assert "`r` raise" in markdown and "public card" in markdown


def test_big_kuhn_decks_explain_t_as_ten():
    at = open_link({"game": "kuhn6", "iters": "50"})
    at.switch_page("pages/1_Game_tree.py").run()
    assert not at.exception
    assert any("`T` ten" in c.value for c in at.caption)


def query(at: AppTest, name: str) -> str | None:
    value = at.query_params.get(name)
    return value[-1] if isinstance(value, list) else value


def test_page_settings_survive_a_page_switch_and_are_in_the_link():
    at = open_link()
    at.switch_page("pages/4_Compare.py").run()
    at.multiselect(key="cmp_algos").set_value(["cfr", "cfr+"])
    at.number_input(key="cmp_iters").set_value(200)
    at.number_input(key="cmp_sampling_iters").set_value(500).run()
    assert not at.exception
    assert query(at, "cmp_algos") == "cfr,cfr+" and query(at, "cmp_iters") == "200"
    at.switch_page("pages/5_Regret_matching.py").run()
    at.radio(key="rm_mode").set_value("fixed").run()
    at.radio(key="rm_update").set_value("sampled").run()
    assert query(at, "rm_mode") == "fixed" and query(at, "rm_update") == "sampled"
    assert query(at, "cmp_algos") is None  # a page's link carries its own settings only
    at.switch_page("pages/8_Play.py").run()
    at.radio(key="play_seat").set_value("alternate").run()
    at.switch_page("pages/7_Best_response.py").run()
    at.session_state[BR_REPORTED] = Player.SECOND      # as the timeline's exploiter event keeps it
    at.run()
    # Back on each page, the widgets show what was chosen there.
    at.switch_page("pages/4_Compare.py").run()
    assert at.multiselect(key="cmp_algos").value == ["cfr", "cfr+"] and at.number_input(key="cmp_iters").value == 200
    at.switch_page("pages/5_Regret_matching.py").run()
    assert at.radio(key="rm_mode").value == "fixed" and at.radio(key="rm_update").value == "sampled"
    at.switch_page("pages/8_Play.py").run()
    assert at.radio(key="play_seat").value == "alternate" and query(at, "play_seat") == "alternate"
    at.switch_page("pages/7_Best_response.py").run()
    # The timeline is mounted with player 2 as the exploiter (timeline.js applies the header's state).
    assert read_component_data(at.get("bidi_component")[0].proto.bytes)[0]["state"] == {"exploiter": 2}
    assert query(at, "br_player") == "2"


def test_a_share_link_restores_page_settings_in_a_fresh_session():
    at = AppTest.from_file(APP, default_timeout=90)
    at.switch_page("pages/6_Walkthrough.py")
    for name, value in {"walk_algo": "cfr", "walk_t": "3", "walk_step": "4", "walk_updates": "alternating"}.items():
        at.query_params[name] = value
    at.run()
    assert not at.exception
    assert at.selectbox(key="walk_algo").value == "cfr" and at.number_input(key="walk_t").value == 3
    assert at.radio(key="walk_updates").value == "alternating"
    # The walkthrough's timeline opens at the linked step (its t is the 1-based step).
    (element,) = at.get("bidi_component")
    assert read_component_data(element.proto.bytes)[0]["t"] == 4


def test_regret_matching_has_its_own_t_and_says_it_has_its_own_settings():
    # Reference: the link's rm_t is the iteration the timeline opens on (the browser's side, which
    # reports t back, is tests/browser/test_regret_matching_browser.py). 1,203 is recorded (every
    # iteration is, for 2,000 of them) but is no regular frame, so it gets its own.
    at = open_link({"rm_t": "1203", "rm_iters": "2000"})
    at.switch_page("pages/5_Regret_matching.py").run()
    assert not at.exception
    assert any("own settings" in i.value for i in at.info)
    (element,) = at.get("bidi_component")
    header, payload = read_component_data(element.proto.bytes)
    assert header["t"] == 1203 and 1203 in payload["extra"]["frames"]
    assert query(at, "rm_t") == "1203"


def test_an_uploaded_run_gets_a_banner_and_the_sidebar_says_it_is_not_in_use():
    import cfrviz

    run = cfrviz.solve("kuhn", "cfr+", iterations=40)
    at = AppTest.from_file(APP, default_timeout=90)
    at.session_state[ui.UPLOAD_KEY] = run
    at.session_state[ui.UPLOAD_NAME_KEY] = "my_run.npz"
    at.run()
    assert not at.exception
    (banner,) = [i.value for i in at.info if "uploaded run" in i.value]
    assert "my\\_run\\.npz" in banner and "CFR+" in banner and "40 iterations" in banner
    assert at.sidebar.selectbox(key="cfrviz_w_algo").disabled
    assert any("Not in use" in c.value for c in at.sidebar.caption)
