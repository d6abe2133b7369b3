"""The server's memory report (`CFRVIZ_MEMORY_REPORT`, off by default): what holds a large array.

Reference: arrays this test places itself, held from a module's globals or only by a reference
cycle, so the expected chain is known by construction.
"""
from __future__ import annotations

import gc
import sys
import types

import numpy as np
import pytest

from cfrviz.app import serve
from cfrviz.util import idle


class Holder:
    """Stands for a run: an object whose attribute is a large array."""

    def __init__(self, megabytes: int) -> None:
        self.cumulative_regret = np.zeros(megabytes * 125_000)     # float64: 8 bytes each


def test_a_large_array_is_traced_to_the_module_global_that_holds_it(monkeypatch: pytest.MonkeyPatch) -> None:
    module = types.ModuleType("cfrviz_probe_module")
    module.held = [Holder(3)]    # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, module.__name__, module)
    lines = serve._large_arrays()
    mine = [line for line in lines if "(1 × float64 (375000,))" in line]
    assert len(mine) == 1 and mine[0].endswith("Holder <- list <- module cfrviz_probe_module.held"), lines
    assert mine[0].split()[:4] == ["3.0", "MB", "in", "1"], lines


def test_the_arrays_one_object_holds_are_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    # Reference: two 1.5 MB arrays on one object (as a run's snapshot arrays are) are 3.0 MB in 2, one path.
    holder = Holder(1)
    holder.cumulative_regret = np.zeros(187_500)
    holder.average_strategy = np.ones(187_500)   # type: ignore[attr-defined]
    module = types.ModuleType("cfrviz_probe_pair")
    module.held = holder     # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, module.__name__, module)
    lines = serve._large_arrays()
    mine = [line for line in lines if "cfrviz_probe_pair" in line]
    assert len(mine) == 1 and "3.0 MB in 2 (2 × float64 (187500,)): Holder <- module cfrviz_probe_pair.held" in mine[0], \
        lines


def test_garbage_in_a_cycle_has_no_root() -> None:
    gc.disable()        # the collector would free the cycle before the report looks at it
    try:
        cycle = Holder(2)
        cycle.me = cycle    # type: ignore[attr-defined]
        del cycle
        lines = serve._large_arrays()
    finally:
        gc.enable()
        gc.collect()
    mine = [line for line in lines if "(1 × float64 (250000,))" in line]
    assert len(mine) == 1 and "no root found" in mine[0], lines


def test_observers_run_after_the_caches_are_emptied(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(idle, "_emptiers", {})
    monkeypatch.setattr(idle, "_observers", [])
    calls: list[str] = []

    def broken() -> None:
        raise RuntimeError("a report that fails")

    idle.on_idle("cache", lambda: calls.append("emptied"))
    idle.after_release(broken)
    idle.after_release(lambda: calls.append("reported"))
    assert idle.release() == 1
    assert calls == ["emptied", "reported"]


def test_the_report_is_off_unless_asked(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.delenv(serve.MEMORY_REPORT, raising=False)
    monkeypatch.setattr(idle, "_observers", [])
    monkeypatch.setattr(serve, "_ASKED_REPORT", [])
    assert not serve.memory_report_asked()
    monkeypatch.setenv(serve.MEMORY_REPORT, "1")
    assert serve.memory_report_asked()
    serve._start_memory_report()
    assert len(idle._observers) == 1
    assert "cfrviz memory report:" in capsys.readouterr().err
    # The signal's report (what load_class asks at the class's height) is the same report, on a thread.
    reporter = serve._report_on_signal(int(serve.REPORT_SIGNAL), None)
    assert reporter is not None
    reporter.join(timeout=120)
    assert "cfrviz memory report:" in capsys.readouterr().err
