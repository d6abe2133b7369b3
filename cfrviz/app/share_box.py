"""The Share box: the address of the view, kept equal to the address bar for the whole run.

The box is drawn before the page's own widgets, which may still write settings into the link
(Compare keeps its list of algorithms there). Every such write redraws the box, so it never shows
the link of the run before.
"""
from __future__ import annotations

from collections.abc import Mapping
from urllib.parse import urlencode

import streamlit as st

_BOX_KEY = "_cfrviz_share_box"     # this run's placeholder and the page address, set by `draw`


def draw(page_url: str, params: Mapping[str, str]) -> None:
    """Draw the box (inside the caller's container) showing `page_url` with `params`."""
    box = st.empty()
    st.session_state[_BOX_KEY] = (box, page_url)
    refresh(params)


def refresh(params: Mapping[str, str]) -> None:
    """Show `params` (the link's query, as just written to the address bar) in this run's box."""
    drawn = st.session_state.get(_BOX_KEY)
    if drawn is None:
        return
    box, page_url = drawn
    box.code(f"{page_url}?{urlencode(dict(params))}", language=None, wrap_lines=True)


def forget() -> None:
    """Drop the box of an earlier run (a page whose link cannot be shared draws none)."""
    st.session_state.pop(_BOX_KEY, None)
