"""The most CPU time and memory one click, one link and one upload can cost the shared server.

Every scenario runs in a fresh child process after a warm-up (compiled kernels loaded and the
data it needs prepared, as on a server that has started), so memory freed by one scenario is not
reused by the next. It is measured as CPU seconds (`time.process_time`, all threads) and peak
resident growth (Linux: VmHWM after resetting it through /proc/self/clear_refs, minus VmRSS before).

    python scripts/budget.py            # every scenario (a few minutes on 2 shared cores)
    python scripts/budget.py --quick    # one algorithm per solver family
    python scripts/budget.py --caps     # the largest games: cost per iteration and at the app's cap

Prints a markdown table for the README's "Per-click budget" section.
"""
from __future__ import annotations

import argparse
import gc
import io
import json
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))   # before importing cfrviz: `python scripts/budget.py` runs from a checkout

from cfrviz.run import Run, save_run
from cfrviz.solvers import UpdateScheme
from cfrviz.util.vocabulary import Player, StrategyKind

T = TypeVar("T")


def _status(field: str) -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) * 1024
    raise KeyError(field)


def _measure(action: Callable[[], T]) -> tuple[float, float, T]:
    """(CPU seconds, peak resident growth in MB, result) of one call."""
    gc.collect()
    Path("/proc/self/clear_refs").write_text("5")
    before = _status("VmRSS")
    start = time.process_time()
    result = action()
    return time.process_time() - start, (_status("VmHWM") - before) / 2**20, result


def _leduc_run_bytes() -> tuple[Run, bytes]:
    import cfrviz
    from cfrviz import catalog

    run = cfrviz.solve("leduc", "dcfr", iterations=catalog.lookup("leduc").app_iteration_cap, updates=UpdateScheme.ALTERNATING)
    buffer = io.BytesIO()
    save_run(run, buffer)
    return run, buffer.getvalue()


def _refused(name: str, data: bytes) -> str:
    from cfrviz.run.uploads import read_upload

    try:
        read_upload(name, data)
    except ValueError as error:
        return str(error)
    return "read"


def compare_at_cap(plan_name: str) -> dict[str, Any]:
    """Compare's worst click: a comparison on Leduc just under its node-visit cap, as the page runs
    it (every solve through the one-solve-at-a-time gate, one run held at a time, its three charts
    and table built). Plans: "slowest" (the slowest kernel, PCFR+, with the most timed solves),
    "every" (every algorithm and scheme) and "sampling" (the sampling methods with the most seeds
    and one timed solve: the most seed solves, each computing exploitability at every snapshot)."""
    import functools

    from cfrviz import catalog
    from cfrviz.app.compare_budget import ITERATION_OVERHEAD_NODES, MAX_NODE_VISITS, MAX_SEEDS, check_work, node_visits
    from cfrviz.solving.compare import MAX_REPEATS, fixed_seeds, measure_line, plan, summary
    from cfrviz.figures.compare import comparison_figure
    from cfrviz.run.cache import RunCache
    from cfrviz.solvers import ALGORITHMS

    algorithms = {"slowest": ["pcfr+"], "sampling": ["chance", "external", "outcome"],
                  "every": [a for a in ALGORITHMS if a != "rm"]}[plan_name]
    seeds = fixed_seeds(1 if plan_name == "slowest" else MAX_SEEDS)
    repeats = 1 if plan_name == "sampling" else MAX_REPEATS
    game = catalog.lookup("leduc")
    nodes = game.tree().num_nodes
    entries, _ = plan(algorithms, ["simultaneous", "alternating"], 1, 1, seeds)
    per_iteration = node_visits(entries, nodes, repeats)   # every entry at one iteration
    iterations = min(MAX_NODE_VISITS // per_iteration // 100 * 100, game.app_iteration_cap)
    entries, _ = plan(algorithms, ["simultaneous", "alternating"], iterations, iterations, seeds)
    check_work(entries, nodes, repeats)
    gate = RunCache(0, 1, 1)

    def click() -> None:
        lines = [measure_line(game, entry, repeats, solver_slot=functools.partial(gate.solver_slot, None))
                 for entry in entries]
        for axis in ("iterations", "nodes", "seconds"):
            comparison_figure(lines, axis, StrategyKind.AVERAGE).to_json()
        summary(lines)

    seconds, peak, _ = _measure(click)
    visits = node_visits(entries, nodes, repeats)
    return {"kind": "click", "what": f"Compare at its cap ({MAX_NODE_VISITS / 1e6:,.0f} million node visits, "
            f"{ITERATION_OVERHEAD_NODES} a node-visit's worth per iteration): Leduc, {len(entries)} lines "
            f"({plan_name}: {', '.join(algorithms)}), {len(seeds)} seed(s), {iterations:,} iterations, "
            f"{repeats} timed solve(s); {visits / 1e6:,.0f} million counted", "seconds": seconds, "peak": peak}


def scenario(name: str) -> dict[str, Any]:
    """Prepare, then measure one scenario; returns its table row."""
    import numpy as np

    import cfrviz
    from cfrviz import catalog
    from cfrviz.solvers import ALGORITHMS

    for algorithm in ALGORITHMS:   # warm-up: every kernel loaded, as at server start-up
        if algorithm != "rm":
            cfrviz.solve("kuhn", algorithm, iterations=3, updates=UpdateScheme.ALTERNATING)
    kind, _, rest = name.partition(":")
    if kind == "compare":
        return compare_at_cap(rest)
    if kind == "solve":
        link, algorithm = rest.rsplit("/", 1)
        game = catalog.lookup(link)
        cap = game.app_iteration_cap
        seconds, peak, run = _measure(lambda: cfrviz.solve(game.name, algorithm, iterations=cap,
                                                           updates=UpdateScheme.ALTERNATING, **dict(game.params)))
        return {"kind": "link or click", "what": f"new solve: {link}, {algorithm}, {cap:,} iterations (the cap); "
                f"{run.num_snapshots:,} snapshots, run {run.nbytes / 1e6:.0f} MB", "seconds": seconds, "peak": peak}
    if kind == "efg":
        # An .efg upload of an extreme shape at the reader's limits, then the solve its app cap allows.
        from tests.support.efg_shapes import chain_efg, wide_efg

        from cfrviz.games.efg import MAX_EFG_ACTIONS, MAX_EFG_DEPTH

        text = chain_efg(MAX_EFG_DEPTH) if rest == "chain" else wide_efg(MAX_EFG_ACTIONS)

        def upload_and_solve() -> tuple[Any, int, Run]:
            game = catalog.get("efg", text=text)
            cap = game.app_iteration_cap
            return game, cap, cfrviz.solve(game.tree(), "cfr", iterations=cap, updates=UpdateScheme.ALTERNATING)

        seconds, peak, (game, cap, run) = _measure(upload_and_solve)
        tree = game.tree()
        shape = (f"a chain of {MAX_EFG_DEPTH:,} decisions (the reader's depth limit)" if rest == "chain" else
                 f"one node of {MAX_EFG_ACTIONS} actions (the reader's limit), each answered at its own set")
        return {"kind": "upload", "what": f"{len(text) / 1e3:.0f} kB .efg, {shape}: {tree.num_nodes:,} histories, "
                f"{tree.num_infosets:,} sets x {tree.max_actions} actions; read, then vanilla CFR at the cap "
                f"({cap:,} iterations, {run.num_snapshots:,} snapshots, run {run.nbytes / 1e6:.0f} MB)",
                "seconds": seconds, "peak": peak}
    if kind == "payload":
        # After a solve: the browser timeline's payload of the first part of the tree (the inspector's
        # numbers for every frame), built while the run is held.
        from cfrviz.figures import timeline
        from cfrviz.tree import parts as tree_parts

        game = catalog.lookup(rest)
        tree = game.tree()
        run = cfrviz.solve(tree, "cfr", iterations=game.app_iteration_cap, updates=UpdateScheme.ALTERNATING)
        part = tree_parts.parts(tree, Player.FIRST if tree_parts.card_view(tree) else "subtree")[0]
        nodes = [int(n) for n in tree_parts.part_nodes(tree, part)]
        seconds, peak, (_, body) = _measure(lambda: timeline.encode_payload(timeline.build_payload(tree, run, nodes)))
        frames = len(timeline.frame_snapshots(run.iterations))
        return {"kind": "click", "what": f"timeline payload of {rest} at the cap ({run.num_snapshots:,} snapshots held): "
                f"{len(nodes)} histories drawn, {frames} frames, {len(body) / 1e6:.1f} MB sent",
                "seconds": seconds, "peak": peak}
    if kind == "play":
        # Play's worst click: a decision in the largest menu game at its cap (the human's action with
        # its EV loss, the play mode's numbers for every frame of the hand's part, that part's payload).
        from cfrviz.figures import timeline
        from cfrviz.figures.play import play_extra
        from cfrviz.teaching import play
        from cfrviz.tree import parts as tree_parts

        game = catalog.lookup(rest)
        tree = game.tree()
        cap = game.app_iteration_cap
        run = cfrviz.solve(tree, "cfr", iterations=cap, updates=UpdateScheme.ALTERNATING)
        strategy = run.average_strategy[-1]
        hand = play.start_hand(tree, strategy, seat=Player.FIRST, seed=1, number=0)
        action = play.legal_actions(tree, hand)[0]

        def click() -> int:
            after = play.act(tree, strategy, hand, action, iteration=cap)
            node = after.decisions[-1].node if play.is_over(tree, after) else after.node
            nodes = tree_parts.part_nodes(tree, tree_parts.part_of(tree, node)).tolist()
            play_extra(tree, run, nodes, (0,))
            return len(timeline.encode_payload(timeline.build_payload(tree, run, nodes))[1])

        seconds, peak, sent = _measure(click)
        return {"kind": "click", "what": f"Play: one decision in {rest} at the cap ({cap:,} iterations, "
                f"{run.num_snapshots:,} snapshots held): EV loss, the play mode's numbers, {sent / 1e6:.1f} MB sent",
                "seconds": seconds, "peak": peak}
    if kind == "evolution":
        from cfrviz.figures.evolution import aggression_heatmap, infoset_curves_figure

        run, _ = _leduc_run_bytes()
        chosen = list(range(0, run.tree.num_infosets, run.tree.num_infosets // 8))[:8]
        t = int(run.iterations[-1])
        seconds, peak, _ = _measure(lambda: (
            infoset_curves_figure(run, chosen, t).to_json(),
            aggression_heatmap(run, kind=StrategyKind.AVERAGE, t=t).to_json()))
        return {"kind": "click", "what": "Evolution rerun: 8 Leduc information sets (the cap) at the cap, figures built",
                "seconds": seconds, "peak": peak}
    if kind == "large-upload":
        return large_upload(rest)
    if kind == "matrix":
        from cfrviz.analysis import matrix_equilibrium

        rng = np.random.default_rng(int(rest))
        matrix = np.round(rng.normal(size=(10, 10)) * 10)
        seconds, peak, _ = _measure(lambda: matrix_equilibrium(matrix))
        again, _, _ = _measure(lambda: matrix_equilibrium(matrix))
        return {"kind": "click", "what": f"10 x 10 matrix game's exact equilibrium (random payoffs, seed {rest}); "
                f"remembered afterwards: {again * 1000:.1f} ms", "seconds": seconds, "peak": peak}
    if kind == "download":
        run, _ = _leduc_run_bytes()
        def download() -> bytes:
            buffer = io.BytesIO()
            save_run(run, buffer)
            return buffer.getvalue()

        seconds, peak, data = _measure(download)
        return {"kind": "click", "what": f"download button clicked: the Leduc run at the cap ({len(data) / 1e6:.0f} MB .npz)",
                "seconds": seconds, "peak": peak}
    if kind == "link":
        from cfrviz.app import links

        hostile = {"game": "kuhn" + "9" * 5000, "algo": "[x](https://example.org/)", "iters": "１２" * 100,
                   "updates": "$x$" * 1000, "seed": "9" * 5000, "t": "③", "node": "<img>" * 1000}
        seconds, peak, _ = _measure(lambda: [links.parse_query_params(hostile) for _ in range(100)])
        return {"kind": "link", "what": "parsing a hostile link, all 7 parameters bad (the solve it asks for: above)",
                "seconds": seconds / 100, "peak": peak}
    if kind == "upload":
        from cfrviz.run.uploads import MAX_UNPACKED_BYTES

        if rest == "maximal":
            # The largest valid run an upload can carry, read and drawn (the Game tree's first part).
            from tests.support.big_uploads import maximal_leduc_npz

            from cfrviz.figures import timeline
            from cfrviz.run.uploads import MAX_LIVE_UPLOAD_BYTES, LiveUploads
            from cfrviz.tree import parts as tree_parts

            data = maximal_leduc_npz(MAX_UNPACKED_BYTES)
            tree = catalog.lookup("leduc").tree()
            part = tree_parts.parts(tree, Player.FIRST)[0]
            drawn = tuple(sorted(int(n) for n in tree_parts.part_nodes(tree, part)))

            def read_and_draw() -> Run:
                run, _ = LiveUploads(MAX_LIVE_UPLOAD_BYTES).read("maximal.npz", data)
                timeline.encode_payload(timeline.build_payload(tree, run, drawn))
                return run

            seconds, peak, run = _measure(read_and_draw)
            return {"kind": "upload", "what": f"the largest valid run ({len(data) / 1e6:.1f} MB .npz, Leduc, "
                    f"{run.num_snapshots:,} snapshots, {run.nbytes / 1e6:.0f} MB unpacked: the cap), read, checked "
                    "and its Game tree part drawn", "seconds": seconds, "peak": peak}
        if rest == "run":
            _, data = _leduc_run_bytes()
            seconds, peak, message = _measure(lambda: _refused("leduc.npz", data))
            assert message == "read", message
            what = f"the Leduc run at the cap ({len(data) / 1e6:.0f} MB .npz), read and checked"
        elif rest == "bomb":
            # A complete-looking run (every array present) whose regrets are nearly the whole unpacked cap.
            small = io.BytesIO()
            save_run(cfrviz.solve("kuhn", "cfr", iterations=2), small)
            with np.load(io.BytesIO(small.getvalue()), allow_pickle=False) as archive:
                arrays = {key: archive[key] for key in archive.files}
            arrays["cumulative_regret"] = np.zeros((MAX_UNPACKED_BYTES - 1_000_000) // 8)
            buffer = io.BytesIO()
            np.savez_compressed(buffer, **arrays)
            data = buffer.getvalue()
            seconds, peak, message = _measure(lambda: _refused("bomb.npz", data))
            what = (f"a {len(data) / 1e6:.1f} MB .npz with every run array, unpacking to "
                    f"{MAX_UNPACKED_BYTES / 1e6 - 1:.0f} MB (the cap), refused after reading: \"{message[:50]}…\"")
        elif rest == "strings":
            data = b"[" + b'"abcdefgh",' * 450_000 + b"1]"
            seconds, peak, message = _measure(lambda: _refused("s.json", data))
            what = f"a {len(data) / 1e6:.1f} MB .json of 450,000 strings (under every count), refused after parsing"
        else:
            data = b"[" + b"[]," * 15_000_000 + b"[]]"
            seconds, peak, message = _measure(lambda: _refused("s.json", data))
            what = f"a {len(data) / 1e6:.0f} MB .json of empty lists, refused by its size"
        return {"kind": "upload", "what": what, "seconds": seconds, "peak": peak}
    raise SystemExit(f"unknown scenario {name!r}")


def large_upload(click: str) -> dict[str, Any]:
    """A click on a large uploaded .efg game (81,400 histories, 1,893 sets x 43 actions in 0.98 MB,
    under the reader's caps), its run solved at the app's cap beforehand as the page would have it:
    "evolution" builds Evolution's figures and timeline payload; "lock" locks one set (the locked
    solve, the locked-vs-unlocked numbers and the locked game's exact value)."""
    import cfrviz
    from cfrviz import catalog
    from tests.support.efg_shapes import seen_rounds_efg

    game = catalog.get("efg", text=seen_rounds_efg(43))
    tree = game.tree()
    cap = game.app_iteration_cap
    run = cfrviz.solve(tree, "cfr", iterations=cap, updates=UpdateScheme.ALTERNATING)
    shape = f"uploaded .efg of {tree.num_nodes:,} histories, {tree.num_infosets:,} sets x {tree.max_actions} actions"
    if click == "evolution":
        from cfrviz.figures import timeline
        from cfrviz.figures.evolution import aggression_heatmap, infoset_curves_figure

        t = int(run.iterations[-1])
        nodes = (int(tree.nodes_of(0)[0]), int(tree.nodes_of(1)[0]))
        seconds, peak, _ = _measure(lambda: (
            infoset_curves_figure(run, [0, 1], t).to_json(),
            aggression_heatmap(run, kind=StrategyKind.AVERAGE, t=t).to_json(),
            timeline.encode_payload(timeline.build_payload(tree, run, nodes))))
        return {"kind": "click", "what": f"Evolution on an {shape} (run {run.nbytes / 1e6:.0f} MB held): "
                "curves, heat map and timeline payload", "seconds": seconds, "peak": peak}
    from cfrviz.analysis.locks import full_exploitability, lock_effect, restricted_equilibrium
    from cfrviz.tree.locks import Locks, restrict

    record = tree.infosets[1]
    locks = Locks.of({record.key: [1.0] + [0.0] * (len(record.actions) - 1)})

    def lock() -> None:
        locked = cfrviz.solve(tree, "cfr", iterations=cap, updates=UpdateScheme.ALTERNATING, locks=locks)
        lock_effect(run, locked, locks)
        restricted = restrict(tree, locks)
        full_exploitability(restricted, locked.average_strategy[-1])
        restricted_equilibrium(restricted)

    seconds, peak, _ = _measure(lock)
    return {"kind": "click", "what": f"a lock on a set of an {shape} (unlocked run {run.nbytes / 1e6:.0f} MB held): "
            "the locked solve at the cap, the locked-vs-unlocked numbers, the locked game's LP",
            "seconds": seconds, "peak": peak}


#: The biggest OpenSpiel game solved in the budget: 51,181 histories, 5,120 sets of up to 10 actions.
LIARS_DICE = "openspiel:liars_dice(numdice=1,dice_sides=5)"


#: The largest games the app offers, as link values: the README's "largest games" table.
LARGEST_GAMES = ("kuhn13", "leduc", "leduc_suited", LIARS_DICE, "openspiel:goofspiel(num_cards=4,imp_info=True)")
#: Not offered: its 294,883 histories pass the OpenSpiel menu's 200,000.
LIARS_DICE_6 = "openspiel:liars_dice(numdice=1,dice_sides=6)"


def _game_of(link: str) -> Any:
    from cfrviz import catalog

    return catalog.get("leduc", suits=True) if link == "leduc_suited" else catalog.lookup(link)


def solve_costs(link: str, repeats: int, iterations: int | None) -> dict[str, Any]:
    """CPU seconds of `cfrviz.solve` (end to end: snapshots, their exploitability and writing) for every
    algorithm on one game, at `iterations` or the game's app cap, as medians of `repeats` solves
    interleaved algorithm by algorithm (the machine's load moves; CPU time moves much less)."""
    import functools
    import statistics

    import cfrviz
    from cfrviz.solvers import ALGORITHMS

    game = _game_of(link)
    tree = game.tree()
    cap = game.app_iteration_cap if iterations is None else iterations
    algorithms = [a for a in ALGORITHMS if game.offers(a) and a != "rm"]
    for algorithm in algorithms:     # warm-up: kernels loaded, the tree's exact value computed once
        cfrviz.solve(game.name, algorithm, iterations=3, updates=UpdateScheme.ALTERNATING, **dict(game.params))
    seconds: dict[str, list[float]] = {a: [] for a in algorithms}
    for _ in range(repeats):
        for algorithm in algorithms:
            cpu, _, _ = _measure(functools.partial(cfrviz.solve, game.name, algorithm, iterations=cap,
                                                   updates=UpdateScheme.ALTERNATING, **dict(game.params)))
            seconds[algorithm].append(cpu)
    medians = {a: statistics.median(times) for a, times in seconds.items()}
    worst = max(medians, key=lambda a: medians[a])
    from cfrviz.solving import planned_schedule

    return {"game": link, "title": game.label, "histories": tree.num_nodes, "sets": tree.num_infosets,
            "cap": game.app_iteration_cap, "iterations": cap, "snapshots": len(planned_schedule(tree, cap)),
            "medians": medians, "worst": worst, "seconds": medians[worst], "us_per_iteration": medians[worst] / cap * 1e6}


def fit_cost(rows: list[dict[str, Any]]) -> tuple[float, float]:
    """The two constants of `cfrviz.util.cost` fitted to the slowest algorithm's CPU seconds of each row:
    seconds / N = T * per_iteration + S * per_snapshot, non-negative least squares on relative error, then
    both scaled so that every row's estimate is at least its measured time."""
    import numpy as np
    from scipy.optimize import nnls

    terms = np.array([[r["iterations"], r["snapshots"]] for r in rows], dtype=float)
    measured = np.array([r["seconds"] / r["histories"] for r in rows])
    weights = 1.0 / measured
    (per_iteration, per_snapshot), _ = nnls(terms * weights[:, None], measured * weights)
    # Scaled up until no game costs more than its estimate: the estimate is a bound on every row.
    scale = float(np.max(measured / (terms @ np.array([per_iteration, per_snapshot]))))
    return float(per_iteration) * max(scale, 1.0), float(per_snapshot) * max(scale, 1.0)


def print_caps(links: list[str], repeats: int, iterations: int | None) -> None:
    """The README's table of the largest games: size, worst algorithm's cost per iteration and at the cap."""
    from cfrviz.util import cost

    print("| game | histories | information sets | slowest algorithm | µs per iteration (solve() end to end) "
          "| app cap | snapshots | CPU s at the cap (median) | estimated (`cfrviz.util.cost`) |")
    print("|---|---:|---:|---|---:|---:|---:|---:|---:|")
    rows = []
    for link in links:
        command = [sys.executable, __file__, "--caps-scenario", link, "--repeats", str(repeats)]
        if iterations is not None:
            command += ["--iterations", str(iterations)]
        result = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, check=False)
        if result.returncode != 0:
            print(f"| {link} | not offered: {result.stderr.strip().splitlines()[-1][:160]} | | | | | | | |", flush=True)
            continue
        row = json.loads(result.stdout.strip().splitlines()[-1])
        rows.append(row)
        others = ", ".join(f"{a} {s:.2f}" for a, s in sorted(row["medians"].items(), key=lambda kv: -kv[1]))
        estimate = cost.solve_seconds(row["histories"], row["iterations"], row["snapshots"])
        print(f"| {row['title']} | {row['histories']:,} | {row['sets']:,} | {row['worst']} | "
              f"{row['us_per_iteration']:,.1f} | {row['cap']:,} | {row['snapshots']:,} | {row['seconds']:.2f} | "
              f"{estimate:.2f} |", flush=True)
        print(f"<!-- {link} at {row['iterations']:,} iterations, median CPU s: {others} -->", file=sys.stderr)
    if len(rows) >= 2:
        per_iteration, per_snapshot = fit_cost(rows)
        print(f"\nFitted to these rows (an upper bound on each): NODE_ITERATION_SECONDS = {per_iteration * 1e9:.1f}e-9, "
              f"NODE_SNAPSHOT_SECONDS = {per_snapshot * 1e9:.1f}e-9 (in use: {cost.NODE_ITERATION_SECONDS * 1e9:.1f}e-9, "
              f"{cost.NODE_SNAPSHOT_SECONDS * 1e9:.1f}e-9).")


def _openspiel_installed() -> bool:
    import importlib.util

    return importlib.util.find_spec("pyspiel") is not None


def scenarios(quick: bool) -> list[str]:
    from cfrviz.solvers import ALGORITHMS

    algorithms = ["cfr", "dcfr", "pdcfr+", "outcome"] if quick else [a for a in ALGORITHMS if a != "rm"]
    names = [f"solve:{link}/{a}" for link in ("leduc", "kuhn13") for a in algorithms]
    names += ["efg:chain", "efg:wide"]
    if _openspiel_installed():
        names += [f"solve:{LIARS_DICE}/cfr", f"payload:{LIARS_DICE}", f"play:{LIARS_DICE}"]
    names += ["evolution:", "matrix:1", "matrix:2", "matrix:3", "download:", "link:",
              "upload:run", "upload:maximal", "large-upload:evolution", "large-upload:lock", "upload:bomb", "upload:strings", "upload:junk",
              "compare:slowest", "compare:every", "compare:sampling"]
    return names


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="one algorithm per solver family")
    parser.add_argument("--caps", action="store_true",
                        help="the largest games' cost per iteration and at their app cap (the README's table)")
    parser.add_argument("--games", nargs="*", help="with --caps: link values (default: the largest games)")
    parser.add_argument("--repeats", type=int, default=3, help="with --caps: solves per algorithm (median)")
    parser.add_argument("--iterations", type=int, help="with --caps: solve this many instead of the cap")
    parser.add_argument("--scenario", help=argparse.SUPPRESS)
    parser.add_argument("--caps-scenario", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.scenario:
        print(json.dumps(scenario(args.scenario)))
        return
    if args.caps_scenario:
        print(json.dumps(solve_costs(args.caps_scenario, args.repeats, args.iterations)))
        return
    if args.caps:
        print_caps(args.games or [*LARGEST_GAMES, LIARS_DICE_6], args.repeats, args.iterations)
        return
    print("| Kind | What | CPU s | Peak memory MB |")
    print("|---|---|---:|---:|")
    for name in scenarios(args.quick):
        result = subprocess.run([sys.executable, __file__, "--scenario", name], capture_output=True, text=True,
                                cwd=ROOT, check=False)
        if result.returncode != 0:
            print(f"| {name} | failed: {result.stderr.strip().splitlines()[-1][:120]} | | |", flush=True)
            continue
        row = json.loads(result.stdout.strip().splitlines()[-1])
        print(f"| {row['kind']} | {row['what']} | {row['seconds']:.2f} | {row['peak']:.0f} |", flush=True)


if __name__ == "__main__":
    main()
