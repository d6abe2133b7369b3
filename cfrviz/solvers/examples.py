"""Update rules written through the extension point (`cfrviz.solvers.custom`), as worked examples.

`NumpyCFRPlus` is CFR+ (Tammelin 2014; Tammelin, Burch, Johanson and Bowling 2015) in plain NumPy:
regret matching+ (cumulative regret floored at zero after each pass) and linear averaging
(iteration t weighs t), the rules of the built-in `cfr+` kernel (`cfrviz.solvers.cfr.CFRPlus`).
It reaches the kernel's numbers to rounding (tests/unit/solvers/test_custom_rule.py). Not registered
by default; to try it:

    cfrviz.register_minimizer("numpy-cfr+", NumpyCFRPlus)
    # or, for the app and the CLI: CFRVIZ_MINIMIZERS=cfrviz.solvers.examples:NumpyCFRPlus
"""
from __future__ import annotations

import numpy as np

from cfrviz.solvers.custom import RegretMinimizer

__all__ = ["NumpyCFRPlus", "PlainCFRPlus"]


class NumpyCFRPlus(RegretMinimizer):
    """CFR+ through the extension point: R <- [R + r]^+, strategy sum += t * own reach * strategy,
    next strategy regret matching on R (the base class's).

    The pass adds r into R history by history (`regret_in_pass`), as the kernel does, so the two
    round alike; `update` then floors R at zero.
    """

    name = "numpy-cfr+"
    title = "CFR+ (NumPy rule)"
    regret_in_pass = True

    def update(self, t: int, sets: np.ndarray, regret: np.ndarray, own_reach: np.ndarray,
               strategy: np.ndarray) -> None:
        self.strategy_sum[sets] += (t * own_reach)[:, None] * strategy
        self.cumulative_regret[sets] = np.maximum(self.cumulative_regret[sets], 0.0)   # R + r is in already


class PlainCFRPlus(RegretMinimizer):
    """CFR+ written as the papers write it, R <- [R + r]^+ with r summed first: the same rule as
    `NumpyCFRPlus`, rounded differently (equal to the kernel to 1e-13 on Kuhn; on Leduc the
    difference grows with the iterations, see `RegretMinimizer.regret_in_pass`)."""

    name = "plain-cfr+"
    title = "CFR+ (NumPy rule, r summed first)"

    def update(self, t: int, sets: np.ndarray, regret: np.ndarray, own_reach: np.ndarray,
               strategy: np.ndarray) -> None:
        self.strategy_sum[sets] += (t * own_reach)[:, None] * strategy
        self.cumulative_regret[sets] = np.maximum(self.cumulative_regret[sets] + regret, 0.0)
