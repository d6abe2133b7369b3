"""AppTest: the Play page keeps the hand on the server and plays the strategy of the timeline's t.

AppTest cannot run the component's JavaScript: the timeline's t is put in session state the way
the component's callback puts it (`cfrviz.app.components.timeline._on_t`), and the data the page
mounts the component with is read back. References: the run solved here in the test process (the
bot's probabilities are its average strategy at t), and Kuhn's rules (antes 1, bets 1).
"""
from __future__ import annotations

import re

import pytest
from streamlit.testing.v1 import AppTest

import cfrviz
from cfrviz import app as ui
from cfrviz.util.text import number
from tests.support.apptest import mounted, open_page

KUHN = {"game": "kuhn", "algo": "cfr", "iters": "200", "updates": "simultaneous"}


def open_play(**query: str) -> AppTest:
    return open_page("pages/8_Play.py", {**KUHN, **query})


component = mounted


def test_the_timeline_is_in_play_mode_with_the_values_of_every_frame() -> None:
    at = open_play(play_seat="p2")
    header, payload = component(at)
    assert header["mode"] == "play"
    assert header["state"] == {"seat": 1, "pending": None, "decisions": [], "path": None}
    # The extra's frames are the timeline's, and it names every Kuhn set (the whole tree is drawn).
    extra = payload["extra"]
    assert extra["frames"] == payload["frames"] and len(extra["frames"]) == 200
    assert sorted(extra["keys"]) == sorted(s["key"] for s in payload["sets"])
    assert len(extra["value"]) == len(extra["setValue"]) == 200
    # No server slider for t: the page has no slider widget at all.
    assert not at.slider


def test_the_bot_plays_the_timelines_t_and_a_rerun_keeps_the_hand() -> None:
    run = cfrviz.solve("kuhn", "cfr", iterations=200, updates="simultaneous")
    at = open_play(play_seat="p2")
    at.session_state[ui.T_KEY] = 10          # what the timeline reports when the visitor lets go at t = 10
    at.run()
    at.button(key="play_deal").click().run()
    assert not at.exception, at.exception
    header, _ = component(at)
    card = {m.label: m.value for m in at.metric}["Your card"]
    assert header["state"]["pending"] in (f"{card} k", f"{card} b")
    # Mid-hand the browser gets no path: the deal on it would show the bot's card.
    assert header["state"]["path"] is None and header["state"]["seat"] == 1
    assert any("Your move" in m.value and "t = 10" in m.value for m in at.markdown)
    # The table: antes of 1 each (pot 2), then the bot's check keeps it or its bet of 1 makes it 3.
    table = next(m.value for m in at.markdown if m.value.startswith("| who |"))
    assert "| chance | deals your card" in table and "| 1 / 1 | 2 |" in table
    assert ("| check | 1 / 1 | 2 |" in table) != ("| bet | 1 / 2 | 3 |" in table)
    # A rerun with another t (the visitor moves the timeline mid-hand) keeps the hand.
    at.session_state[ui.T_KEY] = 200
    at.run()
    assert {m.label: m.value for m in at.metric}["Your card"] == card and at.subheader[0].value.startswith("Hand 1")
    while any(b.key and b.key.startswith("play_action_") for b in at.button):
        at.button(key=next(b.key for b in at.button if b.key and b.key.startswith("play_action_"))).click().run()
    hand = at.session_state["play_hand"]
    assert component(at)[0]["state"]["path"] == list(hand.path)   # shown once the hand is over
    line = next(m.value for m in at.markdown if "The bot's decisions this hand" in m.value)
    key, check, bet = re.search(r"- at (.+?): check ([\d.]+) · bet ([\d.]+)", line).groups()
    i = run.tree.infoset_index(key)
    assert [float(check), float(bet)] == pytest.approx(run.average_strategy[run.snapshot_at(10), i].tolist(), abs=6e-5)
    # The human's decision was scored against the strategy of the t in force then (200).
    assert any("iteration t = 200" in m.value for m in at.info)
    # Its numbers are written as every page writes them (`number`: three significant digits, signed).
    decision = hand.decisions[-1]
    (shown,) = [m.value for m in at.info if "EV loss of your" in m.value]
    assert f": {number(decision.loss, signed=True)} chips** against" in shown
    assert f"worth {number(decision.set_value, signed=True)} there" in shown
    assert shown.endswith(f" {number(decision.action_values[decision.chosen], signed=True)}.")
    (count, total) = (len(at.session_state["play_losses"]), sum(at.session_state["play_losses"]))
    assert count >= 1
    assert {m.label: m.value for m in at.metric}["EV loss this session"] == f"{number(total, signed=True)} chips"


@pytest.mark.parametrize(("seat", "player"), [("p1", "player 1"), ("p2", "player 2")])
def test_before_the_first_hand_leduc_shows_the_chosen_seats_own_cards(seat: str, player: str) -> None:
    # Reference: Leduc is drawn in parts split by one player's private card, jack first in deck order
    # (J, Q, K); before any hand the seat's own view is drawn, its first part "<seat> holds J, round 1".
    at = open_page("pages/8_Play.py", {"game": "leduc", "algo": "cfr", "iters": "50", "updates": "simultaneous",
                                 "play_seat": seat})
    assert not at.exception, at.exception
    assert any(f"showing {player} holds J, round 1" in c.value for c in at.caption)
    header, _ = component(at)
    assert header["state"]["seat"] == int(seat[1]) - 1
