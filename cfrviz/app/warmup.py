"""Compile every numba kernel ahead of the first visitor.

A fresh process pays for compiling (or loading from numba's on-disk cache) each kernel the first
time it runs: 10 to 25 s on a busy 2-core machine when nothing is cached. `compile_kernels()`
pays that once, on purpose: a deploy runs it at build time (`python -m cfrviz.app.warmup`), which
also fills the on-disk cache, and the app runs it in a background thread at start-up while the
landing page draws. Pure: no Streamlit.
"""
from __future__ import annotations

import time

from cfrviz.solvers import ALGORITHMS, UpdateScheme

__all__ = ["compile_kernels"]


def compile_kernels() -> float:
    """Run every algorithm, every update scheme and the analysis on tiny games; returns seconds.

    Kernels compile per argument type, not per game, so 3-card Kuhn (and rock-paper-scissors
    for regret matching) reach every compiled path. Safe to call again: later calls are quick.
    """
    import numpy as np

    from cfrviz import runner
    from cfrviz.app.links import DEFAULT_CHOICE
    from cfrviz.solvers import update_schemes
    from cfrviz.solvers.matrix import regret_matching_path

    start = time.perf_counter()
    # The sidebar's default solve (and its snapshot judging) first: numba compiles one kernel at a
    # time, so a first visitor's solve waits only for these, not for every other algorithm's.
    first = DEFAULT_CHOICE
    runner.solve(first.game, first.algorithm, iterations=2, updates=first.updates, seed=0)
    for algorithm in ALGORITHMS:
        game = "rps" if algorithm == "rm" else "kuhn"
        for updates in update_schemes(algorithm):
            if (game, algorithm, updates) != (first.game, first.algorithm, first.updates):
                runner.solve(game, algorithm, iterations=2, updates=updates, seed=0)
    from cfrviz.analysis.inspector import frame_numbers  # the Game tree page's numbers for every frame

    frame_numbers(runner.solve("kuhn", "cfr", iterations=2, updates=UpdateScheme.ALTERNATING), [0, 1])
    payoffs = np.array([[0.0, -1.0, 1.0], [1.0, 0.0, -1.0], [-1.0, 1.0, 0.0]])
    for sampled in (False, True):
        regret_matching_path(payoffs, 2, sampled=sampled)
        regret_matching_path(payoffs, 2, opponent=np.full(3, 1 / 3), sampled=sampled)
    return time.perf_counter() - start


if __name__ == "__main__":
    print(f"cfrviz kernels ready in {compile_kernels():.1f} s")
