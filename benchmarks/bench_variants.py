"""Measure PCFR+, DCFR+ and PDCFR+ with code that is not cfrviz's, once, as the tests' reference.

Two independent implementations, neither in the requirements (both need OpenSpiel):

- LiteEFG (Liu et al., C++ with Python bindings; `pip install liteefg`): its shipped PCFR+
  graph, `LiteEFG.baselines.PCFR`, unchanged. LiteEFG records the strategy *after* each
  update, so its "last-iterate" after N updates is the profile cfrviz plays in iteration N + 1.
- The PDCFR+ authors' Python code (Xu et al., IJCAI 2024; the public PDCFRPlus repository,
  commit given with --pdcfrplus-commit): `pdcfrplus.cfr.PCFRPlus`, `DCFRPlus` and `PDCFRPlus`
  with their default parameters. Their logger pulls in torch and wandb only to print, so a
  stand-in `pdcfrplus.utils.logger.Logger` that records nothing is put in its place; the
  solvers' code runs unchanged.

    python -m benchmarks.bench_variants --pdcfrplus /path/to/PDCFRPlus --pdcfrplus-commit <sha> \\
        tests/data/variants_reference.json

Exploitability is OpenSpiel's (NashConv / 2), on kuhn_poker and on
leduc_poker(suit_isomorphism=True), which has exactly cfrviz's merged Leduc tree.
"""
from __future__ import annotations

import argparse
import json
import platform
import sys
import types
from importlib.metadata import version
from pathlib import Path
from typing import Any

#: (game as OpenSpiel names it, cfrviz game, iterations). Leduc also at 40 iterations: later,
#: float noise grows too far in the last iterate to compare at 1e-9 (see tests/unit/solvers/test_variants.py).
GAMES = (("kuhn_poker", "kuhn", 1000), ("leduc_poker(suit_isomorphism=True)", "leduc", 40),
         ("leduc_poker(suit_isomorphism=True)", "leduc", 100))
#: The authors' class for each cfrviz name.
AUTHORS = {"pcfr+": "PCFRPlus", "dcfr+": "DCFRPlus", "pdcfr+": "PDCFRPlus"}


def _liteefg_pcfr_plus(game_name: str, updates: int) -> float:
    """LiteEFG's PCFR+: exploitability of its last iterate after `updates` updates."""
    import LiteEFG as leg  # type: ignore[import-not-found, unused-ignore]  # optional, installed only for the benchmark
    import pyspiel  # type: ignore[import-not-found, unused-ignore]  # optional, installed only for the benchmark
    from LiteEFG.baselines import PCFR  # type: ignore[import-not-found, unused-ignore]  # optional, installed only for the benchmark

    env = leg.OpenSpielEnv(pyspiel.load_game(game_name), traverse_type="Enumerate", regenerate=False)
    graph = PCFR.graph()  # type: ignore[no-untyped-call, unused-ignore]  # LiteEFG ships no types
    env.set_graph(graph)
    for _ in range(updates):
        graph.update_graph(env)
        env.update_strategy(graph.current_strategy())
    # LiteEFG returns each player's best-response gain; their sum is NashConv.
    return float(sum(env.exploitability(graph.current_strategy(), "last-iterate"))) / 2.0


def _import_authors(root: Path) -> types.ModuleType:
    """The authors' `pdcfrplus.cfr` package from a checkout, with a silent logger."""
    logger = types.ModuleType("pdcfrplus.utils.logger")

    class Logger:
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            pass

        def record(self, *args: Any, **kwargs: Any) -> None:
            pass

        def dump(self, *args: Any, **kwargs: Any) -> None:
            pass

        def close(self) -> None:
            pass

    logger.Logger = Logger  # type: ignore[attr-defined]  # the checkout's logger module is patched at run time
    sys.modules["pdcfrplus.utils.logger"] = logger
    sys.path.insert(0, str(root))
    import pdcfrplus.cfr  # type: ignore[import-not-found, unused-ignore]  # noqa: F401  (the checkout's package)

    return sys.modules["pdcfrplus.cfr"]


def _authors_run(cfr: types.ModuleType, cls_name: str, game_name: str, iterations: int) -> tuple[float, float]:
    """(average, last iterate) exploitability of the authors' solver after `iterations` iterations."""
    import pyspiel  # type: ignore[import-not-found, unused-ignore]  # optional, installed only for the benchmark
    from open_spiel.python import policy  # type: ignore[import-not-found, unused-ignore]  # optional, installed only for the benchmark
    from open_spiel.python.algorithms import exploitability  # type: ignore[import-not-found, unused-ignore]  # optional, installed only for the benchmark
    from pdcfrplus.game.game_config import GameConfig  # type: ignore[import-not-found, unused-ignore]  # optional, installed only for the benchmark

    config = GameConfig(iterations=iterations, game_name=game_name.split("(")[0])
    if "(" in game_name:
        config.params = dict(pyspiel.load_game(game_name).get_parameters())
    solver = getattr(cfr, cls_name)(config)
    for _ in range(iterations):
        solver.iteration()
    game = solver.game

    def current(h: Any) -> dict[int, float]:
        key = solver.add_player_info_in_feature(h.information_state_string(), h.current_player())
        return dict(solver.states[key].policy)

    average = exploitability.exploitability(game, policy.tabular_policy_from_callable(game, solver.average_policy()))
    last = exploitability.exploitability(game, policy.tabular_policy_from_callable(game, current))
    return float(average), float(last)


def measure(pdcfrplus: Path, commit: str) -> dict[str, Any]:
    """Every reference number, with where it came from."""
    entries: dict[str, dict[str, Any]] = {}
    for game_name, ours, iterations in GAMES:
        entries[f"{ours}_pcfr+_liteefg_last_iterate_{iterations}"] = {
            "game": ours, "openspiel_game": game_name, "algorithm": "pcfr+", "updates": "alternating",
            "iterations": iterations, "strategy": "last iterate after the updates (cfrviz: next strategy)",
            "exploitability": _liteefg_pcfr_plus(game_name, iterations),
            "implementation": f"LiteEFG {version('LiteEFG')}, LiteEFG.baselines.PCFR.graph() unchanged",
        }
    cfr = _import_authors(pdcfrplus)
    for game_name, ours, iterations in GAMES:
        for algorithm, cls_name in AUTHORS.items():
            average, last = _authors_run(cfr, cls_name, game_name, iterations)
            source = f"PDCFRPlus authors' code at commit {commit}, pdcfrplus.cfr.{cls_name} with its defaults"
            entries[f"{ours}_{algorithm}_authors_average_{iterations}"] = {
                "game": ours, "openspiel_game": game_name, "algorithm": algorithm, "updates": "alternating",
                "iterations": iterations, "strategy": "average", "exploitability": average,
                "implementation": source}
            entries[f"{ours}_{algorithm}_authors_last_iterate_{iterations}"] = {
                "game": ours, "openspiel_game": game_name, "algorithm": algorithm, "updates": "alternating",
                "iterations": iterations, "strategy": "last iterate after the updates (cfrviz: next strategy)",
                "exploitability": last, "implementation": source}
    return {
        "source": {"open_spiel": version("open_spiel"), "LiteEFG": version("LiteEFG"),
                   "pdcfrplus_commit": commit, "python": platform.python_version(),
                   "command": "python -m benchmarks.bench_variants --pdcfrplus DIR --pdcfrplus-commit SHA "
                              "tests/data/variants_reference.json"},
        "note": "Exploitability is OpenSpiel's (NashConv / 2). 'Last iterate after the updates' is the "
                "strategy each implementation would play next, cfrviz's next_strategy() after that many "
                "iterations.",
        "entries": entries,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.bench_variants", description=__doc__.splitlines()[0])
    parser.add_argument("out", nargs="?", default="tests/data/variants_reference.json")
    parser.add_argument("--pdcfrplus", required=True, type=Path, help="a checkout of the PDCFR+ authors' code")
    parser.add_argument("--pdcfrplus-commit", required=True, help="the commit that checkout is at")
    args = parser.parse_args(argv)
    try:
        document = measure(args.pdcfrplus, args.pdcfrplus_commit)
    except ImportError as missing:
        print(f"Cannot measure: {missing}. Install open_spiel and LiteEFG in a separate environment first.",
              file=sys.stderr)
        return 2
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
    print(json.dumps(document, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
