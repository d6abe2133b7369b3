"""The static site, built with the small menu, served by `python -m http.server` on loopback and walked
in Chromium along the learner's path with every request outside that server blocked.

References: the address bar as the one link of a view (a fresh browser context opened at it must
show the same iteration and node); the timeline's frames, which the arrow keys step one at a time
(the label changes); the inspector's heading "Node N:" for a clicked node; the viewport (nothing
past its right edge) and text boxes that do not overlap, as the app's every-page test checks.
"""
from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import re
from urllib.parse import parse_qsl, urlsplit

import pytest
from tests.browser.test_every_page_browser import TEXTS
from tests.support.browser import RENDER_TIMEOUT_MS, SIZES, only_requests, play_bets_and_checks_its_loss, t_label
from tests.support.drawing import overlaps
from tests.support.static_site import build_site, static_server

pytestmark = pytest.mark.browser

# The learner's order (Home's path), every page of it built; Evolution is off the path.
PATH = ["Regret_matching", "Walkthrough", "Game_tree", "Convergence", "Best_response", "Play"]
PAGES = ["", *PATH, "Evolution"]
TREE_PAGES = ("Game_tree", "Best_response")

SIDEWAYS = """() => {
  const right = innerWidth + 0.5;
  const out = [...document.querySelectorAll('p, h1, h2, label, a, li, select, text')]
    .filter((e) => e.textContent.trim() && !e.closest('.tl-tree, .tl-scroll, .cfrviz-scroll'))
    .filter((e) => { const r = e.getBoundingClientRect(); return r.width > 0 && r.right > right; })
    .map((e) => e.textContent.trim().slice(0, 60));
  return {pageScroll: document.documentElement.scrollWidth - innerWidth, out};
}"""


@pytest.fixture(scope="module")
def site_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("site") / "site"
    build_site(folder)
    return folder


@pytest.fixture(scope="module")
def site_url(site_folder: Path) -> Iterator[str]:
    with static_server(site_folder) as url:
        yield url


def _shown(page) -> int:
    """The first number of the timeline's label: the iteration t ("Iteration t = 1,234 of ...") or the
    walkthrough's step."""
    text = page.get_by_test_id("timeline-t").inner_text()
    after = text.split("=", 1)[1] if "=" in text else text
    return int(re.search(r"[0-9][0-9,]*", after).group(0).replace(",", ""))   # type: ignore[union-attr]


def _timeline_shown(page) -> None:
    page.get_by_test_id("timeline-t").wait_for(state="visible", timeout=RENDER_TIMEOUT_MS)


def _page_of(url: str) -> str:
    return url.split("://", 1)[1].split("/", 1)[1].split("?")[0].removesuffix("index.html").strip("/")


def _click_a_decision_node(page) -> int:
    nodes = page.locator(".tl-tree .tl-node")
    for k in range(nodes.count()):
        node = nodes.nth(k)
        if node.get_attribute("data-node") not in (None, "0") and node.locator("text").count():
            number = int(node.get_attribute("data-node") or -1)
            node.click()
            try:
                page.locator(".tl-inspector h4", has_text=f"Node {number}:").first.wait_for(timeout=3_000)
                return number
            except Exception:  # a chance or terminal node opens no inspector: try the next one
                continue
    raise AssertionError("No drawn node opened the inspector.")


def test_the_learners_path_steps_inspects_and_its_links_reopen_the_view(browser, site_url: str) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    asked = only_requests(page, (site_url,))
    page.goto(f"{site_url}/index.html", timeout=RENDER_TIMEOUT_MS)
    _timeline_shown(page)
    path_links = page.locator(".cfrviz-path a[data-page]")
    # The path's built pages, in the learner's order, and the navigation's order (issue 29).
    assert [path_links.nth(k).get_attribute("data-page") for k in range(path_links.count())] == PATH
    nav = page.locator(".cfrviz-nav a")
    assert [nav.nth(k).get_attribute("data-page") for k in range(nav.count())] == [
        "", "Regret_matching", "Walkthrough", "Game_tree", "Evolution", "Convergence", "Best_response", "Play",
        "Compare"]
    for target in [*PATH, "Evolution"]:
        page.locator(f'.cfrviz-nav a[data-page="{target}"]').click()
        page.wait_for_url(f"**/{target}/**", timeout=RENDER_TIMEOUT_MS)
        _timeline_shown(page)
        assert _page_of(page.url) == target
        # The arrow keys step the timeline (one frame back from the last, then forward again).
        page.locator(".tl-slider").first.focus()
        start = _shown(page)
        # The walkthrough opens at its first step, the others at their last iteration.
        back, forth = ("ArrowRight", "ArrowLeft") if target == "Walkthrough" else ("ArrowLeft", "ArrowRight")
        page.keyboard.press(back)
        page.keyboard.press(back)
        page.keyboard.press(forth)
        stepped = _shown(page)
        assert stepped != start, target
        key = {"Walkthrough": "walk_step", "Regret_matching": "rm_t"}.get(target, "t")
        page.wait_for_function(f"() => new URLSearchParams(location.search).get('{key}') === '{stepped}'",
                               timeout=RENDER_TIMEOUT_MS)
        node = None
        if target in TREE_PAGES:
            node = _click_a_decision_node(page)
            page.wait_for_function(f"() => new URLSearchParams(location.search).get('node') === '{node}'",
                                   timeout=RENDER_TIMEOUT_MS)
        if target == "Convergence":
            # Kuhn's α-family picture, drawn at build time, loaded (an image the browser decoded).
            figure = page.get_by_test_id("cfrviz-equilibrium")
            figure.wait_for(state="visible", timeout=RENDER_TIMEOUT_MS)
            page.wait_for_function("() => document.querySelector('#cfrviz-equilibrium img').naturalWidth > 0",
                                   timeout=RENDER_TIMEOUT_MS)
            assert "does not follow t" in figure.inner_text()
        if target == "Best_response":
            # Player 2 as the exploiter: the app's br_player=2 in the link.
            page.locator('.tl input[type="radio"][value="1"]').first.check()
            page.wait_for_function("() => new URLSearchParams(location.search).get('br_player') === '2'",
                                   timeout=RENDER_TIMEOUT_MS)
        # The full app's link names the same page and view (the app reads the same parameters).
        app_link = urlsplit(page.locator("#cfrviz-app").get_attribute("href") or "")
        assert app_link.netloc == "cfrviz.example.org" and app_link.path == f"/{target}"
        assert parse_qsl(app_link.query) == parse_qsl(urlsplit(page.url).query)
        # The address bar's link, in a fresh context, opens the same view.
        fresh = browser.new_context(viewport={"width": 1280, "height": 900})
        try:
            other = fresh.new_page()
            other_asked = only_requests(other, (site_url,))
            other.goto(page.url, timeout=RENDER_TIMEOUT_MS)
            _timeline_shown(other)
            assert _shown(other) == stepped, target
            if node is not None:
                other.locator(".tl-inspector h4", has_text=f"Node {node}:").first.wait_for(timeout=RENDER_TIMEOUT_MS)
            if target == "Best_response":
                assert other.locator('.tl input[type="radio"][value="1"]').first.is_checked()
            assert other.locator(".cfrviz-notices p").count() == 0, other.locator(".cfrviz-notices").inner_text()
            assert other_asked == []
        finally:
            fresh.close()
    # Compare, off the path: figures and table written at build time (no timeline), from every page's navigation.
    page.locator('.cfrviz-nav a[data-page="Compare"]').click()
    page.wait_for_url("**/Compare/**", timeout=RENDER_TIMEOUT_MS)
    _compare_shown(page)
    assert asked == [], asked
    context.close()


def _compare_shown(page) -> None:
    """The Compare page's figure (its three panels' SVG) and its table with a row per line."""
    page.get_by_test_id("compare-figure").first.locator("svg polyline").first.wait_for(
        state="attached", timeout=RENDER_TIMEOUT_MS)
    # Reference: the small menu compares CFR+ and outcome sampling (three seeds) on Kuhn: two lines.
    assert page.get_by_test_id("compare-table").locator("tbody tr").count() == 2
    assert "95% t-interval" in page.get_by_test_id("compare-figure").first.inner_text()


# The Compare page's drawn texts: every SVG text of its figures, one drawing per figure.
COMPARE_TEXTS = """() => [...document.querySelectorAll('.cfrviz-compare-figure svg')].flatMap((svg, k) =>
  [...svg.querySelectorAll('text')].map((t) => { const r = t.getBoundingClientRect();
    return {text: t.textContent.trim(), where: k, x: r.x, y: r.y, w: r.width, h: r.height}; }))
  .filter((b) => b.text && b.w > 0)"""


@pytest.mark.parametrize("size", SIZES)
def test_the_compare_page_is_legible_at_every_size(page, site_url: str, size: dict) -> None:
    page.set_viewport_size(size)
    asked = only_requests(page, (site_url,))
    page.goto(f"{site_url}/Compare/index.html", timeout=RENDER_TIMEOUT_MS)
    _compare_shown(page)
    texts = page.evaluate(COMPARE_TEXTS)
    assert texts and overlaps(texts) == []
    sideways = page.evaluate(SIDEWAYS)
    assert sideways["pageScroll"] <= 1 and sideways["out"] == [], sideways
    assert asked == []


def test_a_link_the_site_did_not_build_says_so_and_links_to_the_app(page, site_url: str) -> None:
    asked = only_requests(page, (site_url,))
    page.goto(f"{site_url}/Game_tree/index.html?game=kuhn&algo=dcfr&iters=77&updates=alternating",
              timeout=RENDER_TIMEOUT_MS)
    _timeline_shown(page)
    notice = page.locator(".cfrviz-notices p").first
    assert "This site has no run of" in notice.inner_text()
    href = notice.locator("a").get_attribute("href") or ""
    assert href.startswith("https://cfrviz.example.org/Game_tree?") and "algo=dcfr" in href and "iters=77" in href
    assert asked == []


def test_homes_locked_example_opens_the_locked_run_at_its_node(page, site_url: str) -> None:
    # Reference: the locked example's link (cfrviz.teaching.texts.LOCK_EXAMPLE_PARAMS: lock J=1,0, node 1),
    # at the iterations the small menu built it with.
    asked = only_requests(page, (site_url,))
    page.goto(f"{site_url}/index.html", timeout=RENDER_TIMEOUT_MS)
    _timeline_shown(page)
    page.locator(".cfrviz-path a", has_text="Lock a set").click()
    page.wait_for_url("**/Game_tree/**", timeout=RENDER_TIMEOUT_MS)
    _timeline_shown(page)
    assert page.locator(".cfrviz-notices p").count() == 0
    assert "locked J=1,0" in page.get_by_test_id("cfrviz-summary").inner_text()
    page.locator(".tl-inspector h4", has_text="Node 1:").first.wait_for(timeout=RENDER_TIMEOUT_MS)
    assert asked == []


def test_a_bad_t_or_node_in_a_link_is_one_sentence_and_the_view_falls_back(page, site_url: str) -> None:
    # Reference: the app's fallbacks (cfrviz/app/links.py): a t outside 1..iterations shows the last
    # iteration (300 in the small menu's first run), a node that is not a number selects none.
    asked = only_requests(page, (site_url,))
    page.goto(f"{site_url}/Game_tree/index.html?game=kuhn&algo=cfr%2B&iters=300&updates=alternating&t=9999&node=x",
              timeout=RENDER_TIMEOUT_MS)
    _timeline_shown(page)
    said = page.locator(".cfrviz-notices p").all_inner_texts()
    assert said == ['The iteration t must be a whole number from 1 to 300, not "9999"; showing the last iteration.',
                    'Node "x" is not a node number; no node is selected.']
    assert t_label(page) == 300
    assert page.evaluate("() => window.cfrvizView().node") is None
    assert "node=" not in page.url
    assert asked == []


def test_the_apps_own_link_with_the_sites_address_opens_the_same_view(page, site_url: str) -> None:
    # Reference: the app's link form (/Game_tree?game=...&t=...&node=...; cfrviz/app/links.py's names);
    # a static server sends /Game_tree to /Game_tree/ with the query kept.
    asked = only_requests(page, (site_url,))
    page.goto(f"{site_url}/Game_tree?game=kuhn&algo=cfr%2B&iters=300&updates=alternating&t=40&node=7",
              timeout=RENDER_TIMEOUT_MS)
    _timeline_shown(page)
    assert t_label(page) == 40
    page.locator(".tl-inspector h4", has_text="Node 7:").first.wait_for(timeout=RENDER_TIMEOUT_MS)
    assert page.locator(".cfrviz-notices p").count() == 0
    assert asked == []


def test_a_plus_typed_into_a_link_reads_as_the_app_reads_it(page, site_url: str) -> None:
    # Reference: cfrviz/app/links.py reads "algo=cfr+" (a '+' that arrives as a space) as CFR+.
    asked = only_requests(page, (site_url,))
    page.goto(f"{site_url}/Convergence/index.html?game=kuhn&algo=cfr+&iters=300&updates=alternating",
              timeout=RENDER_TIMEOUT_MS)
    _timeline_shown(page)
    assert page.locator(".cfrviz-notices p").count() == 0
    assert page.get_by_test_id("cfrviz-summary").inner_text().startswith("Kuhn poker · CFR+ · alternating · 300 ")
    assert asked == []


@pytest.mark.parametrize("target", ["", "Game_tree"], ids=["Home", "Game_tree"])
def test_home_and_the_game_tree_open_from_disk(page, site_folder: Path, target: str) -> None:
    asked = only_requests(page, ("file:",))
    path = site_folder / target / "index.html" if target else site_folder / "index.html"
    page.goto(path.as_uri(), timeout=RENDER_TIMEOUT_MS)
    _timeline_shown(page)
    page.locator(".tl-slider").first.focus()
    start = t_label(page)
    page.keyboard.press("ArrowLeft")
    assert t_label(page) != start
    if target:
        _click_a_decision_node(page)
    assert asked == []


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("target", PAGES, ids=[p or "Home" for p in PAGES])
def test_every_page_is_legible_at_every_size(page, site_url: str, target: str, size: dict) -> None:
    page.set_viewport_size(size)
    asked = only_requests(page, (site_url,))
    page.goto(f"{site_url}/{target + '/' if target else ''}index.html", timeout=RENDER_TIMEOUT_MS)
    _timeline_shown(page)
    page.locator(".tl svg").first.wait_for(state="attached", timeout=RENDER_TIMEOUT_MS)
    texts = page.evaluate(TEXTS)
    assert overlaps(texts) == []
    sideways = page.evaluate(SIDEWAYS)
    assert sideways["pageScroll"] <= 1 and sideways["out"] == [], sideways
    assert asked == []


def test_regret_matching_shows_the_runs_average_at_t_and_steps(page, site_url: str) -> None:
    # Reference: the small menu's regret-matching run itself (cfrviz.solve "rm" on rock-paper-scissors,
    # 300 iterations, seed 3, simultaneous updates as the app's page): the page replays its path (same
    # kernel and seed), so player 1's average at t is the run's, to the payload's 4 decimals.
    import cfrviz

    run = cfrviz.solve("rps", "rm", iterations=300, seed=3, updates="simultaneous")
    asked = only_requests(page, (site_url,))
    page.goto(f"{site_url}/Regret_matching/index.html?rm_game=rps&rm_mode=self&rm_update=sampled&rm_iters=300"
              "&rm_seed=3&rm_t=40", timeout=RENDER_TIMEOUT_MS)
    page.locator(".rm-simplex").first.wait_for(state="visible", timeout=RENDER_TIMEOUT_MS)

    def shown_average() -> list[float]:
        dot = page.locator('.rm-simplex[data-player="0"] .rm-average-dot').first
        return [float(v) for v in (dot.get_attribute("data-strategy") or "").split(",")]

    def expected(t: int) -> list[float]:
        return run.average_strategy[int(run.snapshot_at(t))][int(run.tree.infoset[0])].tolist()

    assert page.locator(".cfrviz-notices p").count() == 0
    assert t_label(page) == 40
    assert shown_average() == pytest.approx(expected(40), abs=0.5e-4 + 1e-9)
    page.locator(".rm-simplex").first.click(position={"x": 3, "y": 3})
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert t_label(page) == 42
    assert shown_average() == pytest.approx(expected(42), abs=0.5e-4 + 1e-9)
    page.wait_for_function("() => new URLSearchParams(location.search).get('rm_t') === '42'", timeout=RENDER_TIMEOUT_MS)
    assert asked == []


def test_play_deals_in_the_browser_and_shows_each_decisions_ev_loss_at_t(page, site_url: str) -> None:
    # Reference: cfrviz.teaching.play.set_values under the run's average strategy at t (the app's Play
    # page's numbers) for the small menu's vanilla CFR run: a decision's EV loss is v(I) - v(I, a), to the
    # payload's 4 decimals.
    import cfrviz

    run = cfrviz.solve("kuhn", "cfr", iterations=200, updates="simultaneous")
    asked = only_requests(page, (site_url,))
    page.goto(f"{site_url}/Play/index.html?game=kuhn&algo=cfr&iters=200&updates=simultaneous&t=100",
              timeout=RENDER_TIMEOUT_MS)
    page.locator(".tl-tree svg").first.wait_for(state="visible", timeout=RENDER_TIMEOUT_MS)
    assert page.locator(".cfrviz-notices p").count() == 0
    play_bets_and_checks_its_loss(page, run, 100)
    page.wait_for_function("() => new URLSearchParams(location.search).get('t') === '101'", timeout=RENDER_TIMEOUT_MS)
    assert asked == []
