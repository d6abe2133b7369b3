"""The pages' own results, shared by every session of the process: Compare's lines, Regret
matching's paths and the Walkthrough's traces.

Each page used to keep these in its own Streamlit cache, out of reach of the warm-up. Here they
are process-wide, each cache bounded in entries and in bytes (`footprint`), and a result many
sessions ask for at once is computed once (`cfrviz.util.single_flight`, as runs are in
`cfrviz.run.cache.RunCache`). The first visit's view of each page (`*_first_visit`, read from the same defaults the
page reads) is computed at server start and pinned (`pin_first_views`). Values are our own
read-only objects, handed out as they are (no pickling).
"""
from __future__ import annotations

import contextlib
import dataclasses
import functools
import logging
import sys
import threading
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

import numpy as np
import streamlit as st
from streamlit.runtime.scriptrunner import get_script_run_ctx

from cfrviz import catalog
from cfrviz.app import solving
from cfrviz.app.admission import heavy_build
from cfrviz.app.links import DEFAULT_CHOICE, iteration_cap, page_setting
from cfrviz.catalog import GameSpec
from cfrviz.games.matrix import PRESETS, MatrixPreset, payoff_table
from cfrviz.run import Run, RunSettings
from cfrviz.solvers import ALGORITHMS, matrix, update_schemes
from cfrviz.solvers.matrix import RegretMatchingPath
from cfrviz.app import compare_budget
from cfrviz.solving import compare
from cfrviz.solving.compare import DEFAULT_REPEATS, DEFAULT_SEEDS, Entry, Line
from cfrviz.teaching import walkthrough
from cfrviz.teaching.walkthrough import IterationTrace
from cfrviz.util import cost, idle
from cfrviz.util.bounded_cache import BoundedCache
from cfrviz.util.single_flight import SingleFlight
from cfrviz.util.vocabulary import Algorithm

V = TypeVar("V")
_ARRAY_HEADER = sys.getsizeof(np.empty(0))
_log = logging.getLogger(__name__)


def footprint(value: object) -> int:
    """Bytes `value` holds, roughly: its arrays' data and the Python objects around them, each
    object counted once (a result's tree is counted even when a catalog game shares it)."""
    seen: set[int] = set()
    total = 0
    stack = [value]
    while stack:
        item = stack.pop()
        if id(item) in seen:
            continue
        seen.add(id(item))
        if isinstance(item, np.ndarray):
            total += item.nbytes + _ARRAY_HEADER     # a view's data counted as its own: an upper bound
            continue
        total += sys.getsizeof(item, 0)
        if dataclasses.is_dataclass(item) and not isinstance(item, type):
            stack.extend(getattr(item, f.name) for f in dataclasses.fields(item))
        elif isinstance(item, (tuple, list, set, frozenset)):
            stack.extend(item)
        elif isinstance(item, Mapping):
            stack.extend(item.keys())
            stack.extend(item.values())
    return total


def read_only(value: V) -> V:
    """`value` with each array field made read-only: every session is handed this one object
    (Streamlit's data cache gave each its own copy), so none may write into it."""
    for field in dataclasses.fields(value):  # type: ignore[arg-type]  # a dataclass instance: Line, a path
        item = getattr(value, field.name)
        if isinstance(item, np.ndarray):
            item.flags.writeable = False
    return value


@dataclass(frozen=True)
class ResultStats:
    """entries and bytes held within the budget; computes made and hits served since the cache was
    made; pinned results and their bytes, outside the budget."""

    entries: int
    bytes: int
    computes: int
    hits: int
    pinned: int = 0
    pinned_bytes: int = 0


class SharedResults(Generic[V]):
    """Least-recently-used results within `max_bytes` (`footprint`) and `max_entries`, plus pinned
    ones outside that budget that are never evicted. A result larger than the whole budget is
    handed out but not kept. Thread-safe; each key is computed once however many ask at once
    (`cfrviz.util.single_flight`)."""

    def __init__(self, name: str, max_bytes: int, max_entries: int) -> None:
        if max_bytes < 0 or max_entries < 1:
            raise ValueError("A result cache needs a byte budget >= 0 and at least one entry.")
        self.name = name
        self._lru: BoundedCache[Hashable, V] = BoundedCache(int(max_entries), int(max_bytes), footprint)
        self._pinned: dict[Hashable, V] = {}
        self._pinned_bytes = 0
        self._lock = threading.Lock()
        self._flights: SingleFlight[V] = SingleFlight(name, self._lock)
        self._computes = 0
        self._hits = 0

    def get(self, key: Hashable, compute: Callable[[], V], *, pin: bool = False) -> V:
        """The result kept under `key`, or `compute()`'s, computed once however many sessions ask.

        An error from `compute` reaches every session that waited for it and is not kept; a session
        whose script was stopped mid-way (a rerun) leaves the work to the next one that waits.
        `pin=True` keeps the result for good, outside the budget."""
        value, computed = self._flights.get(key, lambda: self._find(key), compute, lambda value: self._keep(key, value))
        with self._lock:
            if not computed:
                self._hits += 1
            if pin and key not in self._pinned:
                self._lru.pop(key, None)
                self._pinned[key] = value
                self._pinned_bytes += footprint(value)
        return value

    def _find(self, key: Hashable) -> V | None:
        """The result kept under `key` (under the lock), now the most recently used."""
        if key in self._pinned:
            return self._pinned[key]
        return self._lru.get(key)

    def holds(self, key: Hashable) -> bool:
        """Whether the result under `key` is kept now (a hit, pinned or not), without counting it."""
        with self._lock:
            return key in self._pinned or key in self._lru

    def _keep(self, key: Hashable, value: V) -> None:
        size = footprint(value)
        with self._lock:
            self._computes += 1
            if size <= self._lru.maxsize:
                self._lru[key] = value          # evicts the least recently used beyond the count or bytes

    def stats(self) -> ResultStats:
        with self._lock:
            return ResultStats(len(self._lru), int(self._lru.currsize), self._computes, self._hits,
                               len(self._pinned), self._pinned_bytes)

    def clear_unpinned(self) -> None:
        """Forget every result but the pinned first views (when the last visitor has gone)."""
        with self._lock:
            self._lru.clear()

    def clear(self) -> None:
        """Forget every result, pinned ones too (computations in flight finish and are kept)."""
        with self._lock:
            self._lru.clear()
            self._pinned.clear()
            self._pinned_bytes = 0


#: Per-process budgets of each page's results, beside the run cache's (`solving.RUN_CACHE_BYTES`); the pinned first
#: views come on top.
#: A Compare line is a few curves over its snapshots (Kuhn's default lines: about 85 kB each).
COMPARE_BYTES, COMPARE_ENTRIES = 20_000_000, 64
#: A regret-matching path keeps fewer than 2 × `PATH_POINTS` points (at 8×8, under 4 MB).
PATH_BYTES, PATH_ENTRIES = 30_000_000, 16
#: A walkthrough trace holds its small game's tree and one iteration's steps.
TRACE_BYTES, TRACE_ENTRIES = 30_000_000, 8

compare_lines: SharedResults[Line] = SharedResults("comparison line", COMPARE_BYTES, COMPARE_ENTRIES)
regret_paths: SharedResults[RegretMatchingPath] = SharedResults("regret-matching path", PATH_BYTES, PATH_ENTRIES)
walk_traces: SharedResults[IterationTrace] = SharedResults("walkthrough trace", TRACE_BYTES, TRACE_ENTRIES)
for _results in (compare_lines, regret_paths, walk_traces):
    idle.on_idle(_results.name, _results.clear_unpinned)     # emptied when the last visitor has gone


def _in_session() -> bool:
    """Whether this thread runs a page's script (so it may draw), not the server's warm-up."""
    return get_script_run_ctx(suppress_warning=True) is not None


def _default(name: str) -> Any:
    """The default of the page setting `name`: what a first visit's widget starts at."""
    return page_setting(name).default


# Compare ---------------------------------------------------------------------------------------

#: Whether Compare also draws the sidebar's run, until the visitor says otherwise.
COMPARE_WITH_SIDEBAR = True


def compare_choices(game: GameSpec) -> list[Algorithm]:
    """The algorithms Compare offers on `game` (the CFR family; regret matching has its own page)."""
    return [Algorithm(a) for a in ALGORITHMS if game.offers(a) and a != Algorithm.REGRET_MATCHING]


def compare_entries(game: GameSpec, settings: RunSettings, algorithms: Sequence[str], updates: Sequence[str],
                    iterations: int, sampling_iterations: int, seed_count: int, with_sidebar: bool,
                    repeats: int) -> tuple[list[Entry], list[str]]:
    """The lines a comparison draws and a note per skipped pair; ValueError with a sentence when it
    asks for more than one click's budget on this shared server (`compare_budget`)."""
    entries, skipped = compare.plan(algorithms, updates, iterations, sampling_iterations,
                                    compare.fixed_seeds(seed_count))
    if with_sidebar:    # solved once for every page, but timed here like the others: it counts
        entries.append(Entry(settings.algorithm, settings.updates, settings.iterations, (settings.seed,),
                             sidebar=True))
    compare_budget.check_work(entries, game.tree().num_nodes, repeats)
    return entries, skipped


def compare_defaults(game: GameSpec, settings: RunSettings) -> tuple[int, int]:
    """Compare's default iterations on `game` (full traversal, sampling): the page's defaults within the
    game's cap, both scaled down to round numbers when the default comparison (with the sidebar's run
    `settings`) would cost more node visits than one page may ask for, so the defaults never refuse
    themselves (Leduc's asked 411 million visits of the 400 million allowed)."""
    cap = iteration_cap(game)
    iterations, sampling_iterations = min(int(_default("cmp_iters")), cap), min(int(_default("cmp_sampling_iters")), cap)
    choices = compare_choices(game)
    algorithms = [a for a in _default("cmp_algos") if a in choices]
    updates = list(_default("cmp_updates"))
    nodes = game.tree().num_nodes
    while iterations > 1 or sampling_iterations > 1:
        try:
            compare_entries(game, settings, algorithms, updates, iterations, sampling_iterations, len(DEFAULT_SEEDS),
                            COMPARE_WITH_SIDEBAR, DEFAULT_REPEATS)
            break
        except ValueError:
            # The cost is linear in the iterations: shrink both by the excess, to the next round number below.
            entries, _ = compare.plan(algorithms, updates, iterations, sampling_iterations,
                                      compare.fixed_seeds(len(DEFAULT_SEEDS)))
            excess = compare_budget.node_visits(entries, nodes, DEFAULT_REPEATS) / compare_budget.MAX_NODE_VISITS
            iterations = max(1, min(iterations - 1, cost.nice_below(iterations / max(excess, 1.0))))
            sampling_iterations = min(max(sampling_iterations - 1, 1),
                                      cost.nice_below(sampling_iterations / max(excess, 1.0)))
    return max(iterations, 1), max(sampling_iterations, 1)


@dataclass(frozen=True)
class CompareRequest:
    """What a first visit of Compare asks for: the sidebar's run and the lines, timed `repeats` times."""

    settings: RunSettings
    entries: tuple[Entry, ...]
    repeats: int


def compare_first_visit() -> CompareRequest:
    """Compare's first view: the sidebar's default game and run, the page's default settings."""
    settings = DEFAULT_CHOICE.settings()
    game = settings.spec
    cap = iteration_cap(game)
    choices = compare_choices(game)
    algorithms = [a for a in _default("cmp_algos") if a in choices]
    updates = list(_default("cmp_updates"))
    iterations = min(int(_default("cmp_iters")), cap)
    sampling_iterations = min(int(_default("cmp_sampling_iters")), cap)
    entries, _ = compare_entries(game, settings, algorithms, updates, iterations, sampling_iterations,
                                 len(DEFAULT_SEEDS), COMPARE_WITH_SIDEBAR, DEFAULT_REPEATS)
    return CompareRequest(settings, tuple(entries), DEFAULT_REPEATS)


def compare_line(game: GameSpec, entry: Entry, repeats: int, on_wait: Callable[[], None] | None = None, *,
                 pin: bool = False) -> Line:
    """One entry solved per seed on `game` (the sidebar's `GameSpec`, used as it is) and timed `repeats`
    times; only its curves are kept.

    Every solve takes one of the server's solver slots and runs in the solve pool, as every other
    page's solve does; `on_wait()` runs when it has to wait for another visitor's."""
    def solve_run(settings: RunSettings) -> Run:
        # The run every other page shows: share its cached solve (which takes a slot itself).
        return solving.cached_solve(settings) if _in_session() else solving.shared_run(settings)   # the warm-up: nothing to draw

    def measure() -> Line:
        return read_only(compare.measure_line(game, entry, repeats, solve_run=solve_run if entry.sidebar else None,
                                              solver_slot=functools.partial(solving.one_solve_at_a_time, on_wait)))

    return _heavy(compare_lines, ("compare", game, entry, repeats), measure, pin)


# Regret matching --------------------------------------------------------------------------------

#: Points kept of a regret-matching path, whatever its iterations.
PATH_POINTS = 5_000


def preset_rows(preset: MatrixPreset, column_names: Sequence[str]) -> list[dict[str, object]]:
    """The preset's payoff table as the page's editor starts it: one row per action of player 1."""
    return [{"action": name, **{c: (preset.payoffs[r][j] if j < len(preset.payoffs[r]) else 0.0)
                                for j, c in enumerate(column_names) if c}}
            for r, name in enumerate(preset.row_names)]


@dataclass(frozen=True)
class PathRequest:
    """One regret-matching run as the page asks for it (plain tuples: a cache key)."""

    payoffs: tuple[tuple[float, ...], ...]
    iterations: int
    opponent: tuple[float, ...] | None
    sampled: bool
    seed: int
    updates: str = "simultaneous"
    start_regret: tuple[tuple[float, ...], tuple[float, ...]] | None = None

    @classmethod
    def of(cls, payoffs: np.ndarray, iterations: int, opponent: np.ndarray | None, update: str,
           seed: int) -> PathRequest:
        """The run for the page's choices. Expected-value self-play from uniform play stays put
        whenever uniform is an equilibrium (as in rock-paper-scissors), so both players start
        leaning: player 1 on the first row, player 2 on the second column."""
        rows, columns = payoffs.shape
        start = None
        if opponent is None and update == "expected":
            start = (tuple(1.0 if r == 0 else 0.0 for r in range(rows)),
                     tuple(1.0 if c == 1 else 0.0 for c in range(columns)))
        return cls(tuple(map(tuple, payoffs.tolist())), int(iterations),
                   None if opponent is None else tuple(opponent.tolist()), update == "sampled", int(seed),
                   start_regret=start)


def regret_matching_first_visit() -> PathRequest:
    """Regret matching's first view: the default preset's table, self-play, the default updates."""
    preset = PRESETS[str(_default("rm_game"))]
    payoffs, _, _ = payoff_table(preset_rows(preset, preset.column_names), preset.column_names)
    if _default("rm_mode") != "self":
        raise ValueError("Regret matching's first view is self-play; its opponent box has no default here.")
    return PathRequest.of(payoffs, int(_default("rm_iters")), None, str(_default("rm_update")),
                          int(_default("rm_seed")))


def regret_matching_path(request: PathRequest, *, pin: bool = False) -> RegretMatchingPath:
    """The regret-matching run `request` names, every `iterations // PATH_POINTS`-th iteration kept."""
    def run() -> RegretMatchingPath:
        every = max(1, request.iterations // PATH_POINTS)
        with st.spinner("Running regret matching…") if _in_session() else contextlib.nullcontext():
            return read_only(matrix.regret_matching_path(
                np.array(request.payoffs), request.iterations,
                opponent=None if request.opponent is None else np.array(request.opponent), sampled=request.sampled,
                seed=request.seed, updates=request.updates, every=every, start_regret=request.start_regret))

    return regret_paths.get(request, run, pin=pin)


# Walkthrough ------------------------------------------------------------------------------------

def walkable_games(chosen: GameSpec | None = None) -> dict[str, GameSpec]:
    """The games the Walkthrough offers, by link name: small extensive-form games only (a step-by-step
    walk of a big tree would never end), and the sidebar's uploaded game first when it is one."""
    games = {str(g.link): g for g in catalog.menu() if g.walkthrough and not g.matrix}
    if chosen is not None and chosen.walkthrough and not chosen.matrix and chosen.link is None:
        games = {"uploaded": chosen, **games}
    return games


def replayable_algorithms(game: GameSpec) -> list[Algorithm]:
    """The walkthrough's algorithms on `game`: chance sampling samples the deal, so it needs one."""
    return [a for a in walkthrough.WALKTHROUGH_ALGORITHMS
            if a != Algorithm.CHANCE_SAMPLING or walkthrough.deal_options(game.tree())]


@dataclass(frozen=True)
class TraceRequest:
    """One walked iteration as the page asks for it (a cache key)."""

    game: GameSpec
    algorithm: Algorithm
    updates: str
    seed: int
    t: int
    deal: str | None


def walkthrough_first_visit() -> TraceRequest:
    """The Walkthrough's first view: the worked example of its default settings (Kuhn, chance
    sampling, Q against K, iteration 1)."""
    game = walkable_games()[str(_default("walk_game"))]
    algorithm = Algorithm(_default("walk_algo"))
    if algorithm not in replayable_algorithms(game):
        raise ValueError(f"The walkthrough's default algorithm {algorithm} cannot replay {game.label}.")
    updates = str(_default("walk_updates"))
    if updates not in update_schemes(algorithm):
        updates = str(update_schemes(algorithm)[0])
    deal = str(_default("walk_deal")) if algorithm == Algorithm.CHANCE_SAMPLING else None
    t = min(int(_default("walk_t")), game.walkthrough_iteration_cap)
    seed = int(_default("walk_seed")) if algorithm == Algorithm.CHANCE_SAMPLING else 0
    return TraceRequest(game, algorithm, updates, seed, t, deal)


def walkthrough_trace(request: TraceRequest, *, pin: bool = False) -> IterationTrace:
    """The trace of iteration t, replayed from the real solver's state after t - 1 iterations."""
    def trace() -> IterationTrace:
        with st.spinner("Replaying the iterations before t…") if _in_session() else contextlib.nullcontext():
            tree = request.game.tree()     # the page's GameSpec: resolved once, where it was chosen
            state = walkthrough.solver_state(tree, request.algorithm, request.updates, request.seed, request.t)
            # Chance sampling draws from the solver's own generator: the deal and board it dealt.
            return walkthrough.trace_iteration(
                tree, state.cumulative_regret, state.strategy_sum, prediction=state.prediction,
                algorithm=request.algorithm, updates=request.updates, iteration=request.t, deal=request.deal,
                rng=state.rng)

    return _heavy(walk_traces, request, trace, pin)


def _heavy(results: SharedResults[V], key: Hashable, compute: Callable[[], V], pin: bool) -> V:
    """`results.get(key, compute)`, after taking a heavy build's turn when the result is not kept:
    the turn comes before the computation's single flight and its solver slots, so whoever computes
    a result others wait for holds a turn already."""
    if results.holds(key):
        return results.get(key, compute, pin=pin)
    with heavy_build():
        return results.get(key, compute, pin=pin)


# At server start --------------------------------------------------------------------------------

def pin_first_views() -> None:
    """Compute and pin the first view of Regret matching, the Walkthrough and Compare, in that
    order (the heaviest last). One that fails is logged; the others still go."""
    for name, work in (("Regret matching", lambda: regret_matching_path(regret_matching_first_visit(), pin=True)),
                       ("Walkthrough", lambda: walkthrough_trace(walkthrough_first_visit(), pin=True)),
                       ("Compare", _pin_compare)):
        try:
            work()
        except Exception:
            _log.exception("The first view of %s was not computed at start; its first visitor computes it.", name)


def _pin_compare() -> None:
    request = compare_first_visit()
    for entry in request.entries:
        compare_line(request.settings.spec, entry, request.repeats, pin=True)
