"""The other solvers the benchmarks run: OpenSpiel's C++ CFR and LiteEFG's C++ graphs, each optional.

Both are imported only when present (`pyspiel_module()`, `liteefg_module()` return None otherwise), so
a benchmark prints "not installed" in their place. Timings take a clock: `time.perf_counter` (wall)
or `time.process_time` (this process's CPU time).
"""
from __future__ import annotations

import contextlib
import importlib
import io
import time
from collections.abc import Callable
from typing import Any

#: OpenSpiel's game with the same tree as cfrviz's (Leduc: suits merged, as cfrviz deals by default).
OPENSPIEL_GAMES = {"kuhn": "kuhn_poker", "leduc": "leduc_poker(suit_isomorphism=True)"}

#: LiteEFG's shipped graphs for the algorithms both implement, and the average it reports for each
#: (its training script's choice: uniform for CFR and DCFR's own, linear for CFR+ and PCFR+).
LITEEFG_GRAPHS = {"cfr": ("CFR", "avg-iterate"), "cfr+": ("CFRplus", "linear-avg-iterate"),
                  "dcfr": ("DCFR", "average-iterate"), "pcfr+": ("PCFR", "linear-avg-iterate")}


def pyspiel_module() -> Any:
    """OpenSpiel's Python bindings, or None when they are not installed."""
    try:
        import pyspiel
    except ImportError:
        return None
    return pyspiel


def liteefg_module() -> Any:
    """LiteEFG (Liu et al.), or None when it is not installed."""
    try:
        import LiteEFG
    except ImportError:
        return None
    return LiteEFG


def openspiel_cfr_seconds(spiel: Any, game_name: str, algorithm: str, iterations: int, holder: list[Any],
                          clock: Callable[[], float] = time.perf_counter) -> float:
    """Seconds for `iterations` of OpenSpiel's C++ CFR or CFR+ (`CFRSolver`, `CFRPlusSolver`) on a
    fresh solver, its construction excluded; the game and solver are left in holder."""
    game = spiel.load_game(game_name)
    solver = (spiel.CFRPlusSolver if algorithm == "cfr+" else spiel.CFRSolver)(game)
    start = clock()
    for _ in range(iterations):
        solver.evaluate_and_update_policy()
    seconds = clock() - start
    holder[:] = [game, solver]
    return seconds


def _liteefg_graph(leg: Any, spiel: Any, game_name: str, algorithm: str) -> tuple[Any, Callable[[], None],
                                                                                 Callable[[], float]]:
    """LiteEFG's shipped graph on an OpenSpiel game: (env, one iteration, exploitability of its reported average).

    One iteration is what LiteEFG's own training loop does: update both players, then record the
    strategy for its running average."""
    module_name, average = LITEEFG_GRAPHS[algorithm]
    with contextlib.redirect_stdout(io.StringIO()):          # LiteEFG prints a banner per graph
        env = leg.OpenSpielEnv(spiel.load_game(game_name), traverse_type="Enumerate", regenerate=False)
        graph = importlib.import_module(f"LiteEFG.baselines.{module_name}").graph()
        env.set_graph(graph)
    own_average = average == "average-iterate"          # DCFR keeps its weighted average in the graph
    kind = "last-iterate" if own_average else average

    def strategy() -> Any:
        return graph.current_strategy("average-iterate") if own_average else graph.current_strategy()

    def step() -> None:
        graph.update_graph(env)
        env.update_strategy(strategy())

    def exploitability() -> float:
        return float(sum(env.exploitability(strategy(), kind))) / 2.0

    return env, step, exploitability


def liteefg_seconds(leg: Any, spiel: Any, game_name: str, algorithm: str, iterations: int,
                    clock: Callable[[], float] = time.perf_counter) -> tuple[float, float]:
    """(seconds for `iterations` LiteEFG updates, exploitability of its reported average), setup excluded."""
    _, step, exploitability = _liteefg_graph(leg, spiel, game_name, algorithm)
    start = clock()
    for _ in range(iterations):
        step()
    seconds = clock() - start
    return seconds, exploitability()


def liteefg_first_iteration(leg: Any, spiel: Any, game_name: str, algorithm: str, target: float, limit: int,
                            clock: Callable[[], float] = time.perf_counter) -> tuple[int, float] | None:
    """(first checked iteration whose reported average is within `target`, seconds of the updates alone),
    or None by `limit`. Checked after every iteration up to 50, then every 10th (as OpenSpiel's)."""
    _, step, exploitability = _liteefg_graph(leg, spiel, game_name, algorithm)
    spent = 0.0
    for t in range(1, limit + 1):
        start = clock()
        step()
        spent += clock() - start
        if (t <= 50 or t % 10 == 0) and exploitability() <= target:
            return t, spent
    return None
