"""The sidebar's lock list: the information sets the solve fixes, each with a remove button.

Locks themselves (`cfrviz.tree.locks`) and their link parameter (`cfrviz.app.links`) live below;
this module only draws them. The caller passes how to change the session's locks, so this module
needs nothing from the app shell's state.
"""
from __future__ import annotations

from collections.abc import Callable

import numpy as np
import streamlit as st

from cfrviz.teaching import texts
from cfrviz.analysis.locks import full_exploitability, lock_effect, restricted_equilibrium
from cfrviz.run import Run
from cfrviz.tree import GameTree
from cfrviz.tree.locks import Locks, restrict
from cfrviz.util.text import clamped_exploitability, escape_markdown, number

#: Two exact values (the linear program's) this close are one: the program solves to about 1e-9.
EXACT_VALUE_TOLERANCE = 1e-7

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


#: Session key: the node whose set the tree's lock key (L) asked to lock; its editor opens.
LOCK_ASKED_KEY = "cfrviz_lock_asked"

# The open editor's controls sit in a container keyed by the set's index; Streamlit gives its element
# the class "st-key-<key>", which the timeline's header names (`LOCK_EDITOR_SELECTOR`, "{set}" the
# set's index) so that after L the keyboard focus moves to the editor's first control.
_EDITOR_KEY = "cfrviz_lock_editor_"

#: Where the timeline finds the lock editor of information set {set} (the Game tree's header `locks`).
LOCK_EDITOR_SELECTOR = f".st-key-{_EDITOR_KEY}{{set}}"


def lockable_node(value: object, tree: GameTree) -> int | None:
    """The node the timeline's lock key sent (`value`, from the browser), when it is a node of `tree`
    at which a player acts; else None."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < tree.num_nodes:
        return None
    return value if int(tree.infoset[value]) >= 0 else None


def lock_editor(tree: GameTree, node: int | None, locks: Locks, set_locks: Callable[[Locks], None],
                disabled: bool = False, asked: bool = False) -> None:
    """"Lock this set" for the information set of the selected `node`: one button per pure action, or a
    slider per action (weights, normalized to probabilities) and a button; "Unlock" when it is locked.
    Without a selected decision node, the set is picked from a list: locking needs no click first.
    `asked`: open it (the tree's lock key, L)."""
    if node is not None and 0 <= node < tree.num_nodes and int(tree.infoset[node]) >= 0:
        index = int(tree.infoset[node])
        record = tree.infosets[index]
        title, picked = f"🔒 Lock this set: {escape_markdown(record.key)}", True
    else:
        index, record = 0, tree.infosets[0]
        title, picked = "🔒 Lock an information set (or click a node of the tree)", False
    with st.expander(title, expanded=record.key in locks or asked):
        if not picked:
            keys = [r.key for r in tree.infosets]
            index = int(st.selectbox("Information set", range(len(keys)), key=f"{LOCK_WIDGET}set",
                                     format_func=lambda i: f"{keys[i]} (player {int(tree.infosets[i].player) + 1})"))
            record = tree.infosets[index]
        with st.container(key=f"{_EDITOR_KEY}{index}"):
            _lock_controls(record.key, record.actions, locks, set_locks, disabled)


def _lock_controls(key: str, actions: tuple[str, ...], locks: Locks, set_locks: Callable[[Locks], None],
                   disabled: bool) -> None:
    """The buttons and sliders that lock the set `key` (its `actions`), or unlock it."""
    shown, names = escape_markdown(key), [escape_markdown(n) for n in actions]   # labels render markdown
    st.caption("Fix this information set's strategy and re-solve: the solver treats it as a chance node. "
               "See who adapts, and what it costs, below the tree.")
    if key in locks:
        st.button(f"Unlock {shown}", key=f"{LOCK_WIDGET}unlock", on_click=set_locks,
                  args=(without(locks, key),), disabled=disabled)
    pure = st.columns(len(actions))
    for a, (column, name) in enumerate(zip(pure, names)):
        column.button(f"Always {name}", key=f"{LOCK_WIDGET}pure_{a}", on_click=set_locks,
                      args=(with_lock(locks, key, tuple(float(a == b) for b in range(len(actions)))),),
                      disabled=disabled)
    current = locks[key] if key in locks else (1.0 / len(actions),) * len(actions)
    weights = [st.slider(f"Weight of {name}", 0.0, 1.0, float(current[a]), 0.01, key=f"{LOCK_WIDGET}w_{key}_{a}",
                         disabled=disabled) for a, name in enumerate(names)]
    total = sum(weights)
    if total <= 0:
        st.caption("Give at least one action some weight.")
        return
    mixed = tuple(w / total for w in weights)
    st.button("Lock with these weights (" + ", ".join(f"{n} {p:.2f}" for n, p in zip(names, mixed))
              + ")", key=f"{LOCK_WIDGET}mixed", on_click=set_locks, args=(with_lock(locks, key, mixed),),
              disabled=disabled)


#: Home's learning-path step into the locked-vs-unlocked view: player 1 never bets (bluffs) with the jack.
LOCK_STEP = ("pages/1_Game_tree.py", texts.LOCK_EXAMPLE_LABEL, texts.LOCK_EXAMPLE_NOTICE, dict(texts.LOCK_EXAMPLE_PARAMS))


def _row_text(names: tuple[str, ...], row: np.ndarray) -> str:
    return ", ".join(f"{name} {p:.3f}" for name, p in zip(names, row))


def locked_vs_unlocked(tree: GameTree, locked: Run, unlocked: Run, locks: Locks) -> None:
    """The "Locked vs unlocked" section: each player's value change, the exploitability of the locked
    run in both games with the locked game's exact value, which of the other player's sets moved most,
    and every set's two average strategies side by side (largest moves first)."""
    effect = lock_effect(unlocked, locked, locks)
    restricted = restrict(tree, locks)
    st.subheader("Locked vs unlocked")
    st.caption(f"Locks: {escape_markdown(locks.text())}. The same algorithm and iterations, solved with and "
               "without the locks; average strategies at the last iteration.")
    one, two, three, four = st.columns(4)
    one.metric("Player 1's value change", number(effect.value_change(0), signed=True),
               help="Locked minus unlocked value, chips per hand: negative is what the locks cost player 1.")
    two.metric("Player 2's value change", number(effect.value_change(1), signed=True))
    three.metric("Exploitability, locked game", number(clamped_exploitability(float(locked.exploitability[-1]))),
                 help="A best response may not change a locked set: this falls to zero as the solve converges.")
    four.metric("Exploitability, full game",
                number(clamped_exploitability(float(full_exploitability(restricted, locked.average_strategy[-1])))),
                help="A best response may change any set, locked ones too: how exploitable the locked strategy is.")
    try:
        locked_value = restricted_equilibrium(restricted)[0]
        game_value = restricted_equilibrium(restrict(tree, Locks()))[0]
        st.caption(f"The locked game's exact value for player 1 is {locked_value:.6f}, the game's "
                   f"{game_value:.6f} (the sequence-form linear program with each locked set as a chance node).")
        if abs(locked_value - game_value) <= EXACT_VALUE_TOLERANCE:
            st.success("This lock costs nothing: the locked game is worth exactly what the game is, so the locked "
                       "strategy is itself part of an equilibrium strategy. The value changes above are the solve "
                       "still converging, not a cost.", icon=":material/check_circle:")
    except ValueError as problem:      # too big for the program's time limit
        st.caption(escape_markdown(str(problem)))
    locked_players = {int(tree.infosets[tree.infoset_index(key)].player) for key in locks}
    adapting = {0, 1} - locked_players or {0, 1}
    for player in sorted(adapting):
        moved = effect.moved_most(player)
        if moved:
            st.markdown(f"**How player {player + 1} adapts** (sets that moved most): " + "; ".join(
                f"{escape_markdown(effect.keys[i])} moved {effect.change[i]:.2f}" for i in moved))
        else:
            st.markdown(f"Player {player + 1}'s strategy did not move.")
    names = [r.actions for r in tree.infosets]
    # The adapting player's sets first (the lesson: how they answer the lock), each player's largest moves first.
    order = sorted(range(tree.num_infosets),
                   key=lambda i: (int(effect.player[i]) not in adapting, -effect.change[i], effect.keys[i]))
    import pandas       # only for this table: the pages that never show it need not load it

    table = pandas.DataFrame({
        "set": [("🔒 " if effect.locked[i] else "") + effect.keys[i] for i in order],
        "player": [int(effect.player[i]) + 1 for i in order],
        "unlocked": [_row_text(names[i], effect.unlocked_strategy[i]) for i in order],
        "locked": [_row_text(names[i], effect.locked_strategy[i]) for i in order],
        "moved": [float(effect.change[i]) for i in order],
    })
    st.dataframe(table, hide_index=True, column_config={
        "moved": st.column_config.ProgressColumn(
            "moved", min_value=0.0, max_value=1.0, format="%.3f",
            help="Total variation distance between the two strategies: 0 unchanged, 1 disjoint.")})


def exploitability_in_both_games(run: Run, snapshot: int, full: float) -> None:
    """Best response's note for a locked run: its exploitability in the locked game (a best response
    may not change a locked set) beside `full`, the whole game's (the numbers above, where it may)."""
    if not run.settings.locks:
        return
    st.info(f"Locked run ({escape_markdown(run.settings.locks.text())}). Exploitability in the locked game, where "
            f"a best response may not change a locked set: {float(run.exploitability[snapshot]):.5f}. In the full "
            f"game, where it may (the numbers above): {full:.5f}. The solve drives the first to zero; the second "
            "says how exploitable the locked strategy is.")
