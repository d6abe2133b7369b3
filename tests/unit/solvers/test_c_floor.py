"""The C floor (benchmarks/c_reference/cfr.c) runs the kernel's alternating vanilla CFR loop: the same
nodes in the same order, the same floating-point operations, so the same bits.

Reference: the kernel itself (`c_reference.kernel_sums`: VanillaCFR with alternating updates) after
the same iterations; the C program prints its last root value and the sums of its cumulative regret
and strategy sum to 17 significant digits, which round-trip a double exactly.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks import c_reference
from cfrviz.catalog import compile_game
from cfrviz.tree import GameTree
from cfrviz.tree.locks import Locks, restrict


@pytest.fixture(scope="module")
def floor_binary(tmp_path_factory: pytest.TempPathFactory) -> Path:
    binary = c_reference.build(tmp_path_factory.mktemp("floor"))
    if binary is None:
        pytest.skip("no C compiler (gcc or cc) on this machine")
    return binary


def _locked(locks: str) -> GameTree:
    return restrict(compile_game("kuhn"), Locks.parse(locks)).tree


@pytest.mark.parametrize(("tree", "iterations"),
                         [(compile_game("kuhn"), 300), (compile_game("leduc"), 60), (compile_game("kuhn", cards=5), 100),
                          # chance nodes whose outcomes are not equally likely, one of them never
                          (_locked("J=1/4,3/4"), 300), (_locked("Q=0,1"), 300)],
                         ids=["kuhn", "leduc", "kuhn5", "kuhn-J-locked", "kuhn-Q-locked-pure"])
def test_the_c_loop_reaches_the_kernels_bits(floor_binary: Path, tmp_path: Path, tree: GameTree,
                                             iterations: int) -> None:
    tree_file = tmp_path / "tree.bin"
    c_reference.write_tree(tree, tree_file)
    ran = c_reference.run(floor_binary, tree_file, iterations, repeats=2)
    expected = c_reference.kernel_sums(tree, iterations)
    for floor_run in ran:          # a second repeat starts afresh and ends the same
        assert (floor_run.root_value, floor_run.regret_sum, floor_run.strategy_sum) == expected
