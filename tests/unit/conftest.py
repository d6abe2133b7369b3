"""Fixtures the unit tests share: Kuhn poker compiled, and solved once per module.

A module that uses `kuhn_run` names the run its numbers are for, e.g.
`pytestmark = pytest.mark.kuhn_run(iterations=200, updates="simultaneous")` (updates: cfrviz's default
when left out), so two modules never read numbers from a run made for the other.
"""
from __future__ import annotations

import pytest

import cfrviz
from cfrviz.run import Run
from cfrviz.tree import GameTree
from tests.support.saved_runs import npz_bytes


@pytest.fixture(scope="module")
def kuhn() -> GameTree:
    """Kuhn poker, compiled."""
    return cfrviz.compile_game("kuhn")


@pytest.fixture(scope="module")
def kuhn_run(request: pytest.FixtureRequest) -> Run:
    """Kuhn poker solved by vanilla CFR for the module's `kuhn_run` marker (a fresh solve per module)."""
    marker = request.node.get_closest_marker("kuhn_run")
    if marker is None:
        raise LookupError(f"{request.node.name} uses kuhn_run without naming its solve: "
                          "pytestmark = pytest.mark.kuhn_run(iterations=...).")
    return cfrviz.solve("kuhn", "cfr", **marker.kwargs)


@pytest.fixture(scope="module")
def kuhn_npz(kuhn_run: Run) -> bytes:
    """The module's `kuhn_run` saved as a .npz file (as `save_run` writes it)."""
    return npz_bytes(kuhn_run)
