"""Real browser: step through the walkthrough and play one hand of Kuhn poker."""
from __future__ import annotations

import re

import pytest

from tests.support.browser import open_app, wait_for_app

pytestmark = pytest.mark.browser


def test_walkthrough_steps_forward_and_back(page, app_url):
    open_app(page, f"{app_url}/Walkthrough", "Walkthrough of one iteration")
    page.get_by_text("Step 1 of 15").first.wait_for(state="visible")
    # Worked by hand: the first update is at Qpb, where 0.5 x regret = +0.25 / -0.25.
    page.get_by_role("button", name=re.compile("Next update")).first.click()
    wait_for_app(page, "Return · QK kb")
    assert page.get_by_text("Step 8 of 15").first.is_visible()
    assert page.get_by_text(re.compile(r"cumulative regret \+= 0\.5 x regret = \[\+0\.25, -0\.25\]")).first.is_visible()
    page.get_by_role("button", name=re.compile("Previous frame")).first.click()   # stepped in the browser
    wait_for_app(page, "Step 7 of 15")
    assert page.get_by_text("Terminal · QK kbc").first.is_visible()


def test_play_one_hand(page, app_url):
    open_app(page, f"{app_url}/Play?game=kuhn&algo=cfr&iters=100", "Play against the strategy")
    page.get_by_role("button", name="Deal the first hand").click()
    wait_for_app(page, "Hand 1")
    # Keep taking the passive action (check or fold) until the hand is over; at most two decisions.
    # Each decision is counted on the page ("over k decisions"), so a step waits for its own rerun,
    # not for text an earlier run already showed.
    for k in (1, 2):
        if page.get_by_role("button", name="Deal the next hand").count():
            break
        page.get_by_role("button", name=re.compile("^(Check|Fold)$")).first.click()
        page.get_by_text(re.compile(rf"over {k} decisions?\b")).first.wait_for(state="visible")
        wait_for_app(page)
    page.get_by_text(re.compile("the bot held")).first.wait_for(state="visible")
    wait_for_app(page, "Hands played")
    assert page.get_by_role("button", name="Deal the next hand").is_visible()
