"""Refuse an oversized websocket frame from a browser before reading it, in the deployed server.

Streamlit's `server.maxMessageSize` (.streamlit/config.toml, in MB) bounds `/_stcore/stream` both
ways: a larger message to a browser is replaced by an error, and a larger frame from a browser is
refused by the websocket layer (uvicorn's `ws_max_size`) as soon as its header announces it,
before its payload is read. The two directions need very different bounds: the app sends up to
37 MB to a browser (oshi_zumo's Evolution heat map) but receives at most a few hundred bytes
(widget states; uploads go over HTTP), measured by `python scripts/ws_message_sizes.py`. With one
cap for both, every connection could make the server read (and hold) a frame of the outbound cap
before refusing it.

`limit_inbound_frames()` gives the websocket layer its own cap, `INBOUND_FRAME_BYTES`, and leaves
the outbound check at `server.maxMessageSize`. It rebinds the name that Streamlit's Starlette
server reads when it builds uvicorn's settings, so it must run before the server starts
(`cfrviz.app.serve` calls it); that name is private, and tests/security/test_websocket_cap.py
checks the effect against the pinned Streamlit. When the name is missing the server keeps
`server.maxMessageSize` for both directions and the log says so.
"""
from __future__ import annotations

from cfrviz.app.rebinding import rebind

#: Largest websocket frame a browser may send (bytes): over 3,000 times the largest one measured.
INBOUND_FRAME_BYTES = 1_000_000


def limit_inbound_frames(limit: int = INBOUND_FRAME_BYTES) -> bool:
    """Make the websocket layer refuse frames from browsers over `limit` bytes; False (and one log
    line) when this Streamlit has no such hook, in which case `server.maxMessageSize` still applies."""

    def inbound_frame_bytes() -> int:
        return limit

    # What Streamlit's Starlette server calls for uvicorn's `ws_max_size` (its own module-level name:
    # the outbound check in `streamlit.runtime.runtime_util` keeps the original).
    return rebind("streamlit.web.server.starlette.starlette_server", "get_max_message_size_bytes",
                  lambda _outbound_cap: inbound_frame_bytes,
                  "server.maxMessageSize bounds frames from browsers instead.")
