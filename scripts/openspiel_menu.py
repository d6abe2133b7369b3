"""Measure every game the OpenSpiel menu allows, as the hosted app loads it: in the loader's child process.

    python scripts/openspiel_menu.py            # every combination of every menu game
    python scripts/openspiel_menu.py --largest  # each game's largest combination only
    python scripts/openspiel_menu.py blotto     # every combination of the named menu games only
    python scripts/openspiel_menu.py --hostile  # what refusing hostile strings costs (CLI path, no menu)

For each combination the child's own CPU seconds, peak resident memory and peak address space
(it reports them from `getrusage` and /proc/self/status) and the parent's CPU seconds to turn the
answer into a game and compile its tree. Prints one row per menu game: its combination with the
most histories and the worst of each column over all its combinations. The README quotes the table;
the loader's limits (`cfrviz.games.openspiel.CHILD_MEMORY_MB`, `CHILD_CPU_SECONDS`) come from it.
A combination the loader or cfrviz's tree bounds refuse is printed with its sentence, and the exit
status is 1: the menu must not offer it.
"""
from __future__ import annotations

import itertools
import resource
import sys
import time

from cfrviz.catalog import OPENSPIEL_MENU, OpenSpielMenuGame
from cfrviz.games import openspiel
from cfrviz.tree import build_tree


def combinations(game: OpenSpielMenuGame) -> list[str]:
    """Every game string the menu allows for `game`, in the menu's own form."""
    free = [p for p in game.parameters if not p.pinned]
    return [game.game_string(dict(zip((p.name for p in free), values)))
            for values in itertools.product(*(p.allowed for p in free))]


def measure(game_string: str) -> dict[str, float]:
    """The child's and the parent's cost of loading `game_string` once (no cache)."""
    answer = openspiel._run_child(game_string, openspiel.MAX_OPENSPIEL_NODES)
    started = time.process_time()
    tree = build_tree(openspiel._game_from_answer(game_string, answer))
    usage = answer["usage"]
    return {"histories": tree.num_nodes, "child_cpu": usage["cpu_seconds"],
            "child_rss_mb": usage.get("peak_rss_kb", 0) / 1024, "child_as_mb": usage.get("peak_address_space_kb", 0) / 1024,
            "parent_cpu": time.process_time() - started}


#: Strings outside the menu, one per way a child can end (the CLI and package load them; the app refuses them
#: before any child starts).
HOSTILE = ("connect_four(rows=0)", "hanabi(colors=0)", "gomoku(dims=1000000)", "chess",
           "crazyhouse(insanity=1000000)", "blotto(coins=1000,fields=10)", "liars_dice(numdice=1,dice_sides=6)",
           "goofspiel(num_cards=100000)")


def hostile() -> None:
    """Each hostile string's sentence and the CPU seconds its child used (from RUSAGE_CHILDREN)."""
    print("game string | child CPU s | sentence")
    for text in HOSTILE:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        try:
            openspiel.load_openspiel(text)
            sentence = "loaded"
        except ValueError as refusal:
            sentence = str(refusal)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
        print(f"{text} | {cpu:.2f} | {sentence}", flush=True)


def main(argv: list[str]) -> int:
    if "--hostile" in argv:
        hostile()
        return 0
    largest_only = "--largest" in argv
    print(f"limits: {openspiel.CHILD_MEMORY_MB} MB address space, {openspiel.CHILD_CPU_SECONDS} s CPU, "
          f"{openspiel.CHILD_WALL_SECONDS} s wall, {openspiel.MAX_OPENSPIEL_NODES:,} histories")
    header = ("largest game string", "combinations", "histories", "child CPU s", "child peak MB",
              "child address space MB", "parent CPU s")
    print(" | ".join(header))
    refused = 0
    named = [word for word in argv if not word.startswith("--")]
    for game in OPENSPIEL_MENU:
        if named and game.name not in named:
            continue
        strings = [game.largest] if largest_only else combinations(game)
        rows = {}
        for text in strings:
            try:
                rows[text] = measure(text)
            except ValueError as refusal:   # over a bound of the loader or of cfrviz's trees: off the menu
                print(f"{text} | refused: {refusal}", flush=True)
                refused += 1
        if not rows:
            continue
        biggest = max(rows, key=lambda s: rows[s]["histories"])
        worst = {k: max(r[k] for r in rows.values()) for k in ("child_cpu", "child_rss_mb", "child_as_mb", "parent_cpu")}
        print(f"{biggest} | {len(strings)} | {rows[biggest]['histories']:,} | {worst['child_cpu']:.2f} | "
              f"{worst['child_rss_mb']:.0f} | {worst['child_as_mb']:.0f} | {worst['parent_cpu']:.2f}", flush=True)
        if biggest != game.largest:
            print(f"  note: the menu names {game.largest} as its largest", flush=True)
    if refused:
        print(f"{refused} combination(s) refused: narrow the menu's ranges until none is.", flush=True)
    return 1 if refused else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
