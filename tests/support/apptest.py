"""Streamlit's AppTest on the app: open a page from a link (and a seeded session), read back what the
page drew: the timeline it mounted and its plotly charts."""
from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from streamlit.testing.v1 import AppTest

from cfrviz.figures.timeline import read_component_data

APP = str(Path(__file__).resolve().parents[2] / "app.py")


def open_link(query: Mapping[str, str] | None = None, timeout: float = 120, *,
              state: Mapping[str, Any] | None = None) -> AppTest:
    """The app (its Home page) opened with `query` as its link and `state` put in its session state
    first (as a page's own keys would hold it), after its first run."""
    at = AppTest.from_file(APP, default_timeout=timeout)
    for key, value in (query or {}).items():
        at.query_params[key] = value
    for key, value in (state or {}).items():
        at.session_state[key] = value
    return at.run()


def open_page(page: str, query: Mapping[str, str] | None = None, timeout: float = 120, *,
              state: Mapping[str, Any] | None = None) -> AppTest:
    """`open_link(query, timeout, state=state)` switched to `page` ("pages/<file>.py", or "app.py" for
    Home, which needs no switch), with no exception."""
    at = open_link(query, timeout, state=state)
    if page != "app.py":
        at.switch_page(page).run()
    assert not at.exception, at.exception
    return at


def mounted(at: AppTest) -> tuple[dict[str, Any], dict[str, Any]]:
    """(header, payload) of the page's one timeline component (AppTest cannot run its JS)."""
    (element,) = at.get("bidi_component")
    return read_component_data(element.proto.bytes)


def charts(at: AppTest) -> list[dict[str, Any]]:
    """The figure of every plotly chart on the page, as plotly's JSON."""
    return [json.loads(chart.proto.spec) for chart in at.get("plotly_chart")]


def screen_text(at: Any) -> str:
    """Every text the page sends to the browser for a user to read (help tooltips and widget options
    included): the protobuf of every element of `at` (an AppTest), joined."""
    parts: list[str] = []

    def walk(node: object) -> None:
        proto = getattr(node, "proto", None)
        if proto is not None:
            parts.append(str(proto))
        for child in getattr(node, "children", {}).values():
            walk(child)

    walk(at._tree)
    return "\n".join(parts)
