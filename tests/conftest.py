"""Shared test fixtures: a real `streamlit run` server and Debian's Chromium for browser tests.

Facts behind these choices: Playwright drives /usr/bin/chromium (never
`playwright install`), the server is started on 127.0.0.1 and polled on /_stcore/health, and
waits are on Streamlit's own script state, never on a fixed sleep.
"""
from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support.browser import CHROMIUM, CHROMIUM_ARGS, VIEWPORT
from tests.support.server import REPO_ROOT, streamlit_server


# The deploy config hides error details from visitors (client.showErrorDetails = "none" in
# .streamlit/config.toml); tests must see them. AppTest reads the option in this process, and
# servers started below get the flag (and the environment variable, for any other `streamlit run`).
os.environ["STREAMLIT_CLIENT_SHOW_ERROR_DETAILS"] = "full"
from streamlit import config as _streamlit_config  # noqa: E402

_streamlit_config.set_option("client.showErrorDetails", "full")


#: The marker of each test folder (registered in pyproject.toml): `-m` selects by what a test tests.
FOLDER_MARKERS = {"unit": "unit", "app": "app", "browser": "browser", "security": "security", "deploy": "deploy",
                  "wire": "wire"}


def pytest_configure(config: pytest.Config) -> None:
    # The unit tests' `kuhn_run` fixture (tests/unit/conftest.py) solves what this marker names.
    config.addinivalue_line("markers", "kuhn_run(iterations=..., updates=...): the CFR solve of Kuhn poker that "
                                       "the module's `kuhn_run` fixture is.")
    # Keep a picture of every failed browser test under test-results/ (pytest-playwright).
    if getattr(config.option, "screenshot", None) == "off":
        config.option.screenshot = "only-on-failure"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    tests = Path(__file__).resolve().parent
    for item in items:
        path = Path(str(item.path)).resolve()
        if path.is_relative_to(tests) and path.relative_to(tests).parts[0] in FOLDER_MARKERS:
            item.add_marker(FOLDER_MARKERS[path.relative_to(tests).parts[0]])
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
