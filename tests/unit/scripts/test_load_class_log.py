"""scripts/load_class.py counts the exception types in the server's log.

Reference: lines copied from a deployed server's log of 2026-11-27 (a class of 30): Streamlit prints a
script's traceback through rich, in colour, so its last line starts with a colour code; a traceback
from Python's own printer (a media file's deferred callable) does not.
"""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[3]


def _load_class() -> ModuleType:
    spec = importlib.util.spec_from_file_location("load_class", ROOT / "scripts" / "load_class.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module     # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def test_coloured_and_plain_tracebacks_are_both_counted(tmp_path: Path) -> None:
    log = tmp_path / "server.log"
    log.write_text(
        "\x1b[1;91mMemoryError: \x1b[0mUnable to allocate \x1b[1;36m3.90\x1b[0m MiB for an array\n"
        "\x1b[1;91mMemoryError: \x1b[0mUnable to allocate \x1b[1;36m13.2\x1b[0m MiB for an array\n"
        "streamlit.runtime.media_file_storage.MediaFileStorageError: Deferred file 69b7 not found\n"
        "    raise MediaFileStorageError(f\"Deferred file {file_id} not found\")\n"
        "cfrviz: no visitor left; 10 caches emptied and the heap trimmed\n")
    assert _load_class().log_exceptions(log) == {
        "MemoryError": 2, "streamlit.runtime.media_file_storage.MediaFileStorageError": 1}


def test_a_childs_pages_shared_with_the_server_are_counted_once() -> None:
    # Reference: /proc's smaps_rollup (Documentation/filesystems/proc.rst): a child that maps the
    # same libraries as this process has Shared_Clean pages, which the VmRSS sum counts in both and
    # `own_megabytes` counts once (this process's VmRSS plus the child's private pages).
    import os
    import subprocess
    import time

    from tests.support.memory import rss_megabytes

    module = _load_class()
    child = subprocess.Popen([sys.executable, "-c", "import numpy, sys; sys.stdin.read()"], stdin=subprocess.PIPE)
    try:
        def child_kb(*fields: str) -> int:
            lines = Path(f"/proc/{child.pid}/smaps_rollup").read_text().splitlines()
            return sum(int(line.split()[1]) for line in lines if line.startswith(fields))

        deadline = time.monotonic() + 60
        while child_kb("Shared_Clean:") < 1024:     # until the child has mapped its libraries
            assert child.poll() is None and time.monotonic() < deadline
        shared_mb = child_kb("Shared_Clean:", "Shared_Dirty:") / 1024
        assert module.own_megabytes(os.getpid()) <= rss_megabytes(os.getpid()) - 0.9 * shared_mb
    finally:
        assert child.stdin is not None
        child.stdin.close()
        child.wait()
