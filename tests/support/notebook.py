"""A real notebook host for the widget's browser tests: `marimo run` (marimo's app server) on a
free local port, polled on its /health route, stopped by its own PID whatever happens.
"""
from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

from tests.support.server import REPO_ROOT, free_port, stop

HEALTH_TIMEOUT_S = 60.0


def _healthy(url: str) -> bool:
    try:
        with urllib.request.urlopen(f"{url}/health", timeout=2) as answer:
            return bool(json.loads(answer.read()).get("status") == "healthy")
    except (urllib.error.URLError, ConnectionError, TimeoutError, ValueError):
        return False


@contextlib.contextmanager
def marimo_app(notebook: Path, args: tuple[str, ...] = (), log_path: Path | None = None) -> Iterator[str]:
    """Serve `notebook` with `marimo run` (read-only app mode, no token) on 127.0.0.1; yield its URL.
    `args` reach the notebook as `mo.cli_args()`. The server runs this checkout's cfrviz (PYTHONPATH)."""
    port = free_port()
    if log_path is None:
        log_path = REPO_ROOT / "test-results" / f"marimo-{port}.log"
    log_path.parent.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO_ROOT), os.environ.get("PYTHONPATH", "")])}
    command = [sys.executable, "-m", "marimo", "run", str(notebook), "--headless", "--host", "127.0.0.1",
               "--port", str(port), "--no-token", "--no-sandbox", *(("--", *args) if args else ())]
    url = f"http://127.0.0.1:{port}"
    with open(log_path, "wb") as log:
        process = subprocess.Popen(command, cwd=str(REPO_ROOT), env=env, stdout=log, stderr=subprocess.STDOUT)
        try:
            deadline = time.monotonic() + HEALTH_TIMEOUT_S
            while not _healthy(url):
                if process.poll() is not None:
                    raise RuntimeError(f"marimo exited with code {process.returncode}; see {log_path}.")
                if time.monotonic() > deadline:
                    raise RuntimeError(f"marimo did not answer /health within {HEALTH_TIMEOUT_S:.0f} s; see {log_path}.")
                time.sleep(0.2)   # polling interval of the health check, not a wait for app state
            yield url
        finally:
            stop(process, 10.0)
