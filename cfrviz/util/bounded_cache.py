"""A least-recently-used cache within a count and a number of bytes: cachetools' `LRUCache` bounds
the bytes (`getsizeof`), this adds the count.

>>> cache = BoundedCache(max_entries=2, max_bytes=100, getsizeof=len)
>>> cache["a"], cache["b"], cache["c"] = "x" * 10, "y" * 10, "z" * 10
>>> sorted(cache), cache.currsize          # the count: the oldest went
(['b', 'c'], 20)
>>> cache["d"] = "w" * 95                  # the bytes: both went
>>> sorted(cache), cache.currsize
(['d'], 95)

Not thread-safe (as cachetools' caches are not): a cache shared by sessions is used under a lock.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from cachetools import LRUCache

K = TypeVar("K")
V = TypeVar("V")


class BoundedCache(LRUCache[K, V]):
    """At most `max_entries` values and `max_bytes` by `getsizeof`, least recently used out first.
    A value over `max_bytes` is refused with ValueError, as by `LRUCache`."""

    def __init__(self, max_entries: int, max_bytes: int, getsizeof: Callable[[V], int]) -> None:
        super().__init__(maxsize=max_bytes, getsizeof=getsizeof)
        self.max_entries = max_entries

    def __setitem__(self, key: K, value: V) -> None:
        super().__setitem__(key, value)
        while len(self) > self.max_entries:
            self.popitem()
