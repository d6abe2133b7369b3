"""Time the game readers and the exact LP: medians of repeated runs, printed as a table.

    python scripts/bench_games.py            # add OpenSpiel rows when OpenSpiel is installed

Rows: reading a .efg text (`read_efg`, tokenizer to checked game) and expanding it into a tree;
enumerating an OpenSpiel game through pyspiel; the sequence-form LP (`cfrviz.analysis.lp`, both players'
programs, uncached). Nothing here is asserted; the numbers go in the README by hand.
"""
from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from cfrviz.analysis import lp  # noqa: E402
from cfrviz.games.efg import read_bundled, read_efg  # noqa: E402
from cfrviz.tree.efg_export import write_efg  # noqa: E402
from cfrviz.games.openspiel import available, load_openspiel  # noqa: E402
from cfrviz.tree import build_tree  # noqa: E402
from cfrviz.catalog import compile_game  # noqa: E402

REPEATS = 5


def _efg_tree(text: str) -> object:
    return build_tree(read_efg(text))


def _openspiel_tree(game_string: str) -> object:
    return build_tree(load_openspiel(game_string))


def median_seconds(work: Callable[[], object], repeats: int = REPEATS) -> tuple[float, float]:
    """(median wall-clock seconds, median CPU seconds of this process): CPU time is the steadier
    number on a shared machine."""
    wall, cpu = [], []
    for _ in range(repeats):
        start, start_cpu = time.perf_counter(), time.process_time()
        work()
        wall.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    return statistics.median(wall), statistics.median(cpu)


def main() -> int:
    rows: list[tuple[str, str, int, tuple[float, float]]] = []
    texts = {"kuhn.efg (bundled)": read_bundled("kuhn").text,
             "Leduc written as .efg": write_efg(compile_game("leduc")),
             "Leduc with suits written as .efg": write_efg(compile_game("leduc", suits=True))}
    for name, text in texts.items():
        nodes = build_tree(read_efg(text)).num_nodes
        rows.append(("read_efg + build_tree", f"{name}, {len(text.encode()):,} bytes", nodes,
                     median_seconds(partial(_efg_tree, text))))
    trees = {"Kuhn poker": compile_game("kuhn"), "Leduc poker": compile_game("leduc"),
             "Leduc poker, suits dealt": compile_game("leduc", suits=True)}
    if available():
        for game_string in ("liars_dice(numdice=1,dice_sides=3)",
                            "goofspiel(num_cards=3,imp_info=True,points_order=descending)",
                            "liars_dice(numdice=1,dice_sides=5)"):
            tree = build_tree(load_openspiel(game_string))
            rows.append(("load_openspiel + build_tree", game_string, tree.num_nodes,
                         median_seconds(partial(_openspiel_tree, game_string), 3)))
            trees[game_string] = tree
    lp._solve(trees["Kuhn poker"])          # imports scipy once, outside the timing
    for name, tree in trees.items():
        rows.append(("sequence-form LP (both players)", name, tree.num_nodes,
                     median_seconds(partial(lp._solve, tree), 3)))
    print("| what | game | histories | wall s (median) | CPU s (median) |")
    print("| --- | --- | ---: | ---: | ---: |")
    for what, game, nodes, (wall, cpu) in rows:
        print(f"| {what} | {game} | {nodes:,} | {wall:.3f} | {cpu:.3f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
