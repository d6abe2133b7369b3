"""The largest websocket messages the app sends and receives, per page: what `server.maxMessageSize` must allow.

    python scripts/ws_message_sizes.py

Streamlit's `server.maxMessageSize` (megabytes) bounds both directions of `/_stcore/stream`: a
frame from a browser larger than it is refused by the websocket layer before its payload is read,
and a message to a browser larger than it is replaced by an error. Uploads go over HTTP PUT, not
the websocket. This starts the server as deployed (`scripts/deploy.sh serve`, 127.0.0.1), opens
the heaviest views the app offers in Debian's Chromium (Leduc at its iteration cap on every page,
the largest game of each OpenSpiel menu entry on the Game tree and Evolution pages), switches page through the sidebar, and
prints the largest frame each way per view. Loopback only; every wait has a timeout.
"""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
from playwright.sync_api import WebSocket, sync_playwright

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from cfrviz.catalog import OPENSPIEL_MENU  # noqa: E402
from tests.support.browser import APP_IDLE, CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from tests.support.server import deployed_server  # noqa: E402

TIMEOUT_MS = 300_000
LEDUC = {"game": "leduc", "algo": "cfr+", "iters": "25000", "updates": "alternating"}
VIEWS: tuple[tuple[str, dict[str, str]], ...] = (
    ("", {}),
    ("Game_tree", LEDUC),
    ("Evolution", LEDUC),
    ("Convergence", LEDUC),
    ("Compare", {"game": "leduc"}),
    ("Regret_matching", {}),
    ("Walkthrough", {"game": "kuhn"}),
    ("Best_response", LEDUC),
    ("Play", LEDUC),
    # The largest game of each OpenSpiel menu entry at its iteration cap (a link over the cap is clamped).
    *((page, {"game": f"openspiel:{game.largest}", "algo": "cfr+", "iters": "100000000"})
      for game in OPENSPIEL_MENU for page in ("Game_tree", "Evolution")),
)


def main() -> int:
    rows: list[tuple[str, int, int, int]] = []
    sizes = {"sent": 0, "received": 0, "count": 0}

    def watch(socket: WebSocket) -> None:
        def sent(payload: Any) -> None:
            sizes["sent"] = max(sizes["sent"], len(payload))
            sizes["count"] += 1

        def received(payload: Any) -> None:
            sizes["received"] = max(sizes["received"], len(payload))
            sizes["count"] += 1

        socket.on("framesent", sent)
        socket.on("framereceived", received)

    with deployed_server() as (url, _server), sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 800})
            page.on("websocket", watch)
            for path, query in VIEWS:
                sizes.update(sent=0, received=0, count=0)
                link = f"/{path}" + (f"?{urlencode(query)}" if query else "")
                try:
                    page.goto(url + link, timeout=TIMEOUT_MS)
                    page.wait_for_selector(APP_IDLE, timeout=TIMEOUT_MS)
                    page.locator("h1").first.wait_for(state="visible", timeout=TIMEOUT_MS)
                    page.wait_for_selector(APP_IDLE, timeout=TIMEOUT_MS)
                except PlaywrightTimeoutError:
                    # The frames that arrived still count; a fresh page for the next view.
                    link += f" (not drawn within {TIMEOUT_MS // 1000} s)"
                    page.close()
                    page = browser.new_page(viewport={"width": 1280, "height": 800})
                    page.on("websocket", watch)
                rows.append((link, sizes["received"], sizes["sent"], sizes["count"]))
                print(f"{link}: largest to the browser {sizes['received']:,} B, from it {sizes['sent']:,} B",
                      flush=True)
            # A page switch through the sidebar: the browser sends every widget's state with the rerun.
            sizes.update(sent=0, received=0, count=0)
            page.locator('[data-testid="stSidebar"] a', has_text="Convergence").first.click()
            page.locator("h1", has_text="Convergence").first.wait_for(state="visible", timeout=TIMEOUT_MS)
            page.wait_for_selector(APP_IDLE, timeout=TIMEOUT_MS)
            rows.append(("sidebar link to Convergence", sizes["received"], sizes["sent"], sizes["count"]))
        finally:
            browser.close()

    print("\n| view | largest message to the browser | largest message from the browser | frames |")
    print("|---|---:|---:|---:|")
    for link, to_browser, from_browser, frames in rows:
        print(f"| `{link}` | {to_browser:,} B | {from_browser:,} B | {frames} |")
    print(f"\nlargest to the browser: {max(r[1] for r in rows) / 1e6:.2f} MB; "
          f"largest from the browser: {max(r[2] for r in rows) / 1e6:.4f} MB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
