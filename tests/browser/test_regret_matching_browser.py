"""Regret matching on the browser timeline, and the labelled axes of the charts mode, in Chromium.

References: the solver's own path (`regret_matching_path`, with the page's settings) for where the
simplex point must be: a point of the triangle with corners A (rock), B (paper), C (scissors) is
the strategy given by its barycentric coordinates, p = a·A + b·B + c·C with a + b + c = 1; the
frame rule of cfrviz.figures.regret_matching (every iteration is a frame up to 100); and the
viewport for what is on the screen.
"""
from __future__ import annotations

import numpy as np
import pytest
from tests.support.browser import (APP_IDLE, RENDER_TIMEOUT_MS, REPORT_DELAY_MS, SIZES, WATCH_RUNS, label_t,
                                   presses_in_one_task, t_label, url_query)
from tests.support.drawing import overlaps

from cfrviz.games.matrix import PRESETS
from cfrviz.solvers.matrix import regret_matching_path

pytestmark = pytest.mark.browser

# 1,000 iterations: every iteration is recorded, so iteration t is row t - 1 of the path.
RM = "rm_iters=1000"
KUHN = "game=kuhn&algo=cfr&iters=200&updates=simultaneous"
# A page's first visit solves and builds its payload; on a busy shared machine that can take a while.
SLOW_MS = 6 * RENDER_TIMEOUT_MS

# The triangle's corners and the average-strategy dot of each player's simplex, in SVG units.
SIMPLEX = """(svgs) => svgs.map((svg) => {
  const corners = svg.querySelector('.rm-triangle').getAttribute('d').match(/[-\\d.]+/g).map(Number);
  const dot = svg.querySelector('.rm-average-dot');
  return {player: Number(svg.dataset.player), corners,
          dot: [Number(dot.getAttribute('cx')), Number(dot.getAttribute('cy'))]};
})"""

# Every text of the charts' SVGs (the charts mode and regret matching's), in page pixels.
CHART_TEXT = """(texts) => texts.filter((t) => t.textContent.trim() && t.getBBox().width > 0).map((t) => {
  const r = t.getBoundingClientRect();
  return {text: t.textContent, x: r.x, y: r.y, w: r.width, h: r.height, size: parseFloat(getComputedStyle(t).fontSize)};
})"""


def barycentric(corners: list[float], point: list[float]) -> np.ndarray:
    """(a, b, c) with point = a·A + b·B + c·C and a + b + c = 1."""
    a, b, c = np.array(corners).reshape(3, 2)
    weights = np.linalg.solve(np.array([[a[0], b[0], c[0]], [a[1], b[1], c[1]], [1.0, 1.0, 1.0]]),
                              np.array([point[0], point[1], 1.0]))
    return weights


def page_path() -> object:
    """The page's default solve at 1,000 iterations: expected-value self-play in rock-paper-scissors,
    leaning on rock (player 1) and paper (player 2) at the start, as the page says."""
    return regret_matching_path(np.array(PRESETS["rps"].payoffs, dtype=float), 1_000,
                                start_regret=((1, 0, 0), (0, 1, 0)))


def open_drawn(page, url: str, drawn: str) -> None:
    """Go to `url` and wait until `drawn` (a selector in the timeline) is shown and the script is idle."""
    page.goto(url, timeout=SLOW_MS)
    page.locator(drawn).first.wait_for(state="visible", timeout=SLOW_MS)
    page.wait_for_selector(APP_IDLE, timeout=SLOW_MS)


def test_arrow_keys_move_the_simplex_to_the_solvers_average_without_a_rerun(page, app_url: str) -> None:
    path = page_path()
    open_drawn(page, f"{app_url}/Regret_matching?{RM}", ".rm-simplex")
    assert t_label(page) <= 2   # the page opens at the first recorded iteration (issue 30, defect 2)
    page.evaluate(WATCH_RUNS)
    page.locator(".tl-slider").first.focus()
    read = """(root) => [root.querySelector('[data-testid="timeline-t"]').innerText,
                         root.querySelector('.rm-average-dot').getAttribute('cx')]"""
    slider = page.locator(".tl-slider").first
    seen, pressed = presses_in_one_task(slider, ["Home"] + ["ArrowRight"] * 10, read)
    labels, dots = zip(*seen[1:])
    assert [label_t(text) for text in labels] == list(range(2, 12))
    assert len(set(dots)) > 1, "the simplex point did not move"
    assert page.evaluate("window.__scriptRuns") == 0, "a key press reran the script"
    # Where each player's dot is drawn, read back as a strategy, is the solver's average at t = 11
    # (sent rounded to 4 decimals, drawn to 0.1 px on a triangle about 300 px wide).
    for shown in page.locator(".rm-simplex").evaluate_all(SIMPLEX):
        average = (path.average_row if shown["player"] == 0 else path.average_column)[11 - 1]
        assert barycentric(shown["corners"], shown["dot"]) == pytest.approx(average, abs=2e-3)
    heading = page.get_by_test_id("rm-average-0").first.inner_text()
    words, numbers = heading.split(": ")
    assert words == "Player 1 after 11 iterations, average strategy"
    named = [pair.rsplit(" ", 1) for pair in numbers.split(", ")]
    assert [name for name, _ in named] == ["rock", "paper", "scissors"]
    # Sent to 4 decimals, shown to 3: within one unit of the last digit shown.
    assert [float(p) for _, p in named] == pytest.approx(path.average_row[10].tolist(), abs=1.01e-3)
    # After a pause the page learns t once, and the link keeps it.
    page.wait_for_function("() => new URLSearchParams(location.search).get('rm_t') === '11'", timeout=SLOW_MS)
    page.wait_for_selector(APP_IDLE, timeout=SLOW_MS)
    assert page.evaluate("window.__scriptRuns") == 1 and t_label(page) == 11
    assert page.evaluate("window.__scriptRunStarts[0]") - pressed >= REPORT_DELAY_MS, "t was told before the pause"
    share = page.locator('[data-testid="stSidebar"] [data-testid="stCode"]').first
    assert "rm_t=11" in share.inner_text()


def test_a_link_opens_on_its_t(page, app_url: str) -> None:
    path = page_path()
    open_drawn(page, f"{app_url}/Regret_matching?{RM}&rm_t=437", ".rm-simplex")
    assert t_label(page) == 437 and url_query(page)["rm_t"] == "437"
    (shown, *_) = page.locator(".rm-simplex").evaluate_all(SIMPLEX)
    assert barycentric(shown["corners"], shown["dot"]) == pytest.approx(path.average_row[436], abs=2e-3)


@pytest.mark.parametrize("size", SIZES)
def test_regret_matching_axes_are_labelled_legible_and_never_overlap(page, app_url: str, size: dict) -> None:
    page.set_viewport_size(size)
    open_drawn(page, f"{app_url}/Regret_matching?{RM}", ".rm-simplex")
    boxes = page.locator(".rm svg text").evaluate_all(CHART_TEXT)
    texts = [b["text"] for b in boxes]
    # Two players, each with a simplex (three corners) and two charts with both axes named.
    assert texts.count("iteration t (log scale)") == 4
    assert texts.count("probability of each action") == 2
    assert texts.count("cumulative regret of each action (payoff units)") == 2
    assert sorted(t for t in texts if t in ("rock", "paper", "scissors")) == sorted(["rock", "paper", "scissors"] * 2)
    assert min(b["size"] for b in boxes) >= 14
    assert overlaps(boxes) == []
    # Nothing is cut at the screen's right edge.
    assert max(b["x"] + b["w"] for b in boxes) <= size["width"]


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("page_name", ["Convergence", "Evolution"])
def test_chart_axes_are_labelled_legible_and_never_overlap(page, app_url: str, size: dict, page_name: str) -> None:
    page.set_viewport_size(size)
    open_drawn(page, f"{app_url}/{page_name}?{KUHN}", ".tl-chart")
    boxes = page.locator(".tl-charts svg text").evaluate_all(CHART_TEXT)
    texts = [b["text"] for b in boxes]
    assert "exploitability, chips/hand (log scale)" in texts
    assert texts.count("iteration t") + texts.count("iteration t (log scale)") == page.locator(".tl-chart").count()
    if page_name == "Convergence":
        assert "player 1's value, chips/hand" in texts
    assert min(b["size"] for b in boxes) >= 14
    assert overlaps(boxes) == []
    # The card titles above the charts never run into each other or off the screen either.
    titles = page.locator(".tl-card h5").evaluate_all(
        "(hs) => hs.map((h) => { const r = h.getBoundingClientRect(); return {text: h.textContent, x: r.x, y: r.y, w: r.width, h: r.height}; })")
    assert overlaps(titles) == [] and max(t["x"] + t["w"] for t in titles) <= size["width"]
    if page_name == "Convergence":
        # The small charts' titles (one per information set and action, four side by side) too.
        page.locator('[data-testid="stPlotlyChart"] .annotation-text').first.wait_for(timeout=SLOW_MS)
        chart = page.locator('[data-testid="stPlotlyChart"]').first
        titles = chart.locator("g.annotation").evaluate_all(
            "(gs) => gs.map((g) => { const r = g.getBoundingClientRect(); return {text: g.textContent, x: r.x, y: r.y, w: r.width, h: r.height}; })")
        assert len(titles) >= 12, titles      # Kuhn: 12 panels
        assert overlaps(titles) == []
