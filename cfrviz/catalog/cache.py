"""Built games and compiled trees, kept once per process: least recently used first out, within a
count and an estimate of their bytes. A game or tree that was refused is never kept, only its
sentence (under a digest of its settings), so asking again costs nothing.
"""
from __future__ import annotations

import hashlib
import threading
from collections.abc import Callable, Hashable
from typing import Any, Protocol

import numpy as np

from cfrviz.games.base import Game, TryAgainLater
from cfrviz.tree import GameTree, build_tree
from cfrviz.catalog.parameters import Params
from cfrviz.util import idle
from cfrviz.util.bounded_cache import BoundedCache


class _Entry(Protocol):
    @property
    def name(self) -> str: ...
    @property
    def title(self) -> str: ...
    @property
    def factory(self) -> Callable[..., Game]: ...


class Spec(Hashable, Protocol):
    """What the cache reads of a `cfrviz.catalog.GameSpec`, its key: written here as a shape, since
    `catalog/entries.py` (GameSpec.game(), .tree()) imports this module and not the other way."""

    @property
    def entry(self) -> _Entry: ...
    @property
    def params(self) -> Params: ...


#: Most games and trees kept, and their most estimated bytes (a tree's estimate includes its game's).
GAME_CACHE_ENTRIES, GAME_CACHE_BYTES = 32, 100_000_000
TREE_CACHE_ENTRIES, TREE_CACHE_BYTES = 16, 200_000_000
#: Most refusals remembered (a digest of the game's settings and one sentence each, 1,000 bytes on average).
REFUSAL_CACHE_ENTRIES = 256
_REFUSAL_BYTES = 1_000
#: Estimated bytes per history of a game given as an explicit tree (node tables, labels, histories;
#: measured 180 to 730 on .efg games), and of a compiled tree beyond its arrays (labels, set records).
_EXPLICIT_BYTES_PER_NODE = 1_000
_TREE_BYTES_PER_NODE = 200


def _counted(size: Callable[[Any], int], max_bytes: int) -> Callable[[Any], int]:
    """A cache's `getsizeof`: the estimate, counted at most `max_bytes`, so the newest value is always
    kept (alone when it is that big) and a refused game is the only kind never kept."""
    return lambda value: min(size(value), max_bytes)


_lock = threading.Lock()    # cachetools' caches are not thread-safe; every session of a server shares these


def tree_bytes(tree: GameTree) -> int:
    """Estimated bytes a compiled tree holds: its arrays, labels and set records, and its game."""
    arrays = sum(value.nbytes for value in vars(tree).values() if isinstance(value, np.ndarray))
    return arrays + tree.num_nodes * _TREE_BYTES_PER_NODE + _game_bytes(tree.game)


def _game_bytes(game: Game) -> int:
    nodes = getattr(game, "num_nodes", None)
    text = getattr(game, "text", None)
    return ((nodes if isinstance(nodes, int) else 0) * _EXPLICIT_BYTES_PER_NODE
            + (len(text) if isinstance(text, str) else 0) + 10_000)


# Least recently used out first, within the counts and bytes above. A game or tree that was
# refused is never kept, only its sentence (under a digest of its settings).
_GAMES: BoundedCache[Spec, Game] = BoundedCache(GAME_CACHE_ENTRIES, GAME_CACHE_BYTES,
                                                _counted(_game_bytes, GAME_CACHE_BYTES))
_TREES: BoundedCache[Spec, GameTree] = BoundedCache(TREE_CACHE_ENTRIES, TREE_CACHE_BYTES,
                                                    _counted(tree_bytes, TREE_CACHE_BYTES))
_REFUSALS: BoundedCache[bytes, str] = BoundedCache(REFUSAL_CACHE_ENTRIES, REFUSAL_CACHE_ENTRIES * _REFUSAL_BYTES,
                                                   _counted(len, REFUSAL_CACHE_ENTRIES * _REFUSAL_BYTES))


def _get(cache: BoundedCache[Any, Any], key: Any) -> Any:
    with _lock:
        return cache.get(key)


def _put(cache: BoundedCache[Any, Any], key: Any, value: Any) -> None:
    with _lock:
        cache[key] = value


def _refusal_key(game: Spec, what: str) -> bytes:
    """A short digest of the game's settings: a refused 1 MB .efg text is not kept, only this."""
    return hashlib.blake2b(repr((what, game.entry.name, game.params)).encode("utf-8"), digest_size=16).digest()


def _remembered(game: Spec, what: str, build: Callable[[], Any], cache: BoundedCache[Spec, Any],
                also: tuple[str, ...] = ()) -> Any:
    """The cached value, or build it and keep it; a refusal (ValueError, or memory running out) is
    kept as its sentence only, so repeating it costs nothing and nothing refused stays in memory.
    A refusal is also remembered for the stages named in `also` (a game whose tree is refused is
    refused as a game too, and dropped from the game cache)."""
    found = _get(cache, game)
    if found is not None:
        return found
    key = _refusal_key(game, what)
    refused = _get(_REFUSALS, key)
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
            _put(_REFUSALS, _refusal_key(game, stage), message)
        if also:
            with _lock:
                _GAMES.pop(game, None)
        if isinstance(error, ValueError):
            raise
        raise ValueError(message) from None
    _put(cache, game, value)
    return value


def cached_game(game: Spec) -> Game:
    built: Game = _remembered(game, "game", lambda: game.entry.factory(**dict(game.params)), _GAMES)
    return built


def cached_tree(game: Spec) -> GameTree:
    # build_tree sizes the dense arrays from the game before allocating them, so a refused tree is never built.
    tree: GameTree = _remembered(game, "tree", lambda: build_tree(cached_game(game)), _TREES, also=("game",))
    return tree


def clear_caches() -> None:
    """Forget every built game, tree and refusal (tests; a server under memory pressure)."""
    with _lock:
        for cache in (_GAMES, _TREES, _REFUSALS):
            cache.clear()


def _empty_built() -> None:
    """Forget the built games and trees, not the refusals (a sentence each): with the trees go the
    arrays the solvers, judging and drawing keep per tree (weakly keyed on it)."""
    with _lock:
        for cache in (_GAMES, _TREES):
            cache.clear()


idle.on_idle("games and trees", _empty_built)   # emptied when the last visitor has gone
