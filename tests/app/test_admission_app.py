"""AppTest: a heavy page whose build is not kept waits for a turn and shows its place in line; once
kept, the same view never waits.

The test stands in for other visitors by holding the process's turns itself (`ADMISSION.join()`),
then frees them one at a time. Reference: the hand-traced schedule of `cfrviz.run.admission`
with 2 slots: both held, one more waiter ahead, so the page joins with 1 ahead, then has 0 ahead
once that waiter leaves, then runs once a held turn is freed. The Walkthrough's trace at t = 7 with
seed 5 is no first view (those are pinned at start), so its trace and payload are built here.
"""
from __future__ import annotations

import queue
import threading
from collections.abc import Callable

import pytest
from streamlit.testing.v1 import AppTest

from cfrviz.app import admission
from cfrviz.app.admission import ADMISSION
from cfrviz.app.solving import shared_runs
from tests.support.apptest import mounted, open_link

WAIT = 120.0        # seconds: a bound for waits on events, never reached when the code is right
QUERY = {"walk_t": "7", "walk_seed": "5"}


def _in_thread(work: object) -> threading.Thread:
    thread = threading.Thread(target=work, daemon=True)  # type: ignore[arg-type]
    thread.start()
    return thread


def _told_places(monkeypatch: pytest.MonkeyPatch) -> queue.Queue[int]:
    """Every place in line the page tells its visitor, in order (the line's own wording is kept)."""
    places: queue.Queue[int] = queue.Queue()
    shown = admission.waiting_line

    def recorded(ahead: int) -> str:
        places.put(ahead)
        return shown(ahead)

    monkeypatch.setattr(admission, "waiting_line", recorded)
    return places


def _infos(at: AppTest) -> list[str]:
    return [str(element.value) for element in at.info]


def test_a_heavy_page_shows_its_place_in_line_then_builds_and_a_kept_view_never_waits(
        monkeypatch: pytest.MonkeyPatch) -> None:
    at = open_link(QUERY)                                   # Home: light, it takes no turn
    assert ADMISSION.counts() == (0, 0)
    held = [ADMISSION.join() for _ in range(ADMISSION.slots)]
    before_page = ADMISSION.join()
    assert [ADMISSION.ahead(t) for t in (*held, before_page)] == [None, None, 0]

    places = _told_places(monkeypatch)
    page = _in_thread(lambda: at.switch_page("pages/6_Walkthrough.py").run())
    try:
        assert places.get(timeout=WAIT) == 1                # behind the waiter already in line
        ADMISSION.leave(before_page)
        assert places.get(timeout=WAIT) == 0                # next
        ADMISSION.leave(held[0])                            # a turn is free: the page builds
        page.join(WAIT)
        assert not page.is_alive()
    finally:
        for ticket in (*held, before_page):
            ADMISSION.leave(ticket)
    assert places.empty()                                   # no place told after the build started
    assert not at.exception, at.exception
    assert not [text for text in _infos(at) if text.startswith("Waiting for a free solver")]
    header, payload = mounted(at)
    assert header["mode"] == "walkthrough" and payload["extra"]["steps"]["kind"]
    assert ADMISSION.counts() == (0, 0)

    # The trace and its payload are kept now: with every turn taken again, a rerun does not wait.
    held = [ADMISSION.join() for _ in range(ADMISSION.slots)]
    behind = ADMISSION.join()
    try:
        rerun = _in_thread(at.run)
        rerun.join(WAIT)
        assert not rerun.is_alive()
    finally:
        for ticket in (*held, behind):
            ADMISSION.leave(ticket)
    assert places.empty() and not at.exception
    assert mounted(at)[0]["id"] == header["id"]


def test_a_heavy_solve_waits_in_line_before_it_starts(monkeypatch: pytest.MonkeyPatch) -> None:
    # Reference: a Leduc solve of 12,000 iterations over 1,936 histories is over the progress bar's
    # 20,000,000 (`solving._PROGRESS_COST`), so it is heavy; with both turns held the page is first
    # in line, and nothing is solved (nor held) until a turn frees. On the old code the page solved
    # first and waited for its payload's turn holding the run: the count below was one more.
    at = open_link()                                        # Home's pinned first view: no turn
    for key, value in {"game": "leduc", "algo": "cfr", "iters": "12000", "updates": "simultaneous"}.items():
        at.query_params[key] = value
    solves = shared_runs().stats().solves
    held = [ADMISSION.join() for _ in range(ADMISSION.slots)]
    places = _told_places(monkeypatch)
    page = _in_thread(lambda: at.switch_page("pages/1_Game_tree.py").run())
    try:
        assert places.get(timeout=WAIT) == 0
        assert shared_runs().stats().solves == solves       # in line: nothing solved yet
        ADMISSION.leave(held[0])
        page.join(WAIT)
        assert not page.is_alive()
    finally:
        for ticket in held:
            ADMISSION.leave(ticket)
    assert not at.exception, at.exception
    assert shared_runs().stats().solves == solves + 1
    assert ADMISSION.counts() == (0, 0)


def test_on_the_deployed_server_a_turn_lasts_until_the_pages_run_ends(monkeypatch: pytest.MonkeyPatch) -> None:
    # Reference: `Admission.scope` keeps a turn taken inside until the scope ends; the deployed
    # server makes each script run one scope through the name Streamlit's runner calls pages by.
    import inspect

    from streamlit.runtime.scriptrunner import script_runner

    # The pinned Streamlit runs every page through that module-level name.
    runs_pages_name = "exec_func_with_error_handling"
    assert callable(getattr(script_runner, runs_pages_name))
    assert f"{runs_pages_name}(code_to_exec, ctx)" in inspect.getsource(script_runner.ScriptRunner._run_script)

    def page_runner(func: Callable[[], str], ctx: object) -> str:
        return func()

    monkeypatch.setattr(script_runner, runs_pages_name, page_runner)
    seen: list[tuple[bool, tuple[int, int]]] = []

    def page() -> str:
        with ADMISSION.turn():
            pass
        seen.append((ADMISSION.holds_turn(), ADMISSION.counts()))   # the block is over
        return "ran"

    assert admission.turns_last_whole_runs()
    runs_pages = getattr(script_runner, runs_pages_name)
    assert runs_pages is not page_runner
    assert admission.turns_last_whole_runs() and getattr(script_runner, runs_pages_name) is runs_pages   # wraps once
    assert runs_pages(page, None) == "ran"
    assert seen == [(True, (1, 0))]                         # still held after the block, inside the run
    assert ADMISSION.counts() == (0, 0) and not ADMISSION.holds_turn()


def test_the_line_names_the_visitors_ahead() -> None:
    # What the visitor reads: the count in words, singular for one.
    assert admission.waiting_line(3).startswith("Waiting for a free solver: 3 visitors ahead.")
    assert admission.waiting_line(1).startswith("Waiting for a free solver: 1 visitor ahead.")
    assert admission.waiting_line(0).startswith("Waiting for a free solver: you are next.")


def test_a_visitor_whose_tab_closed_leaves_the_line_without_taking_a_turn(monkeypatch: pytest.MonkeyPatch) -> None:
    # Schedule: both turns held, the page joins with 0 ahead; its browser disconnects (the session
    # is no longer active): the page's run stops at its next check and its place goes, so the line
    # is empty again with both turns still held, and nobody built for it.
    at = open_link({"walk_t": "6", "walk_seed": "4"})
    held = [ADMISSION.join() for _ in range(ADMISSION.slots)]
    browser = threading.Event()
    browser.set()
    places = _told_places(monkeypatch)
    monkeypatch.setattr(admission, "connected", lambda session_id: browser.is_set())
    page = _in_thread(lambda: at.switch_page("pages/6_Walkthrough.py").run())
    try:
        assert places.get(timeout=WAIT) == 0
        assert ADMISSION.counts() == (2, 1)
        browser.clear()                                     # the tab closed
        page.join(WAIT)
        assert not page.is_alive()
        assert ADMISSION.counts() == (2, 0)
    finally:
        for ticket in held:
            ADMISSION.leave(ticket)
    assert not at.get("bidi_component")                     # the page stopped before its build
