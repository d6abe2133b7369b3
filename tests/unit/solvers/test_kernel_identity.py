"""Every compiled kernel gives, bit for bit, what it gave before its indexing was made check-free.

Reference: tests/data/kernel_identity.json, recorded by running this file as a script on the
code of commit 59db1f0 (signed int64 index arrays, before the unsigned rewrite):

    PYTHONPATH=. python tests/unit/solvers/test_kernel_identity.py --record tests/data/kernel_identity.json

It holds, for each case, the SHA-256 of every output array's bytes (float64 or int64, C order),
with its shape and sum so that a failure shows how far a change moved the numbers. The rewrite changed which integer types index the arrays, not the order
of any floating-point operation, so every digest must match exactly. A case covers one kernel
path: the CFR family's `run_iterations` and snapshot writer (through `solve`, which also runs
`_nash_conv_many` and `_profile_values` on every snapshot), the three sampling kernels, regret
matching on a matrix, best response, exploitability of one profile, history values, and the
inspector's per-frame pass.
"""
from __future__ import annotations

import hashlib
import json
import sys
from collections.abc import Callable
from functools import partial
from typing import Any
from pathlib import Path

import numpy as np
import pytest

REFERENCE_PATH = Path(__file__).parents[2] / "data" / "kernel_identity.json"

#: (game, parameters, algorithm, updates, iterations) solved with default snapshots and seed 3.
SOLVES: list[tuple[str, dict[str, Any], str, str, int]] = (
    [("kuhn", {}, algorithm, "alternating", 300)
     for algorithm in ("cfr", "cfr+", "dcfr", "lcfr", "pcfr+", "dcfr+", "pdcfr+", "chance", "external", "outcome")]
    + [("kuhn", {}, algorithm, "simultaneous", 300) for algorithm in ("cfr", "cfr+", "chance")]
    + [("leduc", {}, algorithm, "alternating", 30)
       for algorithm in ("cfr", "cfr+", "dcfr", "lcfr", "pcfr+", "dcfr+", "pdcfr+")]
    + [("leduc", {}, "cfr", "simultaneous", 30)]
    + [("leduc", {}, algorithm, "alternating", 400) for algorithm in ("chance", "external", "outcome")]
    + [("leduc", {}, "chance", "simultaneous", 400)]
    + [("leduc", {"suits": True}, "cfr", "alternating", 5)] + [("kuhn", {"cards": 5}, "cfr+", "alternating", 50)]
    + [("rps", {}, "rm", updates, 200) for updates in ("alternating", "simultaneous")]
)

RUN_FIELDS = ("iterations", "cumulative_regret", "current_strategy", "average_strategy", "reach", "value",
              "expected_value", "exploitability", "current_exploitability", "nodes_touched")


def _digest(array: object) -> str:
    """'<first 32 hex digits of SHA-256> <shape> <sum>': the bits, and how far a change moved them."""
    a = np.ascontiguousarray(np.asarray(array))
    a = a.astype(np.float64) if a.dtype.kind == "f" else a.astype(np.int64)
    shape = "x".join(str(n) for n in a.shape) or "scalar"
    return f"{hashlib.sha256(a.tobytes()).hexdigest()[:32]} {shape} {float(np.nansum(a))!r}"


def _solve_case(game: str, params: dict[str, object], algorithm: str, updates: str,
                iterations: int) -> dict[str, str]:
    import cfrviz

    run = cfrviz.solve(game, algorithm, iterations=iterations, updates=updates, seed=3, **params)
    digests = {name: _digest(getattr(run, name)) for name in RUN_FIELDS}
    digests["average_strategy_value"] = _digest([run.average_strategy_value])
    return digests


def _forced_chance_case() -> dict[str, str]:
    from cfrviz.catalog import compile_game
    from cfrviz.solvers.sampling import ChanceSampling

    solver = ChanceSampling(compile_game("leduc"), updates="simultaneous", deal="QK", board="K")
    solver.iterate(50)
    return {"cumulative_regret": _digest(solver.cumulative_regret), "strategy_sum": _digest(solver.strategy_sum),
            "value_sum": _digest([solver.value_sum]), "nodes_touched": _digest([solver.nodes_touched])}


def _regret_matching_case() -> dict[str, str]:
    from cfrviz.solvers.matrix import TUTORIAL_OPPONENT, regret_matching_path

    payoffs = np.array([[0.0, -1.0, 2.0], [1.0, 0.0, -1.0], [-1.0, 1.0, 0.0]])
    digests: dict[str, str] = {}
    for sampled in (False, True):
        for opponent in (None, TUTORIAL_OPPONENT):
            for updates in ("simultaneous", "alternating"):
                if opponent is not None and updates == "alternating":
                    continue
                path = regret_matching_path(payoffs, 3000, opponent=opponent, sampled=sampled, seed=5,
                                            updates=updates, every=7)
                for name in ("current_row", "current_column", "regret_row", "regret_column", "average_row",
                             "average_column", "value"):
                    digests[f"{sampled}/{opponent is not None}/{updates}/{name}"] = _digest(getattr(path, name))
    return digests


def _analysis_case() -> dict[str, str]:
    import cfrviz
    from cfrviz.analysis import best_response, expected_value, exploitability, history_values, nash_conv
    from cfrviz.analysis.inspector import frame_numbers

    digests: dict[str, str] = {}
    for game, params in (("kuhn", {}), ("leduc", {}), ("leduc", {"suits": True})):
        run = cfrviz.solve(game, "cfr", iterations=7, **params)
        strategy = np.array(run.current_strategy[-1])
        label = game + ("_suits" if params else "")
        digests[f"{label}/exploitability"] = _digest([exploitability(run.tree, strategy)])
        digests[f"{label}/nash_conv"] = _digest([nash_conv(run.tree, strategy)])
        digests[f"{label}/expected_value"] = _digest([expected_value(run.tree, strategy)])
        for player in (0, 1):
            response = best_response(run.tree, strategy, player)
            for name in ("value", "best_action", "action_value", "gain", "strategy"):
                digests[f"{label}/best_response_{player}/{name}"] = _digest(getattr(response, name))
        values = history_values(run.tree, strategy)
        for name in ("reach", "value", "action_value", "counterfactual_reach", "counterfactual_action_value"):
            digests[f"{label}/history_values/{name}"] = _digest(getattr(values, name))
        frames = frame_numbers(run, [0, 3, 6])
        for name, array in sorted(frames.items()):
            digests[f"{label}/frames/{name}"] = _digest(array)
    return digests


def cases() -> dict[str, Callable[[], dict[str, str]]]:
    """Every case by name: a function returning {array name: digest}."""
    named: dict[str, Callable[[], dict[str, str]]] = {}
    for game, params, algorithm, updates, iterations in SOLVES:
        suffix = "".join(f"_{k}{v}" for k, v in params.items())
        name = f"solve/{game}{suffix}/{algorithm}/{updates}/{iterations}"
        named[name] = partial(_solve_case, game, params, algorithm, updates, iterations)
    named["chance_forced_deal"] = _forced_chance_case
    named["regret_matching_path"] = _regret_matching_case
    named["analysis"] = _analysis_case
    return named


def _reference() -> dict[str, dict[str, str]]:
    document: dict[str, dict[str, str]] = json.loads(REFERENCE_PATH.read_text())["cases"]
    return document


@pytest.mark.parametrize("case", sorted(cases()))
def test_kernel_outputs_are_bit_identical_to_the_signed_index_code(case: str) -> None:
    # Reference: the digests recorded from commit 59db1f0's kernels (see the module docstring).
    expected = _reference()[case]
    got = cases()[case]()
    assert sorted(got) == sorted(expected)
    differing = {name: (got[name], expected[name]) for name in expected if got[name] != expected[name]}
    assert not differing, f"arrays whose bits changed (now, recorded): {differing}"


def _record(path: Path) -> None:
    import subprocess

    commit = subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True, check=True).stdout.strip()
    document = {"source": f"recorded by tests/unit/solvers/test_kernel_identity.py --record at commit {commit}",
                "cases": {name: compute() for name, compute in sorted(cases().items())}}
    path.write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] != "--record":
        raise SystemExit("usage: PYTHONPATH=. python tests/unit/solvers/test_kernel_identity.py --record OUT.json")
    _record(Path(sys.argv[2]))
