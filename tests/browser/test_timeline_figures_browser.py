"""Figures for slides, made in the browser from the timeline's own drawing: SVG, PNG and WebM.

References: the SVG and PNG formats themselves (an XML document with an <svg> root; a PNG's
IHDR chunk holds its width and height in pixels), the WebM (Matroska/EBML) container layout
(EBML header, DocType "webm", Segment and Cluster elements holding one SimpleBlock or BlockGroup
per video frame), and the live drawing in the page for what the figure must show.
"""
from __future__ import annotations

import struct
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from playwright.sync_api import expect
from tests.support.browser import RENDER_TIMEOUT_MS, SIZES, open_app, wait_tree

import cfrviz

pytestmark = pytest.mark.browser

KUHN = "game=kuhn&algo=cfr&iters=200&updates=simultaneous"
SVG_NS = "{http://www.w3.org/2000/svg}"
def download(page, button: str) -> Path:
    with page.expect_download(timeout=RENDER_TIMEOUT_MS) as info:
        page.get_by_role("button", name=button).first.click()
    return Path(info.value.path())


def svg_texts(root: ET.Element) -> list[str]:
    return [(t.text or "").strip() for t in root.iter(f"{SVG_NS}text")]


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR", data[:16]
    width, height = struct.unpack(">II", data[16:24])
    return width, height


@pytest.mark.parametrize("size", SIZES)
def test_the_svg_and_png_show_the_tree_its_widths_at_t_the_inspector_and_the_legend(page, app_url: str,
                                                                                     size: dict) -> None:
    # Kuhn's tree at t = 40 with node 7 (JQ k, player 2's set "Q k") in the inspector.
    page.set_viewport_size(size)
    tree = cfrviz.compile_game("kuhn")
    open_app(page, f"{app_url}/Game_tree?{KUHN}&t=40&node=7")
    wait_tree(page)
    page.get_by_text("Node 7: JQ k").first.wait_for(state="attached", timeout=RENDER_TIMEOUT_MS)
    live_widths = page.locator(".tl").first.evaluate(
        "(root) => [...root.querySelectorAll('.tl-tree line')].map((l) => Number(l.getAttribute('stroke-width')))")

    svg_file = download(page, "Download SVG")
    assert svg_file.read_bytes().startswith(b"<?xml")
    figure = ET.parse(svg_file).getroot()            # well-formed XML, or this raises
    assert figure.tag == f"{SVG_NS}svg"
    width, height = float(figure.get("width")), float(figure.get("height"))
    assert width > 300 and height > 500
    texts = svg_texts(figure)
    joined = " ".join(texts)
    # The tree's labels: every information-set key shown as a pill, and the payoffs.
    keys = {tree.infosets[i].key for i in range(tree.num_infosets)}
    assert keys <= set(texts), keys - set(texts)
    assert {"+1", "−1", "+2", "−2"} <= set(texts)
    # The title says what is shown; the inspector and the legend are in it.
    assert "Iteration t = 40 of 200" in joined and "edge width: average strategy" in joined
    assert "Node 7: JQ k" in joined and "cumulative regret" in joined
    assert "player 1 to act" in joined and "Edge width: probability of the action." in joined
    # The edges have the widths they have at t in the page, in the same order.
    def stroke_width(line: ET.Element) -> float:
        style = dict(part.split(":", 1) for part in line.get("style", "").split(";") if ":" in part)
        return float(style["stroke-width"].removesuffix("px"))

    widths = [stroke_width(line) for line in figure.iter(f"{SVG_NS}line")]
    assert widths[:len(live_widths)] == pytest.approx(live_widths, abs=0.01)
    assert len(set(live_widths)) > 3            # widths vary with the strategy: a real check

    png = download(page, "Download PNG").read_bytes()
    assert png_size(png) == (round(2 * width), round(2 * height))


def ebml_frames(data: bytes) -> tuple[str, int]:
    """(DocType, number of frames: SimpleBlocks and BlockGroups) of a WebM file, walking its EBML elements.

    Segment and Cluster are entered (MediaRecorder writes them with unknown sizes); every other
    element is skipped by its size.
    """
    def vint(at: int, keep_marker: bool) -> tuple[int, int]:
        first = data[at]
        length = 1
        while length <= 8 and not first & (0x80 >> (length - 1)):
            length += 1
        value = first if keep_marker else first & (0xFF >> length)
        for b in data[at + 1:at + length]:
            value = (value << 8) | b
        return value, length

    doc_type, blocks, at = "", 0, 0
    enter = {0x1A45DFA3, 0x18538067, 0x1F43B675}   # EBML header, Segment, Cluster
    while at < len(data):
        element, n = vint(at, keep_marker=True)
        size, m = vint(at + n, keep_marker=False)
        at += n + m
        if element in enter:
            continue
        if element == 0x4282:
            doc_type = data[at:at + size].decode()
        elif element in (0xA3, 0xA0):   # SimpleBlock, BlockGroup: one frame each
            blocks += 1
        if size == (1 << (7 * m)) - 1:    # an unknown size outside Segment/Cluster: nothing to skip
            continue
        at += size
    return doc_type, blocks


def test_the_animation_is_a_webm_of_at_least_24_frames_over_the_chosen_iterations(page, app_url: str) -> None:
    # Iterations 1 to 6 are six snapshots: each is held for several frames, so the video still
    # has at least 24 frames.
    open_app(page, f"{app_url}/Game_tree?{KUHN}&t=40&node=7")
    wait_tree(page)
    page.get_by_role("button", name="Download animation").first.click()
    page.get_by_label("Animation from").first.fill("1")
    page.get_by_label("Animation to").first.fill("6")
    with page.expect_download(timeout=120_000) as info:
        page.get_by_role("button", name="Record and download").first.click()
    assert info.value.suggested_filename.endswith("-t1-6.webm")
    data = Path(info.value.path()).read_bytes()
    doc_type, frames = ebml_frames(data)
    assert doc_type == "webm"
    assert frames >= 24, frames
    # The view comes back to where it was, and the server heard no t from the recording.
    assert page.get_by_test_id("timeline-t").first.inner_text().startswith("Iteration t = 40 ")
    assert "t=40" in page.url


def test_the_svg_of_a_charts_timeline_shows_its_bars_and_cards(page, app_url: str) -> None:
    # Evolution draws the same timeline in its "sets" mode: the figure holds the set names of its
    # bars, the exploitability card, and a bar as a filled box for each action of each set.
    tree = cfrviz.compile_game("kuhn")
    open_app(page, f"{app_url}/Evolution?{KUHN}&t=3")
    page.locator(".tl-bars").first.wait_for(state="visible", timeout=RENDER_TIMEOUT_MS)
    figure = ET.parse(download(page, "Download SVG")).getroot()
    joined = " ".join(svg_texts(figure))
    assert "Iteration t = 3 of 200" in joined and "Exploitability" in joined
    for i in range(tree.num_infosets):
        assert f"{tree.infosets[i].key} (player {tree.infoset_player[i] + 1})" in joined
    filled = [r for r in figure.iter(f"{SVG_NS}rect") if "fill:rgb" in r.get("style", "").replace(" ", "")]
    assert len(filled) >= 2 * tree.num_infosets


def test_a_png_the_browser_has_no_canvas_for_says_so_and_saves_no_file(page, app_url: str) -> None:
    # HTMLCanvasElement.getContext("2d") returns null when the browser cannot back a canvas (the HTML
    # standard allows it; Safari does so past its canvas memory cap). Here every canvas larger than
    # 8 million pixels gets none: the 16:9 slide's 3,840 × 2,160 = 8.3 million does; the page's own small
    # ones and the figure's own size at 2× (about 2,600 × 1,800 here) do not.
    open_app(page, f"{app_url}/Game_tree?{KUHN}&t=40&node=7")
    wait_tree(page)
    page.evaluate("""() => {
      const get = HTMLCanvasElement.prototype.getContext;
      HTMLCanvasElement.prototype.getContext = function (...args) {
        return this.width * this.height > 8e6 ? null : get.apply(this, args);
      };
    }""")
    downloads: list[object] = []
    page.on("download", lambda d: downloads.append(d))
    page.get_by_role("button", name="Download a 16:9 slide PNG").first.click()
    status = page.get_by_test_id("timeline-export-status").first
    expect(status).to_have_text("This browser could not paint the view at this size (no canvas), so no file was "
                                "saved. The SVG download needs none.", timeout=RENDER_TIMEOUT_MS)
    assert downloads == []
    # A PNG the browser can paint still downloads, and the sentence goes.
    assert download(page, "Download PNG").read_bytes().startswith(b"\x89PNG")
    expect(status).to_have_text("")
