"""Sharing in a real browser: a deep link restores the view; a downloaded run uploads again.

References: the app's promise ("a link opened in a fresh browser shows the same view") for the deep
links, and `cfrviz.solve` in this process for the numbers an uploaded run must show.
"""
from __future__ import annotations

from pathlib import Path
from urllib.parse import parse_qsl, urlencode, urlsplit

import pytest

import cfrviz
from cfrviz.util.text import clamped_exploitability, number
from tests.support.browser import (APP_IDLE, RENDER_TIMEOUT_MS, no_exception, open_app,
                                   share_link, share_query, url_query, wait_for_app)

ROOT = Path(__file__).resolve().parents[2]
PAGES = sorted(p.name for p in (ROOT / "pages").glob("[0-9]_*.py"))
# Node 7 of Kuhn's tree is player 2 holding a card after player 1 checked (breadth-first ids:
# root 0, six deals 1-6, then each deal's check/bet children).
LINK = {"game": "kuhn", "algo": "cfr+", "iters": "300", "updates": "alternating", "t": "150", "node": "7"}

#: Pages with their own game and settings (cfrviz.app.sidebar.PAGES_WITHOUT_SOLVE).
OWN_GAME_PAGES = ("Regret_matching.py", "Walkthrough.py")


def slug(page_file: str) -> str:
    """URL path of a pages-folder page: `2_Evolution.py` is served at /Evolution."""
    return page_file.split("_", 1)[1].removesuffix(".py")


def heading(page, text: str) -> None:
    page.locator("h1", has_text=text).first.wait_for(state="visible", timeout=RENDER_TIMEOUT_MS)
    page.wait_for_selector(APP_IDLE, timeout=RENDER_TIMEOUT_MS)


def test_pages_found() -> None:
    # Reference: the app's eight pages; the deep-link test below runs once per page file.
    assert len(PAGES) == 8, PAGES


@pytest.mark.browser
@pytest.mark.parametrize("page_file", PAGES)
def test_deep_link_restores_the_view(new_context, app_url: str, page_file: str) -> None:
    page = new_context().new_page()  # a fresh context: no cookies, no session state
    open_app(page, f"{app_url}/{slug(page_file)}?{urlencode(LINK)}")
    no_exception(page)
    link = share_link(page)
    if page_file.endswith(OWN_GAME_PAGES):
        # These pages solve nothing from the sidebar: their link carries only their own settings (issue 30).
        assert dict(parse_qsl(urlsplit(link).query)) == {}, f"{page_file}: share link is {link!r}"
    else:
        assert dict(parse_qsl(urlsplit(link).query)) == LINK, f"{page_file}: share link is {link!r}"
    # The iteration slider (Game tree's lock editor has sliders of its own, for a mixed lock).
    sliders = page.locator('[data-testid="stSlider"]', has_text="Iteration").locator(
        '[data-testid="stSliderThumbValue"]')
    # Regret matching has its own settings (its own t among them), so the link's t is not its slider's.
    if sliders.count() and not page_file.endswith("Regret_matching.py"):
        assert sliders.first.inner_text().replace(",", "") == LINK["t"]
    if page_file.endswith("Game_tree.py"):
        page.get_by_text("Node 7:").first.wait_for(state="visible", timeout=RENDER_TIMEOUT_MS)
    if page_file.endswith("Convergence.py"):
        page.get_by_text(f"Exploitability at iteration {LINK['t']}").first.wait_for(timeout=RENDER_TIMEOUT_MS)


@pytest.mark.browser
def test_downloaded_run_uploads_and_shows_its_numbers(new_context, app_url: str, tmp_path: Path) -> None:
    settings = {"game": "kuhn4", "algo": "lcfr", "iters": "240", "updates": "simultaneous"}
    page = new_context(accept_downloads=True).new_page()
    open_app(page, f"{app_url}/Convergence?{urlencode(settings)}")
    heading(page, "Convergence")
    with page.expect_download(timeout=RENDER_TIMEOUT_MS) as download:
        page.get_by_role("button", name="Download run (.npz)").click()
    saved = tmp_path / download.value.suggested_filename
    download.value.save_as(saved)
    assert saved.suffix == ".npz"

    # Another browser, showing a different solve, uploads it.
    other = new_context().new_page()
    open_app(other, f"{app_url}/Convergence?game=kuhn&algo=cfr&iters=50")
    heading(other, "Convergence")
    other.locator('[data-testid="stSidebar"] input[type="file"]').set_input_files(str(saved))
    other.get_by_text("You are viewing an uploaded run").first.wait_for(state="visible", timeout=RENDER_TIMEOUT_MS)
    other.wait_for_selector(APP_IDLE, timeout=RENDER_TIMEOUT_MS)
    no_exception(other)

    run = cfrviz.solve("kuhn", "lcfr", iterations=240, updates="simultaneous", cards=4)
    metric = other.locator('[data-testid="stMetric"]', has_text="Exploitability at iteration 240").first
    metric.wait_for(state="visible", timeout=RENDER_TIMEOUT_MS)
    shown = metric.locator('[data-testid="stMetricValue"]').inner_text().split()[0]
    assert shown == number(clamped_exploitability(float(run.exploitability[-1])))   # the app's one formatter


@pytest.mark.browser
def test_hostile_upload_shows_one_sentence(new_context, app_url: str, tmp_path: Path) -> None:
    # Reference: cfrviz.run.uploads refuses a non-zip .npz with this sentence (tests/unit/run/test_uploads.py).
    bad = tmp_path / "run.npz"
    bad.write_bytes(b"this is not a zip archive")
    page = new_context().new_page()
    open_app(page, f"{app_url}/Convergence")
    heading(page, "Convergence")
    page.locator('[data-testid="stSidebar"] input[type="file"]').set_input_files(str(bad))
    page.get_by_text("is not a .npz archive").first.wait_for(state="visible", timeout=RENDER_TIMEOUT_MS)
    no_exception(page)


@pytest.mark.browser
def test_compares_share_box_equals_the_address_bar_after_removing_an_algorithm(new_context, app_url: str) -> None:
    # Reference: issue 21, "every page's share box must equal the address bar after any change";
    # the address bar is the page's own URL after Streamlit wrote the new list into it.
    start = {"game": "kuhn", "iters": "50", "cmp_algos": "cfr,cfr+", "cmp_iters": "30", "cmp_sampling_iters": "30"}
    page = new_context().new_page()
    page.goto(f"{app_url}/Compare?{urlencode(start)}", timeout=RENDER_TIMEOUT_MS)
    # The first comparison on a fresh server solves and times three lines, slower than one render.
    wait_for_app(page, "lines solved and timed", timeout_ms=6 * RENDER_TIMEOUT_MS)
    no_exception(page)
    assert share_query(page) == url_query(page)
    page.locator('[data-testid="stMultiSelect"]').first.get_by_role("button", name="Remove CFR+", exact=True).click()
    page.wait_for_function("() => new URLSearchParams(location.search).get('cmp_algos') === 'cfr'",
                           timeout=RENDER_TIMEOUT_MS)
    wait_for_app(page, "2 lines solved and timed", timeout_ms=6 * RENDER_TIMEOUT_MS)
    no_exception(page)
    box = urlsplit(share_link(page))
    bar = urlsplit(page.url)
    assert box.path == bar.path and dict(parse_qsl(box.query)) == dict(parse_qsl(bar.query))
