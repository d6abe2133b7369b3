"""The vocabularies, where the solvers first named them: they live in `cfrviz.util.vocabulary`, at the
bottom layer, so the catalog and the rules can use them too. Kept so existing imports keep working."""
from __future__ import annotations

from cfrviz.util.vocabulary import (ALGORITHMS, DEFAULT_UPDATES, UPDATE_SCHEMES, Algorithm, AlgorithmInfo,
                                    AverageWeight, Family, Player, RegretMode, StrategyKind, UpdateScheme)

__all__ = ["ALGORITHMS", "DEFAULT_UPDATES", "UPDATE_SCHEMES", "Algorithm", "AlgorithmInfo", "AverageWeight",
           "Family", "Player", "RegretMode", "StrategyKind", "UpdateScheme"]
