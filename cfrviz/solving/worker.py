"""A solve worker: a child process that solves `RunSettings` one after another, under its own memory
cap, and hands each run back as raw arrays (`cfrviz.solving.workers` starts and talks to it).

    python -m cfrviz.solving.worker <address-space bytes>

The server's sessions share one address space; a solve that fills it (Liar's dice at its cap keeps
three 55 MB snapshot arrays and judges them) used to raise `MemoryError`, or "can't start new
thread", in whichever session asked next. Here a solve that does not fit fails in this process
only, which then says so and ends; the server starts another.

The wire, both ways one JSON object a line; after a `run` line the arrays' bytes follow raw, in
the order the line lists them (no pickle, and one copy on each side):
    in:  {"solve": <settings JSON>}            a solve (`RunSettings.to_json`)
         {"cancel": true}                      stop the solve at its next progress report
    out: {"ready": true}                       once, when the kernels are loaded
         {"progress": f}                       now and then during a solve
         {"run": {"arrays": [[name, dtype, shape], ...], "average_strategy_value": v}}  then the bytes
         {"refused": sentence}                 the settings' own ValueError sentence
         {"cancelled": true}                   after a cancel
         {"limit": "memory"}                   the solve did not fit; the worker ends after this line
         {"failed": "Type: message"}           anything else (a bug): the worker ends after this line
"""
from __future__ import annotations

import json
import os
import resource
import select
import sys
from collections.abc import Callable
from typing import Any, BinaryIO

import numpy as np

#: Written with no allocation once memory has run out.
_OUT_OF_MEMORY = b'{"limit": "memory"}\n'
#: How much lower than the server a worker runs (nice). A worker is a process of its own, so a
#: lowered one holds no lock the server waits for: the system runs the server's light reruns (Home,
#: a step, a click) first and gives the solves what is left. (Solve threads at nice 10 inside the
#: server stalled every session: they held the interpreter lock between compiled calls.)
NICENESS = 10
#: Every array a run's record holds, in the order they go over the wire.
RUN_ARRAYS = ("iterations", "cumulative_regret", "current_strategy", "average_strategy", "reach", "value",
              "expected_value", "exploitability", "nodes_touched", "seconds", "current_exploitability")


class Cancelled(Exception):
    """The server stopped waiting for this solve (its page went away)."""


def set_address_space(limit: int) -> None:
    """Cap this process's address space at `limit` bytes (never above a cap it inherited), no core files."""
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    _, inherited = resource.getrlimit(resource.RLIMIT_AS)
    if inherited != resource.RLIM_INFINITY:
        limit = min(limit, inherited)
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def out_of_memory(error: BaseException) -> bool:
    """Whether `error` says memory ran out: MemoryError, or a thread whose stack could not be mapped."""
    return isinstance(error, MemoryError) or (isinstance(error, RuntimeError) and "can't start new thread" in str(error))


class Lines:
    """JSON lines read from a descriptor by `os.read`, so that `pending()` sees what is not yet read
    (a buffered reader may already hold a cancel that `select` no longer reports)."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self._buffer = b""

    def pending(self) -> bool:
        """Whether a whole line can be read without blocking."""
        if b"\n" not in self._buffer and select.select([self.fd], [], [], 0)[0]:
            self._fill()
        return b"\n" in self._buffer

    def read(self) -> dict[str, Any] | None:
        """The next object, blocking; None at the end of the input (the server has gone)."""
        while b"\n" not in self._buffer:
            if not self._fill():
                return None
        line, _, self._buffer = self._buffer.partition(b"\n")
        message = json.loads(line)
        return message if isinstance(message, dict) else {}

    def _fill(self) -> bool:
        chunk = os.read(self.fd, 65536)
        self._buffer += chunk
        return bool(chunk)


def write_message(out: BinaryIO, message: dict[str, Any]) -> None:
    out.write(json.dumps(message, separators=(",", ":")).encode() + b"\n")
    out.flush()


def write_run(out: BinaryIO, arrays: dict[str, np.ndarray], average_strategy_value: float) -> None:
    """The `run` line, then each array's bytes as they lie in memory (C order). Each array leaves
    `arrays` once written: when the caller holds no other reference it is freed then, so this
    process and the server do not both hold the whole run at once."""
    write_message(out, {"run": {"arrays": [[name, arrays[name].dtype.str, list(arrays[name].shape)]
                                           for name in RUN_ARRAYS],
                                "average_strategy_value": average_strategy_value}})
    for name in RUN_ARRAYS:
        array = np.ascontiguousarray(arrays.pop(name))
        out.write(array.reshape(-1).view(np.uint8).data)
        del array
    out.flush()


def serve(requests: Lines, out: BinaryIO, solve: Callable[[str, Callable[[float], None]], Any]) -> int:
    """Answer solves until the input ends (0) or a solve ran out of memory or failed (1: the server
    replaces this worker rather than trust what such a failure left behind)."""
    while True:
        request = requests.read()
        if request is None:
            return 0
        if "solve" not in request:
            continue            # a cancel that came after its solve had ended
        def report(fraction: float) -> None:
            if requests.pending():
                if "cancel" in (requests.read() or {}):
                    raise Cancelled()
            write_message(out, {"progress": float(fraction)})
        try:
            run = solve(str(request["solve"]), report)
            arrays = {name: getattr(run, name) for name in RUN_ARRAYS}
            value = float(run.average_strategy_value)
            del run             # the arrays alone now, each freed once sent
            write_run(out, arrays, value)
        except Cancelled:
            write_message(out, {"cancelled": True})
        except ValueError as refusal:
            write_message(out, {"refused": str(refusal)})
        except BaseException as error:
            if out_of_memory(error):
                out.write(_OUT_OF_MEMORY)
                out.flush()
            else:
                write_message(out, {"failed": f"{type(error).__name__}: {str(error)[:300]}"})
            return 1


def _solve(text: str, report: Callable[[float], None]) -> Any:
    from cfrviz.run import RunSettings
    from cfrviz.solving.entry import solve_settings

    return solve_settings(RunSettings.from_json(text), progress=report)


def _load_kernels() -> None:
    """Load the kernels the sidebar's default solve uses from numba's on-disk cache (the server's
    warm-up filled it) before the first visitor's solve; others load on their first use."""
    from cfrviz.solving.entry import solve

    solve("kuhn", "cfr", iterations=2)


def main(argv: list[str]) -> int:
    # The answers have stdout to themselves: anything printed (numba's warnings) goes to stderr.
    out = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    set_address_space(int(argv[0]))
    os.nice(NICENESS)
    try:
        _load_kernels()
    except BaseException as error:
        write_message(out, {"failed": f"{type(error).__name__}: {str(error)[:300]}"})
        return 1
    write_message(out, {"ready": True})
    return serve(Lines(sys.stdin.fileno()), out, _solve)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
