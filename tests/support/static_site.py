"""A built static site served by `python -m http.server` on loopback, for tests and scripts: a free
port, a poll until it answers, and the server stopped by its own PID whatever happens."""
from __future__ import annotations

import contextlib
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

from tests.support.server import REPO_ROOT, free_port

SERVE_TIMEOUT_S = 15.0


def build_site(folder: Path, menu: str = "small", app_url: str = "https://cfrviz.example.org") -> None:
    """`python -m cfrviz.site build folder --menu menu` as a subprocess (the command CI runs)."""
    done = subprocess.run([sys.executable, "-m", "cfrviz.site", "build", str(folder), "--menu", menu,
                           "--app-url", app_url], cwd=REPO_ROOT, capture_output=True, text=True, timeout=600)
    if done.returncode != 0:
        raise RuntimeError(f"The site build failed: {done.stderr.strip()}")


@contextlib.contextmanager
def static_server(folder: Path) -> Iterator[str]:
    """Serve `folder` on 127.0.0.1; yield its base URL ("http://127.0.0.1:PORT")."""
    port = free_port()
    process = subprocess.Popen([sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1",
                                "--directory", str(folder)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + SERVE_TIMEOUT_S
        while True:
            if process.poll() is not None:
                raise RuntimeError(f"http.server exited with code {process.returncode}.")
            try:
                with urllib.request.urlopen(f"{url}/index.html", timeout=2) as answer:
                    if answer.status == 200:
                        break
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"http.server did not answer within {SERVE_TIMEOUT_S:.0f} s.")
            time.sleep(0.1)   # polling interval of the readiness check, not a wait for page state
        yield url
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)
