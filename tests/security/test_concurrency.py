"""Several sessions' threads judging strategies on different trees at once.

Streamlit runs every session's script in its own thread of one process, so anything
`cfrviz.analysis` caches between calls is shared by strangers. Reference: the value the same
call returns in a single thread, before any other thread runs; the kernels are deterministic,
so every concurrent answer must equal it exactly. Before the cache was one tuple, these
tests ended in a segmentation fault: a tree paired with another tree's node table.
"""
from __future__ import annotations

import sys
import threading
import time
from collections.abc import Iterator
from types import FrameType

import numpy as np
import pytest

from cfrviz.analysis import best_response, exploitability, exploitability_many
from cfrviz.tree import GameTree
from cfrviz.catalog import compile_game

THREADS = 6
CALLS_PER_THREAD = 150


def _uniform_then_random(tree: GameTree, count: int, seed: int) -> list[np.ndarray]:
    """Uniform, then random behaviour strategies [I, A] (zero on illegal actions)."""
    rng = np.random.default_rng(seed)
    profiles = [tree.uniform_strategy()]
    for _ in range(count - 1):
        weights = rng.random(tree.legal.shape) * tree.legal
        profiles.append(weights / weights.sum(axis=1, keepdims=True))
    return profiles


def _yield_between_opcodes(frame: FrameType, event: str, arg: object) -> object:
    """Trace function: inside `cfrviz.analysis`, offer the GIL to another thread after every opcode.

    CPython only switches threads at calls and backward jumps, so without this a cache
    updated by two stores in a row is torn on free-threaded builds but almost never here.
    """
    if frame.f_globals.get("__name__") != "cfrviz.analysis.best_responses":
        return None
    frame.f_trace_opcodes = True
    if event == "opcode":
        time.sleep(0)   # releases the GIL: a thread switch, not a wait
    return _yield_between_opcodes


@pytest.fixture
def fast_thread_switches() -> Iterator[None]:
    # Threads started from here on trace cfrviz.analysis opcode by opcode.
    previous = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    threading.settrace(_yield_between_opcodes)
    try:
        yield
    finally:
        threading.settrace(None)  # type: ignore[arg-type]
        sys.setswitchinterval(previous)


def test_threads_on_two_trees_get_the_single_threaded_answers(fast_thread_switches: None) -> None:
    # Kuhn (3 cards, 58 nodes) and Leduc (thousands of nodes): a Kuhn-sized node table read with
    # Leduc's ids, or the reverse, gives a different number or reads out of bounds.
    trees = [compile_game("kuhn"), compile_game("leduc")]
    cases = [(tree, profile) for k, tree in enumerate(trees) for profile in _uniform_then_random(tree, 3, seed=k)]
    expected = [exploitability(tree, profile) for tree, profile in cases]
    # Sanity of the reference: Kuhn's uniform profile has NashConv 11/12 (OpenSpiel's test).
    assert expected[0] == pytest.approx(11 / 24, abs=1e-12)

    start = threading.Barrier(THREADS)
    wrong: list[str] = []
    errors: list[BaseException] = []

    def hammer(offset: int) -> None:
        try:
            start.wait()
            for call in range(CALLS_PER_THREAD):
                # Neighbouring calls of one thread, and the same call of neighbouring threads,
                # alternate between the two trees.
                k = (offset + call) % len(cases)
                tree, profile = cases[k]
                got = exploitability(tree, profile)
                if got != expected[k]:
                    wrong.append(f"thread {offset}, call {call}: {tree.game.title} gave {got!r}, "
                                 f"expected {expected[k]!r}")
        except BaseException as error:  # reported in the main thread
            errors.append(error)

    threads = [threading.Thread(target=hammer, args=(n,)) for n in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors, errors
    assert not wrong, wrong[:5]


def test_batched_and_best_response_calls_under_threads(fast_thread_switches: None) -> None:
    # The other public entry points share the same per-tree cache.
    trees = [compile_game("kuhn"), compile_game("kuhn", cards=5)]
    stacks = [np.stack(_uniform_then_random(tree, 4, seed=10 + k)) for k, tree in enumerate(trees)]
    expected_many = [exploitability_many(tree, stack) for tree, stack in zip(trees, stacks)]
    expected_br = [best_response(tree, stack[1], 1).value for tree, stack in zip(trees, stacks)]

    start = threading.Barrier(THREADS)
    failures: list[str] = []

    def hammer(offset: int) -> None:
        try:
            start.wait()
            for call in range(CALLS_PER_THREAD // 3):
                k = (offset + call) % 2
                many = exploitability_many(trees[k], stacks[k])
                value = best_response(trees[k], stacks[k][1], 1).value
                if not np.array_equal(many, expected_many[k]) or value != expected_br[k]:
                    failures.append(f"thread {offset}, call {call}, {trees[k].game.title}")
        except BaseException as error:  # reported in the main thread
            failures.append(repr(error))

    threads = [threading.Thread(target=hammer, args=(n,)) for n in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not failures, failures[:5]
