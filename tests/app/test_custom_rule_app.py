"""AppTest: an update rule of one's own is offered and shown on the app's pages like a built-in.

Reference: `cfrviz.solvers.examples.NumpyCFRPlus` gives the `cfr+` kernel's numbers bit for bit
(tests/unit/solvers/test_custom_rule.py), so the page's timeline shows the kernel's exploitability.
The rule is registered in this process (AppTest runs the pages here) and named in CFRVIZ_MINIMIZERS
for any process a solve may start.
"""
from __future__ import annotations

import pytest

from cfrviz import app as ui
from cfrviz import catalog
from cfrviz.run import RunSettings
from cfrviz.solvers import register_minimizer, unregister_minimizer
from cfrviz.solvers.examples import NumpyCFRPlus
from cfrviz.util.text import clamped_exploitability
from tests.support.apptest import mounted, open_link

LINK = {"game": "kuhn", "algo": "numpy-cfr+", "iters": "200", "updates": "alternating"}


@pytest.fixture
def rule(monkeypatch):
    monkeypatch.setenv("CFRVIZ_MINIMIZERS", "cfrviz.solvers.examples:NumpyCFRPlus")
    register_minimizer("numpy-cfr+", NumpyCFRPlus)
    yield
    unregister_minimizer("numpy-cfr+")


@pytest.mark.parametrize("page", [None, "pages/1_Game_tree.py", "pages/2_Evolution.py", "pages/3_Convergence.py"])
def test_a_registered_rule_is_solved_and_shown_from_a_link(rule, page):
    at = open_link(LINK)
    if page is not None:
        at.switch_page(page).run()
    assert not at.exception, at.exception
    shown = {k: at.query_params[k][0] if isinstance(at.query_params[k], list) else at.query_params[k] for k in LINK}
    assert shown == LINK
    assert not any("not available" in str(w.value) for w in at.get("alert") + list(at.warning) + list(at.info))
    assert [s.value for s in at.selectbox if s.key == "cfrviz_w_algo"] == ["numpy-cfr+"]
    header, payload = mounted(at)
    kernel = ui.cached_solve(RunSettings(catalog.get("kuhn"), "cfr+", 200, "alternating", 0))
    assert payload["frames"][-1] == 200
    assert payload["exploitability"][-1] == clamped_exploitability(float(kernel.exploitability[-1]))
