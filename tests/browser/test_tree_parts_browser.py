"""A click on a node above every drawn part of a big tree, in a real browser.

Reference: a chain of 300 "go on or stop" decisions (`tests.support.efg_shapes.chain_efg`) is
drawn one subtree of at most 40 leaves at a time; decision d has 301 - d leaves below it, so the
root and every decision above d = 261 lie above all drawn parts, and the first part's drawing runs
from the root down through them. Clicking the root once raised "... is not in list" on every rerun.
"""
from __future__ import annotations

from pathlib import Path

import pytest
from tests.support.browser import APP_IDLE, RENDER_TIMEOUT_MS, WATCH_RUNS, no_exception, open_app
from tests.support.efg_shapes import chain_efg

pytestmark = pytest.mark.browser
UPLOAD_SOLVE_MS = 90_000


def test_clicking_the_root_of_a_deep_chain_selects_a_part(new_context, app_url: str, tmp_path: Path) -> None:
    saved = tmp_path / "chain.efg"
    saved.write_text(chain_efg(300))
    page = new_context().new_page()
    open_app(page, f"{app_url}/Game_tree")
    page.locator('[data-testid="stSidebar"] input[type="file"]').set_input_files(str(saved))
    # The upload is read and solved first: on a busy 2-core machine that takes longer than a rerun.
    page.get_by_text("too big to draw whole").first.wait_for(timeout=UPLOAD_SOLVE_MS)
    page.wait_for_selector(APP_IDLE, timeout=RENDER_TIMEOUT_MS)
    root = page.locator('.tl-node[data-node="0"]').first
    root.wait_for(state="visible", timeout=RENDER_TIMEOUT_MS)
    # The path from the root is 260 decisions long: the root sits far outside the first view, so the
    # click goes to the node itself (the timeline listens for clicks on it).
    page.evaluate(WATCH_RUNS)
    root.dispatch_event("click")
    page.wait_for_function("() => window.__scriptRuns > 0", timeout=RENDER_TIMEOUT_MS)
    page.wait_for_selector(APP_IDLE, timeout=RENDER_TIMEOUT_MS)
    no_exception(page)
    page.get_by_text("lies above every part").first.wait_for(timeout=RENDER_TIMEOUT_MS)
    page.locator('.tl-node[data-node="0"]').first.wait_for(state="visible", timeout=RENDER_TIMEOUT_MS)
    # Another page and back: the session goes on.
    for label, heading in (("Best response", "Best response"), ("Game tree", "Game tree")):
        page.locator('[data-testid="stSidebar"] [data-testid="stPageLink"]', has_text=label).first.click()
        page.locator("h1", has_text=heading).first.wait_for(state="visible", timeout=RENDER_TIMEOUT_MS)
        page.wait_for_selector(APP_IDLE, timeout=RENDER_TIMEOUT_MS)
        no_exception(page)
