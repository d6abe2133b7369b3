"""The sidebar's lock list: the information sets the solve fixes, each with a remove button.

Locks themselves (`cfrviz.tree.locks`) and their link parameter (`cfrviz.app.links`) live below;
this module only draws them. The caller passes how to change the session's locks, so this module
needs nothing from the app shell's state.
"""
from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from cfrviz.tree import GameTree
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


def with_lock(locks: Locks, key: str, probabilities: tuple[float, ...]) -> Locks:
    """`locks` with `key` fixed to `probabilities` (replacing any lock it had)."""
    return Locks.of({**locks.as_dict(), key: list(probabilities)})


def lock_editor(tree: GameTree, node: int | None, locks: Locks, set_locks: Callable[[Locks], None],
                disabled: bool = False) -> None:
    """"Lock this set" for the information set of the selected `node`: one button per pure action, or a
    slider per action (weights, normalized to probabilities) and a button; "Unlock" when it is locked.
    Nothing for a chance node, a terminal node or no selection."""
    if node is None or not 0 <= node < tree.num_nodes or int(tree.infoset[node]) < 0:
        return
    record = tree.infosets[int(tree.infoset[node])]
    key = record.key
    with st.expander(f"🔒 Lock this set: {key}", expanded=key in locks):
        st.caption("Fix this information set's strategy and re-solve: the solver treats it as a chance node. "
                   "See who adapts, and what it costs, below the tree.")
        if key in locks:
            st.button(f"Unlock {key}", key=f"{LOCK_WIDGET}unlock", on_click=set_locks,
                      args=(without(locks, key),), disabled=disabled)
        pure = st.columns(len(record.actions))
        for a, (column, name) in enumerate(zip(pure, record.actions)):
            column.button(f"Always {name}", key=f"{LOCK_WIDGET}pure_{a}", on_click=set_locks,
                          args=(with_lock(locks, key, tuple(float(a == b) for b in range(len(record.actions)))),),
                          disabled=disabled)
        current = locks[key] if key in locks else (1.0 / len(record.actions),) * len(record.actions)
        weights = [st.slider(f"Weight of {name}", 0.0, 1.0, float(current[a]), 0.01, key=f"{LOCK_WIDGET}w_{key}_{a}",
                             disabled=disabled) for a, name in enumerate(record.actions)]
        total = sum(weights)
        if total <= 0:
            st.caption("Give at least one action some weight.")
            return
        mixed = tuple(w / total for w in weights)
        st.button("Lock with these weights (" + ", ".join(f"{n} {p:.2f}" for n, p in zip(record.actions, mixed))
                  + ")", key=f"{LOCK_WIDGET}mixed", on_click=set_locks, args=(with_lock(locks, key, mixed),),
                  disabled=disabled)
