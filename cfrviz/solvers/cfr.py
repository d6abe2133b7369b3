"""The deterministic CFR family: one compiled core with flags, thin named presets.

As in OpenSpiel's `_CFRSolver`, the presets differ only in flags: regret matching+
on or off, alternating or simultaneous updates, the weight of each iteration in the
average strategy, regret discounting, and predictive regret matching (the last
instantaneous regret as the prediction of the next). The hot loop is
`_cfr_kernel.run_iterations`.

Symbols used in the docstrings below, for one information set I of player i and each
legal action a: r^t(I, a) is iteration t's instantaneous counterfactual regret (the
opponent's and chance's reach times v(I, a) - v(I), summed over I's histories),
R^t(I, a) the cumulative regret, sigma^t(I) the strategy played in iteration t,
pi_i^t(I) player i's own reach of I under sigma^t, [x]^+ = max(x, 0), and
RM(x) = [x]^+ / sum_a [x]^+ (uniform when no entry is positive). The average strategy is
sum_t w_t pi_i^t(I) sigma^t(I), normalised.
"""
from __future__ import annotations

import numpy as np

from cfrviz.solvers import _cfr_kernel as kernel
from cfrviz.solvers._interpreted import pick
from cfrviz.solvers._kernel_tree import kernel_tree
from cfrviz.solvers.base import Solver
from cfrviz.util.vocabulary import DEFAULT_UPDATES, Algorithm, AverageWeight, RegretMode, UpdateScheme
from cfrviz.tree import GameTree


class FullTraversalCFR(Solver):
    """Full-tree CFR with flags (the walkthrough replays them); not registered itself, the presets below are."""

    regret_mode: RegretMode = RegretMode.PLAIN
    #: regret matching on R^t + r^t rather than on R^t (PCFR+, PDCFR+)
    predictive: bool = False
    average_mode: AverageWeight = AverageWeight.UNIFORM
    alpha: float = 0.0
    beta: float = 0.0
    gamma: float = 0.0
    #: c in the discount t^alpha / (t^alpha + c); the papers use 1
    discount_offset: float = 1.0

    def __init__(self, tree: GameTree, *, updates: str = DEFAULT_UPDATES, seed: int = 0) -> None:
        super().__init__(tree, updates=updates, seed=seed)
        self.current_strategy = np.array(tree.uniform_strategy(), dtype=np.float64)
        # The strategy the next iteration plays; regret matching of zero regret is uniform.
        self._next = self.current_strategy.copy()
        #: [I, A] each player's instantaneous regret r^t of their last pass (predictive variants)
        self.instantaneous_regret = np.zeros(tree.legal.shape)
        # Each set's own reach summed over its histories in the last pass: the weight its
        # strategy gets in the average (as the classic tutorial code accumulates it, history by history).
        self._reach_weight = np.zeros(tree.num_infosets)
        self._reach = np.zeros((tree.num_nodes, 3))
        self._value = np.zeros(tree.num_nodes)
        arrays = kernel_tree(tree)      # unsigned indices, made once per tree
        self._tree_arrays = (
            arrays.parent, arrays.actor, arrays.infoset, arrays.chance_probability, arrays.payoff,
            arrays.first_child, arrays.num_children, arrays.action_index, arrays.infoset_player,
            arrays.num_actions, arrays.kind, arrays.decision, arrays.decision_start,
            arrays.own_parent, arrays.own_action, arrays.histories,
        )
        self._prunable = arrays.prunable
        self._no_outputs = kernel.empty_outputs(tree.num_infosets, tree.max_actions)
        self._no_schedule = np.zeros(0, dtype=np.int64)

    def iterate(self, n: int = 1) -> None:
        """Run n more iterations in one compiled call."""
        self.advance(n, self._no_schedule, 0, self._no_outputs)

    def advance(self, n: int, schedule: np.ndarray, first_snapshot: int,
                outputs: tuple[np.ndarray, ...]) -> int:
        """Run n more iterations, writing a snapshot at each iteration in schedule[first_snapshot:].

        outputs are (cumulative_regret [T, I, A], current_strategy [T, I, A],
        average_strategy [T, I, A], value [T], expected_value [T], nodes_touched [T]).
        Returns the index of the next snapshot to write.
        """
        if n < 1:
            return first_snapshot
        passes = 2 if self.updates == UpdateScheme.ALTERNATING else 1
        # While the warm-up compiles the kernel, a small call runs its source interpreted: same numbers.
        run_iterations = pick(kernel.run_iterations, self.tree.num_nodes * passes * n)
        # Pruning gives the same bits; interpreted, its bookkeeping costs more than it saves.
        prune = self._prunable and run_iterations is kernel.run_iterations
        last_value, value_sum, nodes, s = run_iterations(
            *self._tree_arrays, prune,
            self.cumulative_regret, self.instantaneous_regret, self.strategy_sum, self._next,
            self.current_strategy, self._reach_weight, self._reach, self._value,
            self.iterations, int(n), self.updates == UpdateScheme.ALTERNATING, int(self.regret_mode), bool(self.predictive),
            float(self.alpha), float(self.beta), float(self.discount_offset), int(self.average_mode),
            float(self.gamma),
            float(self.value_sum), int(self.nodes_touched),
            schedule, int(first_snapshot), *outputs)
        self.iterations += int(n)
        self.last_value = float(last_value)
        self.value_sum = float(value_sum)
        self.nodes_touched = int(nodes)
        return int(s)

    def next_strategy(self) -> np.ndarray:
        """[I, A] the strategy the next iteration will play."""
        return self._next.copy()


class VanillaCFR(FullTraversalCFR):
    """Vanilla counterfactual regret minimization (Zinkevich, Johanson, Bowling and Piccione 2007).

    Regret matching on cumulative counterfactual regret; the average strategy weights every
    iteration by the player's own reach. `updates="simultaneous"` reproduces the classic tutorial code
    (Neller and Lanctot) digit for digit.
    """

    algorithm = Algorithm.CFR


class CFRPlus(FullTraversalCFR):
    """CFR+ (Tammelin 2014; Tammelin, Burch, Johanson and Bowling 2015).

    Regret matching+ (cumulative regrets clipped at zero after every player's pass) and
    linear averaging: iteration t counts with weight t, as OpenSpiel's CFRPlusSolver does.
    Meant for alternating updates.
    """

    algorithm = Algorithm.CFR_PLUS
    regret_mode = RegretMode.PLUS
    average_mode = AverageWeight.LINEAR


class DiscountedCFR(FullTraversalCFR):
    """Discounted CFR (Brown and Sandholm 2019), with their recommended alpha=1.5, beta=0, gamma=2.

    After iteration t, positive cumulative regrets are scaled by t^alpha / (t^alpha + 1) and
    negative ones by t^beta / (t^beta + 1); iteration t adds to the average with weight t^gamma.
    """

    algorithm = Algorithm.DISCOUNTED_CFR
    regret_mode = RegretMode.DISCOUNT
    average_mode = AverageWeight.POWER
    alpha = 1.5
    beta = 0.0
    gamma = 2.0


class LinearCFR(DiscountedCFR):
    """Linear CFR (Brown and Sandholm 2019): DCFR with alpha = beta = gamma = 1.

    Iteration t's regrets and average-strategy contribution both count with weight t.
    """

    algorithm = Algorithm.LINEAR_CFR
    alpha = 1.0
    beta = 1.0
    gamma = 1.0


class PredictiveCFRPlus(FullTraversalCFR):
    """Predictive CFR+ (Farina, Kroer and Sandholm, "Faster Game Solving via Predictive
    Blackwell Approachability", AAAI 2021), with quadratic averaging and alternating updates.

    Predictive regret matching+ at every information set, the prediction being the last
    instantaneous regret (m^{t+1} = r^t):
        R^t = [R^{t-1} + r^t]^+,    sigma^{t+1} = RM(R^t + r^t),    w_t = t^2.
    """

    algorithm = Algorithm.PREDICTIVE_CFR_PLUS
    regret_mode = RegretMode.PLUS
    predictive = True
    average_mode = AverageWeight.POWER
    gamma = 2.0


class DiscountedCFRPlus(FullTraversalCFR):
    """DCFR+ (Xu et al., "AutoCFR: Learning to Design Counterfactual Regret Minimization
    Algorithms", AAAI 2022), with alpha = 1.5, gamma = 4 and alternating updates.

    Regret matching+ on cumulative regret discounted before each new iteration is added:
        R^t = [R^{t-1} (t-1)^alpha / ((t-1)^alpha + 1) + r^t]^+,    sigma^{t+1} = RM(R^t),
        w_t = t^gamma.
    The kernel stores R^t already multiplied by t^alpha / (t^alpha + 1), the factor the next
    iteration applies; regret matching is unchanged by that positive scale.
    """

    algorithm = Algorithm.DISCOUNTED_CFR_PLUS
    regret_mode = RegretMode.DISCOUNT_PLUS
    average_mode = AverageWeight.POWER
    alpha = 1.5
    gamma = 4.0


class PredictiveDiscountedCFRPlus(DiscountedCFRPlus):
    """PDCFR+ (Xu et al., "Minimizing Weighted Counterfactual Regret with Optimistic Online
    Mirror Descent", IJCAI 2024), with alpha = 2.3, gamma = 5 and alternating updates.

    DCFR+'s discounted regret matching+ made predictive, the prediction being the last
    instantaneous regret:
        R^t = [R^{t-1} (t-1)^alpha / ((t-1)^alpha + 1) + r^t]^+,
        sigma^{t+1} = RM(R^t t^alpha / (t^alpha + 1) + r^t),    w_t = t^gamma.
    """

    algorithm = Algorithm.PREDICTIVE_DISCOUNTED_CFR_PLUS
    predictive = True
    alpha = 2.3
    gamma = 5.0
