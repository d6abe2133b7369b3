"""Two replicas behind nginx (`scripts/deploy.sh replicas 2`), visited by real Chromium.

Reference: the recipe's promises (README, "Several replicas"). A Streamlit session lives in one
server process, so every request of one browser must reach one replica: two visitors land on
different replicas, each keeps its own through a page switch (an upload made on one page is still
shown on the next, which only the replica holding it can do), and when one replica stops, visitors
go to the other. The proxy names the replica that answered in `X-Cfrviz-Replica` ("A, B" when A
was tried first and refused); the websocket's handshake carries the header too (read through
Chromium's DevTools protocol, which Playwright's own events do not expose).
"""
from __future__ import annotations

import os
import queue
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

import cfrviz
from cfrviz.run import save_run
from tests.support.browser import APP_IDLE, RENDER_TIMEOUT_MS, wait_for_app
from tests.support.server import REPO_ROOT, healthy

NGINX = Path("/usr/sbin/nginx")
START_TIMEOUT_S = 240.0          # two servers loading their kernels on a busy 2-core machine
# A fresh browser gets a random route, hashed onto two replicas: about 1/2 per try to meet the
# replica not seen yet, so 20 fresh visitors all land on one replica with probability about 2^-19.
MAX_FRESH_VISITORS = 20
FIRST_RENDER_MS = 3 * RENDER_TIMEOUT_MS
BANNER = "Showing the uploaded run from"

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(not NGINX.exists() and not os.environ.get("CI"),
                                 reason="Debian's nginx is missing (tests/run.sh installs it).")]


@dataclass
class Replicas:
    url: str
    pids: dict[str, int]                     # "127.0.0.1:port" -> the replica server's PID
    lines: list[str] = field(default_factory=list)


def _free_run_of_ports(count: int) -> int:
    """A port P such that P .. P+count-1 are all free on 127.0.0.1 right now."""
    for _ in range(50):
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            base = int(probe.getsockname()[1])
        if base + count > 65535:
            continue
        sockets = []
        try:
            for port in range(base, base + count):
                taken = socket.socket()
                sockets.append(taken)
                taken.bind(("127.0.0.1", port))
            return base
        except OSError:
            continue
        finally:
            for taken in sockets:
                taken.close()
    raise RuntimeError(f"no {count} consecutive free ports on 127.0.0.1")


@pytest.fixture(scope="module")
def replicas(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Replicas]:
    """`bash scripts/deploy.sh replicas 2` on free loopback ports; stopped by its PID afterwards."""
    port = _free_run_of_ports(3)
    env = {**os.environ, "PORT": str(port), "PYTHON": sys.executable,
           "TMPDIR": str(tmp_path_factory.mktemp("replicas"))}
    script = subprocess.Popen(["bash", str(REPO_ROOT / "scripts" / "deploy.sh"), "replicas", "2"], env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                              start_new_session=True)
    lines: queue.Queue[str | None] = queue.Queue()

    def read() -> None:
        assert script.stdout is not None
        for line in script.stdout:
            lines.put(line.rstrip("\n"))
        lines.put(None)

    threading.Thread(target=read, daemon=True).start()
    started = Replicas(url=f"http://127.0.0.1:{port}", pids={})
    try:
        deadline = time.monotonic() + START_TIMEOUT_S
        while not any("replicas: serving" in line for line in started.lines):
            try:
                line = lines.get(timeout=max(0.1, deadline - time.monotonic()))
            except queue.Empty:
                raise RuntimeError(f"no 'serving' line within {START_TIMEOUT_S:.0f} s: {started.lines}") from None
            if line is None:
                raise RuntimeError(f"scripts/replicas.sh exited with {script.wait()}: {started.lines}")
            started.lines.append(line)
            found = re.search(r"replica \d+ on (127\.0\.0\.1:\d+), pid (\d+)", line)
            if found:
                started.pids[found.group(1)] = int(found.group(2))
        assert len(started.pids) == 2, started.lines
        yield started
    finally:
        # The script's trap stops nginx and every replica it started; a hung script is killed with its group.
        if script.poll() is None:
            script.terminate()
            try:
                script.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(script.pid, signal.SIGKILL)
                script.wait(timeout=10)
    # Everything the script started has gone (a replica still alive would be a leak).
    left = [pid for pid in started.pids.values() if Path(f"/proc/{pid}").exists()]
    assert not left, f"replicas still running after the script stopped: {left}"


def _answered_by(header: str | None) -> str:
    """The replica that answered: the last address in X-Cfrviz-Replica."""
    assert header, "the proxy's response has no X-Cfrviz-Replica header"
    return header.split(",")[-1].strip()


@dataclass
class Visitor:
    """One browser (a Playwright context: its own cookies) and every replica that answered it."""
    context: Any
    page: Any
    replica: str
    answered: list[str] = field(default_factory=list)


def _visit(browser: Any, url: str) -> Visitor:
    """A fresh browser opens `url`; every HTTP response and websocket handshake is recorded."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    answered: list[str] = []
    proxy = urlsplit(url).netloc

    def record(response: Any) -> None:
        if urlsplit(response.url).netloc == proxy:      # not the page's own blob: and data: URLs
            answered.append(_answered_by(response.headers.get("x-cfrviz-replica")))

    page.on("response", record)
    devtools = context.new_cdp_session(page)
    devtools.send("Network.enable")
    devtools.on("Network.webSocketHandshakeResponseReceived", lambda event: answered.append(
        "ws " + _answered_by({k.lower(): v for k, v in event["response"]["headers"].items()}.get("x-cfrviz-replica"))))
    response = page.goto(url, timeout=RENDER_TIMEOUT_MS)
    assert response is not None and response.ok, response
    return Visitor(context, page, _answered_by(response.headers.get("x-cfrviz-replica")), answered)


def _drawn(visitor: Visitor, heading: str) -> None:
    visitor.page.locator("h1", has_text=heading).first.wait_for(state="visible", timeout=FIRST_RENDER_MS)
    wait_for_app(visitor.page, timeout_ms=FIRST_RENDER_MS)
    errors = visitor.page.locator('[data-testid="stException"]')
    assert errors.count() == 0, errors.first.inner_text()[:600]


def _replica_of_next_request(visitor: Visitor, url: str) -> str:
    """The replica a request with this browser's cookies reaches now (the health endpoint)."""
    answer = visitor.context.request.get(f"{url}/_stcore/health", timeout=10_000)
    assert answer.ok and answer.text().strip() == "ok", answer.status
    return _answered_by(answer.headers.get("x-cfrviz-replica"))


def test_two_visitors_keep_their_replicas_and_move_when_one_stops(replicas: Replicas, browser: Any,
                                                                    tmp_path: Path) -> None:
    url = replicas.url + "/Game_tree"
    # Fresh browsers until both replicas have a visitor (bounded; see MAX_FRESH_VISITORS).
    visitors: dict[str, Visitor] = {}
    for _ in range(MAX_FRESH_VISITORS):
        visitor = _visit(browser, url)
        if visitor.replica in visitors:
            visitor.context.close()
        else:
            visitors[visitor.replica] = visitor
        if len(visitors) == 2:
            break
    assert set(visitors) == set(replicas.pids), (set(visitors), replicas.pids)
    first, second = (visitors[address] for address in sorted(visitors))

    # The first visitor uploads a run (an HTTP PUT with Streamlit's XSRF cookie, through the proxy).
    saved = tmp_path / "seven_hundred.npz"
    save_run(cfrviz.solve("kuhn", "cfr+", iterations=700, updates="alternating"), saved)
    for visitor in (first, second):
        _drawn(visitor, "Game tree")
    first.page.locator('[data-testid="stSidebar"] input[type="file"]').set_input_files(str(saved))
    first.page.get_by_text(BANNER).first.wait_for(state="visible", timeout=RENDER_TIMEOUT_MS)
    first.page.wait_for_selector(APP_IDLE, timeout=RENDER_TIMEOUT_MS)

    # A page switch through the app's own sidebar: each stays on its replica, and the upload
    # (held by the first visitor's session, in its replica's process) is still there.
    for visitor in (first, second):
        visitor.page.locator('[data-testid="stSidebar"] [data-testid="stPageLink"]',
                             has_text="Convergence").first.click()
        _drawn(visitor, "Convergence")
        assert _replica_of_next_request(visitor, replicas.url) == visitor.replica
    assert first.page.get_by_text(BANNER).count() == 1, "the upload is gone after the page switch"
    assert second.page.get_by_text(BANNER).count() == 0
    for visitor in (first, second):
        assert any(a.startswith("ws ") for a in visitor.answered), "no websocket handshake was seen"
        assert {a.removeprefix("ws ") for a in visitor.answered} == {visitor.replica}, visitor.answered

    # One replica stops (killed, as a crash would): its visitor's next load and a new visitor
    # both get their page from the other replica.
    stopped, survivor = first.replica, second.replica
    os.kill(replicas.pids[stopped], signal.SIGKILL)
    deadline = time.monotonic() + 30
    while healthy(f"http://{stopped}"):
        assert time.monotonic() < deadline, f"{stopped} still answers after SIGKILL"
        time.sleep(0.1)   # polling period
    reload = first.page.reload(timeout=RENDER_TIMEOUT_MS)
    assert reload is not None and reload.ok
    assert _answered_by(reload.headers.get("x-cfrviz-replica")) == survivor
    _drawn(first, "Convergence")
    newcomer = _visit(browser, url)
    assert newcomer.replica == survivor
    _drawn(newcomer, "Game tree")
    assert _replica_of_next_request(second, replicas.url) == survivor
    for visitor in (first, second, newcomer):
        visitor.context.close()
