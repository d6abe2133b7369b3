"""The floor: cfrviz's alternating vanilla CFR loop in plain C (`cfr.c`), over the same flat arrays.

`build()` compiles cfr.c with `gcc -O2` (or `cc -O2`) into a directory when a C compiler is
present; `write_tree()` writes a tree's arrays in the format cfr.c reads; `run()` returns what
the program measured. `kernel_sums()` gives the numbers cfrviz's kernel reaches after the same
iterations, which the program's must equal bit for bit when the loop is really the same.
"""
from __future__ import annotations

import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from cfrviz.solvers._kernel_tree import kernel_tree
from cfrviz.solvers.cfr import VanillaCFR
from cfrviz.tree import GameTree

SOURCE = Path(__file__).with_name("cfr.c")


@dataclass(frozen=True)
class FloorRun:
    """One run of the C program: CPU seconds of its iterations, player 1's last root value, and the
    sums (in index order) of cumulative regret and strategy sum after them."""

    seconds: float
    root_value: float
    regret_sum: float
    strategy_sum: float


def build(directory: Path) -> Path | None:
    """Compile cfr.c with -O2 into `directory`; None when no C compiler is found."""
    compiler = shutil.which("gcc") or shutil.which("cc")
    if compiler is None:
        return None
    binary = directory / "cfr"
    subprocess.run([compiler, "-O2", "-o", str(binary), str(SOURCE)], check=True, capture_output=True)
    return binary


def write_tree(tree: GameTree, path: Path) -> None:
    """The tree's arrays in cfr.c's format (see its header), little-endian."""
    arrays = kernel_tree(tree)
    with path.open("wb") as out:
        out.write(b"CFRVIZT3")
        np.array([tree.num_nodes, tree.num_infosets, tree.max_actions, len(arrays.decision),
                  len(arrays.decision_start), int(arrays.prunable)],
                 dtype="<u8").tofile(out)
        for array, dtype in ((arrays.actor, "u1"), (arrays.infoset, "<u8"), (arrays.first_child, "<u8"),
                             (arrays.num_children, "<u8"), (arrays.chance_probability, "<f8"),
                             (arrays.payoff, "<f8"), (arrays.infoset_player, "u1"),
                             (arrays.num_actions, "<u8"), (arrays.decision, "<u8"),
                             (arrays.decision_start, "<u8"), (arrays.own_parent, "<u8"),
                             (arrays.own_action, "<u8"), (arrays.histories, "<u8")):
            np.ascontiguousarray(array, dtype=dtype).tofile(out)


def run(binary: Path, tree_file: Path, iterations: int, repeats: int = 1) -> list[FloorRun]:
    """Run the C program: `repeats` fresh solves of `iterations` iterations each."""
    done = subprocess.run([str(binary), str(tree_file), str(iterations), str(repeats)],
                          check=True, capture_output=True, text=True)
    return [FloorRun(*(float(x) for x in line.split())) for line in done.stdout.splitlines()]


def kernel_sums(tree: GameTree, iterations: int) -> tuple[float, float, float]:
    """(last root value, regret sum, strategy-sum sum) of cfrviz's VanillaCFR after `iterations`,
    summed one entry after another as the C program sums them."""
    solver = VanillaCFR(tree, updates="alternating")
    solver.iterate(iterations)
    return (float(solver.last_value), float(np.cumsum(solver.cumulative_regret.ravel())[-1]),
            float(np.cumsum(solver.strategy_sum.ravel())[-1]))
