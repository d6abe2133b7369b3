"""The timeline follows its host's theme (cfrviz/figures/timeline_assets/theme.js and timeline.css):
a page with a dark background gets the dark palette, a light one the light palette, whatever the
reader's colour scheme; a host with no background at all follows prefers-color-scheme.

References: WCAG 2's contrast ratio (4.5:1 for body text) computed here from the colours the
browser reports; Streamlit's dark background #0e1117 as the dark host. The HTML file's own page
follows the reader's scheme, and the timeline in it the page.
"""
from __future__ import annotations

from pathlib import Path

import pytest
from tests.support.browser import RENDER_TIMEOUT_MS
from tests.support.drawing import contrast

import cfrviz
from cfrviz.figures.html_page import html_text

pytestmark = pytest.mark.browser

# The colours of the timeline's text and paper and of the inspector's muted lines, and its classes.
READ = """() => {
  const tl = document.querySelector('.tl'), sub = document.querySelector('.tl-inspector .tl-sub');
  const rgb = (c) => c.match(/[\\d.]+/g).slice(0, 3).map(Number);
  return { classes: tl.className, ink: rgb(getComputedStyle(tl).color), paper: rgb(getComputedStyle(tl).backgroundColor),
           muted: rgb(getComputedStyle(sub).color) };
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
