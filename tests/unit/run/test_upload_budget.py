"""What uploads may hold: one maximal upload's peak, and the process-wide budget of live uploaded runs.

References: the budget's arithmetic (a Kuhn run of 200 CFR iterations is `run.nbytes` bytes, so a
budget of two and a half such runs admits two and refuses the third with BUSY_SENTENCE until one is
let go); the 300 MB one click may cost (README, "Per-click budget"; `cfrviz.util.memory`); the
maximal run's arrays are the unpacked cap's size (built by tests/support/big_uploads.py).
"""
from __future__ import annotations

import gc
import tracemalloc

import pytest
from tests.support.big_uploads import maximal_leduc_npz

import cfrviz
from cfrviz.run.uploads import BUSY_SENTENCE, MAX_LIVE_UPLOAD_BYTES, MAX_UNPACKED_BYTES, LiveUploads, unpacked_bytes

# The solve behind `kuhn_run` (tests/unit/conftest.py) for this module's tests.
pytestmark = pytest.mark.kuhn_run(iterations=200)

#: One click (here: one upload, read and checked) may grow the server by at most this.
CLICK_BYTES = 300_000_000


def test_the_budget_admits_runs_until_full_and_again_once_one_is_let_go(kuhn_npz: bytes) -> None:
    size = unpacked_bytes("k.npz", kuhn_npz)
    uploads = LiveUploads(int(2.5 * size))
    released: list[str] = []
    uploads.on_release(released.append)
    first, first_token = uploads.read("k.npz", kuhn_npz)
    second, _ = uploads.read("k.npz", kuhn_npz)
    assert uploads.count == 2 and uploads.held_bytes == first.nbytes + second.nbytes
    with pytest.raises(ValueError) as refused:
        uploads.read("k.npz", kuhn_npz)
    assert str(refused.value) == BUSY_SENTENCE
    assert uploads.count == 2                       # the refused upload reserved nothing
    del first
    gc.collect()
    assert uploads.count == 1 and released == [first_token]
    third, third_token = uploads.read("k.npz", kuhn_npz)
    assert third_token != first_token and uploads.token(third) == third_token


def test_a_refused_file_returns_its_reservation(kuhn_npz: bytes) -> None:
    uploads = LiveUploads(10 * unpacked_bytes("k.npz", kuhn_npz))
    with pytest.raises(ValueError, match="truncated or damaged"):
        uploads.read("k.npz", kuhn_npz[: len(kuhn_npz) // 2])
    assert uploads.count == 0 and uploads.held_bytes == 0


def test_a_run_that_did_not_come_through_read_is_counted_under_one_token() -> None:
    uploads = LiveUploads(10**9)
    run = cfrviz.solve("kuhn", "cfr", iterations=10)
    token = uploads.token(run)
    assert uploads.token(run) == token and uploads.held_bytes == run.nbytes
    del run
    gc.collect()
    assert uploads.held_bytes == 0


def test_the_budget_holds_three_maximal_uploads() -> None:
    # The constants' own promise: three visitors' largest runs at once.
    assert MAX_LIVE_UPLOAD_BYTES == 3 * MAX_UNPACKED_BYTES


def test_reading_a_maximal_upload_peaks_under_one_click() -> None:
    # Before the arrays were checked in place this peaked at 485 MB (a copy of every array, plus
    # full-size temporaries for the strategy checks); now at about the run itself (200 MB).
    data = maximal_leduc_npz(MAX_UNPACKED_BYTES)
    uploads = LiveUploads(MAX_LIVE_UPLOAD_BYTES)
    gc.collect()
    tracemalloc.start()
    try:
        run, _ = uploads.read("maximal.npz", data)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert run.nbytes > 0.99 * MAX_UNPACKED_BYTES      # the run really is maximal
    assert peak < CLICK_BYTES, f"reading a maximal upload peaked at {peak / 1e6:.0f} MB"
