"""How fast cfrviz is, side by side with a plain Python CFR, OpenSpiel's and LiteEFG's C++ solvers.

    python -m benchmarks.bench            # full tables (a few minutes on 2 cores)
    python -m benchmarks.bench --quick    # fewer repeats

Prints a table (game x algorithm x implementation: microseconds per iteration, the median
of several repeats, the ratio OpenSpiel / this on the same tree, and the exploitability at
the end) with exploitability timing and sampling solvers; then a table of the CFR variants
(CFR, CFR+, DCFR, PCFR+, DCFR+, PDCFR+) against LiteEFG's C++ graphs where it ships one
(Liu et al.; PCFR+ but not DCFR+ or PDCFR+); then end-to-end solve times, first-solve
times in a fresh process with and without numba's cache, and the memory of a Leduc run.
OpenSpiel and LiteEFG are optional: when they cannot be imported their rows say so.
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Callable
from typing import Any

import numpy as np

import cfrviz
from benchmarks.peers import OPENSPIEL_GAMES, LITEEFG_GRAPHS
from benchmarks.peers import liteefg_module as _liteefg
from benchmarks.peers import liteefg_seconds as _liteefg_seconds
from benchmarks.peers import openspiel_cfr_seconds as _openspiel_cfr_seconds
from benchmarks.peers import pyspiel_module as _pyspiel
from cfrviz.analysis import exploitability
from cfrviz.solvers import solver_class
from cfrviz.catalog import compile_game
from tests.support.plain_cfr import PlainPythonCFR


# ------------------------------------------------------------------------------------------


def _median_seconds(task: Callable[[], object], repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        task()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def _fmt_us(seconds: float) -> str:
    us = seconds * 1e6
    return f"{us:,.1f}" if us < 100 else f"{us:,.0f}"


def _table(rows: list[list[str]], header: list[str]) -> str:
    widths = [max(len(str(r[i])) for r in rows + [header]) for i in range(len(header))]
    def line(r: list[str]) -> str:
        return "| " + " | ".join(str(c).ljust(w) for c, w in zip(r, widths)) + " |"

    return "\n".join([line(header), "|" + "|".join("-" * (w + 2) for w in widths) + "|"] + [line(r) for r in rows])


def solver_rows(repeats: int, spiel: Any) -> list[list[str]]:
    """Deterministic CFR family: cfrviz vs plain Python vs OpenSpiel C++, each ratio on the same tree.

    Leduc twice: cfrviz's merged deal against OpenSpiel's leduc_poker(suit_isomorphism=True), the
    like-for-like pair (the same information sets and 1,116 terminals; OpenSpiel deals the two
    private cards in two chance steps, so it counts 1,939 states to cfrviz's 1,936 nodes), and
    cfrviz's suits=True against OpenSpiel's suited leduc_poker (9,457 states).
    """
    rows = []
    plan: list[tuple[str, str, int, int, dict[str, Any]]] = [("kuhn", "cfr", 1000, 100, {}), ("kuhn", "cfr+", 1000, 100, {}),
            ("leduc", "cfr", 100, 3, {}), ("leduc", "cfr+", 100, 3, {}),
            ("leduc", "cfr", 100, 0, {"suits": True}), ("leduc", "cfr+", 100, 0, {"suits": True})]
    for game, algorithm, iterations, python_iterations, params in plan:
        tree = compile_game(game, **params)
        spiel_name = "leduc_poker" if params.get("suits") else OPENSPIEL_GAMES[game]
        last = cfrviz.solve(game, algorithm, iterations=iterations, **params)     # warm: compile or load the cache
        holder: list[Any] = []
        # Interleave the two so a busy machine slows both alike.
        solver_times: list[float] = []
        spiel_times: list[float] = []
        for _ in range(repeats):
            last = cfrviz.solve(game, algorithm, iterations=iterations, **params)
            solver_times.append(float(last.seconds[-1]))
            if spiel is not None:
                spiel_times.append(_openspiel_cfr_seconds(spiel, spiel_name, algorithm, iterations, holder))
        ours = statistics.median(solver_times) / iterations
        spiel_us, spiel_expl = None, None
        if spiel is not None:
            spiel_us = statistics.median(spiel_times) / iterations
            spiel_expl = spiel.exploitability(holder[0], holder[1].average_policy())
        def ratio(seconds: float) -> str:
            return f"{spiel_us / seconds:,.1f}x" if spiel_us else "n/a"

        size = f"{tree.num_nodes:,} nodes"
        what = ("cfrviz (numba, snapshots on), suits=True, " + size) if params else f"cfrviz (numba, snapshots on), {size}"
        rows.append([game, algorithm, what, _fmt_us(ours), ratio(ours), f"{last.exploitability[-1]:.3e} @ {iterations}"])
        spiel_what = f"OpenSpiel C++, {spiel_name}" + (" (like for like)" if game == "leduc" and not params else "")
        if spiel_us:
            rows.append([game, algorithm, spiel_what, _fmt_us(spiel_us), "1.0x", f"{spiel_expl:.3e} @ {iterations}"])
        else:
            rows.append([game, algorithm, spiel_what, "not installed", "n/a", "n/a"])
        if python_iterations:
            plain = PlainPythonCFR(tree.game, plus=algorithm == "cfr+")
            plain_s = _median_seconds(lambda: plain.iterate(python_iterations), 1) / python_iterations
            rows.append([game, algorithm, "plain Python (recursive)", _fmt_us(plain_s), ratio(plain_s),
                         f"{exploitability(tree, plain.average_strategy(tree)):.3e} @ {python_iterations}"])
    return rows


def variant_rows(repeats: int, spiel: Any, leg: Any) -> list[list[str]]:
    """PCFR+, DCFR+, PDCFR+ beside CFR, CFR+ and DCFR: cfrviz vs LiteEFG's C++ graphs, on the same trees.

    LiteEFG's exploitability is of the average it reports, which starts at the strategy after the
    first update (it records the strategy after each update) and, for CFR+ and PCFR+, weights
    iteration t by t: so it differs from cfrviz's (PCFR+ here averages with weight t^2)."""
    rows = []
    for game, spiel_name, iterations in (("kuhn", "kuhn_poker", 1000),
                                         ("leduc", "leduc_poker(suit_isomorphism=True)", 100)):
        for algorithm in ("cfr", "cfr+", "dcfr", "pcfr+", "dcfr+", "pdcfr+"):
            # LiteEFG's CFR graph updates both players at once; every other graph alternates.
            updates = "simultaneous" if algorithm == "cfr" else "alternating"
            last = cfrviz.solve(game, algorithm, iterations=iterations, updates=updates)          # warm
            ours_times: list[float] = []
            leg_times: list[float] = []
            leg_expl: float | None = None
            for _ in range(repeats):
                last = cfrviz.solve(game, algorithm, iterations=iterations, updates=updates)
                ours_times.append(float(last.seconds[-1]))
                if leg is not None and spiel is not None and algorithm in LITEEFG_GRAPHS:
                    seconds, leg_expl = _liteefg_seconds(leg, spiel, spiel_name, algorithm, iterations)
                    leg_times.append(seconds)
            ours = statistics.median(ours_times) / iterations
            leg_us = statistics.median(leg_times) / iterations if leg_times else None
            name = f"{algorithm} ({updates})" if updates == "simultaneous" else algorithm
            rows.append([game, name, "cfrviz (numba, snapshots on)", _fmt_us(ours),
                         f"{leg_us / ours:,.1f}x" if leg_us else "n/a",
                         f"{last.exploitability[-1]:.3e} @ {iterations}"])
            if algorithm not in LITEEFG_GRAPHS:
                continue
            if leg_us:
                rows.append([game, name, f"LiteEFG C++, {spiel_name}", _fmt_us(leg_us), "1.0x",
                             f"{leg_expl:.3e} @ {iterations} ({LITEEFG_GRAPHS[algorithm][1]})"])
            else:
                rows.append([game, name, "LiteEFG C++", "not installed", "n/a", "n/a"])
    return rows


def exploitability_rows(repeats: int, spiel: Any) -> list[list[str]]:
    rows = []
    for game in ("kuhn", "leduc"):
        run = cfrviz.solve(game, "cfr", iterations=100)
        tree, strategy = run.tree, np.array(run.average_strategy[-1])
        exploitability(tree, strategy)
        ours = _median_seconds(lambda: exploitability(tree, strategy), repeats * 20)
        spiel_s = None
        if spiel is not None:
            spiel_game = spiel.load_game(OPENSPIEL_GAMES[game])
            solver = spiel.CFRSolver(spiel_game)
            for _ in range(100):
                solver.evaluate_and_update_policy()
            policy = solver.average_policy()
            spiel_s = _median_seconds(lambda: spiel.exploitability(spiel_game, policy), repeats)
        rows.append([game, "exploitability", "cfrviz (numba), per call", _fmt_us(ours),
                     f"{spiel_s / ours:,.0f}x" if spiel_s else "n/a", f"{exploitability(tree, strategy):.3e}"])
        rows.append([game, "exploitability", "OpenSpiel C++, per call", _fmt_us(spiel_s) if spiel_s else "not installed",
                     "1.0x" if spiel_s else "n/a", f"{spiel.exploitability(spiel_game, policy):.3e}" if spiel_s else "n/a"])
    return rows


def sampling_rows(repeats: int, spiel: Any) -> list[list[str]]:
    rows = []
    for algorithm, spiel_name in (("external", "ExternalSamplingMCCFRSolver"),
                                  ("outcome", "OutcomeSamplingMCCFRSolver")):
        for game, iterations in (("kuhn", 10_000), ("leduc", 2_000)):
            try:
                cfrviz.solve(game, algorithm, iterations=10)
            except (ImportError, AttributeError) as missing:
                rows.append([game, algorithm, "cfrviz", f"unavailable ({missing})", "n/a", "n/a"])
                continue
            runs = [cfrviz.solve(game, algorithm, iterations=iterations, seed=s) for s in range(repeats)]
            ours = statistics.median(float(r.seconds[-1]) for r in runs) / iterations
            spiel_us, spiel_expl = None, None
            if spiel is not None and hasattr(spiel, spiel_name):
                spiel_game = spiel.load_game(OPENSPIEL_GAMES[game])
                holder: list[Any] = []

                def run_openspiel() -> None:
                    solver = getattr(spiel, spiel_name)(spiel_game, seed=1234)
                    for _ in range(iterations):
                        solver.run_iteration()
                    holder[:] = [solver]

                spiel_us = _median_seconds(run_openspiel, max(1, repeats // 2)) / iterations
                spiel_expl = spiel.exploitability(spiel_game, holder[0].average_policy())
            # The same solver without a Run: iterate(n) in one compiled call, no snapshots.
            tree = runs[0].tree
            cls = solver_class(algorithm)
            raw = _median_seconds(lambda: cls(tree, seed=0).iterate(iterations), repeats) / iterations
            absent = "not installed" if spiel is None else "not exposed by pyspiel"
            rows.append([game, algorithm, "cfrviz (numba, snapshots on)", _fmt_us(ours),
                         f"{spiel_us / ours:,.1f}x" if spiel_us else "n/a",
                         f"{runs[0].exploitability[-1]:.3e} @ {iterations}"])
            rows.append([game, algorithm, "cfrviz iterate(n), no snapshots", _fmt_us(raw),
                         f"{spiel_us / raw:,.1f}x" if spiel_us else "n/a", ""])
            rows.append([game, algorithm, f"OpenSpiel C++ {spiel_name}",
                         _fmt_us(spiel_us) if spiel_us else absent, "1.0x" if spiel_us else "n/a",
                         f"{spiel_expl:.3e} @ {iterations}" if spiel_us else "n/a"])
    return rows


def end_to_end_lines(repeats: int) -> list[str]:
    lines = []
    for game, algorithm, iterations, target in (("kuhn", "cfr", 10_000, 0.1), ("leduc", "cfr+", 1_000, 0.5)):
        cfrviz.solve(game, algorithm, iterations=iterations)
        wall = _median_seconds(lambda: cfrviz.solve(game, algorithm, iterations=iterations), repeats)
        lines.append(f"cfrviz.solve({game!r}, {algorithm!r}, iterations={iterations:_}) warm: {wall:.3f} s "
                     f"(target < {target} s; includes default snapshots and their exploitability)")
    code = ("import time; t = time.perf_counter(); import cfrviz; "
            "cfrviz.solve('kuhn', 'cfr', iterations=10_000); print(time.perf_counter() - t)")
    warm_cache = float(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                                      check=True).stdout.strip() or "nan")
    nocache = subprocess.run([sys.executable, "-c", _NO_CACHE_CODE], capture_output=True, text=True,
                             check=True)
    lines.append(f"first solve (kuhn cfr 10_000) in a fresh process, numba cache present: {warm_cache:.2f} s "
                 "(imports included)")
    lines.append(f"first solve in a fresh process, numba cache ignored (everything compiled): "
                 f"{float(nocache.stdout.strip().splitlines()[-1]):.2f} s")
    tracemalloc.start()
    run = cfrviz.solve("leduc", "cfr", iterations=10_000)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    lines.append(f"Leduc 10_000 iterations: {run.num_snapshots} snapshots, {run.nbytes / run.num_snapshots / 1e3:.1f} kB "
                 f"per snapshot, {run.nbytes / 1e6:.1f} MB held by the Run, peak {peak / 1e6:.1f} MB allocated "
                 "during solve (target < 200 MB)")
    return lines


# Recompile every kernel: turn off caching on each numba dispatcher before its first call.
_NO_CACHE_CODE = """
import time
t = time.perf_counter()
import numba
from numba.core.dispatcher import Dispatcher
from numba.core.caching import NullCache
_compile = Dispatcher.compile
def compile_without_cache(self, sig):
    self._cache = NullCache()
    return _compile(self, sig)
Dispatcher.compile = compile_without_cache
import cfrviz
cfrviz.solve('kuhn', 'cfr', iterations=10_000)
print(time.perf_counter() - t)
"""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.bench", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repeats")
    args = parser.parse_args(argv)
    repeats = 3 if args.quick else 7
    spiel = _pyspiel()
    if spiel is None:
        print("OpenSpiel (pyspiel) is not importable: its columns say 'not installed'. "
              "`pip install open-spiel` in a separate environment to compare.\n")
    else:
        from importlib.metadata import version
        print(f"OpenSpiel {version('open_spiel')} (C++ solvers through pyspiel), numpy {np.__version__}, "
              f"{os.cpu_count()} cores; timings are medians and the machine may be shared.\n")
    leg = _liteefg()
    if leg is not None:
        from importlib.metadata import version
        print(f"LiteEFG {version('LiteEFG')} (C++ through pybind11) for the second table.\n")
    header = ["game", "algorithm", "implementation", "us / iteration", "speed-up vs OpenSpiel (same tree)",
              "exploitability at end"]
    rows = solver_rows(repeats, spiel)
    rows += exploitability_rows(repeats, spiel)
    rows += sampling_rows(repeats, spiel)
    print(_table(rows, header))
    print()
    header = ["game", "algorithm", "implementation", "us / iteration", "speed-up vs LiteEFG (same tree)",
              "exploitability at end"]
    print(_table(variant_rows(repeats, spiel, leg), header))
    print()
    for line in end_to_end_lines(repeats):
        print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
