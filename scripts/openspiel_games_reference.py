"""Measure OpenSpiel's numbers for the OpenSpiel and .efg games once, as the tests' reference.

Needs OpenSpiel (pinned in requirements.txt; imported here, a local measurement), and
nothing from cfrviz, so the reference is OpenSpiel's alone:

    python scripts/openspiel_games_reference.py tests/data/openspiel_games_reference.json

For each game: OpenSpiel's count of histories (`get_all_states`, chance and terminal
included) and of information states (`TabularPolicy`), the exploitability (NashConv / 2)
of the uniform policy, and after N iterations of OpenSpiel's Python `CFRSolver`
(alternating updates) the exploitability and the whole average policy, keyed by
information-state string. The bundled `.efg` files are read by OpenSpiel's own Gambit
reader (`pyspiel.load_efg_game`), a check on cfrviz's reader that shares no code with it.
`tests/unit/games/test_openspiel_games.py` compares cfrviz against these numbers without OpenSpiel.

So that CI can run that comparison without OpenSpiel, each OpenSpiel game is also saved as
a `.efg` file enumerated by cfrviz's loader (`cfrviz.games.openspiel.load_openspiel`, then
`cfrviz.tree.efg_export.write_efg`) in tests/data/openspiel_games/; with OpenSpiel installed the
tests check that the loader still gives that same tree.
"""
from __future__ import annotations

import json
import platform
import re
import sys
from importlib.metadata import version
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
ITERATIONS = 200
# (name, how to load, source): "game" strings go through load_game (simultaneous games turn-based),
# "efg" names a bundled file read by OpenSpiel's Gambit reader.
CASES = (
    ("liars_dice(numdice=1,dice_sides=3)", "game"),
    ("goofspiel(num_cards=3,imp_info=True,points_order=descending)", "game"),
    ("kuhn_poker", "game"),
    ("kuhn", "efg"),
    ("myerson_card_game", "efg"),
    ("matching_pennies", "efg"),
)


def _load(pyspiel: Any, name: str, source: str) -> Any:
    if source == "efg":
        text = (ROOT / "cfrviz" / "games" / "data" / "games" / f"{name}.efg").read_text(encoding="utf-8")
        return pyspiel.load_efg_game(text)
    game = pyspiel.load_game(name)
    if game.get_type().dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS:
        game = pyspiel.convert_to_turn_based(game)
    return game


def _table(policy: Any) -> dict[str, list[float]]:
    """Information-state string -> probabilities of the legal actions, in legal-action order."""
    out = {}
    for state_string, row in policy.state_lookup.items():
        mask = policy.legal_actions_mask[row].astype(bool)
        out[state_string] = [float(p) for p in policy.action_probability_array[row][mask]]
    return out


def snapshot(name: str) -> str:
    """cfrviz's enumeration of the OpenSpiel game `name`, written as a .efg file; returns its path."""
    sys.path.insert(0, str(ROOT))
    from cfrviz.tree.efg_export import write_efg
    from cfrviz.games.openspiel import load_openspiel
    from cfrviz.tree import build_tree

    game = load_openspiel(name)
    relative = f"openspiel_games/{re.sub(r'[^a-z0-9]+', '_', name.lower()).strip('_')}.efg"
    path = ROOT / "tests" / "data" / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(write_efg(build_tree(game), comment=f"Enumerated from OpenSpiel's {name} by cfrviz "
                                                        f"(open_spiel {version('open_spiel')})."), encoding="utf-8")
    return relative


def measure() -> dict[str, Any]:
    """Run every case with OpenSpiel and return the reference document."""
    import pyspiel
    from open_spiel.python import policy as policy_lib
    from open_spiel.python.algorithms import cfr, exploitability, get_all_states

    entries = {}
    for name, source in CASES:
        game = _load(pyspiel, name, source)
        histories = get_all_states.get_all_states(game, depth_limit=-1, include_terminals=True,
                                                  include_chance_states=True)
        uniform = policy_lib.UniformRandomPolicy(game)
        solver = cfr.CFRSolver(game)
        for _ in range(ITERATIONS):
            solver.evaluate_and_update_policy()
        average = solver.average_policy()
        entries[f"{source}:{name}"] = {
            "source": source, "game": name, "loaded_as": str(game),
            "histories": len(histories),
            "information_states": len(policy_lib.TabularPolicy(game).state_lookup),
            "uniform_exploitability": float(exploitability.exploitability(game, uniform)),
            "cfr_iterations": ITERATIONS,
            "cfr_exploitability": float(exploitability.exploitability(game, average)),
            "cfr_average_policy": _table(average),
        }
        if source == "game":
            entries[f"{source}:{name}"]["snapshot"] = snapshot(name)
    return {
        "source": {"open_spiel": version("open_spiel"), "python": platform.python_version(),
                   "command": "python scripts/openspiel_games_reference.py "
                              "tests/data/openspiel_games_reference.json"},
        "note": ("OpenSpiel's own numbers: exploitability is NashConv / 2; CFR is "
                 "open_spiel.python.algorithms.cfr.CFRSolver (alternating updates, uniform averaging); "
                 "efg games are read by pyspiel.load_efg_game."),
        "entries": entries,
    }


def main(argv: list[str]) -> int:
    out = Path(argv[0]) if argv else ROOT / "tests" / "data" / "openspiel_games_reference.json"
    try:
        document = measure()
    except ImportError:
        print("OpenSpiel is not installed; `pip install open_spiel` first.", file=sys.stderr)
        return 2
    out.write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")
    for key, entry in document["entries"].items():
        print(f"{key}: {entry['histories']} histories, {entry['information_states']} information states, "
              f"uniform {entry['uniform_exploitability']!r}, CFR x{entry['cfr_iterations']} "
              f"{entry['cfr_exploitability']!r}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
