"""Start the app with its kernels warming at once: `python -m cfrviz.app.serve [streamlit options]`.

`streamlit run app.py` runs no code until the first visitor arrives, so that visitor pays for
importing numba and loading (or compiling) every kernel. This entry point imports the app's
modules and starts `cfrviz.app`'s warm-up thread in the server process first (it loads the kernels,
then solves the views a first visit gets and pins them in the shared run cache), then hands over
to Streamlit's own command line in the same process: the page scripts, which run in this process,
find everything loaded. Options after the command go to `streamlit run` unchanged.
"""
from __future__ import annotations

import importlib
import sys
import threading
import time
from pathlib import Path
from types import ModuleType

from cfrviz.app import websocket_limits

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


def main(argv: list[str] | None = None) -> int:
    """Warm up in the background, then run `streamlit run app.py ARGV` in this process."""
    from streamlit.web import cli

    from cfrviz import app as ui

    ui.start_warmup(ui.pin_first_views, after_first_drawing=False)
    ui.start_session_reaper()   # waits for the server, then lets go of sessions whose tab has gone
    websocket_limits.limit_inbound_frames()   # frames from browsers: 1 MB, not server.maxMessageSize
    threading.Thread(target=_report, args=(ui,), name="cfrviz-warmup-report", daemon=True).start()
    sys.argv = ["streamlit", "run", str(APP), *(sys.argv[1:] if argv is None else argv)]
    try:
        cli.main()
    except SystemExit as done:
        return int(done.code or 0)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
