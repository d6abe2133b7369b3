"""A narrated line: what the solver just did, in plain words, made from the numbers of the step shown.

Pure Python (no Streamlit). `narrate_step` speaks for one event of the Walkthrough's traversal;
`narrate_iteration` for the Game tree's iteration t (the set whose regret moved most, or the selected one).
"""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from cfrviz.run import Run
from cfrviz.teaching.walkthrough import Step, StepKind

__all__ = ["narrate_iteration", "narrate_step"]


def _n(value: float) -> str:
    """A number as the narration says it: up to 3 decimals, trailing zeros dropped, a true minus sign."""
    text = f"{float(value):.3f}".rstrip("0").rstrip(".")
    text = "0" if text in ("-0", "") else text
    return text.replace("-", "−")


def _pairs(names: Sequence[str], values: Sequence[float] | np.ndarray) -> str:
    return ", ".join(f"{name} {_n(v)}" for name, v in zip(names, values))


def narrate_step(step: Step) -> str:
    """One plain sentence (or two) on what CFR does at `step` of the Walkthrough.

    >>> from cfrviz.teaching.walkthrough import Step
    >>> print(narrate_step(Step(7, "return", 4, "QK kb", -1, 0, "Q kb", 9, ("fold", "call"), (0.5, 0.5, 1 / 6),
    ...       strategy=(0.5, 0.5), action_utility=(-1.0, -2.0), node_utility=-1.5, regret=(0.5, -0.5),
    ...       counterfactual_weight=0.5, regret_update=(0.25, -0.25))))
    Back at QK kb, player 1 (information set Q kb) learns that fold is worth −1 and call −2, against −1.5 for the mix it played: fold did 0.5 better, call 0.5 worse. Weighted by how likely the opponent and chance were to come here (0.5), fold's regret grows by 0.25 and call's by −0.25.
    """
    who = f"player {step.player + 1}" if step.player in (0, 1) else "chance"
    if step.kind == StepKind.CHANCE:
        return step.text    # the traversal's own sentence names the outcome and its probability
    if step.kind == StepKind.VISIT:
        return (f"CFR walks down to {step.history}: {who} (information set {step.information_set}) plays its current "
                f"strategy, {_pairs(step.actions, step.strategy)}, and passes the reach on: player 1 "
                f"{_n(step.reach[0])}, player 2 {_n(step.reach[1])}, chance {_n(step.reach[2])}.")
    if step.kind == StepKind.TERMINAL:
        return f"The hand ends at {step.history}: player 1 gets {_n(step.node_utility)} chips, player 2 " \
               f"{_n(-step.node_utility)}."
    if step.kind == StepKind.RETURN:
        moves = ", ".join(f"{name} {_n(abs(r))} {'better' if r > 0 else 'worse'}" if abs(r) > 1e-12 else
                          f"{name} no different" for name, r in zip(step.actions, step.regret))
        worth = [f"{name} {_n(u)}" for name, u in zip(step.actions, step.action_utility)]
        worth[0] = worth[0].replace(" ", " is worth ", 1)
        values = " and ".join(worth) if len(worth) == 2 else ", ".join(worth)
        grows = " and ".join(f"{name}'s by {_n(u)}" for name, u in zip(step.actions, step.regret_update))
        return (f"Back at {step.history}, {who} (information set {step.information_set}) learns that {values}, against "
                f"{_n(step.node_utility)} for the mix it played: {moves.replace(' ', ' did ', 1)}. Weighted by how "
                f"likely the opponent and chance were to come here ({_n(step.counterfactual_weight)}), "
                f"{grows.replace(' by ', ' regret grows by ', 1)}.")
    return step.text        # the end of a pass: the traversal's own sentence says what was updated


def narrate_iteration(run: Run, snapshot: int, information_set: int | None = None) -> str:
    """What iteration t (the run's `snapshot`) changed: the cumulative regret of `information_set` (by default
    the set whose regret moved most since the previous snapshot), the strategy regret matching now plays
    there, and the average strategy's exploitability."""
    tree = run.tree
    t = int(run.iterations[snapshot])
    before = run.cumulative_regret[snapshot - 1] if snapshot > 0 else np.zeros_like(run.cumulative_regret[0])
    since = f"since iteration {int(run.iterations[snapshot - 1]):,}" if snapshot > 0 else "from the start"
    change = np.where(tree.legal, run.cumulative_regret[snapshot] - before, 0.0)
    if information_set is None:
        information_set = int(np.argmax(np.abs(change).sum(axis=1)))
    record = tree.infosets[information_set]
    count = len(record.actions)
    moved = change[information_set, :count]
    largest = int(np.argmax(np.abs(moved)))
    played = run.current_strategy[snapshot, information_set, :count]
    if _n(np.abs(moved).max()) == "0":
        # Nothing that shows at the narration's 3 decimals (CFR+ holds a regret at zero, say): "changed by
        # fold 0, call 0, most for fold" would read as a change.
        regrets = f"its cumulative regrets stayed at {_pairs(record.actions, run.cumulative_regret[snapshot, information_set, :count])}"
    else:
        regrets = f"CFR changed its cumulative regrets by {_pairs(record.actions, moved)}, most for {record.actions[largest]}"
    return (f"At iteration {t:,}, set {record.key} (player {int(record.player) + 1}) played "
            f"{_pairs(record.actions, played)}; {since}, {regrets}. The average strategy's exploitability is "
            f"{_n(max(float(run.exploitability[snapshot]), 0.0))} chips per hand.")
