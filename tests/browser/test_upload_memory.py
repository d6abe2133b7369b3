"""Ten visitors in turn each upload the largest run the server reads, look at it and close the tab:
the server's memory comes back to where it started after each one.

References: the server's own resident size (`/proc/<pid>/status`, VmRSS) before the first upload;
the run is a valid Leduc run whose arrays unpack to just under the unpacked cap
(`cfrviz.run.uploads.MAX_UNPACKED_BYTES`, 200 MB), so each upload, if kept, holds about 190 MiB:
keeping even one would break the 100 MB allowance.
"""
from __future__ import annotations

import time
from pathlib import Path

import pytest
from tests.support.big_uploads import maximal_leduc_npz
from tests.support.browser import APP_IDLE
from tests.support.server import deployed_server

from cfrviz.run.uploads import MAX_UNPACKED_BYTES

pytestmark = pytest.mark.browser

UPLOADS = 10
#: Most the server may still hold, over its size before the first upload, once a tab has gone.
ALLOWANCE_MIB = 100
#: Streamlit keeps a closed tab's session this long here (the deploy: 20 s); the reaper then looks
#: every 5 s (REAP_INTERVAL_S). A release is waited for this long at most.
RELEASE_DEADLINE_S = 90
SETTLE_MS = 120_000


def resident_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise AssertionError(f"no VmRSS for process {pid}")


def comes_down_to(pid: int, most: float) -> float:
    """The server's resident MiB once at or under `most`, or the last one seen at the deadline."""
    deadline = time.monotonic() + RELEASE_DEADLINE_S
    seen = resident_mib(pid)
    while seen > most and time.monotonic() < deadline:
        time.sleep(0.5)      # polling period of /proc, not a wait for the app
        seen = resident_mib(pid)
    return seen


def visit(new_context, url: str, upload: Path | None) -> None:
    """One visitor: the Game tree page (its timeline is drawn from the run), the upload shown, the tab closed."""
    context = new_context()
    page = context.new_page()
    page.goto(f"{url}/Game_tree", timeout=SETTLE_MS)
    page.wait_for_selector(APP_IDLE, timeout=SETTLE_MS)
    page.get_by_test_id("timeline-t").wait_for(state="visible", timeout=SETTLE_MS)
    if upload is not None:
        page.locator('[data-testid="stSidebar"] input[type="file"]').set_input_files(str(upload))
        page.get_by_text("Showing the uploaded run from").first.wait_for(state="visible", timeout=SETTLE_MS)
        page.wait_for_selector(APP_IDLE, timeout=SETTLE_MS)
        page.get_by_test_id("timeline-t").filter(has_text="of 8,").wait_for(timeout=SETTLE_MS)
    context.close()


def warmed_up(log: Path) -> bool:
    """Whether the server has said its start-up work is done: kernels, default views and the pages'
    modules (cfrviz.app.serve's last line), so none of it is counted against the uploads."""
    deadline = time.monotonic() + SETTLE_MS / 1000
    while "page modules loaded" not in log.read_text(errors="replace") and time.monotonic() < deadline:
        time.sleep(0.5)      # polling period of the log, not a wait for the app
    return "page modules loaded" in log.read_text(errors="replace")


def test_ten_maximal_uploads_with_tabs_closing_leave_the_server_where_it_started(
        new_context, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    log = tmp_path / "server.log"
    monkeypatch.setenv("CFRVIZ_SERVER_LOG", str(log))
    saved = tmp_path / "maximal.npz"
    saved.write_bytes(maximal_leduc_npz(MAX_UNPACKED_BYTES))
    # As deployed (the reaper starts with the server), under the 4 GB address-space cap, with
    # a 2 s reconnect window so ten visitors take minutes, not ten times the deploy's 20 s.
    with deployed_server(address_space=4 * 2**30, env={"STREAMLIT_SERVER_DISCONNECTED_SESSION_TTL": "2"}) as (url, process):
        # Where it starts: warmed up and the page visited twice (the Leduc tree, the page's caches).
        assert warmed_up(log)
        visit(new_context, url, None)
        visit(new_context, url, None)
        start = resident_mib(process.pid)
        peaks = []
        for visitor in range(UPLOADS):
            visit(new_context, url, saved)
            peaks.append(resident_mib(process.pid))
            after = comes_down_to(process.pid, start + ALLOWANCE_MIB)
            assert after <= start + ALLOWANCE_MIB, (
                f"after visitor {visitor + 1}'s tab closed the server held {after:.0f} MiB, "
                f"{after - start:.0f} MiB over its {start:.0f} MiB before the first upload")
        assert process.poll() is None
        print(f"server {start:.0f} MiB before; after each upload {', '.join(f'{p:.0f}' for p in peaks)} MiB")
