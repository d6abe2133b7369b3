"""Reading a file a user names (a game, a run, a strategy), with a bound, from ordinary files only.

`st_size` bounds a read only for an ordinary file on disk: a device (/dev/zero) never ends, a FIFO
blocks whoever opens it for reading until a writer comes, and a /proc file says 0 bytes but holds
text. So the path is checked with `stat` (which follows symbolic links: a link to a device is the
device) before it is opened, opened without blocking in case it was swapped meanwhile, checked again,
and read to at most the limit plus one byte.
"""
from __future__ import annotations

import os
import stat

__all__ = ["read_ordinary_file"]

_CHUNK = 1 << 20


def _kind(mode: int) -> str | None:
    """What a file that is not an ordinary one is, in words; None for an ordinary file."""
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISFIFO(mode):
        return "a pipe (FIFO)"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "a special file"


def _checked(info: os.stat_result, shown: str, what: str, max_bytes: int) -> None:
    if stat.S_ISDIR(info.st_mode):
        raise ValueError(f"{shown} is a folder; cfrviz reads {what} files, not folders.")
    kind = _kind(info.st_mode)
    if kind is not None:
        raise ValueError(f"{shown} is {kind}, not an ordinary file; cfrviz reads {what} files from ordinary "
                         "files only.")
    if info.st_size > max_bytes:
        raise ValueError(f"{shown} is {info.st_size:,} bytes; cfrviz reads {what} files up to {max_bytes:,} bytes.")


def read_ordinary_file(path: str | os.PathLike[str], max_bytes: int, *, shown: str, what: str) -> bytes:
    """The bytes of the ordinary file at `path`, at most `max_bytes` of them.

    `shown` names the file in sentences and `what` says what it should hold (".efg", "run").
    ValueError (one sentence naming `shown`) for a folder, a device, a FIFO, a socket, a /proc or
    /sys file, or a file over `max_bytes`; OSError (from the system) when it cannot be read at all,
    so callers keep their own words for a missing file.
    """
    _checked(os.stat(path), shown, what, max_bytes)
    flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0)
    descriptor = os.open(path, flags)
    try:
        opened = os.fstat(descriptor)     # the file actually opened, should the path have changed
        _checked(opened, shown, what, max_bytes)
        chunks: list[bytes] = []
        total = 0
        while total <= max_bytes:
            chunk = os.read(descriptor, min(_CHUNK, max_bytes + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
    finally:
        os.close(descriptor)
    if total > max_bytes:
        raise ValueError(f"{shown} is more than {max_bytes:,} bytes; cfrviz reads {what} files up to {max_bytes:,} bytes.")
    if total != opened.st_size:
        if opened.st_size == 0:
            raise ValueError(f"{shown} is a /proc or /sys file (its size says 0 bytes, yet it holds text), not an "
                             f"ordinary file; cfrviz reads {what} files from ordinary files only.")
        raise ValueError(f"{shown} changed size while cfrviz read it; read it again once it is written.")
    return b"".join(chunks)


def write_failure(error: OSError) -> str:
    """The one sentence for a file that could not be written: where, and the system's reason."""
    where = f" {error.filename}" if error.filename else ""
    return f"Could not write{where}: {(error.strerror or str(error)).lower()}."
