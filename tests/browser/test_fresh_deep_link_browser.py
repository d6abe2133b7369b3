"""Deep links on a FRESH server: the first visit a new server ever gets is a deep link into a page.

Reference: the app's promise that a shared link opens the linked page with the linked view. A fresh
server matters: with Streamlit 1.67, an `st.navigation` entry point beside a `pages/` folder is
skipped on a fresh server's first deep-linked visit (the page runs alone, under Streamlit's own
folder navigation), so this is the test any change of the app's routing must pass.
"""
from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

import pytest

from tests.support.browser import APP_IDLE, RENDER_TIMEOUT_MS, share_query, wait_for_app
from tests.support.server import streamlit_server

# Kuhn poker solved by CFR+ for 300 iterations; t=5 is one of its snapshot iterations (`snapshot_schedule`
# keeps every iteration up to 1,000), so the view keeps the linked t and its share link says so.
# A fresh server's first run also compiles (or loads) the kernels, so it gets longer than a render.
FIRST_RUN_MS = 6 * RENDER_TIMEOUT_MS
EVOLUTION = {"game": "kuhn", "algo": "cfr+", "iters": "300", "updates": "alternating", "t": "5"}


def our_navigation(page: Any) -> list[str]:
    """The labels of the app's own page list (Streamlit's folder navigation would say "app")."""
    links = page.locator('[data-testid="stSidebar"] [data-testid="stPageLink"]')
    # The material icon is a ligature ("home"): the label is the last line.
    return [links.nth(i).inner_text().strip().split("\n")[-1] for i in range(links.count())]


@pytest.mark.browser
@pytest.mark.parametrize(("path", "link", "heading", "shown"), [
    ("Evolution", EVOLUTION, "Evolution", None),
    # Step 4 of the walkthrough's trace: the page says "Step 4 of N" beside its buttons.
    ("Walkthrough", {"walk_step": "4"}, "Walkthrough", "Step 4 of"),
])
def test_first_visit_of_a_fresh_server_is_a_deep_link(new_context: Any, path: str, link: dict[str, str],
                                                      heading: str, shown: str | None) -> None:
    with streamlit_server() as (url, _process):
        page = new_context().new_page()
        page.goto(f"{url}/{path}?{urlencode(link)}", timeout=RENDER_TIMEOUT_MS)
        page.locator("h1", has_text=heading).first.wait_for(state="visible", timeout=FIRST_RUN_MS)
        wait_for_app(page, timeout_ms=FIRST_RUN_MS)
        page.wait_for_selector(APP_IDLE, timeout=FIRST_RUN_MS)
        errors = page.locator('[data-testid="stException"]')
        assert errors.count() == 0, errors.first.inner_text()[:600]
        # On a busy machine the first run may be followed by a rerun (the page writes its view to the URL)
        # or a reconnect: read the navigation and the share box once they are drawn again.
        page.locator('[data-testid="stSidebar"] [data-testid="stPageLink"]').first.wait_for(
            state="visible", timeout=FIRST_RUN_MS)
        page.locator('[data-testid="stSidebar"] [data-testid="stCode"]').first.wait_for(
            state="visible", timeout=FIRST_RUN_MS)
        labels = our_navigation(page)
        assert labels[:1] == ["Home"] and "app" not in labels, labels
        assert share_query(page).items() >= link.items(), share_query(page)
        if shown is not None:
            page.get_by_text(shown).first.wait_for(state="visible", timeout=RENDER_TIMEOUT_MS)
