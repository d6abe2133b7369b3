"""One visitor's message that cannot be sent must not stop every visitor's messages.

Streamlit's runtime sends every session's messages from one loop, and serializes each as it goes.
When serializing fails, the exception leaves that loop, and no session gets another message while
`/_stcore/health` still answers "ok": a server that looks alive and answers no one. This happened
with 30 visitors at once (`python scripts/load_class.py --visitors 30`): protobuf's
`EncodeError: Failed to serialize proto` when memory ran out under the deployed server's
address-space cap.

`guard_outbound_messages()` wraps the serializer Streamlit's websocket client calls. A message that
cannot be serialized becomes, for an element, an error box with one sentence in its place (the
visitor reads why, and can reload); any other message (or a box that cannot be serialized either)
ends that one visitor's connection, which the runtime then lets go. Every other session goes on.
It rebinds a private name of Streamlit's Starlette client, so `cfrviz.app.serve` calls it before
the server starts; tests/unit/app/test_outbound_guard.py checks it against the pinned Streamlit.
"""
from __future__ import annotations

import logging
from collections.abc import Callable

from streamlit.proto.Alert_pb2 import Alert
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.runtime.session_manager import SessionClientDisconnectedError

from cfrviz.app.rebinding import rebind

__all__ = ["NOT_SENT", "guard_outbound_messages", "guarded_serializer"]

#: What a visitor reads in place of an element the server could not send.
NOT_SENT = ("The server could not send this part of the page (most likely short of memory with many "
            "visitors at once); reload the page in a minute.")

_LOGGER = logging.getLogger(__name__)

Serializer = Callable[[ForwardMsg], bytes]


def guarded_serializer(serialize: Serializer) -> Serializer:
    """`serialize` that never lets a failure through: an element it cannot serialize is replaced by
    an error box saying `NOT_SENT`; anything else ends the visitor's connection instead."""

    def guarded(msg: ForwardMsg) -> bytes:
        try:
            return serialize(msg)
        except SessionClientDisconnectedError:
            raise
        except Exception as failure:            # noqa: BLE001 - whatever it was, it is this visitor's alone
            kind = msg.WhichOneof("type")
            _LOGGER.warning("cfrviz: a %s message could not be sent (%s: %s); the visitor %s", kind,
                            type(failure).__name__, str(failure)[:200],
                            "reads one sentence instead" if _is_element(msg) else "is disconnected")
            if not _is_element(msg):
                raise SessionClientDisconnectedError from failure
            try:
                return serialize(_error_box(msg))
            except Exception as again:          # noqa: BLE001 - no memory even for one sentence
                raise SessionClientDisconnectedError from again

    return guarded


def guard_outbound_messages() -> bool:
    """Guard the serializer of Streamlit's websocket client; False (and one log line) when this
    Streamlit has no such name, in which case a failed message still stops the runtime's loop."""
    return rebind("streamlit.web.server.starlette.starlette_websocket", "serialize_forward_msg", guarded_serializer,
                  "one message that cannot be serialized stops every visitor's messages.")


def _is_element(msg: ForwardMsg) -> bool:
    return msg.WhichOneof("type") == "delta" and msg.delta.WhichOneof("type") == "new_element"


def _error_box(msg: ForwardMsg) -> ForwardMsg:
    """An error box with `NOT_SENT` where the element of `msg` was to go."""
    box = ForwardMsg()
    box.metadata.CopyFrom(msg.metadata)
    box.metadata.cacheable = False
    box.delta.new_element.alert.body = NOT_SENT
    box.delta.new_element.alert.format = Alert.ERROR
    return box
