"""One CFR iteration, replayed step by step as plain data for teaching.

`trace_iteration` walks the compiled tree from a given solver state (cumulative
regret and strategy sum before iteration t) the way the solver does, and records
every event in traversal order: a node is visited with the reach probabilities
passed down and its current strategy; on the way back each action's utility,
the node's utility, the regrets and the updates to the cumulative regret and
strategy sum. Applying the recorded updates gives the state after iteration t
(tests check it against the real solver's `iterate(1)`).

Utilities are from the acting player's point of view at a decision node, as in
a chance-sampled iteration worked by hand (deal Q vs K from uniform: node Q kb is worth 1.5 to player 2).
The recursion is plain Python: it is for one iteration of a small game, on screen.
"""
from __future__ import annotations

import copy
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, NamedTuple

import numpy as np

from cfrviz.util.vocabulary import Algorithm, Player
from cfrviz.solvers import DEFAULT_UPDATES, UPDATE_SCHEMES, AverageWeight, RegretMode, UpdateScheme, solver_class
from cfrviz.solvers.base import regret_matching
from cfrviz.solvers.cfr import FullTraversalCFR
from cfrviz.solvers.sampling import ChanceSampling
from cfrviz.tree import GameTree

#: The algorithms a walkthrough can replay: the full-traversal CFR family and chance sampling.
WALKTHROUGH_ALGORITHMS: tuple[Algorithm, ...] = (
    Algorithm.CFR, Algorithm.CFR_PLUS, Algorithm.LINEAR_CFR, Algorithm.DISCOUNTED_CFR, Algorithm.PREDICTIVE_CFR_PLUS,
    Algorithm.DISCOUNTED_CFR_PLUS, Algorithm.PREDICTIVE_DISCOUNTED_CFR_PLUS, Algorithm.CHANCE_SAMPLING)
#: Vanilla CFR and chance sampling add regrets and nothing else; every other variant clips,
#: discounts or predicts at the end of each pass, so its sums are final only after it.
PLAIN_SUMS: frozenset[Algorithm] = frozenset({Algorithm.CFR, Algorithm.CHANCE_SAMPLING})


class StepKind(StrEnum):
    """What one step of a walkthrough is (`Step.kind`); the browser's walkthrough mode reads the values."""

    VISIT = "visit"         # going down into a decision node
    CHANCE = "chance"       # a chance node: all outcomes for vanilla CFR, one sampled for chance sampling
    TERMINAL = "terminal"   # a leaf and its payoff
    RETURN = "return"       # leaving a decision node with its utilities, regrets and updates
    FINISH = "finish"       # the end of a pass: the regret transform of CFR+, DCFR, DCFR+, and the prediction


@dataclass(frozen=True)
class Step:
    """One event of the traversal.

    kind      a `StepKind`: visit, chance, terminal, return, or finish (the end of a pass:
              CFR+ clipping, DCFR discounting or DCFR+ clipping and discounting of the
              cumulative regret, if any, and for PCFR+ and PDCFR+ the prediction)
    traverser the player whose regrets this pass updates, or -1 when both are updated
              at once (simultaneous updates)
    reach     reach probability of this history: (player 1, player 2, chance)
    For return steps, arrays are over the node's legal actions:
      action_utility        the acting player's utility after each action
      node_utility          sum over actions of strategy x action_utility
      regret                action_utility - node_utility
      counterfactual_weight opponent-and-chance reach (over the sampling probability
                            for chance sampling); the regret update is weight x regret
      regret_update         what is added to the information set's cumulative regret
      strategy_weight       the acting player's own reach (times the iteration's
                            averaging weight: t for CFR+ and linear CFR, t^gamma for
                            DCFR (2), PCFR+ (2), DCFR+ (4) and PDCFR+ (5));
                            the strategy-sum update is weight x strategy
      strategy_sum_update   what is added to the information set's strategy sum
    At a terminal or chance step, node_utility is player 1's value.
    """

    index: int
    kind: StepKind
    node: int
    history: str
    traverser: int
    player: int
    information_set: str
    information_set_id: int
    actions: tuple[str, ...]
    reach: tuple[float, float, float]
    strategy: tuple[float, ...] = ()
    action_utility: tuple[float, ...] = ()
    node_utility: float = 0.0
    regret: tuple[float, ...] = ()
    counterfactual_weight: float = 0.0
    regret_update: tuple[float, ...] = ()
    strategy_weight: float = 0.0
    strategy_sum_update: tuple[float, ...] = ()
    text: str = ""


@dataclass(frozen=True, eq=False)
class IterationTrace:
    """Every step of one iteration, with the state before and after.

    cumulative_regret_before/after [I, A], strategy_sum_before/after [I, A], and
    strategy [I, A] (the current strategy at the start of the iteration, from
    regret matching on the cumulative regret before; for PCFR+ and PDCFR+ on it plus
    the prediction, the last instantaneous regret); next_strategy [I, A]: what
    iteration t + 1 plays. `deal` names the sampled root
    chance outcome (chance sampling) or is None. `value` is player 1's utility of the
    iteration's traversal (the first pass under alternating updates).
    """

    tree: GameTree
    algorithm: Algorithm
    updates: str
    iteration: int
    deal: str | None
    steps: tuple[Step, ...]
    strategy: np.ndarray
    cumulative_regret_before: np.ndarray
    cumulative_regret_after: np.ndarray
    strategy_sum_before: np.ndarray
    strategy_sum_after: np.ndarray
    value: float
    next_strategy: np.ndarray | None = None


def _fmt(values: Iterable[float]) -> str:
    # Adding 0.0 turns -0.0 (player 2's sign flip of a zero) into 0.0.
    return "[" + ", ".join(f"{v + 0.0:+.4g}" for v in values) + "]"


@dataclass(frozen=True)
class _Rules:
    """How a pass ends, read from the solver class: averaging weight and regret transform."""

    average_mode: AverageWeight = AverageWeight.UNIFORM
    clip: bool = False         # CFR+: negative cumulative regret set to zero
    discount: bool = False     # DCFR: positive x t^alpha/(t^alpha+1), negative x t^beta/(t^beta+1)
    clip_discount: bool = False  # DCFR+, PDCFR+: negative set to zero, positive x t^alpha/(t^alpha+1)
    predictive: bool = False   # PCFR+, PDCFR+: the next strategy is regret matching on R + r
    alpha: float = 0.0
    beta: float = 0.0
    gamma: float = 0.0
    offset: float = 1.0

    def average_weight(self, t: int) -> float:
        # Zinkevich et al. 2007 (1), CFR+ / linear averaging (t), DCFR (t^gamma; Brown & Sandholm 2019).
        weights = {AverageWeight.UNIFORM: 1.0, AverageWeight.LINEAR: float(t), AverageWeight.POWER: float(float(t) ** self.gamma)}
        return weights[self.average_mode]


def _rules(algorithm: str) -> _Rules:
    cls = solver_class(algorithm)
    if not issubclass(cls, FullTraversalCFR):    # chance sampling keeps vanilla CFR's rules
        return _Rules()
    mode = cls.regret_mode
    return _Rules(cls.average_mode, clip=mode == RegretMode.PLUS, discount=mode == RegretMode.DISCOUNT,
                  clip_discount=mode == RegretMode.DISCOUNT_PLUS, predictive=cls.predictive,
                  alpha=cls.alpha, beta=cls.beta, gamma=cls.gamma, offset=cls.discount_offset)


class _Tracer:
    def __init__(self, tree: GameTree, cumulative_regret: np.ndarray, strategy_sum: np.ndarray,
                 rules: _Rules, iteration: int, sampler: _ChanceSampler | None, prediction: np.ndarray) -> None:
        self.tree = tree
        self.regret = np.array(cumulative_regret, dtype=float)
        self.prediction = np.array(prediction, dtype=float)
        self.strategy_sum = np.array(strategy_sum, dtype=float)
        self.rules = rules
        self.iteration = iteration
        self.average_weight = rules.average_weight(iteration)
        self.sampler = sampler      # chance node -> sampled child index, or None for full width
        self.sampled: dict[int, int] = {}
        self.steps: list[Step] = []

    def _info(self, node: int) -> tuple[int, str, tuple[str, ...]]:
        i = int(self.tree.infoset[node])
        if i < 0:
            return -1, "", ()
        record = self.tree.infosets[i]
        return i, record.key, record.actions

    def add(self, **fields: Any) -> None:
        self.steps.append(Step(index=len(self.steps), **fields))

    def pass_(self, traverser: int, strategy: np.ndarray) -> float:
        regret_delta = np.zeros_like(self.regret)
        sum_delta = np.zeros_like(self.strategy_sum)
        if self.sampler is not None:
            self.sampler.begin_pass()
        value = self._walk(0, (1.0, 1.0, 1.0), 1.0, traverser, strategy, regret_delta, sum_delta)
        # Every node of a pass plays the strategy fixed at its start, so adding the
        # updates at the end equals adding them on the way (Zinkevich et al. 2007).
        self.regret += regret_delta
        self.strategy_sum += sum_delta
        self._finish(traverser, regret_delta)
        return value

    def next_strategy(self) -> np.ndarray:
        """[I, A] regret matching on the cumulative regret (plus the prediction, for predictive variants)."""
        if self.rules.predictive:
            return regret_matching(self.regret + self.prediction, self.tree.legal)
        return regret_matching(self.regret, self.tree.legal)

    def _finish(self, traverser: int, regret_delta: np.ndarray) -> None:
        rules, t = self.rules, self.iteration
        mine = (self.tree.infoset_player == traverser) if traverser >= 0 else np.ones(self.tree.num_infosets, bool)
        who = "both players" if traverser < 0 else f"player {traverser + 1}"
        if rules.predictive:
            # Farina, Kroer and Sandholm 2021: this pass's regret predicts the next one.
            self.prediction[mine] = regret_delta[mine]
        if rules.clip_discount:
            # Xu et al. 2022 (DCFR+) and 2024 (PDCFR+): clip, then discount before the next iteration adds.
            scale = t ** rules.alpha / (t ** rules.alpha + rules.offset)
            self.regret[mine] = np.maximum(self.regret[mine], 0.0) * scale
            text = (f"End of the pass: every negative cumulative regret of {who} is set to zero and the "
                    f"rest multiplied by {scale:.4g} (t^{rules.alpha:g} / (t^{rules.alpha:g} + 1)).")
        elif rules.clip:
            self.regret[mine] = np.maximum(self.regret[mine], 0.0)
            text = f"End of the pass: CFR+ sets every negative cumulative regret of {who} to zero."
        elif rules.discount:
            # Brown and Sandholm 2019, DCFR: discount after adding iteration t's regrets.
            up = t ** rules.alpha / (t ** rules.alpha + 1.0)
            down = t ** rules.beta / (t ** rules.beta + 1.0)
            block = self.regret[mine]
            self.regret[mine] = np.where(block >= 0.0, block * up, block * down)
            text = (f"End of the pass: the cumulative regret of {who} is discounted, positive "
                    f"entries x {up:.4g}, negative x {down:.4g}.")
        else:
            text = f"End of the pass: the regrets and strategy sums of {who} are now updated."
        if rules.predictive:
            text += (" The next strategy is regret matching on that cumulative regret plus this pass's "
                     "regret, the prediction of the next one.")
        self.add(kind=StepKind.FINISH, node=0, history=self.tree.node_label[0], traverser=traverser, player=-1,
                 information_set="", information_set_id=-1, actions=(), reach=(1.0, 1.0, 1.0),
                 strategy_weight=self.average_weight, text=text)

    def _walk(self, node: int, reach: tuple[float, float, float], q: float, traverser: int,
              strategy: np.ndarray, regret_delta: np.ndarray, sum_delta: np.ndarray) -> float:
        tree = self.tree
        who = int(tree.actor[node])
        label = tree.node_label[node]
        if who == Player.TERMINAL:
            payoff = float(tree.payoff[node])
            self.add(kind=StepKind.TERMINAL, node=node, history=label, traverser=traverser, player=who,
                     information_set="", information_set_id=-1, actions=(), reach=reach,
                     node_utility=payoff,
                     text=f"Terminal {label}: player 1 gets {payoff:+g}, player 2 {-payoff:+g}.")
            return payoff
        children = tree.children(node)
        if who == Player.CHANCE:
            names = tuple(tree.edge_label[c] for c in children)
            probs = tuple(float(tree.chance_probability[c]) for c in children)
            if self.sampler is not None:
                k = self.sampler(node)
                self.sampled[node] = k
                picks = [k]
                text = (f"Chance at {label} samples {names[k]} (probability {probs[k]:.4g}); "
                        "only that branch is walked this iteration.")
            else:
                picks = list(range(len(children)))
                text = f"Chance at {label}: every outcome is walked, each weighted by its probability."
            self.add(kind=StepKind.CHANCE, node=node, history=label, traverser=traverser, player=who,
                     information_set="", information_set_id=-1, actions=names, reach=reach,
                     strategy=probs, text=text)
            value = 0.0
            for k in picks:
                p = probs[k]
                child_q = q * p if self.sampler is not None else q
                child_value = self._walk(children[k], (reach[0], reach[1], reach[2] * p), child_q, traverser,
                                         strategy, regret_delta, sum_delta)
                # A sampled branch stands for the whole node (its value is not reweighted by p).
                value += child_value if self.sampler is not None else p * child_value
            return value

        i, key, actions = self._info(node)
        n = len(actions)
        sigma = strategy[i, :n]
        self.add(kind=StepKind.VISIT, node=node, history=label, traverser=traverser, player=who,
                 information_set=key, information_set_id=i, actions=actions, reach=reach,
                 strategy=tuple(float(s) for s in sigma),
                 text=(f"Player {who + 1} at {label} (information set {key!r}) plays "
                       + ", ".join(f"{a} {s:.3g}" for a, s in zip(actions, sigma))
                       + f"; reach probabilities passed down: player 1 {reach[0]:.4g}, "
                       f"player 2 {reach[1]:.4g}, chance {reach[2]:.4g}."))
        child_values = np.empty(n)
        for k, c in enumerate(children):
            r = list(reach)
            r[who] *= float(sigma[k])
            child_values[k] = self._walk(c, (r[0], r[1], r[2]), q, traverser, strategy, regret_delta, sum_delta)
        sign = 1.0 if who == 0 else -1.0
        utility = sign * child_values                       # the acting player's view
        node_utility = float(sigma @ utility)
        regret = utility - node_utility
        updating = traverser < 0 or traverser == who
        weight = reach[1 - who] * reach[2] / q              # counterfactual reach (sampled: / q)
        own = reach[who] * self.average_weight
        regret_update = weight * regret if updating else np.zeros(n)
        sum_update = own * sigma if updating else np.zeros(n)
        regret_delta[i, :n] += regret_update
        sum_delta[i, :n] += sum_update
        if updating:
            text = (f"Back at {label}: utilities {_fmt(utility)}, node utility {node_utility:+.4g}, "
                    f"regrets {_fmt(regret)}; cumulative regret += {weight:.4g} x regret = "
                    f"{_fmt(regret_update)}; strategy sum += {own:.4g} x strategy = {_fmt(sum_update)}.")
        else:
            text = (f"Back at {label}: utilities {_fmt(utility)}, node utility {node_utility:+.4g}; "
                    f"player {who + 1} is not updated in this pass.")
        self.add(kind=StepKind.RETURN, node=node, history=label, traverser=traverser, player=who,
                 information_set=key, information_set_id=i, actions=actions, reach=reach,
                 strategy=tuple(float(s) for s in sigma),
                 action_utility=tuple(float(u) for u in utility), node_utility=node_utility,
                 regret=tuple(float(r) for r in regret), counterfactual_weight=float(weight),
                 regret_update=tuple(float(u) for u in regret_update), strategy_weight=float(own),
                 strategy_sum_update=tuple(float(u) for u in sum_update), text=text)
        return float(sign * node_utility)


class _ChanceSampler:
    """Chance node -> sampled child index, drawn as the chance-sampling kernel draws
    (`cfrviz.solvers._sampling_kernels._chance_sampled_traversal`).

    One uniform number per chance level and pass: a chance node with j chance nodes above it
    picks with the number drawn for level j, drawn from `rng` when the pass first meets that
    level, so every betting line of one pass sees the same public card. The child is the first
    whose cumulative probability passes the number (round-off falls on the last positive one).
    Handed the solver's own generator before iteration t, a walkthrough picks the kernel's deal
    and board. The root outcome is `deal` (by label) when given, and no number is drawn for it;
    `board` names the public card to use wherever it can be dealt, as a forced kernel does.
    """

    def __init__(self, tree: GameTree, deal: str | None, board: str | None, rng: np.random.Generator) -> None:
        labels = list(deal_options(tree))
        if deal is not None and deal not in labels:
            raise ValueError(f"No deal {deal!r} in {tree.game.title}; choose one of: {', '.join(labels)}.")
        chance = tree.actor == Player.CHANCE
        if board is not None:
            cards = {tree.edge_label[c] for n in np.flatnonzero(chance[1:]) + 1 for c in tree.children(int(n))}
            if board not in cards:
                raise ValueError(f"No public card {board!r} in {tree.game.title}; choose one of: "
                                 f"{', '.join(sorted(cards)) or 'none (it has no public card)'}.")
        # level[n]: how many chance nodes lie above n (ids are breadth first: parents come first).
        level = np.zeros(tree.num_nodes, dtype=np.int64)
        for n in range(1, tree.num_nodes):
            above = int(tree.parent[n])
            level[n] = level[above] + int(chance[above])
        self.tree, self.level, self.rng = tree, level, rng
        self.deal_index = labels.index(deal) if deal is not None else -1
        self.board = board
        self.drawn: dict[int, float] = {}

    def begin_pass(self) -> None:
        """A new traversal draws its own numbers (the kernel's one per player under alternating updates)."""
        self.drawn = {}

    def __call__(self, node: int) -> int:
        tree = self.tree
        children = tree.children(node)
        if node == 0 and self.deal_index >= 0:
            return self.deal_index
        names = [tree.edge_label[c] for c in children]
        if node != 0 and self.board is not None and self.board in names:
            return names.index(self.board)
        level = int(self.level[node])
        if level not in self.drawn:
            self.drawn[level] = float(self.rng.random())
        u, acc, last = self.drawn[level], 0.0, 0
        for k, c in enumerate(children):
            p = float(tree.chance_probability[c])
            if p > 0.0:
                last = k
                acc += p
                if u < acc:
                    return k
        return last


def deal_options(tree: GameTree) -> tuple[str, ...]:
    """Labels of the root chance outcomes (e.g. "QK": player 1 holds Q, player 2 holds K)."""
    if int(tree.actor[0]) != Player.CHANCE:
        return ()
    return tuple(tree.edge_label[c] for c in tree.children(0))


def trace_iteration(tree: GameTree, cumulative_regret: np.ndarray, strategy_sum: np.ndarray, *,
                    algorithm: Algorithm = Algorithm.CFR, updates: str = DEFAULT_UPDATES, iteration: int = 1,
                    deal: str | None = None, board: str | None = None,
                    rng: np.random.Generator | None = None,
                    prediction: np.ndarray | None = None) -> IterationTrace:
    """Replay iteration `iteration` of `algorithm` from the state before it, step by step.

    `cumulative_regret` and `strategy_sum` are [I, A] (e.g. a solver's arrays after t - 1
    iterations); `prediction` [I, A] is the last instantaneous regret, which PCFR+ and
    PDCFR+ add before regret matching (zero when not given). For chance sampling, `deal`
    (and for Leduc `board`) choose the sampled outcomes; otherwise they are drawn from `rng` as
    the solver's kernel draws them (one number per chance level and pass): hand it the solver's
    own generator before iteration t (`solver_state(...).rng`) and the walk deals what the
    solver dealt. `rng` is advanced by the draws.
    """
    if algorithm not in WALKTHROUGH_ALGORITHMS:
        raise ValueError(f"The walkthrough replays {' or '.join(WALKTHROUGH_ALGORITHMS)}, not {algorithm!r}.")
    algorithm = Algorithm(algorithm)
    if updates not in UPDATE_SCHEMES:
        raise ValueError(f"Updates must be 'simultaneous' or 'alternating', not {updates!r}.")
    shape = tree.legal.shape
    before_regret = np.array(cumulative_regret, dtype=float)
    before_sum = np.array(strategy_sum, dtype=float)
    before_prediction = np.zeros(shape) if prediction is None else np.array(prediction, dtype=float)
    if before_regret.shape != shape or before_sum.shape != shape or before_prediction.shape != shape:
        raise ValueError(f"The solver state must be {shape} arrays for {tree.game.title}.")
    sampler = None
    if algorithm == Algorithm.CHANCE_SAMPLING:
        if int(tree.actor[0]) != Player.CHANCE:
            raise ValueError(f"Chance sampling needs a game with a deal; {tree.game.title} has none.")
        sampler = _ChanceSampler(tree, deal, board, rng if rng is not None else np.random.default_rng(0))
    tracer = _Tracer(tree, before_regret, before_sum, _rules(algorithm), int(iteration), sampler,
                     before_prediction)
    start_strategy = tracer.next_strategy()
    if updates == UpdateScheme.SIMULTANEOUS:
        value = tracer.pass_(-1, start_strategy)
    else:
        value = tracer.pass_(0, start_strategy)
        tracer.pass_(1, tracer.next_strategy())
    deal_label = tree.edge_label[tree.children(0)[tracer.sampled[0]]] if 0 in tracer.sampled else None
    next_strategy = tracer.next_strategy()
    for a in (start_strategy, before_regret, before_sum, tracer.regret, tracer.strategy_sum, next_strategy):
        a.setflags(write=False)
    return IterationTrace(tree, algorithm, updates, int(iteration), deal_label, tuple(tracer.steps),
                          start_strategy, before_regret, tracer.regret, before_sum, tracer.strategy_sum,
                          float(value), next_strategy)


class SolverState(NamedTuple):
    """The real solver just before iteration t: cumulative_regret, strategy_sum and prediction [I, A]
    (the last instantaneous regret; zero unless the solver is predictive), and for chance sampling
    `rng`, a copy of the solver's generator as its kernel will draw iteration t from (else None)."""

    cumulative_regret: np.ndarray
    strategy_sum: np.ndarray
    prediction: np.ndarray
    rng: np.random.Generator | None


def solver_state(tree: GameTree, algorithm: str, updates: str, seed: int, iteration: int) -> SolverState:
    """The real solver's state after `iteration` - 1 iterations, with its generator (`SolverState`)."""
    if iteration < 1:
        raise ValueError(f"The iteration to walk through must be at least 1, not {iteration}.")
    solver = solver_class(algorithm)(tree, updates=updates, seed=seed)
    if iteration > 1:
        solver.iterate(iteration - 1)
    if isinstance(solver, FullTraversalCFR) and solver.predictive:
        prediction = solver.instantaneous_regret
    else:
        prediction = np.zeros(tree.legal.shape)
    rng = copy.deepcopy(solver.rng) if isinstance(solver, ChanceSampling) else None
    return SolverState(solver.cumulative_regret.copy(), solver.strategy_sum.copy(),
                       np.array(prediction, dtype=float), rng)

