"""Resident memory of one cfrviz server while browser sessions use it at once.

    python scripts/load_memory.py [--sessions 10] [--leduc 5] [--rounds 3] [--interval 0.5]

Starts the server exactly as deployed (`bash scripts/deploy.sh serve`, with its memory settings)
on 127.0.0.1, opens `--sessions` browser sessions in Debian's Chromium (Playwright) and keeps them
all open. Each round, every session loads a deep link at the same time: `--leduc` of them solve
Leduc poker at the app's iteration cap (a different algorithm or update scheme each time, so
no two share a run), the others Kuhn poker or rock-paper-scissors; pages alternate between
Convergence, Game tree and Evolution. The server's resident memory (VmRSS, itself and its
every process below it) is sampled every `--interval` seconds and printed as it goes, then summarised.
Bounded: loopback only, a fixed number of rounds, and every wait has a timeout.
Beside tests/browser/test_load.py, which checks correctness under load; this one measures.
"""
from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.support.browser import APP_IDLE, CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from tests.support.memory import RssSampler, rss_megabytes  # noqa: E402
from tests.support.server import free_port, stop, wait_healthy  # noqa: E402

PAGES = (("Convergence", "Convergence"), ("Game_tree", "Game tree"), ("Evolution", "Evolution"))
# Full-traversal algorithms and schemes: each pair is a distinct Leduc run at the cap.
LEDUC_SOLVES = [(a, u) for u in ("alternating", "simultaneous") for a in ("cfr", "cfr+", "lcfr", "dcfr")]
SMALL_SOLVES = [("kuhn", "cfr"), ("kuhn", "cfr+"), ("kuhn4", "dcfr"), ("rps", "rm"), ("kuhn", "lcfr"),
                ("kuhn5", "cfr+"), ("kuhn", "chance"), ("rps", "rm")]


def session_links(sessions: int, leduc: int, round_number: int, cap: int) -> list[tuple[str, str]]:
    """(path with query, heading) per session for one round; Leduc runs never repeat across rounds."""
    links = []
    for i in range(sessions):
        page, heading = PAGES[(i + round_number) % len(PAGES)]
        if i < leduc:
            algorithm, updates = LEDUC_SOLVES[(round_number * leduc + i) % len(LEDUC_SOLVES)]
            query = {"game": "leduc", "algo": algorithm, "iters": str(cap), "updates": updates}
        else:
            game, algorithm = SMALL_SOLVES[(i + round_number) % len(SMALL_SOLVES)]
            query = {"game": game, "algo": algorithm, "iters": str(500 + 100 * i + round_number),
                     "updates": "alternating" if algorithm == "chance" or i % 2 else "simultaneous"}
        links.append((f"/{page}?{urlencode(query)}", heading))
    return links


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sessions", type=int, default=10)
    parser.add_argument("--leduc", type=int, default=5, help="sessions that solve Leduc at the app's cap")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--interval", type=float, default=0.5)
    parser.add_argument("--timeout", type=float, default=600.0, help="seconds any one round may take")
    parser.add_argument("--stagger", type=float, default=0.0,
                        help="seconds between sessions' requests within a round (0: all at the same moment)")
    options = parser.parse_args()
    if not 1 <= options.sessions <= 30 or not 0 <= options.leduc <= options.sessions or not 1 <= options.rounds <= 10:
        parser.error("sessions 1-30, leduc 0-sessions, rounds 1-10")

    # A plain SIGTERM would skip the `finally` that stops the server.
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(f"stopped by signal {signum}"))
    from playwright.sync_api import TimeoutError as PlaywrightTimeout
    from playwright.sync_api import sync_playwright

    from cfrviz.catalog import lookup

    cap = lookup("leduc").app_iteration_cap
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    env = {**os.environ, "ADDRESS": "127.0.0.1", "PORT": str(port), "PYTHON": sys.executable}
    log = open(ROOT / "test-results" / f"load-memory-{port}.log", "wb") if (ROOT / "test-results").is_dir() \
        else subprocess.DEVNULL
    server = subprocess.Popen(["bash", str(ROOT / "scripts" / "deploy.sh"), "serve"], cwd=ROOT, env=env,
                              stdout=log, stderr=subprocess.STDOUT)
    sampler = RssSampler(server.pid, options.interval, echo=True)
    round_peaks: list[tuple[str, float, float]] = []
    try:
        wait_healthy(url, server, timeout=90.0)
        sampler.start()
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            try:
                pages = [browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
                         for _ in range(options.sessions)]
                for round_number in range(options.rounds):
                    links = session_links(options.sessions, options.leduc, round_number, cap)
                    sampler.phase = f"round {round_number + 1}: {options.sessions} sessions loading"
                    started = time.monotonic()
                    for n, (page, (path, _)) in enumerate(zip(pages, links)):   # all requests in flight
                        if n and options.stagger:
                            time.sleep(options.stagger)   # pacing of arrivals, not a wait for the app
                        page.goto(url + path, wait_until="commit", timeout=options.timeout * 1000)
                    late = 0
                    for page, (path, heading) in zip(pages, links):
                        left = max(1.0, options.timeout - (time.monotonic() - started)) * 1000
                        try:
                            page.locator("h1", has_text=heading).first.wait_for(state="visible", timeout=left)
                            page.wait_for_selector(APP_IDLE, timeout=left)
                        except PlaywrightTimeout:
                            late += 1
                            continue
                        errors = page.locator('[data-testid="stException"]')
                        if errors.count():
                            raise SystemExit(f"{path}: exception on screen: {errors.first.inner_text()[:300]}")
                    seconds = time.monotonic() - started
                    sampler.phase = f"round {round_number + 1}: all drawn, sessions idle"
                    round_samples = [m for _, phase, m in sampler.samples
                                     if phase.startswith(f"round {round_number + 1}:")]
                    label = f"round {round_number + 1} ({seconds:.0f} s" + (
                        f", {late} sessions not drawn within {options.timeout:.0f} s)" if late else ")")
                    round_peaks.append((label, max(round_samples or [0.0]), rss_megabytes(server.pid)))
            finally:
                browser.close()
        sampler.phase = "browsers closed"
        sampler.stop.wait(3 * options.interval)
    finally:
        sampler.stop.set()
        stop(server, 15.0)
    samples = [m for _, _, m in sampler.samples]
    print()
    print(f"{options.sessions} sessions ({options.leduc} solving Leduc at {cap:,} iterations each round), "
          f"{options.rounds} rounds, arrivals {options.stagger:g} s apart, {len(samples)} samples")
    print(f"fresh server (after health ok): {samples[0]:.0f} MB")
    for label, peak, after in round_peaks:
        print(f"{label}: peak {peak:.0f} MB, {after:.0f} MB when drawn")
    print(f"peak over the whole run: {max(samples):.0f} MB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
