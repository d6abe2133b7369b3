"""The most CPU time and memory one click, one link and one upload can cost the shared server.

Each scenario runs in this process after a warm-up (compiled kernels loaded, as on a server that
has started), and is measured as CPU seconds (`time.process_time`, every thread) and peak resident
growth (Linux: VmHWM after resetting it through /proc/self/clear_refs, minus VmRSS before).

    python scripts/budget.py            # every scenario (a few minutes on 2 shared cores)
    python scripts/budget.py --quick    # one algorithm per solver family

Prints a markdown table for the README's "Per-click budget" section.
"""
from __future__ import annotations

import argparse
import gc
import io
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import cfrviz  # noqa: E402
from cfrviz import catalog, links  # noqa: E402
from cfrviz.analysis import matrix_equilibrium  # noqa: E402
from cfrviz.solvers import ALGORITHMS  # noqa: E402
from cfrviz.uploads import MAX_UNPACKED_BYTES, read_upload  # noqa: E402


def _status(field: str) -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) * 1024
    raise KeyError(field)


def measure(action: Callable[[], object]) -> tuple[float, float, object]:
    """(CPU seconds, peak resident growth in MB, result) of one call."""
    gc.collect()
    Path("/proc/self/clear_refs").write_text("5")
    before = _status("VmRSS")
    start = time.process_time()
    result = action()
    seconds = time.process_time() - start
    return seconds, (_status("VmHWM") - before) / 2**20, result


def _solves(quick: bool) -> list[tuple[str, str, dict, int]]:
    algorithms = ["cfr", "dcfr", "pdcfr+", "outcome"] if quick else [a for a in ALGORITHMS if a != "rm"]
    rows = []
    for link in ("leduc", "kuhn13"):
        game = catalog.lookup(link)
        for algorithm in algorithms:
            if algorithm in ALGORITHMS and game.offers(algorithm):
                rows.append((link, algorithm, dict(game.params), game.app_iteration_cap))
    return rows


def _hard_matrix() -> np.ndarray:
    """A 10 x 10 game whose equilibrium support is small, so support enumeration tries most sizes."""
    rng = np.random.default_rng(7)
    return np.round(rng.normal(size=(10, 10)) * 10) + np.diag(np.full(10, 40.0)) * (rng.random(10) < 0.5)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="one algorithm per solver family")
    args = parser.parse_args()
    rows: list[tuple[str, str, float, float]] = []

    # Warm-up: compile and load every kernel once, as the server does at start-up.
    for algorithm in ALGORITHMS:
        if algorithm != "rm":
            cfrviz.solve("kuhn", algorithm, iterations=3, updates="alternating")

    # A link or a click that asks for a new solve: the app's iteration cap, the costliest algorithms.
    worst: dict[str, tuple[float, float, str]] = {}
    for link, algorithm, params, cap in _solves(args.quick):
        updates = "alternating"
        seconds, peak, run = measure(lambda: cfrviz.solve(link.rstrip("0123456789"), algorithm, iterations=cap,
                                                          updates=updates, **params))
        print(f"  solve {link} {algorithm} x {cap:,}: {seconds:.2f} s CPU, peak +{peak:.0f} MB, "
              f"run {run.nbytes / 1e6:.1f} MB", file=sys.stderr)
        if link not in worst or seconds > worst[link][0]:
            worst[link] = (seconds, max(peak, worst.get(link, (0, 0, ""))[1]), algorithm)
        else:
            worst[link] = (worst[link][0], max(peak, worst[link][1]), worst[link][2])
    for link, (seconds, peak, algorithm) in worst.items():
        cap = catalog.lookup(link).app_iteration_cap
        rows.append(("link or click", f"new solve, {link} at the cap ({cap:,} iterations; slowest: {algorithm})",
                     seconds, peak))
    leduc_run = cfrviz.solve("leduc", "dcfr", iterations=catalog.lookup("leduc").app_iteration_cap)

    # Evolution: 8 chosen Leduc information sets (the cap), curves + playback + heat map.
    from cfrviz.figures.evolution import aggression_heatmap, infoset_curves_figure, strategy_playback_figure

    chosen = list(range(0, leduc_run.tree.num_infosets, leduc_run.tree.num_infosets // 8))[:8]
    t = int(leduc_run.iterations[-1])
    seconds, peak, _ = measure(lambda: (infoset_curves_figure(leduc_run, chosen, t).to_json(),
                                        strategy_playback_figure(leduc_run, kind="average", start=0,
                                                                 infosets=chosen).to_json(),
                                        aggression_heatmap(leduc_run, kind="average", t=t).to_json()))
    rows.append(("click", "Evolution rerun, 8 Leduc information sets (the cap), figures built", seconds, peak))

    # Convergence / Best response on a 10 x 10 matrix game: the exact equilibrium, first and cached.
    matrix = _hard_matrix()
    seconds, peak, _ = measure(lambda: matrix_equilibrium(matrix))
    rows.append(("click", "10 x 10 matrix equilibrium, first time", seconds, peak))
    seconds, peak, _ = measure(lambda: matrix_equilibrium(matrix))
    rows.append(("click", "10 x 10 matrix equilibrium, remembered", seconds, peak))

    # Download: built only on click; this is that click's cost.
    seconds, peak, data = measure(lambda: (lambda b: (leduc_run.save(b), b.getvalue())[1])(io.BytesIO()))
    rows.append(("click", f"download the Leduc run at the cap (.npz, {len(data) / 1e6:.1f} MB)", seconds, peak))

    # A link: parsing alone, every parameter hostile (the solve it asks for is counted above).
    hostile = {"game": "kuhn" + "9" * 5000, "algo": "[x](https://example.org/)", "iters": "１２" * 100,
               "updates": "$x$" * 1000, "seed": "9" * 5000, "t": "③", "node": "<img>" * 1000}
    seconds, peak, _ = measure(lambda: [links.parse_query_params(hostile) for _ in range(100)])
    rows.append(("link", "parsing a hostile link (all 7 parameters), per link", seconds / 100, peak))

    # Uploads: the largest legitimate run, and the worst files the checks let through to parsing.
    seconds, peak, _ = measure(lambda: read_upload("leduc.npz", data))
    rows.append(("upload", f"the Leduc run at the cap ({len(data) / 1e6:.1f} MB .npz), read and checked",
                 seconds, peak))
    bomb = io.BytesIO()
    np.savez_compressed(bomb, iterations=np.zeros((MAX_UNPACKED_BYTES - 1_000_000) // 8))
    seconds, peak, message = measure(lambda: _refused("bomb.npz", bomb.getvalue()))
    rows.append(("upload", f"a {len(bomb.getvalue()) / 1e6:.1f} MB .npz unpacking to just under "
                 f"{MAX_UNPACKED_BYTES / 1e6:.0f} MB ({message[:40]}…)", seconds, peak))
    strings = b"[" + b'"abcdefgh",' * 450_000 + b"1]"
    seconds, peak, _ = measure(lambda: _refused("s.json", strings))
    rows.append(("upload", f"a {len(strings) / 1e6:.1f} MB .json of 450,000 strings (under every count)",
                 seconds, peak))
    junk = b"[" + b"[]," * 15_000_000 + b"[]]"
    seconds, peak, _ = measure(lambda: _refused("s.json", junk))
    rows.append(("upload", f"a {len(junk) / 1e6:.0f} MB .json of empty lists (refused by size)", seconds, peak))

    print("| Kind | What | CPU s | Peak memory MB |")
    print("|---|---|---:|---:|")
    for kind, what, seconds, peak in rows:
        print(f"| {kind} | {what} | {seconds:.2f} | {peak:.0f} |")
    print(json.dumps({"machine_cpus": __import__("os").cpu_count()}), file=sys.stderr)


def _refused(name: str, data: bytes) -> str:
    try:
        read_upload(name, data)
    except ValueError as error:
        return str(error)
    return "read"


if __name__ == "__main__":
    main()
