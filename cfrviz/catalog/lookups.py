"""Finding a game in the catalog: by name and parameters (`get`), by link value (`lookup`), from a
rules object or a compiled tree (`of_game`, `of_tree`), from anything a caller may pass
(`resolve`, `load_game`, `compile_game`), and the app's game menu.
"""
from __future__ import annotations

import functools
import importlib
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from cfrviz.games import efg
from cfrviz.games.base import Game
from cfrviz.util.text import quoted
from cfrviz.tree import GameTree, build_tree, efg_export
from cfrviz.catalog.entries import GameSpec, ENTRIES, MAX_LINK_LENGTH, Entry
from cfrviz.catalog.parameters import frozen_parameter

if TYPE_CHECKING:
    from cfrviz.catalog.entries import Entry


# ---------------------------------------------------------------------------------------------
# Lookups


def entry(name: str) -> Entry:
    """The entry called `name`; ValueError lists the known names."""
    try:
        return ENTRIES[name]
    except (KeyError, TypeError):
        raise ValueError(f"Unknown game {quoted(name)}; cfrviz knows {', '.join(ENTRIES)}.") from None


def get(name: str, **params: Any) -> GameSpec:
    """The catalog game `name` with `params` checked; ValueError names the bad one.

    >>> get("kuhn", cards=3).link, get("leduc", suits=True).params
    ('kuhn', (('suits', True),))
    """
    if not isinstance(name, str):
        raise ValueError(f"A game name is text, not {quoted(name)}.")
    found = entry(name.strip().lower())
    chosen = GameSpec(found, found.normalise({k: v for k, v in params.items() if v is not None}))
    # The factory's own checks (a matrix's payoffs, an .efg file) run now; the inverse then
    # gives the parameters in one canonical form, so equal games have equal settings.
    canonical = found.recognise(chosen.game())
    return chosen if canonical is None or canonical == chosen.params else GameSpec(found, canonical)


def lookup(value: str) -> GameSpec:
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


def of_game(game: Game) -> GameSpec:
    """The catalog game a rules object is (the inverse of the factories). A game no entry
    recognises becomes a "custom" game, which solves but cannot be rebuilt from settings."""
    for candidate in ENTRIES.values():
        params = candidate.recognise(game)
        if params is not None:
            return GameSpec(candidate, params)
    return GameSpec(ENTRIES["custom"], (("title", str(getattr(game, "title", "a game"))),))


def of_tree(tree: GameTree) -> GameSpec:
    """The catalog game of a compiled tree."""
    return of_game(tree.game)


def restorable(tree: GameTree) -> tuple[GameTree, GameSpec]:
    """`tree` and its catalog game, written as an .efg game when no entry knows it, so that a run of a
    game given as a Python object can be saved and reloaded. The .efg copy is used only when it
    compiles to the same tree (histories, information sets, actions, chance and payoffs); otherwise
    the game stays "custom" (solvable, not rebuildable)."""
    found = of_tree(tree)
    if found.entry.name != "custom":
        return tree, found
    try:
        # The written text is already what the .efg entry's inverse gives back, so no second lookup.
        written = GameSpec(ENTRIES["efg"], (("text", efg_export.write_efg(tree)),))
    except ValueError:
        return tree, found
    try:
        copy = written.tree()
    except ValueError:
        return tree, found
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


def menu() -> tuple[GameSpec, ...]:
    """The games the app offers in its game menu, in catalog order: every entry a link names without
    parameters (Kuhn, Leduc, rock-paper-scissors), then each bundled .efg game. Resolved once per set of
    entries (every page's sidebar draws it), again when an entry is registered."""
    return _menu_of(tuple(ENTRIES.values()))


@functools.lru_cache(maxsize=1)
def _menu_of(entries: tuple[Entry, ...]) -> tuple[GameSpec, ...]:
    games = [get(e.name) for e in entries if GameSpec(e).link is not None]
    for name in bundled_games():
        try:
            games.append(get("efg", bundled=name))
        except ValueError:
            continue
    return tuple(games)


def load_game(game: GameSpec | str | Game | Sequence[Sequence[float]], **params: Any) -> Game:
    """The rules object of a game given by name ("kuhn", cards=N; "leduc", suits=True; "rps"),
    link value, .efg path, payoff matrix (row_names=..., column_names=...) or rules object.

    >>> load_game("kuhn", cards=4).title
    'Kuhn poker (4 cards)'
    """
    if hasattr(game, "initial_state") and not isinstance(game, str):
        if params:
            raise ValueError("Parameters apply only when a game is given by name.")
        return game   # type: ignore[return-value]  # duck-typed: any object with the Game members is played as a Game
    return resolve(game, **params).game()


def compile_game(game: GameSpec | str | Game | GameTree | Sequence[Sequence[float]], **params: Any) -> GameTree:
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


def resolve(game: GameSpec | str | Game | Sequence[Sequence[float]], **params: Any) -> GameSpec:
    """The `GameSpec` of a name with parameters, a link value ("kuhn5", "efg:…", "openspiel:…"),
    a path to an .efg file, a rules object or a payoff matrix: where a game comes in, once. A
    `GameSpec` is returned as it is."""
    if isinstance(game, GameSpec):
        if params:
            raise ValueError("Game parameters apply only when a game is given by name.")
        return game
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
        return of_game(game)   # type: ignore[arg-type]  # duck-typed: any object with the Game members is played as a Game
    extra = set(params) - {"row_names", "column_names"}
    if extra:
        raise ValueError(f"A matrix game takes no parameter {quoted(sorted(extra)[0])}.")
    return get("matrix", payoffs=frozen_parameter(game), **{k: frozen_parameter(v) for k, v in params.items()})


def read_efg_file(path: str) -> GameSpec:
    """The .efg game in the file at `path`; ValueError with one sentence when it cannot be read."""
    return of_game(efg.load_efg(path))
