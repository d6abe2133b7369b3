"""Deep links: the plain choices a view is made of, and their query parameters, checked.

Pure Python (no Streamlit), so the parsing that strangers' links go through is unit-tested
and fuzzed directly. `parse_query_params` never raises: every bad value falls back to a
default and becomes one sentence in `DeepLink.notices`.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from cfrviz import catalog
from cfrviz.catalog import GameSpec
from cfrviz.run import RunSettings
from cfrviz.run.link_params import link_params
from cfrviz.solvers import ALGORITHMS, DEFAULT_UPDATES, UPDATE_SCHEMES, Algorithm, UpdateScheme, update_schemes
# Re-exported: the app's widgets and the page settings bound seeds with the CLI's bound.
from cfrviz.util.whole_numbers import MAX_SEED as MAX_SEED, parse_whole_number as parse_whole_number
from cfrviz.util.text import quoted
from cfrviz.tree import GameTree
from cfrviz.tree.locks import Locks
from cfrviz.app.registry import PAGE_SETTINGS, PAGES, Page, PageSetting, page_entry

#: What a link without `updates` (and the default view) has always shown: kept so old links keep their meaning.
LINK_DEFAULT_UPDATES = UpdateScheme.SIMULTANEOUS


@dataclass(frozen=True)
class Choice:
    """What the sidebar asks for: the game as one `GameSpec` and the plain values a solve is keyed on.

    `algorithm` and `updates` may be given as strings; they are kept as `Algorithm` and
    `UpdateScheme` members (ValueError for unknown ones)."""

    spec: GameSpec = GameSpec(catalog.entry("kuhn"))
    algorithm: Algorithm = Algorithm.CFR
    iterations: int = 1000
    updates: UpdateScheme = DEFAULT_UPDATES
    seed: int = 0
    locks: Locks = Locks()      # information sets fixed to a strategy (`cfrviz.tree.locks`), checked against the game

    def __post_init__(self) -> None:
        object.__setattr__(self, "algorithm", Algorithm(self.algorithm))
        object.__setattr__(self, "updates", UpdateScheme(self.updates))

    @property
    def game_param(self) -> str | None:
        """The `game` query value ("kuhn", "kuhn5", "leduc", "rps", "efg:<name>"), or None when a
        link cannot carry the game (an uploaded .efg file)."""
        return self.spec.link

    @property
    def sampling(self) -> bool:
        """Whether the algorithm samples (so the seed matters)."""
        return ALGORITHMS[self.algorithm].sampling

    def settings(self) -> RunSettings:
        """The `RunSettings` of this choice (seed 0 for deterministic algorithms)."""
        return RunSettings(self.spec, self.algorithm, self.iterations, self.updates,
                           self.seed if self.sampling else 0, self.locks)

    def tree(self) -> GameTree:
        """The compiled tree of the chosen game (cached per process by the catalog)."""
        return self.spec.tree()


#: The view a link without parameters (or with only bad ones) shows.
DEFAULT_CHOICE = Choice(updates=LINK_DEFAULT_UPDATES)


@dataclass(frozen=True)
class DeepLink:
    """A parsed set of query parameters; `notices` explain every value that fell back."""

    choice: Choice
    t: int | None
    node: int | None
    notices: tuple[str, ...]


def supported_updates(choice: Choice) -> Choice:
    """`choice` with its update scheme switched to one its algorithm implements, if need be."""
    schemes = update_schemes(choice.algorithm)
    return choice if choice.updates in schemes else replace(choice, updates=schemes[0])


def algorithms_for(game: GameSpec | str) -> tuple[Algorithm, ...]:
    """Algorithm names offered for a game (a catalog game or link value): regret matching only for matrix games."""
    found = catalog.lookup(game) if isinstance(game, str) else game
    return tuple(Algorithm(a) for a in ALGORITHMS if found.offers(a))


def iteration_cap(game: GameSpec | str) -> int:
    """Most iterations a solve may ask for on the shared server (a catalog game or link value)."""
    found = catalog.lookup(game) if isinstance(game, str) else game
    return found.app_iteration_cap


#: Longest query value read at all; longer ones are cut before any parsing.
MAX_VALUE_CHARS = 200
#: Longest `lock` value read (a few locks with their keys); a longer one is refused, never cut.
MAX_LOCK_CHARS = 1_000


def _first(value: object, limit: int = MAX_VALUE_CHARS) -> str:
    if isinstance(value, (list, tuple)):
        value = value[-1] if value else ""
    try:
        return str(value)[:limit]
    except Exception:  # a hostile __str__ is still a bad value, not a crash
        return ""


def parse_query_params(params: Mapping[str, object]) -> DeepLink:
    """Validate deep-link query parameters; anything malformed falls back with a notice.

    Never raises: each bad value becomes one sentence in `notices`. `node` is checked
    against the chosen game's tree; `t` against the iterations (the page snaps it to a
    snapshot later). Notices are plain text (the app escapes them where it shows them).
    """
    try:
        return _parse_query_params(params)
    except Exception:  # the promise is "never raises": a defect here must not become a traceback
        return DeepLink(DEFAULT_CHOICE, None, None, ("This link could not be read; showing the default view.",))


def _parse_query_params(params: Mapping[str, object]) -> DeepLink:
    notices: list[str] = []
    choice = DEFAULT_CHOICE
    get = {k: _first(v) for k, v in params.items()}

    game = choice.spec
    if "game" in get:
        try:
            # OpenSpiel games only from the server's menu, unless the app was started with CFRVIZ_OPENSPIEL_ANY=1.
            found = catalog.lookup_hosted(get["game"])
            # Compiled here (it is needed for the caps next): a game over cfrviz's tree bounds is then a
            # notice naming the bound, not the catch-all "could not be read".
            found.tree()
            game = found
        except ValueError as error:
            notices.append(f"{error} Showing {game.title}.")
        else:
            choice = replace(choice, spec=game)
    choice = replace(choice, algorithm=game.default_algorithm)
    title = game.title

    if "algo" in get:
        algo = get["algo"].strip().lower()
        # A '+' typed into a link arrives as a space ("dcfr+" -> "dcfr "): read it back as '+',
        # rather than silently showing a different algorithm.
        if get["algo"].endswith(" ") and algo + "+" in ALGORITHMS:
            algo += "+"
        if algo in algorithms_for(game):
            choice = replace(choice, algorithm=Algorithm(algo))
        else:
            notices.append(f"Algorithm {quoted(get['algo'])} is not available for {title}; "
                           f"showing {ALGORITHMS[choice.algorithm].title}.")

    cap = game.app_iteration_cap
    if "iters" in get:
        try:
            iters = parse_whole_number(get["iters"])
            if iters < 1:
                raise ValueError
            if iters > cap:
                notices.append(f"{title} is capped at {cap:,} iterations on this server; "
                               f"showing {cap:,}.")
                iters = cap
            choice = replace(choice, iterations=iters)
        except ValueError:
            notices.append(f"Iterations must be a whole number from 1 to {cap:,}, not "
                           f"{quoted(get['iters'])}; showing {choice.iterations:,}.")
    choice = replace(choice, iterations=min(choice.iterations, cap))

    if "updates" in get:
        updates = get["updates"].strip().lower()
        if updates in UPDATE_SCHEMES:
            choice = replace(choice, updates=UpdateScheme(updates))
        else:
            notices.append(f"Updates must be one of {', '.join(UPDATE_SCHEMES)}, not "
                           f"{quoted(get['updates'])}; showing {choice.updates}.")
    supported = supported_updates(choice)
    if choice.updates != supported.updates:
        if "updates" in get:
            notices.append(f"{ALGORITHMS[choice.algorithm].title} updates one player per traversal; "
                           f"showing {supported.updates} updates.")
        choice = supported

    if "seed" in get:
        try:
            seed = parse_whole_number(get["seed"])
            if not 0 <= seed <= MAX_SEED:
                raise ValueError
            choice = replace(choice, seed=seed)
        except ValueError:
            notices.append(f"The seed must be a whole number from 0 to {MAX_SEED}, not "
                           f"{quoted(get['seed'])}; using seed 0.")

    if not choice.sampling:
        choice = replace(choice, seed=0)  # the seed changes nothing here, so links omit it

    t: int | None = None
    if "t" in get:
        try:
            t = parse_whole_number(get["t"])
            if not 1 <= t <= choice.iterations:
                raise ValueError
        except ValueError:
            t = None
            notices.append(f"The iteration t must be a whole number from 1 to {choice.iterations:,}, "
                           f"not {quoted(get['t'])}; showing the last iteration.")

    if "lock" in params:
        choice = replace(choice, locks=_parse_locks(_first(params["lock"], MAX_LOCK_CHARS + 1), choice, notices))

    node: int | None = None
    if "node" in get and get["node"].strip() not in ("", "none"):
        num_nodes = choice.tree().num_nodes
        try:
            node = parse_whole_number(get["node"])
            if not 0 <= node < num_nodes:
                raise ValueError
        except ValueError:
            node = None
            notices.append(f"Node {quoted(get['node'])} is not in the {title} tree "
                           f"(nodes 0 to {num_nodes - 1}); no node is selected.")
    return DeepLink(choice, t, node, tuple(notices))


def _parse_locks(text: str, choice: Choice, notices: list[str]) -> Locks:
    """The locks a link's `lock` value names for the chosen game, or none with a notice."""
    if not text.strip():
        return Locks()
    try:
        if len(text) > MAX_LOCK_CHARS:
            raise ValueError(f"The locks are longer than {MAX_LOCK_CHARS:,} characters.")
        # The algorithm as chosen, not the game: rock-paper-scissors offers CFR too, but its default view
        # solves with regret matching, which no locked game can use (the runner refuses it).
        if not choice.spec.offers(Algorithm.CFR) or choice.algorithm == Algorithm.REGRET_MATCHING:
            raise ValueError(f"{choice.spec.title} is solved by regret matching here, which takes no locks "
                             "(choose a CFR algorithm to lock a set)")
        return Locks.parse(text).check(choice.tree())
    except ValueError as problem:
        notices.append(f"{str(problem).rstrip('.')}; showing the game without locks.")
        return Locks()


def query_params_of(choice: Choice, t: int | None, node: int | None) -> dict[str, str]:
    """The deep-link query parameters of a view (the inverse of `parse_query_params`)."""
    params = link_params(choice.settings())    # the static site writes its links with the same function
    if t is not None:
        params["t"] = str(t)
    if node is not None:
        params["node"] = str(node)
    return params


# ---------------------------------------------------------------------------------------------
# Page-level settings: what a page asks for beyond the sidebar, kept in the link too.

_SETTING = {setting.name: setting for setting in PAGE_SETTINGS}


def page_setting(name: str) -> PageSetting:
    """The page setting called `name` (KeyError for a name no page uses)."""
    return _SETTING[name]


def parse_page_settings(params: Mapping[str, object]) -> tuple[dict[str, str | int | tuple[str, ...]], tuple[str, ...]]:
    """The page settings a link carries, and one sentence per value that was left out.

    Only settings present in `params` are returned (the others keep their values). Never raises.
    """
    values: dict[str, str | int | tuple[str, ...]] = {}
    notices: list[str] = []
    for name, setting in _SETTING.items():
        if name not in params:
            continue
        try:
            values[name] = setting.parse(_first(params[name]))
        except ValueError as problem:
            notices.append(f"{problem}; keeping {setting.encode(setting.default) or 'the default'}.")
        except Exception:  # a hostile value is still only a bad value
            notices.append(f"The {setting.what} in the link could not be read; keeping the default.")
    return values, tuple(notices)


def page_params_of(page: Page, values: Mapping[str, object]) -> dict[str, str]:
    """The link parameters of `page`'s own settings that differ from their defaults."""
    out: dict[str, str] = {}
    for setting in page_entry(page).settings:
        if setting.name not in values:
            continue
        value = values[setting.name]
        if value != setting.default and setting.accepts(value):
            out[setting.name] = setting.encode(value)  # type: ignore[arg-type]  # accepts() just checked the type
    return out


# Evolution's chosen information sets, in the link as their indices ("0,5"), "none" or "auto".

def link_of_sets(chosen: Sequence[str], keys: Sequence[str]) -> str:
    """The `evo_sets` value of the information sets `chosen` (keys of `keys`, the tree's sets in order)."""
    index = {key: k for k, key in enumerate(keys)}
    picked = [str(index[key]) for key in chosen if key in index]
    return ",".join(picked) if picked else "none"


def sets_of_link(text: str, keys: Sequence[str], most: int) -> list[str] | None:
    """The information-set keys an `evo_sets` value names, [] for "none", None for "auto" (the page's
    default); ValueError with a sentence for indices the tree does not have or more than `most`."""
    text = text.strip()
    if text == "auto":
        return None
    if text == "none":
        return []
    try:
        indices = [parse_whole_number(part) for part in text.split(",")]
    except ValueError:
        raise ValueError(f"The chosen information sets {quoted(text)} are not a list of set numbers") from None
    if len(indices) > most or not all(0 <= k < len(keys) for k in indices):
        raise ValueError(f"The chosen information sets {quoted(text)} are not up to {most} of this game's "
                         f"{len(keys):,} sets (0 to {len(keys) - 1:,})")
    return list(dict.fromkeys(keys[k] for k in indices))


# ---------------------------------------------------------------------------------------------
# Presentation mode: `present=1`, and a lecture (`lecture`: the views a teacher steps through, in order;
# `slide`: which one is shown, from 1).

#: Longest `lecture` value read; a longer one is refused whole, never cut.
MAX_LECTURE_CHARS = 6_000
#: Most views in one lecture.
MAX_LECTURE_VIEWS = 40
#: The query parameters of presentation mode (a lecture's views carry none of their own).
PRESENT_PARAMS = ("present", "lecture", "slide")
# The path of each page in a link ("" for Home, "Game_tree" for pages/1_Game_tree.py), as Streamlit serves it.
_PAGE_PATHS = frozenset(("",) + tuple(entry.script.removeprefix("pages/").split("_", 1)[1].removesuffix(".py")
                                      for entry in PAGES if entry.script.startswith("pages/")))


@dataclass(frozen=True)
class Presentation:
    """Presentation mode: on or off, and the lecture's views, each a page path and its query
    ("Game_tree?game=kuhn&t=5"), relative to the app's address; `slide` indexes `lecture` (0 when empty)."""

    present: bool = False
    lecture: tuple[str, ...] = ()
    slide: int = 0

    def params(self) -> dict[str, str]:
        """The link parameters of this mode (none when it is off)."""
        if not self.present:
            return {}
        out = {"present": "1"}
        if self.lecture:
            out["lecture"] = " ".join(self.lecture)
            out["slide"] = str(self.slide + 1)
        return out


def lecture_view(link: str) -> str:
    """One view of a lecture from a link to a page of this app (a full address or a path, with its
    query): its page path and query, without presentation parameters. ValueError for anything else.
    Only the page's name and the query are kept, so a view always opens on the app that shows it."""
    text = link.strip()
    if "://" in text:
        scheme, _, rest = text.partition("://")
        if scheme.lower() not in ("http", "https"):
            raise ValueError(f"{quoted(text[:60])} is not a web address")
        text = "/" + rest.partition("/")[2]
    path, _, query = text.partition("?")
    query = query.partition("#")[0]
    page = path.rpartition("/")[2]      # "" for Home, also under a base path ("/app/")
    if page not in _PAGE_PATHS or any(c.isspace() for c in text):
        raise ValueError(f"{quoted(link.strip()[:60])} is not a link to a page of this app")
    kept = [part for part in query.split("&") if part and part.partition("=")[0] not in PRESENT_PARAMS]
    return page + ("?" + "&".join(kept) if kept else "")


def parse_lecture(text: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The views of a lecture pasted as links (separated by spaces or new lines), and one sentence per
    link left out (or one for the whole list when it is too long). Never raises."""
    if len(text) > MAX_LECTURE_CHARS:
        return (), (f"The lecture's links are longer than {MAX_LECTURE_CHARS:,} characters; no lecture is kept.",)
    views: list[str] = []
    notices: list[str] = []
    for link in text.split():
        try:
            views.append(lecture_view(link))
        except ValueError as problem:
            notices.append(f"{problem}; it is left out of the lecture.")
        except Exception:  # a hostile value is still only a bad value
            notices.append("A lecture link could not be read; it is left out of the lecture.")
    if len(views) > MAX_LECTURE_VIEWS:
        notices.append(f"A lecture holds at most {MAX_LECTURE_VIEWS} views; the first {MAX_LECTURE_VIEWS} are kept.")
        views = views[:MAX_LECTURE_VIEWS]
    return tuple(views), tuple(notices)


def parse_presentation(params: Mapping[str, object]) -> tuple[Presentation, tuple[str, ...]]:
    """Presentation mode as a link asks for it, and one sentence per value that fell back. Never raises."""
    try:
        return _parse_presentation(params)
    except Exception:  # "never raises": a defect here is a notice, not a traceback
        return Presentation(), ("The link's presentation settings could not be read; showing the normal view.",)


def _parse_presentation(params: Mapping[str, object]) -> tuple[Presentation, tuple[str, ...]]:
    notices: list[str] = []
    present = False
    if "present" in params:
        value = _first(params["present"]).strip().lower()
        if value in ("1", "true", "yes", "on"):
            present = True
        elif value not in ("0", "false", "no", "off", ""):
            notices.append(f"present must be 1 (presentation mode) or 0, not {quoted(value)}; showing the normal view.")
    lecture: tuple[str, ...] = ()
    if "lecture" in params:
        lecture, found = parse_lecture(_first(params["lecture"], MAX_LECTURE_CHARS + 1))
        notices.extend(found)
    slide = 0
    if lecture and "slide" in params:
        raw = _first(params["slide"])
        try:
            slide = parse_whole_number(raw) - 1
            if not 0 <= slide < len(lecture):
                raise ValueError
        except ValueError:
            slide = 0
            notices.append(f"The slide must be a whole number from 1 to {len(lecture)}, not {quoted(raw)}; "
                           "showing the lecture's first view.")
    return Presentation(present, lecture if present else (), slide if present else 0), tuple(notices)
