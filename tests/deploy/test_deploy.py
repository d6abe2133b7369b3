"""The deploy recipe, exercised: every step the Dockerfile runs, on a fresh virtual environment.

No container runtime can pull a base image here, so the Dockerfile only calls scripts/deploy.sh,
and this test runs the same script through scripts/deploy_check.sh: install requirements.txt,
warm the compiled kernels, start the server with the deployed settings, check /_stcore/health,
the app shell at / and (with Chromium) two pages in a real browser, then stop it. Reference:
Streamlit's health endpoint answers "ok"; the pages draw their headings without an error.
"""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def test_dockerfile_runs_the_deploy_script_as_a_non_root_user() -> None:
    # Reference: Hugging Face's Docker SDK (user 1000, app_port in the README front matter).
    dockerfile = (ROOT / "Dockerfile").read_text()
    steps = re.findall(r"^(?:RUN|CMD)\b.*$", dockerfile, flags=re.MULTILINE)
    for command in ("install", "warm", "serve"):
        assert any(f"scripts/deploy.sh {command}" in step or f'"scripts/deploy.sh", "{command}"' in step
                   for step in steps), f"the Dockerfile does not run deploy.sh {command}: {steps}"
    users = re.findall(r"^USER\s+(\S+)", dockerfile, flags=re.MULTILINE)
    assert users and users[-1] not in ("root", "0"), users
    front = (ROOT / "README.md").read_text().split("---\n")
    assert front[0] == "" and "sdk: docker" in front[1] and "app_port: 8501" in front[1], front[:2]
    assert re.search(r"EXPOSE\s+8501", dockerfile)
    assert '"${ADDRESS:-0.0.0.0}"' in (ROOT / "scripts" / "deploy.sh").read_text()


@pytest.mark.install
def test_deploy_script_on_a_fresh_environment(deploy_venv: Path) -> None:
    env = {**os.environ, "DEPLOY_VENV": str(deploy_venv), "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
    env.pop("PYTHONPATH", None)
    if Path("/usr/bin/chromium").exists():
        env["BROWSER_PYTHON"] = sys.executable
    done = subprocess.run(["bash", str(ROOT / "scripts" / "deploy_check.sh")], env=env, capture_output=True,
                          text=True, timeout=1200)
    print(done.stdout[-3000:])
    assert done.returncode == 0, f"{done.stdout[-3000:]}\n{done.stderr[-4000:]}"
    assert "health ok; / returned the app shell" in done.stdout
    assert "cfrviz: kernels ready" in done.stdout + done.stderr
    if "BROWSER_PYTHON" in env:
        assert "browser: /Convergence" in done.stdout, done.stdout[-2000:]
