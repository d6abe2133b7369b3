"""Measure the browser timeline in a real browser and print a table (a benchmark, not a test).

    python scripts/bench_browser.py               # Kuhn and a Leduc part at the app's cap, and Regret matching
    python scripts/bench_browser.py --steps 200   # more key steps per case
    python scripts/bench_browser.py --only regret_matching

Starts `streamlit run app.py` on a free local port and drives Debian's Chromium through Playwright
(the helpers in tests/support/). Rows:
  - step to redraw: one key step, from the keydown event until the tree, inspector and cursors are
    redrawn and laid out (JavaScript, style and layout), and until the next animation frame;
  - node click to inspector: a real mouse click until the inspector names the node;
  - server time per rerun: the Game tree script run in this process (Streamlit's AppTest, which
    adds its own overhead, so an upper bound) for reruns the timeline causes (a new node or t);
  - click to script done: in the browser, how long Streamlit marks the script as running after a
    node click (server time, the round trip and the browser's own handling of the message);
  - first paint, warm: from navigation start until the tree is drawn, with the run already cached.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

from playwright.sync_api import Browser, Page, ViewportSize

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.support.browser import APP_IDLE, CHROMIUM, CHROMIUM_ARGS, VIEWPORT  # noqa: E402
from tests.support.server import streamlit_server  # noqa: E402

CASES = (
    ("Kuhn, 1,000 iterations", "game=kuhn&algo=cfr&iters=1000&updates=simultaneous"),
    ("Leduc part, 20,000 iterations", "game=leduc&algo=cfr&iters=20000&updates=simultaneous&node=5"),
)
TIMEOUT_MS = 180_000

# Steps the timeline from inside the page: each step is one keydown on the component, timed to the
# end of its synchronous redraw plus a forced layout, and to the next animation frame.
# `drawn` names what the page redraws per step (laid out before the clock stops).
STEPS = """async ({count, drawn}) => {
  const find = (node) => node.querySelector('.tl') ||
      [...node.querySelectorAll('*')].map(e => e.shadowRoot && find(e.shadowRoot)).find(Boolean);
  const root = find(document);
  root.dispatchEvent(new KeyboardEvent('keydown', {key: 'Home', bubbles: true}));
  const sync = [], frame = [];
  for (let i = 0; i < count; i++) {
    const start = performance.now();
    root.dispatchEvent(new KeyboardEvent('keydown', {key: 'ArrowRight', bubbles: true}));
    for (const selector of drawn) for (const e of root.querySelectorAll(selector)) e.getBoundingClientRect();
    sync.push(performance.now() - start);
    await new Promise(r => requestAnimationFrame(() => r()));
    frame.push(performance.now() - start);
  }
  return {sync, frame};
}"""

WATCH_RUNS = """() => {
  const app = document.querySelector('[data-testid="stApp"]');
  window.__runs = []; let started = null;
  new MutationObserver(() => {
    const state = app.getAttribute('data-test-script-state');
    if (state === 'running') started = performance.now();
    else if (started !== null) { window.__runs.push(performance.now() - started); started = null; }
  }).observe(app, {attributes: true, attributeFilter: ['data-test-script-state']});
}"""


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def open_tree(page: Page, url: str) -> float:
    """Go to the Game tree page; return ms from navigation start until the tree is drawn."""
    page.goto(url, timeout=TIMEOUT_MS)
    page.wait_for_selector(APP_IDLE, timeout=TIMEOUT_MS)
    return float(page.wait_for_function(
        """() => { const find = (n) => n.querySelector('.tl-tree svg line') ||
              [...n.querySelectorAll('*')].map(e => e.shadowRoot && find(e.shadowRoot)).find(Boolean);
            return find(document) ? performance.now() : null; }""", polling="raf", timeout=TIMEOUT_MS).json_value())


def server_reruns(query: str, count: int = 12) -> list[float]:
    """Milliseconds per rerun of the Game tree script when the timeline sends a new node or t."""
    from streamlit.testing.v1 import AppTest

    from cfrviz import app as ui
    from cfrviz.figures.timeline import read_component_data

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=600)
    for pair in query.split("&"):
        key, value = pair.split("=")
        at.query_params[key] = value
    at.switch_page("pages/1_Game_tree.py").run()
    at.run()
    payload = read_component_data(at.get("bidi_component")[0].proto.bytes)[1]
    tree_ids, frames = payload["nodes"]["id"], payload["frames"]
    times = []
    for k in range(count):
        if k % 2:
            at.session_state[ui.NODE_KEY] = tree_ids[(7 * k) % len(tree_ids)]
        else:
            at.session_state[ui.T_KEY] = frames[(37 * k) % len(frames)]   # the browser only sends frames
        start = time.perf_counter()
        at.run()
        times.append((time.perf_counter() - start) * 1000)
    assert not at.exception, at.exception
    return times


def bench_case(browser: Browser, base: str, name: str, query: str, steps: int) -> dict[str, str]:
    server = server_reruns(query)
    context = browser.new_context(viewport=ViewportSize(width=VIEWPORT["width"], height=VIEWPORT["height"]))
    page = context.new_page()
    url = f"{base}/Game_tree?{query}"
    open_tree(page, url)                     # cold: solves and builds the payload once
    paint = [open_tree(page, url) for _ in range(3)]
    timings = page.evaluate(STEPS, {"count": steps, "drawn": [".tl-tree svg", ".tl-inspector"]})
    # The pause after the last step sends t once; let that rerun finish first.
    page.wait_for_function("() => new URLSearchParams(location.search).get('t') !== null", timeout=TIMEOUT_MS)
    page.wait_for_selector(APP_IDLE, timeout=TIMEOUT_MS)
    # Node clicks: the inspector answers in the browser, then Streamlit reruns once for the URL.
    page.evaluate(WATCH_RUNS)
    nodes = page.locator(".tl-node[data-node]")
    ids = [nodes.nth(k).get_attribute("data-node") for k in range(min(nodes.count(), 12))]
    clicks = []
    for node in ids:
        start = time.perf_counter()
        page.locator(f'.tl-node[data-node="{node}"]').first.click()
        page.locator(".tl-inspector h4", has_text=f"Node {node}:").first.wait_for(timeout=TIMEOUT_MS)
        clicks.append((time.perf_counter() - start) * 1000)
        try:
            page.wait_for_function(f"() => new URLSearchParams(location.search).get('node') === '{node}'",
                                   timeout=30_000)
        except Exception:
            print(f"{name}: node {node} never reached the URL ({page.url})", file=sys.stderr)
            raise
        page.wait_for_selector(APP_IDLE, timeout=TIMEOUT_MS)
    reruns = page.evaluate("window.__runs")
    context.close()

    def ms(value: float) -> str:
        return f"{value:.1f} ms"

    return {
        "case": name,
        "step→redraw median / p95": f"{ms(statistics.median(timings['sync']))} / {ms(percentile(timings['sync'], 0.95))}",
        "step→next frame median / p95": f"{ms(statistics.median(timings['frame']))} / {ms(percentile(timings['frame'], 0.95))}",
        "node click→inspector median": ms(statistics.median(clicks)),
        "server time per rerun median / p95": f"{ms(statistics.median(server))} / {ms(percentile(server, 0.95))}",
        "click→script done (browser) median": ms(statistics.median(reruns)) if reruns else "–",
        "first paint, warm (median of 3)": ms(statistics.median(paint)),
    }


# Regret matching's own settings: rock-paper-scissors self-play, 10,000 iterations (the page's default).
REGRET_MATCHING = ("Regret matching, RPS self-play, 10,000 iterations", "rm_iters=10000")


def bench_regret_matching(browser: Browser, base: str, name: str, query: str, steps: int) -> dict[str, str]:
    """Key steps on the Regret matching page: both players' simplexes and curves redrawn per step."""
    context = browser.new_context(viewport=ViewportSize(width=VIEWPORT["width"], height=VIEWPORT["height"]))
    page = context.new_page()
    url = f"{base}/Regret_matching?{query}"

    def open_page() -> float:
        page.goto(url, timeout=TIMEOUT_MS)
        page.wait_for_selector(APP_IDLE, timeout=TIMEOUT_MS)
        return float(page.wait_for_function(
            """() => { const find = (n) => n.querySelector('.rm-simplex .rm-average-dot[cx]') ||
                  [...n.querySelectorAll('*')].map(e => e.shadowRoot && find(e.shadowRoot)).find(Boolean);
                return find(document) ? performance.now() : null; }""", polling="raf",
            timeout=TIMEOUT_MS).json_value())

    open_page()                              # cold: solves and builds the payload once
    paint = [open_page() for _ in range(3)]
    page.evaluate(WATCH_RUNS)
    timings = page.evaluate(STEPS, {"count": steps, "drawn": [".rm-simplex", ".rm-chart", ".rm-head"]})
    reruns = page.evaluate("window.__runs")
    if reruns:
        raise SystemExit(f"{name}: key steps reran the script {len(reruns)} times")
    context.close()
    return {
        "case": name,
        "step→redraw median / p95": f"{statistics.median(timings['sync']):.1f} ms / {percentile(timings['sync'], 0.95):.1f} ms",
        "step→next frame median / p95": f"{statistics.median(timings['frame']):.1f} ms / {percentile(timings['frame'], 0.95):.1f} ms",
        "node click→inspector median": "–",
        "server time per rerun median / p95": "–",
        "click→script done (browser) median": "–",
        "first paint, warm (median of 3)": f"{statistics.median(paint):.1f} ms",
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=100, help="key steps per case (default 100)")
    parser.add_argument("--only", choices=("tree", "regret_matching"), default=None,
                        help="only the Game tree cases, or only the Regret matching page")
    args = parser.parse_args(argv)
    from playwright.sync_api import sync_playwright

    rows = []
    with streamlit_server() as (url, _process), sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            if args.only in (None, "tree"):
                for name, query in CASES:
                    rows.append(bench_case(browser, url, name, query, args.steps))
            if args.only in (None, "regret_matching"):
                rows.append(bench_regret_matching(browser, url, *REGRET_MATCHING, args.steps))
        finally:
            browser.close()
    columns = list(rows[0])
    print("| " + " | ".join(columns) + " |")
    print("|" + "---|" * len(columns))
    for row in rows:
        print("| " + " | ".join(row[c] for c in columns) + " |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
