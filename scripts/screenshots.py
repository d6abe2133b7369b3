"""Take the README's screenshots: start the app, open each page on a deep link, save a PNG.

    python scripts/screenshots.py            # writes docs/screenshots/<page>.png at 1280x800
    python scripts/screenshots.py --phone    # and docs/screenshots/phone/<page>.png at 390x844

Uses Debian's Chromium at /usr/bin/chromium through Playwright, and the same server helper as
the browser tests (tests/support/), so it never downloads a browser.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path
from urllib.parse import urlencode

from playwright.sync_api import Browser, ViewportSize

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.support.browser import APP_IDLE, CHROMIUM, CHROMIUM_ARGS, RENDER_TIMEOUT_MS, VIEWPORT, wait_for_drawn  # noqa: E402
from tests.support.server import streamlit_server  # noqa: E402

PHONE_VIEWPORT = {"width": 390, "height": 844}
# Pages whose settings fill the first screen: their shot starts at the timeline.
AT_THE_TIMELINE = {"regret_matching", "walkthrough", "best_response", "play"}

# (file name, URL path, query[, viewport]): each link shows the page doing something worth seeing.
SHOTS = (
    ("home", "", {"game": "kuhn", "algo": "cfr+", "iters": "3000", "updates": "alternating"}),
    ("game_tree", "Game_tree", {"game": "kuhn", "algo": "cfr", "iters": "1000", "updates": "simultaneous",
                                "t": "40", "node": "7"}),
    ("game_tree_1920", "Game_tree", {"game": "kuhn", "algo": "cfr", "iters": "1000", "updates": "simultaneous",
                                     "t": "40", "node": "17"}, {"width": 1920, "height": 1080}),
    ("game_tree_leduc", "Game_tree", {"game": "leduc", "algo": "cfr+", "iters": "2000", "updates": "alternating",
                                      "t": "200", "node": "18"}),
    ("game_tree_locked", "Game_tree", {"game": "kuhn", "algo": "cfr+", "iters": "2000", "updates": "alternating",
                                       "lock": "J=0,1", "node": "1"}),
    ("evolution", "Evolution", {"game": "kuhn", "algo": "cfr", "iters": "1000", "updates": "simultaneous"}),
    ("convergence", "Convergence", {"game": "kuhn", "algo": "cfr+", "iters": "5000", "updates": "alternating"}),
    ("compare", "Compare", {"game": "kuhn", "algo": "cfr", "iters": "2000", "updates": "alternating"}),
    ("regret_matching", "Regret_matching", {"game": "rps", "algo": "rm", "iters": "2000", "seed": "1"}),
    ("walkthrough", "Walkthrough", {"game": "kuhn", "algo": "cfr", "iters": "10", "updates": "simultaneous",
                                    "walk_step": "8"}),
    ("best_response", "Best_response", {"game": "kuhn", "algo": "cfr", "iters": "300", "updates": "simultaneous",
                                        "t": "30"}),
    ("play", "Play", {"game": "kuhn", "algo": "cfr+", "iters": "2000", "updates": "alternating"}),
)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots", help="folder for the PNGs")
    parser.add_argument("--only", nargs="*", default=None, help="names of the shots to take (default: all)")
    parser.add_argument("--phone", action="store_true", help="also take every shot at 390x844 into OUT/phone/")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    if args.phone:
        (args.out / "phone").mkdir(exist_ok=True)

    from playwright.sync_api import sync_playwright

    with streamlit_server() as (url, _process), sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            for name, path, query, *size in SHOTS:
                if args.only and name not in args.only:
                    continue
                # The shot's own size (or 1280x800), and with --phone also 390x844 for the usual ones.
                for viewport, folder in [(size[0] if size else VIEWPORT, args.out)] + \
                        ([(PHONE_VIEWPORT, args.out / "phone")] if args.phone and not size else []):
                    take(browser, url, name, path, query, viewport, folder)
        finally:
            browser.close()
    return 0


def take(browser: Browser, url: str, name: str, path: str, query: dict[str, str], viewport: dict[str, int],
         folder: Path) -> None:
    """One screenshot of one page at one size."""
    context = browser.new_context(viewport=ViewportSize(width=viewport["width"], height=viewport["height"]))
    page = context.new_page()
    page.goto(f"{url}/{path}?{urlencode(query)}", timeout=RENDER_TIMEOUT_MS)
    page.wait_for_selector('[data-testid="stApp"]', timeout=RENDER_TIMEOUT_MS)
    page.locator("h1").first.wait_for(state="visible", timeout=3 * RENDER_TIMEOUT_MS)
    page.wait_for_selector(APP_IDLE, timeout=3 * RENDER_TIMEOUT_MS)
    wait_for_drawn(page, 3 * RENDER_TIMEOUT_MS)
    if page.locator(".stBidiComponent").count():  # the timeline draws after the script ends
        page.locator(".tl svg:visible").first.wait_for(state="visible", timeout=RENDER_TIMEOUT_MS)
    # Streamlit fades elements in; wait for running CSS animations to end, not a fixed sleep.
    page.wait_for_function(
        "() => document.getAnimations().every(a => a.playState !== 'running' || "
        "a.effect?.getComputedTiming().iterations === Infinity)", timeout=RENDER_TIMEOUT_MS)
    if name in AT_THE_TIMELINE:
        page.locator(".tl-bar").first.scroll_into_view_if_needed()
        page.locator(".tl-bar").first.evaluate("(bar) => bar.scrollIntoView({block: 'start'})")
    errors = page.locator('[data-testid="stException"]')
    if errors.count():
        print(f"{name}: the page shows an exception: {errors.first.inner_text()[:300]}", file=sys.stderr)
    target = folder / f"{name}.png"
    page.screenshot(path=str(target))
    print(f"saved {target.relative_to(ROOT) if target.is_relative_to(ROOT) else target}")
    context.close()


if __name__ == "__main__":
    raise SystemExit(main())
