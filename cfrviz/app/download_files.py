"""Keep a clicked download's file until its visitor's browser has had time to fetch it.

The run and strategy downloads are deferred (`st.download_button(data=callable)`): the bytes are
built only when the visitor clicks. Streamlit 1.67 stores the file built on that click without
naming any session, and every script run that ends, in any session, sweeps the files no session
names: the first sweep marks a download, the second deletes it. With a class on the server, other
visitors' reruns end many times a second, so the file could be gone before the browser asked for it
(`media/<id>.bin` answered 404; `scripts/load_class.py` saw one download in three fail with ten
visitors). Naming it under the visitor's own session is not enough either: that session's next
rerun (a timeline step reported back) drops its names too.

A click can also come too late for the button it was made on: every rerun of the visitor's page
registers the button's callable afresh under a new id, and the next sweep anywhere drops the old
id while the browser may still show it (a Play or Regret matching page reruns when its timeline
reports a step), so the click found "Deferred file ... not found" and nothing downloaded. The
wrapped sweep keeps each replaced callable `GRACE_S` seconds more (at most `MAX_REPLACED` of them),
and a click on such an id runs it as Streamlit would have.

`keep_clicked_downloads()` wraps the media file manager's `execute_deferred` so the built file is
named under a holder of cfrviz's own for `GRACE_S` seconds, then let go (and swept as usual) by the
next click or the session reaper's next pass (`expire_clicked_downloads`). At most
`MAX_HELD_BYTES` of clicked files are held: a click over that lets the oldest go first. It reads
Streamlit's private media file manager (checked against the pinned Streamlit by
tests/unit/app/test_download_files.py); when that is not there, the log says so once and
downloads behave as Streamlit makes them.

A click's answer can be lost on its way, too: the browser asks for the file with a message and
waits for the answer message that names the file's address, spinner on and button disabled, up to
three minutes. Streamlit queues that answer with the session's other messages, and a rerun that
starts before the queue is sent (the click's own, or a timeline's report) empties the queue but for
its lifecycle messages, so the answer went with it (CI saw Play's "Interactive page (.html)" stay
disabled for a minute). `keep_clicked_downloads()` also keeps backend operations' answers through
that emptying (`keep_answers`); and the app's download buttons do not rerun on a click
(`on_click="ignore"`), as nothing on a page depends on one.

`run_file_bytes(run)` builds the run download's `.npz` through a temporary file: the bytes are
allocated once, at the file's size, not grown in an in-memory buffer and copied out of it, and a
build that finds no memory free (a class's solves and pages filling the server) is tried once more
after a garbage collection before the click fails.
"""
from __future__ import annotations

import collections
import functools
import gc
import logging
import tempfile
import threading
import time
from collections.abc import Callable
from typing import IO, Any

from cfrviz.app.rebinding import rebind
from cfrviz.run import Run, save_run
from cfrviz.util import idle

#: Seconds a clicked download's file stays after it was built: the browser asks for it as soon as
#: the click's answer arrives, a few seconds at most on a busy 2-core host.
GRACE_S = 30.0
#: Most bytes of clicked files held at once (a Leduc run at the app's cap is a 23 MB .npz).
MAX_HELD_BYTES = 200_000_000
#: Most replaced deferred callables kept at once (each a small closure over what its button builds from).
MAX_REPLACED = 256
# The "session" under which clicked files are named: Streamlit never clears it by itself.
HOLDER = "cfrviz-clicked-downloads"
#: The ForwardMsg type of an answer to a browser's backend operation (a deferred download's click).
ANSWER = "backend_operation_response"

_LOGGER = logging.getLogger(__name__)
_lock = threading.Lock()
_wrapped: set[int] = set()
# Per wrapped manager: (built at, file id, bytes), oldest first.
_held: dict[int, collections.deque[tuple[float, str, int]]] = {}
# Per wrapped manager: deferred id -> (when a sweep first found no session naming it, Streamlit's entry).
_replaced: dict[int, collections.OrderedDict[str, tuple[float, Any]]] = {}


def run_file_bytes(run: Run, save: Callable[[Run, IO[bytes]], None] = save_run) -> bytes:
    """`run` as the bytes of its `.npz` file (`save(run, file)`, `cfrviz.run.save_run`), written to a
    temporary file and read back in one allocation of its size; a MemoryError is tried once more."""
    try:
        return _file_bytes(run, save)
    except MemoryError:
        gc.collect()        # what the failed attempt allocated, and other visitors' garbage
    return _file_bytes(run, save)


def _file_bytes(run: Run, save: Callable[[Run, IO[bytes]], None]) -> bytes:
    with tempfile.TemporaryFile(prefix="cfrviz-download-") as file:
        save(run, file)
        file.seek(0)
        return file.read()


def keep_clicked_downloads(manager: Any = None, clock: Callable[[], float] = time.monotonic) -> bool:
    """Wrap `manager` (default: the running server's media file manager) once; False when there
    is no server (AppTest, a script) or this Streamlit's manager is not the one known here. Every
    session's message queue keeps backend operations' answers through a rerun from then on."""
    rebind("streamlit.runtime.forward_msg_queue", "ForwardMsgQueue.clear", keep_answers,
           "a rerun that starts just after a download's click may lose the click's answer, and the "
           "button then spins for three minutes.")
    if manager is None:
        manager = _server_manager()
        if manager is None:
            return False
    with _lock:
        if id(manager) in _wrapped:
            return True
        original = getattr(manager, "execute_deferred", None)
        sweep = getattr(manager, "_remove_orphaned_deferred_callables", None)
        if not _known(manager) or not callable(original) or not callable(sweep):
            _LOGGER.warning("cfrviz: this Streamlit's media file manager is unknown, so a clicked download may "
                            "be swept before the browser fetches it on a busy server.")
            return False
        replaced: collections.OrderedDict[str, tuple[float, Any]] = collections.OrderedDict()

        @functools.wraps(original)
        def execute_deferred(file_id: str) -> str:
            with manager._lock:
                kept = replaced.get(file_id)
                if file_id not in manager._deferred_callables and kept is not None \
                        and clock() - kept[0] <= GRACE_S:
                    manager._deferred_callables[file_id] = kept[1]   # a click on the button's last id
            url: str = original(file_id)
            _hold(manager, url, clock)
            return url

        @functools.wraps(sweep)
        def remove_orphaned_deferred_callables() -> None:
            # Under the manager's lock (Streamlit's remove_orphaned_files holds it): note what the
            # sweep is about to drop, then let go of what has been kept long enough.
            named = {f for names in manager._files_by_session_and_coord.values() for f in names.values()}
            now = clock()
            for file_id, entry in manager._deferred_callables.items():
                if file_id not in named and file_id not in replaced:
                    replaced[file_id] = (now, entry)
            _forget_replaced(replaced, now)
            sweep()

        manager.execute_deferred = execute_deferred
        manager._remove_orphaned_deferred_callables = remove_orphaned_deferred_callables
        _wrapped.add(id(manager))
        _held[id(manager)] = collections.deque()
        _replaced[id(manager)] = replaced
        return True


def keep_answers(clear: Callable[..., None]) -> Callable[..., None]:
    """`ForwardMsgQueue.clear` that keeps, when it keeps lifecycle messages (a new run starting),
    the answers to backend operations (a download's file address) as well, after those."""

    @functools.wraps(clear)
    def clear_keeping_answers(queue: Any, retain_lifecycle_msgs: bool = False, *args: Any, **kwargs: Any) -> None:
        answers = [msg for msg in queue._queue if msg.WhichOneof("type") == ANSWER] if retain_lifecycle_msgs else []
        clear(queue, retain_lifecycle_msgs, *args, **kwargs)
        kept = {id(msg) for msg in queue._queue}
        queue._queue.extend(msg for msg in answers if id(msg) not in kept)

    return clear_keeping_answers


def expire_clicked_downloads(manager: Any = None, clock: Callable[[], float] = time.monotonic) -> None:
    """Let go of clicked files older than `GRACE_S` (the session reaper calls this on each pass)."""
    if manager is None:
        manager = _server_manager()
    if manager is None or id(manager) not in _wrapped:
        return
    with manager._lock:
        _let_go(manager, clock(), 0)
        _forget_replaced(_replaced[id(manager)], clock())


def empty_media_files(manager: Any = None) -> None:
    """Let go of every clicked file and sweep the files no session names, twice (Streamlit marks
    a download on one sweep and deletes it on the next). Streamlit sweeps only when a script run
    ends, so once the last visitor has gone nothing would: the idle release calls this."""
    if manager is None:
        manager = _server_manager()
    if manager is None or id(manager) not in _wrapped:
        return
    with manager._lock:
        _let_go(manager, float("inf"), 0)
        _replaced[id(manager)].clear()
    for _ in range(2):
        manager.remove_orphaned_files()


idle.on_idle("clicked downloads", empty_media_files)


def _server_manager() -> Any:
    from streamlit import runtime

    return runtime.get_instance().media_file_mgr if runtime.exists() else None


def _known(manager: Any) -> bool:
    return all(hasattr(manager, name) for name in ("_lock", "_files_by_session_and_coord", "_file_metadata",
                                                   "_storage", "_deferred_callables"))


def _forget_replaced(replaced: collections.OrderedDict[str, tuple[float, Any]], now: float) -> None:
    """Let go of replaced callables past their grace, then the oldest beyond `MAX_REPLACED`."""
    while replaced and (now - next(iter(replaced.values()))[0] > GRACE_S or len(replaced) > MAX_REPLACED):
        replaced.popitem(last=False)


def _hold(manager: Any, url: str, clock: Callable[[], float]) -> None:
    """Name the file behind `url` under the holder, after letting go of what is too old or too much."""
    with manager._lock:
        built = next((f for f in manager._file_metadata if f in url), None)
        if built is None:
            return
        size = _size(manager, built)
        _let_go(manager, clock(), size)
        manager._files_by_session_and_coord[HOLDER][built] = built
        _held[id(manager)].append((clock(), built, size))


def _let_go(manager: Any, now: float, room: int) -> None:
    """Under the manager's lock: unname files past their grace, then the oldest until `room` bytes fit."""
    held = _held[id(manager)]
    names = manager._files_by_session_and_coord.get(HOLDER, {})
    while held and (now - held[0][0] > GRACE_S or sum(entry[2] for entry in held) + room > MAX_HELD_BYTES):
        _, file_id, _ = held.popleft()
        names.pop(file_id, None)


def _size(manager: Any, file_id: str) -> int:
    try:
        return len(manager._storage.get_file(file_id).content)
    except Exception:
        return 0
