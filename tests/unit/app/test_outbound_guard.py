"""A message that cannot be serialized stops only its own visitor (cfrviz.app.outbound_guard).

Reference: the 30-visitor class (scripts/load_class.py, 2026-11-27 15:53 UTC) where protobuf raised
`EncodeError: Failed to serialize proto` inside Streamlit's websocket client under the 3 GB cap; the
exception left the runtime's one send loop and no visitor got another message. Here the failure is
made by a serializer that raises that same error for one message, and Streamlit's own Starlette
client (the pinned version's class) is driven with it.
"""
from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest
from google.protobuf.message import EncodeError
from streamlit.proto.Alert_pb2 import Alert
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.runtime.session_manager import SessionClientDisconnectedError
from streamlit.web.server.starlette import starlette_websocket

from tests.support.coroutines import run_apart
from cfrviz.app.outbound_guard import NOT_SENT, guard_outbound_messages, guarded_serializer


def element(text: str) -> ForwardMsg:
    msg = ForwardMsg()
    msg.metadata.delta_path[:] = [0, 3]
    msg.delta.new_element.markdown.body = text
    return msg


def failing_on(text: str) -> Any:
    """The real serializer, failing as protobuf did on the message whose markdown is `text`."""
    real = starlette_websocket.serialize_forward_msg

    def serialize(msg: ForwardMsg) -> bytes:
        if msg.delta.new_element.markdown.body == text:
            raise EncodeError("Failed to serialize proto")
        return real(msg)  # type: ignore[no-any-return]

    return serialize


class Socket:
    """What Streamlit's client needs of a Starlette websocket: a place to send bytes and headers."""

    def __init__(self) -> None:
        self.sent: list[bytes] = []
        self.headers: dict[str, str] = {}
        self.cookies: dict[str, str] = {}
        self.query_params: dict[str, str] = {}
        self.client = None
        self.url = None

    async def send_bytes(self, payload: bytes) -> None:
        self.sent.append(payload)


@pytest.fixture
def serializer() -> Iterator[None]:
    original = starlette_websocket.serialize_forward_msg
    yield
    starlette_websocket.serialize_forward_msg = original  # type: ignore[attr-defined]


def written(serialize: Any, messages: list[ForwardMsg]) -> list[ForwardMsg]:
    """The messages Streamlit's own client puts on the wire for `messages`, with `serialize` in place."""
    starlette_websocket.serialize_forward_msg = serialize  # type: ignore[attr-defined]

    async def drive() -> list[bytes]:
        socket = Socket()
        client = starlette_websocket.StarletteSessionClient(socket)  # type: ignore[arg-type]
        for msg in messages:
            client.write_forward_msg(msg)
        while not client._send_queue.empty():      # the client's own sender drains its queue
            await asyncio.sleep(0)
        await client.aclose()
        return socket.sent

    return [ForwardMsg.FromString(payload) for payload in run_apart(drive)]


def test_without_the_guard_the_failure_leaves_the_client(serializer: None) -> None:
    # What the runtime's send loop received: the exception itself (it catches only a disconnect).
    with pytest.raises(EncodeError):
        written(failing_on("big"), [element("before"), element("big")])


def test_an_element_that_cannot_be_sent_is_one_sentence_in_its_place(serializer: None) -> None:
    sent = written(guarded_serializer(failing_on("big")), [element("before"), element("big"), element("after")])
    assert [m.delta.new_element.WhichOneof("type") for m in sent] == ["markdown", "alert", "markdown"]
    box = sent[1]
    assert box.delta.new_element.alert.body == NOT_SENT and box.delta.new_element.alert.format == Alert.ERROR
    assert list(box.metadata.delta_path) == [0, 3]          # where the element was to go
    assert sent[2].delta.new_element.markdown.body == "after"   # the visitor's later messages go on


def test_any_other_message_that_cannot_be_sent_ends_only_that_connection() -> None:
    def broken(msg: ForwardMsg) -> bytes:
        raise EncodeError("Failed to serialize proto")

    finished = ForwardMsg()
    finished.script_finished = ForwardMsg.FINISHED_SUCCESSFULLY
    with pytest.raises(SessionClientDisconnectedError):    # the runtime disconnects this session only
        guarded_serializer(broken)(finished)
    with pytest.raises(SessionClientDisconnectedError):    # not even the sentence could be serialized
        guarded_serializer(broken)(element("big"))


def test_the_deployed_server_guards_the_pinned_streamlits_client(serializer: None) -> None:
    # The serializer the client calls fails on "big" (as protobuf did) when the server installs its guard.
    starlette_websocket.serialize_forward_msg = failing_on("big")  # type: ignore[attr-defined]
    assert guard_outbound_messages()
    guarded = starlette_websocket.serialize_forward_msg
    assert guard_outbound_messages() and starlette_websocket.serialize_forward_msg is guarded   # wraps once
    sent = written(guarded, [element("big"), element("fine")])
    assert [m.delta.new_element.WhichOneof("type") for m in sent] == ["alert", "markdown"]
    assert sent[0].delta.new_element.alert.body == NOT_SENT
