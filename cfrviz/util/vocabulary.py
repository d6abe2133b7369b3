"""The vocabularies every layer shares, as types: algorithms, update schemes, players, strategy
kinds and kernel modes, plus one frozen record of metadata per algorithm.

The string values are the ones links, saved runs and the CLI carry, so they never change; a
`StrEnum` member compares and hashes equal to its string, so files and links written with plain
strings read back as members. This module imports nothing from cfrviz and sits in the bottom
layer, so the catalog, the solvers (and their compiled kernels) and the app all use it.
"""
from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from enum import IntEnum, StrEnum


class Algorithm(StrEnum):
    """The registry names used by `cfrviz.solve`, links, saved runs and the CLI.

    An update rule registered at run time (`cfrviz.register_minimizer`) is an `Algorithm` too, not
    listed among the members: `Algorithm("my-cfr+")` gives it while it is registered (`_missing_`),
    and a ValueError otherwise, as for any unknown name.
    """

    CFR = "cfr"
    CFR_PLUS = "cfr+"
    LINEAR_CFR = "lcfr"
    DISCOUNTED_CFR = "dcfr"
    PREDICTIVE_CFR_PLUS = "pcfr+"
    DISCOUNTED_CFR_PLUS = "dcfr+"
    PREDICTIVE_DISCOUNTED_CFR_PLUS = "pdcfr+"
    CHANCE_SAMPLING = "chance"
    EXTERNAL_SAMPLING = "external"
    OUTCOME_SAMPLING = "outcome"
    REGRET_MATCHING = "rm"

    @classmethod
    def _missing_(cls, value: object) -> Algorithm | None:
        return _CUSTOM_MEMBERS.get(value) if isinstance(value, str) else None


class UpdateScheme(StrEnum):
    """Whether one iteration updates both players at once or one after the other."""

    SIMULTANEOUS = "simultaneous"
    ALTERNATING = "alternating"


#: Every scheme, in the order menus list them.
UPDATE_SCHEMES: tuple[UpdateScheme, ...] = (UpdateScheme.SIMULTANEOUS, UpdateScheme.ALTERNATING)
#: The default everywhere a caller does not choose: alternating updates, the CFR literature's
#: usual choice (Tammelin et al. 2015; Burch, Moravcik and Schmid 2019).
DEFAULT_UPDATES = UpdateScheme.ALTERNATING


class Player(IntEnum):
    """The actor index the compiled tree stores per node (`GameTree.actor`); the only spelling of a
    player in Python. JSON payloads carry the index itself (`int(player)`).

    NumPy compares a scalar or array with an IntEnum member about 200 times slower than with an int
    (NumPy 2), so per-node loops compare `int(tree.actor[n])`, and the compiled kernels hold
    `int(Player.CHANCE)` as plain module constants.
    """

    FIRST = 0
    SECOND = 1
    CHANCE = 2
    TERMINAL = 3


#: The players who decide, in order (the others are chance and the terminal marker).
DECISION_PLAYERS: tuple[Player, Player] = (Player.FIRST, Player.SECOND)


def player_number(player: Player) -> int:
    """A deciding player as the browser and people count them: 1 or 2.

    >>> player_number(Player.SECOND)
    2
    """
    if player not in DECISION_PLAYERS:
        raise ValueError(f"Only player 1 and player 2 have a number, not {player!r}.")
    return int(player) + 1


def player_text(player: Player, prefix: str = "") -> str:
    """A deciding player as a link writes it: `prefix` and the player's number ("1" for the best
    responder, "p1" for the seat). `parse_player` reads it back.

    >>> player_text(Player.FIRST), player_text(Player.SECOND, "p")
    ('1', 'p2')
    """
    return f"{prefix}{player_number(player)}"


def parse_player(value: object, prefix: str = "") -> Player:
    """The deciding player a link's text (`player_text` with the same `prefix`) or the browser's number
    (1 or 2, only without a prefix) names; ValueError with one sentence otherwise.

    >>> parse_player("2"), parse_player(" P1 ", "p"), parse_player(1)
    (<Player.SECOND: 1>, <Player.FIRST: 0>, <Player.FIRST: 0>)
    """
    if not prefix and isinstance(value, (int, float)) and not isinstance(value, bool) and value in (1, 2):
        return DECISION_PLAYERS[int(value) - 1]
    if isinstance(value, str):
        for player in DECISION_PLAYERS:
            if value.strip().lower() == player_text(player, prefix):
                return player
    shown = value if isinstance(value, str) and len(value) <= 40 else type(value).__name__
    raise ValueError(f"A player is {player_text(Player.FIRST, prefix)} or {player_text(Player.SECOND, prefix)}, "
                     f"not {shown!r}.")


class StrategyKind(StrEnum):
    """Which of a solver's strategies is meant: the average (the one that converges) or the current."""

    AVERAGE = "average"
    CURRENT = "current"


class RegretMode(IntEnum):
    """How the compiled kernel updates cumulative regret at the end of an iteration."""

    PLAIN = 0           # vanilla CFR (Zinkevich et al. 2007)
    PLUS = 1            # RM+: clip at zero (Tammelin 2014)
    DISCOUNT = 2        # DCFR: positive x t^a/(t^a+1), negative x t^b/(t^b+1) (Brown and Sandholm 2019)
    DISCOUNT_PLUS = 3   # DCFR+, PDCFR+: max(R + r, 0) x t^a/(t^a+1) (Xu et al. 2022, 2024)


class AverageWeight(IntEnum):
    """How the compiled kernel weights iteration t in the average strategy."""

    UNIFORM = 0   # weight 1 (Zinkevich et al. 2007)
    LINEAR = 1    # weight t (CFR+, OpenSpiel's CFRPlusSolver)
    POWER = 2     # weight t^gamma (DCFR; Brown and Sandholm 2019)


@dataclass(frozen=True)
class AlgorithmInfo:
    """One algorithm's metadata: the only place its title, sampling flag and allowed
    update schemes are written down (the solver class reads them from here)."""

    name: Algorithm
    title: str
    solver: str                                 # "module:Class", imported on demand
    sampling: bool                              # True when the seed changes the result
    update_schemes: tuple[UpdateScheme, ...] = UPDATE_SCHEMES
    custom: bool = False                        # registered at run time (`cfrviz.solvers.custom`)


_ALTERNATING_ONLY = (UpdateScheme.ALTERNATING,)

_BUILT_IN: Mapping[str, AlgorithmInfo] = {info.name: info for info in (
    AlgorithmInfo(Algorithm.CFR, "Vanilla CFR", "cfrviz.solvers.cfr:VanillaCFR", False),
    AlgorithmInfo(Algorithm.CFR_PLUS, "CFR+", "cfrviz.solvers.cfr:CFRPlus", False),
    AlgorithmInfo(Algorithm.LINEAR_CFR, "Linear CFR", "cfrviz.solvers.cfr:LinearCFR", False),
    AlgorithmInfo(Algorithm.DISCOUNTED_CFR, "Discounted CFR", "cfrviz.solvers.cfr:DiscountedCFR", False),
    AlgorithmInfo(Algorithm.PREDICTIVE_CFR_PLUS, "Predictive CFR+", "cfrviz.solvers.cfr:PredictiveCFRPlus", False, _ALTERNATING_ONLY),
    AlgorithmInfo(Algorithm.DISCOUNTED_CFR_PLUS, "DCFR+", "cfrviz.solvers.cfr:DiscountedCFRPlus", False, _ALTERNATING_ONLY),
    AlgorithmInfo(Algorithm.PREDICTIVE_DISCOUNTED_CFR_PLUS, "PDCFR+",
                  "cfrviz.solvers.cfr:PredictiveDiscountedCFRPlus", False, _ALTERNATING_ONLY),
    AlgorithmInfo(Algorithm.CHANCE_SAMPLING, "Chance-sampling MCCFR", "cfrviz.solvers.sampling:ChanceSampling", True),
    # Each traversal (external) or episode (outcome) samples for one player, so alternating by definition.
    AlgorithmInfo(Algorithm.EXTERNAL_SAMPLING, "External-sampling MCCFR", "cfrviz.solvers.sampling:ExternalSampling", True, _ALTERNATING_ONLY),
    AlgorithmInfo(Algorithm.OUTCOME_SAMPLING, "Outcome-sampling MCCFR", "cfrviz.solvers.sampling:OutcomeSampling", True, _ALTERNATING_ONLY),
    AlgorithmInfo(Algorithm.REGRET_MATCHING, "Regret matching", "cfrviz.solvers.matrix:MatrixRegretMatching", True),
)}

#: An update rule's name: lower case (links and files read names case-blind), no spaces or commas.
CUSTOM_NAME = re.compile(r"[a-z0-9][a-z0-9+._-]{0,39}")
#: The environment variable naming update rules to load at import (`cfrviz.solvers.custom`).
MINIMIZERS_VARIABLE = "CFRVIZ_MINIMIZERS"

_CUSTOM: dict[str, AlgorithmInfo] = {}
_CUSTOM_MEMBERS: dict[str, Algorithm] = {}
#: Why an entry of MINIMIZERS_VARIABLE did not load, by entry: said where its name is then unknown.
LOAD_ERRORS: dict[str, str] = {}


class _Algorithms(Mapping[str, AlgorithmInfo]):
    """The built-in algorithms, then the update rules registered at run time, in registration order."""

    def __getitem__(self, name: str) -> AlgorithmInfo:
        found = _BUILT_IN.get(name)
        return found if found is not None else _CUSTOM[name]

    def __iter__(self) -> Iterator[str]:
        yield from _BUILT_IN
        yield from [info.name for info in list(_CUSTOM.values())]

    def __len__(self) -> int:
        return len(_BUILT_IN) + len(_CUSTOM)

    def __contains__(self, name: object) -> bool:
        return name in _BUILT_IN or name in _CUSTOM


#: Every algorithm by name: the built-in ones and any registered update rule (read live).
ALGORITHMS: Mapping[str, AlgorithmInfo] = _Algorithms()


def add_custom_algorithm(name: str, title: str, solver: str,
                         update_schemes: tuple[UpdateScheme, ...] = UPDATE_SCHEMES) -> AlgorithmInfo:
    """Record an update rule's metadata under `name` (replacing an update rule of that name); the
    solver layer (`cfrviz.solvers.custom.register_minimizer`) calls this. ValueError for a bad name."""
    if not isinstance(name, str) or not CUSTOM_NAME.fullmatch(name):
        raise ValueError(f"An update rule's name is 1 to 40 characters of lower-case letters, digits and + . _ - "
                         f"(starting with a letter or digit), not {name!r}.")
    if name in _BUILT_IN:
        raise ValueError(f"{name!r} is a built-in algorithm's name; give the update rule another.")
    member = _CUSTOM_MEMBERS.get(name)
    if member is None:
        member = str.__new__(Algorithm, name)
        member._name_, member._value_ = name, name
    info = AlgorithmInfo(member, title, solver, False, update_schemes, custom=True)
    _CUSTOM_MEMBERS[name] = member
    _CUSTOM[name] = info
    return info


def remove_custom_algorithm(name: str) -> None:
    """Forget the update rule `name` (no error when it is not registered)."""
    _CUSTOM.pop(name, None)
    _CUSTOM_MEMBERS.pop(name, None)


def unknown_algorithm(name: object) -> str:
    """The sentence for a name no algorithm has: the choices, and how an update rule of one's own is
    registered (with why an entry of MINIMIZERS_VARIABLE failed to load, if one did)."""
    shown = name if isinstance(name, str) and len(name) <= 60 else type(name).__name__
    text = (f"Unknown algorithm {shown!r}; choose one of: {', '.join(ALGORITHMS)}. An update rule of your own "
            f"must be registered in this process first (cfrviz.register_minimizer, or {MINIMIZERS_VARIABLE}="
            "module:Class).")
    for entry, error in LOAD_ERRORS.items():
        text += f" {MINIMIZERS_VARIABLE} entry {entry!r} did not load: {error}"
    return text
