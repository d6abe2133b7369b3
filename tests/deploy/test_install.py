"""The package installs like any other: from a clean clone into a fresh virtual environment.

References: the packaging rules (PEP 517 build from pyproject.toml, PEP 621 metadata, a console
script, package data, PEP 561's py.typed), and the in-tree CLI, whose output the installed
`cfrviz` must reproduce line for line. The venv has no system site-packages, so everything it
imports was installed into it. It is the deploy test's venv (`deploy_venv`: the pinned
requirements.txt already installed), so pip resolves the package's dependency ranges against the
pinned set and installs only cfrviz itself: CI pays for one install of the heavy wheels.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

import cfrviz

ROOT = Path(__file__).resolve().parents[2]
SOLVE = ["solve", "kuhn", "--algorithm", "cfr+", "--iterations", "300"]
COMPARE = ["compare", "kuhn", "-a", "cfr+,outcome", "-n", "300", "--seeds", "3", "--plot"]
# A fresh venv plus the core dependencies: allow a slow mirror, but never hang CI.
INSTALL_TIMEOUT_S = 600


def _requirement_name(line: str) -> str:
    return re.split(r"[<>=!~\[; ]", line.strip(), maxsplit=1)[0].lower().replace("_", "-")


def test_pyproject_covers_the_pinned_app_set() -> None:
    # Reference: requirements.txt is the pinned app set; every package in it must be a dependency
    # of the package or of its [app] or [openspiel] extra (the hosted menu's games), and every
    # package dependency must be pinned there.
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    extras = project["optional-dependencies"]
    declared = {_requirement_name(r) for r in project["dependencies"] + extras["app"] + extras["openspiel"]}
    pinned = {_requirement_name(line) for line in (ROOT / "requirements.txt").read_text().splitlines()
              if line.strip() and not line.startswith(("#", "-"))}
    assert declared == pinned, f"only in pyproject: {declared - pinned}; only in requirements.txt: {pinned - declared}"
    assert project["scripts"]["cfrviz"] == "cfrviz.cli:main"
    assert set(project["optional-dependencies"]) >= {"app", "openspiel", "test", "dev"}


def _run(command: list[str], cwd: Path, env: dict[str, str], timeout: float = 120) -> str:
    done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    assert done.returncode == 0, f"{' '.join(command)} exited {done.returncode}:\n{done.stdout[-2000:]}\n{done.stderr[-3000:]}"
    return done.stdout


@pytest.mark.install
def test_clean_clone_installs_and_the_cli_runs_from_elsewhere(tmp_path: Path, deploy_venv: Path) -> None:
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        if os.environ.get("CI"):
            pytest.fail("CI must run the install test: git and a git checkout are needed.")
        pytest.skip("needs git and a git checkout of the repository")
    source, venv, elsewhere = tmp_path / "cfrviz-clone", deploy_venv, tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {**os.environ, "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
    env.pop("PYTHONPATH", None)
    # numba would cache compiled kernels beside the installed modules, and `pip uninstall` leaves
    # those files behind: a cfrviz/ folder without __init__.py that shadows the editable install.
    venv_env = {**env, "NUMBA_CACHE_DIR": str(tmp_path / "numba-cache")}
    subprocess.run(["git", "clone", "--quiet", str(ROOT), str(source)], check=True, timeout=120)
    python, pip = venv / "bin" / "python", [str(venv / "bin" / "python"), "-m", "pip"]
    # --no-compile: byte-compiling plotly's thousands of modules would double the time.
    _run([*pip, "install", "--quiet", "--no-compile", str(source)], cwd=elsewhere, env=env, timeout=INSTALL_TIMEOUT_S)
    # Every dependency the package declares is satisfied in the venv (pip's own check).
    _run([*pip, "check"], cwd=elsewhere, env=env)

    # Installed into the venv's site-packages, not read from the clone or this checkout.
    where = _run([str(python), "-c", "import cfrviz; print(cfrviz.__file__)"],
                 cwd=elsewhere, env=env).strip()
    installed = Path(where).parent
    assert installed.is_relative_to(venv) and "site-packages" in installed.parts, installed
    # Package data: py.typed and every tracked non-Python file under cfrviz/ (browser assets, games).
    tracked = subprocess.run(["git", "ls-files", "cfrviz"], cwd=source, capture_output=True, text=True,
                             check=True).stdout.split()
    data = [Path(name).relative_to("cfrviz") for name in tracked if not name.endswith(".py")]
    assert Path("py.typed") in data
    missing = [str(name) for name in data if not (installed / name).is_file()]
    assert not missing, f"not installed with the package: {missing}"

    # Reference: the in-tree CLI of this checkout, run the old way from the repository root.
    reference = _run([sys.executable, "-m", "cfrviz", *SOLVE], cwd=ROOT, env=env)
    assert _run([str(venv / "bin" / "cfrviz"), *SOLVE], cwd=elsewhere, env=venv_env) == reference
    assert _run([str(python), "-m", "cfrviz", *SOLVE], cwd=elsewhere, env=venv_env) == reference
    # And the number itself: CFR+'s exploitability after 300 iterations, computed in this process.
    expected = cfrviz.solve("kuhn", "cfr+", iterations=300).exploitability[-1]
    assert f"exploitability of the average strategy: {float(expected):.6g} chips per hand" in reference
    # `cfrviz compare` needs what only it uses (pandas; the SVG figure): a summary table and the file.
    table = _run([str(venv / "bin" / "cfrviz"), *COMPARE, str(elsewhere / "cmp.svg")], cwd=elsewhere, env=venv_env)
    assert "Outcome-sampling MCCFR" in table and (elsewhere / "cmp.svg").read_text().startswith("<svg")

    # Editable install of the same clone: now the clone's files are the package.
    _run([*pip, "install", "--quiet", "--no-compile", "--no-deps", "-e", str(source)], cwd=elsewhere, env=env,
         timeout=INSTALL_TIMEOUT_S)
    where = _run([str(python), "-c", "import cfrviz; print(cfrviz.__file__)"], cwd=elsewhere, env=env).strip()
    assert Path(where) == source / "cfrviz" / "__init__.py"
