"""How long a light Python task takes while another thread solves Leduc at the app's iteration cap.

A light page (Home, a timeline step, a click on a drawn node) runs some Python in its session's
thread. If the solve's compiled kernels hold the interpreter lock (GIL), that Python waits for the
kernel's chunk to end; with `nogil` kernels it only shares the cores. The solve runs in the app's
solve pool (`cfrviz.run.pool`, 2 workers at nice 10) when this checkout has it, else in a plain
thread; meanwhile the main thread runs a light task (pure Python, about a millisecond) back to back,
and each task's time is counted from the end of the one before, so a wait for the interpreter lock
between two tasks counts too. The same task is timed first with nothing else running.

    PYTHONPATH=$PWD python scripts/light_task_latency.py [--iterations 25000] [--game leduc]

Run it against two checkouts (PYTHONPATH pointing at each) to compare. Prints a markdown table
and the 1-minute load average: the numbers move with the machine's load, so compare runs made
back to back, and prefer a quiet machine.
"""
from __future__ import annotations

import argparse
import os
import statistics
import threading
import time


def light_task() -> None:
    """Some pure Python a page's rerun does (about a millisecond)."""
    table = {f"node{k}": (k * 0.5, str(k)) for k in range(2_000)}
    sum(len(label) for _, label in table.values())


def timed_tasks(until: threading.Event | None, count: int = 300) -> list[float]:
    """Seconds of each light task, counted from the end of the one before: `count` of them, or
    as many as run until `until` is set."""
    seconds: list[float] = []
    last = time.perf_counter()
    while (len(seconds) < count) if until is None else not until.is_set():
        light_task()
        now = time.perf_counter()
        seconds.append(now - last)
        last = now
    return seconds


def summary(seconds: list[float]) -> str:
    ordered = sorted(seconds)
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
    return (f"{len(seconds):,} | {1e3 * statistics.median(seconds):.2f} | {1e3 * p95:.2f} | "
            f"{1e3 * ordered[-1]:.1f}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="leduc")
    parser.add_argument("--algorithm", default="cfr")
    parser.add_argument("--iterations", type=int, default=25_000, help="the app's cap for Leduc")
    parser.add_argument("--plain-thread", action="store_true",
                        help="solve in a plain thread at the usual priority, even where the pool exists")
    args = parser.parse_args()

    import cfrviz

    cfrviz.solve(args.game, args.algorithm, iterations=2)        # kernels loaded before any timing
    alone = timed_tasks(None)

    done = threading.Event()
    solve_seconds: list[float] = []

    def solve(report: object = None) -> None:
        start = time.perf_counter()
        cfrviz.solve(args.game, args.algorithm, iterations=args.iterations)
        solve_seconds.append(time.perf_counter() - start)
        done.set()

    try:
        from cfrviz.run.pool import SolvePool
    except ImportError:
        SolvePool = None        # type: ignore[assignment,misc]  # a checkout from before the pool
    if SolvePool is not None and not args.plain_thread:
        SolvePool(workers=2, niceness=10).submit(solve)
        where = "solve pool (nice 10)"
    else:
        threading.Thread(target=solve, daemon=True).start()
        where = "plain thread"
    during = timed_tasks(done)

    print(f"Light task while {args.game} {args.algorithm} x {args.iterations:,} solves in a {where} "
          f"({solve_seconds[0]:.1f} s); load average {os.getloadavg()[0]:.2f}\n")
    print("| case | tasks | median ms | p95 ms | max ms |")
    print("| --- | ---: | ---: | ---: | ---: |")
    print(f"| nothing else running | {summary(alone)} |")
    print(f"| during the solve | {summary(during)} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
