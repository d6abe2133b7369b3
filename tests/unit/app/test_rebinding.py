"""`cfrviz.app.rebinding.rebind`: a module-level name bound to a wrapper of it, once.

Reference: hand-made modules registered under a name of their own, whose bindings are read back
after each call; the wrapper is known by what it returns (the original's result, marked).
"""
from __future__ import annotations

import logging
import sys
import types
from collections.abc import Callable
from typing import Any

import pytest

from cfrviz.app.rebinding import rebind

MODULE = "tests.unit.app.hand_made_runtime"
LOST = "the server goes without the change."


def original() -> str:
    return "original"


@pytest.fixture
def module(monkeypatch: pytest.MonkeyPatch) -> types.ModuleType:
    made = types.ModuleType(MODULE)
    made.run = original                                    # type: ignore[attr-defined]
    made.limit = 3                                         # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, MODULE, made)
    return made


def marking(mark: str, seen: list[Callable[..., Any]]) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """A wrap that records what it was given and marks its wrapper's results with `mark`."""

    def wrap(wrapped: Callable[..., Any]) -> Callable[..., Any]:
        seen.append(wrapped)
        return lambda: f"{mark}({wrapped()})"

    return wrap


def test_the_wrapper_is_made_of_the_original_and_bound_in_its_place(module: types.ModuleType) -> None:
    seen: list[Callable[..., Any]] = []
    assert rebind(MODULE, "run", marking("a", seen), LOST)
    assert seen == [original]
    assert module.run() == "a(original)"


def test_a_missing_name_is_left_alone_with_one_log_line(module: types.ModuleType,
                                                        caplog: pytest.LogCaptureFixture) -> None:
    seen: list[Callable[..., Any]] = []
    with caplog.at_level(logging.WARNING, logger="cfrviz.app.rebinding"):
        assert not rebind(MODULE, "gone", marking("a", seen), LOST)
    assert seen == [] and not hasattr(module, "gone")
    assert [record.getMessage() for record in caplog.records] == [f"cfrviz: this Streamlit has no {MODULE}.gone; {LOST}"]


def test_a_missing_module_is_one_log_line(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="cfrviz.app.rebinding"):
        assert not rebind(MODULE + "_not_there", "run", marking("a", []), LOST)
    assert len(caplog.records) == 1 and caplog.records[0].getMessage().endswith(LOST)


def test_a_name_that_is_not_callable_is_left_alone(module: types.ModuleType, caplog: pytest.LogCaptureFixture) -> None:
    seen: list[Callable[..., Any]] = []
    with caplog.at_level(logging.WARNING, logger="cfrviz.app.rebinding"):
        assert not rebind(MODULE, "limit", marking("a", seen), LOST)
    assert seen == [] and module.limit == 3
    assert len(caplog.records) == 1


def test_a_second_call_wraps_nothing_twice(module: types.ModuleType) -> None:
    seen: list[Callable[..., Any]] = []
    wrap = marking("a", seen)
    assert rebind(MODULE, "run", wrap, LOST)
    wrapper = module.run
    assert rebind(MODULE, "run", wrap, LOST)
    assert module.run is wrapper and seen == [original]
    assert module.run() == "a(original)"                  # not a(a(original))


def test_another_wrap_replaces_the_first_over_the_original(module: types.ModuleType) -> None:
    seen: list[Callable[..., Any]] = []
    assert rebind(MODULE, "run", marking("a", seen), LOST)
    assert rebind(MODULE, "run", marking("b", seen), LOST)
    assert seen == [original, original]
    assert module.run() == "b(original)"                  # not b(a(original))


def test_a_name_bound_anew_by_someone_else_is_wrapped_anew(module: types.ModuleType) -> None:
    # e.g. a test that put its own function in place after the server's call
    seen: list[Callable[..., Any]] = []
    wrap = marking("a", seen)
    assert rebind(MODULE, "run", wrap, LOST)

    def replacement() -> str:
        return "replacement"

    module.run = replacement                               # type: ignore[attr-defined]
    assert rebind(MODULE, "run", wrap, LOST)
    assert seen == [original, replacement]
    assert module.run() == "a(replacement)"


class HandMadeQueue:
    def clear(self) -> str:
        return "cleared"


def test_a_dotted_name_rebinds_a_class_attribute_that_every_instance_calls(module: types.ModuleType) -> None:
    module.Queue = HandMadeQueue                           # type: ignore[attr-defined]
    made_before = HandMadeQueue()
    original_clear = HandMadeQueue.clear

    def wrap(clear: Callable[..., Any]) -> Callable[..., Any]:
        return lambda queue: f"kept({clear(queue)})"

    try:
        assert rebind(MODULE, "Queue.clear", wrap, LOST)
        assert made_before.clear() == "kept(cleared)" and HandMadeQueue().clear() == "kept(cleared)"
        assert not rebind(MODULE, "Queue.gone", wrap, LOST) and not rebind(MODULE, "Gone.clear", wrap, LOST)
    finally:
        HandMadeQueue.clear = original_clear               # type: ignore[method-assign]
