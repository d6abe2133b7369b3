"""The timeline follows its host's theme (cfrviz/figures/timeline_assets/theme.js and timeline.css):
a page with a dark background gets the dark palette, a light one the light palette, whatever the
reader's colour scheme; a host with no background at all follows prefers-color-scheme.

References: WCAG 2's contrast ratio (4.5:1 for body text) computed here from the colours the
browser reports; Streamlit's dark background #0e1117 as the dark host.
"""
from __future__ import annotations

from pathlib import Path

import pytest
from tests.support.browser import RENDER_TIMEOUT_MS

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


def _contrast(a: list[float], b: list[float]) -> float:
    def lum(c: list[float]) -> float:
        v = [x / 255 for x in c]
        v = [x / 12.92 if x <= 0.03928 else ((x + 0.055) / 1.055) ** 2.4 for x in v]
        return 0.2126 * v[0] + 0.7152 * v[1] + 0.0722 * v[2]
    hi, lo = sorted((lum(a), lum(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


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
    assert _contrast(seen["ink"], seen["paper"]) >= 4.5 and _contrast(seen["muted"], seen["paper"]) >= 4.5
