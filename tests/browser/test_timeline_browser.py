"""The browser timeline on the Game tree page, in a real browser.

References: Kuhn's tree in breadth-first ids (cfrviz.tree); a hand computation: at iteration 1
every strategy is uniform, so player 1's own reach of the history "QK kb" (after checking with Q)
is 1/2; the run solved here in the test process for the numbers the inspector must show; WCAG 2's
contrast ratio ((L1 + 0.05) / (L2 + 0.05) of relative luminances, 4.5:1 for normal text) for
legibility; and the viewport for what is on the screen.
"""
from __future__ import annotations

import pytest
from tests.support.browser import (APP_IDLE, RENDER_TIMEOUT_MS, REPORT_DELAY_MS, SIZES, WATCH_RUNS, label_t, open_app,
                                   presses_in_one_task, t_label, timeline_root, url_query, wait_tree)
from tests.support.drawing import LABEL_BOXES, contrast, over, overlaps, rgb

import cfrviz
from cfrviz.util.text import clamped_exploitability, number

pytestmark = pytest.mark.browser

KUHN = "game=kuhn&algo=cfr&iters=200&updates=simultaneous"

def open_tree(page, query: str) -> None:
    open_app(page, f"{page.context.app_url}/Game_tree?{query}" if hasattr(page.context, "app_url") else query)


def inspector_cell(page, row: str, action: int) -> str:
    cells = page.locator(".tl-inspector tr", has_text=row).first.locator("td")
    return cells.nth(1 + action).inner_text()


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
    read = """(root) => [root.querySelector('[data-testid="timeline-t"]').innerText,
                         root.querySelectorAll('.tl-tree line')[10].getAttribute('stroke-width'),
                         [...root.querySelectorAll('.tl-inspector tr')].find((r) => r.innerText.includes('average strategy'))
                           .querySelectorAll('td')[1].innerText]"""
    slider = page.locator(".tl-slider").first
    seen, pressed = presses_in_one_task(slider, ["ArrowRight"] * 10, read)
    labels, widths, averages = zip(*seen)
    assert [label_t(text) for text in labels] == list(range(2, 12))
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
    assert page.evaluate("window.__scriptRunStarts[0]") - pressed >= REPORT_DELAY_MS, "t was told before the pause"
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
    # The default context is 1280x800 (tests.support.browser.VIEWPORT).
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
    # Player 2's set "Q k" names both its histories (the inspector's other chips are actions: lock, draw whole).
    chips = page.locator(".tl-inspector .tl-histories .tl-chip").all_inner_texts()
    assert chips == ["JQ k", "KQ k"]
    # Hovering another node shows its numbers at t; leaving it brings the clicked node back.
    other = tree.node_label.index("JQ kb")
    page.locator(f'.tl-node[data-node="{other}"]').first.hover()
    page.locator(".tl-inspector h4", has_text=f"Node {other}: JQ kb").first.wait_for(timeout=RENDER_TIMEOUT_MS)
    assert page.locator(".tl-inspector", has_text="Hovering").first.is_visible()
    page.mouse.move(2, 2)
    page.locator(".tl-inspector h4", has_text=f"Node {node}: KQ k").first.wait_for(timeout=RENDER_TIMEOUT_MS)


LEDUC = "game=leduc&algo=cfr&iters=300&updates=simultaneous"
@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("query", [KUHN + "&t=40", LEDUC + "&node=5"], ids=["kuhn", "leduc"])
def test_tree_labels_are_legible_and_never_overlap(page, app_url: str, query: str, size: dict) -> None:
    page.set_viewport_size(size)
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
    # Written as the pages write it (cfrviz.util.text.number), e.g. 0.458, not 4.58e-01.
    assert card.inner_text().split()[0] == number(clamped_exploitability(float(run.exploitability[0])))
    page.get_by_text("Exploitability at iteration 1").first.wait_for(state="visible", timeout=RENDER_TIMEOUT_MS)


# ---------------------------------------------------------------------------------------------
# Contrast, focus, the inspector in view, the legend


# Every text of the tree with its fill, halo (stroke) and what is painted under it: the pill for a
# key (its fill and opacity, over a shaded band or the page), the page for the rest.
TREE_TEXT = """(root) => {
  const page = getComputedStyle(document.querySelector('[data-testid="stApp"]')).backgroundColor;
  const groups = [...root.querySelectorAll('.tl-tree .tl-group')].map((g) => g.getBoundingClientRect());
  const band = root.querySelector('.tl-tree .tl-group');
  const bandStyle = band && getComputedStyle(band);
  const opacity = (e) => { let o = 1; for (; e && e.tagName !== 'svg'; e = e.parentElement) o *= parseFloat(getComputedStyle(e).opacity); return o; };
  return [...root.querySelectorAll('.tl-tree text')].filter((t) => t.textContent.trim()).map((t) => {
    const cs = getComputedStyle(t), r = t.getBoundingClientRect();
    const cx = r.x + r.width / 2, cy = r.y + r.height / 2;
    const shape = t.classList.contains('tl-key') ? t.previousElementSibling : null;
    const inBand = groups.some((g) => cx >= g.left && cx <= g.right && cy >= g.top && cy <= g.bottom);
    return {text: t.textContent, kind: t.getAttribute('class') || '', fill: cs.fill, fillOpacity: parseFloat(cs.fillOpacity),
            stroke: cs.stroke, strokeWidth: parseFloat(cs.strokeWidth), strokeOpacity: parseFloat(cs.strokeOpacity),
            paintOrder: cs.paintOrder, opacity: opacity(t), page,
            band: inBand && bandStyle ? [bandStyle.fill, parseFloat(bandStyle.fillOpacity)] : null,
            shape: shape ? [getComputedStyle(shape).fill, parseFloat(getComputedStyle(shape).fillOpacity)] : null};
  });
}"""


def test_contrast_of_wcag_reference_colours() -> None:
    # Reference: WCAG 2 gives black on white 21:1 and #767676 on white 4.54:1.
    assert contrast((0, 0, 0, 1), (255, 255, 255, 1)) == pytest.approx(21.0)
    assert contrast(rgb("rgb(118, 118, 118)"), rgb("rgb(255, 255, 255)")) == pytest.approx(4.54, abs=0.01)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("query", [KUHN + "&t=40", KUHN + "&t=200", LEDUC + "&node=5",
                                   "game=kuhn&cards=13&algo=cfr&iters=200&updates=simultaneous"],
                         ids=["kuhn-40", "kuhn-200", "leduc", "kuhn13"])
def test_every_payoff_and_label_has_contrast_4_5_against_what_is_behind_it(page, app_url: str, query: str,
                                                                        size: dict) -> None:
    # The audit found payoffs white on white at the ends of thick edges (5 of 30 in Kuhn). A text
    # drawn over edges and bands is read against its own halo (paint-order: stroke, opaque, at
    # least 3 px); a key is read against its pill as painted (fill with opacity over the page or
    # a shaded band).
    page.set_viewport_size(size)
    open_app(page, f"{app_url}/Game_tree?{query}")
    wait_tree(page)
    texts = timeline_root(page).evaluate(TREE_TEXT)
    payoffs = [t for t in texts if "tl-payoff" in t["kind"]]
    assert len(payoffs) >= 30 or "leduc" in query, len(payoffs)
    assert payoffs, texts[:3]
    poor = []
    for t in texts:
        fill = rgb(t["fill"])
        if t["shape"] is not None:
            page_colour = rgb(t["page"])
            under = over(rgb(t["band"][0]), t["band"][1], page_colour) if t["band"] else page_colour
            behind = over(rgb(t["shape"][0]), t["shape"][1], under)
            ratio = contrast(fill, behind)
        else:
            assert t["paintOrder"].startswith("stroke") and t["strokeWidth"] >= 3, t
            assert t["strokeOpacity"] == 1 and rgb(t["stroke"])[3] == 1, t
            ratio = contrast(fill, rgb(t["stroke"]))
        assert t["opacity"] == 1 and t["fillOpacity"] == 1 and fill[3] == 1, t
        if ratio < 4.5:
            poor.append((t["text"], t["kind"], round(ratio, 2)))
    assert poor == []


ACTIVE_IS_ROOT = "(root) => root.getRootNode().activeElement === root"


def test_leduc_keeps_the_keyboard_focus_after_the_reruns_of_a_key_step_and_a_new_part(page, app_url: str) -> None:
    # The audit lost focus after the rerun that follows a key step or a click on Leduc, so arrow
    # keys did nothing. A history chip outside the drawn part makes the server draw another part
    # (a new payload, so a new drawing): the focus must survive that too.
    open_app(page, f"{app_url}/Game_tree?{LEDUC}&node=5")
    wait_tree(page)
    root = timeline_root(page)
    page.locator(".tl-tree svg").first.click(position={"x": 3, "y": 3})
    assert root.evaluate(ACTIVE_IS_ROOT)
    page.keyboard.press("ArrowLeft")
    assert t_label(page) == 299
    page.wait_for_function("() => new URLSearchParams(location.search).get('t') === '299'", timeout=RENDER_TIMEOUT_MS)
    page.wait_for_selector(APP_IDLE, timeout=RENDER_TIMEOUT_MS)
    assert root.evaluate(ACTIVE_IS_ROOT), "the rerun after a key step dropped the focus"
    page.keyboard.press("ArrowLeft")
    assert t_label(page) == 298

    # Player 2's set "Q k" in the part "player 1 holds Q" draws QQ k only; its chip "JQ k" asks for
    # the part where JQ k is drawn (player 2 holds Q).
    tree = cfrviz.compile_game("leduc")
    qq_k, jq_k = tree.node_label.index("QQ k"), tree.node_label.index("JQ k")
    page.locator(f'.tl-node[data-node="{qq_k}"]').first.click()
    page.locator(".tl-inspector h4", has_text=f"Node {qq_k}: QQ k").first.wait_for(timeout=RENDER_TIMEOUT_MS)
    page.wait_for_function(f"() => new URLSearchParams(location.search).get('node') === '{qq_k}'",
                           timeout=RENDER_TIMEOUT_MS)
    page.wait_for_selector(APP_IDLE, timeout=RENDER_TIMEOUT_MS)
    assert root.evaluate(ACTIVE_IS_ROOT), "the rerun after a node click dropped the focus"
    page.locator(".tl-inspector .tl-chip", has_text="JQ k").first.click()
    page.locator(f'.tl-node[data-node="{jq_k}"]').first.wait_for(timeout=RENDER_TIMEOUT_MS)
    page.get_by_text("showing player 2 holds Q").first.wait_for(timeout=RENDER_TIMEOUT_MS)
    page.wait_for_selector(APP_IDLE, timeout=RENDER_TIMEOUT_MS)
    assert timeline_root(page).evaluate(ACTIVE_IS_ROOT), "drawing a new part dropped the focus"
    before = t_label(page)
    page.keyboard.press("ArrowRight")
    assert t_label(page) == before + 1


# Where the inspector's heading is, whether it is the element painted at its centre (nothing
# covers it), and the bottom of Streamlit's own header bar (which covers the top of the page).
HEADING = """(root) => {
  const h = root.querySelector('.tl-inspector h4'), r = h.getBoundingClientRect();
  const hit = root.getRootNode().elementFromPoint(r.x + Math.min(r.width / 2, 40), r.y + r.height / 2);
  const header = document.querySelector('[data-testid="stHeader"]');
  return {top: r.top, bottom: r.bottom, left: r.left, right: r.right, text: h.textContent,
          covered: !(hit && (hit === h || h.contains(hit))),
          headerBottom: header ? header.getBoundingClientRect().bottom : 0,
          width: innerWidth, height: innerHeight};
}"""


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("query", [KUHN + "&t=40", LEDUC + "&node=5"], ids=["kuhn", "leduc"])
def test_the_inspector_is_on_screen_after_a_click_on_the_lowest_node(page, app_url: str, query: str,
                                                                      size: dict) -> None:
    # At 1280x800 the audit saw the inspector's heading, histories and reach scrolled above the
    # screen after a click on a low node; on a phone the inspector opened below the tree, off
    # screen. Reference: the viewport and Streamlit's header bar bound what a visitor sees.
    page.set_viewport_size(size)
    open_app(page, f"{app_url}/Game_tree?{query}")
    wait_tree(page)
    lowest = timeline_root(page).evaluate("""(root) => {
      const pills = [...root.querySelectorAll('.tl-tree .tl-node')].filter((g) => g.querySelector('rect'));
      pills.sort((a, b) => b.getBoundingClientRect().bottom - a.getBoundingClientRect().bottom);
      return pills[0].dataset.node; }""")
    page.locator(f'.tl-node[data-node="{lowest}"]').first.click()
    page.wait_for_function(f"() => new URLSearchParams(location.search).get('node') === '{lowest}'",
                           timeout=RENDER_TIMEOUT_MS)
    page.wait_for_selector(APP_IDLE, timeout=RENDER_TIMEOUT_MS)
    page.locator(".tl-inspector h4", has_text=f"Node {lowest}:").first.wait_for(state="visible", timeout=RENDER_TIMEOUT_MS)
    where = timeline_root(page).evaluate(HEADING)
    assert where["top"] >= where["headerBottom"] and where["bottom"] <= where["height"], where
    assert where["left"] >= 0 and where["right"] <= where["width"], where
    assert not where["covered"], where
    # The reach line and the table's first row are on the screen too.
    for selector in (".tl-inspector .tl-reach", ".tl-inspector tbody tr"):
        box = page.locator(selector).first.bounding_box()
        assert box and box["y"] >= where["headerBottom"] and box["y"] + box["height"] <= size["height"], (selector, box)


@pytest.mark.parametrize("size", SIZES)
def test_the_legend_sentence_is_never_cut(page, app_url: str, size: dict) -> None:
    # The audit found the legend's sentence cut at 1280 and at 390: every legend item must end
    # inside the component's width.
    page.set_viewport_size(size)
    open_app(page, f"{app_url}/Game_tree?{LEDUC}&node=5")
    wait_tree(page)
    cut = timeline_root(page).evaluate("""(root) => {
      const right = root.getBoundingClientRect().right + 0.5, legend = root.querySelector('.tl-legend');
      return [...legend.children].filter((e) => e.getBoundingClientRect().right > right).map((e) => e.textContent)
        .concat(legend.scrollWidth > legend.clientWidth + 0.5 ? ['(legend overflows)'] : []); }""")
    assert cut == []
    assert page.get_by_text("Edge width: probability of the action.").first.is_visible()


def test_the_edge_width_choice_goes_to_the_server_once_and_stays_after_its_rerun(page, app_url: str) -> None:
    # The choice is a state value the share link can carry: choosing "current" reruns the script
    # once, and the header that rerun sends back keeps "current" (it never flips back).
    # Reference: the run solved here; at t = 40 edge widths are 1.5 + 9 p (timeline.js drawTree)
    # with p the current strategy of the edge's action.
    run = cfrviz.solve("kuhn", "cfr", iterations=200, updates="simultaneous")
    open_app(page, f"{app_url}/Game_tree?{KUHN}&t=40")
    wait_tree(page)
    page.evaluate(WATCH_RUNS)
    page.get_by_label("current", exact=True).first.check()
    page.wait_for_function("() => window.__scriptRuns === 1", timeout=RENDER_TIMEOUT_MS)
    page.wait_for_selector(APP_IDLE, timeout=RENDER_TIMEOUT_MS)
    assert page.get_by_label("current", exact=True).first.is_checked()
    assert page.evaluate("window.__scriptRuns") == 1
    tree = run.tree
    jq = tree.node_label.index("JQ")
    bet = tree.node_label.index("JQ b")
    p = run.current_strategy[run.snapshot_at(40), tree.infoset[jq], 1]
    assert abs(p - run.average_strategy[run.snapshot_at(40), tree.infoset[jq], 1]) > 0.05   # the two differ here
    width = page.locator(".tl").first.evaluate(
        f"""(root) => {{ const b = root.querySelector('.tl-node[data-node="{bet}"] rect').getBoundingClientRect();
          const lines = [...root.querySelectorAll('.tl-tree line')];
          const into = lines.find((l) => Math.abs(l.getBoundingClientRect().right - b.left) < 2 &&
                                          Math.abs(l.getBoundingClientRect().bottom - (b.top + b.height / 2)) < 3);
          return Number(into.getAttribute('stroke-width')); }}""")
    assert width == pytest.approx(1.5 + 9 * p, abs=0.01)


def test_the_game_tree_draws_a_set_whole_when_asked_and_best_response_does_not_offer_it(page, app_url: str) -> None:
    # Reference: cfrviz.tree.parts' card views, by hand. Player 2's set "Q k" holds JQ k, QQ k and KQ k;
    # the part "player 1 holds Q" draws QQ k only, so the inspector offers that set drawn whole, and the
    # Game tree redraws it as player 2's card view ("player 2 holds Q": all three histories drawn). Best
    # response draws parts but cannot redraw one on demand, and neither can a file: there the button
    # did nothing before it was offered only where a page draws it.
    tree = cfrviz.compile_game("leduc")
    nodes = [tree.node_label.index(label) for label in ("JQ k", "QQ k", "KQ k")]
    whole = ".tl-inspector .tl-chip"
    open_app(page, f"{app_url}/Game_tree?{LEDUC}&node=5")
    wait_tree(page)
    page.locator(f'.tl-node[data-node="{nodes[1]}"]').first.click()
    page.locator(".tl-inspector h4", has_text=f"Node {nodes[1]}: QQ k").first.wait_for(timeout=RENDER_TIMEOUT_MS)
    page.wait_for_selector(APP_IDLE, timeout=RENDER_TIMEOUT_MS)
    page.locator(whole, has_text="Draw this set whole").first.click()
    page.get_by_text("showing player 2 holds Q").first.wait_for(timeout=RENDER_TIMEOUT_MS)
    for node in nodes:
        page.locator(f'.tl-node[data-node="{node}"]').first.wait_for(timeout=RENDER_TIMEOUT_MS)
    assert page.locator(whole, has_text="Draw this set whole").count() == 0   # the set is whole now

    # Best response's first part is "player 1 holds J": player 2's "J k" is drawn there as JJ k only.
    jj_k = tree.node_label.index("JJ k")
    open_app(page, f"{app_url}/Best_response?{LEDUC}")
    wait_tree(page)
    page.locator(f'.tl-node[data-node="{jj_k}"]').first.click()
    page.locator(".tl-inspector h4", has_text=f"Node {jj_k}: JJ k").first.wait_for(timeout=RENDER_TIMEOUT_MS)
    assert page.locator(whole, has_text="Draw this set whole").count() == 0


# The text of the element with the keyboard focus, looking into shadow roots.
FOCUSED_TEXT = """() => {
  let a = document.activeElement;
  while (a && a.shadowRoot && a.shadowRoot.activeElement) a = a.shadowRoot.activeElement;
  return a ? (a.innerText || a.textContent || '').trim() : '';
}"""


def test_the_game_trees_inspector_points_to_lock_this_set_and_best_response_does_not(page, app_url: str) -> None:
    # Reference: Kuhn's tree (cfrviz.tree): the root deals (chance: no set to lock), and "QK kb" is player 1's
    # history in the set "Q kb" (fold, call). The Game tree's lock editor (cfrviz.app.locks) opens as
    # "Lock this set: Q kb" for the set the inspector's button names, with the keyboard focus on its first
    # control, "Always fold". Best response has no lock editor, so its inspector points to none. Before,
    # no inspector pointed to the editor.
    tree = cfrviz.compile_game("kuhn")
    node = tree.node_label.index("QK kb")
    infoset = tree.infosets[int(tree.infoset[node])]
    assert (infoset.key, infoset.actions) == ("Q kb", ("fold", "call"))
    pointer = page.get_by_test_id("timeline-lock-ask")
    open_app(page, f"{app_url}/Game_tree?{KUHN}&node=0")
    wait_tree(page)
    page.locator(".tl-inspector h4", has_text="Node 0:").first.wait_for(timeout=RENDER_TIMEOUT_MS)
    assert pointer.count() == 0
    page.locator(f'.tl-node[data-node="{node}"]').first.click()
    page.locator(".tl-inspector h4", has_text=f"Node {node}: QK kb").first.wait_for(timeout=RENDER_TIMEOUT_MS)
    assert "press L on its node" in pointer.first.inner_text()
    page.wait_for_selector(APP_IDLE, timeout=RENDER_TIMEOUT_MS)
    pointer.first.get_by_role("button", name="Lock this set").click()
    page.get_by_text("Lock this set: Q kb").first.wait_for(timeout=RENDER_TIMEOUT_MS)
    page.wait_for_function(f"() => ({FOCUSED_TEXT})() === 'Always fold'", timeout=RENDER_TIMEOUT_MS)
    page.wait_for_selector(APP_IDLE, timeout=RENDER_TIMEOUT_MS)

    open_app(page, f"{app_url}/Best_response?{KUHN}")
    wait_tree(page)
    page.locator(f'.tl-node[data-node="{node}"]').first.click()
    page.locator(".tl-inspector h4", has_text=f"Node {node}: QK kb").first.wait_for(timeout=RENDER_TIMEOUT_MS)
    assert pointer.count() == 0
