"""The one place in `cfrviz` that speaks Streamlit: shared sidebar, deep links, cached solve.

Every page starts with::

    from cfrviz import ui
    view = ui.setup_page("Page title")             # or solve=False

The pure half of this module (`parse_query_params`, `query_params_of`,
`iteration_cap`) never touches Streamlit so tests can call it directly.

Session-state keys that tests and pages may use:
  `ui.T_KEY`     the iteration shown (an int), shared by every page
  `ui.NODE_KEY`  the selected tree node id (an int or None)
"""
from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path

import pandas  # noqa: F401  (fully imported before any session: plotly reads a half-imported pandas under concurrent sessions)
import streamlit as st

from cfrviz.run import Run, RunSettings
from cfrviz.solvers import ALGORITHMS, UPDATE_SCHEMES
from cfrviz.tree import GameTree, compile_game
from cfrviz.uploads import MAX_UPLOAD_MB, read_upload

T_KEY = "cfrviz_t"
NODE_KEY = "cfrviz_node"
CHOICE_KEY = "cfrviz_choice"
UPLOAD_KEY = "cfrviz_upload"
_WRITTEN_KEY = "cfrviz_written_params"
_NOTICE_KEY = "cfrviz_notices"
_W = "cfrviz_w_"  # prefix of the sidebar widgets' keys

GAMES = {"kuhn": "Kuhn poker", "leduc": "Leduc poker", "rps": "Rock-paper-scissors"}
KUHN_CARDS = (3, 13)
# Iterations a solve may ask for on the shared server, per game. Whole `cfrviz.solve` calls
# (snapshots and exploitability included) on the shared 2-core machine, quiet / saturated by
# other test runs: vanilla CFR on Kuhn 100k 0.2 / 0.3 s (13 cards 1.4 / 3.7 s), Leduc 50k
# 1.9 / 11.5 s, regret matching 100k 0.05 s. Leduc is capped at 20k to stay near a second.
ITERATION_CAPS = {"kuhn": 100_000, "leduc": 20_000, "rps": 100_000}
MAX_SEED = 2**31 - 1
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
_ROOT = Path(__file__).resolve().parents[1]


# ---------------------------------------------------------------------------------------------
# Pure part: choices, caps and query parameters.


@dataclass(frozen=True)
class Choice:
    """What the sidebar asks for: the plain values a solve is keyed on."""

    game: str = "kuhn"
    cards: int = 3
    algorithm: str = "cfr"
    iterations: int = 1000
    updates: str = "simultaneous"
    seed: int = 0

    @property
    def game_param(self) -> str:
        """The `game` query value: "kuhn", "kuhn5", "leduc" or "rps"."""
        return f"kuhn{self.cards}" if self.game == "kuhn" and self.cards != 3 else self.game

    @property
    def game_params(self) -> tuple:
        """Sorted (name, value) pairs for `compile_game` and `RunSettings`."""
        return (("cards", self.cards),) if self.game == "kuhn" and self.cards != 3 else ()

    @property
    def sampling(self) -> bool:
        """Whether the algorithm samples (so the seed matters)."""
        return ALGORITHMS[self.algorithm][2]

    def settings(self) -> RunSettings:
        """The `RunSettings` of this choice (seed 0 for deterministic algorithms)."""
        return RunSettings(self.game, self.game_params, self.algorithm, self.iterations,
                           self.updates, self.seed if self.sampling else 0)

    def tree(self) -> GameTree:
        """The compiled tree of the chosen game (cached per process by `compile_game`)."""
        return compile_game(self.game, **dict(self.game_params))


@dataclass(frozen=True)
class DeepLink:
    """A parsed set of query parameters; `notices` explain every value that fell back."""

    choice: Choice
    t: int | None
    node: int | None
    notices: tuple[str, ...]


def algorithms_for(game: str) -> tuple[str, ...]:
    """Algorithm names offered for a game: regret matching only for matrix games."""
    return tuple(a for a in ALGORITHMS if a != "rm" or game == "rps")


def iteration_cap(game: str, cards: int = 3) -> int:
    """Most iterations a solve may ask for on the shared server (Kuhn's cap holds up to 13 cards)."""
    return ITERATION_CAPS[game]


def _first(value) -> str:
    if isinstance(value, (list, tuple)):
        return str(value[-1]) if value else ""
    return str(value)


def _parse_int(text: str) -> int:
    text = text.strip()
    if not text or len(text) > 12 or not text.lstrip("+-").isdigit():
        raise ValueError
    return int(text)


def parse_query_params(params: Mapping[str, object]) -> DeepLink:
    """Validate deep-link query parameters; anything malformed falls back with a notice.

    Never raises: each bad value becomes one sentence in `notices`. `node` is checked
    against the chosen game's tree; `t` against the iterations (the page snaps it to a
    snapshot later).
    """
    notices: list[str] = []
    choice = Choice()
    get = {k: _first(v) for k, v in params.items()}

    if "game" in get:
        name = get["game"].strip().lower()
        if name in GAMES:
            choice = replace(choice, game=name, cards=3)
        elif name.startswith("kuhn") and name[4:].isdigit() and \
                KUHN_CARDS[0] <= int(name[4:]) <= KUHN_CARDS[1]:
            choice = replace(choice, game="kuhn", cards=int(name[4:]))
        else:
            notices.append(f"Unknown game {get['game'][:40]!r} in the link; showing Kuhn poker. "
                           f"Use one of: kuhn, kuhn4 … kuhn13, leduc, rps.")
    if choice.game == "rps":
        choice = replace(choice, algorithm="rm")

    if "algo" in get:
        algo = get["algo"].strip().lower()
        if algo in algorithms_for(choice.game):
            choice = replace(choice, algorithm=algo)
        else:
            notices.append(f"Algorithm {get['algo'][:40]!r} is not available for {GAMES[choice.game]}; "
                           f"showing {ALGORITHMS[choice.algorithm][0]}.")

    cap = iteration_cap(choice.game, choice.cards)
    if "iters" in get:
        try:
            iters = _parse_int(get["iters"])
            if iters < 1:
                raise ValueError
            if iters > cap:
                notices.append(f"{GAMES[choice.game]} is capped at {cap:,} iterations on this server; "
                               f"showing {cap:,}.")
                iters = cap
            choice = replace(choice, iterations=iters)
        except ValueError:
            notices.append(f"Iterations must be a whole number from 1 to {cap:,}, not "
                           f"{get['iters'][:40]!r}; showing {choice.iterations:,}.")
    choice = replace(choice, iterations=min(choice.iterations, cap))

    if "updates" in get:
        updates = get["updates"].strip().lower()
        if updates in UPDATE_SCHEMES:
            choice = replace(choice, updates=updates)
        else:
            notices.append(f"Updates must be one of {', '.join(UPDATE_SCHEMES)}, not "
                           f"{get['updates'][:40]!r}; showing {choice.updates}.")

    if "seed" in get:
        try:
            seed = _parse_int(get["seed"])
            if not 0 <= seed <= MAX_SEED:
                raise ValueError
            choice = replace(choice, seed=seed)
        except ValueError:
            notices.append(f"The seed must be a whole number from 0 to {MAX_SEED}, not "
                           f"{get['seed'][:40]!r}; using seed 0.")

    if not choice.sampling:
        choice = replace(choice, seed=0)  # the seed changes nothing here, so links omit it

    t: int | None = None
    if "t" in get:
        try:
            t = _parse_int(get["t"])
            if not 1 <= t <= choice.iterations:
                raise ValueError
        except ValueError:
            t = None
            notices.append(f"The iteration t must be a whole number from 1 to {choice.iterations:,}, "
                           f"not {get['t'][:40]!r}; showing the last iteration.")

    node: int | None = None
    if "node" in get and get["node"].strip() not in ("", "none"):
        num_nodes = choice.tree().num_nodes
        try:
            node = _parse_int(get["node"])
            if not 0 <= node < num_nodes:
                raise ValueError
        except ValueError:
            node = None
            notices.append(f"Node {get['node'][:40]!r} is not in the {GAMES[choice.game]} tree "
                           f"(nodes 0 to {num_nodes - 1}); no node is selected.")
    return DeepLink(choice, t, node, tuple(notices))


def query_params_of(choice: Choice, t: int | None, node: int | None) -> dict[str, str]:
    """The deep-link query parameters of a view (the inverse of `parse_query_params`)."""
    params = {"game": choice.game_param, "algo": choice.algorithm, "iters": str(choice.iterations),
              "updates": choice.updates}
    if choice.sampling:
        params["seed"] = str(choice.seed)
    if t is not None:
        params["t"] = str(t)
    if node is not None:
        params["node"] = str(node)
    return params


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


# Solves big enough to show a progress bar: node visits of about half a second of vanilla CFR
# (measured about 40 million node visits per second).
_PROGRESS_COST = 20_000_000


@st.cache_data(max_entries=8, show_spinner=False)
def cached_solve(game: str, game_params: tuple, algorithm: str, iterations: int, updates: str,
                 seed: int) -> Run:
    """`cfrviz.solve` on plain values, shared by every session; shows a progress bar when slow."""
    import cfrviz

    bar = None
    if float(compile_game(game, **dict(game_params)).num_nodes) * iterations >= _PROGRESS_COST:
        # Created inside the cached function so a cache hit can replay it harmlessly.
        bar = st.progress(0.0, text=f"Solving {iterations:,} iterations…")

    def progress(fraction: float) -> None:
        if bar is None:
            return
        fraction = min(max(float(fraction), 0.0), 1.0)
        bar.progress(fraction, text=f"Solving… {fraction:.0%}")

    run = cfrviz.solve(game, algorithm, iterations=iterations, updates=updates, seed=seed,
                       progress=progress, **dict(game_params))
    if bar is not None:
        bar.empty()
    return run


def _state_choice() -> Choice:
    return st.session_state.get(CHOICE_KEY, Choice())


def _adopt_query_params() -> None:
    """Take the URL's view when it is new to this session (a deep link or a page link)."""
    current = {k: st.query_params.get_all(k)[-1] for k in st.query_params.keys()}
    written = st.session_state.get(_WRITTEN_KEY)
    first_visit = CHOICE_KEY not in st.session_state
    if not first_visit and (not current or current == written):
        return
    link = parse_query_params(current)
    st.session_state[CHOICE_KEY] = link.choice
    st.session_state[T_KEY] = link.t
    st.session_state[NODE_KEY] = link.node
    st.session_state[_NOTICE_KEY] = link.notices
    if current:
        st.session_state.pop(UPLOAD_KEY, None)


def _on_sidebar_change() -> None:
    """Copy the sidebar widgets into the shared state (widget values die on page switches)."""
    old = _state_choice()
    s = st.session_state
    game = s.get(_W + "game", old.game)
    cards = int(s.get(_W + "cards", old.cards)) if game == "kuhn" else 3
    algorithm = s.get(_W + "algo", old.algorithm)
    if algorithm not in algorithms_for(game):
        algorithm = "rm" if game == "rps" else "cfr"
    if game == "rps" and old.game != "rps":
        algorithm = "rm"
    cap = iteration_cap(game, cards)
    iterations = int(s.get(_W + "iters", old.iterations))
    notices = []
    if iterations > cap:
        notices.append(f"{GAMES[game]} is capped at {cap:,} iterations on this shared server, "
                       f"so {iterations:,} became {cap:,}. Use the CLI for longer solves.")
        iterations = cap
    iterations = max(1, iterations)
    new = Choice(game, cards, algorithm, iterations, s.get(_W + "updates", old.updates),
                 int(s.get(_W + "seed", old.seed)))
    if (new.game, new.cards) != (old.game, old.cards):
        s[NODE_KEY] = None
    t = s.get(T_KEY)
    if t is not None and (t >= old.iterations or t > new.iterations):
        s[T_KEY] = None  # was showing the end: keep showing the end
    s[CHOICE_KEY] = new
    s[_NOTICE_KEY] = tuple(notices)
    s.pop(UPLOAD_KEY, None)


def _sidebar(choice: Choice) -> None:
    s = st.session_state
    # Feed the shared state back into the widgets (they are rebuilt on every page).
    s[_W + "game"] = choice.game
    s[_W + "cards"] = choice.cards
    s[_W + "algo"] = choice.algorithm
    s[_W + "iters"] = choice.iterations
    s[_W + "updates"] = choice.updates
    s[_W + "seed"] = choice.seed
    with st.sidebar:
        st.subheader("Solve")
        st.selectbox("Game", list(GAMES), format_func=GAMES.get, key=_W + "game",
                     on_change=_on_sidebar_change)
        if choice.game == "kuhn":
            st.number_input("Cards in the deck", min_value=KUHN_CARDS[0], max_value=KUHN_CARDS[1],
                            step=1, key=_W + "cards", on_change=_on_sidebar_change,
                            help="Kuhn poker is played with 3 cards (J, Q, K); more cards make a bigger game.")
        st.selectbox("Algorithm", list(algorithms_for(choice.game)),
                     format_func=lambda a: ALGORITHMS[a][0], key=_W + "algo", on_change=_on_sidebar_change)
        st.radio("Updates", list(UPDATE_SCHEMES), key=_W + "updates", horizontal=True,
                 on_change=_on_sidebar_change,
                 help="Simultaneous: both players update every iteration, as the seeds do. "
                      "Alternating: one player per traversal.")
        cap = iteration_cap(choice.game, choice.cards)
        st.number_input(f"Iterations (up to {cap:,})", min_value=1, step=100, key=_W + "iters",
                        on_change=_on_sidebar_change)
        if choice.sampling:
            st.number_input("Seed", min_value=0, max_value=MAX_SEED, step=1, key=_W + "seed",
                            on_change=_on_sidebar_change,
                            help="Sampling algorithms draw from a random generator built from this seed.")


def _share(view: View) -> None:
    with st.sidebar:
        st.subheader("Share")
        if view.uploaded:
            st.caption("You are viewing an uploaded run; a link cannot carry it.")
        else:
            from urllib.parse import urlencode

            st.caption("Link to this view (copy button on the right):")
            st.code(f"{_page_url()}?{urlencode(view.params)}", language=None, wrap_lines=True)
        if view.run is not None:
            try:
                st.download_button("Download run (.npz)", data=_run_bytes(view.run),
                                   file_name=f"cfrviz_{view.choice.game_param}_{view.settings.algorithm}.npz",
                                   mime="application/octet-stream", key=_W + "dl_run")
                st.download_button("Download average strategy (.json)", data=_strategy_json(view.run),
                                   file_name=f"cfrviz_{view.choice.game_param}_strategy.json",
                                   mime="application/json", key=_W + "dl_json")
            except (AttributeError, NotImplementedError):
                st.caption("Downloads need `Run.save` and `Run.export_strategy`.")
        st.file_uploader(f"View a saved run (.npz) or strategy (.json), up to {MAX_UPLOAD_MB} MB",
                         type=["npz", "json"], key=_W + "upload", on_change=_on_upload)
        if view.uploaded and st.button("Back to the sidebar's solve", key=_W + "drop_upload"):
            st.session_state.pop(UPLOAD_KEY, None)
            st.rerun()


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
    run.save(buffer)
    return buffer.getvalue()


def _strategy_json(run: Run) -> str:
    text = run.export_strategy()
    return text if isinstance(text, str) else str(text)


def _on_upload() -> None:
    upload = st.session_state.get(_W + "upload")
    if upload is None:  # the user removed the file: back to the sidebar's solve
        st.session_state.pop(UPLOAD_KEY, None)
        return
    try:
        run = read_upload(upload.name, upload.getvalue())  # checks the size cap too
    except ValueError as error:
        st.session_state[_NOTICE_KEY] = (str(error),)
        return
    st.session_state[UPLOAD_KEY] = run
    st.session_state[T_KEY] = None
    st.session_state[NODE_KEY] = None
    st.session_state[_NOTICE_KEY] = ()


def setup_page(title: str, *, solve: bool = True, layout: str = "wide") -> View:
    """Configure the page, draw the shared sidebar, sync the URL and (when `solve`) solve, cached.

    Returns the `View` every page reads. Malformed query parameters fall back to defaults with
    a visible notice. The page's title is drawn as its header.
    """
    st.set_page_config(page_title=f"{title} · cfrviz", page_icon="♠", layout=layout)
    _adopt_query_params()
    choice = _state_choice()
    _sidebar(choice)
    for notice in st.session_state.get(_NOTICE_KEY, ()):
        st.warning(notice, icon=":material/warning:")
    st.session_state[_NOTICE_KEY] = ()
    st.title(title)

    uploaded: Run | None = st.session_state.get(UPLOAD_KEY)
    run: Run | None = None
    if uploaded is not None:
        run = uploaded
        tree = run.tree
        settings = run.settings
    else:
        settings = choice.settings()
        tree = choice.tree()
        if solve:
            try:
                run = cached_solve(settings.game, settings.game_params, settings.algorithm,
                                   settings.iterations, settings.updates, settings.seed)
            except ValueError as error:
                st.error(str(error))
                st.stop()

    t = st.session_state.get(T_KEY)
    snapshot = 0
    if run is not None:
        last = int(run.iterations[-1])
        t = last if t is None else min(int(t), last)
        snapshot = run.snapshot_at(t)
        t = int(run.iterations[snapshot])
    else:
        t = settings.iterations if t is None else min(int(t), settings.iterations)
    node = st.session_state.get(NODE_KEY)
    if node is not None and not 0 <= int(node) < tree.num_nodes:
        node = None
    st.session_state[T_KEY] = t
    st.session_state[NODE_KEY] = node

    params = query_params_of(choice, t, node)
    if uploaded is None:
        st.query_params.from_dict(params)
        st.session_state[_WRITTEN_KEY] = params
    view = View(settings, tree, run, t, snapshot, node, choice, params, uploaded is not None)
    _share(view)
    return view


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
