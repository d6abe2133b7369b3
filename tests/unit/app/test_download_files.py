"""A clicked (deferred) download survives other sessions' sweeps until its own session moves on.

Reference: Streamlit 1.67's media file manager deletes an unnamed downloadable file on the second
`remove_orphaned_files()` after it was built (mark, then delete); every script run that ends, in
any session, calls it. `scripts/load_class.py` saw `media/<id>.bin` answer 404 with ten visitors.
"""
from __future__ import annotations

from unittest import mock

from streamlit.runtime.media_file_manager import MediaFileManager
from streamlit.runtime.memory_media_file_storage import MemoryMediaFileStorage

from cfrviz.app.download_files import keep_clicked_downloads

_SESSION = "visitor-a"


def _manager_with_a_clicked_download(wrap: bool) -> tuple[MediaFileManager, str]:
    manager = MediaFileManager(MemoryMediaFileStorage("/media"))
    if wrap:
        assert keep_clicked_downloads(manager)
    with mock.patch("streamlit.runtime.media_file_manager._get_session_id", return_value=_SESSION):
        placeholder = manager.add_deferred(lambda: b"run bytes", "application/octet-stream", "1.2.3", "run.npz")
    url = manager.execute_deferred(placeholder)
    file_id = url.rsplit("/", 1)[-1].split(".")[0]
    return manager, file_id


def _sweeps_by_other_sessions(manager: MediaFileManager, count: int) -> None:
    for _ in range(count):
        manager.remove_orphaned_files()


def test_a_clicked_download_outlives_other_sessions_reruns() -> None:
    manager, file_id = _manager_with_a_clicked_download(wrap=True)
    _sweeps_by_other_sessions(manager, 5)
    served = manager.read_file(file_id)
    assert served is not None and served.content == b"run bytes"


def test_without_the_wrap_the_second_sweep_deletes_it() -> None:
    # The failure the wrap fixes, on the pinned Streamlit: if this starts passing with the file
    # kept, Streamlit fixed it itself and the wrap can go.
    manager, file_id = _manager_with_a_clicked_download(wrap=False)
    _sweeps_by_other_sessions(manager, 2)
    assert manager.read_file(file_id) is None


def test_the_file_goes_once_its_session_moves_on() -> None:
    manager, file_id = _manager_with_a_clicked_download(wrap=True)
    manager.clear_session_refs(_SESSION)      # the session's next full run starts, or it ends
    _sweeps_by_other_sessions(manager, 2)
    assert manager.read_file(file_id) is None


def test_wrapping_twice_wraps_once() -> None:
    manager = MediaFileManager(MemoryMediaFileStorage("/media"))
    assert keep_clicked_downloads(manager)
    first = manager.execute_deferred
    assert keep_clicked_downloads(manager)
    assert manager.execute_deferred is first
