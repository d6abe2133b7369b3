"""Measure OpenSpiel's CFR exploitability once and store it as the tests' reference.

Needs OpenSpiel (pinned in requirements.txt; it runs in this process, as a local measurement):

    python -m benchmarks.bench_reference tests/data/openspiel_reference.json

Each entry is OpenSpiel's own exploitability (NashConv / 2) of its solver's average
policy after the stated iterations. `tests/unit/solvers/test_cfr.py` compares cfrviz's exploitability
of cfrviz's average strategy against these numbers without importing OpenSpiel.
"""
from __future__ import annotations

import json
import platform
import sys
from importlib.metadata import version
from pathlib import Path
from typing import Any

# (name, game, solver, updates, iterations): solver "CFRSolver"/"CFRPlusSolver" are OpenSpiel's
# C++ classes; "python_simultaneous" is the Python _CFRSolver with alternating_updates=False;
# "python_LCFRSolver"/"python_DCFRSolver" are open_spiel.python.algorithms.discounted_cfr's.
CASES = (
    ("kuhn_cfr_alternating_1000", "kuhn_poker", "CFRSolver", "alternating", 1000),
    ("leduc_cfr_alternating_100", "leduc_poker", "CFRSolver", "alternating", 100),
    ("kuhn_cfr_simultaneous_1000", "kuhn_poker", "python_simultaneous", "simultaneous", 1000),
    ("kuhn_cfr+_alternating_1000", "kuhn_poker", "CFRPlusSolver", "alternating", 1000),
    ("leduc_cfr+_alternating_100", "leduc_poker", "CFRPlusSolver", "alternating", 100),
    ("kuhn_lcfr_alternating_300", "kuhn_poker", "python_LCFRSolver", "alternating", 300),
    ("kuhn_dcfr_alternating_300", "kuhn_poker", "python_DCFRSolver", "alternating", 300),
)


def measure() -> dict[str, Any]:
    """Run every case with OpenSpiel and return the reference document."""
    import pyspiel
    from open_spiel.python.algorithms import cfr, discounted_cfr, exploitability

    entries = {}
    for name, game_name, solver_name, updates, iterations in CASES:
        game = pyspiel.load_game(game_name)
        if solver_name == "python_simultaneous":
            solver = cfr._CFRSolver(game, alternating_updates=False, linear_averaging=False,
                                    regret_matching_plus=False)
            for _ in range(iterations):
                solver.evaluate_and_update_policy()
            value = exploitability.exploitability(game, solver.average_policy())
            how = ("open_spiel.python.algorithms.cfr._CFRSolver(game, alternating_updates=False, "
                   "linear_averaging=False, regret_matching_plus=False); "
                   "open_spiel.python.algorithms.exploitability.exploitability")
        elif solver_name.startswith("python_"):
            cls_name = solver_name.removeprefix("python_")
            solver = getattr(discounted_cfr, cls_name)(game)
            for _ in range(iterations):
                solver.evaluate_and_update_policy()
            value = exploitability.exploitability(game, solver.average_policy())
            how = (f"open_spiel.python.algorithms.discounted_cfr.{cls_name}(game); "
                   "open_spiel.python.algorithms.exploitability.exploitability")
        else:
            solver = getattr(pyspiel, solver_name)(game)
            for _ in range(iterations):
                solver.evaluate_and_update_policy()
            value = pyspiel.exploitability(game, solver.average_policy())
            how = f"pyspiel.{solver_name}(game).evaluate_and_update_policy() x n; pyspiel.exploitability"
        algorithm = {"CFRPlusSolver": "cfr+", "python_LCFRSolver": "lcfr",
                     "python_DCFRSolver": "dcfr"}.get(solver_name, "cfr")
        entries[name] = {"game": game_name, "algorithm": algorithm,
                         "updates": updates, "iterations": iterations, "exploitability": float(value),
                         "openspiel": how}
    return {
        "source": {"open_spiel": version("open_spiel"), "python": platform.python_version(),
                   "command": "python -m benchmarks.bench_reference tests/data/openspiel_reference.json"},
        "note": "OpenSpiel's exploitability (NashConv / 2) of its solver's average policy.",
        "entries": entries,
    }


def main(argv: list[str]) -> int:
    out = Path(argv[0]) if argv else Path("tests/data/openspiel_reference.json")
    try:
        document = measure()
    except ImportError:
        print("OpenSpiel is not installed; `pip install open-spiel` first.", file=sys.stderr)
        return 2
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
    print(json.dumps(document, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
