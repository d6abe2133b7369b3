"""Liar's dice from OpenSpiel's menu, read on the Game tree in a real browser: its bids on the edges and
in the inspector, its title and its parts in words.

Reference: OpenSpiel's own `action_to_string` for liars_dice(numdice=1,dice_sides=3) (OpenSpiel 2.0.2,
also checked against a child process in tests/unit/games/test_openspiel_labels.py): rolls "Roll 1" to
"Roll 3", bids "quantity-face" from "1-1" to "2-3", then "Liar". Nodes are numbered breadth first: the
root, 3 rolls of player 1's die, 9 of player 2's, so node 13 is player 2's answer to the bid "1-1"
after both dice show 1, the root of the picker's first part (at most 40 leaves).

The tree drops an edge label where its column has no room for it. On a 1,600-pixel-wide screen every
label of this part fits; on a 1,280-pixel laptop screen the drawing (cfrviz/figures/timeline_assets)
drops every one of them, which is what the issue saw ("the edges show no bids"): that case is marked
as an expected failure until the drawing makes room for its labels.
"""
from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

import pytest

from tests.support.browser import APP_IDLE, RENDER_TIMEOUT_MS, no_exception, open_app

pytestmark = pytest.mark.browser
#: The first load of an OpenSpiel game runs its child process and solves: more than a render on a busy machine.
WAIT_MS = 6 * RENDER_TIMEOUT_MS
LINK = {"game": "openspiel:liars_dice(numdice=1,dice_sides=3)", "algo": "cfr", "iters": "200"}
BIDS = ["1-2", "1-3", "2-1", "2-2", "2-3", "Liar"]    # player 2's answers to "1-1"


# 1,280 px: the part's columns are narrower than the bids, so the tree widens and pans sideways
# rather than drop them (it dropped all of them before).
@pytest.mark.parametrize("width", [1600, 1280])
def test_liars_dice_shows_its_bids_title_and_parts_in_its_own_words(new_context: Any, app_url: str, width: int) -> None:
    pytest.importorskip("pyspiel")
    page = new_context().new_page()
    page.set_viewport_size({"width": width, "height": 2400})   # the whole part on screen
    open_app(page, f"{app_url}/Game_tree?{urlencode(LINK)}", timeout_ms=WAIT_MS)
    page.get_by_text("too big to draw whole").first.wait_for(timeout=WAIT_MS)
    no_exception(page)
    caption = page.get_by_text("too big to draw whole").first.inner_text()
    assert caption.startswith("Liar's dice, 1 die, 3 sides is too big to draw whole")
    assert "liars_dice(" not in caption
    picker = page.get_by_role("combobox", name="Part of the tree")
    assert picker.input_value() == "after chance: Roll 1, Roll 1; player 1: 1-1 (node 13)"

    # The edges read the bids (the drawing leaves out a label only where it has no room). The caption
    # comes before the solve, the drawing after it (a fresh server loads its kernels first).
    page.locator(".tl-node").first.wait_for(state="attached", timeout=WAIT_MS)
    page.wait_for_selector(APP_IDLE, timeout=RENDER_TIMEOUT_MS)
    # An edge's text is its label, then the action's probability when there is room for it too.
    edges = {text.split(" ")[0] if text[:1].isdigit() or text.startswith("Liar") else text
             for text in page.locator(".tl-edge-label").all_text_contents()}
    assert {"Roll 1", "1-1", "Liar"} | set(BIDS) <= edges, sorted(edges)

    # The inspector of node 13 names its actions by the bids, and the bid that led there.
    page.locator('.tl-node[data-node="13"]').first.dispatch_event("click")
    heading = page.get_by_text("Node 13:").first
    heading.wait_for(timeout=RENDER_TIMEOUT_MS)
    assert heading.inner_text() == "Node 13: Roll 1 · Roll 1 · 1-1"
    header = page.locator(".tl-table thead th").all_text_contents()
    assert header == ["at t", *BIDS], header
    page.wait_for_selector(APP_IDLE, timeout=RENDER_TIMEOUT_MS)
    no_exception(page)
