"""AppTest: chance-sampling MCCFR solves a link whose hands pass two locks, with no refusal.

Reference: the restricted game's sequence-form LP value (`cfrviz.analysis.locks.restricted_equilibrium`),
which the Convergence page shows as the game value, and which a chance-sampled run at the app's
cap reaches within its NashConv (twice its exploitability).
"""
from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

APP = str(Path(__file__).parents[2] / "app.py")
LOCKS = "J=1/2,1/2;J kb=1/2,1/2"    # player 1's J checks half the time, then calls a bet half the time


def test_chance_sampling_takes_two_locks_on_one_hand() -> None:
    from cfrviz import app as ui
    from cfrviz.analysis.locks import restricted_equilibrium
    from cfrviz.catalog import lookup
    from cfrviz.tree.locks import Locks, restrict

    at = AppTest.from_file(APP, default_timeout=120)
    for name, value in {"game": "kuhn", "algo": "chance", "iters": "20000", "seed": "1", "lock": LOCKS}.items():
        at.query_params[name] = value
    at.run()
    at.switch_page("pages/3_Convergence.py").run()
    assert not at.exception and not at.error and not at.warning
    s = at.session_state[ui.CHOICE_KEY].settings()
    assert s.algorithm == "chance" and s.locks.text() == Locks.parse(LOCKS).text()
    run = ui.cached_solve(s)
    value, _ = restricted_equilibrium(restrict(lookup("kuhn").tree(), Locks.parse(LOCKS)))
    assert run.exploitability[-1] < 0.01
    assert abs(run.average_strategy_value - value) <= 2 * float(run.exploitability[-1])
    assert any(f"{value:.4f}" in m.value for m in at.metric)
