"""AppTest: names from an uploaded .efg show as written on every page, never as markup.

The file's title, players, node, information-set, action and outcome names all hold a bare web
address, a Streamlit icon shortcode, CommonMark strong emphasis and a table pipe. Reference:
CommonMark as markdown-it renders it (with GFM tables), plus the extensions Streamlit adds on top,
which match on the source text: bare addresses become links (`https://...`, `www.`), `:name:` and
`:material/name:` become icons, `:color[...]` colours. So every text element's source must hold
none of the raw forms, and its rendering must show the names character for character (an escaped
colon is followed by an invisible word joiner, U+2060, which the check drops).
"""
from __future__ import annotations

import html
import re
from pathlib import Path
from typing import Any

import pytest
from markdown_it import MarkdownIt
from streamlit.testing.v1 import AppTest

from cfrviz import app as ui
from cfrviz.app import CHOICE_KEY
from cfrviz.app.links import Choice
from cfrviz.run.uploads import read_game_upload
from tests.support.apptest import open_page
from tests.support.efg_shapes import myerson_named

ROOT = Path(__file__).resolve().parents[2]
APP = str(ROOT / "app.py")
PAGES = ["app.py", *sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "pages").glob("*.py"))]
HOSTILE = "https://evil.example :material/home: __bold__ a|b"
RAW = ("https://evil", ":material/home:", "__bold__", "a|b")
# Myerson's card game with every name made hostile (tests/support/efg_shapes.py).
EFG = myerson_named(HOSTILE)
MARKDOWN = MarkdownIt("commonmark").enable("table")


def shown_texts(at: AppTest) -> list[tuple[str, str]]:
    """(element type, markdown source) of every text the page draws: bodies and labels."""
    out: list[tuple[str, str]] = []

    def walk(node: Any) -> None:
        for attr in ("body", "label"):
            value = getattr(node, attr, None) if hasattr(type(node), attr) or hasattr(node, attr) else None
            if isinstance(value, str):
                out.append((type(node).__name__, value))
        children = getattr(node, "children", None)
        if isinstance(children, dict):
            for child in children.values():
                walk(child)

    walk(at._tree)
    return out


def rendered_text(source: str) -> str:
    """The characters a reader sees: the CommonMark rendering without tags or word joiners."""
    return html.unescape(re.sub(r"<[^>]+>", "", MARKDOWN.render(source))).replace("\u2060", "")


def hostile_choice() -> dict[str, Choice]:
    """The session's choice of game: the hostile file, uploaded."""
    return {CHOICE_KEY: Choice(read_game_upload("hostile.efg", EFG.encode()), "cfr", 50)}


def _assert_literal(at: AppTest, where: str) -> int:
    seen = 0
    for kind, source in shown_texts(at):
        assert not any(raw in source for raw in RAW), (where, kind, source[:200])
        if "evil" in source:
            seen += 1
            assert HOSTILE in rendered_text(source), (where, kind, source[:200])
    return seen


@pytest.mark.parametrize("page", PAGES)
def test_every_page_shows_a_files_names_as_written(page: str) -> None:
    at = open_page(page, state=hostile_choice())
    _assert_literal(at, page)


def test_the_title_shows_as_written_where_it_is_named() -> None:
    # Home, Convergence, Compare and Best response name the game in a sentence.
    for page in ("app.py", "pages/3_Convergence.py", "pages/4_Compare.py", "pages/7_Best_response.py"):
        assert _assert_literal(open_page(page, state=hostile_choice()), page) >= 1, page


def test_play_and_the_lock_editor_show_names_as_written() -> None:
    # Play: the buttons mid-hand, then the finished hand's table, deal, moves and the bot's decisions.
    at = open_page("pages/8_Play.py", state=hostile_choice())
    at.button(key="play_deal").click().run()
    assert _assert_literal(at, "Play mid-hand") >= 1
    while any(str(b.key).startswith("play_action_") for b in at.button):
        next(b for b in at.button if str(b.key).startswith("play_action_")).click().run()
        assert not at.exception, at.exception
        _assert_literal(at, "Play")
    assert _assert_literal(at, "Play, hand over") >= 4
    table = next(m.value for m in at.markdown if m.value.startswith("| who |"))
    cells = [row.count("<td") for row in MARKDOWN.render(table).split("<tr>")[2:]]
    assert set(cells) == {3}, cells               # who, what, next: the pipe in a name adds no cell
    # The Game tree's lock editor for player 1's set after red (node 1): its labels name the set and actions.
    at = open_page("pages/1_Game_tree.py", state=hostile_choice())
    at.session_state[ui.NODE_KEY] = 1
    at.run()
    assert not at.exception, at.exception
    assert _assert_literal(at, "lock editor") >= 3


def test_an_uploaded_runs_banner_shows_its_games_title_as_written() -> None:
    # A run of the file's game, saved and uploaded: the banner names the game by its title.
    import io

    import cfrviz
    from cfrviz.run import save_run

    run = cfrviz.solve(read_game_upload("hostile.efg", EFG.encode()).tree(), "cfr", iterations=20)
    buffer = io.BytesIO()
    save_run(run, buffer)
    at = AppTest.from_file(APP, default_timeout=120).run()
    at.sidebar.file_uploader(key="cfrviz_w_upload").set_value(("run.npz", buffer.getvalue(),
                                                                "application/octet-stream")).run()
    assert not at.exception, at.exception
    banner = [box.value for box in at.info if "Showing the uploaded run from" in box.value]
    assert banner and "evil" in banner[0], [box.value for box in at.info]
    assert _assert_literal(at, "uploaded run") >= 1
