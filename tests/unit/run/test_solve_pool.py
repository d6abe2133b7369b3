"""The solve pool and the kernels it runs: solves leave the interpreter lock to other threads.

References: numba's `nogil=True` option (a compiled call releases the GIL for its whole body,
numba docs, "Releasing the GIL"); CPython's GIL hand-over (a thread only loses the GIL when it
blocks or after `sys.getswitchinterval()`); Linux's setpriority(2), whose PRIO_PROCESS with a
thread id sets that one thread's nice value; the pool's contract in `cfrviz.run.pool`.
"""
from __future__ import annotations

import importlib
import os
import pkgutil
import sys
import threading
from pathlib import Path

import pytest
from numba.core.dispatcher import Dispatcher

import cfrviz.analysis
import cfrviz.solvers
from cfrviz import catalog
from cfrviz.run.pool import SolvePool
from cfrviz.solvers import solver_class

ROOT = Path(__file__).resolve().parents[3]
WAIT = 120.0        # seconds: a bound for waits on events, never reached when the code is right


def _kernels() -> dict[str, Dispatcher]:
    """Every numba dispatcher defined in a module of the solvers and analysis packages."""
    found: dict[str, Dispatcher] = {}
    for package in (cfrviz.solvers, cfrviz.analysis):
        for info in pkgutil.iter_modules(package.__path__, package.__name__ + "."):
            module = importlib.import_module(info.name)
            for name, value in vars(module).items():
                if isinstance(value, Dispatcher) and value.py_func.__module__ == info.name:
                    found[f"{info.name}.{name}"] = value
    return found


def test_every_kernel_releases_the_interpreter_lock() -> None:
    kernels = _kernels()
    # Every file with a numba kernel is one of the modules searched above.
    with_kernels = {str(path.relative_to(ROOT).with_suffix("")).replace(os.sep, ".")
                    for path in (ROOT / "cfrviz").rglob("*.py") if "@njit" in path.read_text()}
    assert with_kernels == {name.rsplit(".", 1)[0] for name in kernels}
    assert "cfrviz.solvers._cfr_kernel.run_iterations" in kernels and len(kernels) >= 30
    assert [name for name, kernel in kernels.items() if not kernel.targetoptions.get("nogil")] == []


def test_another_thread_runs_while_a_pooled_solve_is_inside_compiled_code() -> None:
    # Preemption is switched off (a huge switch interval), so with the GIL held the observer could
    # run only once the worker blocks, i.e. after the solve returned. It runs before: the kernel
    # released the GIL. The worker does not block between its compiled calls (no I/O, no waits).
    tree = catalog.get("leduc").tree()
    solver = solver_class("cfr")(tree, updates="alternating", seed=0)
    solver.iterate(1)                       # loads the compiled kernel: no cache I/O in the timed part
    pool = SolvePool(workers=1)
    entered, observed, returned = threading.Event(), threading.Event(), threading.Event()
    seen_before_return: list[bool] = []
    calls = 0

    def observer() -> None:
        entered.wait(WAIT)
        seen_before_return.append(not returned.is_set())
        observed.set()

    def solve(report: object) -> None:
        nonlocal calls
        entered.set()
        # Single compiled calls of 200 Leduc iterations, until the observer has looked (bounded).
        while not observed.is_set() and calls < 50:
            solver.iterate(200)
            calls += 1
        returned.set()

    watcher = threading.Thread(target=observer)
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1000.0)
    try:
        watcher.start()
        pool.run(solve)
        watcher.join(WAIT)
    finally:
        sys.setswitchinterval(interval)
        pool.shutdown()
    assert seen_before_return == [True]
    assert 1 <= calls < 50


def test_the_pool_runs_at_most_its_workers_at_once() -> None:
    pool = SolvePool(workers=2)
    release = [threading.Event() for _ in range(3)]
    started = [threading.Event() for _ in range(3)]
    lock = threading.Lock()
    running = most = 0

    def work(k: int) -> int:
        nonlocal running, most
        with lock:
            running += 1
            most = max(most, running)
        started[k].set()
        release[k].wait(WAIT)
        with lock:
            running -= 1
        return k

    try:
        jobs = [pool.submit(lambda report, k=k: work(k)) for k in range(2)]
        assert started[0].wait(WAIT) and started[1].wait(WAIT)
        third = pool.submit(lambda report: work(2))
        assert [job.queued for job in (*jobs, third)] == [False, False, True]
        assert not started[2].is_set() and not third.started    # both workers are held by the first two
        release[0].set()
        assert jobs[0].result() == 0
        assert started[2].wait(WAIT)                           # the freed worker takes the third
        release[1].set()
        release[2].set()
        assert [jobs[1].result(), third.result()] == [1, 2] and most == 2
    finally:
        for event in release:
            event.set()
        pool.shutdown()


def test_a_full_pool_tells_the_caller_before_it_waits() -> None:
    pool = SolvePool(workers=1)
    release, started = threading.Event(), threading.Event()
    told: list[str] = []
    try:
        first = pool.submit(lambda report: started.set() or release.wait(WAIT))
        assert started.wait(WAIT)

        def on_wait() -> None:
            told.append("waiting")
            release.set()                   # the first job ends only once the caller was told

        assert pool.run(lambda report: "second", on_wait=on_wait) == "second"
        assert told == ["waiting"] and first.result() is True
        assert pool.run(lambda report: "third", on_wait=lambda: told.append("again")) == "third"
        assert told == ["waiting"]          # a free worker: nobody is told to wait
    finally:
        release.set()
        pool.shutdown()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="per-thread nice values are Linux's")
def test_workers_run_at_a_lower_priority_and_the_caller_keeps_its_own() -> None:
    own = os.getpriority(os.PRIO_PROCESS, 0)       # this thread's nice value (Linux: per thread)
    pool = SolvePool(workers=2, niceness=10)
    try:
        ids = pool.native_ids()
        assert len(set(ids)) == 2 and threading.get_native_id() not in ids
        expected = min(own + 10, 19)               # setpriority(2) clamps nice values to 19
        assert [os.getpriority(os.PRIO_PROCESS, tid) for tid in ids] == [expected, expected]
        # The same number as the kernel's own record: field 19 of /proc/self/task/<tid>/stat.
        for tid in ids:
            stat = Path(f"/proc/self/task/{tid}/stat").read_text()
            assert int(stat.rsplit(")", 1)[1].split()[16]) == expected
        assert os.getpriority(os.PRIO_PROCESS, 0) == own
    finally:
        pool.shutdown()


def test_progress_is_drawn_by_the_waiting_thread_and_errors_reach_it() -> None:
    pool = SolvePool(workers=1)
    caller = threading.get_ident()
    drawn: list[tuple[float, bool]] = []
    step = threading.Event()

    def work(report: object) -> str:
        for fraction in (0.25, 0.5, 0.75):
            step.clear()
            report(fraction)            # type: ignore[operator]  # the pool's report(fraction)
            step.wait(WAIT)             # the caller drew this fraction before the next one
        return "done"

    def draw(fraction: float) -> None:
        drawn.append((fraction, threading.get_ident() == caller))
        step.set()

    def bad(report: object) -> None:
        raise ValueError("Iterations must be at least 1.")

    try:
        assert pool.run(work, on_progress=draw) == "done"
        assert drawn == [(0.25, True), (0.5, True), (0.75, True)]
        with pytest.raises(ValueError, match="^Iterations must be at least 1.$"):
            pool.run(bad)
        assert pool.run(lambda report: 7) == 7        # the worker survived the error
    finally:
        pool.shutdown()


def test_an_idle_worker_keeps_no_result_alive() -> None:
    # Reference: a result the caller has let go is freed by reference counting at once (CPython);
    # a worker waiting for its next job must not hold the last one. Seen in a class's server 60 s
    # after the tabs closed: each worker's local `job` kept its solve's run (172 MB for Play on
    # Liar's dice at its cap) until the next solve came.
    import gc
    import time
    import weakref

    class Solved:
        """Stands for a run (weakly referable, so its end is seen)."""

    pool = SolvePool(workers=1)
    try:
        result = weakref.ref(pool.run(lambda report: Solved()))
        deadline = time.monotonic() + 10.0
        while result() is not None and time.monotonic() < deadline:     # the worker's `finally` may still run
            gc.collect()
            time.sleep(0.01)
        assert result() is None, "the idle worker still holds its last solve's result"
    finally:
        pool.shutdown()


def test_a_solve_whose_caller_left_stops_at_its_next_report() -> None:
    from cfrviz.run.pool import SolveCancelled

    pool = SolvePool(workers=1)
    outcome: list[str] = []
    gone = threading.Event()

    def work(report: object) -> None:
        report(0.5)                     # type: ignore[operator]  # the pool's report(fraction)
        gone.wait(WAIT)
        try:
            report(0.6)                 # type: ignore[operator]  # as solving.solve reports between chunks
            outcome.append("went on")
        except SolveCancelled:
            outcome.append("stopped")
            raise

    class PageLeft(Exception):
        pass

    def leave(fraction: float) -> None:
        raise PageLeft          # as Streamlit's rerun or stop request does inside a drawing call

    try:
        with pytest.raises(PageLeft):
            pool.run(work, on_progress=leave)
        gone.set()
        assert pool.run(lambda report: "next") == "next"    # runs after the stopped one, on the one worker
        assert outcome == ["stopped"]
    finally:
        gone.set()
        pool.shutdown()


def test_sampling_solves_at_once_in_the_pool_give_the_numbers_they_give_alone() -> None:
    # Reference: each sampling solve owns its numpy Generator (seeded PCG64), so two solves running
    # at the same time without the GIL draw exactly the numbers each draws alone.
    import numpy as np

    import cfrviz

    def solve(algorithm: str, seed: int) -> np.ndarray:
        run = cfrviz.solve("leduc", algorithm, iterations=3_000, seed=seed)
        return np.array(run.average_strategy[-1])

    cases = [("external", 1), ("outcome", 2), ("chance", 3), ("external", 4)]
    alone = [solve(algorithm, seed) for algorithm, seed in cases]
    pool = SolvePool(workers=2)
    try:
        jobs = [pool.submit(lambda report, a=algorithm, s=seed: solve(a, s)) for algorithm, seed in cases]
        together = [job.result() for job in jobs]
    finally:
        pool.shutdown()
    for case, one, other in zip(cases, alone, together):
        assert np.array_equal(one, other), case
