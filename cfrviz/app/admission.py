"""Heavy page builds take turns: `PAGE_BUILDS` at once in the server, the other visitors in line,
each told how many wait ahead of them.

What takes a turn: a page's build that is not cached yet and holds the interpreter lock for
long (a timeline payload with a mode's frames or of an uploaded run, a Compare line, a
walkthrough trace). What never does: Home, a step on a timeline, a click on a drawn node, any view
already cached or pinned, and threads that are no visitor's page (the warm-up, downloads).

A heavy solve (one not cached, `cfrviz.app.solving.cached_solve`) takes a turn too, before it
starts, and on the deployed server a turn lasts until the page's script run ends
(`turns_last_whole_runs`): a visitor in line then holds no solved run, so with thirty visitors at
once at most `PAGE_BUILDS` solved runs and their builds are alive, not one per visitor in line.

Why a gate of its own, not jobs on the solve pool (`cfrviz.run.pool`): a build is Python that
holds the interpreter lock (a worker thread would free no core), draws as it goes (progress,
Compare's status) from the session's own thread, and may itself need a solve. A turn is taken
first and a solver slot second, never the other way round, and a solve's leader (the session that
runs it for everyone who asks) holds its turn before it leads, so visitors holding turns who wait
for a solve always wait for one that runs.

Why 2, as the pool's workers (`solving.SOLVE_WORKERS`): the host has 2 cores. With 2 builds at once
a light page's script shares the lock with two builds instead of thirty, and at most two builds'
memory is alive at a time; with 1, one long build (Compare at its cap) would stop every other
heavy page behind it while a core idles during its compiled and NumPy calls.
"""
from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterator
from typing import Any

import streamlit as st
from streamlit.delta_generator import DeltaGenerator
from streamlit import runtime
from streamlit.runtime.scriptrunner_utils.exceptions import StopException
from streamlit.runtime.scriptrunner_utils.script_run_context import get_run_yield_check, get_script_run_ctx

from cfrviz.app.rebinding import rebind
from cfrviz.run.admission import Admission
from cfrviz.solving.worker import out_of_memory

#: Heavy page builds at once in this server process.
PAGE_BUILDS = 2
#: How often, seconds, a visitor in line checks that their page is still wanted (Streamlit's own
#: cache waits check as often), besides waking at once when their place changes.
POLL_SECONDS = 0.1

#: What a visitor reads when the server's memory ran out during their page's build.
NO_ROOM_TO_BUILD = ("The server has no memory free for this page right now (many visitors at once); "
                    "reload it in a minute.")

#: The process's one line of heavy page builds.
ADMISSION = Admission(PAGE_BUILDS)
# Per script thread: where the open `heavy_page` sections draw the line, innermost last.
_pages = threading.local()


def waiting_line(ahead: int) -> str:
    """What a visitor in line reads, with `ahead` builds waiting before theirs."""
    place = "you are next" if ahead == 0 else f"{ahead:,} visitor{'s' if ahead != 1 else ''} ahead"
    return (f"Waiting for a free solver: {place}. The server builds {PAGE_BUILDS} heavy pages at a time; "
            "yours starts as soon as a turn is free.")


@contextlib.contextmanager
def heavy_build() -> Iterator[None]:
    """Hold a turn for a heavy build in this session's script, showing the visitor their place in
    line while they wait (the line goes once the build starts). A visitor who leaves (page switch,
    closed tab, a rerun) leaves the line at the next check: Streamlit stops the script, or the
    session is no longer connected.

    Threads without a page's script run it at once: they are no visitor in line."""
    yield_check = get_run_yield_check()
    ctx = get_script_run_ctx(suppress_warning=True)
    if yield_check is None or ctx is None:
        yield
        return
    session_id = ctx.session_id

    def check() -> None:
        yield_check()
        # A closed tab's session waits out Streamlit's reconnect window disconnected: it leaves the
        # line at once rather than take a turn to build for nobody.
        if not connected(session_id):
            raise StopException()

    shows: list[Callable[[str | None], object]] = getattr(_pages, "shows", [])
    show = shows[-1] if shows else None
    waited = False

    def on_wait(ahead: int) -> None:
        nonlocal show, waited
        if show is None:
            show = _line_here()
        show(waiting_line(ahead))
        waited = True

    with ADMISSION.turn(on_wait, check, POLL_SECONDS):
        if waited and show is not None:
            show(None)          # the build starts: the line goes
        try:
            yield
        except (MemoryError, RuntimeError) as failure:
            if not out_of_memory(failure):
                raise
            # The server's memory ran out during this build: the visitor reads one sentence,
            # never the generic error page, and the page stops; the build is not cached.
            st.error(NO_ROOM_TO_BUILD)
            raise StopException() from None


def connected(session_id: str) -> bool:
    """Whether the session's browser is connected now (always, without a server: AppTest)."""
    return not runtime.exists() or runtime.get_instance().is_active_session(session_id)


def _line_here() -> Callable[[str | None], object]:
    """The line drawn where the build is, as an info box (emptied once the build starts)."""
    box: DeltaGenerator = st.empty()

    def show(text: str | None) -> None:
        if text is None:
            box.empty()
        else:
            box.info(text, icon=":material/hourglass_top:")

    return show


@contextlib.contextmanager
def heavy_page(show: Callable[[str | None], object] | None = None) -> Iterator[None]:
    """A page's heavy section: the first `heavy_build` inside takes a turn that lasts until the
    section ends, so the page waits in line once for all its parts. Takes no turn itself.

    `show(text)` draws the line where the page wants it (e.g. a status label that stays visible;
    `show(None)` once the build starts); by default an info box where the build is."""
    shows: list[Callable[[str | None], object]] = _pages.__dict__.setdefault("shows", [])
    if show is not None:
        shows.append(show)
    try:
        with ADMISSION.scope():
            yield
    finally:
        if show is not None:
            shows.pop()


def turns_last_whole_runs() -> bool:
    """From now on a turn taken during a page's script run lasts until that run ends (each run is
    one `Admission.scope`). The deployed server calls this before it starts (`cfrviz.app.serve`);
    it rebinds the name Streamlit's script runner calls each page's code through, and returns
    False (one log line) when this Streamlit has no such name."""
    return rebind("streamlit.runtime.scriptrunner.script_runner", "exec_func_with_error_handling", _whole_run,
                  "a turn lasts for its own block only.")


def _whole_run(run_page: Callable[..., Any]) -> Callable[..., Any]:
    """`run_page` with each page's run one `Admission.scope`."""

    def in_scope(*args: Any, **kwargs: Any) -> Any:
        with ADMISSION.scope():
            return run_page(*args, **kwargs)

    return in_scope
