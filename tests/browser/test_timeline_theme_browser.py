"""The timeline follows its host's theme (cfrviz/figures/timeline_assets/theme.js and timeline.css):
a page with a dark background gets the dark palette, a light one the light palette, whatever the
reader's colour scheme; a host with no background at all follows prefers-color-scheme. The tree's
pill keys read at 4.5:1 on what is painted under them, and the best-response mark stands out at 3:1.

References: WCAG 2's contrast ratio (4.5:1 for body text) computed here from the colours the
browser reports; Streamlit's dark background #0e1117 as the dark host. The HTML file's own page
follows the reader's scheme, and the timeline in it the page.
"""
from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image
from tests.support.browser import RENDER_TIMEOUT_MS
from tests.support.drawing import contrast, rgb

import cfrviz
from cfrviz.figures.html_page import html_text

pytestmark = pytest.mark.browser

# The colours of the timeline's text and paper, of the inspector's muted lines, of a terminal's triangle
# (tree.js's down-pointing path) and of the legend's terminal swatch, and its classes.
READ = """() => {
  const tl = document.querySelector('.tl'), sub = document.querySelector('.tl-inspector .tl-sub');
  const rgb = (c) => c.match(/[\\d.]+/g).slice(0, 3).map(Number);
  const triangle = [...tl.querySelectorAll('.tl-tree .tl-node path')].find((p) => /h12l-6,10z$/.test(p.getAttribute('d')));
  const swatch = [...tl.querySelectorAll('.tl-key-item')].find((e) => e.textContent.includes('terminal')).querySelector('b');
  return { classes: tl.className, ink: rgb(getComputedStyle(tl).color), paper: rgb(getComputedStyle(tl).backgroundColor),
           muted: rgb(getComputedStyle(sub).color), terminal: rgb(getComputedStyle(triangle).fill),
           swatch: rgb(getComputedStyle(swatch).color) };
}"""


@pytest.fixture(scope="module")
def page_text() -> str:
    run = cfrviz.solve("kuhn", "cfr", iterations=50)
    return html_text(run, view="tree", node=7)


@pytest.mark.parametrize(("background", "scheme", "dark"), [
    ("#0e1117", "light", True), ("#ffffff", "dark", False), (None, "dark", True), (None, "light", False)])
def test_the_view_follows_the_hosts_background_else_the_readers_scheme(
        browser, tmp_path: Path, page_text: str, background: str | None, scheme: str, dark: bool) -> None:
    style = (f"body {{ background: {background} !important; }}" if background
             else "body { background: transparent !important; }")
    path = tmp_path / "view.html"
    path.write_text(page_text.replace("</head>", f"<style>{style}</style></head>"), encoding="utf-8")
    context = browser.new_context(color_scheme=scheme, viewport={"width": 1300, "height": 900})
    try:
        page = context.new_page()
        page.goto(path.as_uri())
        page.locator(".tl-inspector .tl-sub").wait_for(state="visible", timeout=RENDER_TIMEOUT_MS)
        seen = page.evaluate(READ)
    finally:
        context.close()
    assert ("tl-dark" in seen["classes"]) == (dark and background is not None)
    assert ("tl-light" in seen["classes"]) == (not dark and background is not None)
    # Dark paper under light ink, or the other way round, and both texts readable on the paper.
    assert (sum(seen["paper"]) < sum(seen["ink"])) == dark
    assert contrast(seen["ink"], seen["paper"]) >= 4.5 and contrast(seen["muted"], seen["paper"]) >= 4.5
    # A terminal's triangle is a graphic that must be seen: 3:1 (WCAG 2.1, 1.4.11), and the legend's swatch
    # is its colour. The payload's #333333 was 1.5:1 on Streamlit's dark #0e1117.
    assert contrast(seen["terminal"], seen["paper"]) >= 3.0 and seen["swatch"] == seen["terminal"], seen


# The HTML file's page: its body's colours, its heading line's, and the timeline's.
READ_PAGE = """() => {
  const rgb = (c) => c.match(/[\\d.]+/g).slice(0, 3).map(Number), css = (e) => getComputedStyle(e);
  const body = document.body, about = document.querySelector('[data-testid="cfrviz-settings"]');
  return { body: rgb(css(body).backgroundColor), title: rgb(css(document.querySelector('.cfrviz-about h1')).color),
           about: rgb(css(about).color), classes: document.querySelector('.tl').className };
}"""


@pytest.mark.parametrize("scheme", ["dark", "light"])
def test_the_html_file_follows_the_readers_scheme(browser, tmp_path: Path, page_text: str, scheme: str) -> None:
    # Reference: WCAG 2's 4.5:1 for the page's text on its body, and the timeline's own palette (as
    # above) on that body; the file used to fix a white body whatever the reader's scheme.
    path = tmp_path / "view.html"
    path.write_text(page_text, encoding="utf-8")
    context = browser.new_context(color_scheme=scheme, viewport={"width": 1300, "height": 900})
    try:
        page = context.new_page()
        page.goto(path.as_uri())
        page.locator(".tl-inspector .tl-sub").wait_for(state="visible", timeout=RENDER_TIMEOUT_MS)
        seen, timeline = page.evaluate(READ_PAGE), page.evaluate(READ)
        # The reader switches scheme with the file open: the page and the timeline follow.
        page.emulate_media(color_scheme="light" if scheme == "dark" else "dark")
        other = "tl-light" if scheme == "dark" else "tl-dark"
        page.wait_for_function(f"() => document.querySelector('.tl').classList.contains('{other}')",
                               timeout=RENDER_TIMEOUT_MS)
    finally:
        context.close()
    dark = scheme == "dark"
    assert (sum(seen["body"]) < 3 * 128) == dark, seen
    assert ("tl-dark" if dark else "tl-light") in seen["classes"]
    assert contrast(seen["title"], seen["body"]) >= 4.5 and contrast(seen["about"], seen["body"]) >= 4.5, seen
    assert timeline["paper"] == seen["body"]
    assert contrast(timeline["ink"], timeline["paper"]) >= 4.5 and contrast(timeline["muted"], timeline["paper"]) >= 4.5


# Each pill key's box and text colour, and each shown best-response mark's outermost line (the widest drawn
# along the same edge) with its colour, and the page's paper.
PILL_KEYS = """() => [...document.querySelectorAll('.tl-tree .tl-key')].map((t) => {
  const r = t.getBoundingClientRect();
  return {text: t.textContent, fill: getComputedStyle(t).fill, x: r.x, y: r.y, w: r.width, h: r.height};
})"""
MARK_RIMS = """() => {
  const lines = [...document.querySelectorAll('.tl-tree .br-overlay line')];
  const at = (l) => ['x1', 'y1', 'x2', 'y2'].map((a) => l.getAttribute(a)).join();
  return [...document.querySelectorAll('.tl-tree .br-mark')].map((m) => {
    const outer = lines.filter((l) => at(l) === at(m))
      .sort((a, b) => parseFloat(getComputedStyle(b).strokeWidth) - parseFloat(getComputedStyle(a).strokeWidth))[0];
    return getComputedStyle(outer).stroke;
  });
}"""


@pytest.mark.parametrize(("view", "t"), [("tree", 30), ("tree", 50), ("best_response", 30), ("best_response", 50)])
def test_every_pill_key_reads_at_4_5_to_1_on_the_pixels_painted_under_it(browser, tmp_path: Path, view: str,
                                                                            t: int) -> None:
    # Reference: WCAG 2.1's 4.5:1 for normal text (1.4.3), and 3:1 for a graphical object against what is
    # next to it (1.4.11): the best-response mark against the page. The keys are hidden and the page is
    # photographed, so every pixel inside a key's box is what was painted under it (a pill faded by reach,
    # and whatever shows through it). Before the pills were painted opaque in the payload's pill shades, a
    # key on the Best response page read 4.44:1 (J kb at t = 50: a mark showed through its faded pill), and
    # the yellow mark was 1.3:1 on white.
    run = cfrviz.solve("kuhn", "cfr", iterations=50)
    path = tmp_path / "view.html"
    path.write_text(html_text(run, view=view, t=t), encoding="utf-8")
    context = browser.new_context(viewport={"width": 1280, "height": 1400})
    try:
        page = context.new_page()
        page.goto(path.as_uri())
        page.locator(".tl-tree .tl-key").first.wait_for(state="visible", timeout=RENDER_TIMEOUT_MS)
        keys, rims = page.evaluate(PILL_KEYS), page.evaluate(MARK_RIMS)
        paper = rgb(page.evaluate("() => getComputedStyle(document.querySelector('.tl')).backgroundColor"))
        page.add_style_tag(content=".tl-tree .tl-key { visibility: hidden; }")
        shot = Image.open(io.BytesIO(page.screenshot())).convert("RGB")
    finally:
        context.close()
    assert len(keys) == 24, len(keys)          # Kuhn's 12 sets, two drawn histories each
    poor = []
    for key in keys:
        ink = rgb(key["fill"])
        under = {shot.getpixel((int(key["x"]) + i, int(key["y"]) + j))
                 for i in range(1, int(key["w"]) - 1) for j in range(2, int(key["h"]) - 2)}
        worst = min(contrast(ink, (*pixel, 1.0)) for pixel in under)
        if worst < 4.5:
            poor.append((key["text"], key["fill"], round(worst, 2)))
    assert poor == []
    if view == "best_response":
        assert len(rims) == 12                  # player 1's best action at each history of its six sets
        assert min(contrast(rgb(rim), paper) for rim in rims) >= 3.0, rims
