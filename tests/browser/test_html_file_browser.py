"""The timeline as one HTML file, written by `cfrviz solve --html`, opened from disk in Chromium with
every network request blocked.

References: the same settings solved here in the test process, and
`cfrviz.analysis.inspector.frame_numbers` for the numbers the inspector must show at that t and
node (sent rounded to 4 decimals, shown to 3 or 4); the run's frames
(`cfrviz.figures.timeline.frame_snapshots`) for where an arrow key steps; the PNG signature and
SVG's namespace for the exports.
"""
from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from tests.support.browser import APP_IDLE, RENDER_TIMEOUT_MS, only_requests, open_app, play_bets_and_checks_its_loss, \
    t_label, wait_tree
from tests.support.cli import run_cli
from tests.support.efg_shapes import myerson_named

import cfrviz
from cfrviz.analysis.inspector import frame_numbers
from cfrviz.figures import save_html
from cfrviz.figures.html_page import html_text
from cfrviz.figures.timeline import frame_snapshots
from cfrviz.games.efg import read_efg
from cfrviz.tree import parts
from cfrviz.util.vocabulary import Player

pytestmark = pytest.mark.browser

# Inspector rows: (row name, frame_numbers key, decimals shown).
ROWS = [("current strategy", "current_strategy", 3), ("average strategy", "average_strategy", 3),
        ("cf value, this history", "history_cfv", 4), ("cf value, whole set", "infoset_cfv", 4),
        ("regret of iteration t", "instant_regret", 4), ("cumulative regret", "cumulative_regret", 4)]


def _offline(page) -> list[str]:
    """Abort (and record) every request that is not to the file itself or data the page made."""
    return only_requests(page, ("file:",))


def _number(text: str) -> float:
    return float(text.strip().replace("\u2212", "-"))


def _shown_tolerance(decimals: int) -> float:
    # Rounded to 4 decimals in the payload, then to `decimals` on screen.
    return 0.5e-4 + 0.5 * 10.0 ** -decimals + 1e-9


@pytest.mark.parametrize(("game", "iterations"), [("kuhn", 200), ("leduc", 30)])
def test_the_file_opens_offline_steps_and_inspects_as_the_run_says(page, tmp_path: Path, game: str,
                                                                   iterations: int) -> None:
    out = tmp_path / f"{game}.html"
    done = run_cli("solve", game, "-a", "cfr", "-n", str(iterations), "--updates", "simultaneous", "--html", str(out))
    assert done.returncode == 0, done.stderr
    run = cfrviz.solve(game, "cfr", iterations=iterations, updates="simultaneous")
    frames = [int(run.iterations[s]) for s in frame_snapshots(run.iterations)]
    start = frames[len(frames) // 4]
    asked = _offline(page)
    page.goto(f"{out.as_uri()}#t={start}", timeout=RENDER_TIMEOUT_MS)
    page.locator(".tl-tree svg").first.wait_for(state="visible", timeout=RENDER_TIMEOUT_MS)
    assert t_label(page) == start

    # Arrow keys step the frames, and the fragment follows.
    page.locator(".tl-slider").first.focus()
    k = frames.index(start)
    for _ in range(3):
        page.keyboard.press("ArrowRight")
    assert t_label(page) == frames[k + 3]
    page.keyboard.press("ArrowLeft")
    t = frames[k + 2]
    assert t_label(page) == t
    page.wait_for_function(f"() => location.hash.includes('t={t}')", timeout=RENDER_TIMEOUT_MS)

    # A click on a drawn decision node fills the inspector with that node's numbers at t.
    drawn = [int(n) for n in page.locator(".tl-tree .tl-node").evaluate_all("(gs) => gs.map((g) => g.dataset.node)")]
    node = next(n for n in drawn if run.tree.infoset[n] >= 0 and n > 0)
    page.locator(f'.tl-node[data-node="{node}"]').first.click()
    page.locator(".tl-inspector h4", has_text=f"Node {node}:").first.wait_for(timeout=RENDER_TIMEOUT_MS)
    s = int(run.snapshot_at(t))
    infoset = int(run.tree.infoset[node])
    numbers = frame_numbers(run, [s], nodes=[node], sets=[infoset])
    reach = page.locator(".tl-inspector .tl-reach b").all_inner_texts()
    assert _number(reach[0]) == pytest.approx(numbers["own_reach"][0, 0], abs=_shown_tolerance(4))
    assert _number(reach[1]) == pytest.approx(numbers["opponent_chance_reach"][0, 0], abs=_shown_tolerance(4))
    actions = len(run.tree.infosets[infoset].actions)
    for row, key, decimals in ROWS:
        cells = page.locator(".tl-inspector tr", has_text=row).first.locator("td")
        for a in range(actions):
            want = float(numbers[key][0, 0, a])
            assert math.isfinite(want), (row, a)
            assert _number(cells.nth(1 + a).inner_text()) == pytest.approx(want, abs=_shown_tolerance(decimals)), (row, a)
    page.wait_for_function(f"() => location.hash === '#t={t}&node={node}'", timeout=RENDER_TIMEOUT_MS)

    # The exports are made by the page itself.
    with page.expect_download(timeout=RENDER_TIMEOUT_MS) as svg_info:
        page.get_by_role("button", name="SVG").first.click()
    svg = ET.parse(svg_info.value.path()).getroot()
    assert svg.tag == "{http://www.w3.org/2000/svg}svg"
    with page.expect_download(timeout=RENDER_TIMEOUT_MS) as png_info:
        page.get_by_role("button", name="PNG").first.click()
    assert Path(png_info.value.path()).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert asked == [], asked


def test_a_fragment_typed_into_the_address_opens_that_view(page, tmp_path: Path) -> None:
    out = tmp_path / "kuhn.html"
    assert run_cli("solve", "kuhn", "-a", "cfr", "-n", "100", "--html", str(out)).returncode == 0
    run = cfrviz.solve("kuhn", "cfr", iterations=100)
    node = run.tree.node_label.index("QK kb")
    asked = _offline(page)
    page.goto(out.as_uri(), timeout=RENDER_TIMEOUT_MS)
    page.locator(".tl-tree svg").first.wait_for(state="visible", timeout=RENDER_TIMEOUT_MS)
    assert t_label(page) == 100   # the file opens at its last iteration
    page.evaluate(f"() => {{ location.hash = 't=7&node={node}'; }}")
    page.locator(".tl-inspector h4", has_text=f"Node {node}: QK kb").first.wait_for(timeout=RENDER_TIMEOUT_MS)
    assert t_label(page) == 7
    assert asked == []


def test_a_fragment_without_a_node_clears_the_clicked_node(page, tmp_path: Path) -> None:
    # Reference: the fragment names the whole view, as the file writes it (`#t=5&node=7`; no node: none
    # selected), so `#t=5` after a click shows iteration 5 with the inspector's empty note. Before the
    # host interface took a header that asks for its view, the clicked node stayed selected (the header
    # repeated the last one's "no node", which the timeline ignored).
    run = cfrviz.solve("kuhn", "cfr", iterations=100)
    out = save_html(run, tmp_path / "kuhn.html")
    node = run.tree.node_label.index("QK kb")
    asked = _open_offline(page, out, ".tl-tree svg")
    page.locator(f'.tl-node[data-node="{node}"]').first.click()
    page.locator(".tl-inspector h4", has_text=f"Node {node}: QK kb").first.wait_for(timeout=RENDER_TIMEOUT_MS)
    page.wait_for_function(f"() => location.hash === '#t=100&node={node}'", timeout=RENDER_TIMEOUT_MS)
    page.mouse.move(1, 1)   # off the node: the inspector shows a hovered node before the selected one
    page.evaluate("() => { location.hash = 't=5'; }")
    page.locator(".tl-inspector", has_text="No node selected").first.wait_for(timeout=RENDER_TIMEOUT_MS)
    assert t_label(page) == 5
    assert page.locator(".tl-inspector h4", has_text="Node ").count() == 0
    # The same node asked for again by the fragment is selected again.
    page.evaluate(f"() => {{ location.hash = 't=5&node={node}'; }}")
    page.locator(".tl-inspector h4", has_text=f"Node {node}: QK kb").first.wait_for(timeout=RENDER_TIMEOUT_MS)
    assert asked == []


def test_the_apps_interactive_page_is_the_view_on_screen(page, app_url: str, tmp_path: Path) -> None:
    # Reference: the view the app was opened at (its link's t and node) and the same settings
    # solved here for the inspector's heading.
    run = cfrviz.solve("kuhn", "cfr", iterations=200, updates="simultaneous")
    node = run.tree.node_label.index("QK kb")
    open_app(page, f"{app_url}/Game_tree?game=kuhn&algo=cfr&iters=200&updates=simultaneous&t=40&node={node}")
    wait_tree(page)
    # The app's inspector points to its lock editor; the file has none, so its header drops the editor
    # and its inspector points to nothing (before the drop, the file offered a button that did nothing).
    page.get_by_test_id("timeline-lock-ask").first.wait_for(timeout=RENDER_TIMEOUT_MS)
    with page.expect_download(timeout=RENDER_TIMEOUT_MS) as info:
        page.get_by_role("button", name="Interactive page (.html)").first.click()
    saved = tmp_path / "view.html"
    info.value.save_as(saved)
    offline = page.context.new_page()
    asked = _offline(offline)
    offline.goto(saved.as_uri(), timeout=RENDER_TIMEOUT_MS)
    offline.locator(".tl-inspector h4", has_text=f"Node {node}: QK kb").first.wait_for(timeout=RENDER_TIMEOUT_MS)
    assert t_label(offline) == 40
    assert offline.get_by_test_id("timeline-lock-ask").count() == 0
    assert asked == []


def test_a_walkthrough_file_steps_through_the_trace_offline(page, tmp_path: Path) -> None:
    # Reference: the trace of the same iteration replayed here (cfrviz.teaching.walkthrough), whose
    # step count the label must show; an arrow key moves one step, as on the Walkthrough page.
    run = cfrviz.solve("kuhn", "cfr", iterations=20)
    out = save_html(run, tmp_path / "walk.html", view="walkthrough", t=5)
    from cfrviz.teaching import walkthrough
    regret, sums, prediction, _ = walkthrough.solver_state(run.tree, "cfr", run.settings.updates, 0, 5)
    steps = len(walkthrough.trace_iteration(run.tree, regret, sums, prediction=prediction, algorithm="cfr",
                                            updates=run.settings.updates, iteration=5).steps)
    asked = _offline(page)
    page.goto(out.as_uri(), timeout=RENDER_TIMEOUT_MS)
    page.locator(".tl-walk .tl-tree svg").first.wait_for(state="visible", timeout=RENDER_TIMEOUT_MS)

    def label() -> tuple[int, int]:
        words = page.get_by_test_id("timeline-t").first.inner_text().replace(",", "").split()
        return int(words[1]), int(words[3])

    assert label() == (1, steps)
    page.locator(".tl-walk .tl-tree svg").first.click(position={"x": 3, "y": 3})
    for _ in range(3):
        page.keyboard.press("ArrowRight")
    assert label() == (4, steps)
    page.keyboard.press("ArrowLeft")
    assert label() == (3, steps)
    assert asked == []


def _open_offline(page, path: Path, selector: str) -> list[str]:
    asked = _offline(page)
    page.goto(path.as_uri(), timeout=RENDER_TIMEOUT_MS)
    page.locator(selector).first.wait_for(state="visible", timeout=RENDER_TIMEOUT_MS)
    return asked


def test_a_regret_matching_file_shows_the_runs_average_at_t_and_steps_offline(page, tmp_path: Path) -> None:
    # Reference: the regret-matching run itself (cfrviz.solve "rm" on rock-paper-scissors): the file
    # replays its path (same kernel and seed), so player 1's average at t is the run's, to the
    # payload's 4 decimals.
    run = cfrviz.solve("rps", "rm", iterations=300, seed=3)
    out = save_html(run, tmp_path / "rm.html", view="regret_matching", t=40)
    asked = _open_offline(page, out, ".rm-simplex")

    def shown_average() -> list[float]:
        dot = page.locator('.rm-simplex[data-player="0"] .rm-average-dot').first
        return [float(v) for v in dot.get_attribute("data-strategy").split(",")]

    def expected(t: int) -> list[float]:
        return run.average_strategy[int(run.snapshot_at(t))][int(run.tree.infoset[0])].tolist()

    assert t_label(page) == 40
    assert shown_average() == pytest.approx(expected(40), abs=0.5e-4 + 1e-9)
    page.locator(".rm-simplex").first.click(position={"x": 3, "y": 3})
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert t_label(page) == 42
    assert shown_average() == pytest.approx(expected(42), abs=0.5e-4 + 1e-9)
    assert asked == []


def test_a_play_file_deals_and_shows_each_decisions_ev_loss_at_t_offline(page, tmp_path: Path) -> None:
    # Reference: cfrviz.teaching.play.set_values under the run's average strategy at t (the App's
    # Play page's numbers): a decision's EV loss is v(I) - v(I, a), to the payload's 4 decimals.
    run = cfrviz.solve("kuhn", "cfr", iterations=200, updates="simultaneous")
    out = save_html(run, tmp_path / "play.html", view="play", t=100)
    asked = _open_offline(page, out, ".tl-tree svg")
    play_bets_and_checks_its_loss(page, run, 100)
    assert asked == []


def test_a_locked_runs_tree_file_shows_the_padlocks_offline(page, tmp_path: Path) -> None:
    # Reference: the lock's set, "J" (the deals JQ and JK), as the Game tree page marks it
    # (tests/browser/test_locks_browser.py).
    from cfrviz.tree.locks import Locks
    run = cfrviz.solve("kuhn", "cfr", iterations=50, locks=Locks.parse("J=0,1"))
    out = save_html(run, tmp_path / "locked.html")
    asked = _open_offline(page, out, ".tl-tree svg")
    locked = page.locator(".tl").first.evaluate("""(root) => [...root.querySelectorAll('.tl-tree .tl-node')]
      .filter((g) => g.querySelector('.tl-lock')).map((g) => Number(g.dataset.node))""")
    assert sorted(locked) == sorted(int(h) for h in run.tree.nodes_of(run.tree.infoset_index("J")))
    assert "locks J=0,1" in page.get_by_test_id("cfrviz-settings").inner_text()
    assert asked == []


@pytest.mark.parametrize(("path", "drawn", "view"), [
    ("Walkthrough?walk_game=kuhn&walk_t=3", ".tl-walk .tl-tree svg", "walkthrough of iteration 3"),
    ("Regret_matching?rm_iters=300", ".rm-simplex", "regret matching"),
    ("Play?game=kuhn&algo=cfr&iters=200", ".tl-tree svg", "play")])
def test_the_pages_without_a_run_of_their_own_offer_their_view_as_a_file(page, app_url: str, tmp_path: Path,
                                                                         path: str, drawn: str, view: str) -> None:
    # Reference: the view the page draws (its own settings, as its link names them).
    # A page's first open solves or traces under a shared machine's load: six render budgets, as the
    # Walkthrough's own browser tests allow.
    open_app(page, f"{app_url}/{path}", timeout_ms=6 * RENDER_TIMEOUT_MS)
    page.locator(drawn).first.wait_for(state="visible", timeout=6 * RENDER_TIMEOUT_MS)
    page.wait_for_selector(APP_IDLE, timeout=6 * RENDER_TIMEOUT_MS)   # a click during a rerun is lost
    button = page.get_by_role("button", name="Interactive page (.html)").first
    try:
        with page.expect_download(timeout=2 * RENDER_TIMEOUT_MS) as info:
            button.click()
    except PlaywrightTimeout:
        # Streamlit's known race (README, "A class at once"): a rerun the timeline's report caused revokes
        # the button's deferred file while the click is on its way, and nothing downloads. A visitor
        # clicks again once the page is idle; so does this test, once.
        page.wait_for_selector(APP_IDLE, timeout=6 * RENDER_TIMEOUT_MS)
        with page.expect_download(timeout=6 * RENDER_TIMEOUT_MS) as info:
            button.click()
    saved = tmp_path / "view.html"
    info.value.save_as(saved)
    offline = page.context.new_page()
    asked = _open_offline(offline, saved, drawn)
    assert offline.get_by_test_id("cfrviz-settings").inner_text().startswith(f"view {view} · ")
    assert asked == []


@pytest.mark.parametrize("game", ["kuhn", "efg"])
def test_a_file_offers_no_set_drawn_whole(page, tmp_path: Path, game: str) -> None:
    # Reference: the card views of cfrviz.tree.parts. Kuhn's tree splits by a player's card, so in the app a
    # part (player 1 holds J) that draws one history of player 2's set can be redrawn as that set's card
    # view; a file holds only its own part, so it cannot, and its button did nothing. Myerson's card game
    # (Myerson 1991, section 2.1) as .efg has no private cards: its parts are subtrees, and with only the
    # red deal drawn, player 2's "set raised" has a history off the part and nothing to draw it whole by.
    # Before, a file offered the button on both (the app's Game tree: test_timeline_browser.py).
    if game == "kuhn":
        run = cfrviz.solve("kuhn", "cfr", iterations=20)
        drawn = parts.part_nodes(run.tree, parts.Part(Player.FIRST, card="J")).tolist()
    else:
        run = cfrviz.solve(read_efg(myerson_named("x")), "cfr", iterations=20)
        drawn = [n for n in range(run.tree.num_nodes) if run.tree.node_label[n].startswith(("draw", "r"))]
    tree = run.tree
    node = next(n for n in drawn if tree.infoset[n] >= 0 and tree.infoset_player[tree.infoset[n]] == Player.SECOND
                and not set(tree.nodes_of(int(tree.infoset[n])).tolist()) <= set(drawn))
    out = tmp_path / f"{game}.html"
    out.write_text(html_text(run, view="tree", node=node, nodes=drawn), encoding="utf-8")
    asked = _offline(page)
    page.goto(out.as_uri(), timeout=RENDER_TIMEOUT_MS)
    page.locator(".tl-inspector .tl-table").first.wait_for(state="visible", timeout=RENDER_TIMEOUT_MS)
    assert page.locator(".tl-inspector h4").first.inner_text().startswith(f"Node {node}:")
    assert page.locator(".tl-inspector .tl-chip", has_text="Draw this set whole").count() == 0
    # Nor a lock: a file opens no lock editor, so neither the tree's title nor its key line offers L
    # (they did, and L did nothing).
    title = page.locator(".tl-tree svg > title").first.text_content() or ""
    keys = page.get_by_test_id("timeline-tree-keys").first.inner_text()
    assert "Enter or Space select" in title and "Enter or Space select" in keys
    assert "lock" not in title.lower() and "lock" not in keys.lower()
    assert asked == []
