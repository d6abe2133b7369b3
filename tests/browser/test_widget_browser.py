"""The notebook widget in a real notebook host: marimo's app server (`marimo run`) serves a notebook
(tests/browser/notebooks/timeline_widget_app.py) that makes `cfrviz.widget.Timeline` widgets, and
Chromium drives it with every request off this machine blocked.

References: the notebook's own cells (t, node and edge widths set from Python; a line printing what
Python reads back); the timeline's frames for where an arrow key steps (Kuhn with 50 snapshots:
every iteration is a frame, `cfrviz.figures.timeline.frame_snapshots`); the names written in the
.efg file (`tests.support.efg_shapes.myerson_named`) for what the page must show character for
character. The .efg reader drops angle brackets, so the names carry markup as character references
(`&lt;img ...&gt;`): any HTML parsing of a name would turn them into `<img ...>`.
"""
from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import expect
from tests.support.browser import RENDER_TIMEOUT_MS
from tests.support.efg_shapes import myerson_named
from tests.support.notebook import marimo_app

import cfrviz

pytestmark = pytest.mark.browser

NOTEBOOK = Path(__file__).resolve().parent / "notebooks" / "timeline_widget_app.py"
HOSTILE = "&lt;img src=x onerror=window.pwned=1&gt; &lt;b&gt;bold&lt;/b&gt; &amp;"
# A first page waits for marimo's kernel to start and import cfrviz; leave room on a busy machine.
NOTEBOOK_TIMEOUT_MS = 60_000
# The notebook's timelines, in page order: Kuhn at t=10, any view of that run, the stranger's game.
KUHN, ANY_VIEW, STRANGER = range(3)


@pytest.fixture(scope="module")
def stranger_efg(tmp_path_factory: pytest.TempPathFactory) -> Path:
    saved = tmp_path_factory.mktemp("efg") / "stranger.efg"
    saved.write_text(myerson_named(HOSTILE))
    return saved


@pytest.fixture(scope="module")
def notebook_url(stranger_efg: Path) -> Iterator[str]:
    with marimo_app(NOTEBOOK, ("--efg", str(stranger_efg))) as url:
        yield url


def _open(page, url: str) -> list[str]:
    """Open the notebook with every request that leaves 127.0.0.1 aborted; returns the aborted URLs."""
    asked: list[str] = []

    def route(request_route) -> None:
        address = request_route.request.url
        if address.startswith(("http://127.0.0.1", "ws://127.0.0.1", "data:", "blob:")):
            request_route.continue_()
        else:
            asked.append(address)
            request_route.abort()

    page.route("**/*", route)
    page.goto(url, timeout=NOTEBOOK_TIMEOUT_MS)
    page.locator(".tl").nth(STRANGER).locator(".tl-tree svg").wait_for(state="visible", timeout=NOTEBOOK_TIMEOUT_MS)
    return asked


def _python_sees(page, text: str) -> None:
    """Wait until the notebook's read-back line (a cell that reruns when a trait changes) holds `text`."""
    page.get_by_text("Python sees").filter(has_text=text).first.wait_for(timeout=RENDER_TIMEOUT_MS)


def _from_python(page, label: str, value: str) -> None:
    """Type `value` into the notebook's number labelled `label`, whose cell sets a trait from Python."""
    box = page.locator(f'input[aria-label*="{label}"]')
    box.fill(value)
    box.press("Enter")


def test_t_node_and_edge_widths_follow_python_and_the_page(page, notebook_url: str) -> None:
    asked = _open(page, notebook_url)
    kuhn = page.locator(".tl").nth(KUHN)
    label = kuhn.get_by_test_id("timeline-t")
    expect(label).to_have_text("Iteration t = 10 of 50", timeout=RENDER_TIMEOUT_MS)
    _python_sees(page, "t = 10, node = None, kind = average")

    # A key press in the drawing changes the trait Python reads.
    kuhn.focus()
    page.keyboard.press("ArrowRight")
    expect(label).to_have_text("Iteration t = 11 of 50")
    _python_sees(page, "t = 11,")

    # Moving t in Python moves the drawing: the label and the slider.
    _from_python(page, "t from Python", "30")
    expect(label).to_have_text("Iteration t = 30 of 50", timeout=RENDER_TIMEOUT_MS)
    expect(kuhn.locator(".tl-slider")).to_have_value("30")
    # The page moves it on, then Python sets the t it had set before: the drawing follows again.
    again = page.get_by_role("button", name="Set these again from Python")
    kuhn.focus()
    page.keyboard.press("ArrowLeft")
    expect(label).to_have_text("Iteration t = 29 of 50")
    _python_sees(page, "t = 29,")
    again.click()
    expect(label).to_have_text("Iteration t = 30 of 50", timeout=RENDER_TIMEOUT_MS)

    # The node: clicked in the page, then None set again from Python (its input says -1, as it did
    # when the widget was drawn: the header repeats the last one's null, and still clears it).
    run = cfrviz.solve("kuhn", "cfr", iterations=50)
    chosen, clicked = run.tree.node_label.index("QK kb"), run.tree.node_label.index("JQ k")
    heading = kuhn.locator(".tl-inspector h4", has_text="Node ")
    kuhn.locator(f'.tl-node[data-node="{clicked}"]').first.click()
    expect(heading).to_contain_text(f"Node {clicked}: JQ k")
    _python_sees(page, f"node = {clicked},")
    again.click()
    expect(heading).to_have_count(0, timeout=RENDER_TIMEOUT_MS)
    # Chosen in Python, clicked in the page, chosen again in Python, cleared in Python.
    _from_python(page, "node from Python", str(chosen))
    expect(heading).to_contain_text(f"Node {chosen}: QK kb", timeout=RENDER_TIMEOUT_MS)
    kuhn.locator(f'.tl-node[data-node="{clicked}"]').first.click()
    expect(heading).to_contain_text(f"Node {clicked}: JQ k")
    _python_sees(page, f"node = {clicked},")
    again.click()
    expect(heading).to_contain_text(f"Node {chosen}: QK kb", timeout=RENDER_TIMEOUT_MS)
    _from_python(page, "node from Python", "-1")
    expect(heading).to_have_count(0, timeout=RENDER_TIMEOUT_MS)

    # Edge widths: the current strategy chosen in Python, the average one in the page, the current
    # one again from Python.
    current = kuhn.locator('input[type="radio"][value="current"]')
    page.locator("select").filter(has_text="current").first.select_option("current")
    expect(current).to_be_checked(timeout=RENDER_TIMEOUT_MS)
    kuhn.locator('input[type="radio"][value="average"]').check()
    _python_sees(page, "kind = average")
    again.click()
    expect(current).to_be_checked(timeout=RENDER_TIMEOUT_MS)
    assert asked == [], asked


@pytest.mark.parametrize("view", ["evolution", "charts", "convergence", "exploitability", "best_response",
                                  "walkthrough", "tree"])
def test_every_view_steps_and_python_reads_where_it_is(page, notebook_url: str, view: str) -> None:
    # Reference: 50 snapshots, every one a frame; the widget opens at the last (t = 50), the
    # walkthrough at step 1 of iteration 1. One arrow key back (forward in the walkthrough) is one frame.
    asked = _open(page, notebook_url)
    page.locator("select").filter(has_text="walkthrough").first.select_option(view)
    page.get_by_text(f"The {view} view: Python reads").first.wait_for(timeout=RENDER_TIMEOUT_MS)
    timeline = page.locator(".tl").nth(ANY_VIEW)
    label = timeline.get_by_test_id("timeline-t")
    if view == "walkthrough":
        expect(label).to_contain_text("Step 1 of ", timeout=RENDER_TIMEOUT_MS)
        timeline.focus()
        page.keyboard.press("ArrowRight")
        expect(label).to_contain_text("Step 2 of ")
        _python_reads(page, view, "t = 1, step = 2")
    else:
        expect(label).to_have_text("Iteration t = 50 of 50", timeout=RENDER_TIMEOUT_MS)
        timeline.focus()
        page.keyboard.press("ArrowLeft")
        expect(label).to_have_text("Iteration t = 49 of 50")
        _python_reads(page, view, "t = 49, step = 1")
    assert asked == [], asked


def _python_reads(page, view: str, text: str) -> None:
    page.get_by_text(f"The {view} view: Python reads {text}").first.wait_for(timeout=RENDER_TIMEOUT_MS)


FOUND = """(root) => ({
  text: root.textContent,
  images: root.querySelectorAll('img').length,
  bold: [...root.querySelectorAll('*')].filter((e) => e.textContent === 'bold').length,
  pwned: window.pwned === undefined ? 0 : 1,
})"""


def test_a_strangers_names_show_as_written(page, notebook_url: str, stranger_efg: Path) -> None:
    asked = _open(page, notebook_url)
    stranger = page.locator(".tl").nth(STRANGER)
    run = cfrviz.solve(str(stranger_efg), "cfr", iterations=20)
    node = next(n for n in range(1, run.tree.num_nodes) if run.tree.infoset[n] >= 0)
    stranger.locator(f'.tl-node[data-node="{node}"]').first.click()
    key = run.tree.infosets[int(run.tree.infoset[node])].key
    stranger.locator(".tl-inspector h4", has_text=f"Node {node}:").wait_for(timeout=RENDER_TIMEOUT_MS)
    found = stranger.evaluate(FOUND)
    assert HOSTILE in key and key in found["text"], found["text"][:400]
    assert "<img" not in found["text"] and "<b>" not in found["text"]
    assert (found["images"], found["bold"], found["pwned"]) == (0, 0, 0), found
    assert asked == [], asked
