"""A clicked (deferred) download survives other sessions' sweeps and its own session's reruns for a
grace period, then goes; clicked files held at once are bounded in bytes.

Reference: Streamlit 1.67's media file manager deletes a downloadable file no session names on the
second `remove_orphaned_files()` after it was built (mark, then delete); every script run that ends,
in any session, calls it, and a session's next full run drops its own names (`clear_session_refs`).
`scripts/load_class.py` saw `media/<id>.bin` answer 404 with ten visitors.
"""
from __future__ import annotations

import inspect
from unittest import mock

import pytest
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.runtime.forward_msg_queue import ForwardMsgQueue
from streamlit.runtime.media_file_manager import MediaFileManager
from streamlit.runtime.media_file_storage import MediaFileStorageError
from streamlit.runtime.memory_media_file_storage import MemoryMediaFileStorage

from cfrviz.app import download_files
from cfrviz.app.download_files import GRACE_S, expire_clicked_downloads, keep_clicked_downloads

_SESSION = "visitor-a"


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def _click_download(manager: MediaFileManager, data: bytes = b"run bytes", coordinates: str = "1.2.3") -> str:
    with mock.patch("streamlit.runtime.media_file_manager._get_session_id", return_value=_SESSION):
        placeholder = manager.add_deferred(lambda: data, "application/octet-stream", coordinates, "run.npz")
    url = manager.execute_deferred(placeholder)
    return url.rsplit("/", 1)[-1].split(".")[0]


def _sweeps(manager: MediaFileManager, count: int = 2) -> None:
    for _ in range(count):
        manager.remove_orphaned_files()     # what every other session's finished rerun does


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def manager(clock: Clock) -> MediaFileManager:
    made = MediaFileManager(MemoryMediaFileStorage("/media"))
    assert keep_clicked_downloads(made, clock)
    return made


def test_a_clicked_download_outlives_reruns_until_its_grace_ends(manager: MediaFileManager, clock: Clock) -> None:
    file_id = _click_download(manager)
    manager.clear_session_refs(_SESSION)      # its own session reran (a timeline step reported back)
    _sweeps(manager, 5)
    served = manager.read_file(file_id)
    assert served is not None and served.content == b"run bytes"
    clock.now += GRACE_S + 1
    expire_clicked_downloads(manager, clock)
    _sweeps(manager)
    assert manager.read_file(file_id) is None


def test_without_the_wrap_the_second_sweep_deletes_it() -> None:
    # The failure the wrap fixes, on the pinned Streamlit: if this starts keeping the file,
    # Streamlit fixed it itself and the wrap can go.
    bare = MediaFileManager(MemoryMediaFileStorage("/media"))
    file_id = _click_download(bare)
    _sweeps(bare)
    assert bare.read_file(file_id) is None


def test_clicked_files_held_at_once_are_bounded_in_bytes(manager: MediaFileManager,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    # Room for two 10-byte files: the third click lets the oldest go.
    monkeypatch.setattr(download_files, "MAX_HELD_BYTES", 20)
    first, second, third = (_click_download(manager, bytes([n]) * 10, f"1.{n}") for n in range(3))
    _sweeps(manager)
    assert manager.read_file(first) is None
    assert manager.read_file(second) is not None and manager.read_file(third) is not None


def test_wrapping_twice_wraps_once(manager: MediaFileManager) -> None:
    first = manager.execute_deferred
    assert keep_clicked_downloads(manager)
    assert manager.execute_deferred is first


def test_the_idle_release_sweeps_what_no_rerun_would(manager: MediaFileManager) -> None:
    # Once the last visitor has gone no script run ends, so Streamlit would never sweep again.
    file_id = _click_download(manager)
    download_files.empty_media_files(manager)
    assert manager.read_file(file_id) is None


def test_the_run_download_is_the_saved_file_and_survives_one_memory_error() -> None:
    # Reference: `cfrviz.run.save_run` / `load_run` round trip (the file read back is the run, array for
    # array); a save that finds no memory once is tried again, twice in a row is the error itself.
    import io

    import numpy as np

    import cfrviz
    from cfrviz.app.download_files import run_file_bytes
    from cfrviz.run import load_run, save_run

    run = cfrviz.solve("kuhn", "cfr+", iterations=40)
    failures = [MemoryError()]

    def save_after_one_failure(kept: object, file: object) -> None:
        if failures:
            raise failures.pop()
        save_run(kept, file)  # type: ignore[arg-type]

    for data in (run_file_bytes(run), run_file_bytes(run, save_after_one_failure)):
        again = load_run(io.BytesIO(data))
        assert np.array_equal(again.average_strategy, run.average_strategy)
        assert again.settings == run.settings

    def never(kept: object, file: object) -> None:
        raise MemoryError()

    with pytest.raises(MemoryError):
        run_file_bytes(run, never)


def _button(manager: MediaFileManager, data: bytes, coordinates: str = "1.2.4") -> str:
    """One script run drawing a deferred download button: its placeholder id."""
    with mock.patch("streamlit.runtime.media_file_manager._get_session_id", return_value=_SESSION):
        return manager.add_deferred(lambda: data, "text/html", coordinates, "view.html")


def test_a_click_on_the_button_a_rerun_replaced_still_downloads_within_the_grace(manager: MediaFileManager,
                                                                                 clock: Clock) -> None:
    # Reference: Streamlit 1.67 registers a button's callable under a new id on every run and the next
    # sweep drops the old id, which the browser may still show (the rerun's new button not yet drawn).
    old = _button(manager, b"page at t=40")
    _button(manager, b"page at t=41")          # the page reran (its timeline reported a step)
    _sweeps(manager)
    url = manager.execute_deferred(old)         # the click made on the button as it was
    served = manager.read_file(url.rsplit("/", 1)[-1].split(".")[0])
    assert served is not None and served.content == b"page at t=40"
    clock.now += GRACE_S + 1
    _sweeps(manager)
    with pytest.raises(MediaFileStorageError):
        manager.execute_deferred(old)


def test_replaced_callables_kept_at_once_are_bounded(manager: MediaFileManager, clock: Clock,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    # Room for two replaced callables: the third replaced lets the oldest go.
    monkeypatch.setattr(download_files, "MAX_REPLACED", 2)
    ids = [_button(manager, bytes([n]), "1.9") for n in range(4)]   # four runs: three ids replaced
    _sweeps(manager)
    with pytest.raises(MediaFileStorageError):
        manager.execute_deferred(ids[0])
    assert manager.execute_deferred(ids[1]) and manager.execute_deferred(ids[2])


def test_without_the_wrap_a_click_on_a_replaced_button_finds_nothing() -> None:
    # The failure the wrap fixes, on the pinned Streamlit: if this starts passing the click through,
    # Streamlit fixed it itself and that part of the wrap can go.
    bare = MediaFileManager(MemoryMediaFileStorage("/media"))
    old = _button(bare, b"page at t=40")
    _button(bare, b"page at t=41")
    _sweeps(bare)
    with pytest.raises(MediaFileStorageError):
        bare.execute_deferred(old)


def _queued_for_a_new_run() -> ForwardMsgQueue:
    """A session's queue as a rerun finds it just after a click: the click's answer (the built file's
    address) and an element of the run before, not yet sent."""
    queue = ForwardMsgQueue()
    answer = ForwardMsg()
    answer.backend_operation_response.request_id = "click-1"
    answer.backend_operation_response.deferred_file.url = "/media/abc.html"
    element = ForwardMsg()
    element.metadata.delta_path[:] = [0, 1]
    element.delta.new_element.markdown.body = "the run before"
    queue.enqueue(answer)
    queue.enqueue(element)
    return queue


def test_a_new_run_keeps_a_clicks_answer_in_the_queue() -> None:
    # Reference: Streamlit's own clear, which keeps only lifecycle messages (and toasts) when a new
    # run starts, and so dropped the answer: the button then spun for three minutes.
    queue = _queued_for_a_new_run()
    inspect.unwrap(ForwardMsgQueue.clear)(queue, retain_lifecycle_msgs=True)
    assert len(queue) == 0
    keep_clicked_downloads(MediaFileManager(MemoryMediaFileStorage("/media")))
    queue = _queued_for_a_new_run()
    queue.clear(retain_lifecycle_msgs=True)
    assert [msg.backend_operation_response.deferred_file.url for msg in queue.flush()] == ["/media/abc.html"]
    queue = _queued_for_a_new_run()
    queue.clear()                           # a session's end: nothing is kept
    assert len(queue) == 0
