"""A fresh server with an EMPTY numba cache, as a host without a build step starts it
(`streamlit run app.py`): the first visitor sees the default Kuhn solve while the kernels are still
being compiled, with the compiled kernels' numbers.

Reference: the same default solve run in this test's process with the compiled kernels; its final
exploitability, as the chart's title and its card print it (three significant digits), must be what
the page shows. Home's chart is the browser timeline's own drawing, so it needs no plotly.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import cfrviz
from cfrviz.app.links import DEFAULT_CHOICE
from cfrviz.util.text import clamped_exploitability, number
from tests.support.browser import RENDER_TIMEOUT_MS
from tests.support.server import streamlit_server

# A fresh server's first run imports everything; on a loaded 2-core machine that alone can take a minute.
FIRST_RUN_MS = 6 * RENDER_TIMEOUT_MS


def warm_up_children(server_pid: int) -> list[int]:
    """Process ids of the server's children that compile the kernels (`python -m cfrviz.app.warmup`)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            parent = int(stat.read_text().rsplit(")", 1)[1].split()[1])
            command = (stat.parent / "cmdline").read_bytes().split(b"\0")
        except (OSError, IndexError, ValueError):
            continue                    # a process that ended while we looked
        if parent == server_pid and b"cfrviz.app.warmup" in command:
            found.append(int(stat.parent.name))
    return found


@pytest.mark.browser
def test_first_visit_with_an_empty_numba_cache_shows_the_solve_while_compiling(
        new_context: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "numba"))     # nothing compiled, nothing cached
    first = DEFAULT_CHOICE
    reference = cfrviz.solve(first.spec, first.algorithm, iterations=first.iterations, updates=first.updates)
    with streamlit_server() as (url, process):
        page = new_context().new_page()
        page.goto(url, timeout=RENDER_TIMEOUT_MS)
        title = page.get_by_text("Exploitability of the average strategy")
        title.first.wait_for(state="visible", timeout=FIRST_RUN_MS)
        # Home's chart is the timeline's own SVG (no plotly), in the component's shadow root.
        chart = page.locator(".tl svg.tl-chart")
        chart.first.wait_for(state="visible", timeout=FIRST_RUN_MS)
        # Shown before the kernels were ready: the warm-up's child is still compiling them.
        compiling = warm_up_children(process.pid)
        shown = title.first.text_content() or ""
        # Home writes it with the app's one formatter (cfrviz.util.text.number), and so does the timeline's card
        # (below, util.js's twin of it).
        assert f"{number(clamped_exploitability(float(reference.exploitability[-1])))} chips per hand" in shown, shown
        assert compiling, "the kernels were compiled before the first solve was shown"
        # The chart's card reads the shown frame's (t = the last iteration) exploitability from the payload.
        metric = page.locator('[data-testid="timeline-exploitability"]').first.text_content() or ""
        assert metric.startswith(f"{number(clamped_exploitability(float(reference.exploitability[-1])))} average"), metric
        errors = page.locator('[data-testid="stException"]')
        assert errors.count() == 0, errors.first.inner_text()[:600]
