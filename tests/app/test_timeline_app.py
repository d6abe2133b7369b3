"""AppTest: the Game tree page's timeline carries the edge-width choice (average or current).

AppTest cannot run the component's JavaScript; the choice is put in session state the way the
component's callback puts it (`cfrviz.app.components.timeline._on_kind`), and the header the page mounts the
component with is read back. Reference: the component shows the header's kind (timeline.js
applyHeader), so the header is what a visitor sees.
"""
from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from tests.support.apptest import mounted

APP = str(Path(__file__).parents[2] / "app.py")
# The session-state key the Game tree page gives its timeline for the edge-width choice (kind_key).
KIND_KEY = "tree_edges"


def test_edge_widths_start_as_the_average_strategy_and_follow_the_reported_choice() -> None:
    at = AppTest.from_file(APP, default_timeout=60).run()
    at.switch_page("pages/1_Game_tree.py").run()
    assert not at.exception
    first = mounted(at)[0]
    assert first["kind"] == "average"
    at.session_state[KIND_KEY] = "current"
    at.run()
    assert mounted(at)[0]["kind"] == "current" and mounted(at)[0]["id"] == first["id"]   # same payload
    # A value that is not one of the two choices is not shown.
    at.session_state[KIND_KEY] = "<b>current</b>"
    at.run()
    assert mounted(at)[0]["kind"] == "average"
