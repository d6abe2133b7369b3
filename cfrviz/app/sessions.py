"""Let go of sessions whose tab has gone, once Streamlit's reconnect window has passed.

Streamlit keeps a disconnected session `server.disconnectedSessionTTL` seconds so that a tab whose
connection dropped can come back to it. Its store is a time-to-live cache that removes an
expired session only when another session is stored later (a write), and then only drops it: the
session is never shut down, so the files its visitor uploaded stay in the server's uploaded-file
store for as long as the process lives, and its state (an uploaded run: up to hundreds of MB)
until the garbage collector finds it. On a hosted demo shared by strangers that adds up.

`start_session_reaper()` runs a daemon thread that, every `REAP_INTERVAL_S` seconds, asks
Streamlit's event loop (the only thread that touches the session store) to remove the expired
sessions and shut each one down, as Streamlit does for a session it closes itself; and to clear
the uploaded files of any session that Streamlit dropped on a write in between. After a pass that
shut sessions down (and emptied their state) it collects their garbage, so an uploaded run leaves
memory and the uploads' budget (`cfrviz.app.state.LIVE_UPLOADS`) within a pass. This reads
Streamlit's private session store (tests/unit/app/test_session_reaper.py runs a pass on the pinned
Streamlit's store and time-to-live cache); when it is not there, the reaper says so once in the log
and stops.
"""
from __future__ import annotations

import gc
import logging
import sys
import threading
import weakref
from typing import Any

from cfrviz.app.download_files import expire_clicked_downloads
from cfrviz.util import idle

REAP_INTERVAL_S = 5.0

_LOGGER = logging.getLogger(__name__)
_lock = threading.Lock()
_thread: threading.Thread | None = None
_stop = threading.Event()
#: Sessions shut down by the reaper since the process started (for the log and tests).
reaped = 0
# Stored (disconnected) sessions seen by the last pass: id -> the session, weakly.
_stored: dict[str, weakref.ReferenceType[Any]] = {}


def start_session_reaper(interval: float = REAP_INTERVAL_S) -> None:
    """Start the reaper thread once per process (thread-safe; does nothing under AppTest, where
    there is no server)."""
    global _thread
    with _lock:
        if _thread is not None:
            return
        _thread = threading.Thread(target=_loop, args=(interval,), name="cfrviz-session-reaper", daemon=True)
        _thread.start()


def _loop(interval: float) -> None:
    from streamlit import runtime

    while not _stop.wait(interval):
        if not runtime.exists():
            continue
        instance = runtime.get_instance()
        try:
            loop = instance._get_async_objs().eventloop
        except (AttributeError, RuntimeError):
            continue    # the server has not started its event loop yet
        if loop.is_closed():
            return
        one_pass = _Pass(instance)
        before = reaped
        loop.call_soon_threadsafe(one_pass.run)
        if one_pass.done.wait(interval * 4) and one_pass.known is False:
            return
        if reaped != before:
            release_dropped_state()
        _after_pass(None if one_pass.sessions is None else one_pass.sessions == 0)
        expire_clicked_downloads()


#: Whether the caches were emptied since the last session was seen (once per quiet spell). True at
#: start-up: before a first visitor there is nothing to give back, and the start-up's own work (the
#: pinned first views and the catalog's trees they were solved on) is what idle is.
_released = True


def _after_pass(empty: bool | None) -> None:
    """Once the server has no session at all, connected or waiting for a reconnect, after having had
    one, give the caches' memory back (`cfrviz.util.idle`): a class that has left leaves nothing
    behind, and the next visitor pays one solve at most (the default views stay pinned)."""
    global _released
    if empty is None:
        return
    if not empty:
        _released = False
    elif not _released:
        _released = True
        emptied = idle.release()
        # In the server's log, as its start-up lines are (scripts/load_class.py reads them).
        print(f"cfrviz: no visitor left; {emptied} caches emptied and the heap trimmed", file=sys.stderr, flush=True)


def release_dropped_state() -> None:
    """After sessions were shut down: collect the garbage they left (a session's state sits in
    reference cycles with Streamlit's objects, which the collector may not visit for a long time,
    and an uploaded run in it is up to 200 MB), then return their uploads to the budget. Runs on
    the reaper's thread, not the event loop."""
    from cfrviz.app.state import LIVE_UPLOADS

    gc.collect()
    LIVE_UPLOADS.settle()


class _Pass:
    """One reaping pass, handed to the event loop; `done` is set when it has run."""

    def __init__(self, instance: Any) -> None:
        self.instance = instance
        self.done = threading.Event()
        self.known: bool | None = None
        self.sessions: int | None = None    # sessions left, connected or stored (None: unknown)

    def run(self) -> None:
        try:
            self.sessions = reap_expired_sessions(self.instance)
            self.known = self.sessions is not None
        finally:
            self.done.set()


def _let_go(session: Any) -> None:
    """Shut `session` down and empty its state. A shut-down session is never run again, but its
    object may live on: Streamlit's message loop keeps the last session it flushed in a local
    variable until another session sends something, and with it what the session still refers to.
    `SessionState.clear()` keeps the widgets' metadata, whose callbacks are functions of the last
    page script, and a function keeps its script's globals: the page's run (172 MB for Play on
    Liar's dice at its cap, seen held by the loop 60 s after a class left), view and figures. The
    messages still queued for a browser that has gone (figures, up to tens of MB) go too."""
    session.shutdown()
    state = getattr(session, "session_state", None)
    clear = getattr(state, "clear", None)
    if callable(clear):
        clear()
    metadata = getattr(getattr(state, "_new_widget_state", None), "widget_metadata", None)
    if isinstance(metadata, dict):
        metadata.clear()
    unsent = getattr(getattr(session, "_browser_queue", None), "clear", None)
    if callable(unsent):
        unsent()


def reap_expired_sessions(instance: Any) -> int | None:
    """One pass on the server's event loop: shut down every stored session whose reconnect window
    has passed, and clear the uploaded files of sessions Streamlit dropped without shutting them
    down. Returns how many sessions the server still has, connected or waiting out their reconnect
    window, as read in this pass; None (after one log line) when Streamlit's session store is not
    the one known here."""
    global reaped
    manager = getattr(instance, "_session_mgr", None)
    store: Any = getattr(getattr(manager, "_session_storage", None), "_cache", None)
    if manager is None or not callable(getattr(store, "expire", None)) or not callable(getattr(store, "items", None)):
        _LOGGER.warning("cfrviz: this Streamlit's session store is unknown, so disconnected sessions are left "
                        "to Streamlit (they keep their uploads until the process ends).")
        return None
    for session_id, info in store.expire():
        _stored.pop(session_id, None)       # let go of here, not again below
        session = getattr(info, "session", None)
        if session is not None:
            _let_go(session)
            reaped += 1
    active = {info.session.id for info in manager.list_active_sessions()}
    stored = dict(store.items())     # what is left is within its reconnect window
    for session_id, ref in list(_stored.items()):
        if session_id in stored or session_id in active:
            continue
        # Dropped by Streamlit on a write (expired, never shut down), or resumed and closed since.
        session = ref()
        if session is not None:
            _let_go(session)        # shutting down is a no-op for a session that was shut down already
            reaped += 1
        else:
            instance.uploaded_file_mgr.remove_session_files(session_id)
        del _stored[session_id]
    for session_id, info in stored.items():
        if session_id not in _stored:
            _stored[session_id] = weakref.ref(info.session)
    return len(active | stored.keys())
