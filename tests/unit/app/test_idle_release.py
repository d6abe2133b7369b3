"""When the last visitor has gone, the caches give their memory back, once per quiet spell.

Reference: the class-load requirement (memory back within 200 MB of idle 60 s after the tabs
close): bounded caches alone stay full until new visitors push entries out.
"""
from __future__ import annotations

import pytest

from cfrviz.app import sessions
from cfrviz.util import idle


@pytest.fixture
def emptied(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    # A registry of the test's own: the real caches of this test process stay as they are.
    calls: list[str] = []
    monkeypatch.setattr(sessions, "_released", False)
    monkeypatch.setattr(idle, "_emptiers", {})
    idle.on_idle("test cache", lambda: calls.append("emptied"))
    return calls


def test_release_calls_every_emptier_and_survives_a_failing_one(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(idle, "_emptiers", {})
    calls: list[str] = []

    def broken() -> None:
        raise RuntimeError("this cache is broken")

    idle.on_idle("broken", broken)
    idle.on_idle("working", lambda: calls.append("working"))
    assert idle.release() == 2 and calls == ["working"]
    idle.forget("working")
    assert idle.release() == 1 and calls == ["working"]


def test_the_caches_are_emptied_once_when_no_session_is_left(emptied: list[str]) -> None:
    sessions._after_pass(False)          # visitors on the server: nothing happens
    assert emptied == []
    sessions._after_pass(True)           # the last one left
    sessions._after_pass(True)           # still nobody: not again
    assert emptied == ["emptied"]
    sessions._after_pass(False)          # a new class arrives, then leaves
    sessions._after_pass(True)
    assert emptied == ["emptied", "emptied"]


def test_an_unknown_session_store_empties_nothing(emptied: list[str]) -> None:
    sessions._after_pass(None)
    assert emptied == []


def test_every_shared_cache_registers_its_emptier() -> None:
    # The caches that hold visitors' data between clicks (README, "Memory and CPU budget").
    import cfrviz.analysis.best_responses  # noqa: F401
    import cfrviz.analysis.lp  # noqa: F401
    import cfrviz.app.components.timeline  # noqa: F401
    import cfrviz.games.openspiel  # noqa: F401
    import cfrviz.tree.locks  # noqa: F401
    from cfrviz.app import solving

    solving.shared_runs()
    assert {"runs", "timeline payloads", "exact values", "locked trees", "OpenSpiel games", "games and trees",
            "last judged tree"} <= set(idle._emptiers)
