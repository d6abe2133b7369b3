"""A server's resident memory, read from /proc (Linux): itself and every process below it, once or
sampled in the background.

Children count because they are the server's cost too: the kernels' compiling child and the
OpenSpiel loader run as child processes. They are found through each process's parent id in
`/proc/<pid>/stat`, not `/proc/<pid>/task/<pid>/children`, which lists only the children forked by
the main thread (Streamlit starts the OpenSpiel loader from a session's thread).
"""
from __future__ import annotations

import threading
import time
from pathlib import Path


def descendants(pid: int) -> list[int]:
    """Process ids of every process below `pid` (children, their children, ...), now."""
    parent_of: dict[int, int] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            # The command name in brackets may hold spaces and ')'; the fields after the last ')' do not.
            parent_of[int(stat.parent.name)] = int(stat.read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue                  # a process that ended while we looked
    found: list[int] = []
    frontier = [pid]
    while frontier:
        children = [child for child, parent in parent_of.items() if parent in frontier]
        found += children
        frontier = children
    return found


def rss_megabytes(pid: int) -> float:
    """VmRSS of `pid` and every process below it, MB (0 for processes that have ended)."""
    total_kb = 0
    for process in (pid, *descendants(pid)):
        try:
            for line in Path(f"/proc/{process}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total_kb += int(line.split()[1])
        except (OSError, ValueError):
            pass
    return total_kb / 1024


class RssSampler(threading.Thread):
    """Samples `rss_megabytes(pid)` every `interval` seconds with the current `phase`, until `stop`
    is set; `echo` prints each sample as it is taken."""

    def __init__(self, pid: int, interval: float, echo: bool = False) -> None:
        super().__init__(daemon=True, name="rss-sampler")
        self.pid, self.interval, self.echo = pid, interval, echo
        self.phase = "start"
        self.samples: list[tuple[float, str, float]] = []   # (seconds since start, phase, MB)
        self.stop = threading.Event()
        self.start_time = time.monotonic()

    def run(self) -> None:
        while not self.stop.is_set():
            elapsed = time.monotonic() - self.start_time
            megabytes = rss_megabytes(self.pid)
            self.samples.append((elapsed, self.phase, megabytes))
            if self.echo:
                print(f"{elapsed:7.1f} s  {megabytes:7.1f} MB  {self.phase}", flush=True)
            self.stop.wait(self.interval)

    def megabytes(self, *phases: str) -> list[float]:
        """The samples taken in any of `phases` (every sample when none is named), MB."""
        return [mb for _, phase, mb in list(self.samples) if not phases or phase in phases]
