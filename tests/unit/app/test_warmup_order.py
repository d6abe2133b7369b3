"""The compiling warm-up waits for the first page's drawing; the `serve` entry point does not.

Reference: `cfrviz.app.solving.start_warmup`'s contract. On a 2-core machine the compiling child
slowed the first visitor's page (scripts/bench_first_visit.py), so a server started by `streamlit run`
compiles once a page has sent its first drawing, or after `FIRST_DRAWING_WAIT` seconds without one;
a server started by `python -m cfrviz.app.serve` compiles before any visitor arrives. Either way the
first visit's views are solved and pinned right after the compile (`_presolve_defaults`).
"""
from __future__ import annotations

import threading
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from cfrviz.app import solving, warmup

APP = str(Path(__file__).resolve().parents[3] / "app.py")


class RecordingEvent(threading.Event):
    """An event that notes each wait, with its timeout, in `order`."""

    def __init__(self, order: list[str]) -> None:
        super().__init__()
        self.order = order

    def wait(self, timeout: float | None = None) -> bool:
        self.order.append(f"wait {timeout}")
        return super().wait(timeout)


@pytest.fixture
def order(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """A fresh warm-up state whose compile and default solves only record that they ran."""
    calls: list[str] = []
    monkeypatch.setattr(solving, "_warm_thread", None)
    monkeypatch.setattr(solving, "_WARM", threading.Event())
    monkeypatch.setattr(solving, "_DEFAULTS", threading.Event())
    monkeypatch.setattr(solving, "_FIRST_DRAWING", RecordingEvent(calls))
    monkeypatch.setattr(warmup, "warm_up", lambda: calls.append("compile") or 0.0)
    monkeypatch.setattr(solving, "_presolve_defaults", lambda pin_also: calls.append("defaults"))
    return calls


def test_a_page_server_compiles_after_the_first_drawing(order: list[str]) -> None:
    solving.start_warmup(lambda: None)
    thread = solving._warm_thread
    assert thread is not None
    solving.first_drawing_sent()
    thread.join(timeout=60)
    assert order == [f"wait {solving.FIRST_DRAWING_WAIT}", "compile", "defaults"]
    assert solving.is_warm() and solving.wait_for_defaults(0)


def test_the_serve_entry_point_compiles_at_once(order: list[str]) -> None:
    solving.start_warmup(lambda: None, after_first_drawing=False)
    thread = solving._warm_thread
    assert thread is not None
    thread.join(timeout=60)
    assert order == ["compile", "defaults"]    # no wait: no visitor is there to be slowed


def test_home_sends_its_first_drawing(monkeypatch: pytest.MonkeyPatch) -> None:
    # Home mounts the timeline (its exploitability chart): that is the first drawing the warm-up waits for.
    drawing = threading.Event()
    monkeypatch.setattr(solving, "_FIRST_DRAWING", drawing)
    at = AppTest.from_file(APP, default_timeout=60).run()
    assert not at.exception
    assert drawing.is_set()
