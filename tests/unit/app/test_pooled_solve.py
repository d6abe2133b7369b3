"""The app's solve runs on a pool worker; the session's thread draws its progress and its messages.

References: `cfrviz.app.solving.cached_solve`'s contract (the worker never calls Streamlit; the
waiting thread draws the bar from the reported fractions; a `ValueError` sentence reaches the
visitor as before; a visitor who finds every solver slot taken is told so); the numbers are
checked against the same solve made outside the app.
"""
from __future__ import annotations

import contextlib
import threading
from typing import Any

import numpy as np
import pytest

import cfrviz
from cfrviz import catalog
from cfrviz.app import solving
from cfrviz.run import RunSettings
from cfrviz.run.cache import RunCache
from cfrviz.tree.locks import Locks

WAIT = 120.0


class Recorder:
    """Stands in for a Streamlit element: notes each call with the thread it came from."""

    def __init__(self, calls: list[tuple[str, Any, int]], kind: str) -> None:
        self.calls, self.kind = calls, kind

    def progress(self, fraction: float, text: str = "") -> None:
        self.calls.append((f"{self.kind}.progress", fraction, threading.get_ident()))

    def empty(self) -> None:
        self.calls.append((f"{self.kind}.empty", None, threading.get_ident()))


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, Any, int]]:
    calls: list[tuple[str, Any, int]] = []
    monkeypatch.setattr(solving, "_shared", RunCache(10**9, 4, solving.CONCURRENT_SOLVES))
    monkeypatch.setattr(solving.st, "progress", lambda *a, **k: Recorder(calls, "bar"))
    monkeypatch.setattr(solving.st, "info", lambda *a, **k: calls.append(("info", a[0], threading.get_ident()))
                        or Recorder(calls, "info"))
    return calls


def test_a_big_solve_runs_on_a_worker_and_its_bar_is_drawn_here(drawn: list[tuple[str, Any, int]],
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    solved_on: list[str] = []
    original = solving._solve

    def solve(*args: Any) -> Any:
        solved_on.append(threading.current_thread().name)
        return original(*args)

    monkeypatch.setattr(solving, "_solve", solve)
    # Leduc (1,936 histories) at 12,000 iterations passes the bar's cost (histories x iterations >= 20 million).
    run = solving.cached_solve(RunSettings(catalog.get("leduc"), "cfr", 12_000, "alternating", 0))
    here = threading.get_ident()
    assert solved_on and all(name.startswith("cfrviz-solve-") for name in solved_on)
    fractions = [fraction for kind, fraction, _ in drawn if kind == "bar.progress"]
    assert len(fractions) > 10 and fractions == sorted(fractions) and fractions[-1] == 1.0
    assert all(thread == here for _, _, thread in drawn) and drawn[-1][0] == "bar.empty"
    reference = cfrviz.solve("leduc", "cfr", iterations=12_000, updates="alternating")
    assert np.array_equal(run.exploitability, reference.exploitability)


def test_an_error_sentence_reaches_the_visitor(drawn: list[tuple[str, Any, int]]) -> None:
    # A lock on a set Kuhn poker does not have is found where the tree is, on the pool's worker
    # (`cfrviz.tree.locks.Locks.check`'s sentence); the visitor's thread raises that sentence.
    locked = RunSettings(catalog.get("kuhn"), "cfr", 10, "simultaneous", 0, Locks.of({"Z": [1.0, 0.0]}))
    with pytest.raises(ValueError, match=r"^Kuhn poker has no information set 'Z' to lock"):
        solving.cached_solve(locked)


def test_a_visitor_who_finds_every_slot_taken_is_told_until_the_solve_is_done(
        drawn: list[tuple[str, Any, int]], monkeypatch: pytest.MonkeyPatch) -> None:
    cache = solving.shared_runs()
    told = threading.Event()
    info = solving.st.info

    def tell(*args: Any, **kwargs: Any) -> Any:
        element = info(*args, **kwargs)
        told.set()
        return element

    monkeypatch.setattr(solving.st, "info", tell)
    results: list[Any] = []
    visitor = threading.Thread(target=lambda: results.append(
        solving.cached_solve(RunSettings(catalog.get("kuhn"), "cfr", 77, "simultaneous", 0))))
    with contextlib.ExitStack() as others:
        for _ in range(solving.CONCURRENT_SOLVES):          # other visitors' solves hold every slot
            others.enter_context(cache.solver_slot())
        visitor.start()
        assert told.wait(WAIT) and not results
    visitor.join(WAIT)
    assert len(results) == 1 and cache.stats().waits == 1
    kinds = [kind for kind, _, _ in drawn]
    assert kinds == ["info", "info.empty"]              # the message goes once the solve is in
    assert "yours starts when one of them ends" in drawn[0][1]


def test_compares_solves_take_a_slot_and_run_on_the_pool(monkeypatch: pytest.MonkeyPatch) -> None:
    # Reference: one entry, one timed repeat makes three solves (the run, the warm-up, the timed one;
    # `cfrviz.solving.compare.measure_line`), each through the app's gate and on a pool worker.
    from cfrviz.solving import compare

    monkeypatch.setattr(solving, "_shared", RunCache(10**9, 4, solving.CONCURRENT_SOLVES))
    solved_on: list[str] = []

    def recorded(function: Any) -> Any:
        def call(*args: Any, **kwargs: Any) -> Any:
            solved_on.append(threading.current_thread().name)
            return function(*args, **kwargs)
        return call

    monkeypatch.setattr(compare, "solve_settings", recorded(compare.solve_settings))
    monkeypatch.setattr(compare, "solver_seconds", recorded(compare.solver_seconds))
    line = compare.measure_line(catalog.get("kuhn"), compare.Entry("cfr+", "alternating", 25), repeats=1,
                                solver_slot=solving.one_solve_at_a_time)
    assert len(solved_on) == 3 and all(name.startswith("cfrviz-solve-") for name in solved_on)
    assert line.exploitability[-1] == cfrviz.solve("kuhn", "cfr+", iterations=25).exploitability[-1]


@pytest.mark.parametrize("failure", [MemoryError(), RuntimeError("can't start new thread")],
                         ids=["MemoryError", "no thread"])
def test_memory_running_out_in_a_solve_here_is_one_sentence(failure: BaseException,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    # Reference: `cfrviz.solving.workers.NO_MEMORY`, the sentence a worker's refusal gives too.
    from cfrviz.solving.workers import NO_MEMORY, SolveRefused

    def no_room(*args: Any, **kwargs: Any) -> Any:
        raise failure

    monkeypatch.setattr(cfrviz.solving, "solve_settings", no_room)
    with pytest.raises(SolveRefused) as refused:
        solving._solve(RunSettings(catalog.get("kuhn"), "cfr", 10, "alternating", 0))
    assert str(refused.value) == NO_MEMORY


def test_another_runtime_error_is_not_taken_for_memory(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("a bug")

    monkeypatch.setattr(cfrviz.solving, "solve_settings", broken)
    with pytest.raises(RuntimeError, match="a bug"):
        solving._solve(RunSettings(catalog.get("kuhn"), "cfr", 10, "alternating", 0))


def test_with_solve_workers_a_warm_servers_solve_runs_in_a_worker(monkeypatch: pytest.MonkeyPatch) -> None:
    # Reference: the same solve made in this process, array for array; the worker's start is counted.
    from cfrviz.solving.workers import SolveWorkers

    workers = SolveWorkers(1, solving.WORKER_ADDRESS_SPACE)
    monkeypatch.setattr(solving, "_workers", workers)
    monkeypatch.setattr(solving, "_shared", RunCache(10**9, 4, solving.CONCURRENT_SOLVES))
    monkeypatch.setattr(solving, "is_warm", lambda: True)
    wanted = RunSettings(catalog.get("leduc"), "cfr", 120, "alternating", 0)
    try:
        run = solving.shared_run(wanted)
        assert workers.started() == 1 and run.settings == wanted
        reference = cfrviz.solving.solve_settings(wanted)
        assert np.array_equal(run.average_strategy, reference.average_strategy)
        assert np.array_equal(run.exploitability, reference.exploitability)
    finally:
        workers.close()
