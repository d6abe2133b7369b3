"""Run a coroutine to its end from a test, whatever the test's thread already runs.

Playwright's sync API (the browser tests' session fixtures) keeps an asyncio loop running on the
test thread for the whole session, and `asyncio.run` refuses to start inside a running loop. So a
coroutine runs on a loop of its own in a thread of its own, and the test waits for it.
"""
from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

T = TypeVar("T")


def run_apart(make: Callable[[], Coroutine[Any, Any, T]], timeout: float = 600.0) -> T:
    """`asyncio.run(make())` on a thread of its own; its result, or its exception raised here."""
    done: dict[str, Any] = {}

    def run() -> None:
        try:
            done["result"] = asyncio.run(make())
        except BaseException as failure:          # noqa: BLE001 - handed to the test's thread
            done["error"] = failure

    thread = threading.Thread(target=run, name="test-coroutine", daemon=True)
    thread.start()
    thread.join(timeout)
    if thread.is_alive():
        raise TimeoutError(f"The coroutine did not end within {timeout:g} s.")
    if "error" in done:
        raise done["error"]
    return done["result"]  # type: ignore[no-any-return]
