"""Built games and compiled trees, kept once per process: least recently used first out, within a
count and an estimate of their bytes. A game or tree that was refused is never kept, only its
sentence (under a digest of its settings), so asking again costs nothing.
"""
from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

from cfrviz.games.base import Game, TryAgainLater
from cfrviz.tree import GameTree, build_tree
from cfrviz.util import idle

if TYPE_CHECKING:
    from cfrviz.catalog.entries import GameSpec


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


def _refusal_key(game: GameSpec, what: str) -> bytes:
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


def _remembered(game: GameSpec, what: str, build: Callable[[], Any], cache: _BoundedCache,
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


def cached_game(game: GameSpec) -> Game:
    built: Game = _remembered(game, "game", lambda: game.entry.factory(**dict(game.params)), _GAMES, _game_bytes)
    return built


def cached_tree(game: GameSpec) -> GameTree:
    # build_tree sizes the dense arrays from the game before allocating them, so a refused tree is never built.
    tree: GameTree = _remembered(game, "tree", lambda: build_tree(cached_game(game)), _TREES, tree_bytes,
                                 also=("game",))
    return tree


def clear_caches() -> None:
    """Forget every built game, tree and refusal (tests; a server under memory pressure)."""
    for cache in (_GAMES, _TREES, _REFUSALS):
        cache.clear()


def _empty_built() -> None:
    """Forget the built games and trees, not the refusals (a sentence each): with the trees go the
    arrays the solvers, judging and drawing keep per tree (weakly keyed on it)."""
    for cache in (_GAMES, _TREES):
        cache.clear()


idle.on_idle("games and trees", _empty_built)   # emptied when the last visitor has gone
