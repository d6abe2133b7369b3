"""A few worker threads at a lower CPU priority that run the server's heavy work (solves).

The compiled kernels release the interpreter lock (`nogil`), so a solve on a worker thread leaves
the lock to the sessions' own threads: a light page never waits for another visitor's solve.
The workers are a fixed set, so at most `workers` solves compete for the cores, and each lowers
its own priority once (Linux keeps a nice value per thread; an unprivileged process cannot raise
it back, which is why these are dedicated threads and not the sessions' script threads).

The caller submits work and waits in its own thread; the work reports its progress as a
fraction, which the waiting thread draws (`SolvePool.run(..., on_progress=...)`), so nothing
but the work itself runs on a worker. Pure Python: the app holds one pool per process.

>>> pool = SolvePool(workers=1)
>>> pool.run(lambda report: sum(range(10)))
45
"""
from __future__ import annotations

import os
import queue
import sys
import threading
from collections.abc import Callable
from typing import Generic, TypeVar

__all__ = ["Job", "SolveCancelled", "SolvePool"]

T = TypeVar("T")

#: Work for a worker: called with `report(fraction)`, which it may call now and then.
Work = Callable[[Callable[[float], None]], T]


class SolveCancelled(Exception):
    """Raised inside the work by `report` once the caller stopped waiting for it (its page went away)."""


class Job(Generic[T]):
    """One submitted piece of work: its progress, then its result or error, handed to the waiting thread."""

    def __init__(self, work: Work[T], queued: bool) -> None:
        self._work = work
        #: Whether every worker was busy when it was submitted (so it waits its turn).
        self.queued = queued
        self._changed = threading.Condition()
        self._fraction: float | None = None
        self._started = False
        self._finished = False
        self._cancelled = False
        self._result: T | None = None
        self._error: BaseException | None = None

    @property
    def started(self) -> bool:
        with self._changed:
            return self._started

    @property
    def finished(self) -> bool:
        with self._changed:
            return self._finished

    def _report(self, fraction: float) -> None:
        """The work's progress callback, on the worker's thread: note the fraction, wake the caller."""
        with self._changed:
            if self._cancelled:
                raise SolveCancelled("Nobody waits for this solve any more.")
            self._fraction = float(fraction)
            self._changed.notify_all()

    def _run(self) -> None:
        with self._changed:
            self._started = True
            self._changed.notify_all()
        try:
            result, error = self._work(self._report), None
        except BaseException as failure:    # handed to the caller, who raises it
            result, error = None, failure
        with self._changed:
            self._result, self._error, self._finished = result, error, True
            self._changed.notify_all()

    def result(self, on_progress: Callable[[float], object] | None = None) -> T:
        """Wait for the work in the calling thread and return its result (or raise its error).

        `on_progress(fraction)` runs here, in the caller's thread, each time the work reported a
        new fraction. If the caller stops waiting (an exception, e.g. from `on_progress`), the
        work is asked to stop at its next report."""
        shown: float | None = None
        try:
            while True:
                with self._changed:
                    while not self._finished and self._fraction == shown:
                        self._changed.wait()
                    fraction, finished = self._fraction, self._finished
                if fraction is not None and fraction != shown and on_progress is not None:
                    on_progress(fraction)
                shown = fraction
                if finished:
                    break
        except BaseException:
            with self._changed:
                self._cancelled = True
            raise
        if self._error is not None:
            raise self._error
        return self._result  # type: ignore[return-value]  # finished without an error: the work's own value


class SolvePool:
    """`workers` threads, each at `niceness` below the process's priority, running submitted work in order."""

    def __init__(self, workers: int, niceness: int = 0, name: str = "cfrviz-solve") -> None:
        if workers < 1 or niceness < 0:
            raise ValueError("A solve pool needs at least one worker and a niceness >= 0.")
        self.workers = int(workers)
        self.niceness = int(niceness)
        self._jobs: queue.SimpleQueue[Job[object] | None] = queue.SimpleQueue()
        self._lock = threading.Lock()
        self._busy = 0
        self._native_ids: list[int] = []
        ready = threading.Barrier(self.workers + 1)
        self._threads = [threading.Thread(target=self._serve, args=(ready,), name=f"{name}-{k + 1}", daemon=True)
                         for k in range(self.workers)]
        for thread in self._threads:
            thread.start()
        ready.wait()        # every worker has its id and priority before the first job

    def native_ids(self) -> tuple[int, ...]:
        """The workers' kernel thread ids (`/proc/self/task/<id>`)."""
        with self._lock:
            return tuple(self._native_ids)

    def submit(self, work: Work[T]) -> Job[T]:
        """Queue `work`; a free worker starts it at once, else it waits for one (`Job.queued`)."""
        with self._lock:
            queued = self._busy >= self.workers
            self._busy += 1         # counted from submission, so the next submission sees it
            job: Job[T] = Job(work, queued)
        self._jobs.put(job)         # type: ignore[arg-type]  # the queue holds jobs of any result type
        return job

    def run(self, work: Work[T], on_progress: Callable[[float], object] | None = None,
            on_wait: Callable[[], object] | None = None) -> T:
        """Run `work` on a worker and wait for it here; `on_wait()` first if every worker is busy,
        `on_progress(fraction)` here as the work reports."""
        job = self.submit(work)
        if job.queued and on_wait is not None:
            on_wait()
        return job.result(on_progress)

    def shutdown(self) -> None:
        """Let the workers end once the queued work is done (tests; a server keeps its pool)."""
        for _ in self._threads:
            self._jobs.put(None)
        for thread in self._threads:
            thread.join()

    def _serve(self, ready: threading.Barrier) -> None:
        if sys.platform.startswith("linux") and self.niceness:
            # On Linux a thread id names one thread for setpriority(2): only this worker gets nicer.
            try:
                os.setpriority(os.PRIO_PROCESS, threading.get_native_id(),
                               os.getpriority(os.PRIO_PROCESS, 0) + self.niceness)
            except OSError:
                pass        # a container may forbid it: the work still runs, at the usual priority
        with self._lock:
            self._native_ids.append(threading.get_native_id())
        ready.wait()
        while True:
            job = self._jobs.get()
            if job is None:
                return
            try:
                job._run()
            finally:
                # Waiting for the next job, this frame must not keep the last one's result (a run
                # of up to the solve budget) alive after its caller has let it go.
                job = None
                with self._lock:
                    self._busy -= 1
