"""Single flight: a value many threads ask for at once is computed once, by the first to ask.

The shared caches of a server process (`cfrviz.run.cache.RunCache` for runs, the pages' results in
`cfrviz.app.page_results`) keep what was computed; this is the part they share: the first thread
to ask for a key that its cache lacks computes it, later ones wait for that thread and get the same
object. An error reaches every waiter as a sentence of its own (a ValueError is the user's
sentence; any other error says which shared value failed) and is not kept. When the computing
thread was stopped rather than failing (a `BaseException` that is no `Exception`: Streamlit stops a
script that way when its visitor reruns it), a waiter tries again, maybe computing it itself.

>>> import threading
>>> lock = threading.Lock()
>>> kept: dict[str, int] = {}
>>> flights = SingleFlight("square", lock)
>>> flights.get("3", lambda: kept.get("3"), lambda: 9, lambda value: kept.update({"3": value}))
(9, True)
>>> flights.get("3", lambda: kept.get("3"), lambda: 0, lambda value: None)
(9, False)
"""
from __future__ import annotations

import threading
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

__all__ = ["SingleFlight"]

V = TypeVar("V")


class _Flight(Generic[V]):
    """A computation in progress that other threads wait for instead of starting their own."""

    def __init__(self) -> None:
        self.done = threading.Event()
        self.value: V | None = None
        self.error: BaseException | None = None


class SingleFlight(Generic[V]):
    """The flights in progress of one cache, under that cache's own lock (so a look into the cache
    and the start of a flight are one step: no second thread starts the same computation)."""

    def __init__(self, what: str, lock: threading.Lock) -> None:
        self.what = what
        self._lock = lock
        self._flights: dict[Hashable, _Flight[V]] = {}

    def get(self, key: Hashable, find: Callable[[], V | None], compute: Callable[[], V],
            keep: Callable[[V], None]) -> tuple[V, bool]:
        """(the value under `key`, whether this thread computed it).

        `find()` looks in the cache and runs under the lock (None: not there). Otherwise the first
        thread runs `compute()` outside the lock, then `keep(value)` (which takes the lock itself)
        before any waiter is released, so a thread that comes later finds the value kept."""
        while True:
            with self._lock:
                found = find()
                if found is not None:
                    return found, False
                flight = self._flights.get(key)
                owner = flight is None
                if flight is None:
                    flight = self._flights[key] = _Flight()
            if owner:
                return self._compute(key, flight, compute, keep), True
            flight.done.wait()
            if isinstance(flight.error, ValueError):     # a sentence for the user; a fresh one per thread
                raise ValueError(str(flight.error))
            if isinstance(flight.error, Exception):
                raise RuntimeError(f"The shared {self.what} for {key!r} failed: {flight.error!r}")
            if flight.error is None:
                assert flight.value is not None
                return flight.value, False
            # The computing thread was stopped (not an error of the work): try again, maybe as the owner.

    def _compute(self, key: Hashable, flight: _Flight[V], compute: Callable[[], V],
                 keep: Callable[[V], None]) -> V:
        try:
            value = compute()
            keep(value)
            flight.value = value
            return value
        except BaseException as error:
            flight.error = error
            raise
        finally:
            with self._lock:
                self._flights.pop(key, None)
            flight.done.set()
