"""The one-file timeline's budget, measured and printed as a table (a benchmark, not a test).

    python scripts/html_budget.py              # Kuhn (tree view) and a Leduc part, 5 opens each
    python scripts/html_budget.py --opens 20

Writes each file with `cfrviz solve GAME ... --html FILE` (the CLI, as a user would), then opens it
from disk in Debian's Chromium (Playwright) with every request that is not to the file aborted.
Rows: the file's size (targets: a Kuhn view <= 1 MB, a Leduc part <= 5 MB) and the first picture,
from navigation start until the file's own `cfrviz-first-picture` mark (set in the animation frame
after the timeline is first drawn), median and slowest of the opens (target <= 1 s on a quiet
machine), and a step: an arrow key on the slider until the next animation frame, 40 per open
(target <= 30 ms, as in the app). Each open is a fresh page, so nothing is cached between them.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from playwright.sync_api import ViewportSize, sync_playwright  # noqa: E402

from tests.support.browser import CHROMIUM, CHROMIUM_ARGS, FIRST_PICTURE_JS, STEP_TIMES_JS, VIEWPORT  # noqa: E402
from tests.support.cli import run_cli  # noqa: E402

# (name, CLI arguments, size target in bytes)
CASES = [
    ("Kuhn, game tree view (1,000 iterations)", ["kuhn", "-a", "cfr", "-n", "1000"], 1_000_000),
    ("Leduc, a part (1,000 iterations)", ["leduc", "-a", "cfr", "-n", "1000"], 5_000_000),
]
FIRST_PICTURE_TARGET_MS = 1000.0
STEP_TARGET_MS = 30.0
STEPS = 40
TIMEOUT_MS = 60_000



def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--opens", type=int, default=5, help="times each file is opened (default 5)")
    args = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as folder, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for name, cli, size_target in CASES:
            path = Path(folder) / "view.html"
            done = run_cli("solve", *cli, "--html", str(path))
            if done.returncode != 0:
                raise SystemExit(f"cfrviz solve failed: {done.stderr.strip()}")
            size = path.stat().st_size
            times: list[float] = []
            steps: list[float] = []
            for _ in range(args.opens):
                page = browser.new_page(viewport=ViewportSize(width=VIEWPORT["width"], height=VIEWPORT["height"]))
                blocked: list[str] = []
                page.route("**/*", lambda route, blocked=blocked: route.continue_()
                           if route.request.url.startswith(("file:", "data:", "blob:"))
                           else (blocked.append(route.request.url), route.abort()))
                page.goto(path.as_uri(), timeout=TIMEOUT_MS)
                page.wait_for_function(FIRST_PICTURE_JS, timeout=TIMEOUT_MS)
                times.append(float(page.evaluate(FIRST_PICTURE_JS)))
                steps += [float(t) for t in page.evaluate(STEP_TIMES_JS, STEPS)]
                if blocked:
                    raise SystemExit(f"{name}: the file asked the network for {blocked}")
                page.close()
            rows.append((name, size, size_target, statistics.median(times), max(times), statistics.median(steps), max(steps)))
        browser.close()
    print(f"{'file':<42} {'size':>10} {'target':>8} {'first picture (median / slowest)':>34} {'target':>8} "
          f"{'a step (median / slowest)':>28} {'target':>8}")
    for name, size, size_target, median, slowest, step, slowest_step in rows:
        print(f"{name:<42} {size / 1e6:>8.2f} MB {size_target / 1e6:>5.0f} MB "
              f"{median:>19.0f} ms / {slowest:>5.0f} ms {FIRST_PICTURE_TARGET_MS:>5.0f} ms "
              f"{step:>15.1f} ms / {slowest_step:>5.1f} ms {STEP_TARGET_MS:>5.0f} ms")


if __name__ == "__main__":
    main()
