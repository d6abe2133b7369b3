"""How much slower an update rule of one's own (plain NumPy) is than the compiled kernel: a table.

    python -m benchmarks.custom_rule                 # Kuhn and Leduc, both update schemes
    python -m benchmarks.custom_rule --repeats 5     # best of 5 (default 3)

Same tree, same scheme, same algorithm: the built-in `cfr+` numba kernel against CFR+ written
through the extension point (`cfrviz.solvers.examples.NumpyCFRPlus`, which gives the kernel's
numbers bit for bit). Solver time only (`Solver.iterate`, no snapshots, no exploitability), the
kernel compiled before timing; the best of `--repeats` runs. Timings on a shared machine are noisy:
re-run on a quiet one for the numbers you publish.
"""
from __future__ import annotations

import argparse
import time

from cfrviz.catalog import compile_game
from cfrviz.solvers import register_minimizer, solver_class
from cfrviz.solvers.examples import NumpyCFRPlus
from cfrviz.tree import GameTree

#: (game, iterations of the NumPy rule): about a second each; the kernel runs KERNEL_FACTOR times as
#: many (a full-width CFR+ iteration costs the same at any t), so its timing is not a few milliseconds.
CASES = (("kuhn", 2000), ("leduc", 200))
KERNEL_FACTOR = 20


def _seconds_per_iteration(tree: GameTree, algorithm: str, updates: str, iterations: int, repeats: int) -> float:
    best = float("inf")
    for _ in range(repeats):
        solver = solver_class(algorithm)(tree, updates=updates)
        start = time.perf_counter()
        solver.iterate(iterations)
        best = min(best, time.perf_counter() - start)
    return best / iterations


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3, help="runs per cell; the fastest counts (default 3)")
    args = parser.parse_args(argv)
    rule = register_minimizer("numpy-cfr+", NumpyCFRPlus)
    print(f"{'game':<6} {'updates':<13} {'rule its':>10} {'numba cfr+ µs/it':>17} "
          f"{'NumPy rule µs/it':>17} {'slower':>7}")
    for game, iterations in CASES:
        tree = compile_game(game)
        for updates in ("alternating", "simultaneous"):
            solver_class("cfr+")(tree, updates=updates).iterate(2)        # compile (or load) the kernel first
            kernel = _seconds_per_iteration(tree, "cfr+", updates, iterations * KERNEL_FACTOR, args.repeats)
            custom = _seconds_per_iteration(tree, rule, updates, iterations, args.repeats)
            print(f"{game:<6} {updates:<13} {iterations:>10,} {kernel * 1e6:>17.1f} {custom * 1e6:>17.1f} "
                  f"{custom / kernel:>6.0f}×")


if __name__ == "__main__":
    main()
