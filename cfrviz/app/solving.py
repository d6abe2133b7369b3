"""The solve behind every page: one shared run cache per process, and the kernels' warm-up thread."""
from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable
from typing import Any

import streamlit as st

from cfrviz.catalog import compile_game
from cfrviz.run import Run, RunSettings
from cfrviz.run.cache import RunCache
from cfrviz.solvers._interpreted import expect_background_compile
from cfrviz.tree.locks import Locks

# Kernels compile once per process (or load from numba's on-disk cache). A background thread
# pays for that at start-up, while the first page draws its text; solves meanwhile say so.
_WARM = threading.Event()
_WARM_LOCK = threading.Lock()
_warm_thread: threading.Thread | None = None


def start_warmup() -> None:
    """Start compiling the kernels in the background, once per process (thread-safe).

    Every page calls it; `python -m cfrviz.app.serve` calls it before the server takes visitors."""
    global _warm_thread
    with _WARM_LOCK:
        if _warm_thread is not None:
            return
        _warm_thread = threading.Thread(target=_warm, name="cfrviz-warmup", daemon=True)
        expect_background_compile()     # small solves run interpreted from now on, not once the thread runs
        _warm_thread.start()


def wait_until_warm(timeout: float | None = None) -> bool:
    """Block until the background warm-up has finished (True) or `timeout` seconds passed (False)."""
    return _WARM.wait(timeout)


def is_warm() -> bool:
    """Whether the kernels are ready (the first solve before that also pays for them)."""
    return _WARM.is_set()


def _warm() -> None:
    from cfrviz.app.warmup import warm_up

    try:
        warm_up()
    finally:
        _WARM.set()


# Solves big enough to show a progress bar: node visits of about half a second of vanilla CFR
# (measured about 40 million node visits per second).
_PROGRESS_COST = 20_000_000


#: Per-process budget for solved runs shared by every session (README, "Memory and CPU budget"):
#: the snapshot arrays of at most this many bytes and runs, and this many solves at once.
#: The compiled kernels hold the GIL, so a second solve at once would only take turns with the
#: first while holding another run's worth of memory.
RUN_CACHE_BYTES = 100_000_000
RUN_CACHE_ENTRIES = 24
CONCURRENT_SOLVES = 1


@st.cache_resource(show_spinner=False)
def shared_runs() -> RunCache:
    """The process's one run cache: every session gets the same read-only `Run` for the same solve."""
    return RunCache(RUN_CACHE_BYTES, RUN_CACHE_ENTRIES, CONCURRENT_SOLVES)


def cached_solve(game: str, game_params: tuple[tuple[str, Any], ...], algorithm: str, iterations: int, updates: str,
                 seed: int, locks: Locks | None = None) -> Run:
    """`cfrviz.solve` on plain values, one shared copy per process; shows a progress bar when slow.

    The run is shared with other sessions: read it, never write into it (its arrays are read-only).
    """
    from cfrviz import runner
    def solve() -> Run:
        bar = None
        if float(compile_game(game, **dict(game_params)).num_nodes) * iterations >= _PROGRESS_COST:
            bar = st.progress(0.0, text=f"Solving {iterations:,} iterations…")

        def progress(fraction: float) -> None:
            if bar is None:
                return
            fraction = min(max(float(fraction), 0.0), 1.0)
            bar.progress(fraction, text=f"Solving… {fraction:.0%}")

        run = runner.solve(game, algorithm, iterations=iterations, updates=updates, seed=seed,
                           progress=progress, locks=locks, **dict(game_params))
        if bar is not None:
            bar.empty()
        return run

    return shared_runs().get(_solve_key(game, game_params, algorithm, iterations, updates, seed, locks), solve)


def one_solve_at_a_time(on_wait: Callable[[], None] | None = None) -> contextlib.AbstractContextManager[None]:
    """The process's solve gate, for solves that are not cached runs (Compare's timed solves):
    `with ui.one_solve_at_a_time(): ...`. `on_wait()` runs first when another solve holds it."""
    return shared_runs().solver_slot(on_wait)


def _solve_key(game: str, game_params: tuple[tuple[str, Any], ...], algorithm: str, iterations: int, updates: str,
               seed: int, locks: Locks | None = None) -> tuple[Any, ...]:
    # Locked solves key on their locks too; unlocked keys stay as they were.
    return (game, tuple(game_params), algorithm, int(iterations), updates, int(seed)) + ((locks,) if locks else ())


def shared_run(settings: RunSettings) -> Run:
    """The shared run solved with `settings`: from the cache, or solved again (through the gate)
    if it has left it. Runs without a session, e.g. when a download button is clicked."""
    from cfrviz import runner

    def solve() -> Run:
        return runner.solve(settings.game, settings.algorithm, iterations=settings.iterations,
                            updates=settings.updates, seed=settings.seed, locks=settings.locks,
                            **dict(settings.game_params))

    return shared_runs().get(_solve_key(settings.game, settings.game_params, settings.algorithm,
                                        settings.iterations, settings.updates, settings.seed, settings.locks), solve)
