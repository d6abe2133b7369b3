"""The command line as a user runs it: `python -m cfrviz ...` in a child process, from the repository root."""
from __future__ import annotations

import resource
import subprocess
import sys
from pathlib import Path

from tests.support.messages import one_sentence

ROOT = Path(__file__).resolve().parents[2]


def run_python(*args: str, timeout: float = 300, address_space: int | None = None) -> subprocess.CompletedProcess[str]:
    """`python *args` with its output captured and no stdin. `address_space` (bytes) caps the child's
    address space, so a reader without a bound fails the test instead of filling the machine;
    `timeout` is a hang guard, not a performance claim."""
    def capped() -> None:
        if address_space is not None:
            resource.setrlimit(resource.RLIMIT_AS, (address_space, address_space))

    return subprocess.run([sys.executable, *args], cwd=ROOT, capture_output=True, text=True, timeout=timeout,
                          preexec_fn=capped if address_space is not None else None, stdin=subprocess.DEVNULL)


def run_cli(*args: str, timeout: float = 300, address_space: int | None = None) -> subprocess.CompletedProcess[str]:
    """`python -m cfrviz *args` (see `run_python`)."""
    return run_python("-m", "cfrviz", *args, timeout=timeout, address_space=address_space)


def refusal(result: subprocess.CompletedProcess[str]) -> str:
    """The one line a refused command printed on stderr, after checking that it exited with status 2,
    printed nothing on stdout, and said "cfrviz: " and one sentence (`one_sentence`)."""
    assert result.returncode == 2, (result.returncode, result.stderr[-500:])
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("cfrviz: "), result.stderr[-500:]
    assert one_sentence(lines[0].removeprefix("cfrviz: ")), result.stderr[-500:]
    return lines[0]
