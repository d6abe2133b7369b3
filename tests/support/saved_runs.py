"""A run as the file a visitor downloads and uploads again: the bytes `save_run` writes (.npz)."""
from __future__ import annotations

import io

from cfrviz.run import Run, save_run


def npz_bytes(run: Run) -> bytes:
    """`run` saved as a .npz file, as its bytes."""
    buffer = io.BytesIO()
    save_run(run, buffer)
    return buffer.getvalue()
