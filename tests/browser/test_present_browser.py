"""Presentation mode at 1920×1080 (and at 150 % browser zoom), its lecture keys, and the slide-shaped exports.

References: the issue's projector target (every tree and chart text at least 24 screen pixels at
1920×1080, nothing overlapping, the timeline bar on screen, no sidebar); 150 % browser zoom of a
1920×1080 screen is a 1280×720 CSS viewport at device scale 1.5 (so 24 screen px are 16 CSS px);
a PNG's IHDR chunk holds its width and height (a 1920×1080 slide at 2× is 3840×2160 pixels).
"""
from __future__ import annotations

import struct
import xml.etree.ElementTree as ET
from pathlib import Path
from urllib.parse import parse_qsl, urlsplit

import pytest
from tests.support.browser import RENDER_TIMEOUT_MS, no_exception, open_app, share_query, url_query, wait_for_app

pytestmark = pytest.mark.browser

KUHN = "game=kuhn&algo=cfr&iters=200&updates=simultaneous"
SVG_NS = "{http://www.w3.org/2000/svg}"

# Every tree and chart text of the timeline, with its size on screen in CSS px (its font size times the
# zoom the timeline is drawn at) and its box; the timeline bar's box; whether Streamlit's chrome shows.
LOOK = """() => {
  const roots = [];
  const find = (n) => { for (const c of n.querySelectorAll('*')) if (c.shadowRoot) find(c.shadowRoot);
                        roots.push(...n.querySelectorAll('.tl')); };
  find(document);
  const tl = roots[0];
  const zoom = tl.getBoundingClientRect().width / tl.offsetWidth;
  const box = (e) => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
  const texts = [...tl.querySelectorAll('.tl-tree text, .tl-chart text')].filter((t) => t.textContent.trim() &&
                 t.getBoundingClientRect().width > 0)
    .map((t) => ({ text: t.textContent, px: parseFloat(getComputedStyle(t).fontSize) * zoom, box: box(t) }));
  const shown = (sel) => [...document.querySelectorAll(sel)].some((e) => e.getBoundingClientRect().width > 0);
  const tree = tl.querySelector('.tl-tree');
  return { texts, bar: box(tl.querySelector('.tl-bar')), tree: tree && box(tree), zoom, view: [innerWidth, innerHeight],
           sidebar: shown('[data-testid="stSidebar"]'), toolbar: shown('[data-testid="stToolbar"]'),
           header: shown('[data-testid="stHeader"]'), deploy: shown('[data-testid="stAppDeployButton"]') };
}"""


def look(page) -> dict:
    # Wait until the timeline has drawn (and zoomed) for the final viewport.
    page.locator(".tl-tree svg, .tl-chart").first.wait_for(state="visible", timeout=RENDER_TIMEOUT_MS)
    page.wait_for_function("() => { let ok = false; const f = (n) => { for (const c of n.querySelectorAll('*')) "
                           "{ if (c.shadowRoot) f(c.shadowRoot); } if (n.querySelector('.tl.tl-present')) ok = true; };"
                           " f(document); return ok; }", timeout=RENDER_TIMEOUT_MS)
    return page.evaluate(LOOK)


def text_overlaps(texts: list[dict]) -> list[tuple[str, str]]:
    """Pairs of texts whose boxes overlap by more than a pixel each way."""
    found = []
    for i, a in enumerate(texts):
        for b in texts[i + 1:]:
            (l1, t1, r1, b1), (l2, t2, r2, b2) = a["box"], b["box"]
            if min(r1, r2) - max(l1, l2) > 1 and min(b1, b2) - max(t1, t2) > 1:
                found.append((a["text"], b["text"]))
    return found


def check_projector(seen: dict, least_px: float, where: str) -> None:
    assert not (seen["sidebar"] or seen["toolbar"] or seen["header"] or seen["deploy"]), (where, seen)
    assert seen["texts"], where
    small = [(t["text"], round(t["px"], 1)) for t in seen["texts"] if t["px"] < least_px - 0.05]
    assert not small, (where, small[:8])
    assert not text_overlaps(seen["texts"]), (where, text_overlaps(seen["texts"])[:8])
    left, top, right, bottom = seen["bar"]
    width, height = seen["view"]
    assert 0 <= top and bottom <= height and right <= width + 1, (where, seen["bar"], seen["view"])
    if seen["tree"]:     # the tree's box fits the screen above the bar (a taller tree scrolls inside it)
        assert 0 <= seen["tree"][1] and seen["tree"][3] <= top + 1, (where, seen["tree"], seen["bar"])


@pytest.mark.parametrize("page_name", ["Game_tree", "Convergence"])
@pytest.mark.parametrize("screen", [pytest.param((1920, 1080, 1.0, 24.0), id="1920x1080"),
                                    pytest.param((1280, 720, 1.5, 16.0), id="1920x1080-at-150pc")])
def test_presentation_mode_shows_large_text_nothing_overlapping_and_the_bar_on_screen(
        browser, app_url: str, page_name: str, screen: tuple[int, int, float, float]) -> None:
    width, height, scale, least_css_px = screen
    context = browser.new_context(viewport={"width": width, "height": height}, device_scale_factor=scale)
    page = context.new_page()
    open_app(page, f"{app_url}/{page_name}?{KUHN}&present=1")
    no_exception(page)
    check_projector(look(page), least_css_px, f"{page_name} at load")
    # Scrolled to the foot of the page, the timeline's bar stays on screen.
    # (Scrolled by script, not the wheel: a wheel over the tree scrolls the tree's own box instead.)
    page.evaluate("() => { for (const m of [document.scrollingElement, document.querySelector('[data-testid=\"stMain\"]')])"
                  " if (m) m.scrollTop = m.scrollHeight; }")
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => done(true))))")
    seen = page.evaluate(LOOK)
    left, top, right, bottom = seen["bar"]
    assert 0 <= top and bottom <= height, (page_name, "after scrolling", seen["bar"])
    context.close()


def test_the_button_enters_and_leaves_and_the_mode_survives_a_page_switch(page, app_url: str) -> None:
    page.set_viewport_size({"width": 1920, "height": 1080})
    open_app(page, f"{app_url}/?{KUHN}")
    page.get_by_role("button", name="Presentation mode").click()
    page.locator('[data-testid="stSidebar"]').wait_for(state="hidden", timeout=RENDER_TIMEOUT_MS)
    wait_for_app(page, "Leave presentation")
    assert url_query(page)["present"] == "1"
    assert share_query(page)["present"] == "1"          # the Share link (hidden while presenting) carries it
    # Home's "Start here" links are page switches: the mode goes along.
    page.get_by_role("link", name="1.").first.click()
    page.wait_for_url(lambda url: urlsplit(url).path not in ("", "/"), timeout=RENDER_TIMEOUT_MS)
    wait_for_app(page, "Leave presentation")
    assert url_query(page)["present"] == "1"
    assert not page.locator('[data-testid="stSidebar"]').is_visible()
    page.get_by_role("button", name="Leave presentation").click()
    page.locator('[data-testid="stSidebar"]').wait_for(state="visible", timeout=RENDER_TIMEOUT_MS)
    wait_for_app(page)
    assert "present" not in url_query(page) and "present" not in share_query(page)


def test_the_lecture_made_in_the_sidebar_steps_with_page_down_and_page_up(page, app_url: str) -> None:
    page.set_viewport_size({"width": 1920, "height": 1080})
    open_app(page, f"{app_url}/Game_tree?{KUHN}")
    links = [f"{app_url}/Game_tree?{KUHN}&t=5", f"{app_url}/Convergence?{KUHN}&t=20", "/nowhere", f"/Evolution?{KUHN}"]
    page.get_by_label("Lecture: paste the links").fill("\n".join(links))
    page.keyboard.press("Control+Enter")        # Streamlit's text area submits on Ctrl+Enter
    wait_for_app(page, "Open this link to present these 3 views")
    assert page.get_by_text("is not a link to a page of this app").first.is_visible()
    made = page.locator('[data-testid="stSidebar"] [data-testid="stCode"]', has_text="lecture=").first.inner_text().strip()
    query = dict(parse_qsl(urlsplit(made).query))
    assert urlsplit(made).path == "/Game_tree" and query["present"] == "1" and query["slide"] == "1"
    assert query["t"] == "5"
    open_app(page, made, "View 1 of 3")
    page.keyboard.press("PageDown")
    page.wait_for_url(lambda url: urlsplit(url).path == "/Convergence", timeout=RENDER_TIMEOUT_MS)
    wait_for_app(page, "View 2 of 3")
    assert url_query(page)["t"] == "20" and url_query(page)["slide"] == "2"
    page.keyboard.press("n")
    page.wait_for_url(lambda url: urlsplit(url).path == "/Evolution", timeout=RENDER_TIMEOUT_MS)
    wait_for_app(page, "View 3 of 3")
    page.keyboard.press("PageUp")
    page.wait_for_url(lambda url: urlsplit(url).path == "/Convergence", timeout=RENDER_TIMEOUT_MS)
    wait_for_app(page, "View 2 of 3")
    no_exception(page)


def slide_download(page, button: str, exact: bool = False):
    with page.expect_download(timeout=RENDER_TIMEOUT_MS) as info:
        page.get_by_role("button", name=button, exact=exact).first.click()
    return info.value


def png_dimensions(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR", data[:16]
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def test_the_slide_png_is_16_9_at_2x_and_walkthrough_files_say_step(page, app_url: str) -> None:
    open_app(page, f"{app_url}/Game_tree?{KUHN}&t=40")
    page.locator(".tl-tree svg").first.wait_for(state="visible", timeout=RENDER_TIMEOUT_MS)
    slide = slide_download(page, "Download a 16:9 slide PNG")
    assert png_dimensions(Path(slide.path()).read_bytes()) == (3840, 2160)
    assert slide.suggested_filename.endswith("-t40-1080p.png")
    open_app(page, f"{app_url}/Walkthrough")
    page.locator(".tl-tree svg").first.wait_for(state="visible", timeout=RENDER_TIMEOUT_MS)
    step = page.locator('[data-testid="timeline-t"]').first.inner_text().split()[1]     # "Step 1 of …"
    svg = slide_download(page, "Download SVG")
    assert svg.suggested_filename.endswith(f"-step{step}.svg"), svg.suggested_filename


def test_the_convergence_svg_holds_every_figure_of_the_page(page, app_url: str) -> None:
    # The page's plotly figures (beside the timeline's charts) are in the SVG: their titles and axis
    # titles, read from the live page, are among the figure's texts.
    page.set_viewport_size({"width": 1280, "height": 2400})
    open_app(page, f"{app_url}/Convergence?{KUHN}&t=40")
    page.locator(".js-plotly-plot .main-svg").last.wait_for(state="visible", timeout=RENDER_TIMEOUT_MS)
    page.locator(".tl-chart").first.wait_for(state="visible", timeout=RENDER_TIMEOUT_MS)
    live = page.evaluate("() => [...document.querySelectorAll('.js-plotly-plot .gtitle, .js-plotly-plot .xtitle, "
                         ".js-plotly-plot .ytitle')].map((t) => t.textContent.trim()).filter(Boolean)")
    charts = page.locator(".js-plotly-plot").count()
    assert charts >= 2 and live, (charts, live)
    figure = ET.parse(slide_download(page, "Download SVG").path()).getroot()
    texts = " ".join("".join(t.itertext()).strip() for t in figure.iter(f"{SVG_NS}text"))
    missing = [title for title in live if title not in texts]
    assert not missing, missing
