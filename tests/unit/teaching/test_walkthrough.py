"""The step-by-step trace of one iteration: a hand-worked example and agreement with the solvers."""
from __future__ import annotations

import numpy as np
import pytest

from cfrviz import analysis
from cfrviz.solvers import solver_class
from cfrviz.catalog import compile_game
from cfrviz.teaching.walkthrough import solver_state, trace_iteration


def regret_of(trace, key):
    i = trace.tree.infoset_index(key)
    return trace.cumulative_regret_after[i, :2]


def test_hand_worked_iteration_q_vs_k():
    # Worked by hand: chance sampling deals Q (player 1) vs K (player 2)
    # from uniform; after iteration 1 the regret sums are Qpb +0.25/-0.25, Kp -0.125/+0.125,
    # Kb -0.75/+0.75 (and Q -0.375/+0.375); strategy sums are 0.5/0.5 except Qpb 0.25/0.25.
    tree = compile_game("kuhn")
    zero = np.zeros(tree.legal.shape)
    trace = trace_iteration(tree, zero, zero, algorithm="chance", updates="simultaneous", deal="QK")
    assert trace.deal == "QK"
    np.testing.assert_allclose(regret_of(trace, "Q kb"), [0.25, -0.25])
    np.testing.assert_allclose(regret_of(trace, "K k"), [-0.125, 0.125])
    np.testing.assert_allclose(regret_of(trace, "K b"), [-0.75, 0.75])
    np.testing.assert_allclose(regret_of(trace, "Q"), [-0.375, 0.375])
    for key, expected in (("Q", 0.5), ("K k", 0.5), ("K b", 0.5), ("Q kb", 0.25)):
        np.testing.assert_allclose(trace.strategy_sum_after[tree.infoset_index(key), :2], [expected, expected])
    # The seed's utilities, acting player's view: Qpb -1.5, Kp +1.25, Kb +0.5, Q -0.875.
    returns = {s.information_set: s for s in trace.steps if s.kind == "return"}
    assert returns["Q kb"].action_utility == (-1.0, -2.0)
    assert returns["Q kb"].node_utility == pytest.approx(-1.5)
    assert returns["K k"].node_utility == pytest.approx(1.25)
    assert returns["K b"].node_utility == pytest.approx(0.5)
    assert returns["Q"].node_utility == pytest.approx(-0.875)
    assert returns["Q kb"].counterfactual_weight == pytest.approx(0.5)
    # Only the four information sets on the Q-vs-K deal change.
    changed = {record.key for i, record in enumerate(tree.infosets)
               if np.any(trace.cumulative_regret_after[i] != trace.cumulative_regret_before[i])
               or np.any(trace.strategy_sum_after[i] != trace.strategy_sum_before[i])}
    assert changed == {"Q", "Q kb", "K k", "K b"}


def test_steps_come_in_traversal_order():
    # Vanilla CFR visits every decision node once going down and once coming back, and
    # every terminal once; Kuhn has 6 deals x 4 decision nodes and 6 x 5 terminals.
    tree = compile_game("kuhn")
    zero = np.zeros(tree.legal.shape)
    trace = trace_iteration(tree, zero, zero, algorithm="cfr", updates="simultaneous")
    kinds = [s.kind for s in trace.steps]
    assert kinds.count("visit") == kinds.count("return") == tree.num_decision_nodes == 24
    assert kinds.count("terminal") == tree.num_terminals == 30
    assert kinds[0] == "chance" and kinds[-1] == "finish"
    # Depth first: a node's children all come between its visit and its return.
    position = {}
    for s in trace.steps:
        if s.kind in ("visit", "return"):
            position.setdefault(s.node, []).append(s.index)
    for s in trace.steps:
        if s.kind == "terminal":
            parent = int(tree.parent[s.node])
            visit, back = position[parent]
            assert visit < s.index < back
    # The iteration's value is the exact value of the uniform profile (analysis, closed form).
    assert trace.value == pytest.approx(analysis.expected_value(tree, tree.uniform_strategy()))


@pytest.mark.parametrize("game", ["kuhn", "leduc"])
@pytest.mark.parametrize("algorithm, updates", [(a, u) for a in ("cfr", "cfr+", "lcfr", "dcfr", "pcfr+", "dcfr+", "pdcfr+")
                                                 for u in solver_class(a).update_schemes])
def test_trace_updates_equal_one_solver_iteration(game, algorithm, updates):
    # Reference: the real solver. Applying the trace's updates to the solver's state after
    # t - 1 iterations equals the solver's own state after one more `iterate(1)`.
    tree = compile_game(game)
    t = 4 if game == "kuhn" else 2
    regret, strategy_sum, prediction, _ = solver_state(tree, algorithm, updates, 0, t)
    trace = trace_iteration(tree, regret, strategy_sum, algorithm=algorithm, updates=updates, iteration=t,
                            prediction=prediction)
    solver = solver_class(algorithm)(tree, updates=updates, seed=0)
    solver.iterate(t)
    np.testing.assert_allclose(trace.cumulative_regret_after, solver.cumulative_regret, atol=1e-12)
    np.testing.assert_allclose(trace.strategy_sum_after, solver.strategy_sum, atol=1e-12)
    np.testing.assert_allclose(trace.next_strategy, solver.next_strategy(), atol=1e-12)
    # The recorded per-step updates add up to the change (no hidden bookkeeping) for vanilla CFR.
    if algorithm == "cfr":
        delta = np.zeros(tree.legal.shape)
        for s in trace.steps:
            if s.kind == "return":
                delta[s.information_set_id, :len(s.regret_update)] += s.regret_update
        np.testing.assert_allclose(regret + delta, solver.cumulative_regret, atol=1e-12)


@pytest.mark.parametrize("updates", ["simultaneous", "alternating"])
def test_chance_sampling_trace_equals_solver_with_the_same_deal(updates):
    # Reference: ChanceSampling with the deal forced to QK, three iterations then a fourth.
    tree = compile_game("kuhn")
    cls = solver_class("chance")
    solver = cls(tree, updates=updates, seed=0, deal="QK")
    solver.iterate(3)
    regret, strategy_sum = solver.cumulative_regret.copy(), solver.strategy_sum.copy()
    trace = trace_iteration(tree, regret, strategy_sum, algorithm="chance", updates=updates,
                            iteration=4, deal="QK")
    solver.iterate(1)
    np.testing.assert_allclose(trace.cumulative_regret_after, solver.cumulative_regret, atol=1e-12)
    np.testing.assert_allclose(trace.strategy_sum_after, solver.strategy_sum, atol=1e-12)


def test_chance_sampled_leduc_walks_one_deal_and_one_board_per_line():
    # Chance sampling walks only the sampled deal: a forced board "K" after deal "QJ" makes every
    # chance step below the root pick K, and every terminal lies under deal QJ with board K.
    tree = compile_game("leduc")
    zero = np.zeros(tree.legal.shape)
    # One simultaneous traversal (alternating updates walk the root once per player).
    trace = trace_iteration(tree, zero, zero, algorithm="chance", updates="simultaneous", deal="QJ", board="K")
    chance = [s for s in trace.steps if s.kind == "chance"]
    assert chance[0].node == 0 and all(s.node != 0 for s in chance[1:])
    terminals = [s for s in trace.steps if s.kind == "terminal"]
    assert terminals and all(s.history.startswith("QJ") for s in terminals)
    assert all(s.history.startswith("QJ|K") for s in terminals if "|" in s.history)


def test_bad_walkthrough_input_is_a_clear_value_error():
    tree = compile_game("kuhn")
    zero = np.zeros(tree.legal.shape)
    with pytest.raises(ValueError, match="No deal"):
        trace_iteration(tree, zero, zero, algorithm="chance", deal="QQ")
    with pytest.raises(ValueError, match="replays"):
        trace_iteration(tree, zero, zero, algorithm="outcome")
    with pytest.raises(ValueError, match="must be"):
        trace_iteration(tree, np.zeros((2, 2)), zero)
    with pytest.raises(ValueError, match="at least 1"):
        solver_state(tree, "cfr", "simultaneous", 0, 0)


def test_predictive_walkthrough_plays_regret_matching_on_regret_plus_prediction():
    # Reference: PCFR+ (Farina, Kroer and Sandholm 2021) plays RM(R + r) where r is the last
    # instantaneous regret; with R = 0 and r = 0 everywhere but one row, that row follows r alone.
    tree = compile_game("kuhn")
    zero = np.zeros(tree.legal.shape)
    prediction = zero.copy()
    i = tree.infoset_index("K")
    prediction[i, :2] = [-1.0, 2.0]
    trace = trace_iteration(tree, zero, zero, algorithm="pcfr+", updates="alternating", prediction=prediction)
    np.testing.assert_allclose(trace.strategy[i, :2], [0.0, 1.0])
    assert any("prediction" in s.text for s in trace.steps if s.kind == "finish")
