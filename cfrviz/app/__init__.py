"""The one place in `cfrviz` that speaks Streamlit: shared sidebar, deep links, cached solve.

Every page starts with::

    from cfrviz import app as ui
    view = ui.setup_page("Page title")             # or solve=False

Parsing and checking the query parameters is pure and lives in `cfrviz.app.links`.

Session-state keys that tests and pages may use:
  `ui.T_KEY`     the iteration shown (an int), shared by every page
  `ui.NODE_KEY`  the selected tree node id (an int or None)
"""
from __future__ import annotations

import functools
import logging
import math
import threading
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Literal

import pandas  # noqa: F401  (fully imported before any session: plotly reads a half-imported pandas under concurrent sessions)
import streamlit as st

from cfrviz import catalog
from cfrviz.catalog import CatalogGame, Parameter, compile_game
from cfrviz.app.links import (
    DEFAULT_CHOICE,
    MAX_SEED,
    Choice,
    algorithms_for,
    iteration_cap,
    page_params_of,
    page_setting,
    parse_page_settings,
    parse_query_params,
    query_params_of,
    supported_updates,
)
from cfrviz.run import Run, RunSettings, export_strategy, save_run
from cfrviz.run.cache import RunCache
from cfrviz.solvers import ALGORITHMS, UPDATE_SCHEMES, update_schemes
from cfrviz.util.text import escape_markdown, quoted
from cfrviz.tree import GameTree
from cfrviz.run.uploads import MAX_UPLOAD_MB, read_game_upload, read_upload

T_KEY = "cfrviz_t"
NODE_KEY = "cfrviz_node"
CHOICE_KEY = "cfrviz_choice"
UPLOAD_KEY = "cfrviz_upload"
UPLOAD_NAME_KEY = "cfrviz_upload_name"
_WRITTEN_KEY = "cfrviz_written_params"
PAGE_SETTINGS_KEY = "cfrviz_page_settings"
_NOTICE_KEY = "cfrviz_notices"
_W = "cfrviz_w_"  # prefix of the sidebar widgets' keys

# Material icons ship with Streamlit; emoji would need a font the server's browser may lack.
PAGES = (
    ("app.py", "Home", ":material/home:"),
    ("pages/1_Game_tree.py", "Game tree", ":material/account_tree:"),
    ("pages/2_Evolution.py", "Evolution", ":material/timeline:"),
    ("pages/3_Convergence.py", "Convergence", ":material/trending_down:"),
    ("pages/4_Compare.py", "Compare", ":material/compare_arrows:"),
    ("pages/5_Regret_matching.py", "Regret matching", ":material/change_history:"),
    ("pages/6_Walkthrough.py", "Walkthrough", ":material/footprint:"),
    ("pages/7_Best_response.py", "Best response", ":material/swords:"),
    ("pages/8_Play.py", "Play", ":material/playing_cards:"),
)
_ROOT = Path(__file__).resolve().parents[2]

#: A learner's order through the app, with what to notice on each page (Home's "Start here").
LEARNING_PATH = (
    ("pages/5_Regret_matching.py", "Regret matching",
     "how the current strategy keeps circling while the average settles on the equilibrium."),
    ("pages/6_Walkthrough.py", "Walkthrough",
     "how one CFR iteration passes reach probabilities down the tree and regrets back up."),
    ("pages/1_Game_tree.py", "Game tree",
     "which histories a player cannot tell apart (one information set), and the strategy on the edges."),
    ("pages/3_Convergence.py", "Convergence",
     "the average strategy walking into Kuhn's family of equilibria as exploitability falls like 1/√T."),
    ("pages/7_Best_response.py", "Best response",
     "who could still exploit the strategy, and where."),
    ("pages/8_Play.py", "Play",
     "that over many hands you cannot beat the solved strategy."),
)


# ---------------------------------------------------------------------------------------------
# Streamlit part.


@dataclass(frozen=True)
class View:
    """What a page shows: settings, tree, run, the iteration `t` and the selected node.

    `snapshot` indexes the run's snapshot arrays ([T, ...]) at `t`; it is 0 when `run` is None.
    `params` are the deep-link query parameters of this view (for `st.page_link`).
    """

    settings: RunSettings
    tree: GameTree
    run: Run | None
    t: int
    snapshot: int
    node: int | None
    choice: Choice
    params: dict[str, str]
    uploaded: bool = False
    page: str | None = None


# Kernels compile once per process (or load from numba's on-disk cache). A background thread
# pays for that at start-up, while the first page draws its text; solves meanwhile say so.
_WARM = threading.Event()
_WARM_LOCK = threading.Lock()
_warm_thread: threading.Thread | None = None


def start_warmup() -> None:
    """Start compiling the kernels in the background, once per process (thread-safe).

    Every page calls it; `python -m cfrviz.app.serve` calls it before the server takes visitors."""
    global _warm_thread
    with _WARM_LOCK:
        if _warm_thread is not None:
            return
        _warm_thread = threading.Thread(target=_warm, name="cfrviz-warmup", daemon=True)
        _warm_thread.start()


def wait_until_warm(timeout: float | None = None) -> bool:
    """Block until the background warm-up has finished (True) or `timeout` seconds passed (False)."""
    return _WARM.wait(timeout)


def _warm() -> None:
    from cfrviz.app.warmup import compile_kernels

    try:
        compile_kernels()
    finally:
        _WARM.set()


# Solves big enough to show a progress bar: node visits of about half a second of vanilla CFR
# (measured about 40 million node visits per second).
_PROGRESS_COST = 20_000_000


#: Per-process budget for solved runs shared by every session (README, "Memory and CPU budget"):
#: the snapshot arrays of at most this many bytes and runs, and this many solves at once.
#: The compiled kernels hold the GIL, so a second solve at once would only take turns with the
#: first while holding another run's worth of memory.
RUN_CACHE_BYTES = 100_000_000
RUN_CACHE_ENTRIES = 24
CONCURRENT_SOLVES = 1


@st.cache_resource(show_spinner=False)
def shared_runs() -> RunCache:
    """The process's one run cache: every session gets the same read-only `Run` for the same solve."""
    return RunCache(RUN_CACHE_BYTES, RUN_CACHE_ENTRIES, CONCURRENT_SOLVES)


def cached_solve(game: str, game_params: tuple[tuple[str, Any], ...], algorithm: str, iterations: int, updates: str,
                 seed: int) -> Run:
    """`cfrviz.solve` on plain values, one shared copy per process; shows a progress bar when slow.

    The run is shared with other sessions: read it, never write into it (its arrays are read-only).
    """
    from cfrviz import runner
    def solve() -> Run:
        bar = None
        if float(compile_game(game, **dict(game_params)).num_nodes) * iterations >= _PROGRESS_COST:
            bar = st.progress(0.0, text=f"Solving {iterations:,} iterations…")

        def progress(fraction: float) -> None:
            if bar is None:
                return
            fraction = min(max(float(fraction), 0.0), 1.0)
            bar.progress(fraction, text=f"Solving… {fraction:.0%}")

        run = runner.solve(game, algorithm, iterations=iterations, updates=updates, seed=seed,
                           progress=progress, **dict(game_params))
        if bar is not None:
            bar.empty()
        return run

    key = (game, tuple(game_params), algorithm, int(iterations), updates, int(seed))
    return shared_runs().get(key, solve)


def _state_choice() -> Choice:
    choice: Choice = st.session_state.get(CHOICE_KEY, DEFAULT_CHOICE)
    return choice


def _adopt_query_params() -> None:
    """Take the URL's view when it is new to this session (a deep link or a page link)."""
    current = {k: st.query_params.get_all(k)[-1] for k in st.query_params.keys()}
    written = st.session_state.get(_WRITTEN_KEY)
    first_visit = CHOICE_KEY not in st.session_state
    if not first_visit and (not current or current == written):
        return
    link = parse_query_params(current)
    page_values, page_notices = parse_page_settings(current)
    st.session_state[CHOICE_KEY] = link.choice
    st.session_state[T_KEY] = link.t
    st.session_state[NODE_KEY] = link.node
    st.session_state[_NOTICE_KEY] = link.notices + page_notices
    st.session_state[PAGE_SETTINGS_KEY] = {**st.session_state.get(PAGE_SETTINGS_KEY, {}), **page_values}
    if current:
        st.session_state.pop(UPLOAD_KEY, None)


_UPLOADED_GAME = "uploaded"   # the game menu's key for a game a link cannot name (an uploaded .efg)


def _sidebar_parameters(game: CatalogGame) -> tuple[Parameter, ...]:
    """The game's parameters the sidebar sets (whole numbers, such as Kuhn's cards)."""
    return tuple(p for p in game.entry.parameters if p.kind == "int")


def _menu_key(game: CatalogGame) -> str:
    """The game menu's entry for a game: its link value without the sidebar's own parameters."""
    own = {p.name for p in _sidebar_parameters(game)}
    return CatalogGame(game.entry, tuple(kv for kv in game.params if kv[0] not in own)).link or _UPLOADED_GAME


def _menu(choice: Choice) -> dict[str, str]:
    """Game menu keys (link values) and titles; an uploaded game is listed while it is chosen."""
    options = {str(g.link): g.label for g in catalog.menu()}
    key = _menu_key(choice.catalog_game)
    if key not in options:
        options[key] = choice.catalog_game.label
    return options


def _on_sidebar_change() -> None:
    """Copy the sidebar widgets into the shared state (widget values die on page switches)."""
    old = _state_choice()
    s = st.session_state
    old_game = old.catalog_game
    key = s.get(_W + "game", _menu_key(old_game))
    game = old_game if key in (_menu_key(old_game), _UPLOADED_GAME) else catalog.lookup(key)
    params = dict(game.params)
    if key == _menu_key(old_game):
        for parameter in _sidebar_parameters(game):
            params[parameter.name] = int(s.get(_W + parameter.name, params.get(parameter.name, parameter.default)))
    game = catalog.get(game.name, **params)
    algorithm = s.get(_W + "algo", old.algorithm)
    if algorithm not in algorithms_for(game) or (game.matrix and not old_game.matrix):
        algorithm = game.default_algorithm
    cap = iteration_cap(game)
    iterations = int(s.get(_W + "iters", old.iterations))
    notices = []
    if iterations > cap:
        notices.append(f"{game.title} is capped at {cap:,} iterations on this shared server, "
                       f"so {iterations:,} became {cap:,}. Use the CLI for longer solves.")
        iterations = cap
    iterations = max(1, iterations)
    new = Choice(game.name, game.params, algorithm, iterations, s.get(_W + "updates", old.updates),
                 int(s.get(_W + "seed", old.seed)))
    supported = supported_updates(new)
    if supported != new:
        notices.append(f"{ALGORITHMS[algorithm].title} updates one player per traversal, "
                       f"so updates are {supported.updates}.")
        new = supported
    if (new.game, new.game_params) != (old.game, old.game_params):
        s[NODE_KEY] = None
    t = s.get(T_KEY)
    if t is not None and (t >= old.iterations or t > new.iterations):
        s[T_KEY] = None  # was showing the end: keep showing the end
    s[CHOICE_KEY] = new
    s[_NOTICE_KEY] = tuple(notices)
    s.pop(UPLOAD_KEY, None)


def _sidebar(choice: Choice, *, in_use: bool = True, note: str | None = None) -> None:
    """The shared solve controls; disabled, with a caption saying why, while an upload is shown."""
    s = st.session_state
    game = choice.catalog_game
    menu = _menu(choice)
    # Feed the shared state back into the widgets (they are rebuilt on every page).
    s[_W + "game"] = _menu_key(game)
    for parameter in _sidebar_parameters(game):
        s[_W + parameter.name] = int(dict(game.params).get(parameter.name, parameter.default))
    s[_W + "algo"] = choice.algorithm
    s[_W + "iters"] = choice.iterations
    s[_W + "updates"] = choice.updates
    s[_W + "seed"] = choice.seed
    off = not in_use
    with st.sidebar:
        st.subheader("Solve")
        if off:
            st.caption("Not in use: the pages show the uploaded run. Go back to the sidebar's solve under "
                       "Share to use these again.")
        elif note:
            st.caption(note)
        st.selectbox("Game", list(menu), format_func=lambda key: menu.get(key, key), key=_W + "game",
                     on_change=_on_sidebar_change, disabled=off)
        for parameter in _sidebar_parameters(game):
            st.number_input(parameter.label, min_value=parameter.low, max_value=parameter.high,
                            step=1, key=_W + parameter.name, on_change=_on_sidebar_change, help=parameter.help,
                            disabled=off)
        _openspiel_box(choice, off)
        st.selectbox("Algorithm", list(algorithms_for(game)),
                     format_func=lambda a: ALGORITHMS[a].title, key=_W + "algo", on_change=_on_sidebar_change,
                     disabled=off)
        only_one = len(update_schemes(choice.algorithm)) == 1
        st.radio("Updates", list(UPDATE_SCHEMES), key=_W + "updates", horizontal=True,
                 on_change=_on_sidebar_change, disabled=only_one or off,
                 help="Simultaneous: both players update every iteration, as in the classic tutorial code. "
                      "Alternating: one player per traversal."
                      + (" This algorithm samples for one player at a time, so it alternates." if only_one else ""))
        cap = iteration_cap(game)
        st.number_input(f"Iterations (up to {cap:,})", min_value=1, step=100, key=_W + "iters",
                        on_change=_on_sidebar_change, disabled=off)
        if choice.sampling:
            st.number_input("Seed", min_value=0, max_value=MAX_SEED, step=1, key=_W + "seed",
                            on_change=_on_sidebar_change, disabled=off,
                            help="Sampling algorithms draw from a random generator built from this seed.")


def _share(view: View) -> None:
    with st.sidebar:
        st.subheader("Share")
        if view.uploaded:
            st.caption("You are viewing an uploaded run; a link cannot carry it.")
        elif view.choice.game_param is None:
            st.caption("A link cannot carry your uploaded game; download the run to keep it.")
        else:
            from urllib.parse import urlencode

            st.caption("Link to this view (copy button on the right):")
            st.code(f"{_page_url()}?{urlencode(view.params)}", language=None, wrap_lines=True)
        if view.run is not None:
            try:
                # Callables: the bytes are built only when clicked (compressing a Leduc run at the
                # cap took about 2 s of CPU, which every rerun used to pay).
                st.download_button("Download run (.npz)", data=functools.partial(_run_bytes, view.run),
                                   file_name=f"cfrviz_{_file_stem(view)}_{view.settings.algorithm}.npz",
                                   mime="application/octet-stream", key=_W + "dl_run")
                st.download_button("Download average strategy (.json)",
                                   data=functools.partial(_strategy_json, view.run),
                                   file_name=f"cfrviz_{_file_stem(view)}_strategy.json",
                                   mime="application/json", key=_W + "dl_json")
            except (AttributeError, NotImplementedError):
                st.caption("Downloads need `save_run` and `export_strategy`.")
        st.file_uploader(f"View a saved run (.npz) or strategy (.json), up to {MAX_UPLOAD_MB} MB, "
                         "or solve your own game (Gambit .efg, up to 1 MB)",
                         type=["npz", "json", "efg"], key=_W + "upload", on_change=_on_upload)
        if view.uploaded and st.button("Back to the sidebar's solve", key=_W + "drop_upload"):
            st.session_state.pop(UPLOAD_KEY, None)
            st.rerun()


def _file_stem(view: View) -> str:
    """A file-name-safe name of the view's game."""
    name = view.choice.game_param or view.choice.game
    return "".join(c if c.isascii() and (c.isalnum() or c in "-_") else "_" for c in name)[:40]


def _page_url() -> str:
    """This page's address without its query (the path alone under AppTest, which has no URL)."""
    try:
        url = st.context.url
    except Exception:
        url = None
    return url.split("?")[0] if url else "/"


def _run_bytes(run: Run) -> bytes:
    import io

    buffer = io.BytesIO()
    save_run(run, buffer)
    return buffer.getvalue()


def _strategy_json(run: Run) -> str:
    text = export_strategy(run)
    return text if isinstance(text, str) else str(text)


def _on_upload() -> None:
    upload = st.session_state.get(_W + "upload")
    if upload is None:  # the user removed the file: back to the sidebar's solve
        st.session_state.pop(UPLOAD_KEY, None)
        return
    if str(upload.name).lower().endswith(".efg"):
        _adopt_game(upload.name, upload.getvalue())
        return
    try:
        run = read_upload(upload.name, upload.getvalue())  # checks the size cap too
    except ValueError as problem:
        st.session_state[_NOTICE_KEY] = (str(problem),)
        return
    st.session_state[UPLOAD_KEY] = run
    st.session_state[UPLOAD_NAME_KEY] = str(upload.name)
    st.session_state[T_KEY] = None
    st.session_state[NODE_KEY] = None
    st.session_state[_NOTICE_KEY] = ()


def _openspiel_box(choice: Choice, off: bool) -> None:
    """The sidebar's OpenSpiel games: the server's vetted menu with each game's parameters in range, or,
    when the app was started with CFRVIZ_OPENSPIEL_ANY=1, a box for any game string."""
    if not catalog.openspiel_available():
        return
    if catalog.openspiel_any():
        st.text_input("Or an OpenSpiel game", key=_W + "openspiel", on_change=_on_openspiel, disabled=off,
                      placeholder="liars_dice(numdice=1,dice_sides=3)",
                      help="A two-player zero-sum OpenSpiel game string; the game is enumerated once.")
        return
    s = st.session_state
    menu = {g.name: g for g in catalog.openspiel_menu()}
    current = _openspiel_menu_values(choice)
    if s.get(_W + "os_game") not in menu:
        s[_W + "os_game"] = current[0] if current else next(iter(menu))
    with st.expander("Or an OpenSpiel game", expanded=current is not None):
        name = st.selectbox("OpenSpiel game", list(menu), format_func=lambda n: menu[n].title, key=_W + "os_game",
                            disabled=off, help="Games from OpenSpiel vetted for this server, with parameters "
                                               "in ranges that load in well under a second.")
        values = current[1] if current and current[0] == name else {}
        for parameter in menu[name].parameters:
            if parameter.pinned:
                continue
            key = f"{_W}os_{name}_{parameter.name}"
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
        st.button("Solve this game", key=_W + "os_load", on_click=_on_openspiel_menu, disabled=off)


def _openspiel_menu_values(choice: Choice) -> tuple[str, dict[str, str]] | None:
    """The menu game and parameter values of the sidebar's game, when it is a menu game."""
    if choice.game != "openspiel":
        return None
    found = catalog.openspiel_menu_values(str(dict(choice.game_params).get("game_string", "")))
    return None if found is None else (found[0].name, found[1])


def _on_openspiel_menu() -> None:
    """Make the menu's OpenSpiel game, with the chosen parameters, the sidebar's game."""
    s = st.session_state
    game = {g.name: g for g in catalog.openspiel_menu()}.get(str(s.get(_W + "os_game")))
    if game is None:
        return
    values = {}
    for parameter in game.parameters:
        value = s.get(f"{_W}os_{game.name}_{parameter.name}", parameter.initial)
        if not parameter.pinned:
            values[parameter.name] = str(value) if not isinstance(value, bool) else ("True" if value else "False")
    try:
        text = game.game_string(values)
    except ValueError as error:
        s[_NOTICE_KEY] = (str(error),)
        return
    _choose_openspiel(text)


def _on_openspiel() -> None:
    """Make the typed OpenSpiel game the sidebar's game, or say in one sentence why not."""
    text = str(st.session_state.get(_W + "openspiel") or "").strip()
    if text:
        _choose_openspiel(text)


def _choose_openspiel(text: str) -> None:
    """Switch to the OpenSpiel game `text` (menu games only unless the app opted in), or say why not."""
    try:
        _choose_game(catalog.lookup_hosted("openspiel:" + text.removeprefix("openspiel:")))
    except ValueError as error:
        st.session_state[_NOTICE_KEY] = (str(error),)
    except Exception:   # a defect still ends in a sentence, not Streamlit's generic error
        logging.getLogger(__name__).exception("loading an OpenSpiel game from the sidebar")
        st.session_state[_NOTICE_KEY] = (f"The OpenSpiel game {quoted(text, 60)} could not be loaded.",)


def _choose_game(game: CatalogGame) -> None:
    """Switch the sidebar's solve to `game`, keeping what still applies of the other settings."""
    old = _state_choice()
    algorithm = old.algorithm if game.offers(old.algorithm) else game.default_algorithm
    new = supported_updates(Choice(game.name, game.params, algorithm, min(old.iterations, game.app_iteration_cap),
                                   old.updates, old.seed))
    st.session_state[CHOICE_KEY] = new
    st.session_state.pop(UPLOAD_KEY, None)
    st.session_state[T_KEY] = None
    st.session_state[NODE_KEY] = None
    st.session_state[_NOTICE_KEY] = ()


def _adopt_game(filename: str, data: bytes) -> None:
    """Make an uploaded .efg game the sidebar's game (bounded and checked by `read_game_upload`)."""
    try:
        game = read_game_upload(filename, data)
    except ValueError as error:
        st.session_state[_NOTICE_KEY] = (str(error),)
        return
    _choose_game(game)
    st.session_state[_NOTICE_KEY] = ("Your game is now the sidebar's game on every page. A share link cannot "
                                     "carry an uploaded game; download the run to keep it.",)


def setup_page(title: str, *, solve: bool = True, layout: Literal["centered", "wide"] = "wide", own_settings: str | None = None,
               page: str | None = None, sidebar_note: str | None = None) -> View:
    """Configure the page, draw the navigation and shared sidebar, sync the URL, and solve, cached.

    Returns the `View` every page reads. Malformed query parameters fall back to defaults with
    a visible notice. The page's title is drawn as its header. With `solve=False` the page may
    draw its text first and call `solve_view(view)` afterwards. `own_settings`: a page that
    does not follow the sidebar says so, in this sentence, at its top and in the sidebar.
    `page` names the page whose own settings (`cfrviz.app.links.PAGE_SETTINGS`) join the link;
    `sidebar_note` replaces the sidebar's caption on such a page.
    """
    st.set_page_config(page_title=f"{title} · cfrviz", page_icon="♠", layout=layout)
    start_warmup()
    _adopt_query_params()
    choice = _state_choice()
    navigation = st.sidebar.container()  # above the solve controls
    uploaded: Run | None = st.session_state.get(UPLOAD_KEY)
    _sidebar(choice, in_use=uploaded is None,
             note=None if own_settings is None else sidebar_note or "This page has its own settings; the other pages use these.")
    for text in st.session_state.get(_NOTICE_KEY, ()):
        notice(text)
    st.session_state[_NOTICE_KEY] = ()
    st.title(title)
    if own_settings:
        st.info(own_settings, icon=":material/tune:")

    if uploaded is not None:
        tree, settings = uploaded.tree, uploaded.settings
        _upload_banner(uploaded)
    else:
        settings = choice.settings()
        tree = choice.tree()
    node = st.session_state.get(NODE_KEY)
    if node is not None and not 0 <= int(node) < tree.num_nodes:
        node = None
    st.session_state[NODE_KEY] = node
    # The navigation is drawn before the solve, so a first visit shows the app's pages at once.
    last = int(uploaded.iterations[-1]) if uploaded is not None else settings.iterations
    t = st.session_state.get(T_KEY)
    t = last if t is None else min(int(t), last)
    with navigation:
        _navigation(query_params_of(choice, t, node))

    view = View(settings, tree, None, t, 0, node, choice, _params(choice, t, node, page),
                uploaded is not None, page)
    if uploaded is not None:
        view = _with_run(view, uploaded)
    elif solve:
        view = solve_view(view)
    else:
        _write_view(view)
    _share(view)
    return view


def notice(text: str) -> None:
    """Show a plain-text sentence as a warning; it may quote strangers' text, so no markup survives."""
    st.warning(escape_markdown(text), icon=":material/warning:")


def error(text: str) -> None:
    """Show a plain-text sentence as an error, escaped like `notice`."""
    st.error(escape_markdown(text))


def solve_view(view: View) -> View:
    """`view` with its run: solved (cached, with a message saying what is happening) unless it has one."""
    if view.run is not None:
        return view
    settings = view.settings
    message = (f"Solving {view.tree.game.title} with {ALGORITHMS[settings.algorithm].title}, "
               f"{settings.iterations:,} iterations…")
    if not _WARM.is_set():
        message += " The first solve after the server starts also prepares the compiled solver."
    try:
        with st.spinner(message, show_time=True):
            run = cached_solve(settings.game, settings.game_params, settings.algorithm,
                               settings.iterations, settings.updates, settings.seed)
    except ValueError as problem:
        error(str(problem))
        st.stop()
    return _with_run(view, run)


def _with_run(view: View, run: Run) -> View:
    """`view` showing `run`, with t snapped to one of its snapshots (written to the URL)."""
    snapshot = run.snapshot_at(min(view.t, int(run.iterations[-1])))
    t = int(run.iterations[snapshot])
    params = _params(view.choice, t, view.node, view.page)
    view = replace(view, run=run, t=t, snapshot=snapshot, params=params)
    _write_view(view)
    return view


def _params(choice: Choice, t: int | None, node: int | None, page: str | None) -> dict[str, str]:
    params = query_params_of(choice, t, node)
    if page is not None:
        params.update(page_params_of(page, st.session_state.get(PAGE_SETTINGS_KEY, {})))
    return params


def page_value(name: str) -> Any:
    """This session's value of a page setting (`cfrviz.app.links.PAGE_SETTINGS`): from the link, the
    widget or the default. It survives page switches; widget values do not."""
    return st.session_state.get(PAGE_SETTINGS_KEY, {}).get(name, page_setting(name).default)


def set_page_value(name: str, value: Any) -> None:
    """Keep a page setting and write it into the current link at once."""
    setting = page_setting(name)
    if not setting.accepts(value):
        return
    st.session_state.setdefault(PAGE_SETTINGS_KEY, {})[name] = value
    if st.session_state.get(UPLOAD_KEY) is not None:
        return
    written = dict(st.session_state.get(_WRITTEN_KEY) or {})
    if value == setting.default:
        written.pop(name, None)
        if name in st.query_params:
            del st.query_params[name]
    else:
        written[name] = setting.encode(value)
        st.query_params[name] = written[name]
    st.session_state[_WRITTEN_KEY] = written


def bind(name: str) -> dict[str, Any]:
    """Keyword arguments that tie a widget to a page setting: `st.radio(..., **ui.bind("rm_mode"))`.

    The widget shows the kept value and its changes are kept (and linked). Give the widget no
    `value`, `index` or `default` of its own.
    """
    setting = page_setting(name)
    key = name  # the link parameter names the widget too (pages and tests find it by that key)
    value = page_value(name)
    st.session_state[key] = list(value) if setting.many else value
    return {"key": key, "on_change": _on_page_setting, "args": (name, key)}


def _on_page_setting(name: str, key: str) -> None:
    setting = page_setting(name)
    raw = st.session_state.get(key)
    if setting.many:
        value: Any = tuple(o for o in setting.options if o in (raw or ()))
    elif not setting.options and not setting.token:
        try:
            value = int(raw)  # type: ignore[arg-type]
        except (TypeError, ValueError):
            return
    else:
        value = raw
    if setting.accepts(value):
        st.session_state.setdefault(PAGE_SETTINGS_KEY, {})[name] = value


def _write_view(view: View) -> None:
    st.session_state[T_KEY] = view.t
    if not view.uploaded:
        st.query_params.from_dict(view.params)
        st.session_state[_WRITTEN_KEY] = view.params


def _upload_banner(run: Run) -> None:
    name = st.session_state.get(UPLOAD_NAME_KEY, "an uploaded file")
    settings = run.settings
    st.info(f"Showing the uploaded run from **{_plain(name)}**: {run.tree.game.title}, "
            f"{ALGORITHMS[settings.algorithm].title if settings.algorithm in ALGORITHMS else _plain(settings.algorithm)}, "
            f"{int(run.iterations[-1]):,} iterations, {settings.updates} updates. The sidebar's solve "
            "settings are not in use; press *Back to the sidebar's solve* under Share to leave it.",
            icon=":material/upload_file:")


def _plain(text: object) -> str:
    """User text (a file name) inside markdown: bounded, inert."""
    return escape_markdown(str(text)[:80])


def _navigation(params: dict[str, str]) -> None:
    """The app's own page list (Streamlit's own would label the entry file "app"), carrying the view."""
    for path, label, icon in PAGES:
        if (_ROOT / path).exists():
            st.page_link(path, label=label, icon=icon, query_params=params)


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


def _on_t_change(widget_key: str) -> None:
    st.session_state[T_KEY] = int(st.session_state[widget_key])


def iteration_slider(view: View, *, key: str = "cfrviz_w_t", label: str = "Iteration t") -> int:
    """Draw the shared iteration control (over the run's snapshot iterations); returns t.

    Moving it reruns the script; the new t is in `view.t` of the next run on every page.
    """
    if view.run is None or view.run.num_snapshots < 2:
        return view.t
    options = [int(i) for i in view.run.iterations]
    st.session_state[key] = view.t
    st.select_slider(label, options=options, key=key, on_change=_on_t_change, args=(key,),
                     help="The solver keeps snapshots at these iterations; every page shows this one.")
    return view.t


def select_node(node: int | None) -> None:
    """Make `node` the selected tree node (None clears); pages call this from their callbacks."""
    st.session_state[NODE_KEY] = None if node is None else int(node)


def page_links(view: View, *, exclude: str | None = None) -> None:
    """Links to every page that exists, carrying this view's query parameters."""
    for path, label, icon in PAGES:
        if path == exclude or not (_ROOT / path).exists():
            continue
        st.page_link(path, label=label, icon=icon, query_params=view.params)


def format_chips(value: float) -> str:
    """A value in chips per hand, with milli-chips for small numbers."""
    if not math.isfinite(value):
        return "–"
    return f"{value:+.4f} chips/hand ({value * 1000:+.1f} mchips)"
