"""The game catalog: the one place that knows each game cfrviz can solve and show.

An `Entry` describes a kind of game: its name and title, its parameters with their ranges,
a factory (parameters -> game) and its inverse (game -> parameters, so a saved run rebuilds
its tree from plain settings), iteration caps for the app and the CLI, a known value, and
what the pages may offer for it. A `GameSpec` is an entry with its parameters checked: the one
value that names a game from a link or the sidebar through the runner, a run's settings and its
files, and back. It builds the game and compiles its tree once per process.

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

from cfrviz.catalog.parameters import Parameter, Params, frozen_parameter
from cfrviz.catalog.entries import (ENTRIES, MATRIX_ONLY_ALGORITHMS, MAX_LINK_LENGTH, MAX_WALKTHROUGH_DEPTH,
                                    MAX_WALKTHROUGH_NODES, Entry, GameSpec)
from cfrviz.catalog.cache import (GAME_CACHE_BYTES, GAME_CACHE_ENTRIES, REFUSAL_CACHE_ENTRIES, TREE_CACHE_BYTES,
                                  TREE_CACHE_ENTRIES, cached_game, cached_tree, clear_caches, tree_bytes)
from cfrviz.catalog.openspiel_menu import (OPENSPIEL_ANY_ENV, OPENSPIEL_MENU, MenuParameter, OpenSpielMenuGame,
                                           check_hosted, hosted_openspiel_string, lookup_hosted, openspiel_allowed,
                                           openspiel_any, openspiel_menu, openspiel_menu_string, openspiel_menu_values)
from cfrviz.catalog.lookups import (bundled_games, compile_game, entry, get, load_game, lookup, menu, of_game, of_tree,
                                    openspiel_available, read_efg_file, resolve, restorable)

__all__ = ["ENTRIES", "GAME_CACHE_BYTES", "GAME_CACHE_ENTRIES", "MATRIX_ONLY_ALGORITHMS", "MAX_LINK_LENGTH",
           "MAX_WALKTHROUGH_DEPTH", "MAX_WALKTHROUGH_NODES", "OPENSPIEL_ANY_ENV", "OPENSPIEL_MENU",
           "REFUSAL_CACHE_ENTRIES", "TREE_CACHE_BYTES", "TREE_CACHE_ENTRIES", "Entry", "GameSpec",
           "MenuParameter", "OpenSpielMenuGame", "Parameter", "Params", "bundled_games", "cached_game",
           "cached_tree", "check_hosted", "clear_caches", "compile_game", "entry", "frozen_parameter", "get",
           "hosted_openspiel_string", "load_game", "lookup", "lookup_hosted", "menu", "of_game", "of_tree",
           "openspiel_allowed", "openspiel_any", "openspiel_available", "openspiel_menu", "openspiel_menu_string",
           "openspiel_menu_values", "read_efg_file", "resolve", "restorable", "tree_bytes"]
