"""Node locking on the Game tree, in a real browser: the padlock on locked sets, the rings round
the sets that moved from the unlocked run, and both in the SVG and PNG downloads.

References: Kuhn's tree in breadth-first ids (root 0, deals JQ JK QJ QK KJ KQ = 1-6, so player 1's
set "J" is the histories 1 and 2); the locks as written; the "moved" column of the locked-vs-unlocked
table, `cfrviz.analysis.locks.lock_effect` on the same two runs solved here; the payload's threshold
`MOVED_AT_LEAST`; the viewport for what is on the screen; the SVG and PNG formats.
"""
from __future__ import annotations

import base64
import itertools
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from tests.support.browser import APP_IDLE, RENDER_TIMEOUT_MS, SIZES, WATCH_RUNS, wait_for_app
from tests.support.drawing import luminance, overlaps, rgb

import cfrviz
from cfrviz.analysis.locks import lock_effect
from cfrviz.figures.timeline import MOVED_AT_LEAST, frame_snapshots, lock_comparison
from cfrviz.tree.locks import Locks

pytestmark = pytest.mark.browser

SETTINGS = {"algo": "cfr+", "iters": "2000", "updates": "alternating"}
QUERY = "game=kuhn&algo=cfr%2B&iters=2000&updates=alternating"
SVG_NS = "{http://www.w3.org/2000/svg}"
SHACKLE = "a2.5,2.5 0 0 1 5,0"   # the padlock's arc (timeline.js `padlock`)


def solved(lock: str) -> tuple[cfrviz.Run, cfrviz.Run]:
    """(locked, unlocked) runs with the page's settings, as the page solves them."""
    kwargs = {"iterations": int(SETTINGS["iters"]), "updates": SETTINGS["updates"]}
    return (cfrviz.solve("kuhn", SETTINGS["algo"], locks=Locks.parse(lock), **kwargs),
            cfrviz.solve("kuhn", SETTINGS["algo"], **kwargs))


# A locked page solves twice (with and without the locks) before it draws: allow it three first renders.
FIRST_RENDER_MS = 3 * RENDER_TIMEOUT_MS


def open_locked(page, app_url: str, lock: str, extra: str = "") -> None:
    page.goto(f"{app_url}/Game_tree?{QUERY}&lock={lock.replace('=', '%3D').replace(',', '%2C')}{extra}",
              timeout=FIRST_RENDER_MS)
    wait_for_app(page, timeout_ms=FIRST_RENDER_MS)
    page.locator(".tl-tree svg").first.wait_for(state="visible", timeout=FIRST_RENDER_MS)
    page.wait_for_selector(APP_IDLE, timeout=FIRST_RENDER_MS)


LOCKED_NODES = """(root) => [...root.querySelectorAll('.tl-tree .tl-node')]
  .filter((g) => g.querySelector('.tl-lock')).map((g) => Number(g.dataset.node))"""

RINGS = """(root) => [...root.querySelectorAll('.tl-tree .tl-moved')].filter((r) => r.dataset.moved !== undefined)
  .map((r) => ({node: Number(r.dataset.node), moved: Number(r.dataset.moved), stroke: getComputedStyle(r).stroke}))"""


@pytest.mark.parametrize("lock", ["J=0,1", "J=0,1;J b=0,1"])
def test_the_padlock_is_on_exactly_the_locked_sets_nodes_and_the_inspector_shows_the_lock(
        page, app_url: str, lock: str) -> None:
    tree = cfrviz.compile_game("kuhn")
    open_locked(page, app_url, lock, "&node=1")
    expected = sorted(int(h) for key in Locks.parse(lock) for h in tree.nodes_of(tree.infoset_index(key)))
    assert sorted(page.locator(".tl").first.evaluate(LOCKED_NODES)) == expected
    assert expected[:2] == [1, 2]                       # "J" is the deals JQ and JK
    note = page.get_by_test_id("timeline-lock").first
    note.wait_for(state="visible", timeout=RENDER_TIMEOUT_MS)
    assert "Locked: check 0.000, bet 1.000." in note.inner_text()
    assert page.get_by_test_id("timeline-lock-legend").first.is_visible()
    # A free set's inspector has no lock.
    free = tree.node_label.index("QK")
    page.locator(f'.tl-node[data-node="{free}"]').first.click()
    page.locator(".tl-inspector h4", has_text=f"Node {free}: QK").first.wait_for(timeout=RENDER_TIMEOUT_MS)
    assert page.get_by_test_id("timeline-lock").count() == 0


def test_the_rings_mark_the_sets_that_moved_as_the_table_says_and_follow_t_without_a_rerun(page, app_url: str) -> None:
    lock = "J=0,1"
    locked, unlocked = solved(lock)
    tree = locked.tree
    effect = lock_effect(unlocked, locked, Locks.parse(lock))           # the table's "moved" column
    open_locked(page, app_url, lock)
    rings = page.locator(".tl").first.evaluate(RINGS)
    by_node = {r["node"]: r for r in rings}
    # Exactly the histories of the sets that moved at least MOVED_AT_LEAST are ringed, with the table's number.
    moved_sets = [i for i in range(tree.num_infosets) if effect.change[i] >= MOVED_AT_LEAST]
    assert sorted(by_node) == sorted(int(h) for i in moved_sets for h in tree.nodes_of(i))
    for node, ring in by_node.items():
        assert ring["moved"] == pytest.approx(effect.change[tree.infoset[node]], abs=1e-3)
    # Darker for a larger move: the set that moved most has the darkest ring.
    ordered = sorted(rings, key=lambda r: r["moved"])
    shades = [luminance(rgb(r["stroke"])) for r in ordered]
    assert all(a >= b - 1e-9 for a, b in itertools.pairwise(shades))
    most = max(range(tree.num_infosets), key=lambda i: effect.change[i])
    assert ordered[-1]["node"] in tree.nodes_of(most).tolist()
    assert shades[0] - shades[-1] > 0.1                               # a visible difference, not a flat colour
    # Home shows iteration 1 in the browser alone: the rings are the comparison at that frame.
    page.evaluate(WATCH_RUNS)
    page.locator(".tl-slider").first.focus()
    page.keyboard.press("Home")
    rings_one = page.locator(".tl").first.evaluate(RINGS)
    assert page.evaluate("window.__scriptRuns") == 0          # read before the server hears t (300 ms later)
    first = lock_comparison(locked, unlocked)
    at_one = {key: first["moved"][0][s] for s, key in enumerate(first["keys"])}
    assert sorted(r["node"] for r in rings_one) == sorted(
        int(h) for key, v in at_one.items() if v >= MOVED_AT_LEAST for h in tree.nodes_of(tree.infoset_index(key)))
    for ring in rings_one:
        assert ring["moved"] == pytest.approx(at_one[tree.infosets[tree.infoset[ring["node"]]].key], abs=1e-4)
    assert int(locked.iterations[frame_snapshots(locked.iterations)[0]]) == 1


def test_the_inspector_shows_both_runs_average_and_the_move(page, app_url: str) -> None:
    lock = "J=0,1"
    locked, unlocked = solved(lock)
    tree = locked.tree
    node = tree.node_label.index("JQ b")                               # player 2's set "Q b"
    q_b = tree.infoset[node]
    effect = lock_effect(unlocked, locked, Locks.parse(lock))
    open_locked(page, app_url, lock, f"&node={node}")
    row = page.locator(".tl-inspector tr", has_text="unlocked run's average").first
    row.wait_for(state="visible", timeout=RENDER_TIMEOUT_MS)
    cells = [float(row.locator("td").nth(1 + a).inner_text()) for a in range(2)]
    assert cells == pytest.approx(effect.unlocked_strategy[q_b], abs=6e-4)
    moved = page.get_by_test_id("timeline-moved").first.locator("b").inner_text()
    assert float(moved) == pytest.approx(effect.change[q_b], abs=6e-4)


TEXTS = """(root) => [...root.querySelectorAll('svg text, .tl-legend span, .tl-inspector *')]
  .filter((t) => t.childNodes.length && [...t.childNodes].some((c) => c.nodeType === 3 && c.textContent.trim()))
  .map((t) => ({text: t.textContent, size: parseFloat(getComputedStyle(t).fontSize), visible: t.getClientRects().length > 0}))
  .filter((t) => t.visible)"""

TREE_BOXES = """(root) => {
  const box = (e, text) => { const r = e.getBoundingClientRect(); return {text, x: r.x, y: r.y, w: r.width, h: r.height}; };
  const svg = root.querySelector('.tl-tree svg');
  return {texts: [...svg.querySelectorAll('text')].filter((t) => t.textContent.trim()).map((t) => box(t, t.textContent)),
          locks: [...svg.querySelectorAll('.tl-lock')].map((g) => box(g, 'padlock of ' + g.parentNode.dataset.node)),
          right: root.getBoundingClientRect().right,
          legend: [...root.querySelectorAll('.tl-legend > *')].map((e) => box(e, e.textContent))};
}"""


@pytest.mark.parametrize("size", SIZES)
def test_padlocks_rings_and_legend_are_legible_and_never_overlap_text(page, app_url: str, size: dict) -> None:
    page.set_viewport_size(size)
    open_locked(page, app_url, "J=0,1;J b=0,1", "&node=1")
    root = page.locator(".tl").first
    shown = root.evaluate(TREE_BOXES)
    assert len(shown["locks"]) == 4 and len(shown["texts"]) >= 30
    assert overlaps(shown["texts"]) == []
    assert overlaps(shown["locks"], shown["texts"]) == []          # a padlock never covers its key or a label
    assert all(item["x"] + item["w"] <= shown["right"] + 0.5 for item in shown["legend"]), shown["legend"]
    assert page.get_by_test_id("timeline-moved-legend").first.is_visible()
    sizes = root.evaluate(TEXTS)
    assert sizes and min(t["size"] for t in sizes) >= 14, [t for t in sizes if t["size"] < 14][:5]
    page.screenshot(path=str(Path("test-results") / f"locks_{size['width']}x{size['height']}.png"))


PNG_PURPLE = """async ([data, colour]) => {
  const bitmap = await createImageBitmap(new Blob([Uint8Array.from(atob(data), (c) => c.charCodeAt(0))], {type: 'image/png'}));
  const canvas = new OffscreenCanvas(bitmap.width, bitmap.height), ctx = canvas.getContext('2d');
  ctx.drawImage(bitmap, 0, 0);
  const px = ctx.getImageData(0, 0, bitmap.width, bitmap.height).data;
  let n = 0;
  for (let i = 0; i < px.length; i += 4)
    if (Math.abs(px[i] - colour[0]) + Math.abs(px[i + 1] - colour[1]) + Math.abs(px[i + 2] - colour[2]) < 12) n += 1;
  return n;
}"""


def test_the_svg_and_png_downloads_keep_the_padlocks_and_the_rings(page, app_url: str) -> None:
    open_locked(page, app_url, "J=0,1", "&node=1")
    root = page.locator(".tl").first
    rings = root.evaluate(RINGS)
    with page.expect_download(timeout=RENDER_TIMEOUT_MS) as info:
        page.get_by_role("button", name="Download SVG").first.click()
    figure = ET.parse(info.value.path()).getroot()
    shackles = [p for p in figure.iter(f"{SVG_NS}path") if SHACKLE in (p.get("d") or "")]
    # Two pills ("J" at JQ and JK), the legend's padlock and the inspector's.
    assert len(shackles) == 2 + 1 + 1
    copied = {int(r.get("data-node")): float(r.get("data-moved")) for r in figure.iter(f"{SVG_NS}rect")
              if r.get("data-moved") is not None}
    assert copied == {r["node"]: pytest.approx(r["moved"]) for r in rings}
    hidden = [r for r in figure.iter(f"{SVG_NS}rect") if r.get("data-node") is not None and r.get("data-moved") is None]
    assert all("stroke:none" in (r.get("style") or "").replace(" ", "") for r in hidden)
    texts = " ".join((t.text or "") for t in figure.iter(f"{SVG_NS}text"))
    assert "Locked: check 0.000, bet 1.000." in texts and "moved from the unlocked run" in texts
    # The PNG paints the darkest ring's colour.
    darkest = max(rings, key=lambda r: r["moved"])
    with page.expect_download(timeout=RENDER_TIMEOUT_MS) as info:
        page.get_by_role("button", name="Download PNG").first.click()
    data = base64.b64encode(Path(info.value.path()).read_bytes()).decode()
    assert page.evaluate(PNG_PURPLE, [data, list(rgb(darkest["stroke"])[:3])]) > 200
