"""Judging a strategy: best responses and exploitability (`best_responses`), the known equilibria
(`equilibria`), exact values from the sequence-form LP (`lp`), each game's reference value
(`reference`) and the inspector's per-update numbers (`inspector`).

The names of `best_responses` and `equilibria` are re-exported here.
"""
from __future__ import annotations

from cfrviz.analysis.best_responses import (BestResponse, HistoryValues, best_response, expected_value, exploitability,
                                            exploitability_many, exploitability_pairs, history_values, nash_conv)
from cfrviz.analysis.equilibria import (ALPHA_MAX, KUHN_VALUE, LEDUC_VALUE, closest_alpha, distance_to_equilibrium,
                                        kuhn_equilibrium, matrix_equilibrium, matrix_strategy)

__all__ = ["ALPHA_MAX", "KUHN_VALUE", "LEDUC_VALUE", "BestResponse", "HistoryValues", "best_response",
           "closest_alpha", "distance_to_equilibrium", "expected_value", "exploitability", "exploitability_many",
           "exploitability_pairs", "history_values", "kuhn_equilibrium", "matrix_equilibrium", "matrix_strategy",
           "nash_conv"]
