"""A websocket frame over the cap is refused before the server reads it, and the app keeps working.

Reference: the websocket protocol puts a frame's length in its header (RFC 6455, section 5.2), so a
server with a cap can close the connection (1009, "message too big") before the payload arrives;
one that reads first holds the whole frame in memory for a moment (the issue: twelve concurrent
190 MB frames cost 1.83 GB under Streamlit's default 200 MB cap). The caps:

- `streamlit run app.py` (Community Cloud): `server.maxMessageSize = 50` (MB) in .streamlit/config.toml;
  an 80 MB frame is over it (and under Streamlit's default of 200).
- The deployed server (`scripts/deploy.sh serve`): frames from browsers are capped at 1 MB
  (`cfrviz.app.websocket_limits`); a 40 MB frame is over it, under the outbound 50 MB, and over
  Streamlit's 25 MB widget-state check, which refuses only after reading.

The server's peak resident memory (VmHWM, reset through /proc/PID/clear_refs just before the
frame) may rise by at most a quarter of the frame: reading it would cost at least the whole frame.
"""
from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from cfrviz.app.websocket_limits import INBOUND_FRAME_BYTES
from tests.support.browser import RENDER_TIMEOUT_MS, open_app, wait_for_drawn
from tests.support.server import REPO_ROOT, deployed_server, healthy, streamlit_server

MB = 1_000_000
# `streamlit run` loads (or compiles) the kernels at its first visit: longer than a render.
FIRST_RUN_MS = 6 * RENDER_TIMEOUT_MS
LEDUC = {"game": "leduc", "algo": "cfr+", "iters": "2000", "updates": "alternating"}
pytestmark = pytest.mark.browser


def _status_kb(pid: int, field: str) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    raise KeyError(field)


def _wait_for_log(port: int, line: str, timeout: float = 120.0) -> None:
    """Wait until the server's log (tests.support.server's default path) holds `line`."""
    log = Path(os.environ.get("CFRVIZ_SERVER_LOG", REPO_ROOT / "test-results" / f"server-{port}.log"))
    deadline = time.monotonic() + timeout
    while line not in (log.read_text(errors="replace") if log.exists() else ""):
        assert time.monotonic() < deadline, f"no {line!r} in {log} within {timeout:.0f} s"
        time.sleep(0.2)   # polling period


def _deployed() -> AbstractContextManager[tuple[str, Any]]:
    return deployed_server()


def _streamlit_run() -> AbstractContextManager[tuple[str, Any]]:
    return streamlit_server()


@pytest.fixture
def served(request: pytest.FixtureRequest) -> Iterator[tuple[str, Any]]:
    start: Callable[[], AbstractContextManager[tuple[str, Any]]] = request.param
    with start() as (url, process):
        if start is _deployed:
            # After the kernels it solves the default views and imports the pages' modules: tens of
            # MB that would be counted against the frame (CI once saw +12 MB). Measure once all are in.
            _wait_for_log(int(url.rsplit(":", 1)[1]), "cfrviz: page modules loaded")
        yield url, process


@pytest.mark.parametrize(("served", "frame_mb"), [(_deployed, 40), (_streamlit_run, 80)],
                         ids=["deploy.sh serve, 40 MB", "streamlit run, 80 MB"], indirect=["served"])
def test_a_frame_over_the_cap_is_refused_unread(served: tuple[str, Any], frame_mb: int, new_context: Any) -> None:
    url, process = served
    frame = os.urandom(frame_mb * MB)   # random: nothing for a compressor to shrink
    with connect(url.replace("http://", "ws://") + "/_stcore/stream", subprotocols=["streamlit"],
                 compression=None, max_size=None, open_timeout=20, close_timeout=5) as socket:
        Path(f"/proc/{process.pid}/clear_refs").write_text("5")   # peak RSS := current RSS
        before_kb = _status_kb(process.pid, "VmRSS")
        try:
            socket.send(frame)
            # A server that read the frame and kept the connection would answer or time out here.
            answer = socket.recv(timeout=30)
            raise AssertionError(f"the server answered a frame over the cap ({len(answer)} bytes) instead of closing")
        except (ConnectionClosed, BrokenPipeError, ConnectionResetError):
            pass
        peak_kb = _status_kb(process.pid, "VmHWM")
        # Closed by the server: 1009 (message too big) when its close frame arrived before the
        # reset of the unread payload, 1006 (no close frame) when the reset came first.
        assert socket.protocol.close_code in (1009, 1006), socket.protocol.close_code
    grew_mb = (peak_kb - before_kb) * 1024 / MB
    assert grew_mb < frame_mb / 4, f"the server's peak memory rose {grew_mb:.0f} MB for a {frame_mb} MB frame"

    # The server is still there, and a visitor's page draws, with a message to the browser larger
    # than the inbound cap (Leduc's Evolution figure: 1.3 MB): the outbound bound is not the inbound one.
    assert process.poll() is None and healthy(url)
    page = new_context().new_page()
    largest = [0]
    page.on("websocket", lambda ws: ws.on("framereceived", lambda payload: largest.__setitem__(
        0, max(largest[0], len(payload)))))
    open_app(page, url + "/Evolution?" + urlencode(LEDUC), text="Evolution", timeout_ms=FIRST_RUN_MS)
    wait_for_drawn(page, timeout_ms=FIRST_RUN_MS)
    assert page.locator('[data-testid="stException"]').count() == 0
    assert largest[0] > INBOUND_FRAME_BYTES, largest[0]
