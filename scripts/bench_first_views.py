"""How long a first visit of Compare, Regret matching or the Walkthrough takes in a fresh server
process, with and without the first views computed at start (`_presolve_defaults`).

Each visit runs in a new Python process: Streamlit's AppTest opens Home, then switches to the page
and times that script run (the page's computation and its drawing, not the browser's). "computed at
start" runs the server's start-up work first (the sidebar's run, then every page's first view,
pinned); "not at start" pins only the sidebar's run, so the visitor computes the page's first view,
as before. Kernels come from numba's disk cache in both (fill it with `python -m cfrviz.app.warmup`).

    python scripts/bench_first_views.py [--runs 3] [--page Compare]

Prints a markdown table with the 1-minute load average: on a shared machine compare runs made back
to back, and prefer a quiet one.
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PAGES = {"Compare": "pages/4_Compare.py", "Regret_matching": "pages/5_Regret_matching.py",
         "Walkthrough": "pages/6_Walkthrough.py"}

VISIT = """
import sys, time
from streamlit.testing.v1 import AppTest
from cfrviz.app import solving
if sys.argv[2] == "yes":
    solving._presolve_defaults()
else:
    from cfrviz.app.links import DEFAULT_CHOICE
    settings = DEFAULT_CHOICE.settings()
    solving.shared_runs().get(settings, lambda: solving._pooled_solve(settings), pin=True)
at = AppTest.from_file(sys.argv[3], default_timeout=300).run()
at.switch_page(sys.argv[1])
start = time.perf_counter()
at.run()
seconds = time.perf_counter() - start
assert not at.exception, at.exception
print(seconds)
"""


def visit(page: str, at_start: bool) -> float:
    """Seconds of one first visit of `page` in a new process."""
    done = subprocess.run([sys.executable, "-c", VISIT, page, "yes" if at_start else "no", str(ROOT / "app.py")],
                          cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)}, check=True, capture_output=True,
                          text=True)
    return float(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--page", default="Compare", choices=sorted(PAGES))
    args = parser.parse_args()
    print(f"First visit of {args.page} in a fresh server process ({args.runs} runs each, seconds of the page's "
          "script run):\n")
    print("| first view | median | max | load (min, max) |")
    print("|---|---|---|---|")
    seconds: dict[bool, list[float]] = {False: [], True: []}
    loads: list[float] = []
    for _ in range(args.runs):
        for at_start in (False, True):      # alternated, so a load that comes and goes hits both
            loads.append(os.getloadavg()[0])
            seconds[at_start].append(visit(PAGES[args.page], at_start))
    for at_start, label in ((False, "not at start (the visitor computes it)"), (True, "computed at start")):
        print(f"| {label} | {statistics.median(seconds[at_start]):.2f} | {max(seconds[at_start]):.2f} | "
              f"{min(loads):.1f}, {max(loads):.1f} |")

if __name__ == "__main__":
    main()
