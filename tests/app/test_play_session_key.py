"""AppTest: Play's session of hands belongs to the game, not to the game's title.

Reference: two Gambit files with the same title and the same tree (a chain of two decisions,
tests/support/efg_shapes.chain_efg) whose payoffs differ: going on to the end pays 0 in the first
and 1 to player 1 in the second. Uploading the second is a new game, so a new session of hands
starts: no hand on the table, no results, no losses. The title alone kept the first file's hand,
played by the first file's strategy, and its score.
"""
from __future__ import annotations

from streamlit.testing.v1 import AppTest

from cfrviz.app import CHOICE_KEY
from tests.support.apptest import open_page
from tests.support.efg_shapes import chain_efg

FIRST = chain_efg(2)
SECOND = FIRST.replace('"end" { 0 0 }', '"end" { 1 -1 }')


def upload(at: AppTest, name: str, text: str) -> AppTest:
    at.sidebar.file_uploader(key="cfrviz_w_upload").set_value((name, text.encode(), "application/octet-stream")).run()
    assert not at.exception, at.exception
    return at


def play_one_hand(at: AppTest) -> None:
    at.button(key="play_deal").click().run()
    while any(b.key and b.key.startswith("play_action_") for b in at.button):
        at.button(key=next(b.key for b in at.button if b.key and b.key.startswith("play_action_"))).click().run()
        assert not at.exception, at.exception


def test_a_second_file_with_the_same_title_starts_a_new_session() -> None:
    assert FIRST != SECOND and FIRST.splitlines()[0] == SECOND.splitlines()[0]    # one title, two games
    at = upload(open_page("pages/8_Play.py", {"play_seat": "p1"}), "first.efg", FIRST)
    play_one_hand(at)
    assert len(at.session_state["play_results"]) == 1 and at.session_state["play_hand"] is not None
    upload(at, "second.efg", SECOND)
    assert dict(at.session_state[CHOICE_KEY].spec.params)["text"] == SECOND     # the page plays the second file
    assert at.session_state["play_hand"] is None
    assert at.session_state["play_results"] == [] and at.session_state["play_losses"] == []
    assert any(b.key == "play_deal" for b in at.button)
