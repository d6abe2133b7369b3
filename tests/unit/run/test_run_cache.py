"""The per-process run cache: one shared read-only copy per solve, within a byte and CPU budget.

References: the cache's contract (README, "Memory and CPU budget"): a key is solved once however
many sessions ask at once; least recently used runs leave first once the snapshot bytes or the
entry count go over the budget; at most `max_concurrent_solves` solves run at the same time;
an error is not cached. Run sizes come from `Run.nbytes` of real solves.
"""
from __future__ import annotations

import gc
import threading

import numpy as np
import pytest

import cfrviz
from cfrviz import catalog
from cfrviz.run import Run, RunSettings
from cfrviz.run.cache import RunCache
from tests.support.script_stop import Stopped

THREADS = 6


def _kuhn(iterations: int) -> Run:
    return cfrviz.solve("kuhn", "cfr", iterations=iterations)


def test_one_solve_however_many_sessions_ask_at_once() -> None:
    cache = RunCache(max_bytes=10**9, max_entries=4, max_concurrent_solves=2)
    calls: list[int] = []
    start = threading.Barrier(THREADS)
    results: list[Run] = []

    def solve() -> Run:
        calls.append(1)
        return _kuhn(50)

    def session() -> None:
        start.wait()
        results.append(cache.get(("kuhn", 50), solve))

    threads = [threading.Thread(target=session) for _ in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(calls) == 1 and len(results) == THREADS
    assert all(run is results[0] for run in results)
    stats = cache.stats()
    assert (stats.entries, stats.solves, stats.hits) == (1, 1, THREADS - 1)


def test_least_recently_used_runs_leave_when_bytes_run_over() -> None:
    runs = {n: _kuhn(n) for n in (10, 11, 12)}   # 10-12 snapshots: sizes differ a little
    budget = runs[10].nbytes + runs[11].nbytes + runs[12].nbytes - 1   # all three never fit
    cache = RunCache(max_bytes=budget, max_entries=10, max_concurrent_solves=1)
    cache.get(10, lambda: runs[10])
    cache.get(11, lambda: runs[11])
    cache.get(10, lambda: pytest.fail("10 is cached"))            # 10 is now the most recent
    cache.get(12, lambda: runs[12])                                  # over budget: 11 leaves
    assert cache.stats().entries == 2
    assert cache.stats().bytes == runs[10].nbytes + runs[12].nbytes <= budget
    assert cache.get(10, lambda: pytest.fail("10 is cached")) is runs[10]
    del runs[11]
    gc.collect()                                                     # nobody holds 11 any more
    again = _kuhn(11)
    assert cache.get(11, lambda: again) is again                     # solved again after eviction


def test_entry_count_bound_and_the_newest_run_always_stays() -> None:
    cache = RunCache(max_bytes=10**9, max_entries=2, max_concurrent_solves=1)
    for n in (10, 11, 12):
        cache.get(n, lambda n=n: _kuhn(n))
    assert cache.stats().entries == 2
    tiny = RunCache(max_bytes=0, max_entries=5, max_concurrent_solves=1)
    run = tiny.get("only", lambda: _kuhn(10))
    # Over a zero budget, yet kept: the session that asked is about to draw it.
    assert tiny.stats().entries == 1 and tiny.get("only", lambda: pytest.fail("cached")) is run


def test_errors_reach_the_caller_and_are_not_cached() -> None:
    cache = RunCache(max_bytes=10**9, max_entries=4, max_concurrent_solves=1)

    def bad() -> Run:
        raise ValueError("Iterations must be at least 1.")

    with pytest.raises(ValueError, match="at least 1"):
        cache.get("bad", bad)
    run = _kuhn(10)
    assert cache.get("bad", lambda: run) is run
    assert cache.stats().solves == 1


def test_at_most_the_allowed_solves_run_at_once() -> None:
    cache = RunCache(max_bytes=10**9, max_entries=THREADS, max_concurrent_solves=2)
    running = 0
    most = 0
    lock = threading.Lock()
    start = threading.Barrier(THREADS)

    def solve(n: int) -> Run:
        nonlocal running, most
        with lock:
            running += 1
            most = max(most, running)
        try:
            return _kuhn(200 + n)
        finally:
            with lock:
                running -= 1

    def session(n: int) -> None:
        start.wait()
        cache.get(n, lambda: solve(n))

    threads = [threading.Thread(target=session, args=(n,)) for n in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert cache.stats().solves == THREADS and most <= 2


def test_a_shared_run_cannot_be_written() -> None:
    # Sharing one copy between sessions is safe only because nobody can change it.
    run = RunCache(10**9, 2, 1).get("k", lambda: _kuhn(10))
    for name in ("cumulative_regret", "current_strategy", "average_strategy", "reach", "exploitability"):
        array = getattr(run, name)
        assert isinstance(array, np.ndarray) and not array.flags.writeable, name
        with pytest.raises(ValueError):
            array[0] = 0.0
    assert not run.tree.legal.flags.writeable


def test_the_app_hands_every_session_the_same_run() -> None:
    from cfrviz import app as ui

    first = ui.cached_solve(RunSettings(catalog.get("kuhn"), "cfr", 123, "simultaneous", 0))
    second = ui.cached_solve(RunSettings(catalog.get("kuhn"), "cfr", 123, "simultaneous", 0))
    assert first is second
    # The view's settings (one GameSpec, enum members) key the same entry as plain strings do.
    settings = ui.Choice(catalog.get("kuhn"), "cfr", 123, "simultaneous", 0).settings()
    assert ui.cached_solve(settings) is first
    assert first.settings == settings
    # Reference: the same solve outside the app.
    assert np.array_equal(first.exploitability, cfrviz.solve("kuhn", "cfr", iterations=123,
                                                             updates="simultaneous").exploitability)


def test_a_run_some_session_still_holds_is_handed_out_again() -> None:
    # Reference: a run evicted from the budget but still referenced (a page's variables) is the
    # same object when asked for again: no second solve, no second copy in memory.
    cache = RunCache(max_bytes=0, max_entries=1, max_concurrent_solves=1)
    held = cache.get("a", lambda: _kuhn(10))
    cache.get("b", lambda: _kuhn(11))                     # "a" leaves the budget
    assert cache.stats().entries == 1
    assert cache.get("a", lambda: pytest.fail("a is still alive")) is held
    assert cache.stats().solves == 2


def test_holds_says_whether_a_run_is_at_hand_and_changes_nothing() -> None:
    # Reference: the cache's three places (budget, pinned, still held by a session); asking is no hit
    # and does not make a run the most recently used (the order below is the one `get` made).
    cache = RunCache(max_bytes=10**9, max_entries=2, max_concurrent_solves=1)
    assert not cache.holds("a")
    cache.get("a", lambda: _kuhn(10))
    cache.get("b", lambda: _kuhn(11), pin=True)
    cache.get("c", lambda: _kuhn(12))
    assert cache.holds("a") and cache.holds("b") and cache.holds("c") and not cache.holds("d")
    assert cache.stats().hits == 0
    cache.get("d", lambda: _kuhn(13))                     # "a" is the least recently used: it leaves
    gc.collect()
    assert not cache.holds("a") and cache.holds("c") and cache.holds("d")


def test_pinned_runs_are_never_evicted_and_their_bytes_are_counted_apart() -> None:
    # Reference: the cache's contract for pinned runs (the first visit's views): outside the byte
    # and entry budget, never evicted, their bytes reported on their own and never counted twice.
    runs = {n: _kuhn(n) for n in (10, 11, 12, 13)}
    cache = RunCache(max_bytes=runs[13].nbytes, max_entries=1, max_concurrent_solves=1)
    assert cache.get(10, lambda: runs[10], pin=True) is runs[10]
    for n in (11, 12, 13):
        cache.get(n, lambda n=n: runs[n])                  # each one evicts the one before
    stats = cache.stats()
    assert (stats.entries, stats.bytes, stats.pinned, stats.pinned_bytes) == (1, runs[13].nbytes, 1, runs[10].nbytes)
    assert cache.get(10, lambda: pytest.fail("10 is pinned")) is runs[10]
    # A run already in the budget moves out of it when pinned: its bytes are counted once.
    assert cache.get(13, lambda: pytest.fail("13 is cached"), pin=True) is runs[13]
    stats = cache.stats()
    assert (stats.entries, stats.bytes, stats.pinned) == (0, 0, 2)
    assert stats.pinned_bytes == runs[10].nbytes + runs[13].nbytes
    assert cache.get(13, lambda: pytest.fail("13 is pinned"), pin=True) is runs[13]
    assert cache.stats().pinned_bytes == runs[10].nbytes + runs[13].nbytes
    assert cache.stats().solves == 4


def test_a_pinned_key_solved_by_several_sessions_at_once_is_solved_once() -> None:
    # Reference: the one-solve-per-key contract holds for a pinning caller too (server start-up
    # pins the default view while the first visitor asks for it).
    cache = RunCache(max_bytes=0, max_entries=1, max_concurrent_solves=2)
    release = threading.Event()
    calls: list[int] = []
    run = _kuhn(10)

    def solve() -> Run:
        calls.append(1)
        release.wait(60)
        return run

    results: list[Run] = []
    pinning = threading.Thread(target=lambda: results.append(cache.get("default", solve, pin=True)))
    pinning.start()
    visitor = threading.Thread(target=lambda: results.append(cache.get("default", solve)))
    visitor.start()
    release.set()
    pinning.join(60)
    visitor.join(60)
    cache.get("other", lambda: _kuhn(11))                   # over a zero budget: only the newest stays
    assert results == [run, run] and len(calls) == 1
    assert cache.stats().pinned == 1 and cache.get("default", lambda: pytest.fail("pinned")) is run


def test_clear_unpinned_keeps_the_pinned_runs() -> None:
    cache = RunCache(max_bytes=10**9, max_entries=4, max_concurrent_solves=1)
    pinned = cache.get("default", lambda: _kuhn(20), pin=True)
    cache.get("other", lambda: _kuhn(30))
    cache.clear_unpinned()
    stats = cache.stats()
    assert (stats.entries, stats.bytes, stats.pinned, stats.pinned_bytes) == (0, 0, 1, pinned.nbytes)
    assert cache.get("default", lambda: _kuhn(1)) is pinned



def test_a_waiting_session_solves_when_the_solving_sessions_script_was_stopped() -> None:
    # Reference: the single-flight contract the pages' results keep (`cfrviz.util.single_flight`):
    # a session whose script was stopped mid-solve (its visitor reran the page) leaves the solve to
    # a session that waited for it, which solves it itself instead of failing.
    cache = RunCache(max_bytes=10**9, max_entries=4, max_concurrent_solves=2)
    started, release, waiting = threading.Event(), threading.Event(), threading.Event()
    run = _kuhn(10)
    results: list[Run] = []

    class NotedWait(threading.Event):
        def wait(self, timeout: float | None = None) -> bool:
            waiting.set()
            return super().wait(timeout)

    def stopped_midway() -> Run:
        started.set()
        release.wait(60)
        raise Stopped

    def owner_session() -> None:
        with pytest.raises(Stopped):
            cache.get("k", stopped_midway)

    owner = threading.Thread(target=owner_session)
    owner.start()
    assert started.wait(60)
    cache._flights._flights["k"].done = NotedWait()      # the owner sets this one when it is done
    other = threading.Thread(target=lambda: results.append(cache.get("k", lambda: run)))
    other.start()
    assert waiting.wait(60)                             # the second session waits for the first's solve
    release.set()
    owner.join(60)
    other.join(60)
    assert results == [run] and cache.stats().solves == 1
