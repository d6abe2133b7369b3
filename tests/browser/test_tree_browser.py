"""The Game tree page in a real browser: click a node, move t, reopen the link.

References: Kuhn's tree in breadth-first ids (cfrviz.tree) and a hand computation: at iteration 1
every strategy is uniform, so player 1's own reach of the history "QK kb" (after checking
with Q) is 1/2.
"""
from __future__ import annotations

from urllib.parse import parse_qsl, urlsplit

import pytest

import cfrviz
from conftest import RENDER_TIMEOUT_MS, open_app, wait_for_app

TALL = {"width": 1280, "height": 1600}

# Centre of one node's marker on screen, from the chart's own data (customdata = node ids) and
# the matching SVG point; plotly draws one g.trace per scatter trace, in data order.
POINT_CENTRE = """(chart, node) => {
  const data = chart._fullData;
  for (let k = 0; k < data.length; k++) {
    const ids = data[k].customdata;
    if (!ids) continue;
    const j = Array.from(ids).indexOf(node);
    if (j < 0) continue;
    const trace = chart.querySelectorAll('.scatterlayer .trace')[k];
    const box = trace.querySelectorAll('path.point')[j].getBoundingClientRect();
    return [box.x + box.width / 2, box.y + box.height / 2];
  }
  return null;
}"""


def own_reach(page) -> str:
    metric = page.locator('[data-testid="stMetric"]', has_text="Own reach").first
    return metric.locator('[data-testid="stMetricValue"]').inner_text().strip()


def click_node(page, node: int) -> None:
    chart = page.locator('[data-testid="stPlotlyChart"] .js-plotly-plot').first
    chart.wait_for(state="visible", timeout=RENDER_TIMEOUT_MS)
    # The chart may still be laying out: read the position until two readings agree.
    previous, position = None, chart.evaluate(POINT_CENTRE, node)
    for _ in range(50):
        if position is not None and position == previous:
            break
        page.wait_for_function("() => new Promise(r => requestAnimationFrame(() => r(true)))")
        previous, position = position, chart.evaluate(POINT_CENTRE, node)
    assert position is not None, f"node {node} is not drawn"
    page.mouse.click(*position)


@pytest.mark.browser
def test_click_a_node_move_t_and_reopen_the_link(new_context, app_url: str) -> None:
    tree = cfrviz.compile_game("kuhn")
    node = tree.node_label.index("QK kb")
    page = new_context().new_page()
    page.set_viewport_size(TALL)
    open_app(page, f"{app_url}/Game_tree?game=kuhn&algo=cfr&iters=200&updates=simultaneous",
             text="No node selected")

    click_node(page, node)
    wait_for_app(page, text=f"Node {node}: QK kb")
    assert dict(parse_qsl(urlsplit(page.url).query))["node"] == str(node)
    page.get_by_text("information set:").first.wait_for(state="visible", timeout=RENDER_TIMEOUT_MS)
    at_last = own_reach(page)

    # Move the shared iteration to its first snapshot (t = 1) with the keyboard.
    page.locator('[data-testid="stSlider"] input[type="range"]').first.focus()
    page.keyboard.press("Home")
    page.wait_for_function("() => new URLSearchParams(location.search).get('t') === '1'",
                           timeout=RENDER_TIMEOUT_MS)
    wait_for_app(page, text="Own reach (player 1), iteration 1")
    assert own_reach(page) == "0.5000" != at_last

    # The link, opened in a fresh browser context, shows the same node at the same t.
    link = page.url
    fresh = new_context().new_page()
    fresh.set_viewport_size(TALL)
    open_app(fresh, link, text=f"Node {node}: QK kb")
    assert own_reach(fresh) == "0.5000"
    query = dict(parse_qsl(urlsplit(fresh.url).query))
    assert (query["t"], query["node"]) == ("1", str(node))


@pytest.mark.browser
def test_evolution_playback_animates_in_the_browser(new_context, app_url: str) -> None:
    # Reference: plotly frames play client-side; pressing Play from iteration 3 moves
    # the playback chart's title to later snapshot iterations without a Streamlit rerun.
    page = new_context().new_page()
    page.set_viewport_size(TALL)
    open_app(page, f"{app_url}/Evolution?game=kuhn&algo=cfr&iters=200&updates=simultaneous&t=3",
             text="Playback")
    chart = page.locator('[data-testid="stPlotlyChart"]', has_text="strategy at iteration 3").first
    chart.wait_for(state="visible", timeout=RENDER_TIMEOUT_MS)
    chart.locator(".updatemenu-button", has_text="Play").first.click()
    page.wait_for_function(
        """() => Array.from(document.querySelectorAll('[data-testid="stPlotlyChart"] .gtitle'))
                 .some(title => { const m = title.textContent.match(/strategy at iteration ([0-9,]+)/);
                                  return m && Number(m[1].replace(/,/g, '')) > 3; })""",
        timeout=RENDER_TIMEOUT_MS)
    # Playback never reran the script: the shared t in the URL is unchanged.
    assert dict(parse_qsl(urlsplit(page.url).query))["t"] == "3"
