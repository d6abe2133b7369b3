"""When the last visitor has gone, the caches give their memory back, once per quiet spell.

Reference: the class-load requirement (memory back within 200 MB of idle 60 s after the tabs
close): bounded caches alone stay full until new visitors push entries out.
"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

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


def test_a_server_that_has_had_no_visitor_releases_nothing() -> None:
    # Reference: a server just started has had no session, and the reaper's first passes see none;
    # what it holds then (the pinned first views, the catalog trees they were solved on) is what
    # idle is, so nothing is emptied until a first visitor has come and gone. A fresh interpreter,
    # for the module's state at start-up; before the fix its first pass emptied the caches.
    probe = """
from cfrviz.app import sessions
from cfrviz.util import idle
idle._emptiers.clear()
calls = []
idle.on_idle("probe", lambda: calls.append(1))
sessions._after_pass(True)
sessions._after_pass(True)
print(len(calls))
sessions._after_pass(False)
sessions._after_pass(True)
print(len(calls))
"""
    root = Path(__file__).resolve().parents[3]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(root), *filter(None, [os.environ.get("PYTHONPATH")])])}
    done = subprocess.run([sys.executable, "-c", probe], cwd=root, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == ["0", "1"]


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
