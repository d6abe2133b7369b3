"""How fast cfrviz solves, side by side with OpenSpiel's C++ CFR, LiteEFG and a C floor, in one table.

    python -m benchmarks.speed            # about five minutes on 2 shared cores
    python -m benchmarks.speed --quick    # fewer repeats

Every time is CPU time of this process (`time.process_time`; the C program reads its own
CLOCK_PROCESS_CPUTIME_ID around its loop), the median of the repeats, and the implementations
take turns inside each repeat (each repeat starting with the next one) so that a busy machine
slows them alike. Per game and algorithm:

- OpenSpiel C++: `pyspiel.CFRSolver` / `CFRPlusSolver` on the same tree (Leduc:
  `leduc_poker(suit_isomorphism=True)`, which has cfrviz's merged Leduc tree; suited Leduc:
  `leduc_poker`), iterations only, the solver's construction left out.
- LiteEFG: its shipped graphs, where it is installed (its CFR updates both players at once).
- cfrviz kernel: the solver's `iterate(n)`, one compiled call, no snapshots.
- cfrviz solve(): `cfrviz.solve(...)` end to end, as the app calls it at the game's app iteration
  cap: default snapshots, their exploitability (average and current strategy), the Run.
- the floor: the same alternating vanilla CFR loop over the same flat arrays in C (gcc -O2),
  checked to reach the kernel's regrets bit for bit.

Then the time to reach exploitability 1e-4 on Leduc: each algorithm's first iteration whose
average strategy is within it, and the CPU time of that many iterations.
"""
from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from importlib.metadata import version
from pathlib import Path
from typing import Any

import numpy as np

import cfrviz
from benchmarks import c_reference
from benchmarks.peers import (
    LITEEFG_GRAPHS,
    liteefg_first_iteration,
    liteefg_module,
    liteefg_seconds,
    openspiel_cfr_seconds,
    pyspiel_module,
)
from cfrviz import catalog
from cfrviz.analysis import exploitability
from cfrviz.solvers import solver_class

CLOCK = time.process_time
TARGET = 1e-4


@dataclass(frozen=True)
class Game:
    """A cfrviz game and OpenSpiel's game with the same tree; `peer_iterations` per OpenSpiel timing."""

    label: str
    name: str
    params: dict[str, Any]
    openspiel: str
    peer_iterations: int


GAMES = (
    Game("Kuhn", "kuhn", {}, "kuhn_poker", 2_000),
    Game("Leduc (same tree)", "leduc", {}, "leduc_poker(suit_isomorphism=True)", 100),
    Game("Leduc, suited", "leduc", {"suits": True}, "leduc_poker", 20),
)
#: (cfrviz algorithm, update scheme, OpenSpiel's C++ solver or None)
ALGORITHMS = (("cfr", "alternating", "cfr"), ("cfr", "simultaneous", None), ("cfr+", "alternating", "cfr+"),
              ("pcfr+", "alternating", None))


@dataclass
class Times:
    """CPU seconds per iteration of each implementation over the repeats."""

    kernel: list[float] = field(default_factory=list)
    solve: list[float] = field(default_factory=list)
    openspiel: list[float] = field(default_factory=list)
    liteefg: list[float] = field(default_factory=list)


def _cpu_seconds(task: Callable[[], object]) -> float:
    start = CLOCK()
    task()
    return CLOCK() - start


def _us(samples: list[float]) -> float | None:
    return statistics.median(samples) * 1e6 if samples else None


def _fmt(us: float | None, absent: str = "–") -> str:
    if us is None:
        return absent
    return f"{us:,.2f}" if us < 10 else f"{us:,.1f}" if us < 1000 else f"{us:,.0f}"


def _ratio(slow: float | None, fast: float | None) -> str:
    return f"{slow / fast:,.1f}×" if slow and fast else "–"


def _load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"{one:.2f} / {five:.2f} / {fifteen:.2f} (1 / 5 / 15 min, {os.cpu_count()} cores)"


def measure_game(game: Game, repeats: int, spiel: Any, leg: Any, floor: Path | None,
                 workdir: Path) -> tuple[list[list[str]], list[str]]:
    """Table rows for one game, and notes (the C floor's bit check)."""
    tree = catalog.compile_game(game.name, **game.params)
    found = catalog.of_tree(tree)
    iterations = found.app_iteration_cap
    times = {(a, u): Times() for a, u, _ in ALGORITHMS}
    floor_times: list[float] = []
    notes: list[str] = []
    tree_file = workdir / f"{game.name}{'_suited' if game.params else ''}.tree"
    if floor is not None:
        c_reference.write_tree(tree, tree_file)
        check = c_reference.run(floor, tree_file, 300)[0]
        ours = c_reference.kernel_sums(tree, 300)
        same = (check.root_value, check.regret_sum, check.strategy_sum) == ours
        notes.append(f"{game.label}: the C loop {'reaches' if same else 'DOES NOT reach'} the kernel's root value, "
                     f"regret sum and strategy sum bit for bit after 300 iterations.")
    for algorithm, updates, _ in ALGORITHMS:                     # compile or load numba's cache first
        cfrviz.solve(game.name, algorithm, iterations=2, updates=updates, **game.params)
    for repeat in range(repeats):
        for algorithm, updates, peer in ALGORITHMS:
            record = times[(algorithm, updates)]
            # LiteEFG's CFR graph updates both players at once; its other graphs alternate.
            liteefg_scheme = "simultaneous" if algorithm == "cfr" else "alternating"

            def time_kernel() -> None:
                solver = solver_class(algorithm)(tree, updates=updates)
                record.kernel.append(_cpu_seconds(partial(solver.iterate, iterations)) / iterations)

            def time_solve() -> None:
                record.solve.append(_cpu_seconds(partial(cfrviz.solve, game.name, algorithm, iterations=iterations,
                                                         updates=updates, **game.params)) / iterations)

            def time_openspiel() -> None:
                if spiel is not None and peer is not None:
                    seconds = openspiel_cfr_seconds(spiel, game.openspiel, peer, game.peer_iterations, [], CLOCK)
                    record.openspiel.append(seconds / game.peer_iterations)

            def time_liteefg() -> None:
                if leg is not None and spiel is not None and algorithm in LITEEFG_GRAPHS and updates == liteefg_scheme:
                    seconds, _ = liteefg_seconds(leg, spiel, game.openspiel, algorithm, game.peer_iterations, CLOCK)
                    record.liteefg.append(seconds / game.peer_iterations)

            # Each repeat starts with another implementation, so that none is always timed right after
            # the same one (whose memory traffic leaves the caches cold for the next).
            order = [time_kernel, time_solve, time_openspiel, time_liteefg]
            for measure in order[repeat % 4:] + order[:repeat % 4]:
                measure()
        if floor is not None:
            floor_times.append(c_reference.run(floor, tree_file, iterations)[0].seconds / iterations)
    floor_us = _us(floor_times)
    rows = []
    for algorithm, updates, peer in ALGORITHMS:
        record = times[(algorithm, updates)]
        kernel, solve, spiel_us, leg_us = (_us(record.kernel), _us(record.solve), _us(record.openspiel),
                                           _us(record.liteefg))
        liteefg_scheme = "simultaneous" if algorithm == "cfr" else "alternating"
        leg_cell = (_fmt(leg_us) if leg_us else "not installed" if leg is None and algorithm in LITEEFG_GRAPHS
                    and updates == liteefg_scheme else "–")
        spiel_cell = _fmt(spiel_us) if spiel_us else ("not installed" if spiel is None and peer else "–")
        leg_ratio = _ratio(leg_us, kernel)
        is_floor_row = algorithm == "cfr" and updates == "alternating"
        rows.append([game.label, f"{algorithm} ({updates})", spiel_cell, leg_cell, _fmt(kernel), _fmt(solve),
                     _ratio(spiel_us, kernel), _ratio(spiel_us, solve), leg_ratio,
                     f"{kernel / floor_us:.2f}×" if is_floor_row and kernel and floor_us else "–"])
    floor_cell = _fmt(floor_us) if floor_us else "no C compiler"
    rows.append([game.label, "cfr (alternating): the floor, C gcc -O2", "–", "–", floor_cell, "–", "–", "–", "–",
                 "1.00×" if floor_us else "–"])
    rows.append(["", "", "", "", "", "", "", "", "", ""])
    notes.append(f"{game.label}: {tree.num_nodes:,} nodes; cfrviz at {iterations:,} iterations (the app's cap), "
                 f"OpenSpiel and LiteEFG at {game.peer_iterations:,}.")
    return rows, notes


def _first_iteration_cfrviz(tree: Any, algorithm: str, limit: int) -> int | None:
    """The first iteration whose average strategy has exploitability <= TARGET, or None by `limit`."""
    solver = solver_class(algorithm)(tree, updates="alternating")
    for t in range(1, limit + 1):
        solver.iterate(1)
        if exploitability(tree, solver.average_strategy()) <= TARGET:
            return t
    return None


def _first_iteration_openspiel(spiel: Any, game_name: str, algorithm: str, limit: int) -> tuple[int, float] | None:
    """(first checked iteration within TARGET, CPU seconds of the iterations alone), or None by `limit`.

    Checked after every iteration up to 50, then every 10th (the answer is then up to 9 iterations late)."""
    game = spiel.load_game(game_name)
    solver = (spiel.CFRPlusSolver if algorithm == "cfr+" else spiel.CFRSolver)(game)
    spent = 0.0
    for t in range(1, limit + 1):
        spent += _cpu_seconds(solver.evaluate_and_update_policy)
        if (t <= 50 or t % 10 == 0) and spiel.exploitability(game, solver.average_policy()) <= TARGET:
            return t, spent
    return None


def _peer_lines(lines: list[str], best: tuple[float, str] | None, peer: str, what: str,
                reached: list[tuple[str, int, tuple[int, float] | None]]) -> None:
    """Append one peer's (algorithm, limit, (first iteration, seconds) or None) lines and the fastest ratio."""
    peer_best: tuple[float, str] | None = None
    for algorithm, limit, result in reached:
        if result is None:
            lines.append(f"  {peer} {algorithm:6s} not within {limit:,} iterations")
            continue
        first, seconds = result
        lines.append(f"  {peer} {algorithm:6s} iteration {first:6,}: {seconds:.3f} s ({what})")
        if peer_best is None or seconds < peer_best[0]:
            peer_best = (seconds, algorithm)
    if best is not None and peer_best is not None:
        lines.append(f"  fastest: cfrviz {best[1]} {best[0]:.4f} s, {peer} {peer_best[1]} {peer_best[0]:.3f} s: "
                     f"{peer_best[0] / best[0]:,.0f}× sooner")


def time_to_target(repeats: int, spiel: Any) -> list[str]:
    """Lines: every cfrviz algorithm's and OpenSpiel's iterations and CPU seconds to TARGET on Leduc."""
    tree = catalog.compile_game("leduc")
    lines = [f"Time to exploitability {TARGET:g} on Leduc (same tree), average strategy, alternating updates:"]
    best: tuple[float, str] | None = None
    for algorithm in ("cfr", "cfr+", "lcfr", "dcfr", "pcfr+", "dcfr+", "pdcfr+"):
        first = _first_iteration_cfrviz(tree, algorithm, 5_000)
        if first is None:
            lines.append(f"  cfrviz {algorithm:7s} not within 5,000 iterations")
            continue
        cls = solver_class(algorithm)
        seconds = statistics.median(_cpu_seconds(partial(cls(tree).iterate, first)) for _ in range(repeats))
        lines.append(f"  cfrviz {algorithm:7s} iteration {first:6,}: {seconds:.4f} s (kernel)")
        if best is None or seconds < best[0]:
            best = (seconds, algorithm)
    if spiel is None:
        lines += ["  OpenSpiel: not installed", "  LiteEFG: not measured (it reads games through OpenSpiel)"]
        return lines
    same_tree = "leduc_poker(suit_isomorphism=True)"
    _peer_lines(lines, best, "OpenSpiel", "C++ iterations alone",
                [(a, limit, _first_iteration_openspiel(spiel, same_tree, a, limit))
                 for a, limit in (("cfr+", 20_000), ("cfr", 2_000))])
    leg = liteefg_module()
    if leg is None:
        lines.append("  LiteEFG: not installed")
        return lines
    _peer_lines(lines, best, "LiteEFG", "its updates alone",
                [(a, 5_000, liteefg_first_iteration(leg, spiel, same_tree, a, TARGET, 5_000, CLOCK))
                 for a in LITEEFG_GRAPHS])
    return lines


def _table(rows: list[list[str]], header: list[str]) -> str:
    widths = [max(len(r[i]) for r in rows + [header]) for i in range(len(header))]

    def line(r: list[str]) -> str:
        return "| " + " | ".join(c.ljust(w) for c, w in zip(r, widths)) + " |"

    return "\n".join([line(header), "|" + "|".join("-" * (w + 2) for w in widths) + "|"]
                     + [line(r) for r in rows if any(r)])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.speed", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="3 repeats instead of 7, and 1e-4 timings once")
    args = parser.parse_args(argv)
    repeats = 3 if args.quick else 7
    spiel, leg = pyspiel_module(), liteefg_module()
    print(f"load at start: {_load()}")
    peers = [f"OpenSpiel {version('open_spiel')}" if spiel else "OpenSpiel not installed",
             f"LiteEFG {version('LiteEFG')}" if leg else "LiteEFG not installed"]
    print(f"numba {version('numba')}, numpy {np.__version__}, "
          f"{', '.join(peers)}; CPU time (time.process_time), medians of {repeats} interleaved repeats.\n")
    header = ["game", "algorithm (updates)", "OpenSpiel C++ µs/it", "LiteEFG µs/it", "cfrviz kernel µs/it",
              "cfrviz solve() µs/it", "kernel vs OpenSpiel", "solve() vs OpenSpiel", "kernel vs LiteEFG",
              "kernel / floor"]
    rows: list[list[str]] = []
    notes: list[str] = []
    with tempfile.TemporaryDirectory() as scratch:
        workdir = Path(scratch)
        floor = c_reference.build(workdir)
        for game in GAMES:
            game_rows, game_notes = measure_game(game, repeats, spiel, leg, floor, workdir)
            rows += game_rows
            notes += game_notes
    print(_table(rows, header))
    print()
    for note in notes:
        print(note)
    print()
    for line in time_to_target(1 if args.quick else 3, spiel):
        print(line)
    print(f"\nload at end: {_load()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
