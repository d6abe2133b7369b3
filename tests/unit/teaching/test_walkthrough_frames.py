"""The walkthrough's browser frames (`cfrviz.figures.walkthrough.walkthrough_payload`).

References: the iteration worked by hand (chance sampling deals Q vs K from uniform: the first
regret update is at Q kb, +0.25 / -0.25, at step 8 of 15: one deal, 4 decision nodes visited and
returned, 5 terminals, the chance step and the end of the pass); the trace's own steps, their
updates replayed one by one (`sums_after` below), for when a set's "after" values are pending,
partly added or final; and the trace's state after the iteration.
"""
from __future__ import annotations

import json

import numpy as np
import pytest

from cfrviz.catalog import compile_game
from cfrviz.figures.walkthrough import checked_step, first_part, set_progress, step_parts, walkthrough_payload
from cfrviz.teaching.walkthrough import IterationTrace, solver_state, trace_iteration


def sums_after(trace: IterationTrace, upto: int) -> tuple[list[np.ndarray | None], np.ndarray]:
    """(cumulative regret per set, or None while it waits for the end of its player's pass;
    strategy sum [I, A]) after step `upto` (-1: before the first), replayed from the steps' updates.
    Vanilla CFR and chance sampling only add; every other variant clips, discounts or predicts at
    the end of a pass, so its regrets are final only from its player's "finish" step on."""
    tree = trace.tree
    regret = np.array(trace.cumulative_regret_before, dtype=float)
    strategy_sum = np.array(trace.strategy_sum_before, dtype=float)
    for step in trace.steps[:upto + 1]:
        if step.kind == "return":
            i, n = step.information_set_id, len(step.actions)
            regret[i, :n] += np.asarray(step.regret_update)
            strategy_sum[i, :n] += np.asarray(step.strategy_sum_update)
    if trace.algorithm in ("cfr", "chance"):
        return list(regret), strategy_sum
    finished = {s.traverser for s in trace.steps[:upto + 1] if s.kind == "finish"}
    shown: list[np.ndarray | None] = [
        trace.cumulative_regret_after[i] if -1 in finished or int(tree.infoset_player[i]) in finished else None
        for i in range(tree.num_infosets)]
    return shown, strategy_sum


def same(a: np.ndarray | None, b: np.ndarray | None) -> bool:
    return a is not None and b is not None and np.allclose(a, b, rtol=0, atol=1e-9)


def kuhn_qk():
    tree = compile_game("kuhn")
    zero = np.zeros(tree.legal.shape)
    return trace_iteration(tree, zero, zero, algorithm="chance", updates="simultaneous", deal="QK")


def test_the_hand_worked_iteration_is_fifteen_frames_with_its_first_update_at_q_kb():
    payload = walkthrough_payload(kuhn_qk())
    steps = payload["steps"]
    assert len(steps["kind"]) == 15
    assert steps["kind"][0] == "chance" and steps["kind"][-1] == "finish"
    first_return = steps["kind"].index("return")
    assert first_return == 7 and steps["history"][7] == "QK kb"
    assert steps["regretUpdate"][7] == [0.25, -0.25] and steps["weight"][7] == 0.5
    # Reach passed down: chance dealt QK with 1/6; player 1 checks with 1/2 (uniform start).
    assert steps["reach"][1] == pytest.approx([1.0, 1.0, 1 / 6], abs=1e-6)
    assert steps["reach"][2] == pytest.approx([0.5, 1.0, 1 / 6], abs=1e-6)
    # One part: the root and the deal's 4 decision nodes and 5 terminals.
    assert len(payload["parts"]) == 1 and len(payload["parts"][0]["nodes"]["id"]) == 10
    table = payload["table"]
    q_kb = table["key"].index("Q kb")
    assert table["first"][q_kb] == table["final"][q_kb] == 7
    assert table["regretAfter"][q_kb] == [0.25, -0.25]
    # Only the four sets on the Q-vs-K deal change; the others are never pending.
    assert sorted(k for k, c in zip(table["key"], table["changed"]) if c) == ["K b", "K k", "Q", "Q kb"]
    assert all(f < 0 for f, c in zip(table["first"], table["changed"]) if not c)
    json.dumps(payload, allow_nan=False)


@pytest.mark.parametrize(("game", "algorithm", "updates"), [
    ("kuhn", "cfr", "simultaneous"), ("kuhn", "cfr+", "alternating"), ("kuhn", "lcfr", "simultaneous"),
    ("leduc", "chance", "alternating"),
])
def test_a_sets_after_values_are_pending_until_its_first_update_and_final_from_its_last(game, algorithm, updates):
    # Reference: the trace's own step-by-step table; "…" is where it waits for the end of a pass.
    tree = compile_game(game)
    regret, strategy_sum, prediction, _ = solver_state(tree, algorithm, updates, 0, 3)
    trace = trace_iteration(tree, regret, strategy_sum, prediction=prediction, algorithm=algorithm, updates=updates,
                            iteration=3, deal="QK" if algorithm == "chance" else None, board="K" if game == "leduc" else None)
    first, final = set_progress(trace)
    last = len(trace.steps) - 1
    final_regret, final_sum = trace.cumulative_regret_after, trace.strategy_sum_after
    for i, record in enumerate(tree.infosets):
        if first[i] < 0:
            assert final[i] < 0
            assert same(final_regret[i], trace.cumulative_regret_before[i])
            continue
        assert 0 <= first[i] <= final[i] <= last
        _, sum_before = sums_after(trace, first[i] - 1)
        # Before its first update nothing has been added: what a table would show is not final.
        assert same(sum_before[i], trace.strategy_sum_before[i]), record.key
        if final[i] < last:
            regret_at, sum_at = sums_after(trace, final[i])
            assert same(regret_at[i], final_regret[i]), record.key
            assert same(sum_at[i], final_sum[i]), record.key
        if final[i] > first[i]:
            regret_just_before, sum_just_before = sums_after(trace, final[i] - 1)
            assert (not same(regret_just_before[i], final_regret[i])
                    or not same(sum_just_before[i], final_sum[i])), record.key


def test_replaying_the_frames_updates_gives_the_state_after_the_iteration():
    # What the browser does for the "so far" values: before + the returns' updates. For vanilla CFR
    # (nothing happens at the end of a pass) that is the state after the iteration.
    tree = compile_game("kuhn")
    regret, strategy_sum, _, _ = solver_state(tree, "cfr", "alternating", 0, 5)
    trace = trace_iteration(tree, regret, strategy_sum, algorithm="cfr", updates="alternating", iteration=5)
    payload = walkthrough_payload(trace)
    steps, table = payload["steps"], payload["table"]
    regret_sum = [list(r) for r in table["regretBefore"]]
    for kind, s, update in zip(steps["kind"], steps["set"], steps["regretUpdate"]):
        if kind == "return":
            regret_sum[s] = [a + b for a, b in zip(regret_sum[s], update)]
    for i in range(tree.num_infosets):
        assert regret_sum[i] == pytest.approx(table["regretAfter"][i], abs=1e-5)


def test_leduc_is_drawn_one_betting_round_at_a_time():
    # Vanilla CFR walks all of Leduc (1,936 histories): each step is drawn on its round's part.
    tree = compile_game("leduc")
    zero = np.zeros(tree.legal.shape)
    trace = trace_iteration(tree, zero, zero, algorithm="cfr", updates="simultaneous")
    parts, part_of_step = step_parts(trace)
    assert len(part_of_step) == len(trace.steps) == 2711
    # One round of betting under one deal or public card: 17 histories, with the path above it and
    # the chance nodes (or terminals) below; never anything like the whole tree.
    assert max(len(p) for p in parts) <= 60
    for step, p in zip(trace.steps, part_of_step):
        assert step.node in parts[p] and 0 in parts[p]
    assert first_part(trace) == list(parts[part_of_step[0]])


def test_a_step_from_the_browser_is_checked():
    assert checked_step(4, 15) == 4 and checked_step(15.0, 15) == 15
    for bad in (0, 16, -1, 2.5, "4", None, True, float("nan"), float("inf"), [4]):
        assert checked_step(bad, 15) is None
