"""How long a first visitor waits on a freshly started server: text first, then the first Kuhn solve.

For each case a new `streamlit run app.py` starts on a free port with its own numba cache folder,
and one headless Chromium visit to a page measures, from `page.goto`:
  - text:  the page's title is visible (the layout and text are drawn),
  - solve: the page's first chart is drawn, plotly's or the timeline's (the default 1,000-iteration
    Kuhn solve is shown).

Cases: "cold cache" (an empty numba cache: every kernel compiles in this process), "warm cache"
(the cache filled beforehand by `python -m cfrviz.app.warmup`, as a deploy does at build time), both
with `streamlit run app.py`; and "warm cache + serve", the same cache with the server started by
`python -m cfrviz.app.serve`, which loads the kernels before the first visitor; there the visit
starts once the server logs "kernels ready" (a visitor who arrives a few seconds after start-up).
The other cases visit as soon as /_stcore/health answers.

    python scripts/bench_first_visit.py [--runs 2] [--page /Convergence]

Prints a markdown table, with the machine's 1-minute load average at the start of each visit: the
load changes the numbers, so compare runs made back to back, and prefer a quiet machine.
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from playwright.sync_api import Browser

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.support.browser import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from tests.support.server import free_port, wait_healthy  # noqa: E402

# A page's first chart: plotly's, or the timeline's own drawing (a chart, or the tree), which
# Playwright's CSS finds inside the component's shadow root.
FIRST_CHART = ".js-plotly-plot svg.main-svg, .tl svg.tl-chart, .tl-tree svg"
PAGES = {"/": "counterfactual regret minimization, visible", "/Convergence": "Convergence",
         "/Evolution": "Evolution", "/Game_tree": "Game tree"}


def visit(page_path: str, cache_dir: str, browser: Browser, serve: bool = False) -> tuple[float, float]:
    """(seconds to text, seconds to the first chart) of one first visit to a new server."""
    port = free_port()
    env = {**os.environ, "NUMBA_CACHE_DIR": cache_dir, "PYTHONPATH": str(ROOT)}
    command = ["-m", "cfrviz.app.serve"] if serve else ["-m", "streamlit", "run", "app.py"]
    server = subprocess.Popen(
        [sys.executable, *command, "--server.headless", "true",
         "--server.address", "127.0.0.1", "--server.port", str(port), "--browser.gatherUsageStats", "false",
         "--server.fileWatcherType", "none"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE if serve else subprocess.DEVNULL,
        text=True)
    try:
        wait_healthy(f"http://127.0.0.1:{port}", server, timeout=60.0)
        if serve:
            assert server.stderr is not None
            for line in server.stderr:
                if "kernels ready" in line:
                    break
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        start = time.perf_counter()
        page.goto(f"http://127.0.0.1:{port}{page_path}")
        page.get_by_text(PAGES[page_path], exact=False).first.wait_for(state="visible", timeout=120_000)
        text = time.perf_counter() - start
        page.locator(FIRST_CHART).first.wait_for(state="visible", timeout=180_000)
        solve = time.perf_counter() - start
        page.close()
        return text, solve
    finally:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()


def main() -> None:
    from playwright.sync_api import sync_playwright

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument("--page", default="/", choices=sorted(PAGES))
    parser.add_argument("--cases", nargs="*", default=None, help="only these cases (default: all three)")
    args = parser.parse_args()
    rows = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for case in args.cases or ("cold cache", "warm cache", "warm cache + serve"):
            texts, solves, loads = [], [], []
            for _ in range(args.runs):
                with tempfile.TemporaryDirectory(prefix="cfrviz_numba_", ignore_cleanup_errors=True) as cache_dir:
                    if case.startswith("warm cache"):
                        subprocess.run([sys.executable, "-m", "cfrviz.app.warmup"], cwd=ROOT, check=True,
                                       env={**os.environ, "NUMBA_CACHE_DIR": cache_dir, "PYTHONPATH": str(ROOT)},
                                       stdout=subprocess.DEVNULL)
                    loads.append(os.getloadavg()[0])
                    text, solve = visit(args.page, cache_dir, browser, serve=case.endswith("serve"))
                texts.append(text)
                solves.append(solve)
            rows.append((case, texts, solves, loads))
        browser.close()
    print(f"First visit to {args.page} on a freshly started server ({args.runs} runs each, seconds):\n")
    print("| numba cache | text shown (median, max) | first Kuhn solve shown (median, max) | load (min, max) |")
    print("|---|---|---|---|")
    for case, texts, solves, loads in rows:
        print(f"| {case} | {statistics.median(texts):.1f}, {max(texts):.1f} | "
              f"{statistics.median(solves):.1f}, {max(solves):.1f} | {min(loads):.1f}, {max(loads):.1f} |")


if __name__ == "__main__":
    main()
