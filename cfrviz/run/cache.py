"""One copy of each solved run per server process, within a memory and CPU budget.

A hosted app serves strangers from one process. Runs are read-only (`Run` freezes its arrays),
so every session can share one copy instead of unpickling its own. `RunCache` keeps the most
recently used runs up to a byte budget and an entry count, solves each key once even when
several sessions ask for it at the same moment, and lets only a few solves run at once: the
machine has a core or two, and each solve in flight holds a run's worth of memory too. Pinned
runs (the views a first visit gets, solved at server start) stay for good: they are outside the
byte and entry budget, counted apart (`CacheStats.pinned`, `pinned_bytes`), and never evicted.
Pure Python: the app holds one instance per process (`cfrviz.app`).

>>> cache = RunCache(max_bytes=10**9, max_entries=4, max_concurrent_solves=1)
>>> import cfrviz
>>> run = cache.get(("kuhn", "cfr", 10), lambda: cfrviz.solve("kuhn", "cfr", iterations=10))
>>> cache.get(("kuhn", "cfr", 10), lambda: None) is run     # shared, not solved again
True
>>> cache.stats().entries, cache.stats().solves
(1, 1)
"""
from __future__ import annotations

import contextlib
import threading
import weakref
from collections.abc import Callable, Hashable, Iterator
from dataclasses import dataclass

from cachetools import LRUCache

from cfrviz.run.record import Run
from cfrviz.util.single_flight import SingleFlight

__all__ = ["CacheStats", "RunCache"]


@dataclass(frozen=True)
class CacheStats:
    """entries and bytes held now within the budget; solves run, hits served and solves that waited
    for a solver slot since the cache was made; pinned runs and their bytes, outside the budget."""

    entries: int
    bytes: int
    solves: int
    hits: int
    waits: int = 0
    pinned: int = 0
    pinned_bytes: int = 0


class RunCache:
    """Least-recently-used runs within `max_bytes` (snapshot arrays) and `max_entries`.

    The newest run is always kept, even alone over the budget: the session that asked for it is
    about to draw it. `max_concurrent_solves` solves run at once; later ones queue. Runs asked for
    with `pin=True` are kept apart from the budget and never evicted.
    """

    def __init__(self, max_bytes: int, max_entries: int, max_concurrent_solves: int) -> None:
        if max_bytes < 0 or max_entries < 1 or max_concurrent_solves < 1:
            raise ValueError("A run cache needs a byte budget >= 0, at least one entry and one solver slot.")
        self.max_bytes = int(max_bytes)
        self.max_entries = int(max_entries)
        # At most `max_entries` runs (cachetools keeps them in least-recently-used order) of at most
        # `max_bytes` snapshot bytes (`Run.nbytes`); `_insert` makes room, and the newest run always stays.
        self._runs: LRUCache[Hashable, Run] = LRUCache(maxsize=self.max_entries)
        self._bytes = 0
        self._pinned: dict[Hashable, Run] = {}
        # Runs that left the budget but that some session still holds (a page's variables keep
        # its run until that session's next rerun): handed out again rather than solved twice.
        self._alive: weakref.WeakValueDictionary[Hashable, Run] = weakref.WeakValueDictionary()
        self._lock = threading.Lock()
        self._flights: SingleFlight[Run] = SingleFlight("solve", self._lock)
        self._solver_slots = threading.BoundedSemaphore(max_concurrent_solves)
        self._solves = 0
        self._hits = 0
        self._waits = 0

    @contextlib.contextmanager
    def solver_slot(self, on_wait: Callable[[], None] | None = None) -> Iterator[None]:
        """Hold one of the solver slots for the block: every solve in the process takes one, cached
        (`get`) or not (Compare's timed solves). When all are taken, `on_wait()` is called (to tell
        the visitor) before waiting for one."""
        if not self._solver_slots.acquire(blocking=False):
            with self._lock:
                self._waits += 1
            if on_wait is not None:
                on_wait()
            self._solver_slots.acquire()
        try:
            yield
        finally:
            self._solver_slots.release()

    def get(self, key: Hashable, solve: Callable[[], Run], on_wait: Callable[[], None] | None = None, *,
            pin: bool = False) -> Run:
        """The run cached under `key`, or `solve()`'s run, solved once however many sessions ask.

        `solve` runs in a solver slot (`solver_slot(on_wait)`). An error from `solve` reaches every
        session that waited for it and is not cached. `pin=True` keeps the run for good, outside
        the budget (a run already cached moves there).
        """
        def solved() -> Run:
            with self.solver_slot(on_wait):
                run = solve()
            if not isinstance(run, Run):
                raise TypeError(f"The solve for {key!r} returned {type(run).__name__}, not a Run.")
            return run

        run, computed = self._flights.get(key, lambda: self._find(key), solved,
                                          lambda run: self._keep(key, run))
        with self._lock:
            if not computed:
                self._hits += 1
            if pin and key not in self._pinned:
                if self._runs.pop(key, None) is not None:
                    self._bytes -= run.nbytes
                self._pinned[key] = run
        return run

    def holds(self, key: Hashable) -> bool:
        """Whether a run for `key` is at hand without a solve (cached, pinned or still held by a
        session), leaving the order of the least recently used as it is."""
        with self._lock:
            return key in self._pinned or key in self._runs or self._alive.get(key) is not None

    def _find(self, key: Hashable) -> Run | None:
        """The run kept under `key` (under the lock), now the most recently used; a run some session
        still holds goes back into the budget."""
        run = self._pinned.get(key)
        if run is None:
            run = self._runs.get(key)
        if run is None:
            run = self._alive.get(key)
            if run is not None:
                self._insert(key, run)
        return run

    def _keep(self, key: Hashable, run: Run) -> None:
        with self._lock:
            self._solves += 1
            self._insert(key, run)

    def _insert(self, key: Hashable, run: Run) -> None:
        """Add a run not yet in the budget (under the lock), first dropping the least recently used
        runs it needs the room of: the newest run is always kept, even alone over the byte budget."""
        if key in self._pinned:
            return
        while self._runs and (len(self._runs) >= self.max_entries or self._bytes + run.nbytes > self.max_bytes):
            _, evicted = self._runs.popitem()
            self._bytes -= evicted.nbytes
        self._runs[key] = run
        self._bytes += run.nbytes
        self._alive[key] = run

    def stats(self) -> CacheStats:
        with self._lock:
            return CacheStats(len(self._runs), self._bytes, self._solves, self._hits, self._waits,
                              len(self._pinned), sum(run.nbytes for run in self._pinned.values()))

    def clear_unpinned(self) -> None:
        """Forget every cached run but the pinned ones (when the last visitor has gone)."""
        with self._lock:
            self._runs.clear()
            self._bytes = 0

    def clear(self) -> None:
        """Forget every cached run, pinned ones too (solves in flight finish and are kept)."""
        with self._lock:
            self._runs.clear()
            self._pinned.clear()
            self._alive.clear()
            self._bytes = 0
