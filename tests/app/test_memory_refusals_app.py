"""AppTest: memory running out in a page's solve or heavy build is one sentence, never Streamlit's
generic error, and the page stops there.

References: the sentences `cfrviz.solving.workers.NO_MEMORY` (a solve) and
`cfrviz.app.admission.NO_ROOM_TO_BUILD` (a build); on the code before them the MemoryError reached
Streamlit (`AppTest.exception`).
"""
from __future__ import annotations

from typing import Any

import pytest
from streamlit.testing.v1 import AppTest

import cfrviz.solving
from cfrviz.app import admission, solving
from cfrviz.run.cache import RunCache
from cfrviz.solving.workers import NO_MEMORY


def _solving_page() -> None:
    import streamlit as st

    from cfrviz import catalog
    from cfrviz.app import solving
    from cfrviz.run import RunSettings

    solving.cached_solve(RunSettings(catalog.get("kuhn"), "cfr", 33, "alternating", 0))
    st.write("drawn after the solve")


def _building_page() -> None:
    import streamlit as st

    from cfrviz.app.admission import heavy_build

    with heavy_build():
        raise MemoryError()
    st.write("drawn after the build")


@pytest.mark.parametrize("failure", [MemoryError(), RuntimeError("can't start new thread")],
                         ids=["MemoryError", "no thread"])
def test_a_solve_without_memory_is_one_sentence(failure: BaseException, monkeypatch: pytest.MonkeyPatch) -> None:
    def no_room(*args: Any, **kwargs: Any) -> Any:
        raise failure

    monkeypatch.setattr(solving, "_shared", RunCache(10**9, 4, solving.CONCURRENT_SOLVES))
    monkeypatch.setattr(cfrviz.solving, "solve_settings", no_room)
    at = AppTest.from_function(_solving_page, default_timeout=120).run()
    assert not at.exception
    assert [element.value for element in at.error] == [NO_MEMORY]
    assert not any("drawn after" in str(element.value) for element in at.markdown)


def test_a_build_without_memory_is_one_sentence() -> None:
    at = AppTest.from_function(_building_page, default_timeout=120).run()
    assert not at.exception
    assert [element.value for element in at.error] == [admission.NO_ROOM_TO_BUILD]
    assert not any("drawn after" in str(element.value) for element in at.markdown)
    assert admission.ADMISSION.counts() == (0, 0)       # the turn was given back
