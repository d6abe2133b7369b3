"""The Game tree by keyboard alone, in a real browser: Tab into the tree, arrows between nodes,
Enter selects, L opens "Lock this set", and the set is locked without a mouse.

References: Kuhn's tree (cfrviz.tree: the root deals, each deal is player 1's node, each of its
children player 2's); `cfrviz.analysis.inspector.frame_numbers` for the numbers the inspector
must show at that t and node (the run solved here in the test process with the page's settings);
the bounding box of Streamlit's sticky header for "not hidden under it".
"""
from __future__ import annotations

import math

import pytest
from tests.support.browser import APP_IDLE, RENDER_TIMEOUT_MS, open_app, t_label, wait_tree
from tests.support.drawing import overlaps

import cfrviz
from cfrviz.analysis.inspector import frame_numbers

pytestmark = pytest.mark.browser

KUHN = "game=kuhn&algo=cfr&iters=200&updates=simultaneous"

# The focused element, looking into shadow roots: its tag, classes, node id and text.
FOCUSED = """() => {
  let a = document.activeElement;
  while (a && a.shadowRoot && a.shadowRoot.activeElement) a = a.shadowRoot.activeElement;
  if (!a) return null;
  return { tag: a.tagName, cls: String(a.className?.baseVal ?? a.className ?? ''), node: a.dataset?.node ?? null,
           text: (a.innerText || a.textContent || '').trim().slice(0, 80) };
}"""

# The focused element's box and the bottom of Streamlit's sticky header.
FOCUS_BOX = """() => {
  let a = document.activeElement;
  while (a && a.shadowRoot && a.shadowRoot.activeElement) a = a.shadowRoot.activeElement;
  const r = a.getBoundingClientRect();
  const h = document.querySelector('[data-testid="stHeader"]').getBoundingClientRect();
  return { top: r.top, bottom: r.bottom, header: h.bottom, height: innerHeight };
}"""


def focused(page) -> dict:
    return page.evaluate(FOCUSED)


def tab_until(page, wanted, limit: int = 200) -> dict:
    """Press Tab until `wanted(focused)` holds (at most `limit` presses)."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        now = focused(page)
        if now and wanted(now):
            return now
    raise AssertionError(f"Tab never reached it; focus ended on {focused(page)}")


def _node_number(text: str) -> float:
    return float(text.replace("−", "-"))


def test_a_keyboard_selects_a_node_reads_its_numbers_and_locks_its_set(page, app_url: str) -> None:
    run = cfrviz.solve("kuhn", "cfr", iterations=200, updates="simultaneous")
    tree = run.tree
    open_app(page, f"{app_url}/Game_tree?{KUHN}&t=5")
    wait_tree(page)
    assert t_label(page) == 5

    # Tab reaches the tree: one tab stop, the root (chance deals).
    first = tab_until(page, lambda f: "tl-node" in f["cls"])
    assert int(first["node"]) == 0
    # → to a deal (player 1's node), → to player 2's node below it, ↓ to the next node in that column.
    page.keyboard.press("ArrowRight")
    deal = int(focused(page)["node"])
    assert int(tree.parent[deal]) == 0 and int(tree.actor[deal]) == 0
    page.keyboard.press("ArrowRight")
    node = int(focused(page)["node"])
    assert int(tree.parent[node]) == deal and int(tree.actor[node]) == 1
    page.keyboard.press("ArrowLeft")
    assert int(focused(page)["node"]) == deal
    page.keyboard.press("ArrowRight")
    assert int(focused(page)["node"]) == node
    # Arrows on the tree do not step time.
    assert t_label(page) == 5

    # Enter selects: the inspector shows that node's set and its numbers at t.
    page.keyboard.press("Enter")
    page.locator(".tl-inspector h4", has_text=f"Node {node}:").first.wait_for(timeout=RENDER_TIMEOUT_MS)
    infoset = int(tree.infoset[node])
    key = tree.infosets[infoset].key
    assert key in page.locator(".tl-inspector").first.inner_text()
    numbers = frame_numbers(run, [int(run.snapshot_at(5))], nodes=[node], sets=[infoset])
    reach = page.locator(".tl-inspector .tl-reach b").all_inner_texts()
    assert _node_number(reach[0]) == pytest.approx(numbers["own_reach"][0, 0], abs=5.01e-5)
    assert _node_number(reach[1]) == pytest.approx(numbers["opponent_chance_reach"][0, 0], abs=5.01e-5)
    for row, name, tolerance in (("average strategy", "average_strategy", 5.01e-4),
                                 ("cumulative regret", "cumulative_regret", 5.01e-5)):
        cells = page.locator(".tl-inspector tr", has_text=row).first.locator("td")
        for a in range(len(tree.infosets[infoset].actions)):
            want = float(numbers[name][0, 0, a])
            assert math.isfinite(want)
            assert _node_number(cells.nth(1 + a).inner_text()) == pytest.approx(want, abs=tolerance), (row, a)
    # The host heard `node` as from a click: the link carries it.
    page.wait_for_function(f"() => new URLSearchParams(location.search).get('node') === '{node}'",
                           timeout=RENDER_TIMEOUT_MS)
    page.wait_for_selector(APP_IDLE, timeout=RENDER_TIMEOUT_MS)

    # , and . step time from the tree.
    page.keyboard.press(".")
    assert t_label(page) > 5

    # L opens "Lock this set" for the focused node's set, and the keyboard focus goes to the editor's
    # first control ("Always check": the set is unlocked, so no "Unlock" comes first). Before, it
    # stayed on the tree node, a whole inspector's worth of Tab presses away.
    page.keyboard.press("l")
    lock_button = page.get_by_role("button", name="Always check").first
    lock_button.wait_for(state="visible", timeout=RENDER_TIMEOUT_MS)
    assert page.get_by_text(f"Lock this set: {key}").first.is_visible()
    page.wait_for_function(f"() => {{ const f = ({FOCUSED})(); return !!f && f.tag === 'BUTTON' && "
                           "f.text === 'Always check'; }", timeout=RENDER_TIMEOUT_MS)
    page.wait_for_selector(APP_IDLE, timeout=RENDER_TIMEOUT_MS)
    now = focused(page)
    assert now is not None and (now["tag"], now["text"]) == ("BUTTON", "Always check"), now

    # Lock it by keyboard: Enter, right there.
    page.keyboard.press("Enter")
    page.wait_for_function(f"() => (new URLSearchParams(location.search).get('lock') || '').includes('{key}')",
                           timeout=RENDER_TIMEOUT_MS)
    page.locator(f'.tl-node[data-node="{node}"] .tl-lock').first.wait_for(state="attached", timeout=RENDER_TIMEOUT_MS)


def test_a_focused_node_and_the_play_button_are_never_under_the_sticky_header(page, app_url: str) -> None:
    # Reference: the header's own bounding box; a focused element's top must be below its bottom.
    open_app(page, f"{app_url}/Game_tree?{KUHN}")
    wait_tree(page)
    # Scrolled so that the timeline's top is under the header, as after reading the rules.
    page.locator(".tl-legend").first.scroll_into_view_if_needed()
    tab_until(page, lambda f: f["tag"] == "BUTTON" and f["text"] == "▶")
    box = page.evaluate(FOCUS_BOX)
    assert box["top"] >= box["header"], box
    tab_until(page, lambda f: "tl-node" in f["cls"])
    for _ in range(4):
        page.keyboard.press("ArrowRight")
    for key in ("ArrowUp",) * 12 + ("ArrowLeft",) * 4:
        page.keyboard.press(key)
        box = page.evaluate(FOCUS_BOX)
        assert box["top"] >= box["header"] and box["bottom"] <= box["height"], (key, box)


def test_the_tree_has_a_title_and_a_table_of_its_sets_at_t(page, app_url: str) -> None:
    # Reference: the run's own average strategy at t (shown to 2 decimals); "QK kb" is player 1's (check, bet, then 1 acts);
    # one row per decision history.
    run = cfrviz.solve("kuhn", "cfr", iterations=200, updates="simultaneous")
    open_app(page, f"{app_url}/Game_tree?{KUHN}&t=9")
    wait_tree(page)
    title = page.locator(".tl-tree svg > title").first.text_content()
    assert "game tree" in title and "L lock this set" in title
    rows = page.locator('[data-testid="timeline-tree-table"] tbody tr')
    assert rows.count() == sum(1 for n in range(run.tree.num_nodes) if run.tree.infoset[n] >= 0)
    node = run.tree.node_label.index("QK kb")
    s = int(run.tree.infoset[node])
    cells = page.locator(f'[data-testid="timeline-tree-table"] tr[data-node="{node}"] td').all_text_contents()
    average = run.average_strategy[run.snapshot_at(9), s]
    want = ", ".join(f"{name} {p:.2f}".replace(" 0.", " .").replace(" 1.00", " 1")
                     for name, p in zip(run.tree.infosets[s].actions, average))
    assert cells == [run.tree.infosets[s].key, "player 1", want], cells
    page.get_by_role("button", name="Show as a table").first.press("Enter")
    page.locator('[data-testid="timeline-tree-table"]').first.wait_for(state="visible", timeout=RENDER_TIMEOUT_MS)


# Each edge label's box, and the boxes of every node's shape, in page pixels (through shadow roots);
# and, at a grid of points over each label, what is painted on top there.
EDGE_LABELS = """() => {
  const find = (node) => node.querySelector ? (node.querySelector('.tl-tree svg') ||
      [...node.querySelectorAll('*')].map(e => e.shadowRoot && find(e.shadowRoot)).find(Boolean)) : null;
  const svg = find(document), doc = svg.getRootNode();
  const box = (e, text) => { const r = e.getBoundingClientRect(); return {text, x: r.x, y: r.y, w: r.width, h: r.height}; };
  const labels = [...svg.querySelectorAll('text.tl-edge-label')].map(t => box(t, t.textContent));
  const shapes = [...svg.querySelectorAll('.tl-node')].map(g => box(g.querySelector('rect:not(.tl-focus-ring), path'), 'node ' + g.dataset.node));
  // An edge runs through a label when a point of its painted stroke lies in the label's box,
  // unless an opaque chip drawn after the edges covers the whole box.
  const lines = [...svg.querySelectorAll('line')].map(e => {
    const m = e.getScreenCTM(), w = parseFloat(e.getAttribute('stroke-width') || '1') / 2;
    const at = (n) => { const p = svg.createSVGPoint(); p.x = +e.getAttribute('x' + n); p.y = +e.getAttribute('y' + n); return p.matrixTransform(m); };
    return { a: at(1), b: at(2), w };
  });
  const onTop = [];
  [...svg.querySelectorAll('text.tl-edge-label')].forEach((t, i) => {
    const l = labels[i], chip = t.previousElementSibling;
    if (chip && chip.classList.contains('tl-edge-chip')) {
      const c = chip.getBoundingClientRect();
      if (c.x <= l.x + 1 && c.y <= l.y + 2 && c.right >= l.x + l.w - 1 && c.bottom >= l.y + l.h - 2) return;
      onTop.push(['chip', l, c.x, c.y, c.right, c.bottom]);
    }
    for (const { a, b, w } of lines) for (let j = 0; j <= 60; j++) {
      const x = a.x + (b.x - a.x) * j / 60, y = a.y + (b.y - a.y) * j / 60;
      if (x > l.x - w && x < l.x + l.w + w && y > l.y + 2 - w && y < l.y + l.h - 2 + w) { onTop.push(l.text); return; }
    }
  });
  return { labels, shapes, onTop };
}"""


@pytest.mark.parametrize("game", ["kuhn", "leduc"])
def test_edge_labels_are_clear_of_pills_and_edges(page, app_url: str, game: str) -> None:
    # Defect 9. Reference: the drawing's own geometry at 1,280×800: no label box meets a node's
    # shape or another label, and no edge's painted stroke runs through a label's box uncovered.
    page.set_viewport_size({"width": 1280, "height": 800})
    open_app(page, f"{app_url}/Game_tree?game={game}&algo=cfr&iters=200")
    wait_tree(page)
    drawn = page.evaluate(EDGE_LABELS)
    assert drawn["labels"]
    assert overlaps(drawn["labels"], drawn["shapes"]) == []
    assert overlaps(drawn["labels"]) == []
    assert drawn["onTop"] == []
