"""Measure the browser timeline in a real browser and print a table (a benchmark, not a test).

    python scripts/bench_browser.py               # Kuhn and a Leduc part at the app's cap
    python scripts/bench_browser.py --steps 200   # more key steps per case
    python scripts/bench_browser.py --only Play   # only the cases whose name holds "Play"
    python scripts/bench_browser.py --only Walkthrough   # one page's cases
    python scripts/bench_browser.py --only "Best response"   # only the cases whose name has this
    python scripts/bench_browser.py --only "Regret matching"

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
The Play page's row (Kuhn, after one decision, so its panel shows a decision's costs) has the key
step rows only: its reruns are the visitor's decisions, not the timeline's.
The Walkthrough's rows step through one iteration's trace (its frames are steps, not iterations);
its node clicks go to the node's step in the browser, so they cause no rerun.
Other pages on the same timeline (PAGE_CASES) get the key-step rows and the warm first paint; the
Best response cases also print how long building both best responses of every frame takes.
Regret matching (no tree: both players' simplexes and curves) gets the key-step rows and the warm
first paint, and fails if a key step reruns the script.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

from playwright.sync_api import Browser, BrowserContext, Page, ViewportSize

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.support.browser import APP_IDLE, CHROMIUM, CHROMIUM_ARGS, VIEWPORT  # noqa: E402
from tests.support.server import streamlit_server  # noqa: E402

CASES = (
    ("Kuhn, 1,000 iterations", "game=kuhn&algo=cfr&iters=1000&updates=simultaneous"),
    ("Leduc part, 20,000 iterations", "game=leduc&algo=cfr&iters=20000&updates=simultaneous&node=5"),
)
# Other pages drawn by the timeline: (name, page path, query); measured by key steps.
PAGE_CASES = (
    ("Evolution, Kuhn, 1,000 iterations", "Evolution", "game=kuhn&algo=cfr&iters=1000&updates=simultaneous"),
    ("Convergence, Kuhn, 1,000 iterations", "Convergence", "game=kuhn&algo=cfr&iters=1000&updates=simultaneous"),
    ("Best response, Kuhn, 1,000 iterations", "Best_response", "game=kuhn&algo=cfr&iters=1000&updates=simultaneous"),
    ("Best response, Leduc part, 20,000 iterations", "Best_response",
     "game=leduc&algo=cfr&iters=20000&updates=simultaneous"),
)
TIMEOUT_MS = 180_000
# The Walkthrough page: one iteration of Kuhn (vanilla CFR: 80 steps) and of Leduc (2,711 steps).
WALK_CASES = (
    ("Walkthrough, Kuhn, vanilla CFR (80 steps)", "walk_game=kuhn&walk_algo=cfr&walk_updates=simultaneous"),
    ("Walkthrough, Leduc, vanilla CFR (2,711 steps)", "walk_game=leduc&walk_algo=cfr&walk_updates=simultaneous"),
)

# Steps the timeline from inside the page: each step is one keydown on the component, timed to the
# end of its synchronous redraw plus a forced layout, and to the next animation frame.
STEPS = """async ([count, panel]) => {
  const find = (node) => node.querySelector('.tl') ||
      [...node.querySelectorAll('*')].map(e => e.shadowRoot && find(e.shadowRoot)).find(Boolean);
  const root = find(document);
  const tree = root.querySelector('.tl-tree svg');
  root.dispatchEvent(new KeyboardEvent('keydown', {key: 'Home', bubbles: true}));
  const sync = [], frame = [];
  for (let i = 0; i < count; i++) {
    const start = performance.now();
    root.dispatchEvent(new KeyboardEvent('keydown', {key: 'ArrowRight', bubbles: true}));
    tree?.getBoundingClientRect();    // pages without a tree (Regret matching) redraw their panel only
    root.querySelector(panel).getBoundingClientRect();
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
    """Go to a timeline page; return ms from navigation start until its tree (or charts) are drawn."""
    page.goto(url, timeout=TIMEOUT_MS)
    page.wait_for_selector(APP_IDLE, timeout=TIMEOUT_MS)
    return float(page.wait_for_function(
        """() => { const find = (n) => n.querySelector(':is(.tl-tree, .tl-charts) svg line') ||
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


def open_page(browser: Browser, url: str) -> tuple[BrowserContext, Page, list[float]]:
    """A new context on `url`, opened cold once (the payload is built), then warm three times."""
    context = browser.new_context(viewport=ViewportSize(width=VIEWPORT["width"], height=VIEWPORT["height"]))
    page = context.new_page()
    open_tree(page, url)
    return context, page, [open_tree(page, url) for _ in range(3)]


def click_nodes(page: Page, answered: Callable[[str], None], after: Callable[[str], None]) -> list[float]:
    """Milliseconds from a real click on the k-th drawn node (k < 12) until `answered(node)` returns;
    `after(node)` then waits for what the click does next (untimed). The nodes are read before each
    click: a click may draw another part (the Walkthrough goes to the node's step)."""
    clicks = []
    for k in range(12):
        nodes = page.locator(".tl-node[data-node]")
        if k >= nodes.count():
            break
        node = str(nodes.nth(k).get_attribute("data-node"))
        start = time.perf_counter()
        # A mouse click on the node's shape (a terminal's box also spans the gap before its payoff);
        # forced, since the pill's own key text is what the pointer hits there.
        page.locator(f'.tl-node[data-node="{node}"] :is(rect, path)').first.click(force=True)
        answered(node)
        clicks.append((time.perf_counter() - start) * 1000)
        after(node)
    return clicks


def bench_case(browser: Browser, base: str, name: str, query: str, steps: int) -> dict[str, str]:
    server = server_reruns(query)
    context, page, paint = open_page(browser, f"{base}/Game_tree?{query}")
    timings = page.evaluate(STEPS, [steps, ".tl-inspector"])
    # The pause after the last step sends t once; let that rerun finish first.
    page.wait_for_function("() => new URLSearchParams(location.search).get('t') !== null", timeout=TIMEOUT_MS)
    page.wait_for_selector(APP_IDLE, timeout=TIMEOUT_MS)
    # Node clicks: the inspector answers in the browser, then Streamlit reruns once for the URL.
    page.evaluate(WATCH_RUNS)

    def inspected(node: str) -> None:
        page.locator(".tl-inspector h4", has_text=f"Node {node}:").first.wait_for(timeout=TIMEOUT_MS)

    def linked(node: str) -> None:
        try:
            page.wait_for_function(f"() => new URLSearchParams(location.search).get('node') === '{node}'",
                                   timeout=30_000)
        except Exception:
            print(f"{name}: node {node} never reached the URL ({page.url})", file=sys.stderr)
            raise
        page.wait_for_selector(APP_IDLE, timeout=TIMEOUT_MS)

    clicks = click_nodes(page, inspected, linked)
    reruns = page.evaluate("window.__runs")
    context.close()
    return table_row(name, timings, clicks, server, reruns, paint)


def ms(value: float) -> str:
    return f"{value:.1f} ms"


def table_row(name: str, timings: dict[str, list[float]], clicks: list[float], server: list[float] | None,
              reruns: list[float], paint: list[float], click_note: str = "") -> dict[str, str]:
    """One row of the printed table (milliseconds; "–" where a page has no such measurement)."""
    return {
        "case": name,
        "step→redraw median / p95": f"{ms(statistics.median(timings['sync']))} / {ms(percentile(timings['sync'], 0.95))}",
        "step→next frame median / p95": f"{ms(statistics.median(timings['frame']))} / {ms(percentile(timings['frame'], 0.95))}",
        "node click→inspector median": ms(statistics.median(clicks)) + click_note,
        "server time per rerun median / p95": f"{ms(statistics.median(server))} / {ms(percentile(server, 0.95))}"
        if server else "–",
        "click→script done (browser) median": ms(statistics.median(reruns)) if reruns else "–",
        "first paint, warm (median of 3)": ms(statistics.median(paint)),
    }


PLAY = ("Play, Kuhn, 1,000 iterations", "game=kuhn&algo=cfr&iters=1000&updates=simultaneous&play_seat=p1")


def bench_play(browser: Browser, base: str, name: str, query: str, steps: int) -> dict[str, str]:
    """Key steps on the Play page's timeline, with a hand dealt and one decision shown in its panel."""
    context = browser.new_context(viewport=ViewportSize(width=VIEWPORT["width"], height=VIEWPORT["height"]))
    page = context.new_page()
    open_tree(page, f"{base}/Play?{query}")
    page.get_by_role("button", name="Deal the first hand").click()
    page.get_by_role("button", name="Check", exact=True).click(timeout=TIMEOUT_MS)
    page.get_by_test_id("play-loss").first.wait_for(timeout=TIMEOUT_MS)
    page.wait_for_selector(APP_IDLE, timeout=TIMEOUT_MS)
    timings = page.evaluate(STEPS, [steps, ".tl-play"])
    page.wait_for_function("() => new URLSearchParams(location.search).get('t') !== null", timeout=TIMEOUT_MS)
    context.close()

    def ms(values: list[float]) -> str:
        return f"{statistics.median(values):.1f} ms / {percentile(values, 0.95):.1f} ms"

    return {"case": name, "step→redraw median / p95": ms(timings["sync"]),
            "step→next frame median / p95": ms(timings["frame"])}


# The Walkthrough's component root, through the shadow roots.
WALK_ROOT = """const find = (n) => n.querySelector('.tl-walk') ||
  [...n.querySelectorAll('*')].map(e => e.shadowRoot && find(e.shadowRoot)).find(Boolean);"""


def bench_walkthrough(browser: Browser, base: str, name: str, query: str, steps: int) -> dict[str, str]:
    """Key step to repaint on the Walkthrough page, and a node click to its step (both client-side)."""
    context, page, paint = open_page(browser, f"{base}/Walkthrough?{query}")
    page.evaluate(WATCH_RUNS)
    count = int(page.evaluate(f"() => {{ {WALK_ROOT} return find(document).tl.frames.length; }}"))
    timings = page.evaluate(STEPS, [min(steps, count - 1), ".tl-inspector"])   # steps past the last redraw nothing

    def at_step(node: str) -> None:
        page.wait_for_function(f"""() => {{ {WALK_ROOT} const root = find(document);
            return root && root.tl.selected >= 0 && String(root.tl.b.nodes.id[root.tl.selected]) === '{node}'; }}""",
                               timeout=TIMEOUT_MS)

    clicks = click_nodes(page, at_step, lambda node: None)
    page.wait_for_function("() => new URLSearchParams(location.search).get('walk_step') !== null", timeout=TIMEOUT_MS)
    page.wait_for_selector(APP_IDLE, timeout=TIMEOUT_MS)
    reruns = page.evaluate("window.__runs")    # the pauses after the steps and the clicks rerun once each
    context.close()
    return table_row(name, timings, clicks, None, reruns, paint, click_note=" (to its step)")


def bench_page_steps(browser: Browser, base: str, name: str, path: str, query: str, steps: int) -> dict[str, str]:
    """Key steps on another page's timeline: the same step rows as the Game tree, and the script
    runs they caused (none expected: a pause sends t once, after the steps)."""
    context = browser.new_context(viewport=ViewportSize(width=VIEWPORT["width"], height=VIEWPORT["height"]))
    page = context.new_page()
    url = f"{base}/{path}?{query}"
    open_tree(page, url)
    paint = [open_tree(page, url) for _ in range(3)]
    page.evaluate(WATCH_RUNS)
    # The page's panel beside its drawing: the inspector, or the charts of a page without a tree.
    panel = ".tl-inspector" if page.locator(".tl-inspector").count() else ".tl-charts"
    timings = page.evaluate(STEPS, [steps, panel])
    runs = len(page.evaluate("window.__runs"))
    context.close()
    ms = "{:.1f} ms".format
    return {
        "case": f"{name} ({runs} reruns during the steps)",
        "step→redraw median / p95": f"{ms(statistics.median(timings['sync']))} / {ms(percentile(timings['sync'], 0.95))}",
        "step→next frame median / p95": f"{ms(statistics.median(timings['frame']))} / {ms(percentile(timings['frame'], 0.95))}",
        "node click→inspector median": "–",
        "server time per rerun median / p95": "–",
        "click→script done (browser) median": "–",
        "first paint, warm (median of 3)": ms(statistics.median(paint)),
    }


# Regret matching's own settings: rock-paper-scissors self-play, 10,000 iterations (the page's default).
REGRET_MATCHING = ("Regret matching, RPS self-play, 10,000 iterations", "rm_iters=10000")


def bench_regret_matching(browser: Browser, base: str, name: str, query: str, steps: int) -> dict[str, str]:
    """Key steps on the Regret matching page: both players' simplexes and curves redrawn per step."""
    context = browser.new_context(viewport=ViewportSize(width=VIEWPORT["width"], height=VIEWPORT["height"]))
    page = context.new_page()
    url = f"{base}/Regret_matching?{query}"

    def open_simplex() -> float:
        page.goto(url, timeout=TIMEOUT_MS)
        page.wait_for_selector(APP_IDLE, timeout=TIMEOUT_MS)
        return float(page.wait_for_function(
            """() => { const find = (n) => n.querySelector('.rm-simplex .rm-average-dot[cx]') ||
                  [...n.querySelectorAll('*')].map(e => e.shadowRoot && find(e.shadowRoot)).find(Boolean);
                return find(document) ? performance.now() : null; }""", polling="raf",
            timeout=TIMEOUT_MS).json_value())

    open_simplex()                              # cold: solves and builds the payload once
    paint = [open_simplex() for _ in range(3)]
    page.evaluate(WATCH_RUNS)
    timings = page.evaluate(STEPS, [steps, ".rm"])
    reruns = page.evaluate("window.__runs")
    if reruns:
        raise SystemExit(f"{name}: key steps reran the script {len(reruns)} times")
    context.close()
    ms = "{:.1f} ms".format
    return {
        "case": name,
        "step→redraw median / p95": f"{ms(statistics.median(timings['sync']))} / {ms(percentile(timings['sync'], 0.95))}",
        "step→next frame median / p95": f"{ms(statistics.median(timings['frame']))} / {ms(percentile(timings['frame'], 0.95))}",
        "first paint, warm (median of 3)": ms(statistics.median(paint)),
    }


def best_response_build(query: str) -> str:
    """Seconds to build both best responses of every frame for the case's run (whole tree and the page's first part)."""
    import cfrviz
    from cfrviz.figures.best_response_frames import best_response_frames, frames_with
    from cfrviz.figures.drawn import is_drawn_whole
    from cfrviz.tree import parts as tree_parts
    from cfrviz.util.vocabulary import Player

    settings = dict(pair.split("=") for pair in query.split("&"))
    run = cfrviz.solve(settings["game"], settings["algo"], iterations=int(settings["iters"]), updates=settings["updates"])
    snapshots = frames_with(run, int(run.iterations[-1]))
    nodes = None
    if not is_drawn_whole(run.tree):
        nodes = tree_parts.part_nodes(run.tree, tree_parts.parts(run.tree, Player.FIRST)[0]).tolist()
    best_response_frames(run.tree, run, snapshots[:2], nodes)       # compiled kernels, packed tree
    start = time.perf_counter()
    extra = best_response_frames(run.tree, run, snapshots, nodes)
    seconds = time.perf_counter() - start
    return (f"{len(snapshots)} frames × 2 players, {len(extra['sets'])} sets sent: {seconds:.2f} s "
            f"({len(json.dumps(extra, separators=(',', ':'))) / 1e6:.2f} MB of JSON)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=100, help="key steps per case (default 100)")
    parser.add_argument("--only", default="", help="run only the cases whose name holds this text")
    args = parser.parse_args(argv)
    from playwright.sync_api import sync_playwright

    rows = []
    with streamlit_server() as (url, _process), sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            for name, query in CASES:
                if args.only in name:
                    rows.append(bench_case(browser, url, name, query, args.steps))
            if args.only in PLAY[0]:
                rows.append(bench_play(browser, url, *PLAY, args.steps))
            for name, query in WALK_CASES:
                if args.only in name:
                    rows.append(bench_walkthrough(browser, url, name, query, args.steps))
            for name, path, query in PAGE_CASES:
                if args.only in name:
                    rows.append(bench_page_steps(browser, url, name, path, query, args.steps))
            if args.only in REGRET_MATCHING[0]:
                rows.append(bench_regret_matching(browser, url, *REGRET_MATCHING, args.steps))
        finally:
            browser.close()
    if not rows:
        print(f"No case has {args.only!r} in its name.", file=sys.stderr)
        return 2
    columns = list(dict.fromkeys(c for row in rows for c in row))
    print("| " + " | ".join(columns) + " |")
    print("|" + "---|" * len(columns))
    for row in rows:
        print("| " + " | ".join(row.get(c, "–") for c in columns) + " |")
    builds = [(name, best_response_build(query)) for name, path, query in PAGE_CASES
              if path == "Best_response" and args.only in name]
    if builds:
        print("\n| Best response case | both best responses of every frame, built once (this process) |\n|---|---|")
        for name, line in builds:
            print(f"| {name} | {line} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
