"""The warm-up's compiling child ends with the server that started it.

Reference: `cfrviz.app.warmup.compile_in_child`'s contract: the child watches its stdin, a pipe only
the server holds, and ends when it closes; a server that is stopped must not leave a compiler running.
"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]


def test_the_compiling_child_ends_when_its_parent_closes_the_pipe(tmp_path: Path) -> None:
    # An empty numba cache: left alone, the child would compile for many seconds and exit 0.
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path), "PYTHONPATH": str(ROOT)}
    child = subprocess.Popen([sys.executable, "-m", "cfrviz.app.warmup", "--exit-with-parent"], cwd=ROOT, env=env,
                             stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        assert child.stdin is not None
        child.stdin.close()                 # what the kernel does when the server process ends
        assert child.wait(timeout=300) == 1  # ended by the watcher (exit code 1), not by finishing (0)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
