"""AppTest: the Walkthrough page mounts the timeline's walkthrough mode with the whole trace once.

AppTest cannot run the component's JavaScript (tests/browser/test_walkthrough_browser.py steps it in
Chromium); here the header and payload the page mounts the component with are read back.
References: the iteration worked by hand (chance sampling deals Q vs K from uniform: 15 steps, the
first regret update +0.25 / -0.25 at Q kb, step 8), and a hand count of vanilla CFR's steps on
Kuhn (1 chance + 24 visits + 24 returns + 30 terminals + the end of the pass = 80).
"""
from __future__ import annotations


from streamlit.testing.v1 import AppTest

from tests.support.apptest import mounted, open_page



def open_walkthrough(**query: str) -> AppTest:
    return open_page("pages/6_Walkthrough.py", query)


def test_the_whole_hand_worked_trace_goes_to_the_browser_once():
    at = open_walkthrough()
    header, payload = mounted(at)
    assert header["mode"] == "walkthrough" and header["t"] == 1
    steps = payload["extra"]["steps"]
    assert len(steps["kind"]) == 15 and steps["history"][7] == "QK kb"
    assert steps["regretUpdate"][7] == [0.25, -0.25]
    assert payload["extra"]["deal"] == "QK"
    # The old server-side stepping is gone: no step buttons, no plotly tree.
    assert not at.get("plotly_chart")
    assert all(b.key not in ("walk_next", "walk_back", "walk_next_update") for b in at.button)
    # A rerun sends the same payload (same id): the browser does not parse it again.
    at.run()
    assert mounted(at)[0]["id"] == header["id"]


def test_a_linked_step_opens_there_and_a_new_trace_starts_at_its_first_step():
    at = open_walkthrough(walk_step="4")
    assert mounted(at)[0]["t"] == 4
    at.selectbox(key="walk_algo").set_value("cfr").run()
    assert not at.exception
    header, payload = mounted(at)
    assert header["t"] == 1 and len(payload["extra"]["steps"]["kind"]) == 80
    assert "walk_step" not in at.query_params


def test_a_step_past_the_end_of_the_trace_opens_its_last_step():
    # The link's bound (1,000,000) is wider than any trace: the page clamps to the 15 steps.
    at = open_walkthrough(walk_step="999")
    assert mounted(at)[0]["t"] == 15
