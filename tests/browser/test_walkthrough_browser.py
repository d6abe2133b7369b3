"""The Walkthrough page in a real browser: one iteration stepped on the timeline, client-side.

References: the iteration worked by hand (chance sampling deals Q vs K from uniform, Kuhn: 15
steps; step 4 is the terminal QK kk; the first update is at Q kb, step 8, adding +0.25 / -0.25 to
its regret sum, while K b is updated only at step 13); Kuhn's and Leduc's trees as compiled
(cfrviz.tree) for node ids; the viewport for what is on the screen; and Streamlit's own script
state for reruns (tests.support.browser.WATCH_RUNS).
"""
from __future__ import annotations

import pytest
from tests.support.browser import (APP_IDLE, RENDER_TIMEOUT_MS, REPORT_DELAY_MS, SIZES, WATCH_RUNS, open_app,
                                   presses_in_one_task)
from tests.support.drawing import LABEL_BOXES, overlaps

import cfrviz

pytestmark = pytest.mark.browser

KUHN_QK = "walk_game=kuhn&walk_algo=chance&walk_deal=QK"
LEDUC_CFR = "walk_game=leduc&walk_algo=cfr&walk_updates=simultaneous"
def step_label(page) -> tuple[int, int]:
    text = page.get_by_test_id("timeline-t").first.inner_text()   # "Step 4 of 15 · terminal QK kk"
    words = text.replace(",", "").split()
    return int(words[1]), int(words[3])


# A server's first visit may compile the solvers' kernels, and Leduc's trace is built once: allow more
# than a render for the page to open.
OPEN_MS = 6 * RENDER_TIMEOUT_MS


def wait_walk(page) -> None:
    page.locator(".tl-walk .tl-tree svg").first.wait_for(state="visible", timeout=OPEN_MS)
    page.wait_for_selector(APP_IDLE, timeout=OPEN_MS)


# The ring drawn thickest (the step's node itself) and the node it should be around.
RING = """(root, node) => {
  const ring = [...root.querySelectorAll('.tl-tree .tl-ring')].find((r) => r.getAttribute('stroke-width') === '4');
  const shape = root.querySelector(`.tl-node[data-node="${node}"] rect, .tl-node[data-node="${node}"] path`);
  if (!ring || !shape) return null;
  const a = ring.getBoundingClientRect(), b = shape.getBoundingClientRect();
  return {dx: (a.left + a.width / 2) - (b.left + b.width / 2), dy: (a.top + a.height / 2) - (b.top + b.height / 2),
          path: root.querySelectorAll('.tl-tree .wt-path line').length};
}"""


def row_of(page, key: str) -> dict:
    return page.locator(".tl-walk").first.evaluate("""(root, key) => {
      const r = [...root.querySelectorAll('.wt-table tbody tr')].find((tr) => tr.dataset.set === key);
      const td = [...r.querySelectorAll('td')].map((c) => c.textContent);
      return {state: r.dataset.state, regretAfter: td[5], sumAfter: td[7], next: td[8],
              current: r.classList.contains('wt-current'), hidden: r.hidden}; }""", key)


def test_arrow_keys_step_in_the_browser_and_the_pause_puts_the_step_in_the_link(page, app_url: str) -> None:
    tree = cfrviz.compile_game("kuhn")
    open_app(page, f"{app_url}/Walkthrough?{KUHN_QK}", timeout_ms=OPEN_MS)
    wait_walk(page)
    assert step_label(page) == (1, 15)
    root = page.locator(".tl-walk").first
    page.evaluate(WATCH_RUNS)
    drawing = page.locator(".tl-walk .tl-tree svg").first
    drawing.click(position={"x": 3, "y": 3})
    labels, pressed = presses_in_one_task(drawing, ["ArrowRight"] * 6,
                                          """(root) => root.querySelector('[data-testid="timeline-t"]').innerText""")
    assert [int(text.replace(",", "").split()[1]) for text in labels] == [2, 3, 4, 5, 6, 7]
    assert page.evaluate("window.__scriptRuns") == 0, "a key step reran the script"
    # Step 7 is the terminal QK kbc: the ring is around that node, and the path to it is 4 edges
    # (the deal, check, bet, call).
    where = root.evaluate(RING, tree.node_label.index("QK kbc"))
    assert where is not None and abs(where["dx"]) < 1 and abs(where["dy"]) < 1 and where["path"] == 4, where
    assert page.get_by_test_id("walk-card").first.locator("h4").inner_text() == "Terminal · QK kbc"
    # After the pause the server learns the step once, and the link carries it.
    page.wait_for_function("() => new URLSearchParams(location.search).get('walk_step') === '7'",
                           timeout=RENDER_TIMEOUT_MS)
    page.wait_for_selector(APP_IDLE, timeout=RENDER_TIMEOUT_MS)
    assert page.evaluate("window.__scriptRuns") == 1
    assert page.evaluate("window.__scriptRunStarts[0]") - pressed >= REPORT_DELAY_MS, "the step was told before the pause"
    assert step_label(page)[0] == 7
    share = page.locator('[data-testid="stSidebar"] [data-testid="stCode"]').first
    assert "walk_step=7" in share.inner_text()
    # N jumps to the next update (the return at Q kb), P back to the step before it had none.
    page.keyboard.press("n")
    assert step_label(page)[0] == 8
    card = page.get_by_test_id("walk-return").first
    assert card.locator("tr", has_text="+ regret sum").first.locator("td").all_inner_texts()[1:] == ["+0.2500", "−0.2500"]
    page.keyboard.press("p")
    assert step_label(page)[0] == 1


def test_sets_not_yet_updated_are_pending_never_their_old_values(page, app_url: str) -> None:
    open_app(page, f"{app_url}/Walkthrough?{KUHN_QK}", timeout_ms=OPEN_MS)
    wait_walk(page)
    # Only the four sets on the deal change; at step 1 all of them are pending.
    visible = page.locator(".wt-table tbody tr:not([hidden])")
    assert sorted(visible.evaluate_all("(rows) => rows.map((r) => r.dataset.set)")) == ["K b", "K k", "Q", "Q kb"]
    for key in ("Q", "Q kb", "K k", "K b"):
        row = row_of(page, key)
        assert row["state"] == "pending" and row["regretAfter"] == row["sumAfter"] == row["next"] == "pending", row
    page.locator(".tl-walk .tl-tree svg").first.click(position={"x": 3, "y": 3})
    page.keyboard.press("n")                         # step 8: the return at Q kb
    q_kb, k_b = row_of(page, "Q kb"), row_of(page, "K b")
    assert q_kb["state"] == "final" and q_kb["regretAfter"] == "+0.2500 / −0.2500" and q_kb["current"]
    assert k_b["state"] == "pending" and k_b["regretAfter"] == "pending"
    page.keyboard.press("End")
    assert row_of(page, "K b")["regretAfter"] == "−0.7500 / +0.7500"   # by hand: K b -0.75 / +0.75


def test_a_click_on_a_node_goes_to_its_visit(page, app_url: str) -> None:
    tree = cfrviz.compile_game("kuhn")
    node = tree.node_label.index("QK b")
    open_app(page, f"{app_url}/Walkthrough?{KUHN_QK}", timeout_ms=OPEN_MS)
    wait_walk(page)
    page.evaluate(WATCH_RUNS)
    page.locator(f'.tl-walk .tl-node[data-node="{node}"]').first.click()
    assert step_label(page)[0] == 10          # 1 chance, 4 + 5 steps under "check", then the visit of QK b
    assert page.get_by_test_id("walk-card").first.locator("h4").inner_text() == "Visit · QK b"
    reach = page.get_by_test_id("walk-reach").first.locator("tbody td").all_inner_texts()
    assert reach == ["reach passed down", "0.5000", "1.0000", "0.1667"]   # player 1 bet with 1/2 after the 1/6 deal


def test_the_deep_link_opens_step_4(page, app_url: str) -> None:
    open_app(page, f"{app_url}/Walkthrough?{KUHN_QK}&walk_step=4", timeout_ms=OPEN_MS)
    wait_walk(page)
    assert step_label(page) == (4, 15)
    assert page.get_by_test_id("walk-card").first.locator("h4").inner_text() == "Terminal · QK kk"


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("query", ["walk_game=kuhn&walk_algo=cfr&walk_step=40", LEDUC_CFR + "&walk_step=600"],
                         ids=["kuhn", "leduc"])
def test_tree_labels_are_legible_and_never_overlap(page, app_url: str, query: str, size: dict) -> None:
    page.set_viewport_size(size)
    open_app(page, f"{app_url}/Walkthrough?{query}", timeout_ms=OPEN_MS)
    wait_walk(page)
    for key in ("Home", "ArrowRight", "n", "n", "End"):
        boxes = page.evaluate(LABEL_BOXES)
        assert len(boxes) >= 10, boxes
        assert min(b["size"] for b in boxes) >= 14
        assert overlaps(boxes) == []
        page.locator(".tl-walk").first.focus()
        page.keyboard.press(key)
    # The step card is on the screen and within its width.
    card = page.get_by_test_id("walk-card").first.bounding_box()
    assert card["x"] >= 0 and card["x"] + card["width"] <= size["width"] + 0.5


@pytest.mark.parametrize("size", [SIZES[1], SIZES[2]])
def test_the_leduc_table_is_not_clipped(page, app_url: str, size: dict) -> None:
    # Leduc's vanilla CFR changes all 288 sets: every column fits the table's box, none is cut.
    page.set_viewport_size(size)
    open_app(page, f"{app_url}/Walkthrough?{LEDUC_CFR}&walk_step=600", timeout_ms=OPEN_MS)
    wait_walk(page)
    fit = page.locator(".tl-walk").first.evaluate("""(root) => {
      const box = root.querySelector('.wt-sets-scroll'), table = box.querySelector('table');
      const right = root.getBoundingClientRect().right + 0.5;
      const heads = [...table.querySelectorAll('th')].filter((th) => th.getBoundingClientRect().right > right);
      return {table: table.scrollWidth, box: box.clientWidth, rows: table.querySelectorAll('tbody tr:not([hidden])').length,
              cut: heads.map((th) => th.textContent)}; }""")
    assert fit["rows"] == 288 and fit["cut"] == [] and fit["table"] <= fit["box"], fit
