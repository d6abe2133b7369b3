"""The walkthrough of one iteration as browser frames: every step, the tree parts it is drawn on and
the table of information sets, sent once to the timeline component (its "walkthrough" mode).

Pure (no streamlit). One frame is one step of `cfrviz.teaching.walkthrough.trace_iteration`; the
browser steps through them on the Game tree's drawing, so a step costs no server round trip.
"""
from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

import numpy as np

from cfrviz.figures.timeline import build_payload
from cfrviz.util.vocabulary import Player
from cfrviz.solvers import ALGORITHMS
from cfrviz.teaching.walkthrough import PLAIN_SUMS, IterationTrace, StepKind
from cfrviz.tree import GameTree

# More nodes than this are cut down to the betting round being walked.
MAX_DRAWN_NODES = 60  # all of Kuhn (55 nodes) stays whole

# The tree fields of a payload that one drawn part needs (the rest is shared by every part).
_PART_FIELDS = ("nodes", "edges", "links", "groups", "layouts", "sets", "order")

# Vanilla CFR and chance sampling only add regrets; every other variant clips, discounts or
# predicts at the end of each pass, so its cumulative regret is final only after that step.


def _touched(trace: IterationTrace) -> list[int]:
    return sorted({s.node for s in trace.steps if s.kind != StepKind.FINISH} | {0})


def _round_start(tree: GameTree, node: int) -> int:
    """The start of the betting round `node` is in: the nearest chance node at or above it (the
    root aside), else the deal (the root's child on its path)."""
    path = [node]
    while int(tree.parent[path[-1]]) >= 0:
        path.append(int(tree.parent[path[-1]]))
    return next((m for m in path[:-1] if int(tree.actor[m]) == Player.CHANCE), path[-2])


def _round_part(tree: GameTree, touched: Iterable[int], start: int) -> list[int]:
    """The touched nodes of the round that begins at `start`, the path above it, and the chance
    nodes that end the round as leaves."""
    keep = {start}
    m = start
    while int(tree.parent[m]) >= 0:
        m = int(tree.parent[m])
        keep.add(m)
    for n in touched:
        m = int(tree.parent[n])
        while m > start and int(tree.actor[m]) != Player.CHANCE:
            m = int(tree.parent[m])
        if m == start:
            keep.add(n)
    return sorted(keep)


def step_parts(trace: IterationTrace) -> tuple[list[tuple[int, ...]], list[int]]:
    """(parts, part of each step): the distinct node sets drawn, in order of first use, and for
    each step [S] the index of its part. A part is every node the iteration touches, or, in a big
    tree, the betting round being walked: the path from the root down to the round's start (the
    deal, or the chance node that opened the round) and the touched nodes of that round, with the
    chance nodes that end it as leaves. It depends only on the round's start, so each is computed
    once (Leduc's 2,711 vanilla-CFR steps have 55 parts)."""
    tree = trace.tree
    touched = _touched(trace)
    if len(touched) <= MAX_DRAWN_NODES:
        return [tuple(touched)], [0] * len(trace.steps)
    touched_set = set(touched)
    by_start: dict[int, int] = {}
    parts: list[tuple[int, ...]] = []
    part_of_step = []
    for step in trace.steps:
        start = -1 if step.node == 0 else _round_start(tree, step.node)
        if start not in by_start:
            nodes = _deals(tree, touched_set) if start < 0 else _round_part(tree, touched, start)
            by_start[start] = len(parts)
            parts.append(tuple(nodes))
        part_of_step.append(by_start[start])
    return parts, part_of_step


def _deals(tree: GameTree, touched: set[int]) -> list[int]:
    return [0] + [c for c in tree.children(0) if c in touched]


def first_part(trace: IterationTrace) -> list[int]:
    """The nodes drawn at the first step (the root's): `step_parts(trace)[0][0]`, without the rest."""
    touched = _touched(trace)
    return touched if len(touched) <= MAX_DRAWN_NODES else _deals(trace.tree, set(touched))


def set_progress(trace: IterationTrace) -> tuple[list[int], list[int]]:
    """(first, final) step index [I] per information set: the first step that adds to its sums,
    and the step after which its "after" values are final (its last update, or for CFR+, linear
    CFR, DCFR and their kin the end of its player's pass, which still transforms the regrets).
    Both are -1 for a set the iteration leaves unchanged (chance sampling walks one deal)."""
    tree = trace.tree
    count = tree.num_infosets
    first, last = [-1] * count, [-1] * count
    finish: dict[int, int] = {}
    for step in trace.steps:
        if step.kind == StepKind.FINISH:
            finish[step.traverser] = step.index
        elif step.kind == StepKind.RETURN and step.traverser in (-1, step.player):
            i = step.information_set_id
            if first[i] < 0:
                first[i] = step.index
            last[i] = step.index
    final = list(last)
    changed = (np.any(trace.cumulative_regret_after != trace.cumulative_regret_before, axis=1)
               | np.any(trace.strategy_sum_after != trace.strategy_sum_before, axis=1))
    for i in range(count):
        player = int(tree.infoset_player[i])
        end = finish.get(-1, finish.get(player, -1))
        if trace.algorithm not in PLAIN_SUMS and end >= 0 and (first[i] >= 0 or changed[i]):
            final[i] = end
            if first[i] < 0:          # changed by the end of the pass alone
                first[i] = end
    return first, final


def _numbers(values: Iterable[float], digits: int = 6) -> list[float]:
    # Adding 0.0 turns -0.0 (player 2's sign flip of a zero) into 0.0.
    return [round(float(v), digits) + 0.0 for v in values]


def _rows(array: np.ndarray, tree: GameTree) -> list[list[float]]:
    """[I][A_i] rows of an [I, A] array, each cut to its set's legal actions."""
    return [_numbers(array[i, :len(record.actions)]) for i, record in enumerate(tree.infosets)]


def walkthrough_payload(trace: IterationTrace) -> dict[str, Any]:
    """The walkthrough mode's data (JSON-ready): the trace's S steps as columns, the parts of the
    tree they are drawn on, and the information sets' numbers before and after.

    steps:  kind, node, part, traverser, player, set, history, text [S]; reach [S][3] (player 1,
            player 2, chance); strategy [S][A]; for return steps utility, regret, regretUpdate,
            sumUpdate [S][A] and nodeUtility, weight (counterfactual), ownWeight [S]
    parts:  each a drawn part's tree (the timeline payload's nodes, edges, links, groups, layouts
            and sets for those node ids)
    table:  per set [I] key, player, actions, first and final (`set_progress`), changed; and
            strategy, next, regretBefore, regretAfter, sumBefore, sumAfter [I][A]
    """
    tree = trace.tree
    parts, part_of_step = step_parts(trace)
    steps = trace.steps
    first, final = set_progress(trace)
    next_strategy = trace.next_strategy if trace.next_strategy is not None else trace.strategy
    changed = (np.any(trace.cumulative_regret_after != trace.cumulative_regret_before, axis=1)
               | np.any(trace.strategy_sum_after != trace.strategy_sum_before, axis=1))
    info = ALGORITHMS[trace.algorithm]
    return {
        "iteration": trace.iteration,
        "algorithm": info.title,
        "updates": str(trace.updates),
        "deal": trace.deal,
        "value": round(float(trace.value), 6),
        "steps": {
            "kind": [s.kind for s in steps],
            "node": [s.node for s in steps],
            "part": part_of_step,
            "traverser": [s.traverser for s in steps],
            "player": [s.player for s in steps],
            "set": [s.information_set_id for s in steps],
            "history": [s.history for s in steps],
            "actions": [list(s.actions) for s in steps],
            "reach": [_numbers(s.reach) for s in steps],
            "strategy": [_numbers(s.strategy) for s in steps],
            "utility": [_numbers(s.action_utility) for s in steps],
            "nodeUtility": [round(s.node_utility, 6) + 0.0 for s in steps],
            "regret": [_numbers(s.regret) for s in steps],
            "weight": [round(s.counterfactual_weight, 6) for s in steps],
            "regretUpdate": [_numbers(s.regret_update) for s in steps],
            "ownWeight": [round(s.strategy_weight, 6) for s in steps],
            "sumUpdate": [_numbers(s.strategy_sum_update) for s in steps],
            "text": [s.text for s in steps],
        },
        "parts": [{k: v for k, v in build_payload(tree, None, nodes).items() if k in _PART_FIELDS}
                  for nodes in parts],
        "table": {
            "key": [record.key for record in tree.infosets],
            "player": [int(record.player) for record in tree.infosets],
            "actions": [list(record.actions) for record in tree.infosets],
            "first": first,
            "final": final,
            "changed": [bool(c) for c in changed],
            "strategy": _rows(trace.strategy, tree),
            "next": _rows(next_strategy, tree),
            "regretBefore": _rows(trace.cumulative_regret_before, tree),
            "regretAfter": _rows(trace.cumulative_regret_after, tree),
            "sumBefore": _rows(trace.strategy_sum_before, tree),
            "sumAfter": _rows(trace.strategy_sum_after, tree),
        },
    }


def checked_step(value: object, count: int) -> int | None:
    """The step (1-based) the browser reported, or None when it is not one of the trace's `count` steps.

    >>> checked_step(4, 15), checked_step(16, 15), checked_step("4", 15), checked_step(True, 15)
    (4, None, None, None)
    """
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        return None
    if value != int(value) or not 1 <= int(value) <= count:
        return None
    return int(value)
