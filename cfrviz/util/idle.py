"""Give memory back when nobody is using the server.

Every shared cache of the process (runs, payloads, LP values, locked trees, OpenSpiel games) is
bounded in count and bytes while visitors come and go. Bounds alone keep a class's memory after it
leaves: the caches stay full until new visitors push entries out, and glibc keeps freed heap pages
of small objects mapped. So each cache registers how to empty itself (`on_idle`), and the app calls
`release()` once the last session has gone (`cfrviz.app.sessions`): the caches drop what they hold
(pinned default views stay), the garbage collector runs, and glibc hands free heap pages back to the
system (`malloc_trim`). tests/unit/app/test_idle_release.py checks both, on a registry of its own.
"""
from __future__ import annotations

import ctypes
import ctypes.util
import gc
import logging
import threading
from collections.abc import Callable

__all__ = ["after_release", "forget", "on_idle", "release"]

_LOGGER = logging.getLogger(__name__)
_lock = threading.Lock()
_emptiers: dict[str, Callable[[], object]] = {}
_observers: list[Callable[[], object]] = []


def on_idle(name: str, empty: Callable[[], object]) -> None:
    """Call `empty()` on every `release()` (one emptier per name; a second registration replaces it)."""
    with _lock:
        _emptiers[name] = empty


def after_release(observe: Callable[[], object]) -> None:
    """Call `observe()` at the end of every `release()`, once the heap is trimmed (a memory report)."""
    with _lock:
        _observers.append(observe)


def forget(name: str) -> None:
    """Stop calling the emptier registered under `name`."""
    with _lock:
        _emptiers.pop(name, None)


def release() -> int:
    """Empty every registered cache, collect garbage and trim the C heap; returns how many caches
    were emptied. Safe from any thread: each emptier takes its own cache's lock."""
    with _lock:
        emptiers = list(_emptiers.items())
    for name, empty in emptiers:
        try:
            empty()
        except Exception:     # one cache's failure must not keep the others' memory
            _LOGGER.exception("cfrviz: emptying the %s cache failed", name)
    gc.collect()
    _trim_heap()
    with _lock:
        observers = list(_observers)
    for observe in observers:
        try:
            observe()
        except Exception:
            _LOGGER.exception("cfrviz: a report after the idle release failed")
    return len(emptiers)


def _trim_heap() -> None:
    """glibc's `malloc_trim(0)`: return free pages of the heap to the system (a no-op elsewhere)."""
    name = ctypes.util.find_library("c")
    if name is None:
        return
    try:
        trim = ctypes.CDLL(name).malloc_trim
    except (OSError, AttributeError):
        return          # not glibc
    trim.argtypes = [ctypes.c_size_t]
    trim(0)
