"""The Play page on the browser timeline, in a real browser.

References: the run solved here in the test process (its average strategy at the chosen frame is
what the bot must play); Kuhn's rules (Kuhn 1950) for a hand computation of what calling a bet
costs; the sum of the shown losses for the session's total; the viewport for legibility.
"""
from __future__ import annotations

import re

import pytest
from tests.support.browser import APP_IDLE, RENDER_TIMEOUT_MS, WATCH_RUNS, t_label, wait_for_app
from tests.support.drawing import LABEL_BOXES, overlaps

import cfrviz
from cfrviz.teaching import play

pytestmark = pytest.mark.browser

KUHN = "game=kuhn&algo=cfr&iters=200&updates=simultaneous"
RANK = {"J": 0, "Q": 1, "K": 2}


@pytest.fixture(scope="module")
def run():
    return cfrviz.solve("kuhn", "cfr", iterations=200, updates="simultaneous")


# The first visit solves the run and builds the timeline's payload: on a busy 2-core machine that
# can take longer than a rerun, so the first render gets more time.
FIRST_RENDER_MS = 90_000


def visit_play(page, url: str) -> None:
    page.goto(url, timeout=FIRST_RENDER_MS)
    wait_for_app(page, "Play against the strategy", timeout_ms=FIRST_RENDER_MS)
    page.locator(".tl-tree svg").first.wait_for(state="visible", timeout=FIRST_RENDER_MS)


def act(page, name: str) -> None:
    """Click an action button and wait for the hand to move on (the decision's loss is shown)."""
    page.get_by_role("button", name=name, exact=True).click()
    page.wait_for_function(f"""() => document.querySelectorAll('[data-testid="stAlert"]').length > 0 &&
        [...document.querySelectorAll('[data-testid="stAlert"]')].some(a => a.innerText.includes('EV loss of your {name.lower()}'))""",
                           timeout=RENDER_TIMEOUT_MS)
    page.wait_for_selector(APP_IDLE, timeout=RENDER_TIMEOUT_MS)


def shown_loss(page) -> float:
    text = page.locator('[data-testid="stAlert"]', has_text="EV loss of your").first.inner_text()
    return shown_number(re.search(r"EV loss of your \w+ at .+?: (\S+) chips", text).group(1))


def shown_number(text: str) -> float:
    """A number as `cfrviz.util.text.number` writes it (minus sign, thousands commas, powers of ten)."""
    return float(text.replace("\u2212", "-").replace(",", ""))


def finish_hand(page) -> None:
    """Take the first offered action until the hand is over."""
    for _ in range(3):
        if page.get_by_role("button", name="Deal the next hand").count():
            return
        buttons = page.locator('[data-testid="stButton"] button').all_inner_texts()
        action = next(b for b in buttons if b in ("Check", "Call", "Fold", "Bet"))
        page.get_by_role("button", name=action, exact=True).click()
        page.wait_for_selector(APP_IDLE, timeout=RENDER_TIMEOUT_MS)
        page.get_by_text("EV loss of your").first.wait_for(state="visible", timeout=RENDER_TIMEOUT_MS)
    page.get_by_role("button", name="Deal the next hand").wait_for(timeout=RENDER_TIMEOUT_MS)


def test_the_timelines_t_is_the_strategy_the_bot_plays(page, app_url: str, run) -> None:
    # The human sits as player 2, so the bot acts first, at its root set, with the average strategy
    # of the t chosen on the timeline (here t = 10, by keys) and not the last iteration's.
    visit_play(page, f"{app_url}/Play?{KUHN}&play_seat=p2")
    page.locator(".tl-slider").first.focus()
    page.keyboard.press("Home")
    for _ in range(9):
        page.keyboard.press("ArrowRight")
    assert t_label(page) == 10
    page.get_by_text("The bot plays iteration t = 10").first.wait_for(timeout=RENDER_TIMEOUT_MS)
    page.wait_for_function("() => new URLSearchParams(location.search).get('t') === '10'", timeout=RENDER_TIMEOUT_MS)
    page.wait_for_selector(APP_IDLE, timeout=RENDER_TIMEOUT_MS)
    share = page.locator('[data-testid="stSidebar"] [data-testid="stCode"]').first
    assert "t=10" in share.inner_text()    # the share box follows the address bar
    page.get_by_role("button", name="Deal the first hand").click()
    wait_for_app(page, "Hand 1")
    assert page.get_by_text("Your move at t = 10").first.is_visible()
    finish_hand(page)
    line = page.locator("li", has_text=re.compile(r"^at .*: check")).first.inner_text()
    key, check, bet = re.match(r"at (.+?): check ([\d.]+) · bet ([\d.]+)", line).groups()
    i = run.tree.infoset_index(key)
    at_10 = run.average_strategy[run.snapshot_at(10), i]
    assert [float(check), float(bet)] == pytest.approx(at_10.tolist(), abs=6e-5)
    # The last iteration's strategy is not what was played (so this test tells them apart).
    assert abs(run.average_strategy[-1, i, 0] - at_10[0]) > 1e-3


def facing_a_bet_seed(run) -> int:
    """A seed whose first hand puts the human (player 2) in front of a bet at t = 200."""
    strategy = run.average_strategy[-1]
    for seed in range(200):
        hand = play.start_hand(run.tree, strategy, seat=1, seed=seed, number=0)
        if play.legal_actions(run.tree, hand) == ("fold", "call"):
            return seed
    raise AssertionError("no seed below 200 deals a bet to player 2")


def test_the_ev_loss_of_calling_a_bet_is_the_hand_computed_one(page, app_url: str, run) -> None:
    seed = facing_a_bet_seed(run)
    visit_play(page, f"{app_url}/Play?{KUHN}&play_seat=p2&play_deals=seeded&play_seed={seed}")
    page.get_by_role("button", name="Deal the first hand").click()
    wait_for_app(page, "Hand 1")
    mine = page.locator('[data-testid="stMetric"]', has_text="Your card").first.inner_text().split()[-1]
    act(page, "Call")
    # Hand computation (Kuhn's rules): player 2 holding c faces a bet. Player 1 holds each other
    # card d with chance 1/2 and bet with it with probability sigma(d, bet) at t = 200, so d has
    # weight w_d = sigma(d, bet). Calling wins 2 against a lower card and loses 2 against a higher
    # one; folding loses the ante, 1. The strategy's value mixes them as sigma(c b) does.
    sigma = run.average_strategy[-1]
    weights = {d: sigma[run.tree.infoset_index(d), 1] for d in RANK if d != mine}
    call = sum(w * (2 if RANK[mine] > RANK[d] else -2) for d, w in weights.items()) / sum(weights.values())
    fold_p, call_p = sigma[run.tree.infoset_index(f"{mine} b")]
    expected = fold_p * -1.0 + call_p * call - call
    assert shown_loss(page) == pytest.approx(expected, rel=5e-3, abs=1e-12)   # shown to three significant digits
    # The panel beside the tree shows the same loss at the timeline's t (its values sent to 4 decimals).
    panel = page.get_by_test_id("play-loss").first
    assert "t = 200" in panel.inner_text()
    assert float(panel.get_attribute("data-loss")) == pytest.approx(expected, abs=3e-4)


def test_the_sessions_total_adds_up_every_decision(page, app_url: str) -> None:
    # Reference: the sum of the losses shown after each decision (each rounded to 4 decimals).
    visit_play(page, f"{app_url}/Play?{KUHN}&play_seat=alternate&play_deals=seeded&play_seed=7")
    page.get_by_role("button", name="Deal the first hand").click()
    wait_for_app(page, "Hand 1")
    losses = []
    for hand in range(3):
        while not page.get_by_role("button", name="Deal the next hand").count():
            buttons = page.locator('[data-testid="stButton"] button').all_inner_texts()
            action = next(b for b in ("Bet", "Call", "Check", "Fold") if b in buttons)
            act(page, action)
            losses.append(shown_loss(page))
        if hand < 2:
            page.get_by_role("button", name="Deal the next hand").click()
            wait_for_app(page, f"Hand {hand + 2}")
    total = page.locator('[data-testid="stMetric"]', has_text="EV loss this session").first.inner_text()
    # Each shown number is rounded to three significant digits: off by at most 0.5% of itself.
    shown_total = shown_number(re.search(r"(\S+) chips", total).group(1))
    assert shown_total == pytest.approx(sum(losses), abs=5e-3 * (sum(map(abs, losses)) + abs(shown_total)) + 1e-12)
    assert page.get_by_text(f"over {len(losses)} decisions").first.is_visible()
    assert len(losses) >= 3


PANEL_TEXT = """() => {
  const find = (n) => n.querySelector ? (n.querySelector('.tl-play') ||
      [...n.querySelectorAll('*')].map(e => e.shadowRoot && find(e.shadowRoot)).find(Boolean)) : null;
  const panel = find(document);
  const r = panel.getBoundingClientRect();
  const sizes = [...panel.querySelectorAll('*')].filter(e => [...e.childNodes].some(c => c.nodeType === 3 && c.textContent.trim()))
    .map(e => parseFloat(getComputedStyle(e).fontSize));
  return {left: r.left, right: r.right, width: r.width, smallest: Math.min(...sizes)};
}"""


@pytest.mark.parametrize("size", [pytest.param({"width": w, "height": h}, id=f"{w}x{h}")
                                  for w, h in ((390, 844), (1280, 800), (1920, 1080))])
def test_play_is_legible_at_phone_laptop_and_projector_sizes(page, app_url: str, size: dict) -> None:
    # Reference: the viewport; labels 14 px or more and no two label boxes meeting.
    page.set_viewport_size(size)
    visit_play(page, f"{app_url}/Play?{KUHN}&play_seat=p1")
    page.get_by_role("button", name="Deal the first hand").click()
    wait_for_app(page, "Hand 1")
    act(page, "Check")
    page.get_by_test_id("play-loss").first.wait_for(timeout=RENDER_TIMEOUT_MS)
    boxes = page.evaluate(LABEL_BOXES)
    assert len(boxes) >= 30, boxes
    assert min(b["size"] for b in boxes) >= 14
    assert overlaps(boxes) == []
    panel = page.evaluate(PANEL_TEXT)
    assert panel["smallest"] >= 14
    assert panel["left"] >= 0 and panel["right"] <= size["width"] and panel["width"] >= 300, panel


# Two clicks on the button drawn before the first took effect: 0 ms apart (the server may merge the
# two into one rerun), or the second as soon as the first click's rerun runs (the server runs it again).
# When a run is going already as the first click lands (a rerun the page asked for itself), the server
# folds the click into it and the app never leaves "running", so no change would be seen: the second
# click then goes at once, also while a run runs, and the promise says so (true: wait for no change).
# A run that never starts fails in 30 s, not hangs.
DOUBLE_CLICK = """([name, whenRunning]) => new Promise((resolve, reject) => {
  const button = [...document.querySelectorAll('[data-testid="stButton"] button')]
    .find(b => b.innerText.trim() === name);
  const app = document.querySelector('[data-testid="stApp"]');
  const running = () => app.getAttribute('data-test-script-state') === 'running';
  const already = running();   // resolved with: no change of the app's state will show this click's run
  if (!whenRunning) { button.click(); button.click(); resolve(already); return; }
  button.click();
  if (already) { button.click(); resolve(true); return; }
  const bound = setTimeout(() => { watch.disconnect(); reject(new Error(`no script run within 30 s of clicking ${name}`)); },
                           30000);
  const watch = new MutationObserver(() => {
    if (running()) { clearTimeout(bound); watch.disconnect(); button.click(); resolve(false); }
  });
  watch.observe(app, {attributes: true, attributeFilter: ['data-test-script-state']});
})"""


@pytest.mark.parametrize("when_running", [False, True], ids=["0 ms apart", "second while the first runs"])
def test_two_clicks_at_once_count_as_one_decision(page, app_url: str, when_running: bool) -> None:
    # Kuhn: no action the human takes can be legal twice in one hand (check is followed by the bot's
    # move, then call/fold or the end; bet/call/fold end it or hand the move over), so a double click
    # is one decision. Before, the second click raised "You cannot 'check' here" (3 rounds in 5).
    visit_play(page, f"{app_url}/Play?{KUHN}&play_seat=alternate")
    page.get_by_role("button", name="Deal the first hand").click()
    wait_for_app(page, "Hand 1")
    decisions = 0
    for hand in range(5):
        while not page.get_by_role("button", name="Deal the next hand").count():
            buttons = page.locator('[data-testid="stButton"] button').all_inner_texts()
            action = next(b for b in ("Check", "Call", "Bet", "Fold") if b in buttons)
            page.evaluate(WATCH_RUNS)
            if not page.evaluate(DOUBLE_CLICK, [action, when_running]):
                page.wait_for_function("() => window.__scriptRuns > 0", timeout=RENDER_TIMEOUT_MS)
            page.wait_for_selector(APP_IDLE, timeout=RENDER_TIMEOUT_MS)
            decisions += 1
            assert not page.locator('[data-testid="stException"]').count()
            assert not page.get_by_text("encountered an error").count()
            page.get_by_text(f"over {decisions} decision{'s' if decisions > 1 else ''}").first.wait_for(
                timeout=RENDER_TIMEOUT_MS)
        page.evaluate(WATCH_RUNS)
        page.evaluate(DOUBLE_CLICK, ["Deal the next hand", when_running])      # a double click deals one hand
        wait_for_app(page, f"Hand {hand + 2}")
        page.wait_for_selector(APP_IDLE, timeout=RENDER_TIMEOUT_MS)
        assert not page.get_by_text(f"Hand {hand + 3}").count()
    played = page.locator('[data-testid="stMetric"]', has_text="Hands played").first.inner_text()
    assert played.split()[-1] == "5"
