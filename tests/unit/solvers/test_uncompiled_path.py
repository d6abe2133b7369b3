"""The path a solve takes while the warm-up compiles: the kernels' source run by the interpreter, and
the snapshots judged in NumPy, give the compiled kernels' numbers bit for bit.

References: the digests in tests/data/kernel_identity.json, recorded from the compiled kernels (see
tests/unit/solvers/test_kernel_identity.py), and the compiled kernels themselves on the same input.
The required tolerance is 1e-12; the tests ask for equal bits, which is stronger.
"""
from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest
from numba import njit

import cfrviz
from cfrviz.analysis import _batched_inspector, _batched_judging, _best_response_kernels, best_responses, inspector
from cfrviz.app.links import DEFAULT_CHOICE
from cfrviz.catalog import compile_game
from cfrviz.solvers import _cfr_kernel, _interpreted
from tests.unit.solvers.test_kernel_identity import SOLVES, _reference, _solve_case

#: The deterministic CFR family's recorded solves: the ones the interpreted path serves.
DETERMINISTIC = ("cfr", "cfr+", "dcfr", "lcfr", "pcfr+", "dcfr+", "pdcfr+")
CASES = [case for case in SOLVES if case[2] in DETERMINISTIC]


class Picks:
    """Counts what `pick` handed out: compiled kernels, interpreted ones, NumPy stand-ins."""

    def __init__(self) -> None:
        self.compiled: list[str] = []
        self.instead: list[str] = []


@pytest.fixture
def compiling(monkeypatch: pytest.MonkeyPatch) -> Iterator[Picks]:
    """The app while its warm-up compiles: another thread holds `background_compile`, and no kernel has
    machine code yet (as in a fresh process with an empty numba cache)."""
    entered, release = threading.Event(), threading.Event()

    def warm_up_thread() -> None:
        with _interpreted.background_compile():
            entered.set()
            release.wait()

    thread = threading.Thread(target=warm_up_thread, daemon=True)
    thread.start()
    entered.wait()
    picks = Picks()
    pick = _interpreted.pick

    def counting_pick(kernel: Any, node_visits: float, instead: Callable[..., Any] | None = None) -> Callable[..., Any]:
        chosen = pick(kernel, node_visits, instead)
        (picks.compiled if chosen is kernel else picks.instead).append(kernel.py_func.__name__)
        return chosen

    monkeypatch.setattr(_interpreted, "is_compiled", lambda kernel: False)
    for module in (cfrviz.solvers.cfr, best_responses, inspector):
        monkeypatch.setattr(module, "pick", counting_pick)
    yield picks
    release.set()
    thread.join()


def _differing(case: tuple[str, dict[str, Any], str, str, int]) -> dict[str, tuple[str, str]]:
    game, params, algorithm, updates, iterations = case
    suffix = "".join(f"_{k}{v}" for k, v in params.items())
    expected = _reference()[f"solve/{game}{suffix}/{algorithm}/{updates}/{iterations}"]
    got = _solve_case(game, params, algorithm, updates, iterations)
    return {name: (got[name], expected[name]) for name in expected if got[name] != expected[name]}


@pytest.mark.parametrize("case", CASES, ids=lambda case: "/".join(str(part) for part in case))
def test_interpreted_solve_has_the_compiled_kernels_bits(compiling: Picks, case: tuple[str, dict[str, Any], str, str,
                                                                                     int]) -> None:
    # Reference: the compiled kernels' recorded digests of every Run array (kernel_identity.json).
    assert not _differing(case)
    # Every iteration and every snapshot's judging took the uncompiled path.
    assert compiling.compiled == [] and "run_iterations" in compiling.instead
    assert "_nash_conv_pairs" in compiling.instead and "_profile_values" in compiling.instead


def test_switching_to_the_compiled_kernel_mid_solve_changes_no_bit(compiling: Picks,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    # Reference: the recorded compiled digests. The solve runs in chunks; the kernel "finishes
    # compiling" after the third, so the rest of the solve and its judging run compiled.
    calls = []

    def compiled_after_three_chunks(kernel: Any) -> bool:
        calls.append(kernel)
        return sum(1 for k in calls if k is _cfr_kernel.run_iterations) > 3

    monkeypatch.setattr(_interpreted, "is_compiled", compiled_after_three_chunks)
    case = ("leduc", {}, "pcfr+", "alternating", 30)
    assert not _differing(case)
    assert compiling.instead.count("run_iterations") == 3 and "run_iterations" in compiling.compiled


def test_the_default_first_solve_is_served_without_the_compiler(compiling: Picks) -> None:
    # Reference: the same solve compiled (this process has the kernels), compared field by field.
    first = DEFAULT_CHOICE
    run = cfrviz.solve(first.spec, first.algorithm, iterations=first.iterations, updates=first.updates)
    assert compiling.compiled == []
    with _interpreted.background_compile():      # this thread is now the compiler: compiled kernels
        compiled = cfrviz.solve(first.spec, first.algorithm, iterations=first.iterations, updates=first.updates)
    for field in ("cumulative_regret", "current_strategy", "average_strategy", "reach", "value", "expected_value",
                  "exploitability", "current_exploitability", "nodes_touched"):
        np.testing.assert_array_equal(getattr(run, field), getattr(compiled, field), err_msg=field)
    assert run.average_strategy_value == compiled.average_strategy_value


@pytest.mark.parametrize(("game", "params"), [("kuhn", {}), ("leduc", {}), ("rps", {}), ("efg:myerson_card_game", {})])
def test_batched_exploitability_equals_the_kernel_on_random_profiles(game: str, params: dict[str, Any]) -> None:
    # Reference: the compiled `_nash_conv_pairs` (4 snapshots a walk) and `_nash_conv_pairs_unblocked` on the
    # same profiles (random behaviour strategies, some pure, so ties between best actions are exercised too).
    tree = compile_game(game, **params)
    rng = np.random.default_rng(7)
    profiles = []
    for t in range(12):
        raw = rng.random(tree.legal.shape) * tree.legal
        if t % 3 == 0:
            raw = np.where(raw == raw.max(axis=1, keepdims=True), 1.0, 0.0) * tree.legal
        if t % 4 == 1:
            raw = tree.legal.astype(float)       # uniform: every action value ties at some sets
        profiles.append(raw / raw.sum(axis=1, keepdims=True))
    first = np.ascontiguousarray(profiles[:6])
    second = np.ascontiguousarray(profiles[6:])
    packed = best_responses._packed(tree)
    arrays = (packed.nodes, packed.chance_probability, packed.chance_reach, packed.payoff, packed.judging,
              packed.inner_levels, first, second)
    batched_reach, blocked_reach, unblocked_reach = (np.empty(first.shape[:2]) for _ in range(3))
    batched = _batched_judging._nash_conv_pairs_batched(*arrays, batched_reach)
    np.testing.assert_array_equal(batched, _best_response_kernels._nash_conv_pairs(*arrays, blocked_reach, 4))
    np.testing.assert_array_equal(batched, _best_response_kernels._nash_conv_pairs_unblocked(*arrays, unblocked_reach))
    np.testing.assert_array_equal(batched_reach, blocked_reach)
    np.testing.assert_array_equal(batched_reach, unblocked_reach)


@pytest.mark.parametrize(("game", "algorithm", "updates"), [
    ("kuhn", "cfr", "simultaneous"), ("kuhn", "pcfr+", "alternating"), ("leduc", "cfr+", "alternating"),
    ("efg:myerson_card_game", "dcfr", "simultaneous")])
def test_inspector_numbers_in_numpy_equal_the_compiled_kernels(compiling: Picks, game: str, algorithm: str,
                                                               updates: str) -> None:
    # Reference: `frame_numbers` with the compiled `_frames_kernel` on the same run (every frame,
    # every history and set). pcfr+ with alternating updates also takes the predictive path that
    # re-derives player 1's updated strategy.
    run = cfrviz.solve(game, algorithm, iterations=40, updates=updates)
    batched = inspector.frame_numbers(run, np.arange(run.num_snapshots))
    assert "_frames_kernel" in compiling.instead and "_frames_kernel" not in compiling.compiled
    with _interpreted.background_compile():      # this thread is now the compiler: the compiled kernel
        compiled = inspector.frame_numbers(run, np.arange(run.num_snapshots))
    for name, array in compiled.items():
        np.testing.assert_array_equal(batched[name], array, err_msg=name)


def test_batched_inspector_walk_equals_the_kernel_on_random_profiles() -> None:
    # Reference: the compiled `_frames_kernel` on the same random profiles, some frames unknown for
    # player 2 (NaN profiles, as `update_profiles` leaves them), columns for every other history.
    tree = compile_game("leduc")
    rng = np.random.default_rng(11)
    raw = rng.random((9, 2) + tree.legal.shape) * tree.legal
    profiles = np.ascontiguousarray(raw / raw.sum(axis=3, keepdims=True))
    known = np.ones((9, 2), dtype=bool)
    known[::4, 1] = False
    profiles[::4, 1] = np.nan
    column = np.full(tree.num_nodes, -1, dtype=np.int64)
    column[::2] = np.arange(len(column[::2]))
    packed = best_responses._packed(tree)
    outputs = []
    for walk in (inspector._frames_kernel, _batched_inspector._frames_batched):
        for same_profile in (False, True):
            m = len(column[::2])
            out = (np.full((9, m), np.nan), np.full((9, m), np.nan), np.full((9, m, tree.max_actions), np.nan),
                   np.full((9, m), np.nan), np.zeros((9, tree.num_infosets, tree.max_actions)))
            walk(packed.nodes, packed.chance_probability, packed.payoff, profiles, known, same_profile, column, *out)
            outputs.append(out)
    for compiled, batched in zip(outputs[:2], outputs[2:]):
        for expected, got in zip(compiled, batched):
            np.testing.assert_array_equal(got, expected)


@njit(cache=False)
def _add_scaled(out: np.ndarray, row: int, x: np.ndarray, scale: float) -> None:
    for a in range(x.shape[0]):
        out[row, a] += scale * x[a]


@njit(cache=False)
def _rows_scaled(out: np.ndarray, x: np.ndarray) -> float:
    for row in range(out.shape[0]):
        _add_scaled(out, row, x, row + 0.5)
    return out[out.shape[0] - 1, 0]


def test_interpreted_runs_nested_kernels_without_compiling_them() -> None:
    # Reference: hand computation, out[r, a] = (r + 0.5) * x[a]; then the compiled kernels agree.
    assert not _rows_scaled.signatures and not _add_scaled.signatures
    out = np.zeros((3, 2))
    last = _interpreted.interpreted(_rows_scaled)(out, np.array([2.0, -4.0]))
    np.testing.assert_array_equal(out, [[1.0, -2.0], [3.0, -6.0], [5.0, -10.0]])
    assert last == 5.0
    assert not _rows_scaled.signatures and not _add_scaled.signatures     # nothing reached the compiler
    compiled = np.zeros((3, 2))
    assert _rows_scaled(compiled, np.array([2.0, -4.0])) == last
    np.testing.assert_array_equal(compiled, out)


def test_pick_serves_the_interpreter_only_while_compiling_small_calls(compiling: Picks) -> None:
    # Reference: the rule in `pick`'s docstring. `compiling` holds the warm-up in another thread.
    kernel = _cfr_kernel.run_iterations
    small = _interpreted.INTERPRETED_NODE_VISITS
    assert _interpreted.pick(kernel, small) is not kernel
    assert _interpreted.pick(kernel, small + 1) is kernel                   # too big: wait for the compiler
    with _interpreted.background_compile():                                 # the compiling thread itself
        assert _interpreted.pick(kernel, 1) is kernel


def test_outside_the_warm_up_every_call_is_compiled(monkeypatch: pytest.MonkeyPatch) -> None:
    # Reference: `pick`'s docstring: the CLI, scripts and tests keep the compiled kernels.
    monkeypatch.setattr(_interpreted, "is_compiled", lambda kernel: False)
    assert not _interpreted.compiling_in_background()
    assert _interpreted.pick(_cfr_kernel.run_iterations, 1) is _cfr_kernel.run_iterations
