"""Solves in worker processes (`cfrviz.solving.workers`): the run that comes back is the run solved
here, a solve that does not fit a worker's memory cap is one sentence and the worker is replaced,
a visitor who leaves stops the solve without losing the worker, and a worker killed while idle is
replaced without anyone noticing.

References: the same deterministic solve made in this process (`cfrviz.solving.solve_settings`,
array for array); the worker's own address space read from /proc after it started (the cap of the
memory test leaves 40 MB above it, less than the 46 MB of snapshot arrays the refused Leduc run holds
alone, `Run.nbytes` checked here); the settings' own refusal sentence (`cfrviz.tree.locks`).
"""
from __future__ import annotations

import os
import signal
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np
import pytest

from cfrviz import catalog, solving
from cfrviz.run import RunSettings
from cfrviz.solving.worker import NICENESS
from cfrviz.solving.workers import NO_MEMORY, SolveRefused, SolveWorkers, travels
from cfrviz.tree.locks import Locks

ROOMY = 1536 * 2**20
ARRAYS = ("iterations", "cumulative_regret", "current_strategy", "average_strategy", "reach", "value",
          "expected_value", "exploitability", "current_exploitability", "nodes_touched")


def settings(game: str, iterations: int, locks: dict[str, list[float]] | None = None) -> RunSettings:
    return RunSettings(catalog.get(game), "cfr+", iterations, "alternating", 0, Locks.of(locks))


def address_space_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmPeak:"):
            return int(line.split()[1])
    raise AssertionError("no VmPeak")


def wait_until(condition: Callable[[], bool], timeout: float = 30.0) -> bool:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True


@pytest.fixture
def workers() -> Iterator[SolveWorkers]:
    pool = SolveWorkers(1, ROOMY)
    yield pool
    pool.close()


@pytest.mark.parametrize("wanted", [settings("leduc", 300), settings("kuhn", 200, {"J": [0.0, 1.0]})],
                         ids=["leduc", "kuhn locked"])
def test_the_run_from_a_worker_is_the_run_solved_here(workers: SolveWorkers, wanted: RunSettings) -> None:
    fractions: list[float] = []
    run = workers.solve(wanted, fractions.append)
    reference = solving.solve_settings(wanted)
    assert run.settings == wanted and run.tree is wanted.spec.tree()
    for name in ARRAYS:
        assert np.array_equal(getattr(run, name), getattr(reference, name), equal_nan=True), name
        assert not getattr(run, name).flags.writeable
    assert run.average_strategy_value == reference.average_strategy_value
    assert fractions == sorted(fractions) and fractions and all(0.0 < f <= 1.0 for f in fractions)
    assert workers.started() == 1


def test_a_worker_runs_below_the_servers_priority(workers: SolveWorkers) -> None:
    # Reference: the worker lowers itself by worker.NICENESS (the system's nice value, 0 to 19).
    workers.solve(settings("kuhn", 10))
    (pid,) = workers.pids()
    assert os.getpriority(os.PRIO_PROCESS, pid) == min(19, os.getpriority(os.PRIO_PROCESS, 0) + NICENESS)


def test_a_solve_over_the_workers_cap_is_one_sentence_and_the_worker_is_replaced() -> None:
    probe = SolveWorkers(1, ROOMY)
    try:
        probe.solve(settings("kuhn", 10))
        base_kb = address_space_kb(probe.pids()[0])
    finally:
        probe.close()
    big = settings("leduc", 3000)
    assert solving.solve_settings(big).nbytes > 45_000_000       # more than the room left below
    tight = SolveWorkers(1, base_kb * 1024 + 40 * 2**20)
    try:
        with pytest.raises(SolveRefused) as refused:
            tight.solve(big)
        assert str(refused.value) == NO_MEMORY and str(refused.value).count(". ") == 0
        small = tight.solve(settings("kuhn", 50))                  # a new worker takes it
        assert tight.started() == 2
        assert np.array_equal(small.average_strategy, solving.solve_settings(settings("kuhn", 50)).average_strategy)
    finally:
        tight.close()


def test_a_visitor_who_leaves_stops_the_solve_and_the_worker_serves_on(workers: SolveWorkers) -> None:
    class Left(Exception):
        pass

    reports: list[float] = []

    def leave_after_three(fraction: float) -> None:
        reports.append(fraction)
        if len(reports) == 3:
            raise Left()

    with pytest.raises(Left):
        workers.solve(settings("leduc", 50_000), leave_after_three)
    after = workers.solve(settings("kuhn", 30))
    assert workers.started() == 1 and len(reports) == 3
    assert np.array_equal(after.exploitability, solving.solve_settings(settings("kuhn", 30)).exploitability)


def test_the_settings_own_refusal_passes_through_and_keeps_the_worker(workers: SolveWorkers) -> None:
    wrong = settings("kuhn", 10, {"Z": [1.0, 0.0]})
    with pytest.raises(ValueError, match=r"^Kuhn poker has no information set 'Z' to lock") as refused:
        workers.solve(wrong)
    assert not isinstance(refused.value, SolveRefused)
    workers.solve(settings("kuhn", 10))
    assert workers.started() == 1


def test_a_worker_killed_while_idle_is_replaced_silently(workers: SolveWorkers) -> None:
    workers.solve(settings("kuhn", 10))
    (pid,) = workers.pids()
    os.kill(pid, signal.SIGKILL)
    # Until it can be waited for (all its threads gone), without reaping it: the pool does that.
    assert wait_until(lambda: os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None)
    run = workers.solve(settings("kuhn", 20))
    assert workers.started() == 2 and workers.pids() != (pid,) and int(run.iterations[-1]) == 20


def test_a_worker_killed_during_a_solve_is_one_sentence(workers: SolveWorkers) -> None:
    workers.solve(settings("kuhn", 10))
    (pid,) = workers.pids()

    def kill_once(fraction: float) -> None:
        if workers.pids() == (pid,):
            os.kill(pid, signal.SIGKILL)

    with pytest.raises(SolveRefused, match=r"^The server's solver stopped during this solve; try again"):
        workers.solve(settings("leduc", 20_000), kill_once)
    assert int(workers.solve(settings("kuhn", 20)).iterations[-1]) == 20 and workers.started() == 2


def test_settings_travel_unless_their_game_is_one_this_process_was_handed() -> None:
    # A "custom" game is a tree given as a Python object: no worker can rebuild it from the settings.
    custom = RunSettings(catalog.GameSpec(catalog.entry("custom"), (("title", "a tree"),)), "cfr", 10,
                         "alternating", 0)
    assert travels(settings("leduc", 10)) and travels(settings("kuhn", 10, {"J": [0.0, 1.0]}))
    assert not travels(custom)
