"""The deterministic CFR family against the classic tutorial's published output, OpenSpiel's numbers and hand computations."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cfrviz
from cfrviz.analysis import exploitability
from cfrviz.solvers import solver_class
from cfrviz.solvers.cfr import CFRPlus, DiscountedCFR, LinearCFR, VanillaCFR
from cfrviz.catalog import compile_game

REFERENCE = json.loads((Path(__file__).parents[2] / "data" / "openspiel_reference.json").read_text())

# The tutorial code's printed table (Neller and Lanctot's CFR, Python rendering) after 10,000 simultaneous iterations (its keys -> ours: "rr" is the
# deal, then c = check/fold and b = bet/call, which our keys spell k/b/f/c).
TUTORIAL_TABLE = {
    "J": (0.79, 0.21), "J kb": (1.00, 0.00), "K": (0.39, 0.61), "K kb": (0.00, 1.00),
    "Q": (1.00, 0.00), "Q kb": (0.45, 0.55),
    "J b": (1.00, 0.00), "J k": (0.67, 0.33), "K b": (0.00, 1.00), "K k": (0.00, 1.00),
    "Q b": (0.66, 0.34), "Q k": (1.00, 0.00),
}


def tutorial_purified(average: np.ndarray) -> np.ndarray:
    """The tutorial code's average strategy: drop probabilities under 0.001, renormalise."""
    kept = np.where(average < 0.001, 0.0, average)
    return kept / kept.sum(axis=-1, keepdims=True)


def test_tutorial_kuhn_10000_simultaneous_reproduces_value_and_table():
    # Reference: the tutorial code's published output, "player 1 expected value: -0.05666979368427769".
    tree = compile_game("kuhn")
    solver = VanillaCFR(tree, updates="simultaneous")
    solver.iterate(10_000)
    assert solver.value_sum / solver.iterations == -0.05666979368427769  # every digit
    table = tutorial_purified(solver.average_strategy())
    for key, printed in TUTORIAL_TABLE.items():
        row = table[tree.infoset_index(key)]
        # The tutorial prints with '{:03.2f}', i.e. rounded to two decimals.
        assert np.all(np.abs(row - np.array(printed)) <= 0.005 + 1e-12), (key, row, printed)


def test_tutorial_kuhn_100000_simultaneous_value():
    # Reference: the tutorial code's second published run, "player 1 expected value: -0.055439677199254814".
    run = cfrviz.solve("kuhn", "cfr", iterations=100_000, updates="simultaneous")
    assert run.expected_value[-1] == -0.055439677199254814  # every digit


@pytest.mark.parametrize("case", sorted(REFERENCE["entries"]))
def test_exploitability_matches_openspiel(case):
    # Reference: OpenSpiel 2.0.2's own exploitability of its average policy
    # (tests/data/openspiel_reference.json, measured by benchmarks/bench_reference.py).
    entry = REFERENCE["entries"][case]
    game = {"kuhn_poker": "kuhn", "leduc_poker": "leduc"}[entry["game"]]
    run = cfrviz.solve(game, entry["algorithm"], iterations=entry["iterations"], updates=entry["updates"])
    tolerance = 1e-6 if entry["algorithm"] == "cfr+" else 1e-9
    assert run.exploitability[-1] == pytest.approx(entry["exploitability"], abs=tolerance)
    assert exploitability(run.tree, run.average_strategy[-1]) == pytest.approx(entry["exploitability"], abs=tolerance)


def test_exploitability_falls_and_kuhn_value_approaches_minus_one_eighteenth():
    # Reference: Kuhn's value is -1/18 (Kuhn 1950); CFR's average strategy converges (Zinkevich et al. 2007).
    run = cfrviz.solve("kuhn", "cfr", iterations=5000)
    e = run.exploitability
    at = run.snapshot_at
    assert e[at(10)] > e[at(100)] > e[at(1000)] > e[at(5000)]
    assert e[-1] < 2e-3
    plus = cfrviz.solve("kuhn", "cfr+", iterations=3000)
    assert plus.average_strategy_value == pytest.approx(-1 / 18, abs=1e-3)
    assert plus.exploitability[-1] < 1e-4


@pytest.mark.parametrize("algorithm", ["lcfr", "dcfr"])
def test_linear_and_discounted_cfr_converge_on_kuhn(algorithm):
    # Reference: Kuhn's value -1/18 (Kuhn 1950); exploitability 0 at equilibrium.
    run = cfrviz.solve("kuhn", algorithm, iterations=2000)
    assert run.exploitability[-1] < 1e-3
    assert run.exploitability[-1] < run.exploitability[run.snapshot_at(20)]
    assert run.average_strategy_value == pytest.approx(-1 / 18, abs=1e-3)


def test_leduc_value_under_cfr_plus():
    # Reference: Leduc's value for player 1 is -0.0856064 (OpenSpiel's published Leduc value).
    run = cfrviz.solve("leduc", "cfr+", iterations=1000)
    assert run.average_strategy_value == pytest.approx(-0.0856064, abs=1e-3)
    assert run.exploitability[-1] < 1e-3


# Hand computation on the matrix game [[1, 0], [0, 0]] from uniform play:
# player 1's rows are worth 1/2 and 0 against uniform columns, so the node is worth 1/4 and
# player 1's regrets are (+1/4, -1/4). Player 2 (payoffs negated) gets -1/2 and 0 per column
# against uniform rows, node -1/4, regrets (-1/4, +1/4). Alternating: player 2 instead faces
# player 1's new strategy (1, 0): columns worth -1 and 0, node -1/2, regrets (-1/2, +1/2).
MATRIX = [[1.0, 0.0], [0.0, 0.0]]


def test_first_iteration_simultaneous_by_hand():
    tree = compile_game(MATRIX)
    solver = VanillaCFR(tree, updates="simultaneous")
    solver.iterate(1)
    p1, p2 = tree.infoset_index("player 1"), tree.infoset_index("player 2")
    np.testing.assert_allclose(solver.cumulative_regret[p1], [0.25, -0.25])
    np.testing.assert_allclose(solver.cumulative_regret[p2], [-0.25, 0.25])
    np.testing.assert_allclose(solver.next_strategy()[[p1, p2]], [[1, 0], [0, 1]])
    np.testing.assert_allclose(solver.current_strategy[[p1, p2]], [[0.5, 0.5], [0.5, 0.5]])
    assert solver.last_value == pytest.approx(0.25)
    assert solver.nodes_touched == tree.num_nodes


def test_first_iteration_alternating_by_hand():
    tree = compile_game(MATRIX)
    solver = VanillaCFR(tree, updates="alternating")
    solver.iterate(1)
    p1, p2 = tree.infoset_index("player 1"), tree.infoset_index("player 2")
    np.testing.assert_allclose(solver.cumulative_regret[p1], [0.25, -0.25])
    np.testing.assert_allclose(solver.cumulative_regret[p2], [-0.5, 0.5])
    assert solver.nodes_touched == 2 * tree.num_nodes


def test_cfr_plus_first_iteration_by_hand():
    # As above, with RM+ clipping negative regret to 0 (Tammelin 2014) and iteration weight t = 1.
    tree = compile_game(MATRIX)
    solver = CFRPlus(tree)
    solver.iterate(1)
    p1, p2 = tree.infoset_index("player 1"), tree.infoset_index("player 2")
    np.testing.assert_allclose(solver.cumulative_regret[p1], [0.25, 0.0])
    np.testing.assert_allclose(solver.cumulative_regret[p2], [0.0, 0.5])
    np.testing.assert_allclose(solver.strategy_sum[p1], [0.5, 0.5])


def test_discounted_cfr_first_iteration_by_hand():
    # DCFR(1.5, 0, 2) after t = 1: positive regret * 1/(1+1), negative * 1/(1+1); weight 1^2 = 1.
    tree = compile_game(MATRIX)
    solver = DiscountedCFR(tree)
    solver.iterate(1)
    p1 = tree.infoset_index("player 1")
    np.testing.assert_allclose(solver.cumulative_regret[p1], [0.125, -0.125])
    # Second iteration: player 1 plays (1, 0) vs player 2's (0, 1): both rows worth 0, regret 0;
    # then t = 2 scales positive by 2^1.5/(2^1.5+1) and negative by 2^0/(2^0+1) = 1/2.
    solver.iterate(1)
    scale = 2 ** 1.5 / (2 ** 1.5 + 1)
    np.testing.assert_allclose(solver.cumulative_regret[p1], [0.125 * scale, -0.0625])


def test_kuhn_own_reach_after_uniform_iteration():
    # Hand computation: iteration 1 plays uniformly. "J" is player 1's first decision (reach 1);
    # "J kb" needs player 1's own check (1/2); "Q b" is player 2's first decision, and player
    # 1's bet is not part of player 2's own reach (1). A probability, not a sum over histories.
    from cfrviz import solve

    run = solve("kuhn", "cfr", iterations=1, updates="simultaneous")
    tree = run.tree
    assert run.reach[0, tree.infoset_index("J")] == pytest.approx(1.0)
    assert run.reach[0, tree.infoset_index("J kb")] == pytest.approx(0.5)
    assert run.reach[0, tree.infoset_index("Q b")] == pytest.approx(1.0)


@pytest.mark.parametrize("cls", [VanillaCFR, CFRPlus, LinearCFR, DiscountedCFR])
def test_iterating_in_batches_equals_one_batch(cls):
    # Reference: the Solver contract (solvers/base.py): iterate(n) is n single iterations.
    tree = compile_game("leduc")
    one, split = cls(tree), cls(tree)
    one.iterate(10)
    split.iterate(3)
    split.iterate(7)
    np.testing.assert_array_equal(one.cumulative_regret, split.cumulative_regret)
    np.testing.assert_array_equal(one.strategy_sum, split.strategy_sum)
    assert one.value_sum == split.value_sum and one.iterations == split.iterations == 10


def test_registry_names_the_presets():
    # Reference: the ALGORITHMS table in cfrviz/solvers/__init__.py.
    assert solver_class("cfr") is VanillaCFR and solver_class("cfr+") is CFRPlus
    assert solver_class("lcfr") is LinearCFR and solver_class("dcfr") is DiscountedCFR


def test_unknown_update_scheme_is_a_sentence():
    with pytest.raises(ValueError, match="alternating"):
        VanillaCFR(compile_game("kuhn"), updates="sometimes")


@settings(max_examples=25, deadline=None)
@given(payoffs=st.lists(st.lists(st.integers(-5, 5), min_size=3, max_size=3), min_size=2, max_size=4),
       algorithm=st.sampled_from(["cfr", "cfr+", "lcfr", "dcfr"]),
       updates=st.sampled_from(["alternating", "simultaneous"]),
       iterations=st.integers(1, 40))
def test_strategies_are_distributions_and_rm_plus_regret_is_non_negative(payoffs, algorithm, updates, iterations):
    # Property (regret matching, Hart and Mas-Colell 2000): strategies are distributions over legal
    # actions; RM+ regrets are never negative (Tammelin 2014); exploitability is never negative.
    run = cfrviz.solve([[float(v) for v in row] for row in payoffs], algorithm, iterations=iterations,
                       updates=updates)
    for strategy in (run.current_strategy, run.average_strategy):
        assert np.all(strategy >= 0.0)
        np.testing.assert_allclose(strategy.sum(axis=-1), 1.0, atol=1e-12)
    if algorithm == "cfr+":
        assert np.all(run.cumulative_regret >= 0.0)
    assert np.all(run.exploitability >= -1e-12)


@pytest.mark.parametrize("game, algorithm, iterations", [("kuhn", "cfr", 60), ("kuhn", "cfr+", 60),
                                                         ("leduc", "cfr", 2), ("leduc", "cfr+", 2)])
def test_kernel_matches_the_plain_recursive_cfr_of_the_benchmark(game, algorithm, iterations):
    # Reference: the textbook recursion (the tutorial's `cfr`, alternating as OpenSpiel's CFRSolver),
    # written independently in benchmarks/bench.py over game states rather than tree arrays.
    from tests.support.plain_cfr import PlainPythonCFR

    run = cfrviz.solve(game, algorithm, iterations=iterations)
    plain = PlainPythonCFR(run.tree.game, plus=algorithm == "cfr+")
    plain.iterate(iterations)
    np.testing.assert_allclose(run.average_strategy[-1], plain.average_strategy(run.tree), atol=1e-12)
