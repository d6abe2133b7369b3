"""Deep links: the plain choices a view is made of, and their query parameters, checked.

Pure Python (no Streamlit), so the parsing that strangers' links go through is unit-tested
and fuzzed directly. `parse_query_params` never raises: every bad value falls back to a
default and becomes one sentence in `DeepLink.notices`.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

from cfrviz.games.kuhn import MAX_CARDS
from cfrviz.run import RunSettings
from cfrviz.solvers import ALGORITHMS, UPDATE_SCHEMES, update_schemes
from cfrviz.tree import GameTree, compile_game

GAMES = {"kuhn": "Kuhn poker", "leduc": "Leduc poker", "rps": "Rock-paper-scissors"}
KUHN_CARDS = (3, MAX_CARDS)
# Iterations a solve may ask for on the shared server, per game. Whole `cfrviz.solve` calls
# (snapshots and exploitability included) on the shared 2-core machine, quiet / saturated by
# other test runs: vanilla CFR on Kuhn 100k 0.2 / 0.3 s (13 cards 1.4 / 3.7 s), Leduc 50k
# 1.9 / 11.5 s, regret matching 100k 0.05 s. Leduc is capped at 20k to stay near a second.
ITERATION_CAPS = {"kuhn": 100_000, "leduc": 20_000, "rps": 100_000}
MAX_SEED = 2**31 - 1


@dataclass(frozen=True)
class Choice:
    """What the sidebar asks for: the plain values a solve is keyed on."""

    game: str = "kuhn"
    cards: int = 3
    algorithm: str = "cfr"
    iterations: int = 1000
    updates: str = "simultaneous"
    seed: int = 0

    @property
    def game_param(self) -> str:
        """The `game` query value: "kuhn", "kuhn5", "leduc" or "rps"."""
        return f"kuhn{self.cards}" if self.game == "kuhn" and self.cards != 3 else self.game

    @property
    def game_params(self) -> tuple:
        """Sorted (name, value) pairs for `compile_game` and `RunSettings`."""
        return (("cards", self.cards),) if self.game == "kuhn" and self.cards != 3 else ()

    @property
    def sampling(self) -> bool:
        """Whether the algorithm samples (so the seed matters)."""
        return ALGORITHMS[self.algorithm][2]

    def settings(self) -> RunSettings:
        """The `RunSettings` of this choice (seed 0 for deterministic algorithms)."""
        return RunSettings(self.game, self.game_params, self.algorithm, self.iterations,
                           self.updates, self.seed if self.sampling else 0)

    def tree(self) -> GameTree:
        """The compiled tree of the chosen game (cached per process by `compile_game`)."""
        return compile_game(self.game, **dict(self.game_params))


@dataclass(frozen=True)
class DeepLink:
    """A parsed set of query parameters; `notices` explain every value that fell back."""

    choice: Choice
    t: int | None
    node: int | None
    notices: tuple[str, ...]


def supported_updates(choice: Choice) -> Choice:
    """`choice` with its update scheme switched to one its algorithm implements, if need be."""
    schemes = update_schemes(choice.algorithm)
    return choice if choice.updates in schemes else replace(choice, updates=schemes[0])


def algorithms_for(game: str) -> tuple[str, ...]:
    """Algorithm names offered for a game: regret matching only for matrix games."""
    return tuple(a for a in ALGORITHMS if a != "rm" or game == "rps")


def iteration_cap(game: str, cards: int = 3) -> int:
    """Most iterations a solve may ask for on the shared server (Kuhn's cap holds up to 13 cards)."""
    return ITERATION_CAPS[game]


def _first(value) -> str:
    if isinstance(value, (list, tuple)):
        return str(value[-1]) if value else ""
    return str(value)


def _parse_int(text: str) -> int:
    text = text.strip()
    if not text or len(text) > 12 or not text.lstrip("+-").isdigit():
        raise ValueError
    return int(text)


def parse_query_params(params: Mapping[str, object]) -> DeepLink:
    """Validate deep-link query parameters; anything malformed falls back with a notice.

    Never raises: each bad value becomes one sentence in `notices`. `node` is checked
    against the chosen game's tree; `t` against the iterations (the page snaps it to a
    snapshot later).
    """
    notices: list[str] = []
    choice = Choice()
    get = {k: _first(v) for k, v in params.items()}

    if "game" in get:
        name = get["game"].strip().lower()
        if name in GAMES:
            choice = replace(choice, game=name, cards=3)
        elif name.startswith("kuhn") and name[4:].isdigit() and \
                KUHN_CARDS[0] <= int(name[4:]) <= KUHN_CARDS[1]:
            choice = replace(choice, game="kuhn", cards=int(name[4:]))
        else:
            notices.append(f"Unknown game {get['game'][:40]!r} in the link; showing Kuhn poker. "
                           f"Use one of: kuhn, kuhn4 … kuhn13, leduc, rps.")
    if choice.game == "rps":
        choice = replace(choice, algorithm="rm")

    if "algo" in get:
        algo = get["algo"].strip().lower()
        if algo in algorithms_for(choice.game):
            choice = replace(choice, algorithm=algo)
        else:
            notices.append(f"Algorithm {get['algo'][:40]!r} is not available for {GAMES[choice.game]}; "
                           f"showing {ALGORITHMS[choice.algorithm][0]}.")

    cap = iteration_cap(choice.game, choice.cards)
    if "iters" in get:
        try:
            iters = _parse_int(get["iters"])
            if iters < 1:
                raise ValueError
            if iters > cap:
                notices.append(f"{GAMES[choice.game]} is capped at {cap:,} iterations on this server; "
                               f"showing {cap:,}.")
                iters = cap
            choice = replace(choice, iterations=iters)
        except ValueError:
            notices.append(f"Iterations must be a whole number from 1 to {cap:,}, not "
                           f"{get['iters'][:40]!r}; showing {choice.iterations:,}.")
    choice = replace(choice, iterations=min(choice.iterations, cap))

    if "updates" in get:
        updates = get["updates"].strip().lower()
        if updates in UPDATE_SCHEMES:
            choice = replace(choice, updates=updates)
        else:
            notices.append(f"Updates must be one of {', '.join(UPDATE_SCHEMES)}, not "
                           f"{get['updates'][:40]!r}; showing {choice.updates}.")
    supported = supported_updates(choice)
    if choice.updates != supported.updates:
        if "updates" in get:
            notices.append(f"{ALGORITHMS[choice.algorithm][0]} updates one player per traversal; "
                           f"showing {supported.updates} updates.")
        choice = supported

    if "seed" in get:
        try:
            seed = _parse_int(get["seed"])
            if not 0 <= seed <= MAX_SEED:
                raise ValueError
            choice = replace(choice, seed=seed)
        except ValueError:
            notices.append(f"The seed must be a whole number from 0 to {MAX_SEED}, not "
                           f"{get['seed'][:40]!r}; using seed 0.")

    if not choice.sampling:
        choice = replace(choice, seed=0)  # the seed changes nothing here, so links omit it

    t: int | None = None
    if "t" in get:
        try:
            t = _parse_int(get["t"])
            if not 1 <= t <= choice.iterations:
                raise ValueError
        except ValueError:
            t = None
            notices.append(f"The iteration t must be a whole number from 1 to {choice.iterations:,}, "
                           f"not {get['t'][:40]!r}; showing the last iteration.")

    node: int | None = None
    if "node" in get and get["node"].strip() not in ("", "none"):
        num_nodes = choice.tree().num_nodes
        try:
            node = _parse_int(get["node"])
            if not 0 <= node < num_nodes:
                raise ValueError
        except ValueError:
            node = None
            notices.append(f"Node {get['node'][:40]!r} is not in the {GAMES[choice.game]} tree "
                           f"(nodes 0 to {num_nodes - 1}); no node is selected.")
    return DeepLink(choice, t, node, tuple(notices))


def query_params_of(choice: Choice, t: int | None, node: int | None) -> dict[str, str]:
    """The deep-link query parameters of a view (the inverse of `parse_query_params`)."""
    params = {"game": choice.game_param, "algo": choice.algorithm, "iters": str(choice.iterations),
              "updates": choice.updates}
    if choice.sampling:
        params["seed"] = str(choice.seed)
    if t is not None:
        params["t"] = str(t)
    if node is not None:
        params["node"] = str(node)
    return params
