"""Streamlit's AppTest on the app: open a page from a link, read back what the timeline was mounted with."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from streamlit.testing.v1 import AppTest

from cfrviz.figures.timeline import read_component_data

APP = str(Path(__file__).resolve().parents[2] / "app.py")


def open_link(query: dict[str, str], timeout: float = 120) -> AppTest:
    """The app (its Home page) opened with `query` as its link, after its first run."""
    at = AppTest.from_file(APP, default_timeout=timeout)
    for key, value in query.items():
        at.query_params[key] = value
    return at.run()


def open_page(page_file: str, query: dict[str, str], timeout: float = 120) -> AppTest:
    """The app opened with `query` as its link, switched to `pages/<page_file>`, with no exception."""
    at = open_link(query, timeout)
    at.switch_page(f"pages/{page_file}").run()
    assert not at.exception, at.exception
    return at


def mounted(at: AppTest) -> tuple[dict[str, Any], dict[str, Any]]:
    """(header, payload) of the page's one timeline component."""
    (element,) = at.get("bidi_component")
    return read_component_data(element.proto.bytes)
