"""The timeline's payload cache: bounded in bytes and count, and never the holder of an uploaded run.

References: the cache's constants (PAYLOAD_CACHE_BYTES, at most 24 entries); an uploaded run that
its session drops must be garbage at once (a weak reference to it dies), and every payload built
for it leaves the cache when it goes. Before, the cache kept the Run of each upload (up to 24 of
them, 200 MB each) and the weak reference stayed alive.
"""
from __future__ import annotations

import gc
import weakref

import cfrviz
from cfrviz.app.components import timeline
from cfrviz.app.state import LIVE_UPLOADS


def test_an_uploaded_runs_payloads_go_with_the_run() -> None:
    run = cfrviz.solve("kuhn", "cfr+", iterations=300)
    gone = weakref.ref(run)
    token = LIVE_UPLOADS.token(run)
    first = timeline.payload_bytes(run.tree, run, None, uploaded=True)
    assert timeline.payload_bytes(run.tree, run, None, uploaded=True) == first      # served from the cache
    assert any(key[0] == ("upload", token) for key in timeline._cache)
    del run
    gc.collect()
    assert gone() is None, "something still holds the uploaded run"
    LIVE_UPLOADS.settle()
    assert not any(key[0] == ("upload", token) for key in timeline._cache)


def test_the_payload_cache_is_bounded_in_count_and_bytes() -> None:
    cache = timeline._cache
    cache.clear()
    for k in range(40):                       # small payloads: the count bound
        cache[("test", k)] = ("id", b"x" * 1_000)
    assert len(cache) == 24
    cache.clear()
    for k in range(6):                        # 20 MB payloads: the byte bound keeps two
        cache[("test", k)] = ("id", b"x" * 20_000_000)
    assert cache.currsize <= timeline.PAYLOAD_CACHE_BYTES and len(cache) == 2
    assert ("test", 5) in cache and ("test", 0) not in cache          # least recently used out first
    cache.clear()
