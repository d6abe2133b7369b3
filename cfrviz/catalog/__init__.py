"""The game catalog: the one place that knows each game cfrviz can solve and show.

An `Entry` describes a kind of game: its name and title, its parameters with their ranges,
a factory (parameters -> game) and its inverse (game -> parameters, so a saved run rebuilds
its tree from plain settings), iteration caps for the app and the CLI, a known value, and
what the pages may offer for it. A `CatalogGame` is an entry with its parameters chosen;
it builds the game and compiles its tree once per process.

Everything else asks here instead of comparing game names::

    >>> kuhn = lookup("kuhn5")
    >>> kuhn.title, kuhn.params, kuhn.link
    ('Kuhn poker (5 cards)', (('cards', 5),), 'kuhn5')
    >>> lookup("kuhn").known_value == -1 / 18, lookup("kuhn").alpha_family
    (True, True)

The catalog sits beside the tree: it imports only rules (`cfrviz.games`, the .efg reader
`cfrviz.games.efg`, and the OpenSpiel loader when a game needs it) and `cfrviz.tree`.
Values that need a solver (an LP value for games without a known one) live one layer
up, in `cfrviz.analysis.reference`. Adding a game is one `Entry` in `ENTRIES`.
"""
from __future__ import annotations

import hashlib
import importlib
import math
import os
import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np

from cfrviz.games import efg
from cfrviz.games import KuhnPoker, LeducPoker, MatrixGame, rock_paper_scissors
from cfrviz.games.base import Game, TryAgainLater
from cfrviz.games import kuhn, leduc
from cfrviz.games.kuhn import MAX_CARDS
from cfrviz.util.text import quoted
from cfrviz.tree import GameTree, build_tree

#: Settings parameters of a game: sorted (name, value) pairs, defaults left out.
Params = tuple[tuple[str, Any], ...]

#: Algorithms that solve a matrix game only (they need one information set per player).
MATRIX_ONLY_ALGORITHMS = ("rm",)
#: Longest game string a link or the CLI may carry (an OpenSpiel string, a bundled .efg name).
MAX_LINK_LENGTH = 200

# Iteration caps for games without their own: node visits per solve. The app's budget is
# Leduc's measured cap (20,000 iterations x 1,936 nodes, about a second of vanilla CFR on
# the shared 2-core server); the CLI's is Leduc's 1,000,000 CLI iterations (minutes of CPU at the cap; see the README).
_APP_NODE_BUDGET = 40_000_000
_CLI_NODE_BUDGET = 2_000_000_000
_WALKTHROUGH_NODE_BUDGET = 1_000_000
#: Trees with more nodes than this are too big for a step-by-step walkthrough.
MAX_WALKTHROUGH_NODES = 2_000
#: Trees deeper than this are not walked step by step either (the walkthrough recurses once per move).
MAX_WALKTHROUGH_DEPTH = 100


@dataclass(frozen=True)
class Parameter:
    """One setting of a game: a whole number in [low, high], a yes/no, or a text value."""

    name: str
    label: str
    kind: Literal["int", "bool", "text", "value"]
    default: Any = None
    low: int | None = None
    high: int | None = None
    help: str = ""

    def check(self, value: Any, title: str) -> Any:
        """The value, checked; ValueError says what the game accepts."""
        if self.kind == "int":
            if isinstance(value, bool) or not isinstance(value, int):
                raise ValueError(f"{title} needs a whole number for {self.name}, not {quoted(value)}.")
            if (self.low is not None and value < self.low) or (self.high is not None and value > self.high):
                raise ValueError(f"{title} takes {self.low} to {self.high} {self.name}; {value} was asked for.")
            return int(value)
        if self.kind == "bool":
            if not isinstance(value, bool):
                raise ValueError(f"{title} needs true or false for {self.name}, not {quoted(value)}.")
            return value
        if self.kind == "text" and not isinstance(value, str):
            raise ValueError(f"{title} needs text for {self.name}, not a {type(value).__name__}.")
        return _frozen(value)

    def parse(self, text: str) -> Any:
        """The value of this parameter written in a link (ASCII digits for numbers); ValueError if malformed."""
        if self.kind == "int":
            if not text or len(text) > 6 or not (text.isascii() and text.isdigit()):
                raise ValueError
            return int(text)
        if self.kind == "text":
            return text
        raise ValueError


@dataclass(frozen=True)
class Entry:
    """A kind of game in the catalog and everything the package knows about it.

    factory      builds the game from keyword parameters (ValueError on bad ones)
    recognise    the inverse: a game's parameters (defaults left out), or None if not this kind
    parameters   the settings the factory takes, with their ranges
    link_parameter, link_separator
                 how a parameter rides in a link value: "kuhn" + "5" -> cards=5; "efg" + ":" + name
    app_iteration_cap, cli_iteration_cap
                 None: derived from the tree's size (see `CatalogGame.app_iteration_cap`)
    known_value  player 1's value at the default parameters, from the literature
    matrix       a matrix game: each player moves once, unseen; regret matching applies
    alpha_family Kuhn's one-parameter family of equilibria is known (at the default parameters)
    parts_by     how a tree too big to draw whole is cut: by the dealt private cards, or by subtree
    linkable     whether the game can be named in a share link
    """

    name: str
    title: str
    factory: Callable[..., Game]
    recognise: Callable[[Game], Params | None]
    parameters: tuple[Parameter, ...] = ()
    link_parameter: str | None = None
    link_separator: str = ""
    app_iteration_cap: int | None = None
    cli_iteration_cap: int | None = None
    known_value: float | None = None
    matrix: bool = False
    alpha_family: bool = False
    parts_by: Literal["private card", "subtree"] = "subtree"
    linkable: bool = True
    description: str = ""
    label_suffix: str = ""
    #: Parameters that change how the tree is dealt, not the game (its value and equilibria stay).
    same_game: tuple[str, ...] = ()

    def __repr__(self) -> str:
        return f"Entry({self.name!r})"

    def parameter(self, name: str) -> Parameter:
        for p in self.parameters:
            if p.name == name:
                return p
        raise ValueError(f"{self.title} takes no parameter {quoted(name)}"
                         + (f"; it takes {', '.join(p.name for p in self.parameters)}." if self.parameters else "."))

    def normalise(self, params: Mapping[str, Any]) -> Params:
        """Checked parameters as sorted pairs, defaults left out (so equal games compare equal)."""
        out = []
        for name, value in params.items():
            parameter = self.parameter(str(name))
            value = parameter.check(value, self.title)
            if parameter.default is not None and value == parameter.default and type(value) is type(parameter.default):
                continue
            out.append((parameter.name, value))
        return tuple(sorted(out))


@dataclass(frozen=True)
class CatalogGame:
    """An entry of the catalog with its parameters chosen: what a run's settings name.

    Build with `get(name, **params)`, `lookup(link_value)` or `of_game(game)`.
    """

    entry: Entry
    params: Params = ()

    def __repr__(self) -> str:
        shown = ", ".join(f"{k}={v!r}" if len(repr(v)) <= 40 else f"{k}=…" for k, v in self.params)
        return f"CatalogGame({self.entry.name!r}{', ' + shown if shown else ''})"

    @property
    def name(self) -> str:
        """The entry's name: what `RunSettings.game` holds."""
        return self.entry.name

    def game(self) -> Game:
        """The game's rules object (built once per process)."""
        return _build_game(self)

    def tree(self) -> GameTree:
        """The compiled tree (built once per process)."""
        return _build_tree(self)

    @property
    def title(self) -> str:
        return str(self.game().title)

    @property
    def label(self) -> str:
        """The title as a menu shows it: games from files say so (a bundled Kuhn is not the built-in one)."""
        return f"{self.title}{self.entry.label_suffix}"

    @property
    def link(self) -> str | None:
        """The share-link value naming this game ("kuhn", "kuhn5", "efg:<name>"), or None if a link cannot carry it."""
        entry = self.entry
        if not entry.linkable:
            return None
        if not self.params:
            return entry.name if entry.link_separator == "" or entry.link_parameter is None else None
        if entry.link_parameter is not None and len(self.params) == 1 and self.params[0][0] == entry.link_parameter:
            return f"{entry.name}{entry.link_separator}{self.params[0][1]}"
        return None

    @property
    def is_default(self) -> bool:
        """Whether this is the entry's game at its default parameters (or dealt another way only)."""
        return all(name in self.entry.same_game for name, _ in self.params)

    @property
    def known_value(self) -> float | None:
        """Player 1's value from the literature (Kuhn with 3 cards, Leduc, rock-paper-scissors), else None."""
        return self.entry.known_value if self.is_default else None

    @property
    def alpha_family(self) -> bool:
        """Whether Kuhn's α-family of equilibria applies (3-card Kuhn poker)."""
        return self.entry.alpha_family and self.is_default

    @property
    def matrix(self) -> bool:
        return self.entry.matrix

    def offers(self, algorithm: str) -> bool:
        """Whether `algorithm` (a key of cfrviz.solvers.ALGORITHMS) applies to this game."""
        return self.entry.matrix or algorithm not in MATRIX_ONLY_ALGORITHMS

    @property
    def default_algorithm(self) -> str:
        return "rm" if self.entry.matrix else "cfr"

    @property
    def app_iteration_cap(self) -> int:
        """Most iterations one solve may ask for on the shared app server."""
        if self.entry.app_iteration_cap is not None:
            return self.entry.app_iteration_cap
        return _budget_cap(_APP_NODE_BUDGET, self.tree().num_nodes, 100, 100_000)

    @property
    def cli_iteration_cap(self) -> int:
        """Most iterations one CLI solve may ask for."""
        if self.entry.cli_iteration_cap is not None:
            return self.entry.cli_iteration_cap
        return _budget_cap(_CLI_NODE_BUDGET, self.tree().num_nodes, 1_000, 10_000_000)

    @property
    def walkthrough(self) -> bool:
        """Whether the tree is small and shallow enough to walk one iteration step by step."""
        tree = self.tree()
        return tree.num_nodes <= MAX_WALKTHROUGH_NODES and int(tree.depth[-1]) <= MAX_WALKTHROUGH_DEPTH

    @property
    def walkthrough_iteration_cap(self) -> int:
        """Largest iteration t the Walkthrough replays up to (it re-solves t - 1 iterations first)."""
        return _budget_cap(_WALKTHROUGH_NODE_BUDGET, self.tree().num_nodes, 10, 10_000)

    @property
    def playable(self) -> bool:
        """Whether a human can play it against a strategy (every two-player game in the catalog)."""
        return True

    @property
    def parts_by(self) -> str:
        return self.entry.parts_by

    @property
    def rules(self) -> str | None:
        """The rules card (markdown) the game class carries, if any."""
        text = getattr(self.game(), "rules", None)
        return text if isinstance(text, str) and text else None

    @property
    def action_legend(self) -> Any:
        """What the game's action letters mean, if the game class says."""
        return getattr(self.game(), "action_legend", None)

    def settings_params(self) -> dict[str, Any]:
        """The parameters as a plain dict (for `cfrviz.solve(name, **params)`)."""
        return dict(self.params)


def _budget_cap(budget: int, nodes: int, low: int, high: int) -> int:
    """budget / nodes rounded down to 1, 2 or 5 times a power of ten, within [low, high]."""
    raw = max(budget // max(nodes, 1), 1)
    power = 10 ** int(math.log10(raw))
    nice = max(m * power for m in (1, 2, 5) if m * power <= raw)
    return int(min(max(nice, low), high))


# Built games and trees are kept per process, least recently used first out, within a count and an
# estimate of their bytes; a game or tree that was refused is never kept, only its sentence is.
#: Most games and trees kept, and their most estimated bytes (a tree's estimate includes its game's).
GAME_CACHE_ENTRIES, GAME_CACHE_BYTES = 32, 100_000_000
TREE_CACHE_ENTRIES, TREE_CACHE_BYTES = 16, 200_000_000
#: Most refusals remembered (a digest of the game's settings and one sentence each).
REFUSAL_CACHE_ENTRIES = 256
#: Estimated bytes per history of a game given as an explicit tree (node tables, labels, histories;
#: measured 180 to 730 on .efg games), and of a compiled tree beyond its arrays (labels, set records).
_EXPLICIT_BYTES_PER_NODE = 1_000
_TREE_BYTES_PER_NODE = 200


class _BoundedCache:
    """Least-recently-used values within `max_entries` and `max_bytes` (the newest is always kept); thread-safe."""

    def __init__(self, max_entries: int, max_bytes: int) -> None:
        self.max_entries, self.max_bytes = max_entries, max_bytes
        self._values: OrderedDict[Any, tuple[Any, int]] = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()

    def get(self, key: Any) -> Any:
        with self._lock:
            found = self._values.get(key)
            if found is None:
                return None
            self._values.move_to_end(key)
            return found[0]

    def put(self, key: Any, value: Any, size: int) -> None:
        with self._lock:
            old = self._values.pop(key, None)
            if old is not None:
                self._bytes -= old[1]
            self._values[key] = (value, size)
            self._bytes += size
            while len(self._values) > 1 and (len(self._values) > self.max_entries or self._bytes > self.max_bytes):
                _, (_, evicted) = self._values.popitem(last=False)
                self._bytes -= evicted

    def discard(self, key: Any) -> None:
        with self._lock:
            old = self._values.pop(key, None)
            if old is not None:
                self._bytes -= old[1]

    def __contains__(self, key: Any) -> bool:
        with self._lock:
            return key in self._values

    def clear(self) -> None:
        with self._lock:
            self._values.clear()
            self._bytes = 0

    @property
    def nbytes(self) -> int:
        return self._bytes


_GAMES = _BoundedCache(GAME_CACHE_ENTRIES, GAME_CACHE_BYTES)
_TREES = _BoundedCache(TREE_CACHE_ENTRIES, TREE_CACHE_BYTES)
_REFUSALS = _BoundedCache(REFUSAL_CACHE_ENTRIES, REFUSAL_CACHE_ENTRIES * 1_000)


def _refusal_key(game: CatalogGame, what: str) -> bytes:
    """A short digest of the game's settings: a refused 1 MB .efg text is not kept, only this."""
    return hashlib.blake2b(repr((what, game.entry.name, game.params)).encode("utf-8"), digest_size=16).digest()


def _game_bytes(game: Game) -> int:
    nodes = getattr(game, "num_nodes", None)
    text = getattr(game, "text", None)
    return ((nodes if isinstance(nodes, int) else 0) * _EXPLICIT_BYTES_PER_NODE
            + (len(text) if isinstance(text, str) else 0) + 10_000)


def tree_bytes(tree: GameTree) -> int:
    """Estimated bytes a compiled tree holds: its arrays, labels and set records, and its game."""
    arrays = sum(value.nbytes for value in vars(tree).values() if isinstance(value, np.ndarray))
    return arrays + tree.num_nodes * _TREE_BYTES_PER_NODE + _game_bytes(tree.game)


def _remembered(game: CatalogGame, what: str, build: Callable[[], Any], cache: _BoundedCache,
                size: Callable[[Any], int], also: tuple[str, ...] = ()) -> Any:
    """The cached value, or build it and keep it; a refusal (ValueError, or memory running out) is
    kept as its sentence only, so repeating it costs nothing and nothing refused stays in memory.
    A refusal is also remembered for the stages named in `also` (a game whose tree is refused is
    refused as a game too, and dropped from the game cache)."""
    found = cache.get(game)
    if found is not None:
        return found
    key = _refusal_key(game, what)
    refused = _REFUSALS.get(key)
    if refused is not None:
        raise ValueError(refused)
    try:
        value = build()
    except TryAgainLater:   # busy, not refused: the next request tries again
        raise
    except (ValueError, MemoryError, RecursionError) as error:
        message = str(error) if isinstance(error, ValueError) else (
            f"{game.entry.title} needs more memory than this process has to spare; choose a smaller game.")
        for stage in (what, *also):
            _REFUSALS.put(_refusal_key(game, stage), message, len(message))
        if also:
            _GAMES.discard(game)
        if isinstance(error, ValueError):
            raise
        raise ValueError(message) from None
    cache.put(game, value, size(value))
    return value


def _build_game(game: CatalogGame) -> Game:
    built: Game = _remembered(game, "game", lambda: game.entry.factory(**dict(game.params)), _GAMES, _game_bytes)
    return built


def _build_tree(game: CatalogGame) -> GameTree:
    # build_tree sizes the dense arrays from the game before allocating them, so a refused tree is never built.
    tree: GameTree = _remembered(game, "tree", lambda: build_tree(_build_game(game)), _TREES, tree_bytes,
                                 also=("game",))
    return tree


def clear_caches() -> None:
    """Forget every built game, tree and refusal (tests; a server under memory pressure)."""
    for cache in (_GAMES, _TREES, _REFUSALS):
        cache.clear()


# ---------------------------------------------------------------------------------------------
# The entries


def _kuhn(cards: int = 3) -> Game:
    return KuhnPoker(cards=cards)


def _recognise_kuhn(game: Game) -> Params | None:
    return ((("cards", game.cards),) if game.cards != 3 else ()) if isinstance(game, KuhnPoker) else None


def _leduc(suits: bool = False) -> Game:
    return LeducPoker(suits=suits)


def _recognise_leduc(game: Game) -> Params | None:
    return ((("suits", True),) if game.suits else ()) if isinstance(game, LeducPoker) else None


def _recognise_rps(game: Game) -> Params | None:
    return () if isinstance(game, MatrixGame) and game == rock_paper_scissors() else None


def _matrix(payoffs: Sequence[Sequence[float]], row_names: Sequence[str] | None = None,
            column_names: Sequence[str] | None = None) -> Game:
    try:
        rows = [list(row) for row in payoffs]
    except TypeError:
        raise ValueError("A matrix game needs its payoffs as a list of rows of numbers.") from None
    return MatrixGame.from_lists(rows, row_names=None if row_names is None else tuple(row_names),
                                 column_names=None if column_names is None else tuple(column_names))


def _recognise_matrix(game: Game) -> Params | None:
    if not isinstance(game, MatrixGame):
        return None
    return (("column_names", tuple(game.column_names)), ("payoffs", tuple(tuple(r) for r in game.payoffs)),
            ("row_names", tuple(game.row_names)))


def _efg(bundled: str | None = None, text: str | None = None) -> Game:
    if (bundled is None) == (text is None):
        raise ValueError("An .efg game is either a bundled game (efg:<name>) or the text of an .efg file.")
    if bundled is not None:
        return efg.read_bundled(bundled)
    return efg.read_efg(text, source="the game file")   # type: ignore[arg-type]


def _recognise_efg(game: Game) -> Params | None:
    # Games read from .efg keep their source text (and their name when bundled); OpenSpiel games
    # keep their game string instead.
    if isinstance(getattr(game, "game_string", None), str):
        return None
    bundled = getattr(game, "bundled", None)
    if isinstance(bundled, str) and bundled:
        return (("bundled", bundled),)
    text = getattr(game, "text", None)
    return (("text", text),) if isinstance(text, str) else None


def _openspiel(game_string: str) -> Game:
    try:
        module = importlib.import_module("cfrviz.games.openspiel")
    except ImportError:
        raise ValueError("This cfrviz cannot load OpenSpiel games.") from None
    game: Game = module.load_openspiel(game_string)
    return game


def _recognise_openspiel(game: Game) -> Params | None:
    game_string = getattr(game, "game_string", None)
    return (("game_string", game_string),) if isinstance(game_string, str) else None


def _custom(title: str = "a game") -> Game:
    raise ValueError(f"A run of {title} (a game given as a Python object) cannot be rebuilt from its settings; "
                     "write the game as a Gambit .efg file to save and reload its runs.")


ENTRIES: dict[str, Entry] = {e.name: e for e in (
    Entry("kuhn", "Kuhn poker", _kuhn, _recognise_kuhn,
          parameters=(Parameter("cards", "Cards in the deck", "int", 3, 3, MAX_CARDS,
                                "Kuhn poker is played with 3 cards (J, Q, K); more cards make a bigger game."),),
          link_parameter="cards",
          # Measured whole `cfrviz.solve` calls, quiet / busy shared 2-core machine: vanilla CFR 100k
          # iterations 0.2 / 0.3 s (13 cards 1.4 / 3.7 s); the CLI cap is a hundred times that.
          app_iteration_cap=100_000, cli_iteration_cap=10_000_000,
          known_value=kuhn.VALUE, alpha_family=True, parts_by="private card",
          description="Kuhn (1950): three cards, one bet. Its value for player 1 is -1/18."),
    Entry("leduc", "Leduc poker", _leduc, _recognise_leduc,
          parameters=(Parameter("suits", "Deal suits", "bool", False,
                                help="Deal the six cards one by one instead of by rank (same game, bigger tree)."),),
          # Leduc 50k vanilla CFR took 1.9 / 11.5 s: capped at 20k to stay near a second.
          app_iteration_cap=20_000, cli_iteration_cap=1_000_000,
          known_value=leduc.VALUE, parts_by="private card", same_game=("suits",),
          description="Southey et al. (2005): six cards, two betting rounds, one public card."),
    Entry("rps", "Rock-paper-scissors", rock_paper_scissors, _recognise_rps,
          app_iteration_cap=100_000, cli_iteration_cap=10_000_000, known_value=0.0, matrix=True,
          description="Each player picks rock, paper or scissors unseen; the equilibrium plays each a third."),
    Entry("matrix", "Matrix game", _matrix, _recognise_matrix,
          parameters=(Parameter("payoffs", "Payoffs", "value"), Parameter("row_names", "Row names", "value"),
                      Parameter("column_names", "Column names", "value")),
          app_iteration_cap=100_000, cli_iteration_cap=10_000_000, matrix=True, linkable=False,
          description="A two-player zero-sum matrix game: player 1's payoffs, rows against columns."),
    Entry("efg", "Gambit .efg game", _efg, _recognise_efg,
          parameters=(Parameter("bundled", "Bundled game", "text"), Parameter("text", "Game file", "text")),
          link_parameter="bundled", link_separator=":", label_suffix=" (.efg)",
          description="A two-player zero-sum game read from a Gambit .efg file."),
    Entry("openspiel", "OpenSpiel game", _openspiel, _recognise_openspiel,
          parameters=(Parameter("game_string", "Game string", "text"),),
          link_parameter="game_string", link_separator=":", label_suffix=" (OpenSpiel)",
          description="A two-player zero-sum OpenSpiel game, enumerated once through pyspiel."),
    Entry("custom", "Custom game", _custom, lambda game: None,
          parameters=(Parameter("title", "Title", "text"),), linkable=False,
          description="A game given to cfrviz.solve as a Python object."),
)}


# ---------------------------------------------------------------------------------------------
# Lookups


def entry(name: str) -> Entry:
    """The entry called `name`; ValueError lists the known names."""
    try:
        return ENTRIES[name]
    except (KeyError, TypeError):
        raise ValueError(f"Unknown game {quoted(name)}; cfrviz knows {', '.join(ENTRIES)}.") from None


def get(name: str, **params: Any) -> CatalogGame:
    """The catalog game `name` with `params` checked; ValueError names the bad one.

    >>> get("kuhn", cards=3).link, get("leduc", suits=True).params
    ('kuhn', (('suits', True),))
    """
    if not isinstance(name, str):
        raise ValueError(f"A game name is text, not {quoted(name)}.")
    found = entry(name.strip().lower())
    chosen = CatalogGame(found, found.normalise({k: v for k, v in params.items() if v is not None}))
    # The factory's own checks (a matrix's payoffs, an .efg file) run now; the inverse then
    # gives the parameters in one canonical form, so equal games have equal settings.
    canonical = found.recognise(chosen.game())
    return chosen if canonical is None or canonical == chosen.params else CatalogGame(found, canonical)


def lookup(value: str) -> CatalogGame:
    """The game a link or command line names: "kuhn", "kuhn5", "leduc", "rps", "efg:<bundled name>"
    or "openspiel:<game string>". ValueError has one sentence listing what is accepted."""
    text = str(value).strip()
    if not text or len(text) > MAX_LINK_LENGTH or not text.isascii() or not text.isprintable():
        raise ValueError(_unknown(value))
    lowered = text.lower()
    plain = ENTRIES.get(lowered)
    if plain is not None and plain.linkable and (plain.link_parameter is None or plain.link_separator == ""):
        return get(plain.name)
    for candidate in ENTRIES.values():
        if not candidate.linkable or candidate.link_parameter is None:
            continue
        prefix = candidate.name + candidate.link_separator
        if lowered.startswith(prefix) and len(text) > len(prefix):
            rest = text[len(prefix):]
            try:
                parsed = candidate.parameter(candidate.link_parameter).parse(rest)
            except ValueError:
                continue
            return get(candidate.name, **{candidate.link_parameter: parsed})
    raise ValueError(_unknown(value))


def _link_forms() -> str:
    """The link values every linkable entry accepts, in words: "kuhn, kuhn4 … kuhn13, ..."."""
    forms = []
    for candidate in ENTRIES.values():
        if not candidate.linkable:
            continue
        parameter = candidate.parameter(candidate.link_parameter) if candidate.link_parameter else None
        if parameter is None or candidate.link_separator == "":
            forms.append(candidate.name)
        if parameter is not None and parameter.kind == "int":
            forms.append(f"{candidate.name}{int(parameter.default) + 1} … {candidate.name}{parameter.high}")
        elif parameter is not None:
            forms.append(f"{candidate.name}{candidate.link_separator}<{parameter.label.lower()}>")
    return ", ".join(forms)


def _unknown(value: object) -> str:
    return f"Unknown game {quoted(value)}; use one of: {_link_forms()}."


def of_game(game: Game) -> CatalogGame:
    """The catalog game a rules object is (the inverse of the factories). A game no entry
    recognises becomes a "custom" game, which solves but cannot be rebuilt from settings."""
    for candidate in ENTRIES.values():
        params = candidate.recognise(game)
        if params is not None:
            return CatalogGame(candidate, params)
    return CatalogGame(ENTRIES["custom"], (("title", str(getattr(game, "title", "a game"))),))


def of_tree(tree: GameTree) -> CatalogGame:
    """The catalog game of a compiled tree."""
    return of_game(tree.game)


def restorable(tree: GameTree) -> tuple[GameTree, CatalogGame]:
    """`tree` and its catalog game, written as an .efg game when no entry knows it, so that a run of a
    game given as a Python object can be saved and reloaded. The .efg copy is used only when it
    compiles to the same tree (histories, information sets, actions, chance and payoffs); otherwise
    the game stays "custom" (solvable, not rebuildable)."""
    found = of_tree(tree)
    if found.entry.name != "custom":
        return tree, found
    try:
        written = get("efg", text=efg.write_efg(tree))
    except ValueError:
        return tree, found
    copy = written.tree()
    same = (copy.num_nodes == tree.num_nodes
            and [r.key for r in copy.infosets] == [r.key for r in tree.infosets]
            and [r.actions for r in copy.infosets] == [r.actions for r in tree.infosets]
            and all(np.array_equal(getattr(copy, a), getattr(tree, a)) for a in ("parent", "actor", "infoset"))
            and np.allclose(copy.chance_probability, tree.chance_probability, rtol=0.0, atol=1e-15)
            and np.allclose(copy.payoff, tree.payoff, rtol=0.0, atol=1e-12))
    return (copy, written) if same else (tree, found)


def bundled_games() -> dict[str, str]:
    """Bundled .efg games (name -> title), in name order."""
    return efg.bundled_games()


def openspiel_available() -> bool:
    """Whether OpenSpiel games can be loaded here (pyspiel is importable)."""
    try:
        module = importlib.import_module("cfrviz.games.openspiel")
    except ImportError:
        return False
    return bool(module.available())


# ---------------------------------------------------------------------------------------------
# The OpenSpiel menu: the games a hosted app loads from links, uploads and its sidebar.


#: Set to 1 to let the app load any OpenSpiel game string (still in a child process with limits);
#: otherwise links, uploads and the sidebar take only `OPENSPIEL_MENU`. The CLI and package never ask.
OPENSPIEL_ANY_ENV = "CFRVIZ_OPENSPIEL_ANY"


@dataclass(frozen=True)
class MenuParameter:
    """One parameter of a vetted OpenSpiel game, with the values the menu allows.

    kind "int": whole numbers from low to high; "bool": True or False; "choice": one of
    `choices`. `default` is OpenSpiel's own default, as OpenSpiel writes it (a game string
    that leaves the parameter out gets it). A parameter with one allowed value is pinned
    and not offered; `always` writes it in the game string even at OpenSpiel's default.
    `initial` is the value the sidebar starts from.
    """

    name: str
    label: str
    kind: Literal["int", "bool", "choice"]
    default: str
    initial: str
    low: int = 0
    high: int = 0
    choices: tuple[str, ...] = ()
    always: bool = False

    @property
    def allowed(self) -> tuple[str, ...]:
        """Every value the menu allows, as OpenSpiel text."""
        if self.kind == "int":
            return tuple(str(v) for v in range(self.low, self.high + 1))
        return ("False", "True") if self.kind == "bool" and not self.choices else self.choices

    @property
    def pinned(self) -> bool:
        return len(self.allowed) == 1

    def read(self, text: str) -> str | None:
        """`text` as the menu writes it ("04" -> "4", "true" -> "True"), or None when not allowed."""
        if self.kind == "int":
            if not (text.isascii() and text.isdigit()) or len(text) > 6:
                return None
            value = str(int(text))
        elif self.kind == "bool":
            value = {"true": "True", "false": "False"}.get(text) or (text if text in ("True", "False") else "")
        else:
            value = text
        return value if value in self.allowed else None


@dataclass(frozen=True)
class OpenSpielMenuGame:
    """A vetted OpenSpiel game: its name, title and parameters with their allowed ranges.

    `largest` is the game string with the most histories the ranges allow (measured by
    scripts/openspiel_menu.py, which times every combination in the loader's child process).
    """

    name: str
    title: str
    parameters: tuple[MenuParameter, ...] = ()
    largest: str = ""
    description: str = ""

    def game_string(self, values: Mapping[str, str] | None = None) -> str:
        """The game string of `values` (parameter name -> text; the rest from `initial`), as the menu
        writes it: parameters in menu order, each only when pinned as `always`, or not OpenSpiel's default.
        ValueError when a value is not allowed."""
        chosen = {p.name: p.initial for p in self.parameters}
        chosen.update(values or {})
        parts = []
        for p in self.parameters:
            value = p.read(str(chosen[p.name]))
            if value is None:
                raise ValueError(f"OpenSpiel's {self.name} takes {p.name} in {', '.join(p.allowed)} on this server, "
                                 f"not {quoted(chosen[p.name])}.")
            if p.always or value != p.default:
                parts.append(f"{p.name}={value}")
        return f"{self.name}({','.join(parts)})" if parts else self.name


def _choice(name: str, label: str, default: str, choices: tuple[str, ...], initial: str | None = None,
            always: bool = False) -> MenuParameter:
    return MenuParameter(name, label, "choice", default, initial or choices[0], choices=choices, always=always)


def _whole(name: str, label: str, default: str, low: int, high: int, initial: int,
           always: bool = False) -> MenuParameter:
    return MenuParameter(name, label, "int", default, str(initial), low, high, always=always)


_TWO_PLAYERS = _choice("players", "Players", "2", ("2",))
#: The OpenSpiel games a hosted app offers, with parameter ranges measured to enumerate within the
#: loader's limits (at most 51,181 histories, well under a second of the child's CPU; table in the
#: README). Every one is
#: two-player zero-sum with explicit chance and perfect recall. Not here: liars_dice with 6 sides
#: (294,883 histories, over the cap), goofspiel without imp_info (turn-based, player 1 forgets its
#: bids) and first_sealed_auction (general-sum).
OPENSPIEL_MENU: tuple[OpenSpielMenuGame, ...] = (
    OpenSpielMenuGame("kuhn_poker", "Kuhn poker (OpenSpiel)", (_TWO_PLAYERS,), largest="kuhn_poker",
                      description="OpenSpiel's Kuhn poker: 3 cards, one bet."),
    OpenSpielMenuGame("leduc_poker", "Leduc poker (OpenSpiel)", (
        _TWO_PLAYERS,
        MenuParameter("suit_isomorphism", "Merge suits", "bool", "False", "False"),
    ), largest="leduc_poker", description="OpenSpiel's Leduc poker: 6 cards, two betting rounds."),
    OpenSpielMenuGame("liars_dice", "Liar's dice (OpenSpiel)", (
        _choice("numdice", "Dice per player", "1", ("1",), always=True),
        _whole("dice_sides", "Sides of a die", "6", 2, 5, 3),
        _TWO_PLAYERS,
    ), largest="liars_dice(numdice=1,dice_sides=5)",
        description="Each player rolls one hidden die and bids on the faces, or calls liar."),
    OpenSpielMenuGame("goofspiel", "Goofspiel (OpenSpiel)", (
        _whole("num_cards", "Cards", "13", 1, 4, 3),
        MenuParameter("imp_info", "Bids hidden", "bool", "False", "True", choices=("True",)),
        _choice("points_order", "Order of the point cards", "random", ("descending", "ascending", "random")),
        _choice("returns_type", "Payoff", "win_loss", ("win_loss", "point_difference")),
        _TWO_PLAYERS,
    ), largest="goofspiel(num_cards=4,imp_info=True)",
        description="Both players bid a card for each point card, unseen; played turn-based."),
    OpenSpielMenuGame("oshi_zumo", "Oshi-zumo (OpenSpiel)", (
        _whole("coins", "Coins per player", "50", 1, 4, 3),
        _whole("size", "Steps to the edge", "3", 1, 2, 1),
        _whole("horizon", "Most rounds", "1000", 1, 5, 3),
        _choice("min_bid", "Smallest bid", "0", ("0",)),
        MenuParameter("alesia", "Alesia rules", "bool", "False", "False"),
    ), largest="oshi_zumo(coins=4,size=2,horizon=5)",
        description="Two wrestlers bid coins, unseen, to push each other off a small board."),
    OpenSpielMenuGame("blotto", "Colonel Blotto (OpenSpiel)", (
        _whole("coins", "Soldiers", "10", 1, 8, 5, always=True),
        _whole("fields", "Battlefields", "3", 2, 4, 3, always=True),
        _TWO_PLAYERS,
    ), largest="blotto(coins=8,fields=4)",
        description="Both players split their soldiers over the battlefields at once; most fields won wins."),
)


def openspiel_menu() -> tuple[OpenSpielMenuGame, ...]:
    """The vetted OpenSpiel games the hosted app offers, in menu order."""
    return OPENSPIEL_MENU


def openspiel_menu_values(game_string: str) -> tuple[OpenSpielMenuGame, dict[str, str]] | None:
    """The menu game `game_string` ("openspiel:" optional) names and every parameter's value as the menu
    writes it, when the game is on the menu with every parameter in range, compared canonically (any
    order, "04" as 4, "true" as True, left-out parameters at OpenSpiel's defaults); else None."""
    from cfrviz.games.openspiel import parse_game_string

    text = str(game_string).strip()
    if text.lower().startswith("openspiel:"):
        text = text[len("openspiel:"):].strip()
    try:
        parsed = parse_game_string(text)
    except ValueError:
        return None
    found = next((g for g in OPENSPIEL_MENU if g.name == parsed.name), None)
    if found is None:
        return None
    given = dict(parsed.params)
    known = {p.name: p for p in found.parameters}
    if len(given) != len(parsed.params) or not set(given) <= set(known):
        return None   # a parameter twice (OpenSpiel keeps the last) or one the menu does not vet
    values = {}
    for name, p in known.items():
        raw = given.get(name, p.default)
        value = p.read(raw) if isinstance(raw, str) else None
        if value is None:
            return None
        values[name] = value
    return found, values


def openspiel_menu_string(game_string: str) -> str | None:
    """The menu's own form of `game_string` when it names a menu game within its ranges (see
    `openspiel_menu_values`), else None.

    >>> openspiel_menu_string("goofspiel(imp_info=true,num_cards=04)")
    'goofspiel(num_cards=4,imp_info=True)'
    >>> openspiel_menu_string("liars_dice(numdice=1,dice_sides=6)") is None   # 294,883 histories
    True
    """
    found = openspiel_menu_values(game_string)
    return None if found is None else found[0].game_string(found[1])


def openspiel_allowed(game_string: str) -> bool:
    """Whether the hosted app may load `game_string`: a menu game within its ranges."""
    return openspiel_menu_string(game_string) is not None


def openspiel_any() -> bool:
    """Whether this app was started with `CFRVIZ_OPENSPIEL_ANY=1` (any OpenSpiel game string)."""
    return os.environ.get(OPENSPIEL_ANY_ENV, "").strip() == "1"


def hosted_openspiel_string(game_string: str, *, any_game: bool | None = None) -> str:
    """The game string a hosted app loads for `game_string`: the menu's form of a menu game, or with
    `any_game` (default: `openspiel_any()`) the string itself. ValueError (one sentence) otherwise."""
    text = str(game_string).strip()
    if text.lower().startswith("openspiel:"):
        text = text[len("openspiel:"):].strip()
    if openspiel_any() if any_game is None else any_game:
        return text
    found = openspiel_menu_string(text)
    if found is None:
        names = ", ".join(g.name for g in OPENSPIEL_MENU)
        raise ValueError(f"The OpenSpiel game {quoted(text, 60)} is not on this server's menu ({names}, within "
                         "their ranges); the cfrviz package and CLI load any OpenSpiel game.")
    return found


def lookup_hosted(value: str, *, any_game: bool | None = None) -> CatalogGame:
    """`lookup` for the hosted app: an OpenSpiel game only from the menu (see `hosted_openspiel_string`);
    other games as `lookup`."""
    text = str(value).strip()
    if text[:len("openspiel:")].lower() == "openspiel:" and len(text) <= MAX_LINK_LENGTH:
        return lookup("openspiel:" + hosted_openspiel_string(text, any_game=any_game))
    return lookup(value)


def check_hosted(game: object, params: Mapping[str, Any], *, any_game: bool | None = None) -> None:
    """ValueError (the menu's sentence) when saved settings (a run, a strategy file) name an OpenSpiel game
    the hosted app does not offer; nothing for other games."""
    if game == "openspiel":
        hosted_openspiel_string(str(params.get("game_string", "")), any_game=any_game)


def menu() -> tuple[CatalogGame, ...]:
    """The games the app offers in its game menu, in catalog order: every entry a link names without
    parameters (Kuhn, Leduc, rock-paper-scissors), then each bundled .efg game."""
    games = [get(e.name) for e in ENTRIES.values() if CatalogGame(e).link is not None]
    for name in bundled_games():
        try:
            games.append(get("efg", bundled=name))
        except ValueError:
            continue
    return tuple(games)


def load_game(game: str | Game | Sequence[Sequence[float]], **params: Any) -> Game:
    """The rules object of a game given by name ("kuhn", cards=N; "leduc", suits=True; "rps"),
    link value, .efg path, payoff matrix (row_names=..., column_names=...) or rules object.

    >>> load_game("kuhn", cards=4).title
    'Kuhn poker (4 cards)'
    """
    if hasattr(game, "initial_state") and not isinstance(game, str):
        if params:
            raise ValueError("Parameters apply only when a game is given by name.")
        return game   # type: ignore[return-value]
    return resolve(game, **params).game()


def compile_game(game: str | Game | GameTree | Sequence[Sequence[float]], **params: Any) -> GameTree:
    """The compiled tree of a game given by catalog name (with parameters), link value, rules object,
    payoff matrix or tree. Catalog games are compiled once per process."""
    if isinstance(game, GameTree):
        if params:
            raise ValueError("Game parameters apply only when a game is given by name.")
        return game
    found = resolve(game, **params)
    if found.entry.name == "custom":
        return build_tree(game)   # type: ignore[arg-type]  # a rules object no entry knows: compiled as given
    return found.tree()


def resolve(game: str | Game | Sequence[Sequence[float]], **params: Any) -> CatalogGame:
    """A `CatalogGame` from a name with parameters, a link value ("kuhn5", "efg:…", "openspiel:…"),
    a path to an .efg file, a rules object or a payoff matrix."""
    if isinstance(game, str):
        name = game.strip().lower()
        if name in ENTRIES:
            return get(name, **params)
        if params:
            raise ValueError(f"Parameters apply only to a game given by its catalog name, not {game[:40]!r}.")
        if name.endswith(".efg"):
            return read_efg_file(game)
        return lookup(game)
    if hasattr(game, "initial_state"):
        if params:
            raise ValueError("Parameters apply only when a game is given by name.")
        return of_game(game)   # type: ignore[arg-type]
    extra = set(params) - {"row_names", "column_names"}
    if extra:
        raise ValueError(f"A matrix game takes no parameter {quoted(sorted(extra)[0])}.")
    return get("matrix", payoffs=_frozen(game), **{k: _frozen(v) for k, v in params.items()})


def read_efg_file(path: str) -> CatalogGame:
    """The .efg game in the file at `path`; ValueError with one sentence when it cannot be read."""
    return of_game(efg.load_efg(path))


def _frozen(value: Any) -> Any:
    """Lists to (nested) tuples, so parameters stay hashable."""
    if isinstance(value, (list, tuple)):
        return tuple(_frozen(v) for v in value)
    return value

