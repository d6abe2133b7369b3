"""The pages' shared results stay within their entry and byte budgets, keep pinned results, and
compute a key once however many sessions ask at the same moment.

Reference: `cfrviz.app.page_results.SharedResults`'s contract; sizes by hand: an array of n float64
holds 8n bytes of data, so `footprint` of it is at least that and at most that plus one array header.
"""
from __future__ import annotations

import threading
from collections.abc import Callable

import numpy as np

from cfrviz.app import page_results
from cfrviz.app.page_results import SharedResults, footprint
from tests.support.script_stop import Stopped

ITEM = footprint(np.zeros(1000))


def test_footprint_counts_the_arrays_data() -> None:
    assert 8000 <= ITEM <= 8000 + footprint(np.zeros(0))
    assert footprint((np.zeros(1000), np.ones(1000))) >= 16_000
    shared = np.zeros(1000)
    assert footprint((shared, shared)) < 16_000      # one object counted once


def test_the_cache_stays_within_its_bytes() -> None:
    cache: SharedResults[np.ndarray] = SharedResults("test", max_bytes=3 * ITEM, max_entries=100)
    for key in range(3):
        cache.get(key, lambda: np.zeros(1000))
    cache.get(0, lambda: np.ones(1000))             # a hit: 0 is now the most recently used
    for key in (3, 4):                              # push out the least recently used: 1, then 2
        cache.get(key, lambda: np.zeros(1000))
        assert cache.stats().bytes <= 3 * ITEM
    assert cache.stats().entries == 3 and cache.stats().computes == 5
    assert not np.any(cache.get(0, lambda: np.ones(1000)))   # kept: a hit
    assert np.all(cache.get(1, lambda: np.ones(1000)))       # evicted: computed again
    assert cache.stats().computes == 6 and cache.stats().bytes <= 3 * ITEM


def test_the_cache_stays_within_its_entries() -> None:
    cache: SharedResults[np.ndarray] = SharedResults("test", max_bytes=10**9, max_entries=2)
    for key in range(5):
        cache.get(key, lambda: np.zeros(10))
    assert cache.stats().entries == 2


def test_a_result_over_the_budget_is_handed_out_not_kept() -> None:
    cache: SharedResults[np.ndarray] = SharedResults("test", max_bytes=ITEM // 2, max_entries=4)
    assert cache.get("big", lambda: np.zeros(1000)).shape == (1000,)
    assert cache.stats().entries == 0 and cache.stats().bytes == 0


def test_pinned_results_stay_outside_the_budget() -> None:
    cache: SharedResults[np.ndarray] = SharedResults("test", max_bytes=ITEM, max_entries=1)
    pinned = cache.get("first view", lambda: np.zeros(1000), pin=True)
    for key in range(4):
        cache.get(key, lambda: np.zeros(1000))
    assert cache.get("first view", lambda: np.ones(1000)) is pinned
    stats = cache.stats()
    assert (stats.pinned, stats.entries, stats.computes) == (1, 1, 5) and stats.pinned_bytes == ITEM


def test_the_apps_caches_are_bounded_in_bytes() -> None:
    for cache, limit in ((page_results.compare_lines, page_results.COMPARE_BYTES),
                         (page_results.regret_paths, page_results.PATH_BYTES),
                         (page_results.walk_traces, page_results.TRACE_BYTES)):
        assert 0 < limit <= 100_000_000 and cache._lru.maxsize == limit and cache._lru.max_entries <= 64


def two_sessions(cache: SharedResults[np.ndarray], owners_work: Callable[[], np.ndarray],
                 ) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """A first session asks for key "k" and computes it (`owners_work`, once let go); while it is under way
    a second session asks for "k" (its own work would be np.arange(5)), and the first is let go only once
    the second waits for it. (What the first got, what the second got), empty for a session whose script stopped."""
    started, release, waiting = threading.Event(), threading.Event(), threading.Event()
    owners: list[np.ndarray] = []
    others: list[np.ndarray] = []

    def work() -> np.ndarray:
        started.set()
        release.wait(timeout=60)
        return owners_work()

    class NotedWait(threading.Event):
        def wait(self, timeout: float | None = None) -> bool:
            waiting.set()
            return super().wait(timeout)

    def owner_session() -> None:
        try:
            owners.append(cache.get("k", work))
        except Stopped:
            pass

    owner = threading.Thread(target=owner_session)
    owner.start()
    assert started.wait(timeout=60)
    cache._flights._flights["k"].done = NotedWait()   # the owner sets this one when it is done
    other = threading.Thread(target=lambda: others.append(cache.get("k", lambda: np.arange(5))))
    other.start()
    assert waiting.wait(timeout=60)                 # the second session waits for the first's work
    release.set()
    owner.join(timeout=60)
    other.join(timeout=60)
    return owners, others


def test_sessions_asking_at_once_compute_once() -> None:
    cache: SharedResults[np.ndarray] = SharedResults("test", max_bytes=10**9, max_entries=4)
    owners, others = two_sessions(cache, lambda: np.arange(3))
    assert len(owners) == len(others) == 1 and owners[0] is others[0] and cache.stats().computes == 1


def test_a_waiting_session_takes_over_from_one_whose_script_stopped() -> None:
    cache: SharedResults[np.ndarray] = SharedResults("test", max_bytes=10**9, max_entries=4)

    def stopped_midway() -> np.ndarray:
        raise Stopped

    owners, others = two_sessions(cache, stopped_midway)
    assert owners == [] and len(others) == 1 and np.array_equal(others[0], np.arange(5))
    assert cache.stats().computes == 1
