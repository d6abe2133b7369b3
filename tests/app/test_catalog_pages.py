"""Every page on games from .efg files: a bundled one (named in the link) and one uploaded by a user."""
from __future__ import annotations

from pathlib import Path

import pytest

from cfrviz.app.links import Choice
from cfrviz.app import CHOICE_KEY
from cfrviz.run.uploads import read_game_upload
from tests.support.apptest import open_page

ROOT = Path(__file__).resolve().parents[2]
PAGES = ["app.py", *sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "pages").glob("*.py"))]
# A game a user might write: Myerson's card game as a file outside the package (Myerson 1991, section 2.1).
#: Pages with their own game: the sidebar shows no solve there.
OWN_GAME_PAGES = ("pages/5_Regret_matching.py", "pages/6_Walkthrough.py")
UPLOADED = (ROOT / "cfrviz" / "games" / "data" / "games" / "myerson_card_game.efg").read_bytes()


@pytest.mark.parametrize("page", PAGES)
def test_every_page_runs_on_a_bundled_efg_game(page: str) -> None:
    at = open_page(page, {"game": "efg:matching_pennies", "iters": "200"})
    assert not at.exception, at.exception
    assert not at.error, [e.value for e in at.error]
    if page not in OWN_GAME_PAGES:   # those draw no solve controls (issue 30, defect 8)
        assert at.sidebar.selectbox(key="cfrviz_w_game").value == "efg:matching_pennies"


@pytest.mark.parametrize("page", PAGES)
def test_every_page_runs_on_an_uploaded_efg_game(page: str) -> None:
    game = read_game_upload("my game.efg", UPLOADED)
    at = open_page(page, state={CHOICE_KEY: Choice(game, "cfr", 300)})
    assert not at.exception, at.exception
    assert not at.error, [e.value for e in at.error]
    if page not in OWN_GAME_PAGES:
        assert at.sidebar.selectbox(key="cfrviz_w_game").value == "uploaded"
    assert "game" not in at.query_params          # a link cannot carry the uploaded file


def test_convergence_shows_the_lp_value_of_an_uploaded_game() -> None:
    game = read_game_upload("my game.efg", UPLOADED)
    at = open_page("pages/3_Convergence.py", state={CHOICE_KEY: Choice(game, "cfr+", 300)})
    # Myerson (1991): the game is worth 1/3 to player 1; the LP finds it.
    assert any(m.value == "+0.3333" for m in at.metric), [(m.label, m.value) for m in at.metric]


@pytest.mark.parametrize("name, data, fragment", [
    ("game.txt", b"EFG 2 R", "Gambit .efg"),
    ("game.efg", b"", "empty"),
    ("game.efg", b"\xff\xfe", "UTF-8"),
    ("game.efg", b'EFG 2 R "x" { "A" "B" "C" }', "two-player"),
])
def test_bad_game_uploads_are_one_sentence(name: str, data: bytes, fragment: str) -> None:
    with pytest.raises(ValueError, match=fragment) as error:
        read_game_upload(name, data)
    assert str(error.value).endswith(".") and "\n" not in str(error.value)


@pytest.mark.parametrize("page", ["pages/1_Game_tree.py", "pages/7_Best_response.py", "pages/8_Play.py"])
def test_a_big_uploaded_game_is_drawn_by_parts(page: str) -> None:
    # 5-card Kuhn written out as an .efg file has 20 deals x 5 ends = 100 terminals, more than a
    # drawing holds, and no cards the reader knows of: the pages split it into subtrees.
    from cfrviz.catalog import lookup
    from cfrviz.tree.efg_export import write_efg

    game = read_game_upload("kuhn5.efg", write_efg(lookup("kuhn5").tree()).encode())
    at = open_page(page, state={CHOICE_KEY: Choice(game, "cfr", 100)})
    assert not at.exception, at.exception
    assert not at.error, [e.value for e in at.error]
    if page == "pages/7_Best_response.py":
        part = at.selectbox(key="br_part")
        assert len(part.options) == 20 and part.value == 0     # one subtree per deal


def test_play_a_hand_of_an_uploaded_game() -> None:
    # Myerson's card game: chance draws red or black, the human (player 1) raises or folds at their
    # information set, the bot answers from the average strategy; every hand ends within two moves.
    game = read_game_upload("my game.efg", UPLOADED)
    at = open_page("pages/8_Play.py", state={CHOICE_KEY: Choice(game, "cfr+", 300)})
    at.button(key="play_deal").click().run()
    assert any("Your information set" in m.value for m in at.markdown)
    at.button(key="play_action_fold").click().run()
    assert not at.exception, at.exception
    # Folding shows the card: red wins the pot of 1 for player 1, black loses it (Myerson's rules).
    assert at.success and "The hand ends at" in at.success[0].value
    assert "win 1 chip." in at.success[0].value or "lose 1 chip." in at.success[0].value
    assert {m.label: m.value for m in at.metric}["Hands played"] == "1"


GOOFSPIEL = (ROOT / "tests" / "data" / "openspiel_games"
             / "goofspiel_num_cards_3_imp_info_true_points_order_descending.efg").read_bytes()


@pytest.mark.parametrize("page", PAGES)
def test_every_page_runs_on_openspiels_goofspiel_uploaded_as_efg(page: str) -> None:
    # Goofspiel (3 cards) as OpenSpiel enumerates it, simultaneous bids made turn-based: no private cards
    # and no chance at the root, unlike every built-in game.
    game = read_game_upload("goofspiel.efg", GOOFSPIEL)
    at = open_page(page, state={CHOICE_KEY: Choice(game, "cfr", 100)})
    assert not at.exception, at.exception
    assert not at.error, [e.value for e in at.error]


def test_the_sidebar_menu_switches_between_catalog_games() -> None:
    # The menu lists the catalog's games; a bundled .efg game goes into the link as efg:<name>, and
    # Kuhn's deck size (a whole-number parameter) gets its own box and link value (kuhn5).
    at = open_page("app.py", {"iters": "100"})
    menu = at.sidebar.selectbox(key="cfrviz_w_game")
    assert {"Kuhn poker", "Leduc poker", "Rock-paper-scissors", "Myerson's card game (.efg)"} <= set(menu.options)
    menu.set_value("efg:myerson_card_game").run()
    assert not at.exception and at.query_params["game"] in ("efg:myerson_card_game", ["efg:myerson_card_game"])
    assert not [n for n in at.sidebar.number_input if n.key == "cfrviz_w_cards"]
    at.sidebar.selectbox(key="cfrviz_w_game").set_value("kuhn").run()
    at.sidebar.number_input(key="cfrviz_w_cards").set_value(5).run()
    assert not at.exception and at.query_params["game"] in ("kuhn5", ["kuhn5"])
