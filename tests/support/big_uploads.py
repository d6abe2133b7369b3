"""Uploads at the server's limits, made here rather than stored: a valid Leduc run whose arrays
unpack to just under the unpacked cap, and a large Gambit .efg game.

Used by the memory tests and by `scripts/budget.py`.
"""
from __future__ import annotations

import io

import numpy as np

#: Bytes of one Leduc snapshot (288 sets x 3 actions x 3 float64 arrays, reach [288] and six [T] series).
_LEDUC_SNAPSHOT_BYTES = 288 * 3 * 8 * 3 + 288 * 8 + 7 * 8


def maximal_leduc_npz(unpacked_bytes: int) -> bytes:
    """A valid Leduc run (.npz, as `save_run` writes it) with as many snapshots as fit in
    `unpacked_bytes`: the last three snapshots of a short CFR+ solve repeated, at iterations 1, 2, 3, ...
    Repetition compresses well, so the file is small and its unpacked arrays are the cap's size:
    the largest valid run an upload can carry."""
    import cfrviz
    from cfrviz.run import save_run

    base = cfrviz.solve("leduc", "cfr+", iterations=50, snapshots="all")
    small = io.BytesIO()
    save_run(base, small)
    with np.load(io.BytesIO(small.getvalue()), allow_pickle=False) as archive:
        arrays = {name: archive[name] for name in archive.files}
    # Whole snapshots under the cap, less a little for the .npy headers and the settings text.
    count = (unpacked_bytes - 50_000) // _LEDUC_SNAPSHOT_BYTES
    # Three snapshots in turn: one period of an array (3 x 6.9 kB) sits inside zlib's 32 kB window.
    take = base.num_snapshots - 3 + np.arange(count) % 3
    for name in ("cumulative_regret", "current_strategy", "average_strategy", "reach", "value", "expected_value",
                 "exploitability", "nodes_touched", "seconds", "current_exploitability"):
        arrays[name] = np.ascontiguousarray(arrays[name][take])
    arrays["iterations"] = np.arange(1, count + 1, dtype=np.int64)
    settings = base.settings.to_json().replace('"iterations": 50', f'"iterations": {count}')
    if settings == base.settings.to_json():
        raise AssertionError("The run's settings no longer spell iterations as this builder expects.")
    arrays["settings"] = np.array(settings)
    buffer = io.BytesIO()
    np.savez_compressed(buffer, **arrays)
    return buffer.getvalue()
