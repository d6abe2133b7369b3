"""The sidebar's lock list: the information sets the solve fixes, each with a remove button.

Locks themselves (`cfrviz.tree.locks`) and their link parameter (`cfrviz.app.links`) live below;
this module only draws them. The caller passes how to change the session's locks, so this module
needs nothing from the app shell's state.
"""
from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from cfrviz.tree.locks import Locks
from cfrviz.util.text import escape_markdown

#: Widget keys of the lock list start with this.
LOCK_WIDGET = "cfrviz_w_lock_"


def without(locks: Locks, key: str) -> Locks:
    """`locks` less the lock on `key` (unchanged when there is none)."""
    return Locks(tuple(item for item in locks.items if item[0] != key))


def lock_list(locks: Locks, actions: Callable[[str], tuple[str, ...]], set_locks: Callable[[Locks], None],
              disabled: bool = False) -> None:
    """In the sidebar: one line per lock ("J: check 0, bet 1") with a remove button, or nothing without locks.

    actions: an information set's action names, by key. set_locks: stores the new locks for the session.
    """
    if not locks:
        return
    with st.sidebar:
        st.markdown("**Locked sets**")
        st.caption("These sets play the given strategy; the solver treats them as chance nodes.")
        for index, (key, probabilities) in enumerate(locks.items):
            names = actions(key)
            shown = ", ".join(f"{name} {p:.3g}" for name, p in zip(names, probabilities))
            text, remove = st.columns([4, 1])
            text.markdown(f"🔒 {escape_markdown(key)}: {escape_markdown(shown)}")
            remove.button("✕", key=f"{LOCK_WIDGET}remove_{index}", help=f"Remove the lock on {key}",
                          on_click=set_locks, args=(without(locks, key),), disabled=disabled)
