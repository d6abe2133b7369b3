"""The catalog's entries: `Entry` (a kind of game and what the package knows about it), `GameSpec`
(an entry with its parameters checked: one game's identity; builds the game and compiles its tree
once per process) and
`ENTRIES`, the table of every game cfrviz knows. Adding a game is one `Entry` here.
"""
from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from cfrviz.games import efg
from cfrviz.games import KuhnPoker, LeducPoker, MatrixGame, rock_paper_scissors
from cfrviz.games.base import Game
from cfrviz.games import kuhn, leduc
from cfrviz.games.kuhn import MAX_CARDS
from cfrviz.util import cost, memory
from cfrviz.util.text import quoted
from cfrviz.tree import GameTree
from cfrviz.catalog.parameters import Parameter, frozen_parameter
from cfrviz.util.vocabulary import Algorithm
from cfrviz.catalog.cache import cached_game, cached_tree

from cfrviz.catalog.parameters import Params


#: Algorithms that solve a matrix game only (they need one information set per player).
MATRIX_ONLY_ALGORITHMS = (Algorithm.REGRET_MATCHING,)
#: Longest game string a link or the CLI may carry (an OpenSpiel string, a bundled .efg name).
MAX_LINK_LENGTH = 200

# App iteration caps follow the estimated CPU time of a solve (`cfrviz.util.cost`), so one click costs
# about `CLICK_SECONDS` whatever the game; the README's "largest games" table is the measurement.
# CLI caps are node visits: Leduc's 1,000,000 CLI iterations (minutes of CPU at the cap; see the README).
_CLI_NODE_BUDGET = 2_000_000_000
_WALKTHROUGH_NODE_BUDGET = 1_000_000
#: Trees with more nodes than this are too big for a step-by-step walkthrough.
MAX_WALKTHROUGH_NODES = 2_000
#: Trees deeper than this are not walked step by step either (the walkthrough recurses once per move).
MAX_WALKTHROUGH_DEPTH = 100


@dataclass(frozen=True)
class Entry:
    """A kind of game in the catalog and everything the package knows about it.

    factory      builds the game from keyword parameters (ValueError on bad ones)
    recognise    the inverse: a game's parameters (defaults left out), or None if not this kind
    parameters   the settings the factory takes, with their ranges
    link_parameter, link_separator
                 how a parameter rides in a link value: "kuhn" + "5" -> cards=5; "efg" + ":" + name
    app_iteration_cap, cli_iteration_cap
                 None: derived from the tree's size (see `GameSpec.app_iteration_cap`)
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
class GameSpec:
    """One game's identity, from the link to the file and back: a catalog entry with its parameters
    checked (sorted pairs, defaults left out, so equal games compare equal). An .efg game's
    parameters carry the file's text; an OpenSpiel game's its game string.

    Build it once, where a game comes in: `get(name, **params)` (checked, canonical), `lookup(link)`,
    `resolve(anything)`, `of_game(game)`, or `GameSpec.checked(name, params)` for settings read from a
    file (checked without building the game). Everything after that (the runner, `RunSettings`, the
    formats, the app's cache key) carries this value; `tree()` and `game()` are built once per process.

    >>> from cfrviz.catalog import get, lookup
    >>> spec = get("kuhn", cards=5)
    >>> spec.link, spec.name, spec.params
    ('kuhn5', 'kuhn', (('cards', 5),))
    >>> GameSpec.checked(spec.name, dict(spec.params)) == spec == lookup("kuhn5")
    True
    """

    entry: Entry
    params: Params = ()

    @classmethod
    def checked(cls, name: object, params: Mapping[str, Any]) -> GameSpec:
        """The spec a saved file's settings name: the entry called `name`, its parameters checked
        (types and ranges) but the game not built, so a file's game can be vetted first
        (`check_hosted`). ValueError in one sentence for an unknown game or a bad parameter."""
        if not isinstance(name, str) or name not in ENTRIES:
            raise ValueError(f"Unknown game {quoted(name)}; cfrviz knows {', '.join(ENTRIES)}.")
        if not isinstance(params, Mapping):
            raise ValueError("A game's parameters must be a JSON object.")
        found = ENTRIES[name]
        return cls(found, found.normalise({str(k): frozen_parameter(v) for k, v in params.items()}))

    def __repr__(self) -> str:
        shown = ", ".join(f"{k}={v!r}" if len(repr(v)) <= 40 else f"{k}=…" for k, v in self.params)
        return f"GameSpec({self.entry.name!r}{', ' + shown if shown else ''})"

    @property
    def name(self) -> str:
        """The entry's name ("kuhn", "efg", "openspiel", ...): what links and files call the kind of game."""
        return self.entry.name

    def game(self) -> Game:
        """The game's rules object (built once per process)."""
        return cached_game(self)

    def tree(self) -> GameTree:
        """The compiled tree (built once per process)."""
        return cached_tree(self)

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
        """Whether `algorithm` (an `Algorithm`, or its name) applies to this game."""
        return self.entry.matrix or algorithm not in MATRIX_ONLY_ALGORITHMS

    @property
    def default_algorithm(self) -> Algorithm:
        return Algorithm.REGRET_MATCHING if self.entry.matrix else Algorithm.CFR

    @property
    def app_iteration_cap(self) -> int:
        """Most iterations one solve may ask for on the shared app server."""
        if self.entry.app_iteration_cap is not None:
            return self.entry.app_iteration_cap
        tree = self.tree()
        most = memory.solve_plan(tree.num_nodes, tree.num_infosets, tree.max_actions).most_snapshots(
            memory.budget_bytes())
        return cost.iteration_cap(tree.num_nodes, cost.CLICK_SECONDS, 100, 100_000, most)

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


def _budget_cap(budget: int, nodes: int, low: int, high: int) -> int:
    """budget / nodes rounded down to 1, 2 or 5 times a power of ten, within [low, high]."""
    return int(min(max(cost.nice_below(max(budget // max(nodes, 1), 1), (1, 2, 5)), low), high))


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
    return efg.read_efg(text, source="the game file")   # type: ignore[arg-type]  # read_efg checks the text itself and raises a ValueError sentence


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
    from cfrviz.catalog.openspiel_vetted import openspiel_menu_title

    # A menu game is titled in words ("Liar's dice, 1 die, 5 sides"); any other by the loader.
    game: Game = module.load_openspiel(game_string, title=openspiel_menu_title(game_string))
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
          # The app's cap follows the tree's estimated solve time (`cfrviz.util.cost`); the CLI's is a hundred
          # times 3-card Kuhn's app cap.
          cli_iteration_cap=10_000_000,
          known_value=kuhn.VALUE, alpha_family=True, parts_by="private card",
          description="Kuhn (1950): three cards, one bet. Its value for player 1 is -1/18."),
    Entry("leduc", "Leduc poker", _leduc, _recognise_leduc,
          parameters=(Parameter("suits", "Deal suits", "bool", False,
                                help="Deal the six cards one by one instead of by rank (same game, bigger tree)."),),
          # The app's cap follows the tree's estimated solve time (`cfrviz.util.cost`), by rank and by suit.
          cli_iteration_cap=1_000_000,
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
