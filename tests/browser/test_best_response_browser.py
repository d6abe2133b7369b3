"""The Best response page on the browser timeline, in a real browser.

References: cfrviz's own best response (cfrviz.analysis.best_response) to the run's average strategy
at the frame shown, computed here in the test process, for the numbers and the marked actions;
exploitability is the mean of the two best-response values (NashConv / 2); the viewport for what
fits on the screen.
"""
from __future__ import annotations

import xml.etree.ElementTree as ET
from urllib.parse import urlsplit

import pytest
from tests.support.browser import (APP_IDLE, RENDER_TIMEOUT_MS, REPORT_DELAY_MS, SIZES, WATCH_RUNS, label_t,
                                   presses_in_one_task, t_label, timeline_root, wait_for_app)
from tests.support.drawing import overlaps

import cfrviz
from cfrviz.analysis import best_response

pytestmark = pytest.mark.browser

KUHN = "game=kuhn&algo=cfr&iters=200&updates=simultaneous"
LEDUC = "game=leduc&algo=cfr&iters=300&updates=simultaneous"
# Every drawn text of the tree (pills, edge labels, payoffs) with its box in page pixels and its size.
LABEL_BOXES = """(root) => [...root.querySelectorAll('.tl-tree svg text')]
  .filter(t => t.textContent.trim() && t.getBBox().width > 0)
  .map(t => { const r = t.getBoundingClientRect();
              return {text: t.textContent, x: r.x, y: r.y, w: r.width, h: r.height,
                      size: parseFloat(getComputedStyle(t).fontSize)}; })"""

# The marked best-response edges (only those shown are in the drawing): the set and the action each marks.
MARKED = """(root) => [...root.querySelectorAll('.br-mark')].map(m => [m.dataset.set, m.dataset.action])"""


# Records the bar's t and the exploitability shown after every repaint of the timeline.
# What a repaint shows: the timeline's label and the exploitability shown, read after each key press.
SHOWN = """(root) => [root.querySelector('[data-testid="timeline-t"]').textContent,
                    root.querySelector('[data-testid="br-exploitability"]').textContent]"""


# A page's first visit solves the run and builds both best responses of every frame: on a busy
# 2-core machine that can take longer than a rerun.
FIRST_VISIT_MS = 120_000


def open_best_response(page, app_url: str, query: str) -> None:
    page.goto(f"{app_url}/Best_response?{query}", timeout=FIRST_VISIT_MS)
    page.wait_for_selector('[data-testid="stApp"]', timeout=FIRST_VISIT_MS)
    wait_for_app(page, timeout_ms=FIRST_VISIT_MS)
    page.locator(".tl-tree svg").first.wait_for(state="visible", timeout=FIRST_VISIT_MS)


def marked(page) -> dict[str, set[str]]:
    actions: dict[str, set[str]] = {}
    for key, action in timeline_root(page).evaluate(MARKED):
        actions.setdefault(key, set()).add(action)
    return actions


def expected_marks(run: cfrviz.Run, t: int, player: int) -> dict[str, set[str]]:
    tree = run.tree
    response = best_response(tree, run.average_strategy[run.snapshot_at(t)], player)
    return {record.key: {response.action_names[i]} for i, record in enumerate(tree.infosets) if record.player == player}


def test_arrow_right_repaints_the_gains_and_marks_without_a_rerun(page, app_url: str) -> None:
    run = cfrviz.solve("kuhn", "cfr", iterations=200, updates="simultaneous")
    open_best_response(page, app_url, f"{KUHN}&t=1")
    assert t_label(page) == 1
    page.evaluate(WATCH_RUNS)
    slider = page.locator(".tl-slider").first
    slider.focus()
    records, pressed = presses_in_one_task(slider, ["ArrowRight"] * 12, SHOWN)
    assert page.evaluate("window.__scriptRuns") == 0, "a key press reran the script"
    seen = [label_t(t) for t, _ in records]
    shown = [text for _, text in records]
    assert seen == list(range(2, 14))
    assert len(set(shown)) > 1
    # At t = 13 the numbers and the marks are cfrviz's best responses to that average strategy.
    strategy = run.average_strategy[run.snapshot_at(13)]
    values = [best_response(run.tree, strategy, p).value for p in (0, 1)]
    # Shown as the pages write numbers (cfrviz.util.text.number: three significant digits).
    assert float(shown[-1].replace("−", "-")) == pytest.approx(sum(values) / 2, rel=6e-3)
    assert float(page.get_by_test_id("br-value-2").first.inner_text().replace("−", "-")) == pytest.approx(values[1], rel=6e-3)
    assert marked(page) == expected_marks(run, 13, 0)
    # The pause after the presses tells the server t once.
    page.wait_for_function("() => new URLSearchParams(location.search).get('t') === '13'", timeout=RENDER_TIMEOUT_MS)
    assert page.evaluate("window.__scriptRunStarts[0]") - pressed >= REPORT_DELAY_MS, "t was told before the pause"


def test_the_overlay_marks_each_exploiters_best_response_and_the_link_keeps_it(page, app_url: str) -> None:
    run = cfrviz.solve("kuhn", "cfr", iterations=200, updates="simultaneous")
    open_best_response(page, app_url, f"{KUHN}&t=30")
    # Kuhn draws whole: every one of player 1's six sets has both its histories marked, on its best action.
    assert marked(page) == expected_marks(run, 30, 0)
    assert timeline_root(page).evaluate("(root) => root.querySelectorAll('.br-mark').length") == 12
    rows = page.locator('[data-testid="br-table"] tbody tr')
    assert rows.count() == 6
    page.evaluate(WATCH_RUNS)
    page.get_by_role("radio", name="player 2").first.check()
    assert marked(page) == expected_marks(run, 30, 1)      # drawn before any rerun
    assert page.locator('[data-testid="br-table"] tbody tr').first.get_attribute("data-set") in expected_marks(run, 30, 1)
    page.wait_for_function("() => new URLSearchParams(location.search).get('br_player') === '2'",
                           timeout=RENDER_TIMEOUT_MS)
    page.wait_for_selector(APP_IDLE, timeout=RENDER_TIMEOUT_MS)
    share = page.locator('[data-testid="stSidebar"] [data-testid="stCode"]').first
    assert "br_player=2" in share.inner_text() and "t=30" in share.inner_text()
    # The link opened afresh shows player 2's best response at t = 30.
    fresh = page.context.new_page()
    open_best_response(fresh, app_url, urlsplit(page.url).query)
    assert t_label(fresh) == 30 and fresh.get_by_role("radio", name="player 2").first.is_checked()
    assert marked(fresh) == expected_marks(run, 30, 1)
    fresh.close()


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("query", [KUHN + "&t=40", LEDUC], ids=["kuhn", "leduc"])
def test_tree_labels_are_legible_and_never_overlap(page, app_url: str, query: str, size: dict) -> None:
    page.set_viewport_size(size)
    open_best_response(page, app_url, query)
    boxes = timeline_root(page).evaluate(LABEL_BOXES)
    assert len(boxes) >= 30, boxes
    assert min(b["size"] for b in boxes) >= 14
    assert overlaps(boxes) == []
    # The gains and the table stay within the screen's width (the table scrolls inside its box).
    for testid in ("br-gains",):
        box = page.get_by_test_id(testid).first.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= size["width"], (testid, box)
    assert len(marked(page)) >= 1


def test_the_downloaded_svg_holds_the_marks_shown_and_no_others(page, app_url: str) -> None:
    # Reference: the page at t = 30 marks player 1's best action at each history of its six sets
    # (12 edges, as above); the figure is built from the drawing, so it holds those 12 and no more.
    open_best_response(page, app_url, f"{KUHN}&t=30")
    shown = timeline_root(page).evaluate("(root) => root.querySelectorAll('.br-mark').length")
    mark = timeline_root(page).evaluate("(root) => getComputedStyle(root.querySelector('.br-mark')).stroke")
    with page.expect_download(timeout=RENDER_TIMEOUT_MS) as info:
        page.get_by_role("button", name="Download SVG").first.click()
    figure = ET.parse(info.value.path()).getroot()
    strokes = [dict(part.split(":", 1) for part in line.get("style", "").split(";") if ":" in part).get("stroke")
               for line in figure.iter("{http://www.w3.org/2000/svg}line")]
    assert shown == 12 and strokes.count(mark) == shown


# The boxes of the bar's iteration label and exploitability sparkline, and the page's width.
BAR_BOXES = """(root) => {
  const box = (e) => { const r = e.getBoundingClientRect(); return {x: r.x, y: r.y, w: r.width, h: r.height}; };
  const bar = root.querySelector('.tl-bar');
  return {t: box(bar.querySelector('.tl-t')), spark: box(bar.querySelector('.tl-spark-exp')),
          width: document.documentElement.clientWidth};
}"""


@pytest.mark.parametrize("size", [{"width": 1280, "height": 800}, {"width": 390, "height": 844}], ids=["1280x800", "390x844"])
def test_the_exploitability_sparkline_sits_on_the_iterations_line(page, app_url: str, size: dict) -> None:
    # Reference: the defect 6 (the sparkline wrapped onto a line of its own, below the bar's
    # first line at 1,280 px); the viewport's width for what fits. The sparkline is drawn beside the
    # iteration "Iteration t = … of 200": their boxes share their middle height, it starts right of the
    # label and ends within the screen.
    page.set_viewport_size(size)
    open_best_response(page, app_url, KUHN)
    boxes = timeline_root(page).evaluate(BAR_BOXES)
    t, spark = boxes["t"], boxes["spark"]
    assert spark["w"] >= 100 and spark["h"] == 30, spark
    middle = spark["y"] + spark["h"] / 2
    assert t["y"] <= middle <= t["y"] + t["h"], (t, spark)
    assert spark["x"] >= t["x"] + t["w"] and spark["x"] + spark["w"] <= boxes["width"], (t, spark, boxes["width"])
