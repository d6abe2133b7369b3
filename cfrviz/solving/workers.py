"""Solves in worker processes, each under its own memory cap, their runs coming back as arrays.

`SolveWorkers(count, address_space)` keeps up to `count` children running `cfrviz.solving.worker`
(started with `subprocess`, never forked from the threaded server). `solve(settings, report)` takes
a free child, sends it the settings, relays its progress to `report` and reads the run's arrays
straight into new NumPy arrays (one copy, no pickle); the `Run` is rebuilt here on this process's
own tree of the settings' game. A solve that does not fit the child's cap ends in `SolveRefused`,
one sentence for the visitor, and the child is replaced; so is a child that died.

Call `solve` from a thread that may block (the solve pool's workers): it waits for the child.
`report` may raise (the page went away): the child is told to stop at its next report, and the
child stays in service once it has said so.
"""
from __future__ import annotations

import io
import json
import os
import queue
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any, cast

import numpy as np

from cfrviz.run import Run, RunSettings
from cfrviz.solving.worker import RUN_ARRAYS

__all__ = ["SolveRefused", "SolveWorkers", "travels"]

_ROOT = Path(__file__).resolve().parents[2]
#: The refusal a visitor reads when their solve did not fit a worker's memory.
NO_MEMORY = ("This solve needs more memory than the server can give one visitor right now; try again in a "
             "minute, or with fewer iterations.")
#: The refusal when a worker ended without an answer (killed, crashed).
WORKER_LOST = "The server's solver stopped during this solve; try again in a moment."


class SolveRefused(ValueError):
    """A solve the workers could not finish, as one sentence for the visitor (the page shows
    ValueErrors as they show a bad setting: one sentence, nothing lost)."""


def travels(settings: RunSettings) -> bool:
    """Whether `settings` reach a worker as they are: their JSON names the same solve (a game given
    as a Python object, which no catalog entry rebuilds, is solved in the server instead)."""
    if settings.spec.entry.name == "custom":      # a tree this process was handed, not rebuilt from text
        return False
    try:
        return RunSettings.from_json(settings.to_json()) == settings
    except (ValueError, TypeError):
        return False


class _Child:
    """One worker process and the pipes to it."""

    def __init__(self, address_space: int) -> None:
        env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(_ROOT), *filter(None, [os.environ.get("PYTHONPATH")])])}
        self.process = subprocess.Popen([sys.executable, "-m", "cfrviz.solving.worker", str(int(address_space))],
                                        cwd=_ROOT, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=None, bufsize=0)
        assert self.process.stdin is not None and self.process.stdout is not None
        self.requests: IO[bytes] = self.process.stdin
        self.answers = io.BufferedReader(cast(io.RawIOBase, self.process.stdout), 1 << 20)
        self.ready = False
        #: Whether its last exchange ended as the wire says (it may serve again).
        self.clean = True

    def send(self, message: dict[str, Any]) -> None:
        view = memoryview(json.dumps(message, separators=(",", ":")).encode() + b"\n")
        while view:     # an unbuffered pipe may take part of a long line (an .efg game's settings)
            view = view[self.requests.write(view) or 0:]

    def read(self) -> dict[str, Any]:
        """The next answer line; ChildProcessError when the child has ended."""
        line = self.answers.readline()
        if not line:
            raise ChildProcessError("the solve worker ended")
        message = json.loads(line)
        if not isinstance(message, dict):
            raise ChildProcessError("the solve worker answered something other than an object")
        return message

    def read_into(self, array: np.ndarray) -> None:
        view = array.reshape(-1).view(np.uint8).data
        while view:
            got = self.answers.readinto(view)
            if not got:
                raise ChildProcessError("the solve worker ended during a run's arrays")
            view = view[got:]

    def stop(self) -> None:
        """End the child (it may be in the middle of a solve) and reap it."""
        try:
            self.process.kill()
        except OSError:
            pass
        for pipe in (self.requests, self.answers):
            try:
                pipe.close()
            except OSError:
                pass
        self.process.wait()


class SolveWorkers:
    """Up to `count` solve worker processes, each capped at `address_space` bytes. Thread-safe."""

    def __init__(self, count: int, address_space: int) -> None:
        if count < 1 or address_space < 1:
            raise ValueError("Solve workers need at least one worker and a positive memory cap.")
        self.count = int(count)
        self.address_space = int(address_space)
        self._free: queue.LifoQueue[_Child | None] = queue.LifoQueue()
        for _ in range(self.count):
            self._free.put(None)        # a place for a child, started on first use
        self._lock = threading.Lock()
        self._started = 0
        self._children: set[_Child] = set()

    def started(self) -> int:
        """How many worker processes were started so far (replacements included)."""
        with self._lock:
            return self._started

    def pids(self) -> tuple[int, ...]:
        with self._lock:
            return tuple(child.process.pid for child in self._children)

    def solve(self, settings: RunSettings, report: Callable[[float], object] | None = None) -> Run:
        """`settings` solved in a worker, the run rebuilt here; SolveRefused (one sentence) when it did
        not fit or its worker was lost, the settings' own ValueError when they are refused."""
        child = self._free.get()
        try:
            if child is not None and child.process.poll() is not None:
                self._retire(child)         # ended while idle (killed): start another, nobody lost a solve
                child = None
            if child is None:
                child = self._start()
            return self._solve_in(child, settings, report)
        except _Refused as refused:
            raise ValueError(str(refused)) from None
        except (ChildProcessError, OSError, json.JSONDecodeError) as lost:
            print(f"cfrviz: a solve worker was lost ({lost}); starting another", file=sys.stderr, flush=True)
            raise SolveRefused(WORKER_LOST) from None
        except MemoryError:
            # This process had no room for the run the worker sent (its own address space is full).
            print("cfrviz: no room in the server for a run a solve worker sent; the visitor was told",
                  file=sys.stderr, flush=True)
            raise SolveRefused(NO_MEMORY) from None
        finally:
            if child is not None and not child.clean:
                self._retire(child)
                child = None
            self._free.put(child)

    def close(self) -> None:
        """End every worker process (tests; a server keeps its workers)."""
        with self._lock:
            children = list(self._children)
            self._children.clear()
        for child in children:
            child.stop()

    def _start(self) -> _Child:
        child = _Child(self.address_space)
        with self._lock:
            self._started += 1
            self._children.add(child)
        return child

    def _retire(self, child: _Child) -> None:
        with self._lock:
            self._children.discard(child)
        child.stop()

    def _solve_in(self, child: _Child, settings: RunSettings, report: Callable[[float], object] | None) -> Run:
        """The run; `child.clean` says afterwards whether the child may serve again."""
        child.clean = False
        if not child.ready:
            answer = child.read()
            if "ready" not in answer:
                raise ChildProcessError(f"it did not start: {answer.get('failed', answer)}")
            child.ready = True
        child.send({"solve": settings.to_json()})
        while True:
            answer = child.read()
            if "progress" in answer:
                if report is not None:
                    try:
                        report(float(answer["progress"]))
                    except BaseException:
                        self._cancel(child)
                        child.clean = True
                        raise
                continue
            if "run" in answer:
                run = self._run(child, settings, answer["run"])
                child.clean = True
                return run
            if "refused" in answer:
                child.clean = True
                raise _Refused(str(answer["refused"]))
            if answer.get("limit") == "memory":
                print(f"cfrviz: a solve did not fit a worker's {self.address_space / 2**30:g} GB address space; "
                      "the visitor was told", file=sys.stderr, flush=True)
                raise SolveRefused(NO_MEMORY)
            raise ChildProcessError(str(answer.get("failed", answer)))

    def _cancel(self, child: _Child) -> None:
        """Ask the child to stop and wait for its word (progress lines may come first)."""
        child.send({"cancel": True})
        while True:
            answer = child.read()
            if "cancelled" in answer or "refused" in answer:
                return
            if "run" in answer:       # it finished before the cancel arrived: read and drop the run
                self._run(child, None, answer["run"])
                return
            if "progress" not in answer:
                raise ChildProcessError("the solve worker ended while stopping")

    def _run(self, child: _Child, settings: RunSettings | None, described: dict[str, Any]) -> Run:
        """The arrays that follow a `run` line, each read into its own array here."""
        arrays: dict[str, np.ndarray] = {}
        listed = [(str(name), np.dtype(str(dtype)), tuple(int(n) for n in shape))
                  for name, dtype, shape in described["arrays"]]
        if [name for name, _, _ in listed] != list(RUN_ARRAYS):
            raise ChildProcessError("the solve worker sent arrays other than a run's")
        for name, dtype, shape in listed:
            # A MemoryError here (this process has no room for the run) leaves the child mid-way
            # through its bytes: it is retired, and the visitor told.
            arrays[name] = np.empty(shape, dtype)
            child.read_into(arrays[name])
        if settings is None:
            return None  # type: ignore[return-value]  # only drained (a cancelled solve's run)
        return Run(settings=settings, tree=settings.spec.tree(),
                   average_strategy_value=float(described["average_strategy_value"]), **arrays)


class _Refused(ValueError):
    """The settings' own refusal, the worker unharmed."""
