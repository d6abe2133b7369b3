"""The browser timeline on the Game tree page, in a real browser.

References: Kuhn's tree in breadth-first ids (cfrviz.tree); a hand computation: at iteration 1
every strategy is uniform, so player 1's own reach of the history "QK kb" (after checking with Q)
is 1/2; and the run solved here in the test process for the numbers the inspector must show.
"""
from __future__ import annotations

import itertools
from urllib.parse import parse_qsl, urlsplit

import pytest
from conftest import APP_IDLE, RENDER_TIMEOUT_MS, open_app

import cfrviz

pytestmark = pytest.mark.browser

KUHN = "game=kuhn&algo=cfr&iters=200&updates=simultaneous"

# Counts every start of a script run from now on (Streamlit marks the app while a script runs).
WATCH_RUNS = """() => {
  const app = document.querySelector('[data-testid="stApp"]');
  window.__scriptRuns = 0;
  new MutationObserver(() => {
    if (app.getAttribute('data-test-script-state') === 'running') window.__scriptRuns += 1;
  }).observe(app, {attributes: true, attributeFilter: ['data-test-script-state']});
}"""

# Text boxes of every drawn label in the tree (pills, edge labels, payoffs), in page pixels.
LABEL_BOXES = """() => {
  const root = document.querySelector('.stBidiComponent [data-testid="stBidiComponentIsolated"]') ||
               document.querySelector('.stBidiComponent');
  const find = (node) => node.querySelector ? (node.querySelector('.tl-tree svg') ||
      [...node.querySelectorAll('*')].map(e => e.shadowRoot && find(e.shadowRoot)).find(Boolean)) : null;
  const svg = find(document);
  return [...svg.querySelectorAll('text')].filter(t => t.textContent.trim() && t.getBBox().width > 0)
    .map(t => { const r = t.getBoundingClientRect();
                return {text: t.textContent, x: r.x, y: r.y, w: r.width, h: r.height,
                        size: parseFloat(getComputedStyle(t).fontSize)}; });
}"""


def t_label(page) -> int:
    return int(page.get_by_test_id("timeline-t").inner_text().split("=")[1].split("of")[0].replace(",", ""))


def url_query(page) -> dict[str, str]:
    return dict(parse_qsl(urlsplit(page.url).query))


def open_tree(page, query: str) -> None:
    open_app(page, f"{page.context.app_url}/Game_tree?{query}" if hasattr(page.context, "app_url") else query)


def inspector_cell(page, row: str, action: int) -> str:
    cells = page.locator(".tl-inspector tr", has_text=row).first.locator("td")
    return cells.nth(1 + action).inner_text()


def wait_tree(page) -> None:
    page.locator(".tl-tree svg").first.wait_for(state="visible", timeout=RENDER_TIMEOUT_MS)


def test_ten_key_presses_redraw_without_a_rerun_and_the_pause_puts_t_in_the_url(page, app_url: str) -> None:
    run = cfrviz.solve("kuhn", "cfr", iterations=200, updates="simultaneous")
    node = run.tree.node_label.index("QK kb")
    open_app(page, f"{app_url}/Game_tree?{KUHN}&t=1&node={node}")
    wait_tree(page)
    page.get_by_text(f"Node {node}: QK kb").first.wait_for(state="visible", timeout=RENDER_TIMEOUT_MS)
    assert t_label(page) == 1
    assert page.locator(".tl-reach b").first.inner_text() == "0.5000"   # own reach at t = 1, by hand

    page.evaluate(WATCH_RUNS)
    page.locator(".tl-slider").first.focus()
    widths, averages, seen = [], [], []
    edge = page.locator(".tl-tree line").nth(10)
    for _ in range(10):
        page.keyboard.press("ArrowRight")
        seen.append(t_label(page))
        widths.append(edge.get_attribute("stroke-width"))
        averages.append(inspector_cell(page, "average strategy", 0))
    assert seen == list(range(2, 12))
    assert page.evaluate("window.__scriptRuns") == 0, "a key press reran the script"
    assert len(set(widths)) > 1 and len(set(averages)) > 1
    # The inspector shows the run's own average strategy at t = 11.
    q_kb = run.tree.infoset[node]
    # (sent rounded to 4 decimals, shown to 3)
    assert float(averages[-1]) == pytest.approx(run.average_strategy[run.snapshot_at(11), q_kb, 0], abs=6e-4)

    # After a pause in the key presses the server learns t once, and the URL carries it.
    page.wait_for_function("() => new URLSearchParams(location.search).get('t') === '11'", timeout=RENDER_TIMEOUT_MS)
    page.wait_for_selector(APP_IDLE, timeout=RENDER_TIMEOUT_MS)
    assert page.evaluate("window.__scriptRuns") == 1
    assert t_label(page) == 11


def test_releasing_the_slider_puts_t_in_the_url(page, app_url: str) -> None:
    open_app(page, f"{app_url}/Game_tree?{KUHN}")
    wait_tree(page)
    slider = page.locator(".tl-slider").first
    box = slider.bounding_box()
    page.evaluate(WATCH_RUNS)
    page.mouse.move(box["x"] + box["width"] - 4, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.mouse.move(box["x"] + box["width"] * 0.5, box["y"] + box["height"] / 2, steps=8)
    page.mouse.move(box["x"] + box["width"] * 0.3, box["y"] + box["height"] / 2, steps=8)
    dragged = t_label(page)
    assert dragged < 200 and page.evaluate("window.__scriptRuns") == 0
    page.mouse.up()
    page.wait_for_function(f"() => new URLSearchParams(location.search).get('t') === '{dragged}'",
                           timeout=RENDER_TIMEOUT_MS)
    share = page.locator('[data-testid="stSidebar"] [data-testid="stCode"]').first
    page.wait_for_selector(APP_IDLE, timeout=RENDER_TIMEOUT_MS)
    assert f"t={dragged}" in share.inner_text()


def test_clicking_a_node_shows_the_inspector_in_the_first_viewport(page, app_url: str) -> None:
    # The default context is 1280x800 (conftest.VIEWPORT).
    tree = cfrviz.compile_game("kuhn")
    node = tree.node_label.index("KQ k")
    open_app(page, f"{app_url}/Game_tree?{KUHN}")
    wait_tree(page)
    page.locator(f'.tl-node[data-node="{node}"]').first.click()
    heading = page.get_by_text(f"Node {node}: KQ k").first
    heading.wait_for(state="visible", timeout=RENDER_TIMEOUT_MS)
    inspector = page.locator(".tl-inspector").first
    box = inspector.bounding_box()
    assert box["x"] >= 0 and box["x"] + 200 <= 1280 and box["y"] + 240 <= 800, box
    assert page.locator(".tl-inspector", has_text="cumulative regret").first.is_visible()
    page.wait_for_function(f"() => new URLSearchParams(location.search).get('node') === '{node}'",
                           timeout=RENDER_TIMEOUT_MS)
    # Player 2's set "Q k" names both its histories.
    chips = page.locator(".tl-inspector .tl-chip").all_inner_texts()
    assert chips == ["JQ k", "KQ k"]
    # Hovering another node shows its numbers at t; leaving it brings the clicked node back.
    other = tree.node_label.index("JQ kb")
    page.locator(f'.tl-node[data-node="{other}"]').first.hover()
    page.locator(".tl-inspector h4", has_text=f"Node {other}: JQ kb").first.wait_for(timeout=RENDER_TIMEOUT_MS)
    assert page.locator(".tl-inspector", has_text="Hovering").first.is_visible()
    page.mouse.move(2, 2)
    page.locator(".tl-inspector h4", has_text=f"Node {node}: KQ k").first.wait_for(timeout=RENDER_TIMEOUT_MS)


def overlaps(boxes: list[dict]) -> list[tuple[str, str]]:
    def meet(a: dict, b: dict) -> bool:
        slack = 0.5
        return (a["x"] + slack < b["x"] + b["w"] and b["x"] + slack < a["x"] + a["w"] and
                a["y"] + slack < b["y"] + b["h"] and b["y"] + slack < a["y"] + a["h"])
    return [(a["text"], b["text"]) for a, b in itertools.combinations(boxes, 2) if meet(a, b)]


@pytest.mark.parametrize("query", [KUHN + "&t=40", "game=leduc&algo=cfr&iters=300&updates=simultaneous&node=5"])
def test_tree_labels_are_legible_and_never_overlap_at_1280(page, app_url: str, query: str) -> None:
    open_app(page, f"{app_url}/Game_tree?{query}")
    wait_tree(page)
    for arrangement in range(page.locator(".tl-bar select option").count() or 1):
        if arrangement:
            page.locator(".tl-bar select").first.select_option(str(arrangement))
        boxes = page.evaluate(LABEL_BOXES)
        assert len(boxes) >= 30, boxes
        assert min(b["size"] for b in boxes) >= 14
        assert overlaps(boxes) == []


def test_evolution_plays_on_the_same_timeline_and_pausing_shares_t(page, app_url: str) -> None:
    # Reference: the timeline plays in the browser; the shared t (URL) moves only when playback pauses.
    open_app(page, f"{app_url}/Evolution?{KUHN}&t=3")
    page.locator(".tl-bars").first.wait_for(state="visible", timeout=RENDER_TIMEOUT_MS)
    assert t_label(page) == 3
    page.evaluate(WATCH_RUNS)
    play = page.get_by_role("button", name="Play or pause (space)").first
    play.click()
    page.wait_for_function(
        """() => { const find = (n) => n.querySelector('[data-testid="timeline-t"]') ||
              [...n.querySelectorAll('*')].map(e => e.shadowRoot && find(e.shadowRoot)).find(Boolean);
            const label = find(document); return label && /= (\\d+)/.exec(label.textContent)[1] > 20; }""",
        timeout=RENDER_TIMEOUT_MS)
    assert page.evaluate("window.__scriptRuns") == 0 and url_query(page)["t"] == "3"
    play.click()
    paused = t_label(page)
    page.wait_for_function(f"() => new URLSearchParams(location.search).get('t') === '{paused}'",
                           timeout=RENDER_TIMEOUT_MS)


def test_convergence_cursor_follows_the_timeline(page, app_url: str) -> None:
    # Reference: the run solved here; the card shows its exploitability at the timeline's t.
    run = cfrviz.solve("kuhn", "cfr", iterations=200, updates="simultaneous")
    open_app(page, f"{app_url}/Convergence?{KUHN}&t=50")
    card = page.get_by_test_id("timeline-exploitability").first
    card.wait_for(state="visible", timeout=RENDER_TIMEOUT_MS)
    page.evaluate(WATCH_RUNS)
    page.locator(".tl-slider").first.focus()
    page.keyboard.press("Home")
    assert t_label(page) == 1 and page.evaluate("window.__scriptRuns") == 0
    assert card.inner_text().split()[0] == f"{run.exploitability[0]:.2e}"
    page.get_by_text("Exploitability at iteration 1").first.wait_for(state="visible", timeout=RENDER_TIMEOUT_MS)
