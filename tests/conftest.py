"""Shared test fixtures: a real `streamlit run` server and Debian's Chromium for browser tests.

Facts behind these choices: Playwright drives /usr/bin/chromium (never
`playwright install`), the server is started on 127.0.0.1 and polled on /_stcore/health, and
waits are on Streamlit's own script state, never on a fixed sleep.
"""
from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

# The deploy config hides error details from visitors (client.showErrorDetails = "none" in
# .streamlit/config.toml); tests must see them. AppTest reads the option in this process, and
# servers started below get the flag (and the environment variable, for any other `streamlit run`).
os.environ["STREAMLIT_CLIENT_SHOW_ERROR_DETAILS"] = "full"
from streamlit import config as _streamlit_config  # noqa: E402

_streamlit_config.set_option("client.showErrorDetails", "full")

REPO_ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    # Without these, Chromium keeps dialing hosts it cannot reach from here.
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
VIEWPORT = {"width": 1280, "height": 800}
# Streamlit scrolls inside its own container, so a full-page shot needs a tall viewport.
TALL_VIEWPORT = {"width": 1280, "height": 2400}
# First render takes 3-4 s on these 2-core machines; leave room for a busy CI box.
RENDER_TIMEOUT_MS = 20_000
HEALTH_TIMEOUT_S = 30.0
APP_IDLE = '[data-testid="stApp"][data-test-script-state="notRunning"]'


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


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
    log_path = Path(os.environ.get("CFRVIZ_SERVER_LOG", REPO_ROOT / "test-results" / f"server-{port}.log"))
    log_path.parent.mkdir(parents=True, exist_ok=True)
    log = open(log_path, "wb")
    process = subprocess.Popen(command, cwd=str(cwd), stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + HEALTH_TIMEOUT_S
        while True:
            if process.poll() is not None:
                raise RuntimeError(f"streamlit exited with code {process.returncode}; see {log_path}.")
            try:
                with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as answer:
                    if answer.read().strip() == b"ok":
                        break
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"streamlit did not answer /_stcore/health within {HEALTH_TIMEOUT_S:.0f} s; see {log_path}.")
            # Polling interval of the health check, not a wait for app state.
            time.sleep(0.2)
        yield url, process
    finally:
        if process.poll() is None:
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=10)
        log.close()


def wait_for_app(page: Any, text: str | None = None, timeout_ms: int = RENDER_TIMEOUT_MS) -> None:
    """Wait until the Streamlit script has finished running (and `text` is visible, if given).

    Right after a click the app may still report the previous run as finished, so tests that
    trigger a rerun should also name text the new run shows.
    """
    page.wait_for_selector(APP_IDLE, timeout=timeout_ms)
    if text is not None:
        page.get_by_text(text).first.wait_for(state="visible", timeout=timeout_ms)
        page.wait_for_selector(APP_IDLE, timeout=timeout_ms)


# Plotly and some widgets load lazily in the browser after the script run has finished.
_ALL_DRAWN = """() => {
  const charts = [...document.querySelectorAll('[data-testid="stPlotlyChart"]')];
  const sliders = [...document.querySelectorAll('[data-testid="stSlider"]')];
  return !document.querySelector('[data-testid="stSkeleton"]') &&
         charts.every(c => c.querySelector('.main-svg')) &&
         sliders.every(s => s.querySelector('[data-testid="stSliderThumbValue"]'));
}"""


def wait_for_drawn(page: Any, timeout_ms: int = RENDER_TIMEOUT_MS) -> None:
    """Wait until the script is idle, no placeholder is left, and every plotly chart and slider is drawn."""
    page.wait_for_selector(APP_IDLE, timeout=timeout_ms)
    page.wait_for_function(_ALL_DRAWN, timeout=timeout_ms)


def open_app(page: Any, url: str, text: str | None = None) -> None:
    """Go to `url` and wait for the first full render."""
    page.goto(url, timeout=RENDER_TIMEOUT_MS)
    # The idle marker only appears once the app shell is up and the first script run is over.
    page.wait_for_selector('[data-testid="stApp"]', timeout=RENDER_TIMEOUT_MS)
    wait_for_app(page, text)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "browser: drives Debian's Chromium against a real `streamlit run` server."
    )
    config.addinivalue_line(
        "markers", "install: builds a fresh virtual environment and installs the package into it (runs in CI)."
    )
    # Keep a picture of every failed browser test under test-results/ (pytest-playwright).
    if getattr(config.option, "screenshot", None) == "off":
        config.option.screenshot = "only-on-failure"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    # Off CI a machine without Chromium skips browser tests; CI installs it, so there they must run.
    if Path(CHROMIUM).exists() or os.environ.get("CI"):
        return
    skip = pytest.mark.skip(reason=f"{CHROMIUM} is missing; install Debian's chromium to run browser tests.")
    for item in items:
        if "browser" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(scope="session")
def app_url() -> Iterator[str]:
    """Base URL of `streamlit run app.py` served from the repository root for this session."""
    with streamlit_server() as (url, _process):
        yield url


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    """Launch Debian's Chromium headless, without any network chatter."""
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": CHROMIUM_ARGS}


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args: dict[str, Any]) -> dict[str, Any]:
    """Every browser context opens at 1280x800 unless a test asks for a taller one."""
    return {**browser_context_args, "viewport": VIEWPORT}


@pytest.fixture(scope="session")
def deploy_venv(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh virtual environment (no system site-packages) with the pinned app set installed by
    `scripts/deploy.sh install`, as the Dockerfile does; made once and shared by the deploy and
    install tests, so CI pays for one install."""
    venv = tmp_path_factory.mktemp("deploy") / "venv"
    subprocess.run([sys._base_executable, "-m", "venv", str(venv)], check=True, timeout=300)
    env = {**os.environ, "PYTHON": str(venv / "bin" / "python"), "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
    env.pop("PYTHONPATH", None)
    subprocess.run(["bash", str(REPO_ROOT / "scripts" / "deploy.sh"), "install"], env=env, check=True, timeout=1500)
    return venv
