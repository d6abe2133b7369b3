"""A real `streamlit run` server for tests and scripts: a free local port, the health poll and the
server itself, stopped by its own PID whatever happens.

Tests get it through fixtures in tests/conftest.py; scripts import it as `tests.support.server`
(with the repository root on `sys.path`).
"""
from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parents[2]
HEALTH_TIMEOUT_S = 30.0


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_healthy(url: str, process: subprocess.Popen[Any] | None = None, timeout: float = HEALTH_TIMEOUT_S,
                 log_path: Path | None = None) -> None:
    """Poll `url`/_stcore/health until it answers "ok". RuntimeError when `process` exits first or no
    answer comes within `timeout` seconds (naming `log_path`, the server's log, if given)."""
    see = f"; see {log_path}." if log_path is not None else "."
    deadline = time.monotonic() + timeout
    while True:
        if process is not None and process.poll() is not None:
            raise RuntimeError(f"streamlit exited with code {process.returncode}{see}")
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as answer:
                if answer.read().strip() == b"ok":
                    return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            pass
        if time.monotonic() > deadline:
            raise RuntimeError(f"streamlit did not answer /_stcore/health within {timeout:.0f} s{see}")
        # Polling interval of the health check, not a wait for app state.
        time.sleep(0.2)


@contextlib.contextmanager
def streamlit_server(
    script: Path | str = REPO_ROOT / "app.py",
    cwd: Path | str = REPO_ROOT,
    extra_args: tuple[str, ...] = (),
) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """Start `streamlit run script` on a free local port; yield (base URL, process); stop it.

    The process is ended by its own PID in `finally`, whatever happens in between.
    """
    script = Path(script)
    if not script.is_file():
        raise FileNotFoundError(f"No Streamlit entry file at {script}.")
    port = free_port()
    command = [
        sys.executable, "-m", "streamlit", "run", str(script),
        "--server.headless", "true",
        "--server.address", "127.0.0.1",
        "--server.port", str(port),
        "--browser.gatherUsageStats", "false",
        "--server.fileWatcherType", "none",
        "--client.showErrorDetails", "full",   # extra_args may pass "none" to check a deploy
        *extra_args,
    ]
    with _serving(command, cwd, dict(os.environ), port) as served:
        yield served


@contextlib.contextmanager
def deployed_server(address_space: int | None = 3 * 2**30, env: dict[str, str] | None = None, *,
                    health_timeout: float = HEALTH_TIMEOUT_S, log_path: Path | None = None,
                    process_group: bool = False) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """The app as deployed (`scripts/deploy.sh serve`: `python -m cfrviz.app.serve`, the deploy's
    memory settings, tracebacks hidden from visitors) on a free local port, under an address-space
    cap (`prlimit --as`, in bytes; None: no cap) so a runaway case fails its test instead of the machine; yield (base URL,
    process). `env` adds settings (e.g. an opt-in) to the server's environment. `log_path` is where
    its output goes (default test-results/server-PORT.log); with `process_group` the server leads a
    process group of its own, and stopping it ends the whole group (its children too)."""
    port = free_port()
    environment = {**os.environ, "ADDRESS": "127.0.0.1", "PORT": str(port), "PYTHON": sys.executable,
                   "STREAMLIT_CLIENT_SHOW_ERROR_DETAILS": "none", **(env or {})}
    # prlimit and deploy.sh exec the server, so the process started here is the server itself.
    cap = [] if address_space is None else ["prlimit", f"--as={int(address_space)}"]
    command = [*cap, "bash", str(REPO_ROOT / "scripts" / "deploy.sh"), "serve"]
    with _serving(command, REPO_ROOT, environment, port, health_timeout=health_timeout, log_path=log_path,
                  process_group=process_group) as served:
        yield served


@contextlib.contextmanager
def _serving(command: list[str], cwd: Path | str, env: dict[str, str], port: int, *,
             health_timeout: float = HEALTH_TIMEOUT_S, log_path: Path | None = None, process_group: bool = False,
             ) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    if log_path is None:
        log_path = Path(os.environ.get("CFRVIZ_SERVER_LOG", REPO_ROOT / "test-results" / f"server-{port}.log"))
    log_path.parent.mkdir(parents=True, exist_ok=True)
    log = open(log_path, "wb")
    process = subprocess.Popen(command, cwd=str(cwd), env=env, stdout=log, stderr=subprocess.STDOUT,
                               start_new_session=process_group)
    url = f"http://127.0.0.1:{port}"
    try:
        wait_healthy(url, process, health_timeout, log_path)
        yield url, process
    finally:
        if process_group:
            stop_group(process, 10.0)
        else:
            stop(process, 10.0)
        log.close()


def stop(process: subprocess.Popen[Any], timeout: float) -> None:
    """End `process` (a server this code started): terminate, then kill if it has not gone within `timeout` s."""
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=timeout)


def stop_group(process: subprocess.Popen[Any], timeout: float) -> None:
    """End the process group that `process` (a server this code started with `start_new_session`)
    leads: SIGTERM to the group, then SIGKILL to what is left of it after `timeout` s."""
    try:
        os.killpg(process.pid, signal.SIGTERM)
    except ProcessLookupError:
        return                          # the group has gone already
    try:
        process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        pass
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGKILL)   # the server, or children it left behind
    if process.poll() is None:
        process.wait(timeout=timeout)


def wait_for_log_line(log_path: Path, text: str, process: subprocess.Popen[Any] | None = None,
                      timeout: float = 600.0) -> None:
    """Wait until the server's log at `log_path` holds a line containing `text`. RuntimeError when
    `process` exits first or the line has not come within `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        if log_path.is_file() and any(text in line for line in log_path.read_text(errors="replace").splitlines()):
            return
        if process is not None and process.poll() is not None:
            raise RuntimeError(f"the server exited with code {process.returncode} before logging {text!r}; "
                               f"see {log_path}.")
        if time.monotonic() > deadline:
            raise RuntimeError(f"the server did not log {text!r} within {timeout:.0f} s; see {log_path}.")
        time.sleep(0.5)                 # polling interval of the log file, not a wait for app state


def healthy(url: str) -> bool:
    """Whether the server at `url` answers its health check with `ok` (within 2 s)."""
    try:
        with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as answer:
            return bool(answer.read().strip() == b"ok")
    except (urllib.error.URLError, ConnectionError, TimeoutError):
        return False
