"""Start the app with its kernels warming at once: `python -m cfrviz.app.serve [streamlit options]`.

`streamlit run app.py` runs no code until the first visitor arrives, so that visitor pays for
importing numba and loading (or compiling) every kernel. This entry point imports the app's
modules and starts `cfrviz.app`'s warm-up thread in the server process first (it loads the kernels,
then solves the views a first visit gets and pins them in the shared run cache), asks for solve
worker processes (`cfrviz.app.solving.use_solve_workers`: visitors' solves, each worker under its
own memory cap), then hands over
to Streamlit's own command line in the same process: the page scripts, which run in this process,
find everything loaded. Options after the command go to `streamlit run` unchanged.
"""
from __future__ import annotations

import importlib
import os
import signal
import sys
import threading
import time
import types
from pathlib import Path
from types import ModuleType
from typing import Any

from cfrviz.app import outbound_guard, websocket_limits
from cfrviz.util import idle

#: Set to 1 for a memory report at each idle release, or to N > 1 for that and tracemalloc's N top growths.
MEMORY_REPORT = "CFRVIZ_MEMORY_REPORT"
#: With MEMORY_REPORT set, this signal asks for a report now (scripts/load_class.py sends it at the
#: class's height, when every visitor's pages are open: what the sessions hold, not what is left after).
REPORT_SIGNAL = signal.SIGUSR1
APP = Path(__file__).resolve().parents[2] / "app.py"
#: What the pages import on their first visit (pandas and plotly through the figure modules, SciPy's
#: LP solver, networkx): loaded here, last, so that no visitor of a deployed server waits for them
#: and the server's memory at rest is what it keeps after its first visitors.
PAGE_MODULES = ("cfrviz.figures.convergence", "cfrviz.figures.evolution", "cfrviz.figures.compare",
                "cfrviz.figures.best_response", "cfrviz.figures.play",
                "cfrviz.analysis.lp", "networkx")


def _report(ui: ModuleType) -> None:
    """One line on stderr when the kernels are ready (deploy logs; the benchmark waits for it), and
    one when the default views are solved."""
    from cfrviz.app.solving import wait_for_defaults

    start = time.perf_counter()
    ui.wait_until_warm()
    print(f"cfrviz: kernels ready {time.perf_counter() - start:.1f} s after start-up", file=sys.stderr, flush=True)
    wait_for_defaults()
    print(f"cfrviz: default views solved {time.perf_counter() - start:.1f} s after start-up", file=sys.stderr,
          flush=True)
    for module in PAGE_MODULES:
        importlib.import_module(module)
    print(f"cfrviz: page modules loaded {time.perf_counter() - start:.1f} s after start-up", file=sys.stderr,
          flush=True)
    if memory_report_asked():
        _start_memory_report()


def memory_report_asked() -> bool:
    """Whether CFRVIZ_MEMORY_REPORT asks for the memory report (unset or 0: no)."""
    return os.environ.get(MEMORY_REPORT, "").strip() not in ("", "0")


def _start_memory_report() -> None:
    """Debugging what the process keeps once a class has left (off unless CFRVIZ_MEMORY_REPORT is set):
    now and at every idle release, after the heap is trimmed, write to stderr where the resident
    memory is (anonymous or file-backed), what glibc's malloc holds in use and free, the threads,
    every array or byte string of 1 MB or more with what holds it, and Python's small-object arenas;
    with CFRVIZ_MEMORY_REPORT=N > 1 also the N allocation sites that grew most since now
    (tracemalloc, which slows the server severalfold: a measurement, never a deployment)."""
    import tracemalloc

    top = int(os.environ[MEMORY_REPORT]) if os.environ[MEMORY_REPORT].strip().isdigit() else 1
    baseline = None
    if top > 1:
        tracemalloc.start(12)
        baseline = tracemalloc.take_snapshot()
    idle.after_release(lambda: _memory_report(baseline, top))
    _ASKED_REPORT.append(lambda: _memory_report(baseline, top))
    _memory_report(None, 0)         # the idle numbers, to compare with
    print(f"cfrviz: memory report at each idle release{' with tracemalloc' if baseline else ''}", file=sys.stderr,
          flush=True)


#: The report the signal writes, once _start_memory_report has taken its baseline.
_ASKED_REPORT: list[Any] = []


def _report_on_signal(signum: int, frame: object) -> threading.Thread | None:
    """REPORT_SIGNAL's handler: the report on a thread of its own (returned), so the server's event loop
    (the main thread, where Python runs handlers) goes on meanwhile."""
    if not _ASKED_REPORT:
        return None
    reporter = threading.Thread(target=_ASKED_REPORT[0], name="cfrviz-memory-report", daemon=True)
    reporter.start()
    return reporter


def _memory_report(baseline: Any, top: int) -> None:
    import gc
    import tracemalloc
    from collections import Counter

    lines = ["cfrviz memory report:"]
    rollup = Path("/proc/self/smaps_rollup")
    if rollup.is_file():
        wanted = ("Rss:", "Anonymous:", "Private_Dirty:", "Shared_Clean:", "Private_Clean:")
        lines += ["  " + line for line in rollup.read_text().splitlines() if line.startswith(wanted)]
    lines.append("  " + _malloc_numbers())
    lines.append(f"  threads: {threading.active_count()} ({', '.join(sorted({t.name.split('-')[0] for t in threading.enumerate()}))})")
    kinds = Counter(type(o).__name__ for o in gc.get_objects())
    lines.append("  gc objects: " + ", ".join(f"{n} {k}" for k, n in kinds.most_common(12)))
    if baseline is not None and tracemalloc.is_tracing():
        now = tracemalloc.take_snapshot()
        traced, peak = tracemalloc.get_traced_memory()
        lines.append(f"  tracemalloc: {traced / 1e6:.1f} MB traced now, peak {peak / 1e6:.1f} MB; grown since idle:")
        for stat in now.compare_to(baseline, "traceback")[:top]:
            lines.append(f"    {stat.size_diff / 1e6:+8.2f} MB {stat.count_diff:+7d} blocks")
            lines += ["        " + str(frame) for frame in stat.traceback.format()[-8:]]
    lines += _large_arrays()
    print("\n".join(lines), file=sys.stderr, flush=True)
    sys._debugmallocstats()


def _large_arrays() -> list[str]:
    """The numpy arrays and byte strings of 1 MB or more (the 200 largest), grouped by their chain of
    referrers up to a module, a running frame or nothing (garbage in a cycle)."""
    import collections
    import gc

    import numpy as np

    found: dict[int, Any] = {}
    for holder in gc.get_objects():
        for item in gc.get_referents(holder):
            if isinstance(item, np.ndarray) and item.base is None and item.nbytes >= 1_000_000:
                found[id(item)] = item
            elif isinstance(item, (bytes, bytearray, str)) and len(item) >= 1_000_000:
                found[id(item)] = item
    ordered = sorted(found.values(), key=lambda a: -_size(a))
    lines = [f"  large arrays and byte strings: {len(found)}, {sum(_size(a) for a in ordered) / 1e6:.1f} MB"]
    ignore = {id(found), id(ordered), id(lines)}
    modules = {id(m.__dict__): name for name, m in list(sys.modules.items()) if isinstance(m, types.ModuleType)}
    # Grouped by the object that refers to them (a Run, a cache's dict): one path in words per holder,
    # largest first. The holders are kept in `held` so that no id is reused while the report runs.
    groups: dict[int, list[tuple[str, int]]] = {}
    held: dict[int, Any] = {}
    first: dict[int, Any] = {}
    for array in ordered:
        what = f"{array.dtype} {array.shape}" if isinstance(array, np.ndarray) else type(array).__name__
        direct = [r for r in gc.get_referrers(array) if id(r) not in ignore and not isinstance(r, types.FrameType)
                  and r is not held and r is not first]
        holder = direct[0] if direct else None
        held.setdefault(id(holder), holder)
        first.setdefault(id(holder), array)
        groups.setdefault(id(holder), []).append((what, _size(array)))
        del direct
    ignore |= {id(groups), id(held), id(first)}
    for owner, arrays in sorted(groups.items(), key=lambda item: -sum(size for _, size in item[1]))[:40]:
        shapes = ", ".join(f"{n} × {what}" for what, n in collections.Counter(w for w, _ in arrays).most_common(3))
        lines.append(f"    {sum(size for _, size in arrays) / 1e6:7.1f} MB in {len(arrays)} ({shapes}): "
                     f"{_path_to_root(first[owner], ignore, modules)}")
    held.clear()
    first.clear()
    found.clear()
    return lines


def _path_to_root(target: Any, ignore: set[int], modules: dict[int, str], budget: int = 400) -> str:
    """Breadth first up the referrers of `target` to a module's globals or a running frame: the path, in words."""
    import collections
    import gc

    here = {id(sys._getframe()), id(sys._getframe(1))}
    queue: collections.deque[tuple[Any, list[str]]] = collections.deque([(target, [])])
    seen = {id(target)}
    longest: list[str] = []
    while queue and budget > 0:
        current, path = queue.popleft()
        longest = path
        referrers = gc.get_referrers(current)
        for ref in referrers:
            if id(ref) in seen or id(ref) in ignore or id(ref) in here or ref is queue or ref is referrers \
                    or (isinstance(ref, tuple) and len(ref) == 2 and ref[1] is path):
                continue
            seen.add(id(ref))
            budget -= 1
            if id(ref) in modules and isinstance(ref, dict):
                key = next((k for k, v in ref.items() if v is current), "?")
                return " <- ".join([*path, f"module {modules[id(ref)]}.{key}"])
            if isinstance(ref, types.FrameType):
                return " <- ".join([*path, f"frame {ref.f_code.co_name} ({ref.f_code.co_filename}:{ref.f_lineno})"])
            if isinstance(ref, dict):
                step = f"dict[{next((repr(k)[:40] for k, v in ref.items() if v is current), '?')}]"
            elif isinstance(ref, (types.FunctionType, type)):
                step = f"{type(ref).__name__} {ref.__qualname__}"
            else:
                step = type(ref).__name__
            queue.append((ref, [*path, step]))
        del referrers
    return " <- ".join(longest) + " (no root found: garbage in a cycle, or held from C)"


def _size(item: Any) -> int:
    return int(getattr(item, "nbytes", None) or len(item))


def _malloc_numbers() -> str:
    """glibc's mallinfo2 summed over its arenas: bytes from the heap (sbrk and arenas), mapped chunks,
    in use and free."""
    import ctypes
    import ctypes.util

    class MallInfo2(ctypes.Structure):
        _fields_ = [(name, ctypes.c_size_t) for name in ("arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks",
                                                        "fsmblks", "uordblks", "fordblks", "keepcost")]

    name = ctypes.util.find_library("c")
    try:
        call = ctypes.CDLL(name).mallinfo2
    except (OSError, AttributeError, TypeError):
        return "malloc: no mallinfo2 here"
    call.restype = MallInfo2
    info = call()
    return (f"malloc: heap {info.arena / 1e6:.1f} MB ({info.uordblks / 1e6:.1f} in use, {info.fordblks / 1e6:.1f} free "
            f"in {info.ordblks} chunks), mapped {info.hblkhd / 1e6:.1f} MB in {info.hblks} chunks")


def main(argv: list[str] | None = None) -> int:
    """Warm up in the background, then run `streamlit run app.py ARGV` in this process."""
    from streamlit.web import cli

    from cfrviz import app as ui
    from cfrviz.app.admission import turns_last_whole_runs
    from cfrviz.app.solving import use_solve_workers

    ui.start_warmup(ui.pin_first_views, after_first_drawing=False)
    # Visitors' solves in worker processes, each under its own memory cap (started on first use).
    use_solve_workers()
    ui.start_session_reaper()   # waits for the server, then lets go of sessions whose tab has gone
    websocket_limits.limit_inbound_frames()   # frames from browsers: 1 MB, not server.maxMessageSize
    outbound_guard.guard_outbound_messages()  # one visitor's unsendable message stops no one else's
    turns_last_whole_runs()                   # a visitor in line holds no solved run
    threading.Thread(target=_report, args=(ui,), name="cfrviz-warmup-report", daemon=True).start()
    if memory_report_asked():
        signal.signal(REPORT_SIGNAL, _report_on_signal)   # only the main thread may set a handler
    sys.argv = ["streamlit", "run", str(APP), *(sys.argv[1:] if argv is None else argv)]
    try:
        cli.main()
    except SystemExit as done:
        return int(done.code or 0)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
