"""The admission line of heavy page builds: first come first served, places told, leavers gone.

Reference: hand-traced schedules of the contract in `cfrviz.run.admission` (`slots` turns at once,
a first-come-first-served line, a freed turn goes to the first in line, a leaver's place is
gone, turns are per thread and reentrant, a scope keeps its first turn to its end). Each schedule's
expected places are written out beside it. Threads wait on events and queues with a bound, never
on a sleep.
"""
from __future__ import annotations

import queue
import threading

import pytest

from cfrviz import catalog
from cfrviz.run.admission import Admission
from cfrviz.run.cache import RunCache
from cfrviz.run.pool import SolvePool
from cfrviz.run.record import Run
from cfrviz.solving import solve

WAIT = 300.0        # seconds: a bound for waits on events (a first solve may compile), never reached when the code is right


def test_turns_go_first_come_first_served_and_places_move_up() -> None:
    line = Admission(slots=2)
    a, b, c, d, e = (line.join() for _ in range(5))
    # Two slots: a and b admitted; c, d, e wait with 0, 1, 2 ahead.
    assert [line.ahead(t) for t in (a, b, c, d, e)] == [None, None, 0, 1, 2]
    assert line.counts() == (2, 3)
    line.leave(b)                    # b's turn goes to c, the first in line: d and e move up
    assert [line.ahead(t) for t in (c, d, e)] == [None, 0, 1]
    line.leave(a)                    # then to d
    assert [line.ahead(t) for t in (d, e)] == [None, 0]
    line.leave(c)
    line.leave(d)
    assert line.ahead(e) is None and line.counts() == (1, 0)
    line.leave(e)
    assert line.counts() == (0, 0)


def test_a_waiter_who_leaves_frees_its_place_and_never_blocks_others() -> None:
    line = Admission(slots=1)
    a, b, c, d = (line.join() for _ in range(4))
    assert [line.ahead(t) for t in (b, c, d)] == [0, 1, 2]
    line.leave(c)                    # c goes (its page went away): d moves up past it
    assert [line.ahead(t) for t in (b, d)] == [0, 1]
    line.leave(c)                    # leaving twice changes nothing
    line.leave(a)                    # a's turn goes to b, not to the leaver
    assert (line.ahead(b), line.ahead(d), line.ahead(c)) == (None, 0, None)
    line.leave(b)
    assert line.ahead(d) is None and line.counts() == (1, 0)


def test_a_newcomer_waits_behind_the_line_even_when_a_turn_frees() -> None:
    line = Admission(slots=1)
    a, b = line.join(), line.join()
    line.leave(a)                    # b is admitted at once, so the newcomer c is behind nobody but b's turn
    c = line.join()
    assert (line.ahead(b), line.ahead(c)) == (None, 0)


def test_a_waiting_build_is_told_each_new_place_then_runs() -> None:
    # Schedule: one slot held by the main thread (ticket a); b and c wait (0 and 1 ahead); the
    # thread under test joins third (2 ahead). Each leave moves it up one: 2, 1, 0, then admitted.
    line = Admission(slots=1)
    a, b, c = line.join(), line.join(), line.join()
    places: queue.Queue[int | str] = queue.Queue()

    def build() -> None:
        with line.turn(on_wait=places.put):
            places.put("running")

    thread = threading.Thread(target=build, daemon=True)
    thread.start()
    assert places.get(timeout=WAIT) == 2
    for ticket, expected in ((a, 1), (b, 0), (c, "running")):
        line.leave(ticket)
        assert places.get(timeout=WAIT) == expected
    thread.join(WAIT)
    assert not thread.is_alive() and line.counts() == (0, 0)


def test_a_page_that_goes_away_while_waiting_leaves_the_line() -> None:
    # The check raises (as Streamlit's does once the visitor switched page): the thread's place goes,
    # and the waiter behind it moves up to 0 ahead.
    line = Admission(slots=1)
    held = line.join()
    gone = threading.Event()
    placed = threading.Event()
    failures: queue.Queue[BaseException] = queue.Queue()

    def check() -> None:
        placed.set()
        if gone.is_set():
            raise KeyboardInterrupt("the page went away")

    def build() -> None:
        try:
            with line.turn(check=check, poll=0.01):     # the app checks every POLL_SECONDS
                pass
        except KeyboardInterrupt as stopped:
            failures.put(stopped)

    thread = threading.Thread(target=build, daemon=True)
    thread.start()
    assert placed.wait(WAIT)
    behind = line.join()
    assert line.ahead(behind) == 1
    gone.set()
    assert isinstance(failures.get(timeout=WAIT), KeyboardInterrupt)
    thread.join(WAIT)
    assert line.ahead(behind) == 0
    line.leave(held)
    assert line.ahead(behind) is None


def test_turns_are_reentrant_within_a_thread() -> None:
    # One slot: a build that asks again inside its own turn would wait for itself for ever.
    line = Admission(slots=1)
    done = threading.Event()

    def build() -> None:
        with line.turn():
            with line.turn():
                assert line.counts() == (1, 0)
            assert line.holds_turn()
        assert not line.holds_turn()
        done.set()

    thread = threading.Thread(target=build, daemon=True)
    thread.start()
    assert done.wait(WAIT)
    assert line.counts() == (0, 0)


def test_a_scope_keeps_its_first_turn_until_it_ends() -> None:
    # Schedule: one slot. The scope's first part takes the turn; a waiter joins (0 ahead); the
    # second part runs in the same turn, so the waiter is still 0 ahead until the scope ends.
    line = Admission(slots=1)
    line_seen: list[int | None] = []
    with line.scope():
        assert line.counts() == (0, 0)       # entering takes no turn
        with line.turn():
            pass
        waiter = line.join()
        with line.turn():
            line_seen.append(line.ahead(waiter))
        line_seen.append(line.ahead(waiter))
    assert line_seen == [0, 0]
    assert line.ahead(waiter) is None


def test_builds_holding_every_turn_finish_their_solves_on_a_full_pool() -> None:
    # Schedule: two builds hold both turns; a third build joins the line (0 ahead); only then do the
    # two builds ask for their solves, on a pool of two workers with two solver slots. Solves take
    # solver slots, never turns, so both builds finish, and the third runs once one of them has. (Were a solve to
    # wait for a turn, all three threads would wait for ever and the bounded waits below fail.)
    line = Admission(slots=2)
    runs = RunCache(max_bytes=10**9, max_entries=4, max_concurrent_solves=2)
    pool = SolvePool(workers=2)
    spec = catalog.lookup("kuhn")
    admitted = threading.Barrier(3, timeout=WAIT)
    third_waits = threading.Event()
    results: queue.Queue[tuple[str, object]] = queue.Queue()

    def build(name: str, seed: int) -> None:
        with line.turn():
            admitted.wait()
            assert third_waits.wait(WAIT)
            run = runs.get(("kuhn", seed), lambda: pool.run(
                lambda report: solve(spec, "cfr", iterations=20, seed=seed)))
            results.put((name, run))

    def third() -> None:
        with line.turn(on_wait=lambda ahead: third_waits.set()):
            results.put(("third", None))

    builders = [threading.Thread(target=build, args=(f"build {k}", k), daemon=True) for k in (1, 2)]
    for thread in builders:
        thread.start()
    admitted.wait()                 # both turns are held
    waiter = threading.Thread(target=third, daemon=True)
    waiter.start()
    finished = [results.get(timeout=WAIT) for _ in range(3)]
    # The third runs once a build has put its run and left its turn: never first.
    assert finished[0][0].startswith("build") and sorted(name for name, _ in finished) == ["build 1", "build 2", "third"]
    assert all(isinstance(value, Run) for name, value in finished if name != "third")
    for thread in (*builders, waiter):
        thread.join(WAIT)
        assert not thread.is_alive()
    assert line.counts() == (0, 0)
    pool.shutdown()


def test_an_admission_line_needs_a_slot() -> None:
    with pytest.raises(ValueError, match="at least one slot"):
        Admission(slots=0)
