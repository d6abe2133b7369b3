"""One game value in a real browser: a link's game reaches the sidebar, and the sidebar's change
reaches the share link. (That a saved run names its game the same way is tested on the files
themselves, in tests/unit/run/test_saved_files.py.)

Reference: the catalog's own spelling of the games (`catalog.get("kuhn", cards=N)` is linked as
"kuhnN").
"""
from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

import pytest
from playwright.sync_api import expect

from tests.support.browser import APP_IDLE, RENDER_TIMEOUT_MS, share_query, wait_for_app

#: The session's server may be fresh (its first solve also loads the compiled kernels) and the machine busy.
WAIT_MS = 6 * RENDER_TIMEOUT_MS
LINK = {"game": "kuhn5", "algo": "cfr+", "iters": "300", "updates": "alternating"}


def cards_input(page: Any) -> Any:
    return page.locator('[data-testid="stSidebar"] [data-testid="stNumberInput"]',
                        has_text="Cards in the deck").locator("input")


@pytest.mark.browser
def test_a_linked_game_travels_to_the_sidebar_and_the_link(new_context: Any, app_url: str) -> None:
    page = new_context().new_page()
    page.goto(f"{app_url}/Convergence?{urlencode(LINK)}", timeout=WAIT_MS)
    page.locator("h1", has_text="Convergence").first.wait_for(state="visible", timeout=WAIT_MS)
    wait_for_app(page, timeout_ms=WAIT_MS)
    page.locator('[data-testid="stSidebar"] [data-testid="stCode"]').first.wait_for(state="visible", timeout=WAIT_MS)
    assert page.locator('[data-testid="stException"]').count() == 0
    # The sidebar takes the link's game in the page's run: wait for it, not for the first drawing (in
    # one full CI run the box still showed the default 3 cards when the share box was first visible).
    expect(cards_input(page)).to_have_value("5", timeout=WAIT_MS)
    assert {k: v for k, v in share_query(page).items() if k in LINK} == LINK

    # The sidebar's cards make a new game: the link names it, the other settings stay.
    cards_input(page).fill("6")
    cards_input(page).press("Enter")
    page.wait_for_function("""() => [...document.querySelectorAll('[data-testid="stSidebar"] [data-testid="stCode"]')]
                                     .some(e => e.innerText.includes('game=kuhn6'))""", timeout=WAIT_MS)
    page.wait_for_selector(APP_IDLE, timeout=WAIT_MS)
    assert {k: v for k, v in share_query(page).items() if k in LINK} == {**LINK, "game": "kuhn6"}
