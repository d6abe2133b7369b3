"""Keep a clicked download's file until its visitor's browser has fetched it.

The run and strategy downloads are deferred (`st.download_button(data=callable)`): the bytes are
built only when the visitor clicks. Streamlit 1.67 stores the file built on that click without
naming the session it belongs to, and every script run that ends, in any session, sweeps the files
no session names: the first sweep marks a download, the second deletes it. With a class on the
server, other visitors' reruns end many times a second, so the file could be gone before the
browser asked for it (`media/<id>.bin` answered 404; `scripts/load_class.py` saw one download in
three fail with ten visitors).

`keep_clicked_downloads()` wraps the media file manager's `execute_deferred` so the built file is
named under the session that owns the button, as every other file is. It then lives until that
session's next full run starts, or the session ends, and is swept as usual after that. It reads
Streamlit's private media file manager (checked against the pinned Streamlit by
tests/unit/app/test_download_files.py); when that is not there, the log says so once and
downloads behave as Streamlit makes them.
"""
from __future__ import annotations

import functools
import logging
import threading
from typing import Any

_LOGGER = logging.getLogger(__name__)
_lock = threading.Lock()
_wrapped: set[int] = set()
# Where the built file is named within its session: beside the button's own coordinates, so a
# later click of the same button replaces the entry instead of adding one.
_SUFFIX = "#clicked"


def keep_clicked_downloads(manager: Any = None) -> bool:
    """Wrap `manager` (default: the running server's media file manager) once; False when there
    is no server (AppTest, a script) or this Streamlit's manager is not the one known here."""
    if manager is None:
        from streamlit import runtime

        if not runtime.exists():
            return False
        manager = runtime.get_instance().media_file_mgr
    with _lock:
        if id(manager) in _wrapped:
            return True
        original = getattr(manager, "execute_deferred", None)
        if not _known(manager) or not callable(original):
            _LOGGER.warning("cfrviz: this Streamlit's media file manager is unknown, so a clicked download may "
                            "be swept before the browser fetches it on a busy server.")
            return False

        @functools.wraps(original)
        def execute_deferred(file_id: str) -> str:
            url: str = original(file_id)
            _name_for_session(manager, file_id, url)
            return url

        manager.execute_deferred = execute_deferred
        _wrapped.add(id(manager))
        return True


def _known(manager: Any) -> bool:
    return all(hasattr(manager, name) for name in ("_lock", "_deferred_callables", "_files_by_session_and_coord",
                                                   "_file_metadata"))


def _name_for_session(manager: Any, file_id: str, url: str) -> None:
    """Name the file behind `url` (built for the deferred button `file_id`) under the button's session."""
    with manager._lock:
        deferred = manager._deferred_callables.get(file_id)
        if deferred is None:
            return
        built = next((f for f in manager._file_metadata if f in url), None)
        if built is None:
            return
        manager._files_by_session_and_coord[deferred["session_id"]][deferred["coordinates"] + _SUFFIX] = built
