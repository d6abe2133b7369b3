"""AppTest: between its reruns a session holds no solved run, on every page that hands Streamlit
something to keep (format functions, callbacks, timeline events).

Streamlit keeps a widget's format function and callbacks for as long as the widget is on the page.
A function written in a page script has that script's whole namespace as its globals, its runs
included, so a page that passed one kept every run it had solved, one per open tab (measured with
30 visitors by `scripts/load_class.py` and the server's memory report: 46 MB per locked Leduc run,
three per Game tree tab, about 830 MB of the class's peak). The pages now hand over only functions
of cfrviz.app modules with light arguments. Game tree, Evolution and Best response failed here
before; the Walkthrough and Regret matching pages held their traces and paths that way, but no run.

Reference: the run cache and the shared caches are emptied (`idle.release()`, what the server does
when the last visitor has gone); after that, with the session still open, no `Run` may be alive.
"""
from __future__ import annotations

import gc
import sys
import types

import pytest

from cfrviz.app import page_results, solving
from cfrviz.app.serve import _path_to_root
from cfrviz.run import Run
from cfrviz.util import idle
from tests.support.apptest import open_page


def _holder(run: Run) -> str:
    """What keeps `run`, in words (the server's memory report's path), for the failure message."""
    modules = {id(m.__dict__): name for name, m in list(sys.modules.items()) if isinstance(m, types.ModuleType)}
    return _path_to_root(run, set(), modules, budget=3000)


def _runs_alive() -> list[Run]:
    gc.collect()
    return [o for o in gc.get_objects() if isinstance(o, Run)]


@pytest.mark.parametrize(("page", "query"), [
    # A locked view solves the locked and the unlocked game (three runs before the fix).
    ("pages/1_Game_tree.py", {"game": "leduc", "algo": "cfr+", "iters": "20", "lock": "J=0.5,0.5"}),
    ("pages/2_Evolution.py", {"game": "kuhn", "algo": "cfr", "iters": "50"}),
    ("pages/7_Best_response.py", {"game": "leduc", "algo": "cfr+", "iters": "20"}),
    ("pages/6_Walkthrough.py", {"walk_game": "kuhn", "walk_algo": "cfr"}),
    ("pages/5_Regret_matching.py", {}),
])
def test_an_open_session_holds_no_run_once_the_caches_are_emptied(page: str, query: dict[str, str]) -> None:
    # The first views are pinned for good (what a server does at start); they and runs held by earlier
    # tests (a failed one keeps its frame) are not this session's.
    solving._presolve_defaults(page_results.pin_first_views)
    idle.release()
    before = {id(run) for run in _runs_alive()}
    at = open_page(page, query)
    assert not at.exception and not at.error, (at.exception, [e.value for e in at.error])
    idle.release()
    kept = [run for run in _runs_alive() if id(run) not in before]
    del at
    assert not kept, [(run.settings, _holder(run)) for run in kept]
