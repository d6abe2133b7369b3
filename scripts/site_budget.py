"""The static site's budget, measured and printed as a table (a benchmark, not a test).

    python scripts/site_budget.py                    # builds the default menu into a temporary folder
    python scripts/site_budget.py --site DIR         # measures a site built already (cfrviz site build DIR)
    python scripts/site_budget.py --menu small --opens 3

Rows (issue 29's targets):
- the whole site's bytes on disk (<= 60 MB), with the Compare page and Convergence's equilibrium
  pictures (SVG drawn at build time) on rows of their own;
- Home's transfer: every response Chromium received opening Home from `python -m http.server`
  (which sends files as they are), and the same files gzip-compressed, as GitHub Pages and most static
  hosts send them (<= 1.5 MB);
- the first picture on Home and the Game tree: navigation start until the page's own
  `cfrviz-first-picture` mark (the animation frame after the timeline is first drawn), median and
  slowest of fresh pages (<= 1 s on a quiet machine);
- a step: an arrow key on the Game tree's timeline until the next animation frame, median and slowest
  of 40 steps (<= 30 ms).
Every request outside the local server is aborted (and would fail the run).
"""
from __future__ import annotations

import argparse
import gzip
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from playwright.sync_api import ViewportSize, sync_playwright  # noqa: E402

from tests.support.browser import CHROMIUM, CHROMIUM_ARGS, FIRST_PICTURE_JS, STEP_TIMES_JS, VIEWPORT  # noqa: E402
from tests.support.static_site import build_site, static_server  # noqa: E402

SITE_TARGET_MB = 60.0
HOME_TARGET_MB = 1.5
FIRST_PICTURE_TARGET_MS = 1000.0
STEP_TARGET_MS = 30.0
TIMEOUT_MS = 60_000

def _offline(page: Any, base: str) -> list[str]:
    blocked: list[str] = []

    def route(request_route: Any) -> None:
        if request_route.request.url.startswith((base, "data:", "blob:")):
            request_route.continue_()
        else:
            blocked.append(request_route.request.url)
            request_route.abort()

    page.route("**/*", route)
    return blocked


def measure(folder: Path, opens: int) -> list[tuple[str, str, str]]:
    """The table's rows: (what, measured, target)."""
    total = sum(f.stat().st_size for f in folder.rglob("*") if f.is_file())
    rows = [("whole site on disk", f"{total / 1e6:.1f} MB", f"<= {SITE_TARGET_MB:.0f} MB")]
    # The parts drawn at build time as SVG (inside the whole site's budget): Compare's page, whose
    # figures are inline, and Convergence's pictures against the equilibria, one file per run.
    compare = folder / "Compare" / "index.html"
    if compare.is_file():
        rows.append(("Compare page (figures inline)", f"{compare.stat().st_size / 1e6:.2f} MB", "in the site's budget"))
    pictures = list(folder.glob("data/*/equilibrium.svg"))
    if pictures:
        rows.append((f"Convergence's equilibrium pictures ({len(pictures)} SVG files)",
                     f"{sum(f.stat().st_size for f in pictures) / 1e6:.2f} MB", "in the site's budget"))
    with static_server(folder) as base, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        size = ViewportSize(width=VIEWPORT["width"], height=VIEWPORT["height"])
        page = browser.new_page(viewport=size)
        blocked = _offline(page, base)
        loaded: list[str] = []
        page.on("requestfinished", lambda request: loaded.append(request.url))
        page.goto(f"{base}/index.html", timeout=TIMEOUT_MS)
        page.wait_for_function(FIRST_PICTURE_JS, timeout=TIMEOUT_MS)
        files = [folder / url[len(base) + 1:].split("?")[0] for url in loaded if url.startswith(base)]
        raw = sum(f.stat().st_size for f in files)
        zipped = sum(len(gzip.compress(f.read_bytes(), 6)) for f in files)
        rows.append((f"Home transferred ({len(files)} files)", f"{raw / 1e6:.2f} MB as sent by http.server, "
                     f"{zipped / 1e6:.2f} MB gzipped", f"<= {HOME_TARGET_MB} MB"))
        page.close()
        step_row: tuple[str, str, str] | None = None
        for name, path in (("Home", "index.html"), ("Game tree", "Game_tree/index.html")):
            times = []
            for _ in range(opens):
                context = browser.new_context(viewport=size)   # nothing cached between opens
                fresh = context.new_page()
                blocked += _offline(fresh, base)
                fresh.goto(f"{base}/{path}", timeout=TIMEOUT_MS)
                fresh.wait_for_function(FIRST_PICTURE_JS, timeout=TIMEOUT_MS)
                times.append(float(fresh.evaluate(FIRST_PICTURE_JS)))
                if name == "Game tree" and len(times) == opens:
                    steps = [float(t) for t in fresh.evaluate(STEP_TIMES_JS, 40)]
                    step_row = ("a step on the Game tree (key to next frame)",
                                f"{statistics.median(steps):.1f} ms median, {max(steps):.1f} ms slowest",
                                f"<= {STEP_TARGET_MS:.0f} ms")
                context.close()
            rows.append((f"first picture, {name}", f"{statistics.median(times):.0f} ms median, "
                         f"{max(times):.0f} ms slowest of {opens}", f"<= {FIRST_PICTURE_TARGET_MS:.0f} ms"))
        browser.close()
    if step_row is not None:
        rows.append(step_row)
    if blocked:
        raise SystemExit(f"The site asked for addresses outside its server: {blocked[:5]}")
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--site", type=Path, help="a folder `cfrviz site build` wrote (default: build one now)")
    parser.add_argument("--menu", default="default", help="the menu to build when --site is not given")
    parser.add_argument("--opens", type=int, default=5, help="fresh opens per page for the first picture")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        folder = args.site
        if folder is None:
            folder = Path(scratch) / "site"
            build_site(folder, args.menu)
        rows = measure(folder, args.opens)
    width = max(len(r[0]) for r in rows)
    print(f"{'measure':<{width}}  {'measured':<52}  target")
    for what, measured, target in rows:
        print(f"{what:<{width}}  {measured:<52}  {target}")


if __name__ == "__main__":
    main()
