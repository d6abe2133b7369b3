"""The session reaper's pass on Streamlit's own session store (the pinned Streamlit's
`MemorySessionStorage` and its time-to-live cache, with a reaper_clock of the test's own).

Reference: Streamlit keeps a disconnected session `server.disconnectedSessionTTL` seconds (20 in
.streamlit/config.toml) and then only drops it on a later write; the reaper shuts each expired one
down and counts the sessions that are left, which decides the idle release.
"""
from __future__ import annotations

import gc
import weakref
from dataclasses import dataclass, field
from typing import Any

import pytest
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.runtime.caching.ttl_cache import TTLCache
from streamlit.runtime.forward_msg_queue import ForwardMsgQueue
from streamlit.runtime.memory_session_storage import MemorySessionStorage
from streamlit.runtime.session_manager import ActiveSessionInfo, SessionInfo
from streamlit.runtime.state.common import WidgetMetadata
from streamlit.runtime.state.session_state import SessionState

from cfrviz.app import sessions

TTL_S = 20.0


@dataclass(eq=False)
class SessionStandIn:
    """What the reaper uses of an AppSession: its id, `shutdown()` and its state."""

    id: str
    session_state: dict[str, Any] = field(default_factory=lambda: {"run": "a visitor's run"})
    shut_down: bool = False

    def shutdown(self) -> None:
        self.shut_down = True


class CountingCache(TTLCache[str, SessionInfo]):
    """Streamlit's time-to-live cache, counting how often the reaper reads its entries."""

    reads = 0

    def items(self) -> Any:
        self.reads += 1
        return super().items()


class Manager:
    def __init__(self, reaper_clock: list[float]) -> None:
        self._session_storage = MemorySessionStorage(ttl_seconds=int(TTL_S))
        self.cache = CountingCache(maxsize=128, ttl=TTL_S, timer=lambda: reaper_clock[0])
        self._session_storage._cache = self.cache
        self.active: dict[str, ActiveSessionInfo] = {}

    def list_active_sessions(self) -> list[ActiveSessionInfo]:
        return list(self.active.values())


class Uploads:
    def __init__(self) -> None:
        self.cleared: list[str] = []

    def remove_session_files(self, session_id: str) -> None:
        self.cleared.append(session_id)


class Instance:
    def __init__(self, reaper_clock: list[float]) -> None:
        self._session_mgr = Manager(reaper_clock)
        self.uploaded_file_mgr = Uploads()


@pytest.fixture
def reaper_clock(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    monkeypatch.setattr(sessions, "_stored", {})
    monkeypatch.setattr(sessions, "reaped", 0)
    return [1000.0]


def connect(instance: Instance, session_id: str) -> SessionStandIn:
    session = SessionStandIn(session_id)
    instance._session_mgr.active[session_id] = ActiveSessionInfo(client=object(), session=session)  # type: ignore[arg-type]
    return session


def disconnect(instance: Instance, session: SessionStandIn) -> None:
    # What Streamlit does when a tab's websocket closes: out of the active map, into the store.
    del instance._session_mgr.active[session.id]
    instance._session_mgr._session_storage.save(SessionInfo(client=None, session=session))  # type: ignore[arg-type]


def test_a_pass_returns_the_sessions_left_reading_the_store_once(reaper_clock: list[float]) -> None:
    # Hand count: 3 tabs open, one closes (stored, within its window): 3 sessions left; 20 s later
    # the closed one is shut down: 2 left; the other two close and expire: 0.
    instance = Instance(reaper_clock)
    first, second, third = (connect(instance, name) for name in ("a", "b", "c"))
    assert sessions.reap_expired_sessions(instance) == 3
    disconnect(instance, first)
    reads = instance._session_mgr.cache.reads
    assert sessions.reap_expired_sessions(instance) == 3
    assert instance._session_mgr.cache.reads == reads + 1, "one pass reads the session store once"
    assert not first.shut_down
    reaper_clock[0] += TTL_S + 1
    assert sessions.reap_expired_sessions(instance) == 2
    assert first.shut_down and first.session_state == {} and sessions.reaped == 1
    disconnect(instance, second)
    disconnect(instance, third)
    assert sessions.reap_expired_sessions(instance) == 2      # both within their reconnect window
    reaper_clock[0] += TTL_S + 1
    assert sessions.reap_expired_sessions(instance) == 0
    assert second.shut_down and third.shut_down and sessions.reaped == 3


class PageRun:
    """Stands for the run a page script holds in its globals (weakly referable, so its end is seen)."""


class StreamlitSession:
    """A session with the pinned Streamlit's own state and browser queue, as an AppSession has them."""

    def __init__(self, session_id: str) -> None:
        self.id = session_id
        self.session_state = SessionState()
        self._browser_queue = ForwardMsgQueue()

    def shutdown(self) -> None:
        pass


def test_a_reaped_session_that_stays_referenced_keeps_no_page_globals(reaper_clock: list[float]) -> None:
    # Reference: seen in a class's server 60 s after the tabs closed, a Liar's dice run (172 MB) held
    # through AppSession -> SessionState -> WStates.widget_metadata -> a widget's callback (a function
    # of the page script) -> the script's globals, the session kept by Streamlit's message loop in a
    # local variable. SessionState.clear() keeps the widgets' metadata; the reaper drops it too, and
    # the messages queued for the browser that has gone.
    instance = Instance(reaper_clock)
    session = StreamlitSession("a")
    instance._session_mgr.active["a"] = ActiveSessionInfo(client=object(), session=session)  # type: ignore[arg-type]
    page_globals: dict[str, Any] = {"run": PageRun()}
    exec("def reset():\n    return run", page_globals)    # a page's on_change callback, as a page script defines it
    run = weakref.ref(page_globals["run"])
    session.session_state._new_widget_state.set_widget_metadata(WidgetMetadata(
        id="cfrviz_w_iterations", deserializer=lambda v: v, serializer=lambda v: v, value_type="int_value",
        callback=page_globals["reset"]))
    del page_globals
    figure = ForwardMsg()
    figure.delta.new_element.markdown.body = "a figure the browser never fetched"
    figure.metadata.delta_path[:] = [0, 0]
    session._browser_queue.enqueue(figure)
    disconnect(instance, session)   # type: ignore[arg-type]
    reaper_clock[0] += TTL_S + 1
    assert sessions.reap_expired_sessions(instance) == 0
    gc.collect()
    assert run() is None, "the page's run outlived its session's end"
    assert session._browser_queue.is_empty()


def test_an_unknown_session_store_is_none(reaper_clock: list[float]) -> None:
    assert sessions.reap_expired_sessions(object()) is None
