"""A stranger's .efg names in a real browser: Streamlit's own Markdown (which adds bare-address
links, icon shortcodes and colours to CommonMark) shows them as written.

Reference: the names as written in the file (`tests.app.test_stranger_text_app.HOSTILE`); a link,
a Material icon, bold or an extra table cell made from them would be an element the page draws.
"""
from __future__ import annotations

from pathlib import Path

import pytest
from tests.app.test_stranger_text_app import EFG, HOSTILE
from tests.support.browser import APP_IDLE, RENDER_TIMEOUT_MS, open_app, wait_for_app

pytestmark = pytest.mark.browser

MARKUP = """(hostile) => {
  const main = document.querySelector('[data-testid="stMain"]');
  const text = main.innerText.replaceAll('\\u2060', '');
  return {
    links: [...main.querySelectorAll('a[href*="evil"]')].length,
    icons: [...main.querySelectorAll('[data-testid="stIconMaterial"]')].filter(i => i.innerText.includes('home')).length,
    bold: [...main.querySelectorAll('strong, b, em')].filter(e => e.innerText.trim() === 'bold').length,
    cells: [...main.querySelectorAll('td')].filter(td => td.innerText.trim() === 'b' || td.innerText.trim().endsWith(' a')).length,
    literal: text.split(hostile).length - 1,
  };
}"""


def _check(page, where: str, at_least: int) -> None:
    page.wait_for_selector(APP_IDLE, timeout=RENDER_TIMEOUT_MS)
    found = page.evaluate(MARKUP, HOSTILE)
    assert found["links"] == found["icons"] == found["bold"] == found["cells"] == 0, (where, found)
    assert found["literal"] >= at_least, (where, found)


def test_a_files_names_show_as_written_on_home_and_in_play(new_context, app_url: str, tmp_path: Path) -> None:
    saved = tmp_path / "hostile.efg"
    saved.write_text(EFG)
    page = new_context().new_page()
    open_app(page, app_url)
    page.locator('[data-testid="stSidebar"] input[type="file"]').set_input_files(str(saved))
    page.get_by_text("Your game is now the sidebar's game").first.wait_for(timeout=RENDER_TIMEOUT_MS)
    _check(page, "Home", 1)                  # the caption naming the game
    page.locator('[data-testid="stSidebar"] [data-testid="stPageLink"]', has_text="Play").first.click()
    wait_for_app(page, "Play against the strategy")
    page.get_by_role("button", name="Deal the first hand").click()
    wait_for_app(page, "Hand 1")
    while not page.get_by_role("button", name="Deal the next hand").count():
        page.locator('[data-testid="stButton"] button', has_text="evil").first.click()
        page.wait_for_selector(APP_IDLE, timeout=RENDER_TIMEOUT_MS)
        page.get_by_text("EV loss of your").first.wait_for(timeout=RENDER_TIMEOUT_MS)
    _check(page, "Play, hand over", 4)       # deal, moves, table, notice, the bot's decisions
