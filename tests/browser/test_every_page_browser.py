"""Every page at a phone's, a laptop's and a projector's size, in a real browser.

References: the viewport (what is on the screen is what a visitor sees), 14 px as the smallest
label a projected tree may have, and the address bar as the one true link of a view (the Share
box must equal it after any change). Set CFRVIZ_SCREENSHOTS to a folder to keep a picture of
every page at every size there (the README's tour is taken from them).
"""
from __future__ import annotations

import os
from pathlib import Path
from urllib.parse import parse_qsl, urlsplit

import pytest
from tests.support.browser import (APP_IDLE, RENDER_TIMEOUT_MS, SIZES, no_exception,
                                   open_app, share_link, wait_for_drawn)
from tests.support.drawing import overlaps

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
KUHN = "game=kuhn&algo=cfr%2B&iters=300&updates=alternating"
LEDUC = "game=leduc&algo=cfr%2B&iters=200&updates=alternating"
# (path, link): every page of the app, on Kuhn, and the pages that draw a tree on Leduc too.
PAGES = [
    ("", KUHN),
    ("Game_tree", KUHN), ("Game_tree", LEDUC),
    ("Evolution", KUHN),
    ("Convergence", KUHN),
    ("Compare", KUHN + "&cmp_algos=cfr,cfr%2B&cmp_iters=50&cmp_sampling_iters=50"),
    ("Regret_matching", ""),
    ("Walkthrough", "walk_game=kuhn"), ("Walkthrough", "walk_game=leduc"),
    ("Best_response", KUHN), ("Best_response", LEDUC),
    ("Play", KUHN),
]
PAGE_IDS = [f"{path or 'Home'}-{'leduc' if 'leduc' in link else 'kuhn'}" for path, link in PAGES]

# Every element of the document, looking into shadow roots (the timeline is a component).
_ALL = """const all = (root) => [...root.querySelectorAll('*')].flatMap(
            (e) => e.shadowRoot ? [e, ...all(e.shadowRoot)] : [e]);"""

# Text boxes in the page's drawings: the timeline's SVG (trees, charts, simplex) and plotly's.
TEXTS = "() => { " + _ALL + """
  const box = (t, where) => { const r = t.getBoundingClientRect();
    return {text: t.textContent.trim(), where, x: r.x, y: r.y, w: r.width, h: r.height,
            size: parseFloat(getComputedStyle(t).fontSize),
            tree: !!t.closest('.tl-tree'), hidden: r.width === 0 || getComputedStyle(t).visibility === 'hidden' ||
            getComputedStyle(t).display === 'none' || t.closest('[hidden]') !== null}; };
  const svgs = all(document).filter((e) => e.tagName === 'svg' && (e.closest('.tl') || e.classList.contains('main-svg')));
  return svgs.flatMap((svg, k) => [...svg.querySelectorAll('text')].map((t) => box(t, k)))
             .filter((b) => b.text && !b.hidden);
}"""

# What sticks out sideways: the page's own width, and any drawn text past the right edge.
SIDEWAYS = "() => { " + _ALL + """
  const main = document.querySelector('[data-testid="stMain"]');
  const right = innerWidth + 0.5;
  const out = all(document).filter((e) => (e.tagName === 'text' || e.tagName === 'P' || e.tagName === 'H1' ||
                                           e.tagName === 'LABEL') && e.textContent.trim())
    .filter((e) => { const r = e.getBoundingClientRect();
                     return r.width > 0 && r.right > right && !e.closest('.tl-tree, .tl-scroll, [data-testid="stDataFrame"], .js-plotly-plot'); })
    .map((e) => e.textContent.trim().slice(0, 60));
  return {pageScroll: document.documentElement.scrollWidth - innerWidth,
          mainScroll: main ? main.scrollWidth - main.clientWidth : 0, out};
}"""


# The Share box's link and the address bar name the same page and the same parameters.
SAME_LINK = """() => {
  const code = document.querySelector('[data-testid="stSidebar"] [data-testid="stCode"]');
  if (!code) return false;
  const box = new URL(code.innerText.trim(), location.href);
  const sorted = (u) => [...u.searchParams.entries()].map(([k, v]) => k + '=' + v).sort().join('&');
  return box.pathname === location.pathname && sorted(box) === sorted(new URL(location.href));
}"""


def same_link(page) -> bool:
    box, bar = urlsplit(share_link(page)), urlsplit(page.url)
    return box.path == bar.path and dict(parse_qsl(box.query)) == dict(parse_qsl(bar.query))


def keep_picture(page, name: str, size: dict) -> None:
    """The first screen, and the whole page (Streamlit scrolls inside its own container, so the
    viewport is made as tall as the page for that picture, then put back)."""
    folder = os.environ.get("CFRVIZ_SCREENSHOTS")
    if not folder:
        return
    Path(folder).mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(Path(folder) / f"{name}.png"))
    height = page.evaluate("() => document.querySelector('[data-testid=\"stMain\"]').scrollHeight")
    page.set_viewport_size({"width": size["width"], "height": min(int(height) + 40, 12_000)})
    page.wait_for_selector(APP_IDLE, timeout=RENDER_TIMEOUT_MS)
    page.screenshot(path=str(Path(folder) / f"{name}-whole.png"))
    page.set_viewport_size(size)
    wait_for_drawn(page)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize(("path", "link"), PAGES, ids=PAGE_IDS)
def test_every_page_is_legible_and_its_share_box_follows_the_address_bar(page, app_url: str, path: str, link: str,
                                                                        size: dict) -> None:
    page.set_viewport_size(size)
    # A page's first visit may solve (Compare solves and times every line): more than one render.
    open_app(page, f"{app_url}/{path}?{link}", timeout_ms=6 * RENDER_TIMEOUT_MS)
    wait_for_drawn(page, timeout_ms=6 * RENDER_TIMEOUT_MS)
    no_exception(page)
    # A component whose script fails shows Streamlit's error box instead of its drawing.
    broken = page.get_by_text("Component Error")
    assert broken.count() == 0, broken.first.inner_text()[:300]
    if path != "Compare":
        page.locator(".tl").first.wait_for(state="attached", timeout=RENDER_TIMEOUT_MS)
    if not path:    # Home's exploitability chart is the timeline's drawing
        page.locator(".tl svg.tl-chart").first.wait_for(state="visible", timeout=RENDER_TIMEOUT_MS)
    name = f"{path or 'Home'}-{'leduc' if 'leduc' in link else 'kuhn'}-{size['width']}x{size['height']}"
    keep_picture(page, name, size)

    texts = page.evaluate(TEXTS)
    small = [(t["text"], t["size"]) for t in texts if t["tree"] and t["size"] < 14]
    assert small == [], small
    assert overlaps(texts) == []
    sideways = page.evaluate(SIDEWAYS)
    assert sideways["pageScroll"] <= 1 and sideways["mainScroll"] <= 1 and sideways["out"] == [], sideways

    if not path:
        return  # Home shares no view
    assert same_link(page), (share_link(page), page.url)
    # A change made in the browser: step the page's timeline to an end and let it tell the server.
    timeline = page.locator(".tl").first
    if timeline.count() == 0 or page.locator(".tl-slider").count() == 0:
        return
    before = page.url
    slider = page.locator(".tl-slider").first
    at_start = slider.evaluate("(s) => Number(s.value) <= Number(s.min)")
    timeline.focus()
    page.keyboard.press("End" if at_start else "Home")
    page.wait_for_function(f"() => location.href !== {before!r}", timeout=RENDER_TIMEOUT_MS)
    page.wait_for_selector(APP_IDLE, timeout=RENDER_TIMEOUT_MS)
    try:
        page.wait_for_function(SAME_LINK, timeout=RENDER_TIMEOUT_MS)
    finally:
        assert same_link(page), (share_link(page), page.url)
