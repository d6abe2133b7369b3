"""The solve behind every page: one shared run cache and solve pool per process, the solve worker
processes of a deployed server (`use_solve_workers`), the kernels' warm-up thread, and the first
visit's views solved and pinned at server start."""
from __future__ import annotations

import contextlib
import functools
import threading
from collections.abc import Callable, Iterator
from typing import TypeVar

import streamlit as st
from streamlit.delta_generator import DeltaGenerator
from streamlit.runtime.scriptrunner_utils.script_run_context import get_script_run_ctx

from cfrviz.app.admission import heavy_build
from cfrviz.app.widgets import error
from cfrviz.run import Run, RunSettings
from cfrviz.util import idle
from cfrviz.run.cache import RunCache
from cfrviz.run.pool import SolvePool
from cfrviz.solvers._interpreted import expect_background_compile
from cfrviz.solving.workers import NO_MEMORY, SolveRefused, SolveWorkers, travels
from cfrviz.solving.worker import out_of_memory

T = TypeVar("T")

# Kernels compile once per process (or load from numba's on-disk cache). A background thread
# pays for that at start-up, while the first page draws its text; solves meanwhile say so.
_WARM = threading.Event()
_WARM_LOCK = threading.Lock()
_warm_thread: threading.Thread | None = None
# Set once a page has sent its first drawing. On a 2-core machine the compiling child slowed the
# first visitor's page even at a lower priority (the default Kuhn solve took 0.7-0.8 s instead of
# 0.3-0.4 s, measured side by side), and that page needs no compiled kernel: small solves run
# interpreted. So a server started by `streamlit run` compiles once the first page is out.
_FIRST_DRAWING = threading.Event()
#: Longest wait, seconds, for a first page's drawing before compiling anyway (a page without one).
FIRST_DRAWING_WAIT = 8.0
# Set once the views a first visit gets are solved and pinned in the shared run cache.
_DEFAULTS = threading.Event()


def start_warmup(pin_also: Callable[[], None], *, after_first_drawing: bool = True) -> None:
    """Start compiling the kernels in the background, once per process (thread-safe), then solve
    and pin the first visit's views (`_presolve_defaults`), `pin_also` last.

    Every page calls it, and the compile then waits for the first page's drawing
    (`first_drawing_sent`, at most `FIRST_DRAWING_WAIT` seconds); `python -m cfrviz.app.serve`
    calls it with `after_first_drawing=False` before the server takes visitors. `pin_also` is
    `cfrviz.app.page_results.pin_first_views`, passed in because that module builds on this one."""
    global _warm_thread
    with _WARM_LOCK:
        if _warm_thread is not None:
            return
        _warm_thread = threading.Thread(target=_warm, args=(after_first_drawing, pin_also), name="cfrviz-warmup", daemon=True)
        expect_background_compile()     # small solves run interpreted from now on, not once the thread runs
        _warm_thread.start()


def first_drawing_sent() -> None:
    """Say that a page has sent its first drawing: the warm-up may start compiling now."""
    _FIRST_DRAWING.set()


def wait_until_warm(timeout: float | None = None) -> bool:
    """Block until the background warm-up has finished (True) or `timeout` seconds passed (False)."""
    return _WARM.wait(timeout)


def is_warm() -> bool:
    """Whether the kernels are ready (the first solve before that also pays for them)."""
    return _WARM.is_set()


def wait_for_defaults(timeout: float | None = None) -> bool:
    """Block until the first visit's views are solved and pinned (True) or `timeout` seconds passed."""
    return _DEFAULTS.wait(timeout)


def _warm(after_first_drawing: bool, pin_also: Callable[[], None]) -> None:
    from cfrviz.app.warmup import warm_up

    try:
        try:
            if after_first_drawing:
                _FIRST_DRAWING.wait(FIRST_DRAWING_WAIT)
            warm_up()
        finally:
            _WARM.set()
        _presolve_defaults(pin_also)
    finally:
        _DEFAULTS.set()


def default_settings() -> tuple[RunSettings, ...]:
    """The solves a first visit of each page asks the shared cache for: the sidebar's default
    (Home, Game tree, Evolution, Convergence, Best response, Play, and Compare's sidebar line).
    Regret matching, the Walkthrough and Compare keep their own first views in
    `cfrviz.app.page_results`, pinned at start too (`_presolve_defaults`)."""
    from cfrviz.app.links import DEFAULT_CHOICE

    return (DEFAULT_CHOICE.settings(),)


def _presolve_defaults(pin_also: Callable[[], None]) -> None:
    """Solve the first visit's views once per server start, in the pool, and pin them: no visitor
    pays for them and the caches never let them go. The sidebar's default first (Home's, and
    Compare's sidebar line), then the pages' own (`pin_also`): Regret matching, the Walkthrough, Compare."""
    for settings in default_settings():     # Home's first: the sidebar's run most pages draw
        # Solved in this process: the first views are kept here for good anyway, and no worker
        # process is started before a visitor asks for a solve (the idle server holds none).
        shared_runs().get(settings, functools.partial(_pooled_solve, settings, here=True), pin=True)
    pin_also()


def _pooled_solve(settings: RunSettings, *, here: bool = False) -> Run:
    """`_solve(settings)` on a pool worker, waited for here (no progress shown); `here`: in this
    process even when there are solve worker processes."""
    return solve_pool().run(lambda report: _solve(settings, here=here))


# Solves big enough to show a progress bar: node visits of about half a second of vanilla CFR
# (measured about 40 million node visits per second).
_PROGRESS_COST = 20_000_000


#: Worker threads that run the solves (with solve worker processes, each thread waits for one of
#: them, `SOLVE_WORKERS` processes too). The kernels release the interpreter lock (`nogil`), so each
#: worker can keep one core busy while the sessions' threads still draw pages; the host has 2 cores,
#: and a third solve at once would only slow the other two while holding another run's memory.
SOLVE_WORKERS = 2
#: How much lower the solve pool's THREADS run than the server (`nice`). None: a thread runs Python
#: between its compiled calls (recording snapshots, judging them), holding the interpreter lock, and
#: a lowered thread that holds it is the one the system runs least, so every session waited behind it
#: (a class of 30 saw Home's first chart at 40 to 100 s with 10). The worker PROCESSES a deployed
#: server solves in lower themselves instead (`cfrviz.solving.worker.NICENESS`): they share no lock.
SOLVE_NICENESS = 0

#: Per-process budget for solved runs shared by every session (README, "Memory and CPU budget"):
#: the snapshot arrays of at most this many bytes and runs, and this many solves at once (one per
#: worker; Compare's timed solves take the same slots). The pinned default views come on top.
RUN_CACHE_BYTES = 100_000_000
RUN_CACHE_ENTRIES = 24
CONCURRENT_SOLVES = SOLVE_WORKERS

#: Address-space cap of each solve worker process (`use_solve_workers`): about 480 MB is the
#: interpreter with NumPy and the loaded kernels, the rest one solve at the memory budget
#: (`cfrviz.util.memory`, 200 MB of snapshots; a locked solve holds two runs) and its judging.
WORKER_ADDRESS_SPACE = 1536 * 2**20

_SHARED_LOCK = threading.Lock()
_shared: RunCache | None = None
_pool: SolvePool | None = None
_workers: SolveWorkers | None = None


def use_solve_workers(count: int = SOLVE_WORKERS, address_space: int = WORKER_ADDRESS_SPACE) -> SolveWorkers:
    """From now on, cached solves run in `count` worker processes capped at `address_space` bytes each
    (`cfrviz.solving.workers`), once the kernels are warm: a solve that does not fit fails in its
    worker, which is replaced, and its visitor reads one sentence. The deployed server
    (`cfrviz.app.serve`) calls this; without it (AppTest, `streamlit run`) solves run in this process.
    The workers end when the last visitor has gone and start again with the next solve."""
    global _workers
    with _SHARED_LOCK:
        if _workers is None:
            _workers = SolveWorkers(count, address_space)
            idle.on_idle("solve workers", _workers.close)
        return _workers


def shared_runs() -> RunCache:
    """The process's one run cache: every session gets the same read-only `Run` for the same solve."""
    global _shared
    with _SHARED_LOCK:
        if _shared is None:
            _shared = RunCache(RUN_CACHE_BYTES, RUN_CACHE_ENTRIES, CONCURRENT_SOLVES)
            idle.on_idle("runs", _shared.clear_unpinned)    # the pinned default views stay
        return _shared


def solve_pool() -> SolvePool:
    """The process's solve pool: `SOLVE_WORKERS` threads at `SOLVE_NICENESS`, made on first use."""
    global _pool
    with _SHARED_LOCK:
        if _pool is None:
            _pool = SolvePool(SOLVE_WORKERS, SOLVE_NICENESS)
        return _pool


def cached_solve(settings: RunSettings) -> Run:
    """The run `settings` name, solved once per process and shared by every session; shows a progress
    bar when the solve is slow. The run is shared: read it, never write into it (its arrays are read-only).
    The settings go to the runner whole: their `GameSpec` is used as it is, nothing is resolved again.
    """
    # Drawn here, in the session's thread; the solve runs on a pool worker and only reports fractions.
    waiting: list[DeltaGenerator] = []

    def on_wait() -> None:
        waiting.append(st.info(f"Other visitors' solves are running ({CONCURRENT_SOLVES} at a time); "
                               "yours starts when one of them ends.", icon=":material/hourglass_top:"))

    def solve() -> Run:
        if _cost(settings) < _PROGRESS_COST:
            return _pooled_solve(settings)
        bar = st.progress(0.0, text=f"Solving {settings.iterations:,} iterations…")

        def progress(fraction: float) -> None:
            fraction = min(max(float(fraction), 0.0), 1.0)
            bar.progress(fraction, text=f"Solving… {fraction:.0%}")

        run = solve_pool().run(lambda report: _solve(settings, report), on_progress=progress)
        bar.empty()
        return run

    try:
        runs = shared_runs()
        if runs.holds(settings) or _cost(settings) < _PROGRESS_COST:
            return runs.get(settings, solve, on_wait)
        # A heavy solve takes a page's turn before it starts (`heavy_build`; on the deployed server
        # the turn lasts until the page's script ends): a visitor in line holds no solved run while
        # waiting, so at most `PAGE_BUILDS` solved runs and their builds are alive at once.
        with heavy_build():
            return runs.get(settings, solve, on_wait)
    except SolveRefused as refused:
        # Memory ran out (in a worker, or here): one sentence wherever the page asked, and the
        # page stops as after any refusal; the run is not cached, so a retry solves again.
        if get_script_run_ctx(suppress_warning=True) is None:
            raise
        error(str(refused))
        st.stop()
        raise       # st.stop() raised already: this line is for the type checker
    finally:
        for message in waiting:
            message.empty()     # the solve has started and ended: the wait is over


def _cost(settings: RunSettings) -> float:
    """A solve's work: histories times iterations."""
    return float(settings.spec.tree().num_nodes) * settings.iterations


def _solve(settings: RunSettings, progress: Callable[[float], object] | None = None, *, here: bool = False) -> Run:
    """`cfrviz.solving.solve_settings(settings)`: the settings whole, their `GameSpec` as it is; in a
    worker process when there are workers (`use_solve_workers`), the kernels are warm and the
    settings travel. Memory running out here is one sentence too (`SolveRefused`), not the
    generic error page."""
    from cfrviz import solving

    workers = _workers
    if workers is not None and not here and is_warm() and travels(settings):
        return workers.solve(settings, progress)
    try:
        return solving.solve_settings(settings, progress=progress)
    except (MemoryError, RuntimeError) as failure:
        if out_of_memory(failure):
            raise SolveRefused(NO_MEMORY) from None
        raise


@contextlib.contextmanager
def one_solve_at_a_time(on_wait: Callable[[], None] | None = None) -> Iterator[Callable[[Callable[[], T]], T]]:
    """The process's solve gate, for solves that are not cached runs (Compare's timed solves):
    `with ui.one_solve_at_a_time() as in_pool: in_pool(work)` holds one of the `CONCURRENT_SOLVES`
    slots the cached solves take too and runs `work()` on the solve pool, waiting for it here.
    `on_wait()` runs first when every slot is taken."""
    with shared_runs().solver_slot(on_wait):
        yield _in_pool


def _in_pool(work: Callable[[], T]) -> T:
    """`work()` on a pool worker, waited for here."""
    return solve_pool().run(lambda report: work())


def shared_run(settings: RunSettings) -> Run:
    """The shared run solved with `settings`: from the cache, or solved again (through the gate,
    in the pool) if it has left it. Runs without a session, e.g. when a download button is
    clicked, so it draws no progress bar."""
    return shared_runs().get(settings, functools.partial(_pooled_solve, settings))
