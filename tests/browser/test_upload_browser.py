"""An uploaded run in a real browser: it stays the page's run, with its banner, across the app's
own navigation, until the visitor goes back to the sidebar's solve.

Reference: the run is solved and saved here with `cfrviz.solve` (CFR+ for 700 iterations), so the
page must say "of 700"; the sidebar's default solve is vanilla CFR for 1,000 iterations.
"""
from __future__ import annotations

from pathlib import Path

import pytest
from tests.support.browser import APP_IDLE, RENDER_TIMEOUT_MS, no_exception, open_app

import cfrviz
from cfrviz.run import save_run

pytestmark = pytest.mark.browser
BANNER = "Showing the uploaded run from"


def navigate(page, label: str, heading: str) -> None:
    """Click `label` in the sidebar's own page list and wait for the page's heading."""
    page.locator('[data-testid="stSidebar"] [data-testid="stPageLink"]', has_text=label).first.click()
    page.locator("h1", has_text=heading).first.wait_for(state="visible", timeout=RENDER_TIMEOUT_MS)
    page.wait_for_selector(APP_IDLE, timeout=RENDER_TIMEOUT_MS)


def timeline_text(page) -> str:
    label = page.get_by_test_id("timeline-t")
    label.wait_for(state="visible", timeout=RENDER_TIMEOUT_MS)
    return label.inner_text()


def test_an_upload_stays_across_the_apps_navigation(new_context, app_url: str, tmp_path: Path) -> None:
    saved = tmp_path / "seven_hundred.npz"
    save_run(cfrviz.solve("kuhn", "cfr+", iterations=700, updates="alternating"), saved)
    page = new_context().new_page()
    open_app(page, f"{app_url}/Game_tree")
    assert timeline_text(page).endswith("of 1,000")

    page.locator('[data-testid="stSidebar"] input[type="file"]').set_input_files(str(saved))
    page.get_by_text(BANNER).first.wait_for(state="visible", timeout=RENDER_TIMEOUT_MS)
    page.wait_for_selector(APP_IDLE, timeout=RENDER_TIMEOUT_MS)
    page.get_by_test_id("timeline-t").filter(has_text="of 700").wait_for(timeout=RENDER_TIMEOUT_MS)

    for label, heading in (("Evolution", "Evolution"), ("Convergence", "Convergence"), ("Game tree", "Game tree")):
        navigate(page, label, heading)
        no_exception(page)
        assert page.get_by_text(BANNER).count() == 1, f"{label}: the uploaded run's banner is gone"
        if label != "Convergence":     # the pages with the timeline
            assert timeline_text(page).endswith("of 700"), label

    # The visitor chooses otherwise: the sidebar's solve comes back, without the banner.
    page.get_by_role("button", name="Back to the sidebar's solve").click()
    page.get_by_test_id("timeline-t").filter(has_text="of 1,000").wait_for(timeout=RENDER_TIMEOUT_MS)
    page.wait_for_selector(APP_IDLE, timeout=RENDER_TIMEOUT_MS)
    assert page.get_by_text(BANNER).count() == 0
    no_exception(page)
