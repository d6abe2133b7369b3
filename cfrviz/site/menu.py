"""The site's menu: which runs and walkthroughs a build computes, read from the builder's JSON or TOML
file (or the default), and checked entry by entry.

A run entry is written with the app's own link parameters (`game`, `algo`, `iters`, `updates`,
`seed`, `lock`), so an entry reads like the link that shows it. A walkthrough entry uses the
Walkthrough page's (`walk_game`, `walk_algo`, `walk_updates`, `walk_t`, `walk_deal`, `walk_seed`).
A comparison entry (`[[compare]]` in TOML) uses `cfrviz.compare`'s arguments (`games`, `algorithms`,
`iterations`, `sampling_iterations`, `updates`, `seeds`), and the Compare page draws its table.
A bad entry is refused with one sentence naming it; nothing is solved before the whole menu is checked.
"""
from __future__ import annotations

import json
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cfrviz import catalog
from cfrviz.catalog import GameSpec
from cfrviz.run import RunSettings
from cfrviz.run.link_params import link_params
from cfrviz.solving.compare import compare_plan
from cfrviz.solvers import ALGORITHMS, update_schemes
from cfrviz.teaching.walkthrough import WALKTHROUGH_ALGORITHMS, deal_options
from cfrviz.tree.locks import Locks
from cfrviz.util.text import quoted
from cfrviz.util.vocabulary import Algorithm, UpdateScheme
from cfrviz.util.whole_numbers import MAX_SEED

#: Largest menu file read (a menu is a few dozen lines).
MAX_MENU_BYTES = 100_000
#: Most runs and walkthroughs one menu may ask for (the default has about 25).
MAX_ENTRIES = 200

_RUN_KEYS = ("game", "algo", "iters", "updates", "seed", "lock")
_WALK_KEYS = ("walk_game", "walk_algo", "walk_updates", "walk_t", "walk_deal", "walk_seed")
_COMPARE_KEYS = ("games", "algorithms", "iterations", "sampling_iterations", "updates", "seeds")
#: Most seeds a sampling method runs with in one comparison (the build stays minutes, not hours).
MAX_COMPARE_SEEDS = 30


@dataclass(frozen=True)
class Walk:
    """One walked iteration, as the Walkthrough page asks for it: iteration `t` of `algorithm` on
    `game` from the real solver's state before it, with chance's `deal` fixed (chance sampling) or none."""

    game: GameSpec
    algorithm: Algorithm
    updates: UpdateScheme
    t: int
    deal: str | None
    seed: int

    def params(self) -> dict[str, str]:
        """The Walkthrough page's link parameters of this walk."""
        out = {"walk_game": str(self.game.link), "walk_algo": str(self.algorithm), "walk_updates": str(self.updates),
               "walk_t": str(self.t)}
        if self.deal is not None:
            out["walk_deal"] = self.deal
        if self.algorithm == Algorithm.CHANCE_SAMPLING:
            out["walk_seed"] = str(self.seed)
        return out


@dataclass(frozen=True)
class Comparison:
    """One comparison, as `cfrviz.compare` takes it: `games` (link names) × `algorithms` × `updates`,
    full-traversal methods run `iterations`, sampling methods `sampling_iterations` with seeds 0 … seeds-1."""

    games: tuple[str, ...]
    algorithms: tuple[str, ...]
    iterations: int
    sampling_iterations: int
    updates: tuple[str, ...]
    seeds: int

    def arguments(self) -> dict[str, Any]:
        """The keyword arguments of `cfrviz.compare` for this comparison."""
        return {"games": list(self.games), "algorithms": list(self.algorithms), "iterations": self.iterations,
                "updates": list(self.updates), "seeds": self.seeds, "sampling_iterations": self.sampling_iterations}


@dataclass(frozen=True)
class Menu:
    """What one build computes: `runs` (their settings, in the menu's order; the first is Home's and
    every page's default), `walks` (the Walkthrough's iterations) and `compares` (the Compare page's)."""

    runs: tuple[RunSettings, ...]
    walks: tuple[Walk, ...]
    compares: tuple[Comparison, ...] = ()


def _deterministic(game: str) -> list[dict[str, Any]]:
    """Every deterministic algorithm of the CFR family on `game`, with each update scheme it has, at the app's cap."""
    cap = catalog.lookup(game).app_iteration_cap
    return [{"game": game, "algo": str(a), "iters": cap, "updates": str(u)}
            for a, info in ALGORITHMS.items() if not info.sampling for u in update_schemes(a)]


def default_entries() -> dict[str, list[dict[str, Any]]]:
    """The default menu (issue 29): Kuhn with every deterministic algorithm and both update schemes at
    the app's cap, chance, external and outcome sampling with seed 0; Leduc with CFR, CFR+, DCFR+ and
    PCFR+, alternating; rock-paper-scissors by regret matching (Regret matching's page); the locked Kuhn example of Home's path; the Walkthrough's first three iterations
    of chance sampling for every Kuhn deal (the worked example, Q against K, first), of vanilla CFR and
    CFR+, and Leduc's first iteration for three deals and for vanilla CFR (a data file is 8 kB to 1 MB);
    Compare: Kuhn's CFR, CFR+, DCFR, PCFR+, external and outcome sampling (five seeds)."""
    kuhn_cap = catalog.lookup("kuhn").app_iteration_cap
    leduc_cap = catalog.lookup("leduc").app_iteration_cap
    # CFR+ alternating first: the view a first visit of Home gets.
    runs = [{"game": "kuhn", "algo": "cfr+", "iters": kuhn_cap, "updates": "alternating"}]
    runs += [entry for entry in _deterministic("kuhn") if entry != runs[0]]
    runs += [{"game": "kuhn", "algo": a, "iters": kuhn_cap, "updates": str(update_schemes(a)[-1]), "seed": 0}
             for a in ("chance", "external", "outcome")]
    runs += [{"game": "leduc", "algo": a, "iters": leduc_cap, "updates": "alternating"}
             for a in ("cfr", "cfr+", "dcfr+", "pcfr+")]
    # Regret matching's page: rock-paper-scissors, sampled self-play, as the app's page's sampled view.
    runs.append({"game": "rps", "algo": "rm", "iters": 10_000, "seed": 0})
    # The locked example of Home's path: player 1 never bluffs with the jack.
    runs.append({"game": "kuhn", "algo": "cfr+", "iters": 10_000, "updates": "alternating", "lock": "J=1,0"})
    # The worked example first (Q against K), then every other deal; iterations 1 to 3.
    deals = ["QK", *[d for d in deal_options(catalog.lookup("kuhn").tree()) if d != "QK"]]
    walks: list[dict[str, Any]] = [
        {"walk_game": "kuhn", "walk_algo": "chance", "walk_updates": "simultaneous", "walk_t": t, "walk_deal": deal,
         "walk_seed": 0} for deal in deals for t in (1, 2, 3)]
    walks += [{"walk_game": "kuhn", "walk_algo": a, "walk_updates": u, "walk_t": t}
              for a, u, last in (("cfr", "simultaneous", 3), ("cfr", "alternating", 2), ("cfr+", "alternating", 2))
              for t in range(1, last + 1)]
    walks += [{"walk_game": "leduc", "walk_algo": "chance", "walk_updates": "simultaneous", "walk_t": 1, "walk_deal": deal,
               "walk_seed": 0} for deal in ("JQ", "QK", "KK")]
    walks.append({"walk_game": "leduc", "walk_algo": "cfr", "walk_updates": "simultaneous", "walk_t": 1})
    # Compare: Kuhn's deterministic methods at 10,000 iterations, the sampling ones at 100,000 with
    # five seeds (a band), as the app's page starts (about a minute to build, a few hundred kB of SVG).
    compares = [{"games": ["kuhn"], "algorithms": ["cfr", "cfr+", "dcfr", "pcfr+", "external", "outcome"],
                 "iterations": 10_000, "sampling_iterations": 100_000, "seeds": 5}]
    return {"runs": runs, "walkthroughs": walks, "compare": compares}


def small_entries() -> dict[str, list[dict[str, Any]]]:
    """A menu small enough for CI: two Kuhn runs, one Leduc run, the locked example, one rock-paper-scissors
    run of regret matching and one walk."""
    return {"runs": [{"game": "kuhn", "algo": "cfr+", "iters": 300, "updates": "alternating"},
                     {"game": "kuhn", "algo": "cfr", "iters": 200, "updates": "simultaneous"},
                     {"game": "leduc", "algo": "cfr+", "iters": 50, "updates": "alternating"},
                     {"game": "kuhn", "algo": "cfr+", "iters": 300, "updates": "alternating", "lock": "J=1,0"},
                     {"game": "rps", "algo": "rm", "iters": 300, "seed": 3}],
            "walkthroughs": [{"walk_game": "kuhn", "walk_algo": "chance", "walk_updates": "simultaneous",
                              "walk_t": 1, "walk_deal": "QK", "walk_seed": 0}],
            "compare": [{"games": ["kuhn"], "algorithms": ["cfr+", "outcome"], "iterations": 200,
                         "sampling_iterations": 2_000, "seeds": 3}]}


def read_menu_file(path: Path) -> Menu:
    """The menu in `path` (.json or .toml), checked; ValueError says what is wrong in one sentence."""
    if path.suffix.lower() not in (".json", ".toml"):
        raise ValueError(f"The menu must be a .json or .toml file; {path} was given.")
    try:
        if path.stat().st_size > MAX_MENU_BYTES:
            raise ValueError(f"The menu {path} is over {MAX_MENU_BYTES:,} bytes; a menu is a short list of runs.")
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise ValueError(f"Cannot read the menu {path}: {(error.strerror or 'unreadable').lower()}.") from None
    except UnicodeDecodeError:
        raise ValueError(f"The menu {path} is not UTF-8 text.") from None
    try:
        raw = json.loads(text) if path.suffix.lower() == ".json" else tomllib.loads(text)
    except (json.JSONDecodeError, tomllib.TOMLDecodeError) as error:
        raise ValueError(f"The menu {path} is not valid {path.suffix[1:].upper()}: {error}.") from None
    return checked_menu(raw)


def checked_menu(raw: object) -> Menu:
    """The menu an object read from JSON or TOML names: {"runs": [...], "walkthroughs": [...], "compare": [...]}.
    ValueError names the first bad entry and what is wrong with it."""
    if not isinstance(raw, Mapping):
        raise ValueError("The menu must be an object with a list of runs (and optionally walkthroughs and compare).")
    unknown = sorted(set(raw) - {"runs", "walkthroughs", "compare"})
    if unknown:
        raise ValueError(f"The menu has an unknown section {quoted(unknown[0])}; it has runs, walkthroughs and "
                         "compare.")
    runs, walks, compares = raw.get("runs"), raw.get("walkthroughs", []), raw.get("compare", [])
    if not isinstance(runs, Sequence) or isinstance(runs, str) or not runs:
        raise ValueError("The menu's runs must be a list of at least one run.")
    if not isinstance(walks, Sequence) or isinstance(walks, str):
        raise ValueError("The menu's walkthroughs must be a list.")
    if not isinstance(compares, Sequence) or isinstance(compares, str):
        raise ValueError("The menu's compare must be a list of comparisons.")
    if len(runs) + len(walks) + len(compares) > MAX_ENTRIES:
        raise ValueError(f"The menu asks for {len(runs) + len(walks) + len(compares)} entries; at most "
                         f"{MAX_ENTRIES} are built.")
    settings = tuple(_entry(k, entry, "run", _RUN_KEYS, _run) for k, entry in enumerate(runs, start=1))
    if len(set(settings)) != len(settings):
        twice = next(s for s in settings if settings.count(s) > 1)
        raise ValueError(f"The menu lists the run {link_params(twice)} twice.")
    walked = tuple(_entry(k, entry, "walkthrough", _WALK_KEYS, _walk) for k, entry in enumerate(walks, start=1))
    if len(set(walked)) != len(walked):
        raise ValueError("The menu lists a walkthrough twice.")
    compared = tuple(_entry(k, entry, "comparison", _COMPARE_KEYS, _comparison) for k, entry in enumerate(compares, start=1))
    if len(set(compared)) != len(compared):
        raise ValueError("The menu lists a comparison twice.")
    return Menu(settings, walked, compared)


def _entry(k: int, entry: object, kind: str, keys: tuple[str, ...], read: Any) -> Any:
    where = f"The menu's {kind} {k}"
    if not isinstance(entry, Mapping):
        raise ValueError(f"{where} must be an object with {', '.join(keys)}.")
    extra = sorted(set(entry) - set(keys))
    if extra:
        raise ValueError(f"{where} has an unknown key {quoted(extra[0])}; a {kind} has {', '.join(keys)}.")
    try:
        return read(entry)
    except ValueError as problem:
        raise ValueError(f"{where}: {str(problem)[:1].lower()}{str(problem)[1:]}") from None


def _text(entry: Mapping[str, object], key: str, default: str | None = None) -> str:
    value = entry.get(key, default)
    if not isinstance(value, str) or not value.strip():
        raise ValueError(f"{key} must be a non-empty text, not {quoted(value)}.")
    return value.strip()


def _number(entry: Mapping[str, object], key: str, low: int, high: int, default: int | None = None) -> int:
    value = entry.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ValueError(f"{key} must be a whole number from {low:,} to {high:,}, not {quoted(value)}.")
    return value


def _algorithm(text: str, key: str) -> Algorithm:
    name = text.lower()
    if name not in ALGORITHMS:
        raise ValueError(f"{key} {quoted(text)} is not an algorithm; choose one of {', '.join(ALGORITHMS)}.")
    return Algorithm(name)


def _run(entry: Mapping[str, object]) -> RunSettings:
    game = catalog.lookup_hosted(_text(entry, "game"))
    if game.link is None:
        raise ValueError(f"{game.title} cannot be named in a link, so the site could not link to it.")
    algorithm = _algorithm(_text(entry, "algo"), "algo")
    if not game.offers(algorithm):
        raise ValueError(f"{ALGORITHMS[algorithm].title} does not solve {game.title}.")
    cap = game.app_iteration_cap
    # At most the app's cap: a link to a built run then opens the same run in the full app.
    iterations = _number(entry, "iters", 1, cap)
    updates = _text(entry, "updates", str(update_schemes(algorithm)[0])).lower()
    if updates not in update_schemes(algorithm):
        raise ValueError(f"{ALGORITHMS[algorithm].title} has {' or '.join(update_schemes(algorithm))} updates, "
                         f"not {quoted(updates)}.")
    sampling = ALGORITHMS[algorithm].sampling
    seed = _number(entry, "seed", 0, MAX_SEED, 0)
    if seed and not sampling:
        raise ValueError(f"{ALGORITHMS[algorithm].title} does not sample, so a seed changes nothing; leave it out.")
    if game.matrix and (algorithm != Algorithm.REGRET_MATCHING or updates != "simultaneous"):
        raise ValueError(f"the site shows {game.title} on its Regret matching page, which draws regret matching "
                         "(algo rm) with simultaneous updates, as the app's page does.")
    locks = Locks()
    if "lock" in entry:
        locks = Locks.parse(_text(entry, "lock")).check(game.tree())
    return RunSettings(game, algorithm, iterations, UpdateScheme(updates), seed, locks)


def _walk(entry: Mapping[str, object]) -> Walk:
    game = catalog.lookup_hosted(_text(entry, "walk_game"))
    if not game.walkthrough or game.matrix or game.link is None:
        raise ValueError(f"{game.title} cannot be walked step by step (too big, or a matrix game).")
    algorithm = _algorithm(_text(entry, "walk_algo", "chance"), "walk_algo")
    if algorithm not in WALKTHROUGH_ALGORITHMS:
        raise ValueError(f"the walkthrough replays {', '.join(WALKTHROUGH_ALGORITHMS)}, not {algorithm}.")
    updates = _text(entry, "walk_updates", str(update_schemes(algorithm)[0])).lower()
    if updates not in update_schemes(algorithm):
        raise ValueError(f"{ALGORITHMS[algorithm].title} has {' or '.join(update_schemes(algorithm))} updates, "
                         f"not {quoted(updates)}.")
    t = _number(entry, "walk_t", 1, game.walkthrough_iteration_cap, 1)
    deal: str | None = None
    seed = 0
    if algorithm == Algorithm.CHANCE_SAMPLING:
        deals = deal_options(game.tree())
        deal = _text(entry, "walk_deal", "random")
        if deal == "random":
            deal = None
        elif deal not in deals:
            raise ValueError(f"walk_deal {quoted(deal)} is not a deal of {game.title}; choose one of "
                             f"{', '.join(deals)} or random.")
        seed = _number(entry, "walk_seed", 0, MAX_SEED, 0)
    elif "walk_deal" in entry or "walk_seed" in entry:
        raise ValueError(f"{ALGORITHMS[algorithm].title} walks every deal; walk_deal and walk_seed are for chance sampling.")
    return Walk(game, algorithm, UpdateScheme(updates), t, deal, seed)


def _names(entry: Mapping[str, object], key: str, default: list[str] | None = None) -> tuple[str, ...]:
    value = entry.get(key, default)
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, Sequence) or not value or not all(isinstance(v, str) and v.strip() for v in value):
        raise ValueError(f"{key} must be a list of names, not {quoted(value)}.")
    names = tuple(str(v).strip().lower() for v in value)
    if len(set(names)) != len(names):
        raise ValueError(f"{key} lists a name twice.")
    return names


def _comparison(entry: Mapping[str, object]) -> Comparison:
    if "games" not in entry or "algorithms" not in entry or "iterations" not in entry:
        raise ValueError("a comparison names its games, algorithms and iterations.")
    names = _names(entry, "games")
    specs = [catalog.lookup_hosted(name) for name in names]
    for spec in specs:
        if spec.link is None:
            raise ValueError(f"{spec.title} cannot be named in a link, so the site could not link to it.")
    # At most the smallest game's cap: every line could then be solved in the full app too.
    cap = min(spec.app_iteration_cap for spec in specs)
    iterations = _number(entry, "iterations", 1, cap)
    sampling_iterations = _number(entry, "sampling_iterations", 1, cap, iterations)
    seeds = _number(entry, "seeds", 1, MAX_COMPARE_SEEDS, 1)
    comparison = Comparison(tuple(str(spec.link) for spec in specs), _names(entry, "algorithms"), iterations,
                            sampling_iterations, _names(entry, "updates", ["alternating"]), seeds)
    # cfrviz.compare's own checks (a matrix game, an unknown algorithm or scheme), each one sentence.
    compare_plan(**comparison.arguments())
    return comparison


def default_menu() -> Menu:
    """The default menu, checked like any file's."""
    return checked_menu(default_entries())


def small_menu() -> Menu:
    """The CI menu, checked like any file's."""
    return checked_menu(small_entries())
