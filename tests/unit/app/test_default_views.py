"""The views a first visit gets are solved once per server start and pinned: they cost no solve after.

Reference: the issue "A class at once" asks that each page's default view (the settings a first
visit gets: the sidebar's `DEFAULT_CHOICE`) be computed once per server start and then cost no
solve; `cfrviz.run.cache.RunCache` keeps pinned runs outside its budget. The numbers are checked
against the same solve made outside the app.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

import cfrviz
from cfrviz.app import page_results, solving
from cfrviz.app.links import DEFAULT_CHOICE
from cfrviz.run import RunSettings
from cfrviz.run.cache import RunCache

APP = str(Path(__file__).resolve().parents[3] / "app.py")


@pytest.fixture
def cache(monkeypatch: pytest.MonkeyPatch) -> RunCache:
    """A fresh shared cache with room for one run only, so any later solve would push out the default."""
    fresh = RunCache(max_bytes=0, max_entries=1, max_concurrent_solves=solving.CONCURRENT_SOLVES)
    monkeypatch.setattr(solving, "_shared", fresh)
    return fresh


def test_the_default_view_is_solved_once_and_stays(cache: RunCache) -> None:
    solving._presolve_defaults(page_results.pin_first_views)
    assert (cache.stats().solves, cache.stats().pinned) == (1, 1)
    settings = DEFAULT_CHOICE.settings()
    run = solving.cached_solve(settings)
    for iterations in (11, 12, 13):                 # other visitors' solves fill the one-run budget
        solving.cached_solve(RunSettings(cfrviz.catalog.get("kuhn"), "cfr", iterations, "simultaneous", 0))
    assert solving.cached_solve(settings) is run
    assert cache.stats().solves == 4 and cache.stats().pinned == 1
    reference = cfrviz.solve(settings.spec, settings.algorithm, iterations=settings.iterations,
                             updates=settings.updates, seed=settings.seed)
    assert np.array_equal(run.exploitability, reference.exploitability)
    assert np.array_equal(run.average_strategy, reference.average_strategy)


def test_home_on_a_first_visit_costs_no_solve(cache: RunCache) -> None:
    solving._presolve_defaults(page_results.pin_first_views)
    at = AppTest.from_file(APP, default_timeout=60).run()
    assert not at.exception
    assert cache.stats().solves == 1 and cache.stats().hits >= 1
