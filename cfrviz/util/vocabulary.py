"""The vocabularies every layer shares, as types: algorithms, update schemes, players, strategy
kinds and kernel modes, plus one frozen record of metadata per algorithm.

The string values are the ones links, saved runs and the CLI carry, so they never change; a
`StrEnum` member compares and hashes equal to its string, so files and links written with plain
strings read back as members. This module imports nothing from cfrviz and sits in the bottom
layer, so the catalog, the solvers (and their compiled kernels) and the app all use it.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import IntEnum, StrEnum


class Algorithm(StrEnum):
    """The registry names used by `cfrviz.solve`, links, saved runs and the CLI."""

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


_ALTERNATING_ONLY = (UpdateScheme.ALTERNATING,)

ALGORITHMS: Mapping[str, AlgorithmInfo] = {info.name: info for info in (
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
