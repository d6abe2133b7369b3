"""Open a running cfrviz server in Debian's Chromium and check that pages really draw.

    python scripts/visit_app.py http://127.0.0.1:8501

Used by scripts/deploy_check.sh after the HTTP checks. Exits non-zero with one line on failure.
Loopback only: the URL must point at this machine.
"""
from __future__ import annotations

import sys
from urllib.parse import urlparse

from playwright.sync_api import sync_playwright

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
IDLE = '[data-testid="stApp"][data-test-script-state="notRunning"]'
TIMEOUT_MS = 60_000
# (path, heading the page draws): the landing page and a deep link that solves.
VISITS = (("/", None), ("/Convergence?game=kuhn&algo=cfr%2B&iters=300&updates=alternating", "Convergence"))


def main(base: str) -> int:
    if urlparse(base).hostname not in ("127.0.0.1", "localhost", "::1"):
        print(f"refusing {base}: only a server on this machine is visited", file=sys.stderr)
        return 2
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 800})
            for path, heading in VISITS:
                page.goto(base.rstrip("/") + path, timeout=TIMEOUT_MS)
                page.wait_for_selector(IDLE, timeout=TIMEOUT_MS)
                title = page.locator("h1", has_text=heading) if heading else page.locator("h1")
                title.first.wait_for(state="visible", timeout=TIMEOUT_MS)
                page.wait_for_selector(IDLE, timeout=TIMEOUT_MS)
                errors = page.locator('[data-testid="stException"], [data-testid="stAlertContentError"]')
                if errors.count():
                    print(f"{path}: error on screen: {errors.first.inner_text()[:500]}", file=sys.stderr)
                    return 1
                print(f"browser: {path} drew {title.first.inner_text()!r}")
        finally:
            browser.close()
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        raise SystemExit(2)
    raise SystemExit(main(sys.argv[1]))
