"""What one Play click costs on the largest OpenSpiel game of the menu: CPU seconds and peak
resident growth of the click's work on the server, measured the way `scripts/budget.py` measures
(Linux: VmHWM after resetting it through /proc/self/clear_refs, minus VmRSS before).

    python scripts/play_click_memory.py            # liar's dice (1 die, 5 sides), vanilla CFR, 800 iterations
    python scripts/play_click_memory.py --game leduc --iterations 25000

The click: the human's action (its EV loss against the whole tree), then the play mode's numbers for
every frame of the part of the tree the hand is in (`play_extra`), then the timeline payload of that
part. Prints a markdown table. Needs OpenSpiel for the default game.
"""
from __future__ import annotations

import argparse
import gc
import sys
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))   # before importing cfrviz: `python scripts/play_click_memory.py` runs from a checkout

T = TypeVar("T")
LIARS_DICE = "openspiel:liars_dice(numdice=1,dice_sides=5)"


def _status(field: str) -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) * 1024
    raise KeyError(field)


def _measure(action: Callable[[], T]) -> tuple[float, float, float, T]:
    """(CPU seconds, peak resident growth in MB, peak of Python and NumPy allocations in MB, result) of
    one call; the second run, traced, gives the allocations (freed memory the process reuses hides
    them from the resident size)."""
    gc.collect()
    Path("/proc/self/clear_refs").write_text("5")
    before = _status("VmRSS")
    start = time.process_time()
    result = action()
    seconds, resident = time.process_time() - start, (_status("VmHWM") - before) / 2**20
    tracemalloc.start()
    try:
        action()
        allocated = tracemalloc.get_traced_memory()[1] / 2**20
    finally:
        tracemalloc.stop()
    return seconds, resident, allocated, result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default=LIARS_DICE, help="link value of the game")
    parser.add_argument("--iterations", type=int, default=800)
    args = parser.parse_args()

    import cfrviz
    from cfrviz import catalog
    from cfrviz.figures import timeline
    from cfrviz.figures.play import play_extra
    from cfrviz.solvers import UpdateScheme
    from cfrviz.util.vocabulary import Player
    from cfrviz.teaching import play
    from cfrviz.tree import parts as tree_parts

    tree = catalog.lookup(args.game).tree()
    run = cfrviz.solve(tree, "cfr", iterations=args.iterations, updates=UpdateScheme.ALTERNATING)
    strategy = run.average_strategy[-1]
    hand = play.start_hand(tree, strategy, seat=Player.FIRST, seed=1, number=0)
    play_extra(tree, run, tree_parts.part_nodes(tree, tree_parts.part_of(tree, hand.node)).tolist(), (0,))  # warm-up
    action = play.legal_actions(tree, hand)[0]
    rows: list[tuple[str, float, float, float]] = []
    first = hand
    *cost, hand = _measure(lambda: play.act(tree, strategy, first, action, iteration=args.iterations))
    rows.append(("the action and its EV loss", cost[0], cost[1], cost[2]))
    node = hand.decisions[-1].node if play.is_over(tree, hand) else hand.node
    nodes = tree_parts.part_nodes(tree, tree_parts.part_of(tree, node)).tolist()
    *cost, _ = _measure(lambda: play_extra(tree, run, nodes, (0,)))
    rows.append((f"play mode's numbers, {len(timeline.frame_snapshots(run.iterations))} frames", cost[0], cost[1], cost[2]))
    *cost, _ = _measure(lambda: timeline.encode_payload(timeline.build_payload(tree, run, nodes)))
    rows.append((f"timeline payload of the part ({len(nodes)} histories)", cost[0], cost[1], cost[2]))
    print(f"{args.game}: {tree.num_nodes:,} histories, {tree.num_infosets:,} sets x {tree.max_actions} actions, "
          f"{args.iterations:,} iterations, {run.num_snapshots:,} snapshots\n")
    print("| step of one Play click | CPU s | peak resident growth MB | peak allocated MB |\n|---|---:|---:|---:|")
    for what, s, resident, allocated in rows:
        print(f"| {what} | {s:.2f} | {resident:.0f} | {allocated:.0f} |")
    print(f"| **total** (sum of the steps' peaks) | {sum(r[1] for r in rows):.2f} | {sum(r[2] for r in rows):.0f} | "
          f"{sum(r[3] for r in rows):.0f} |")


if __name__ == "__main__":
    main()
