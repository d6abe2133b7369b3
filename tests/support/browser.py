"""Driving Debian's Chromium against the app: launch arguments, viewports, and waits on Streamlit's
own script state (never on a fixed sleep).
"""
from __future__ import annotations

import json
from typing import Any
from urllib.parse import parse_qsl, urlsplit

import pytest

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    # Without these, Chromium keeps dialing hosts it cannot reach from here.
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
VIEWPORT = {"width": 1280, "height": 800}
# Streamlit scrolls inside its own container, so a full-page shot needs a tall viewport.
TALL_VIEWPORT = {"width": 1280, "height": 2400}
# First render takes 3-4 s on these 2-core machines; leave room for a busy CI box.
RENDER_TIMEOUT_MS = 20_000
#: The screens a layout must fit, as test parameters: a phone, a laptop and a desktop.
SIZES = [pytest.param({"width": w, "height": h}, id=f"{w}x{h}") for w, h in ((390, 844), (1280, 800), (1920, 1080))]
APP_IDLE = '[data-testid="stApp"][data-test-script-state="notRunning"]'

# Counts every start of a script run from now on (Streamlit marks the app while a script runs), so a
# rerun that ends at once is not missed: `page.evaluate(WATCH_RUNS)`, then read `window.__scriptRuns`
# (and `window.__scriptRunStarts`, when each start was seen, in the page's `performance.now()` ms).
WATCH_RUNS = """() => {
  const app = document.querySelector('[data-testid="stApp"]');
  window.__scriptRuns = 0;
  window.__scriptRunStarts = [];
  new MutationObserver(() => {
    if (app.getAttribute('data-test-script-state') !== 'running') return;
    window.__scriptRuns += 1;
    window.__scriptRunStarts.push(performance.now());
  }).observe(app, {attributes: true, attributeFilter: ['data-test-script-state']});
}"""
#: The timeline tells the server t this long after the last key press (store.js, SEND_DELAY), in ms.
REPORT_DELAY_MS = 300


def presses_in_one_task(target: Any, keys: list[str], read: str) -> tuple[list[Any], float]:
    """Press `keys` on the element of the locator `target`, as keydown events dispatched one after the
    other in a single task of the page. Returns what `read` (a JavaScript function of the element's
    root node, the document or the timeline's shadow root, that returns JSON) gives after each press,
    and when the last press was done (the page's `performance.now()`, in ms).

    For a claim that quick presses rerun nothing: the timeline tells the server t only
    `REPORT_DELAY_MS` after the last key, and Playwright's own presses are round trips that a loaded
    machine stretches past that (then the report's rerun is right, and the claim untestable). In one
    task no timer can fire between presses, however loaded the machine. Frontends may batch what one
    task sends, so the test then checks that the one rerun started no sooner than `REPORT_DELAY_MS`
    after the last press (`WATCH_RUNS`' start times): a report sent on each key would start it at once,
    and a loaded machine can only make it later."""
    seen, done = target.evaluate(f"""(element) => {{
      const read = {read}, root = element.getRootNode(), seen = [];
      for (const key of {json.dumps(list(keys))}) {{
        element.dispatchEvent(new KeyboardEvent("keydown", {{key, bubbles: true, cancelable: true}}));
        seen.push(read(root));
      }}
      return [seen, performance.now()];
    }}""")
    return seen, float(done)


def wait_for_app(page: Any, text: str | None = None, timeout_ms: int = RENDER_TIMEOUT_MS) -> None:
    """Wait until the Streamlit script has finished running (and `text` is visible, if given).

    Right after a click the app may still report the previous run as finished, so tests that
    trigger a rerun should also name text the new run shows.
    """
    page.wait_for_selector(APP_IDLE, timeout=timeout_ms)
    if text is not None:
        page.get_by_text(text).first.wait_for(state="visible", timeout=timeout_ms)
        page.wait_for_selector(APP_IDLE, timeout=timeout_ms)


# Plotly and some widgets load lazily in the browser after the script run has finished.
_ALL_DRAWN = """() => {
  const charts = [...document.querySelectorAll('[data-testid="stPlotlyChart"]')];
  const sliders = [...document.querySelectorAll('[data-testid="stSlider"]')];
  return !document.querySelector('[data-testid="stSkeleton"]') &&
         charts.every(c => c.querySelector('.main-svg')) &&
         sliders.every(s => s.querySelector('[data-testid="stSliderThumbValue"]'));
}"""


def wait_for_drawn(page: Any, timeout_ms: int = RENDER_TIMEOUT_MS) -> None:
    """Wait until the script is idle, no placeholder is left, and every plotly chart and slider is drawn."""
    page.wait_for_selector(APP_IDLE, timeout=timeout_ms)
    page.wait_for_function(_ALL_DRAWN, timeout=timeout_ms)


def open_app(page: Any, url: str, text: str | None = None, timeout_ms: int = RENDER_TIMEOUT_MS) -> None:
    """Go to `url` and wait for the first full render."""
    page.goto(url, timeout=timeout_ms)
    # The idle marker only appears once the app shell is up and the first script run is over.
    page.wait_for_selector('[data-testid="stApp"]', timeout=timeout_ms)
    wait_for_app(page, text, timeout_ms=timeout_ms)


def no_exception(page: Any) -> None:
    """The page shows no Streamlit exception box (the first one's text is the failure message)."""
    errors = page.locator('[data-testid="stException"]')
    assert errors.count() == 0, errors.first.inner_text()[:600]


def share_link(page: Any) -> str:
    """The link the sidebar offers to share (the text of its code box), without surrounding white space."""
    return str(page.locator('[data-testid="stSidebar"] [data-testid="stCode"]').first.inner_text()).strip()


def share_query(page: Any) -> dict[str, str]:
    """The query parameters of the sidebar's share link."""
    return dict(parse_qsl(urlsplit(share_link(page)).query))


def url_query(page: Any) -> dict[str, str]:
    """The query parameters of the address bar."""
    return dict(parse_qsl(urlsplit(page.url).query))


def t_label(page: Any) -> int:
    """The iteration the timeline's label shows ("Iteration t = 1,234 of ..." gives 1234); the page
    must hold exactly one such label."""
    return label_t(page.get_by_test_id("timeline-t").inner_text())


def label_t(text: str) -> int:
    """The iteration in a timeline label's text ("Iteration t = 1,234 of ..." gives 1234)."""
    return int(text.split("=")[1].split("of")[0].replace(",", ""))


def timeline_root(page: Any) -> Any:
    """The locator of the page's (first) browser timeline, the element its drawings hang from."""
    return page.locator(".tl").first


def wait_tree(page: Any, timeout_ms: int = RENDER_TIMEOUT_MS) -> None:
    """Wait until the timeline has drawn its tree and the script run is over."""
    page.locator(".tl-tree svg").first.wait_for(state="visible", timeout=timeout_ms)
    page.wait_for_selector(APP_IDLE, timeout=timeout_ms)


#: The timeline's own first-picture mark (the animation frame after it is first drawn), in ms from
#: navigation start, or null before it: the HTML file's and the static site's budget scripts read it.
FIRST_PICTURE_JS = """() => {
  const mark = performance.getEntriesByName('cfrviz-first-picture')[0];
  return mark ? mark.startTime : null;
}"""

#: `count` arrow keys on the timeline's slider, alternating, each timed until the next animation frame
#: (what a step costs the person pressing the key), in ms.
STEP_TIMES_JS = """async (count) => {
  const slider = document.querySelector('.tl-slider');
  slider.focus();
  const times = [];
  for (let k = 0; k < count; k++) {
    const start = performance.now();
    slider.dispatchEvent(new KeyboardEvent('keydown', { key: k % 2 ? 'ArrowRight' : 'ArrowLeft', bubbles: true }));
    await new Promise((done) => requestAnimationFrame(() => done()));
    times.push(performance.now() - start);
  }
  return times;
}"""


def only_requests(page: Any, allowed: tuple[str, ...]) -> list[str]:
    """Abort (and record, in the list returned) every request of `page` whose address starts with none of
    `allowed`, nor with data: or blob: (what the page makes itself)."""
    asked: list[str] = []

    def route(request_route: Any) -> None:
        url = request_route.request.url
        if url.startswith(allowed + ("data:", "blob:")):
            request_route.continue_()
        else:
            asked.append(url)
            request_route.abort()

    page.route("**/*", route)
    return asked


def play_bets_and_checks_its_loss(page: Any, run: Any, t: int) -> None:
    """On a Play view at iteration `t` of Kuhn `run` (the HTML file's or the site's): deal, bet as player 1,
    and check the decision's EV loss at t and, after an arrow key, at t + 1.
    Reference: cfrviz.teaching.play.set_values under the run's average strategy at t (the app's Play
    page's numbers): a decision's EV loss is v(I) - v(I, a), to the payload's 4 decimals."""
    from cfrviz.teaching.play import set_values

    tree = run.tree
    page.get_by_test_id("file-play-deal").click()
    # Hand 1 seats the human as player 1, who acts first after the deal.
    page.get_by_test_id("file-play-action").first.wait_for(timeout=RENDER_TIMEOUT_MS)
    page.locator('[data-testid="file-play-action"][data-action="bet"]').click()
    loss = page.get_by_test_id("play-loss").first
    loss.wait_for(timeout=RENDER_TIMEOUT_MS)
    key = page.locator(".tl-play-title b").first.inner_text()
    assert key in ("J", "Q", "K")

    def expected(at: int) -> float:
        numbers = set_values(tree, run.average_strategy[int(run.snapshot_at(at))])
        return float(numbers.loss[tree.infoset_index(key), 1])        # action 1: bet

    assert t_label(page) == t
    assert float(loss.get_attribute("data-loss") or "nan") == pytest.approx(expected(t), abs=1e-4 + 1e-9)
    page.locator(".tl-tree svg").first.click(position={"x": 3, "y": 3})
    page.keyboard.press("ArrowRight")
    assert t_label(page) == t + 1
    assert float(loss.get_attribute("data-loss") or "nan") == pytest.approx(expected(t + 1), abs=1e-4 + 1e-9)
