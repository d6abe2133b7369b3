"""AppTest: what a visitor uploaded stays the page's run, with its banner, across page switches.

A page switch here is what a click on the app's own navigation does: Streamlit switches to the
link's page with the link's query string (`st.page_link(..., query_params=...)`), read from the
drawn link itself.
"""
from __future__ import annotations

from pathlib import Path
from urllib.parse import parse_qsl

from streamlit.testing.v1 import AppTest

import cfrviz
from cfrviz.run import Run
from cfrviz import app as ui
from cfrviz.figures.timeline import read_component_data
from tests.support.saved_runs import npz_bytes

APP = str(Path(__file__).parents[2] / "app.py")
BANNER = "Showing the uploaded run from"


def follow_navigation(at: AppTest, label: str) -> AppTest:
    """Click the sidebar's navigation entry `label`: its page, with the query string it carries."""
    (link,) = [e for e in at.sidebar.get("page_link") if e.proto.label == label]
    at.query_params.clear()
    at.query_params.update(dict(parse_qsl(link.proto.query_string)))
    (path,) = [path for path, page_label, _ in ui.PAGES if page_label == label]
    return at.switch_page(path).run()


def banner(at: AppTest) -> str:
    return next((box.value for box in at.info if BANNER in box.value), "")


def shown_iterations(at: AppTest) -> int:
    """The last iteration of the run the page's timeline shows ("t = ... of N")."""
    (element,) = at.get("bidi_component")
    _, payload = read_component_data(element.proto.bytes)
    return int(payload["iterations"])


def upload_700(at: AppTest) -> AppTest:
    # Reference: the sidebar's default is vanilla CFR for 1,000 iterations; the upload is a
    # CFR+ run of 700, so the two are told apart by their last iteration and their algorithm.
    run = cfrviz.solve("kuhn", "cfr+", iterations=700, updates="alternating")
    at.sidebar.file_uploader(key="cfrviz_w_upload").set_value(
        ("mine.npz", npz_bytes(run), "application/octet-stream")).run()
    assert not at.exception
    assert "mine" in banner(at) and "700 iterations" in banner(at)
    return at


def test_an_uploaded_run_survives_the_apps_navigation():
    at = AppTest.from_file(APP, default_timeout=60).run()
    at.switch_page("pages/1_Game_tree.py").run()
    upload_700(at)
    assert shown_iterations(at) == 700
    for label in ("Evolution", "Convergence", "Home", "Game tree"):
        follow_navigation(at, label)
        assert not at.exception, label
        assert "mine" in banner(at), f"{label}: the uploaded run's banner is gone"
        assert isinstance(at.session_state[ui.UPLOAD_KEY], Run), label
    assert shown_iterations(at) == 700


def test_back_to_the_sidebars_run_leaves_the_upload_and_restores_the_link():
    # Reference: the sidebar's default view (kuhn, cfr, 1,000 iterations, simultaneous).
    at = AppTest.from_file(APP, default_timeout=60).run()
    at.switch_page("pages/2_Evolution.py").run()
    upload_700(at)
    follow_navigation(at, "Game tree")
    at.sidebar.button(key="cfrviz_w_drop_upload").click().run()
    assert not at.exception and not banner(at)
    assert ui.UPLOAD_KEY not in at.session_state
    assert shown_iterations(at) == 1000
    assert {k: at.query_params[k] for k in ("game", "algo", "iters")} == {"game": "kuhn", "algo": "cfr",
                                                                         "iters": "1000"}
