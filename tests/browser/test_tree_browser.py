"""Evolution's playback in a real browser (the Game tree's timeline is tests/browser/test_timeline_browser.py)."""
from __future__ import annotations

from urllib.parse import parse_qsl, urlsplit

import pytest
from conftest import RENDER_TIMEOUT_MS, open_app

TALL = {"width": 1280, "height": 1600}


@pytest.mark.browser
def test_evolution_playback_animates_in_the_browser(new_context, app_url: str) -> None:
    # Reference: plotly frames play client-side; pressing Play from iteration 3 moves
    # the playback chart's title to later snapshot iterations without a Streamlit rerun.
    page = new_context().new_page()
    page.set_viewport_size(TALL)
    open_app(page, f"{app_url}/Evolution?game=kuhn&algo=cfr&iters=200&updates=simultaneous&t=3",
             text="Playback")
    chart = page.locator('[data-testid="stPlotlyChart"]', has_text="strategy at iteration 3").first
    chart.wait_for(state="visible", timeout=RENDER_TIMEOUT_MS)
    chart.locator(".updatemenu-button", has_text="Play").first.click()
    page.wait_for_function(
        """() => Array.from(document.querySelectorAll('[data-testid="stPlotlyChart"] .gtitle'))
                 .some(title => { const m = title.textContent.match(/strategy at iteration ([0-9,]+)/);
                                  return m && Number(m[1].replace(/,/g, '')) > 3; })""",
        timeout=RENDER_TIMEOUT_MS)
    # Playback never reran the script: the shared t in the URL is unchanged.
    assert dict(parse_qsl(urlsplit(page.url).query))["t"] == "3"
