"""A learner's first visit in a real browser: the app's own navigation on a fresh server, text
before the first solve, page settings that survive page switches and travel in share links, and
the banner of an uploaded run.

References: issue 13's checks; the pages-folder deep-link behaviour described in the README (a first
visit to /Evolution?t=5 on a new server must run the app's own setup).
"""
from __future__ import annotations

from pathlib import Path
from urllib.parse import parse_qsl, urlsplit

import pytest

import cfrviz
from cfrviz.run import save_run
from tests.support.browser import APP_IDLE, RENDER_TIMEOUT_MS, open_app, share_link, share_query
from tests.support.server import streamlit_server

SIDEBAR = '[data-testid="stSidebar"]'
# A shared 2-core machine under load renders slowly; these tests wait longer than the default.
SLOW_MS = 4 * RENDER_TIMEOUT_MS


def idle(page) -> None:
    page.wait_for_selector(APP_IDLE, timeout=SLOW_MS)


def nav_labels(page) -> list[str]:
    links = page.locator(f'{SIDEBAR} [data-testid="stPageLink"]')
    # The material icon is a ligature ("home"): the label is the last line.
    return [links.nth(i).inner_text().strip().split("\n")[-1] for i in range(links.count())]


@pytest.mark.browser
def test_fresh_server_deep_link_shows_the_apps_navigation_and_text_before_the_solve(
        new_context, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # An empty numba cache: this server compiles every kernel, as a fresh deploy without a
    # build-time warm-up would, so the first solve takes seconds and the text must not wait for it.
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "numba"))
    with streamlit_server() as (url, _process):
        page = new_context().new_page()
        page.goto(f"{url}/Evolution?t=5", timeout=RENDER_TIMEOUT_MS)
        page.locator("h1", has_text="Evolution").first.wait_for(state="visible", timeout=3 * RENDER_TIMEOUT_MS)
        # The app's own navigation is there on the very first visit, first item "Home"; Streamlit's
        # own list (which would say "app") is not.
        page.locator(f'{SIDEBAR} [data-testid="stPageLink"]').first.wait_for(timeout=SLOW_MS)
        labels = nav_labels(page)
        assert labels[0] == "Home" and "Evolution" in labels and "app" not in labels
        assert page.locator('[data-testid="stSidebarNav"]').count() == 0
        page.wait_for_selector(APP_IDLE, timeout=6 * RENDER_TIMEOUT_MS)
        assert share_query(page)["t"] == "5"

        # Home on a second fresh context: its text and path are on screen while the solve still runs.
        home = new_context().new_page()
        home.goto(f"{url}/?iters=1200", timeout=RENDER_TIMEOUT_MS)
        home.get_by_text("Start here").first.wait_for(state="visible", timeout=3 * RENDER_TIMEOUT_MS)
        solving = home.get_by_text("Solving Kuhn poker")
        chart = home.locator(".tl svg.tl-chart")     # Home's exploitability chart, drawn by the timeline
        assert solving.count() == 1 or chart.count() == 0, "the text waited for the solve"
        chart.first.wait_for(state="visible", timeout=6 * RENDER_TIMEOUT_MS)


@pytest.mark.browser
def test_page_settings_survive_a_page_switch_and_a_share_link(new_context, app_url: str) -> None:
    page = new_context().new_page()
    open_app(page, f"{app_url}/Regret_matching", "Regret matching in a matrix game", timeout_ms=SLOW_MS)
    page.get_by_text("fixed strategy", exact=True).click()
    idle(page)
    page.get_by_text("sampled actions", exact=True).click()
    page.get_by_text("best response to player 2").first.wait_for(timeout=SLOW_MS)
    idle(page)
    # Away through the app's navigation and back.
    page.locator(f'{SIDEBAR} [data-testid="stPageLink"]', has_text="Home").click()
    page.get_by_text("Start here").first.wait_for(timeout=SLOW_MS)
    idle(page)
    page.locator(f'{SIDEBAR} [data-testid="stPageLink"]', has_text="Regret matching").click()
    page.get_by_text("best response to player 2").first.wait_for(timeout=SLOW_MS)
    idle(page)
    assert page.get_by_role("radio", name="fixed strategy").is_checked()
    assert page.get_by_role("radio", name="sampled actions").is_checked()
    link = share_link(page)
    query = dict(parse_qsl(urlsplit(link).query))
    assert query["rm_mode"] == "fixed" and query["rm_update"] == "sampled"

    # The link in a fresh browser context (no session) restores them.
    other = new_context().new_page()
    open_app(other, link.replace("http://localhost", app_url) if link.startswith("http://localhost") else link,
             "best response to player 2", timeout_ms=SLOW_MS)
    assert other.get_by_role("radio", name="fixed strategy").is_checked()
    assert other.get_by_role("radio", name="sampled actions").is_checked()


@pytest.mark.browser
def test_an_upload_shows_its_banner_and_idles_the_sidebar(new_context, app_url: str, tmp_path: Path) -> None:
    saved = tmp_path / "learner_run.npz"
    save_run(cfrviz.solve("kuhn", "cfr+", iterations=60), saved)
    page = new_context().new_page()
    open_app(page, f"{app_url}/Convergence?game=kuhn&algo=cfr&iters=50", "Convergence", timeout_ms=SLOW_MS)
    page.locator(f'{SIDEBAR} input[type="file"]').set_input_files(str(saved))
    banner = page.get_by_text("Showing the uploaded run from")
    banner.first.wait_for(state="visible", timeout=SLOW_MS)
    text = banner.first.inner_text()
    assert "learner_run.npz" in text and "CFR+" in text and "60 iterations" in text
    page.get_by_text("Not in use: the pages show the uploaded run").first.wait_for(timeout=SLOW_MS)
    assert page.locator(f'{SIDEBAR} [data-testid="stSelectbox"]').first.locator("input").is_disabled()
