"""The notebook widget's host adapter (`cfrviz.widget._ADAPTER`) in a page that behaves as JupyterLab 4.6
was seen to behave here: the widget's module (its `_esm` and `_css`, as anywidget loads them) renders
into an element that is not on the page yet, and the output is put on the page afterwards; the theme
is switched (Settings → Theme) by restyling the page and setting `data-jp-theme-*` on <body>, without
drawing the outputs again. The page stands in for JupyterLab, which the test environment does not have;
the model is the few calls of anywidget's model that the adapter makes (get, set, on, off, save_changes).

References: the host's background decides the palette (theme.js: a dark background gets the dark one,
whatever the reader's own scheme); WCAG 2's 4.5:1 contrast for body text, from the colours the browser
reports; the label chips must be the paper's colour (tree.js paints them with it). Before the adapter
followed its host, the timeline read the host once, when mounted, off the page: a light JupyterLab on a
dark-scheme machine showed it dark, and a theme switch left it as it was; once it followed, the chips kept
the first palette's paper (white chips on the dark theme) until the tree was built again.
"""
from __future__ import annotations

import json

import pytest
from tests.support.browser import RENDER_TIMEOUT_MS
from tests.support.drawing import contrast

import cfrviz
from cfrviz.widget import Timeline

pytestmark = pytest.mark.browser

# The model's values, the output element rendered off the page (as JupyterLab's output area does),
# and `attach()` to put it on the page.
HOST = """
const values = JSON.parse(document.getElementById("traits").textContent);
values._payload = new TextEncoder().encode(values._payload);
const listeners = new Map();
const model = {
  get: (name) => values[name],
  set: (name, value) => { values[name] = value; for (const f of listeners.get(`change:${name}`) || []) f(); },
  on: (event, f) => listeners.set(event, [...(listeners.get(event) || []), f]),
  off: (event, f) => listeners.set(event, (listeners.get(event) || []).filter((g) => g !== f)),
  save_changes: () => {},
};
const output = document.createElement("div");
render({ model, el: output });
window.attach = () => document.getElementById("cell").appendChild(output);
window.rendered = true;
"""

THEME = """() => {
  const tl = document.querySelector('.tl'), rgb = (c) => c.match(/[\\d.]+/g).slice(0, 3).map(Number);
  const chips = [...new Set([...tl.querySelectorAll('.tl-edge-chip')].map((c) => c.getAttribute('fill')))];
  return { classes: tl.className, ink: rgb(getComputedStyle(tl).color), paper: rgb(getComputedStyle(tl).backgroundColor),
           chips: chips.map(rgb) };
}"""
LIGHT, DARK = "#ffffff", "#111111"      # JupyterLab Light's and Dark's notebook backgrounds (computed below)
LIGHT_RGB, DARK_RGB = [255, 255, 255], [17, 17, 17]


def _page_text(widget: Timeline) -> str:
    traits = {name: getattr(widget, name) for name in ("_header", "_host_keys", "t", "node", "kind", "step")}
    traits["_payload"] = widget._payload.decode("utf-8")
    data = json.dumps(traits).replace("</", "<\\/")
    return (f"<!doctype html><html><head><meta charset='utf-8'><style>{widget._css}</style>"
            f"<style>body {{ margin: 0; background: {LIGHT}; }}</style></head><body data-jp-theme-light='true'>"
            f"<div id='cell'></div><script type='application/json' id='traits'>{data}</script>"
            f"<script type='module'>{widget._esm}\n{HOST}</script></body></html>")


def _switch(page, background: str, light: bool) -> None:
    """What JupyterLab's theme manager does: the new theme's style, then the <body> attributes."""
    page.evaluate("([background, light]) => { document.body.style.background = background;"
                  " document.body.dataset.jpThemeLight = String(light); }", [background, light])


def _palette(page, name: str) -> dict:
    page.wait_for_function(f"() => document.querySelector('.tl')?.classList.contains('{name}')", timeout=RENDER_TIMEOUT_MS)
    seen = page.evaluate(THEME)
    assert contrast(seen["ink"], seen["paper"]) >= 4.5, seen
    # The chips behind the edge labels are painted in the paper's colour when the tree is built.
    assert seen["chips"] == [seen["paper"]], seen
    return seen


def test_the_widget_takes_the_notebooks_theme_once_on_the_page_and_when_it_changes(browser) -> None:
    widget = Timeline(cfrviz.solve("kuhn", "cfr", iterations=20), view="tree", t=10)
    # The reader's machine prefers dark; the notebook is light: the notebook decides.
    context = browser.new_context(color_scheme="dark", viewport={"width": 1280, "height": 900})
    try:
        page = context.new_page()
        page.set_content(_page_text(widget))
        page.wait_for_function("() => window.rendered === true", timeout=RENDER_TIMEOUT_MS)
        page.evaluate("() => window.attach()")
        assert _palette(page, "tl-light")["paper"] == LIGHT_RGB
        _switch(page, DARK, light=False)
        assert _palette(page, "tl-dark")["paper"] == DARK_RGB
        _switch(page, LIGHT, light=True)
        assert _palette(page, "tl-light")["paper"] == LIGHT_RGB
    finally:
        context.close()
