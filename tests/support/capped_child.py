"""One hostile case in a child process under an address-space cap (RLIMIT_AS), with its peak growth.

The child first warms up (imports, compiled kernels), then caps its address space at what is mapped
plus a margin, resets its peak resident size (VmHWM), runs the case and prints one JSON line.
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]

#: Put before a child's own script: `cap_memory(megabytes)` returns the resident bytes before the case,
#: `peak_growth_mb(before)` the growth of the peak since then.
PRELUDE = r"""
import gc, json, resource, sys
from pathlib import Path

def status(field):
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) * 1024
    raise KeyError(field)

def cap_memory(megabytes):
    gc.collect()
    resource.setrlimit(resource.RLIMIT_AS, (status("VmSize") + megabytes * 2**20, resource.RLIM_INFINITY))
    Path("/proc/self/clear_refs").write_text("5")   # resets VmHWM, the peak resident size
    return status("VmRSS")

def peak_growth_mb(before):
    return (status("VmHWM") - before) / 2**20
"""


def run_capped(script: str, *args: str, timeout: float = 600) -> dict[str, Any]:
    """Run PRELUDE + script with args in a fresh interpreter; the JSON object its last line prints."""
    result = subprocess.run([sys.executable, "-c", PRELUDE + script, *args], capture_output=True, text=True,
                            timeout=timeout, cwd=ROOT,
                            env={"PATH": "/usr/bin:/bin", "OPENBLAS_NUM_THREADS": "1", "NUMBA_NUM_THREADS": "1",
                                 "PYTHONPATH": str(ROOT)})
    assert result.returncode == 0, result.stderr[-3000:]
    report: dict[str, Any] = json.loads(result.stdout.strip().splitlines()[-1])
    return report
