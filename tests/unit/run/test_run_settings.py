"""`RunSettings` is checked once, in its constructor: whatever builds one (a link, the sidebar, the
command line, a file, `cfrviz.solve`) gets the same sentence, and nothing after it checks again.

References: `cfrviz.util.vocabulary.ALGORITHMS` (each algorithm's update schemes: predictive and
DCFR+ variants and external/outcome sampling alternate only; regret matching needs a matrix game)
and the record's bounds (`MAX_RECORDED_ITERATIONS`, `MAX_RECORDED_SEED`).
"""
from __future__ import annotations

import re

import numpy as np
import pytest

from cfrviz import catalog
from cfrviz.run import MAX_RECORDED_ITERATIONS, MAX_RECORDED_SEED, RunSettings
from cfrviz.util.vocabulary import Algorithm, UpdateScheme

KUHN = catalog.get("kuhn")


@pytest.mark.parametrize(("algorithm", "updates", "game", "says"), [
    ("pcfr+", "simultaneous", KUHN, "Predictive CFR+ supports only alternating updates"),
    ("external", "simultaneous", KUHN, "External-sampling MCCFR supports only alternating updates"),
    ("rm", "simultaneous", KUHN, "Regret matching ('rm') solves matrix games only"),
    ("magic", "alternating", KUHN, "Unknown algorithm"),
    ("cfr", "sideways", KUHN, "Unknown update scheme"),
])
def test_an_impossible_solve_is_refused_when_its_settings_are_made(algorithm: str, updates: str,
                                                                   game: catalog.GameSpec, says: str) -> None:
    with pytest.raises(ValueError, match="^" + re.escape(says)):
        RunSettings(game, algorithm, 10, updates, 0)      # type: ignore[arg-type]  # strings, as links and files give


@pytest.mark.parametrize(("field", "value"), [
    ("iterations", 0), ("iterations", MAX_RECORDED_ITERATIONS + 1), ("iterations", 2.5), ("iterations", True),
    ("seed", -1), ("seed", MAX_RECORDED_SEED + 1), ("seed", "3"),
])
def test_counts_are_whole_numbers_within_the_records_bounds(field: str, value: object) -> None:
    values: dict[str, object] = {"iterations": 10, "seed": 0, field: value}
    with pytest.raises(ValueError, match=f"^The run's {field} must be a whole number"):
        RunSettings(KUHN, Algorithm.CFR, values["iterations"], UpdateScheme.ALTERNATING, values["seed"])  # type: ignore[arg-type]  # the bad value under test


def test_what_a_caller_may_type_becomes_the_one_canonical_value() -> None:
    typed = RunSettings(KUHN, " CFR+ ", np.int64(10), "alternating", np.int64(3))   # type: ignore[arg-type]  # loose values, as a Python caller gives
    canonical = RunSettings(KUHN, Algorithm.CFR_PLUS, 10, UpdateScheme.ALTERNATING, 3)
    assert typed == canonical and hash(typed) == hash(canonical)
    assert type(typed.iterations) is int and type(typed.seed) is int and typed.algorithm is Algorithm.CFR_PLUS
    rps = catalog.get("rps")
    assert RunSettings(rps, "rm", 5, "simultaneous", 0).algorithm is Algorithm.REGRET_MATCHING   # type: ignore[arg-type]  # a string, as a link gives
