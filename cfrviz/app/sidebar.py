"""The sidebar's shared solve controls: game (with its parameters and OpenSpiel games), algorithm,
updates, iterations and seed. Widget values die on page switches, so the callbacks copy them into
the session's `Choice` and every page feeds that back into the widgets."""
from __future__ import annotations

import logging
from dataclasses import replace

import streamlit as st

from cfrviz import catalog
from cfrviz.app.locks import lock_list
from cfrviz.app.links import MAX_SEED, Choice, algorithms_for, iteration_cap, supported_updates
from cfrviz.app.registry import Page
from cfrviz.app.state import CHOICE_KEY, NODE_KEY, NOTICE_KEY, T_KEY, UPLOAD_KEY, W, choose_game, state_choice
from cfrviz.catalog import GameSpec, Parameter
from cfrviz.solvers import ALGORITHMS, UPDATE_SCHEMES, update_schemes
from cfrviz.tree.locks import Locks
from cfrviz.util.text import quoted

#: The game menu's widget value for a game a link cannot name (an uploaded .efg): the widget holds
#: strings (a menu game's link value), the menu maps each back to its `GameSpec`.
_UPLOADED_GAME = "uploaded"


#: Pages that solve nothing from the sidebar (they have their own game and settings): the sidebar shows no
#: solve controls there, and their links carry only their own settings.
PAGES_WITHOUT_SOLVE = frozenset({Page.REGRET_MATCHING, Page.WALKTHROUGH})


def follows_sidebar(page: Page | None) -> bool:
    """Whether `page` uses the sidebar's solve (every page but the ones with their own game)."""
    return page not in PAGES_WITHOUT_SOLVE


def own_settings_note() -> None:
    """The sidebar of a page with its own game: what happened to the solve controls, instead of them."""
    with st.sidebar:
        st.subheader("Solve")
        st.caption("This page has its own game and settings, on the page. The other pages' solve settings are "
                   "kept for them and come back there.")


def _sidebar_parameters(game: GameSpec) -> tuple[Parameter, ...]:
    """The game's parameters the sidebar sets (whole numbers, such as Kuhn's cards)."""
    return tuple(p for p in game.entry.parameters if p.kind == "int")


def _menu_game(game: GameSpec) -> GameSpec:
    """The game menu's entry for a game: the game without the parameters the sidebar sets itself."""
    own = {p.name for p in _sidebar_parameters(game)}
    return GameSpec(game.entry, tuple(kv for kv in game.params if kv[0] not in own))


def _widget_value(game: GameSpec) -> str:
    """A menu game as the menu widget holds it (its link value; an uploaded game has none)."""
    return game.link or _UPLOADED_GAME


def _menu(choice: Choice) -> dict[str, GameSpec]:
    """The game menu by widget value; an uploaded game is listed while it is chosen."""
    options = {_widget_value(g): g for g in catalog.menu()}
    chosen = _menu_game(choice.spec)
    options.setdefault(_widget_value(chosen), chosen)
    return options


def _on_sidebar_change() -> None:
    """Copy the sidebar widgets into the shared state (widget values die on page switches)."""
    old = state_choice()
    s = st.session_state
    old_game = old.spec
    menu = _menu(old)
    picked = menu.get(str(s.get(W + "game", _widget_value(_menu_game(old_game)))), _menu_game(old_game))
    same = picked == _menu_game(old_game)
    game = old_game if same else picked
    params = dict(game.params)
    if same:
        for parameter in _sidebar_parameters(game):
            params[parameter.name] = int(s.get(W + parameter.name, params.get(parameter.name, parameter.default)))
    if params != dict(game.params):     # a sidebar parameter changed: the one new game to resolve
        game = catalog.get(game.name, **params)
    algorithm = s.get(W + "algo", old.algorithm)
    if algorithm not in algorithms_for(game) or (game.matrix and not old_game.matrix):
        algorithm = game.default_algorithm
    cap = iteration_cap(game)
    iterations = int(s.get(W + "iters", old.iterations))
    notices = []
    if iterations > cap:
        notices.append(f"{game.title} is capped at {cap:,} iterations on this shared server, "
                       f"so {iterations:,} became {cap:,}. Use the CLI for longer solves.")
        iterations = cap
    iterations = max(1, iterations)
    new = Choice(game, algorithm, iterations, s.get(W + "updates", old.updates), int(s.get(W + "seed", old.seed)),
                 old.locks if game == old.spec else Locks())
    supported = supported_updates(new)
    if supported != new:
        notices.append(f"{ALGORITHMS[algorithm].title} updates one player per traversal, "
                       f"so updates are {supported.updates}.")
        new = supported
    if new.spec != old.spec:
        s[NODE_KEY] = None
    t = s.get(T_KEY)
    if t is not None and (t >= old.iterations or t > new.iterations):
        s[T_KEY] = None  # was showing the end: keep showing the end
    s[CHOICE_KEY] = new
    s[NOTICE_KEY] = tuple(notices)
    s.pop(UPLOAD_KEY, None)


def sidebar(choice: Choice, *, in_use: bool = True, note: str | None = None) -> None:
    """The shared solve controls; disabled, with a caption saying why, while an upload is shown."""
    s = st.session_state
    game = choice.spec
    menu = _menu(choice)
    # Feed the shared state back into the widgets (they are rebuilt on every page).
    s[W + "game"] = _widget_value(_menu_game(game))
    for parameter in _sidebar_parameters(game):
        s[W + parameter.name] = int(dict(game.params).get(parameter.name, parameter.default))
    s[W + "algo"] = choice.algorithm
    s[W + "iters"] = choice.iterations
    s[W + "updates"] = choice.updates
    s[W + "seed"] = choice.seed
    off = not in_use
    with st.sidebar:
        st.subheader("Solve")
        if off:
            st.caption("Not in use: the pages show the uploaded run. Go back to the sidebar's solve under "
                       "Share to use these again.")
        elif note:
            st.caption(note)
        st.selectbox("Game", list(menu), format_func=lambda key: menu[key].label if key in menu else key, key=W + "game",
                     on_change=_on_sidebar_change, disabled=off)
        for parameter in _sidebar_parameters(game):
            st.number_input(parameter.label, min_value=parameter.low, max_value=parameter.high,
                            step=1, key=W + parameter.name, on_change=_on_sidebar_change, help=parameter.help,
                            disabled=off)
        _openspiel_box(choice, off)
        st.selectbox("Algorithm", list(algorithms_for(game)),
                     format_func=lambda a: ALGORITHMS[a].title, key=W + "algo", on_change=_on_sidebar_change,
                     disabled=off)
        only_one = len(update_schemes(choice.algorithm)) == 1
        st.radio("Updates", list(UPDATE_SCHEMES), key=W + "updates", horizontal=True,
                 on_change=_on_sidebar_change, disabled=only_one or off,
                 help="Simultaneous: both players update every iteration, as in the classic tutorial code. "
                      "Alternating: one player per traversal."
                      + (" This algorithm samples for one player at a time, so it alternates." if only_one else ""))
        cap = iteration_cap(game)
        st.number_input(f"Iterations (up to {cap:,})", min_value=1, step=100, key=W + "iters",
                        on_change=_on_sidebar_change, disabled=off)
        if choice.sampling:
            st.number_input("Seed", min_value=0, max_value=MAX_SEED, step=1, key=W + "seed",
                            on_change=_on_sidebar_change, disabled=off,
                            help="Sampling algorithms draw from a random generator built from this seed.")
    tree = choice.tree() if choice.locks else None
    lock_list(choice.locks, lambda key: tree.infosets[tree.infoset_index(key)].actions if tree else (),
              set_locks, disabled=off)


def set_locks(locks: Locks) -> None:
    """Solve the sidebar's game with `locks` from now on (the URL follows on the next run)."""
    st.session_state[CHOICE_KEY] = replace(state_choice(), locks=locks)



def _openspiel_box(choice: Choice, off: bool) -> None:
    """The sidebar's OpenSpiel games: the server's vetted menu with each game's parameters in range, or,
    when the app was started with CFRVIZ_OPENSPIEL_ANY=1, a box for any game string."""
    if not catalog.openspiel_available():
        return
    if catalog.openspiel_any():
        st.text_input("Or an OpenSpiel game", key=W + "openspiel", on_change=_on_openspiel, disabled=off,
                      placeholder="liars_dice(numdice=1,dice_sides=3)",
                      help="A two-player zero-sum OpenSpiel game string; the game is enumerated once.")
        return
    s = st.session_state
    menu = {g.name: g for g in catalog.openspiel_menu()}
    current = _openspiel_menu_values(choice)
    if s.get(W + "os_game") not in menu:
        s[W + "os_game"] = current[0] if current else next(iter(menu))
    with st.expander("Or an OpenSpiel game", expanded=current is not None):
        name = st.selectbox("OpenSpiel game", list(menu), format_func=lambda n: menu[n].title, key=W + "os_game",
                            disabled=off, help="Games from OpenSpiel vetted for this server, with parameters "
                                               "in ranges that load in well under a second.")
        values = current[1] if current and current[0] == name else {}
        for parameter in menu[name].parameters:
            if parameter.pinned:
                continue
            key = f"{W}os_{name}_{parameter.name}"
            start = values.get(parameter.name, parameter.initial)
            if parameter.kind == "int":
                s.setdefault(key, int(start))
                st.number_input(parameter.label, min_value=parameter.low, max_value=parameter.high, step=1, key=key,
                                disabled=off)
            elif parameter.kind == "bool":
                s.setdefault(key, start == "True")
                st.checkbox(parameter.label, key=key, disabled=off)
            else:
                s.setdefault(key, start)
                st.selectbox(parameter.label, list(parameter.allowed), key=key, disabled=off)
        st.button("Solve this game", key=W + "os_load", on_click=_on_openspiel_menu, disabled=off)


def _openspiel_menu_values(choice: Choice) -> tuple[str, dict[str, str]] | None:
    """The menu game and parameter values of the sidebar's game, when it is a menu game."""
    if choice.spec.name != "openspiel":
        return None
    found = catalog.openspiel_menu_values(str(dict(choice.spec.params).get("game_string", "")))
    return None if found is None else (found[0].name, found[1])


def _on_openspiel_menu() -> None:
    """Make the menu's OpenSpiel game, with the chosen parameters, the sidebar's game."""
    s = st.session_state
    game = {g.name: g for g in catalog.openspiel_menu()}.get(str(s.get(W + "os_game")))
    if game is None:
        return
    values = {}
    for parameter in game.parameters:
        value = s.get(f"{W}os_{game.name}_{parameter.name}", parameter.initial)
        if not parameter.pinned:
            values[parameter.name] = str(value) if not isinstance(value, bool) else ("True" if value else "False")
    try:
        text = game.game_string(values)
    except ValueError as error:
        s[NOTICE_KEY] = (str(error),)
        return
    _choose_openspiel(text)


def _on_openspiel() -> None:
    """Make the typed OpenSpiel game the sidebar's game, or say in one sentence why not."""
    text = str(st.session_state.get(W + "openspiel") or "").strip()
    if text:
        _choose_openspiel(text)


def _choose_openspiel(text: str) -> None:
    """Switch to the OpenSpiel game `text` (menu games only unless the app opted in), or say why not."""
    try:
        choose_game(catalog.lookup_hosted("openspiel:" + text.removeprefix("openspiel:")))
    except ValueError as error:
        st.session_state[NOTICE_KEY] = (str(error),)
    except Exception:   # a defect still ends in a sentence, not Streamlit's generic error
        logging.getLogger(__name__).exception("loading an OpenSpiel game from the sidebar")
        st.session_state[NOTICE_KEY] = (f"The OpenSpiel game {quoted(text, 60)} could not be loaded.",)
