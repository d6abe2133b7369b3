"""Small pieces pages share: notices, the rules card and letter legend."""
from __future__ import annotations

import streamlit as st

from cfrviz.util.text import escape_markdown


def notice(text: str) -> None:
    """Show a plain-text sentence as a warning; it may quote strangers' text, so no markup survives."""
    st.warning(escape_markdown(text), icon=":material/warning:")


def error(text: str) -> None:
    """Show a plain-text sentence as an error, escaped like `notice`."""
    st.error(escape_markdown(text))


def plain(text: object) -> str:
    """User text (a file name) inside markdown: bounded, inert."""
    return escape_markdown(str(text)[:80])


def rules_card(game: object, *, expanded: bool = False) -> None:
    """An expander with the game's rules and the letters its keys and labels use."""
    rules = getattr(game, "rules", "")
    legend = getattr(game, "action_legend", {})
    if not rules and not legend:
        return
    with st.expander(f"Rules of {getattr(game, 'title', 'this game')}", expanded=expanded,
                     icon=":material/menu_book:"):
        if rules:
            st.markdown(rules)
        if legend:
            st.markdown(legend_text(legend))


def legend_text(legend: dict[str, str]) -> str:
    """One line explaining the letters: "**Letters:** `k` check · `b` bet · ... · `T` ten"."""
    return "**Letters:** " + " · ".join(f"`{letter}` {meaning}" for letter, meaning in legend.items())


def action_legend(game: object) -> None:
    """A caption explaining the letters drawn on the page (nothing for games without letters)."""
    legend = getattr(game, "action_legend", {})
    if legend:
        st.caption(legend_text(legend))
