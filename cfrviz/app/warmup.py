"""Compile every numba kernel ahead of the first visitor, without making the first visitor wait.

A fresh process pays for compiling (or loading from numba's on-disk cache) each kernel the first
time it runs: 10 to 25 s of CPU when nothing is cached. `compile_kernels()` pays that in the
calling process: a deploy runs it at build time (`python -m cfrviz.app.warmup`), which fills the
on-disk cache. The app's warm-up thread runs `warm_up()` instead: a child process compiles the
kernels into the on-disk cache, at a lower priority and outside the server's interpreter lock, so
the first visitor's solve goes first; meanwhile small solves run the kernels' source interpreted
(`cfrviz.solvers._interpreted`, the same numbers); then the server loads the compiled kernels from
the cache, and they take over. Pure: no Streamlit.
"""
from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path

from cfrviz.solvers import ALGORITHMS, Algorithm, UpdateScheme
from cfrviz.solvers._interpreted import background_compile

__all__ = ["CHILD_NICENESS", "CHILD_TIMEOUT", "compile_kernels", "warm_up"]

#: How much lower the compiling child's CPU priority is than the server's (`nice`).
CHILD_NICENESS = 10
#: Longest wait for the compiling child, seconds; after it the server compiles what is left itself.
CHILD_TIMEOUT = 600.0

_ROOT = Path(__file__).resolve().parents[2]


def compile_kernels() -> float:
    """Run every algorithm, every update scheme and the analysis on tiny games; returns seconds.

    Kernels compile per argument type, not per game, so 3-card Kuhn (and rock-paper-scissors
    for regret matching) reach every compiled path. Safe to call again: later calls are quick.
    """
    import numpy as np

    from cfrviz import solving
    from cfrviz.app.links import DEFAULT_CHOICE
    from cfrviz.solvers import update_schemes
    from cfrviz.solvers.matrix import regret_matching_path

    start = time.perf_counter()
    # The sidebar's default solve (and its snapshot judging) first: numba compiles one kernel at a
    # time, so a first visitor's solve waits only for these, not for every other algorithm's.
    first = DEFAULT_CHOICE
    solving.solve(first.spec, first.algorithm, iterations=2, updates=first.updates, seed=0)
    for algorithm in ALGORITHMS:
        game = "rps" if algorithm == Algorithm.REGRET_MATCHING else "kuhn"
        for updates in update_schemes(algorithm):
            if (game, algorithm, updates) != (first.spec.name, first.algorithm, first.updates):
                solving.solve(game, algorithm, iterations=2, updates=updates, seed=0)
    from cfrviz.analysis.inspector import frame_numbers  # the Game tree page's numbers for every frame

    frame_numbers(solving.solve("kuhn", "cfr", iterations=2, updates=UpdateScheme.ALTERNATING), [0, 1])
    payoffs = np.array([[0.0, -1.0, 1.0], [1.0, 0.0, -1.0], [-1.0, 1.0, 0.0]])
    for sampled in (False, True):
        regret_matching_path(payoffs, 2, sampled=sampled)
        regret_matching_path(payoffs, 2, opponent=np.full(3, 1 / 3), sampled=sampled)
    return time.perf_counter() - start


def compile_in_child(timeout: float = CHILD_TIMEOUT) -> bool:
    """Compile every kernel into numba's on-disk cache in a child process at lower priority; True
    when it finished in time. The child shares this process's environment (and so its cache), and
    ends when this process does: it watches its stdin, a pipe only this process holds open."""
    child = subprocess.Popen([sys.executable, "-m", "cfrviz.app.warmup", "--nice", str(CHILD_NICENESS),
                              "--exit-with-parent"],
                             cwd=_ROOT, env={**os.environ, "PYTHONPATH": os.pathsep.join(
                                 [str(_ROOT), *filter(None, [os.environ.get("PYTHONPATH")])])},
                             stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        return child.wait(timeout) == 0
    except subprocess.TimeoutExpired:
        child.kill()
        child.wait()
        return False
    finally:
        assert child.stdin is not None
        child.stdin.close()


def warm_up() -> float:
    """The app's warm-up: compile in a child process, then load the kernels here; returns seconds.

    Meanwhile small solves in other threads run interpreted (`background_compile`). If the child
    fails, this process compiles what it needs itself, as before.
    """
    start = time.perf_counter()
    with background_compile():
        compile_in_child()
        compile_kernels()
    return time.perf_counter() - start


def _exit_when_stdin_closes() -> None:
    sys.stdin.buffer.read()         # returns at end of file: the parent has closed the pipe or ended
    os._exit(1)


def main(argv: list[str] | None = None) -> int:
    """`python -m cfrviz.app.warmup [--nice N] [--exit-with-parent]`: compile every kernel into numba's cache."""
    import argparse

    parser = argparse.ArgumentParser(description="Compile every cfrviz kernel into numba's on-disk cache.")
    parser.add_argument("--nice", type=int, default=0, help="lower this process's CPU priority by N first")
    parser.add_argument("--exit-with-parent", action="store_true",
                        help="end when stdin closes (the server that started this process has ended)")
    args = parser.parse_args(argv)
    if args.nice > 0:
        os.nice(args.nice)
    if args.exit_with_parent:
        threading.Thread(target=_exit_when_stdin_closes, name="cfrviz-warmup-parent", daemon=True).start()
    print(f"cfrviz kernels ready in {compile_kernels():.1f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
