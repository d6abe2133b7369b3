"""Practice: predict, then reveal. One question per page of the learner's path, answered from the run on screen.

Pure Python (no Streamlit). Each question function returns a `Question` (what the learner sees before
committing: the prompt and, for a choice, its options, never the answer) and an `Answer` (kept on the
server until the learner commits). `reveal(answer, given)` says whether the learner was right, with
the exact number and why.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

import numpy as np

from cfrviz.analysis.best_responses import best_response
from cfrviz.analysis.equilibria import ALPHA_MAX, closest_alpha, distance_to_equilibrium
from cfrviz.solvers.matrix import RegretMatchingPath
from cfrviz.teaching.play import set_values
from cfrviz.teaching.walkthrough import IterationTrace, StepKind
from cfrviz.tree import GameTree

__all__ = ["ALPHA_TOLERANCE", "Answer", "Feedback", "Practice", "Question", "UNIFORM", "alpha_family",
           "next_favoured_action", "play_mistake", "practice_set", "reveal", "shared_information_set", "walkthrough_regret",
           "where_to_exploit"]


class Practice(StrEnum):
    """The practice questions, one per page of the learner's path (the values go into the link's progress)."""

    REGRET_MATCHING = "rm"
    WALKTHROUGH = "walk"
    GAME_TREE = "tree"
    CONVERGENCE = "conv"
    BEST_RESPONSE = "br"
    PLAY = "play"


#: The option that says regret matching plays uniformly (no action has positive regret).
UNIFORM = "none: every action equally"
#: How close (largest difference of any probability) a strategy must be to one of Kuhn's equilibria to count as in the family.
ALPHA_TOLERANCE = 0.02
#: A loss this small is no mistake (floating-point rounding of equal values).
NO_LOSS = 1e-9


@dataclass(frozen=True)
class Question:
    """What the learner sees before committing: a prompt, and the options of a choice (several may be
    right when `many`); no options means a number, checked to `digits` decimals."""

    practice: Practice
    prompt: str
    options: tuple[str, ...] = ()
    many: bool = False
    digits: int = 3


@dataclass(frozen=True)
class Answer:
    """The right answer, kept on the server: the right options, or the right number; `why` shows the arithmetic."""

    options: frozenset[str] = frozenset()
    number: float | None = None
    digits: int = 3
    why: str = ""


@dataclass(frozen=True)
class Feedback:
    """What the learner sees after committing: right or not, the answer in words, and why."""

    correct: bool
    answer: str
    why: str


def reveal(answer: Answer, given: str | float | Sequence[str]) -> Feedback:
    """Check the learner's `given` answer (an option, several options, or a number) against `answer`."""
    if answer.number is not None:
        try:
            value = float(given)  # type: ignore[arg-type]  # a number question takes what float() takes
        except (TypeError, ValueError):
            return Feedback(False, _number(answer.number, answer.digits), "Type a number. " + answer.why)
        correct = round(value, answer.digits) == round(answer.number, answer.digits) or \
            abs(value - answer.number) <= 0.5 * 10.0 ** -answer.digits
        return Feedback(correct, _number(answer.number, answer.digits), answer.why)
    chosen = {given} if isinstance(given, str) else {str(g) for g in given} if not isinstance(given, float) else set()
    return Feedback(chosen == set(answer.options), " and ".join(sorted(answer.options)), answer.why)


def _number(value: float, digits: int) -> str:
    text = f"{value:.{digits}f}"
    return "0" if float(text) == 0 else text.replace("-", "−")


def _list(names: Sequence[str], values: Sequence[float] | np.ndarray, digits: int = 3) -> str:
    return ", ".join(f"{name} {_number(float(v), digits)}" for name, v in zip(names, values))


# Regret matching ---------------------------------------------------------------------------------

def next_favoured_action(path: RegretMatchingPath, index: int, names: Sequence[str],
                         player: int = 0) -> tuple[Question, Answer]:
    """"Which action will the next strategy favour?" after the recorded iteration `index` of `path`:
    regret matching plays each action in proportion to its positive cumulative regret (Hart and
    Mas-Colell 2000), so the favoured actions are those of largest positive regret, or none when no
    regret is positive (then it plays uniformly)."""
    regret = np.asarray((path.regret_row if player == 0 else path.regret_column)[index], dtype=float)
    t = int(path.iterations[index])
    positive = np.maximum(regret, 0.0)
    who = f"Player {player + 1}"
    question = Question(Practice.REGRET_MATCHING,
                        f"{who}'s cumulative regrets after iteration {t:,} are on the chart. Which action will "
                        f"{who.lower()}'s next strategy (iteration {t + 1:,}) play most?", (*names, UNIFORM))
    total = float(positive.sum())
    if total <= 0:
        return question, Answer(frozenset({UNIFORM}), why=(
            f"The cumulative regrets are {_list(names, regret)}: none is positive, so regret matching plays "
            "every action equally."))
    strategy = positive / total
    best = frozenset(names[int(a)] for a in np.flatnonzero(np.isclose(positive, positive.max(), rtol=0, atol=1e-12)))
    return question, Answer(best, why=(
        f"The cumulative regrets are {_list(names, regret)}. Regret matching plays each action in proportion to "
        f"its positive regret (negative counts as 0): {_list(names, positive)} out of {_number(total, 3)}, so the "
        f"next strategy is {_list(names, strategy)}."))


# Walkthrough -------------------------------------------------------------------------------------

def walkthrough_regret(trace: IterationTrace, step: int, action: str = "bet") -> tuple[Question, Answer] | None:
    """"What is this node's regret for `action`?" at the first return step at or after `step` (0-based)
    whose node has that action (or, failing that, at its last action), checked to 3 digits: the
    action's utility minus the node's utility, for the acting player. None when no such step is left."""
    for candidate in trace.steps[max(step, 0):]:
        if candidate.kind != StepKind.RETURN or not candidate.actions or candidate.player not in (0, 1):
            continue
        a = candidate.actions.index(action) if action in candidate.actions else len(candidate.actions) - 1
        name = candidate.actions[a]
        question = Question(Practice.WALKTHROUGH,
                            f"When CFR comes back up to history {candidate.history} (player {candidate.player + 1}'s "
                            f"set {candidate.information_set}), what is this node's regret for {name}? "
                            "(3 decimals)", digits=3)
        regret = float(candidate.regret[a])
        why = (f"Player {candidate.player + 1}'s utility after each action is "
               f"{_list(candidate.actions, candidate.action_utility)}; the node's utility is the strategy's mix, "
               f"{' + '.join(f'{p:.3f}×{u:.3f}' for p, u in zip(candidate.strategy, candidate.action_utility))} "
               f"= {_number(candidate.node_utility, 3)}. The regret for {name} is its utility minus the node's: "
               f"{_number(candidate.action_utility[a], 3)} − ({_number(candidate.node_utility, 3)}) = "
               f"{_number(regret, 3)}. Weighted by the opponent's and chance's reach "
               f"({_number(candidate.counterfactual_weight, 3)}), {_number(candidate.regret_update[a], 3)} is added "
               "to the cumulative regret.")
        return question, Answer(number=regret, digits=3, why=why)
    return None


# Game tree ---------------------------------------------------------------------------------------

def shared_information_set(tree: GameTree, information_set: int, distractors: int = 3) -> tuple[Question, Answer]:
    """"Which of these histories share player k's information set?": the set's histories among others of
    the same player (the nearest ones by node number), in the tree's order. Every history of the set is right."""
    record = tree.infosets[information_set]
    player = int(record.player)
    own = [int(n) for n in tree.nodes_of(information_set)]
    others = [int(n) for n in np.flatnonzero((tree.actor == player) & (tree.infoset >= 0)
                                             & (tree.infoset != information_set))]
    others.sort(key=lambda n: (min(abs(n - m) for m in own), n))
    shown = sorted(own + others[:distractors])
    labels = tuple(str(tree.node_label[n]) for n in shown)
    question = Question(Practice.GAME_TREE,
                        f"Which of these histories does player {player + 1} face without being able to tell them "
                        "apart (one information set)? Choose all of them.", labels, many=True)
    right = frozenset(str(tree.node_label[n]) for n in own)
    return question, Answer(right, why=(
        f"Player {player + 1} knows only what the set's key says, {record.key}: their own cards and the actions "
        f"so far. The histories {', '.join(sorted(right))} differ only in what player {player + 1} cannot see, so "
        f"they form one information set and must be played alike."))


# Convergence -------------------------------------------------------------------------------------

def alpha_family(tree: GameTree, strategy: np.ndarray, t: int) -> tuple[Question, Answer]:
    """"Is this strategy in Kuhn's α-family yet?": yes when every probability is within ALPHA_TOLERANCE of
    the nearest equilibrium of the family (Kuhn 1950), measured by `distance_to_equilibrium`."""
    alpha = closest_alpha(strategy, tree)
    distance = distance_to_equilibrium(strategy, tree)
    question = Question(Practice.CONVERGENCE,
                        f"Is the average strategy at iteration {t:,} one of Kuhn's equilibria (the α-family), to "
                        f"within {ALPHA_TOLERANCE} in every probability?", ("yes", "no"))
    inside = distance <= ALPHA_TOLERANCE
    return question, Answer(frozenset({"yes" if inside else "no"}), why=(
        f"The nearest equilibrium of the family has α = {alpha:.3f} (α runs from 0 to {ALPHA_MAX:.3f}: player 1 "
        f"bets J with α, K with 3α and calls with Q at α + 1/3). The largest difference of any probability from it "
        f"is {distance:.3f}, " + ("within" if inside else "more than") + f" {ALPHA_TOLERANCE}."))


# Best response -----------------------------------------------------------------------------------

def where_to_exploit(tree: GameTree, strategy: np.ndarray, exploiter: int, most: int = 6) -> tuple[Question, Answer]:
    """"Where would you exploit this strategy?": among the exploiter's information sets (the `most` with the
    largest gains and the rest by tree order, at most `most` shown), the one where the best response gains most
    over the strategy's own mix (counterfactual values, best response played below; `BestResponse.gain`)."""
    response = best_response(tree, strategy, exploiter)
    own = [i for i in range(tree.num_infosets) if int(tree.infosets[i].player) == exploiter]
    ranked = sorted(own, key=lambda i: (-response.gain[i], i))
    shown = sorted(ranked[:most])
    keys = tuple(tree.infosets[i].key for i in shown)
    top = float(response.gain[ranked[0]])
    question = Question(Practice.BEST_RESPONSE,
                        f"You are player {exploiter + 1}. At which of your information sets would a change of "
                        "strategy win you the most chips against this strategy?", keys)
    if top <= NO_LOSS:
        right = frozenset(keys)
        why = "Nowhere: no change at any set wins anything, so the strategy is a best response already."
    else:
        right = frozenset(tree.infosets[i].key for i in shown if response.gain[i] >= top - NO_LOSS)
        best = ranked[0]
        why = (f"At {tree.infosets[best].key}, always {response.action_names[best]} gains "
               f"{_number(top, 4)} chips (counterfactual value, weighted by how often the opponent and chance lead "
               "there) over the strategy's own mix. The others gain " + ", ".join(
                   f"{tree.infosets[i].key} {_number(float(response.gain[i]), 4)}" for i in shown if i != best) + ".")
    return question, Answer(right, why=why)


# Play --------------------------------------------------------------------------------------------

def play_mistake(tree: GameTree, strategy: np.ndarray, information_set: str, action: str) -> tuple[Question, Answer]:
    """"Was your `action` a mistake, and by how much?": its EV loss at `information_set` against `strategy`
    (the strategy's value there minus the action's, in the acting player's chips; 0 when it was no mistake),
    checked to 3 digits."""
    numbers = set_values(tree, strategy)
    i = tree.infoset_index(information_set)
    actions = tree.infosets[i].actions
    a = actions.index(action)
    loss = max(float(numbers.loss[i, a]), 0.0)
    loss = 0.0 if loss <= NO_LOSS else loss
    question = Question(Practice.PLAY, f"Was your {action} at {information_set} a mistake? Type how many chips it "
                                       "gave up against the strategy (0 if none; 3 decimals).", digits=3)
    values = numbers.action_value[i]
    return question, Answer(number=loss, digits=3, why=(
        f"At {information_set}, given only what you knew, each action is worth {_list(actions, values)} chips "
        f"when both follow the strategy from there; the strategy's own mix is worth "
        f"{_number(float(numbers.set_value[i]), 3)}. Your {action}: "
        + ("no mistake." if loss == 0 else f"{_number(loss, 3)} chips less than the strategy's mix.")))


def practice_set(tree: GameTree, node: int | None) -> int | None:
    """The information set the tree question asks about: the selected node's when it is player 2's and has
    several histories, else player 2's first such set (None when player 2 has none)."""
    sizes = np.bincount(tree.infoset[tree.infoset >= 0], minlength=tree.num_infosets)
    if node is not None and 0 <= node < tree.num_nodes:
        chosen = int(tree.infoset[node])
        if chosen >= 0 and int(tree.infosets[chosen].player) == 1 and sizes[chosen] > 1:
            return chosen
    for i, record in enumerate(tree.infosets):
        if int(record.player) == 1 and sizes[i] > 1:
            return i
    return None
