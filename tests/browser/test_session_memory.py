"""What a session keeps once its page is drawn, and what is left of it once its tab has gone.

References: Streamlit's own accounting of uploaded files (`/_stcore/metrics`, the
`UploadedFileManager` line of `cache_memory_bytes`) and the shared run cache's contract (runs are
held by the cache within its budget, never by a session between its reruns).
"""
from __future__ import annotations

import gc
import io
import time
import types
import urllib.request
from pathlib import Path

import pytest
from tests.support.browser import APP_IDLE
from tests.support.server import deployed_server

import cfrviz
from cfrviz import app as ui
from cfrviz.app import share
from cfrviz.app.links import Choice
from cfrviz.run import Run
from cfrviz.run.cache import RunCache
from cfrviz.run import save_run


def reaches_a_run(root: object, depth: int = 6) -> bool:
    """Whether `root` refers to a `Run`, directly or through up to `depth` objects (the shared run
    cache, which is budgeted on its own, and modules are not followed)."""
    frontier, seen = [root], {id(root)}
    for _ in range(depth):
        following = []
        for obj in frontier:
            if isinstance(obj, Run):
                return True
            if isinstance(obj, (RunCache, types.ModuleType, type)):
                continue
            for referent in gc.get_referents(obj):
                if id(referent) not in seen:
                    seen.add(id(referent))
                    following.append(referent)
        frontier = following
    return any(isinstance(obj, Run) for obj in frontier)


def test_a_solved_views_downloads_name_the_run_and_do_not_hold_it():
    # Reference: the download rebuilds the same run (same settings, same numbers) from the cache.
    choice = Choice(cfrviz.catalog.get("kuhn"), "cfr+", 321, "alternating", 0)
    settings = choice.settings()
    run = ui.cached_solve(settings)
    view = ui.View(settings, run.tree, run, 321, run.num_snapshots - 1, None, choice, {})
    source = share._run_source(view)
    assert reaches_a_run(types.SimpleNamespace(run=run))        # the walk does find a run it is given
    assert not reaches_a_run(source)
    assert source() is run
    ui.shared_runs().clear()
    again = source()                                            # left the cache: solved again, same numbers
    assert again.exploitability[-1] == run.exploitability[-1]
    uploaded = share._run_source(ui.View(settings, run.tree, run, 321, 0, None, choice, {}, uploaded=True))
    assert uploaded() is run                                    # an upload lives in its session anyway


SETTLE_MS = 90_000


def uploaded_file_bytes(url: str) -> int:
    """Bytes of uploaded files the server holds, by Streamlit's own count (0 when none)."""
    with urllib.request.urlopen(f"{url}/_stcore/metrics", timeout=5) as answer:
        text = answer.read().decode()
    return sum(int(float(line.rsplit(" ", 1)[1])) for line in text.splitlines()
               if line.startswith("cache_memory_bytes") and "UploadedFileManager" in line)


@pytest.mark.browser
def test_a_gone_visitors_upload_is_let_go(new_context, tmp_path: Path) -> None:
    # Streamlit keeps a tab's session 2 s for a reconnect here (the deploy: 20 s); after that the
    # reaper shuts it down, which removes its uploaded file. Without it the file stays for good.
    saved = tmp_path / "run.npz"
    buffer = io.BytesIO()
    save_run(cfrviz.solve("kuhn", "cfr", iterations=300), buffer)
    saved.write_bytes(buffer.getvalue())
    # As deployed (the reaper starts with the server), with a 2 s reconnect window. The waits are
    # generous: this checks what is let go, not how fast a page draws on a busy machine.
    with deployed_server(env={"STREAMLIT_SERVER_DISCONNECTED_SESSION_TTL": "2"}) as (url, process):
        context = new_context()
        page = context.new_page()
        page.goto(f"{url}/Convergence", timeout=SETTLE_MS)
        page.wait_for_selector(APP_IDLE, timeout=SETTLE_MS)
        page.locator('[data-testid="stSidebar"] input[type="file"]').set_input_files(str(saved))
        page.get_by_text("Showing the uploaded run from").first.wait_for(state="visible", timeout=SETTLE_MS)
        assert uploaded_file_bytes(url) == len(buffer.getvalue())
        context.close()                                          # the tab is gone
        deadline = time.monotonic() + 60
        while uploaded_file_bytes(url) and time.monotonic() < deadline:
            time.sleep(0.5)                                      # polling period of the metrics, not a wait for the app
        assert uploaded_file_bytes(url) == 0
        assert process.poll() is None
