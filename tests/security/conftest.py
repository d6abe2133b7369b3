"""Fixtures the security tests share."""
from __future__ import annotations

from collections.abc import Iterator

import pytest

from cfrviz import catalog
from cfrviz.games import openspiel


@pytest.fixture
def fresh_caches() -> Iterator[None]:
    """Every built game, tree and refusal (catalog) and every accepted or refused OpenSpiel game string
    forgotten before and after the test, so no test leans on what an earlier one built or refused."""
    catalog.clear_caches()
    openspiel.forget_openspiel_games()
    yield
    catalog.clear_caches()
    openspiel.forget_openspiel_games()
