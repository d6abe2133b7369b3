"""The exact value and an equilibrium of any compiled game, from the sequence-form linear program.

Koller, Megiddo & von Stengel, "Fast algorithms for finding randomized strategies in game
trees" (1994), and von Stengel, "Efficient computation of behavior strategies" (1996): a
player's strategy is a realization plan x over their sequences (one per information set
and action, plus the empty one) with E x = e, x >= 0. With A[s1, s2] the chance-weighted
payoff to player 1 of the leaves reached by the sequence pair, player 1 solves

    max q_0  subject to  F^T q <= A^T x,  E x = e,  x >= 0

(q is the dual of player 2's best-response problem), and player 2 the mirror image. Both
are solved with HiGHS through `scipy.optimize.linprog`; both optima are the game value.
Results are cached per tree (bounded, behind a lock: many sessions share one server).
"""
from __future__ import annotations

import threading
import time
import weakref
from dataclasses import dataclass

import numpy as np

from cfrviz.util.vocabulary import Player
from cfrviz.tree import GameTree
from cfrviz.util import idle
from cfrviz.util.bounded_cache import BoundedCache

#: Trees whose solution is kept.
CACHE_SIZE = 16
#: Bytes of kept solutions ([I, A] strategies): sixteen of up to 4 MB (500,000 set-actions) each;
#: Leduc's is 7 kB, so only the largest uploaded games meet this bound before the count.
CACHE_BYTES = 64_000_000
#: Seconds HiGHS may spend on one of the two LPs before cfrviz gives up with a sentence.
TIME_LIMIT = 60.0
#: A player's realization weight of an information set at or below this counts as "never reached by own play".
UNREACHED = 1e-12

__all__ = ["CACHE_BYTES", "CACHE_SIZE", "TIME_LIMIT", "Equilibrium", "SequenceForm", "cached", "lp_equilibrium", "sequence_form",
           "solve_lp"]


@dataclass(frozen=True)
class SequenceForm:
    """The sequence form of a two-player game tree.

    `sequence[p]` [I, A]: player p's sequence id of each (information set, action) of theirs, -1
    elsewhere (0 is the empty sequence); `parent_sequence` [I]: the acting player's sequence
    leading to each set; `num_sequences` per player; `payoff` the sparse [S1, S2] matrix A.
    """

    sequence: tuple[np.ndarray, np.ndarray]
    parent_sequence: np.ndarray
    num_sequences: tuple[int, int]
    payoff: object   # scipy.sparse.csr_matrix


@dataclass(frozen=True)
class Equilibrium:
    """A sequence-form LP solution: `value` to player 1 (from player 1's LP), `strategy` [I, A].

    `strategy` is behavioural for both players, uniform at sets a player's own equilibrium
    play never reaches. `value_player_2_lp` is the optimum of player 2's LP (the same number
    up to solver tolerance); `seconds` the time both solves took.
    """

    value: float
    strategy: np.ndarray
    value_player_2_lp: float
    seconds: float


def sequence_form(tree: GameTree) -> SequenceForm:
    """Sequences, their parents and the payoff matrix of `tree`; ValueError without perfect recall."""
    from scipy import sparse

    num_infosets, width = tree.legal.shape
    sequence = [np.full((num_infosets, width), -1, dtype=np.int64) for _ in (Player.FIRST, Player.SECOND)]
    counts = [1, 1]
    for i in range(num_infosets):
        p = int(tree.infoset_player[i])
        k = int(tree.num_actions[i])
        sequence[p][i, :k] = np.arange(counts[p], counts[p] + k)
        counts[p] += k

    n = tree.num_nodes
    own = np.zeros((2, n), dtype=np.int64)      # each player's last sequence on the path to a node
    reach = np.ones(n)                          # chance's contribution to the node's reach
    parent_sequence = np.full(num_infosets, -1, dtype=np.int64)
    parent, actor, infoset = tree.parent, tree.actor, tree.infoset
    for node in range(1, n):                    # breadth first: a parent comes before its children
        up = int(parent[node])
        own[:, node] = own[:, up]
        reach[node] = reach[up] * tree.chance_probability[node]
        who = int(actor[up])
        if who < 2:
            own[who, node] = sequence[who][infoset[up], tree.action_index[node]]
    for decision in np.flatnonzero(actor < 2):
        i, p = int(infoset[decision]), int(actor[decision])
        if parent_sequence[i] < 0:
            parent_sequence[i] = own[p, decision]
        elif parent_sequence[i] != own[p, decision]:
            raise ValueError(f"{tree.game.title} lacks perfect recall at information set "
                             f"{tree.infosets[i].key!r}; the sequence form needs it.")
    leaves = np.flatnonzero(actor == Player.TERMINAL)
    matrix = sparse.coo_matrix((reach[leaves] * tree.payoff[leaves], (own[0, leaves], own[1, leaves])),
                               shape=(counts[0], counts[1])).tocsr()   # duplicates are summed
    for s in sequence:
        s.setflags(write=False)
    parent_sequence.setflags(write=False)
    return SequenceForm((sequence[0], sequence[1]), parent_sequence, (counts[0], counts[1]), matrix)


def _constraints(tree: GameTree, form: SequenceForm, player: int) -> object:
    """E (or F): row 0 fixes the empty sequence to 1; one row per set: its sequences sum to the parent's."""
    from scipy import sparse

    sets = np.flatnonzero(tree.infoset_player == player)
    rows, cols, vals = [0], [0], [1.0]
    for r, i in enumerate(sets, start=1):
        rows.append(r); cols.append(int(form.parent_sequence[i])); vals.append(-1.0)
        for s in form.sequence[player][i, :int(tree.num_actions[i])]:
            rows.append(r); cols.append(int(s)); vals.append(1.0)
    return sparse.csr_matrix((vals, (rows, cols)), shape=(len(sets) + 1, form.num_sequences[player]))


def _maximin(payoff: object, own: object, other: object, title: str) -> tuple[float, np.ndarray]:
    """max_x min_y x^T M y over realization plans own x = e, other y = f: (value, x)."""
    from scipy import sparse
    from scipy.optimize import linprog

    own_rows, own_sequences = own.shape          # type: ignore[attr-defined]  # scipy is untyped: a sparse matrix has .shape
    other_rows, _ = other.shape                  # type: ignore[attr-defined]  # scipy is untyped: a sparse matrix has .shape
    objective = np.zeros(own_sequences + other_rows)
    objective[own_sequences] = -1.0              # maximise q_0
    upper = sparse.hstack([-payoff.T, other.T]).tocsr()        # type: ignore[attr-defined]  # scipy is untyped: sparse.hstack returns a matrix with .tocsr
    equal = sparse.hstack([own, sparse.csr_matrix((own_rows, other_rows))]).tocsr()
    right = np.zeros(own_rows)
    right[0] = 1.0
    bounds = [(0.0, None)] * own_sequences + [(None, None)] * other_rows
    result = linprog(objective, A_ub=upper, b_ub=np.zeros(upper.shape[0]), A_eq=equal, b_eq=right,
                     bounds=bounds, method="highs",
                     options={"primal_feasibility_tolerance": 1e-10, "dual_feasibility_tolerance": 1e-10,
                              "time_limit": TIME_LIMIT})
    if result.status == 1:
        raise ValueError(f"The exact value of {title} was not found within {TIME_LIMIT:g} s (the sequence-form "
                         "LP is too big to solve here).")
    if result.status != 0:
        raise ValueError(f"The sequence-form LP was not solved: {result.message}")
    return float(-result.fun) + 0.0, np.asarray(result.x[:own_sequences])   # + 0.0: no -0.0


def _behaviour(tree: GameTree, form: SequenceForm, plans: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
    strategy = tree.uniform_strategy().astype(np.float64)
    for i in range(tree.num_infosets):
        p = int(tree.infoset_player[i])
        k = int(tree.num_actions[i])
        weights = np.clip(plans[p][form.sequence[p][i, :k]], 0.0, None)
        total = float(weights.sum())
        if total > UNREACHED:
            strategy[i, :k] = weights / total
    strategy.setflags(write=False)
    return strategy


def _solve(tree: GameTree) -> Equilibrium:
    clock = time.perf_counter()
    form = sequence_form(tree)
    first = _constraints(tree, form, Player.FIRST)
    second = _constraints(tree, form, Player.SECOND)
    value, x = _maximin(form.payoff, first, second, tree.game.title)
    # Player 2 maximises -x^T A y: the same program with the matrix negated and transposed.
    negated_value, y = _maximin(-form.payoff.T, second, first, tree.game.title)   # type: ignore[attr-defined]  # scipy is untyped: the sparse payoff has .T
    strategy = _behaviour(tree, form, (x, y))
    return Equilibrium(value, strategy, -negated_value, time.perf_counter() - clock)


# id(tree) -> (weak reference to the tree, its solution), within CACHE_SIZE entries and CACHE_BYTES: a
# cached solution never keeps a tree alive (many sessions share one server; uploaded trees come and go).
_cache: BoundedCache[int, tuple[weakref.ref[GameTree], Equilibrium]] = BoundedCache(
    CACHE_SIZE, CACHE_BYTES, lambda entry: entry[1].strategy.nbytes + 1_000)
_lock = threading.Lock()


def _empty() -> None:
    with _lock:
        _cache.clear()


idle.on_idle("exact values", _empty)   # emptied when the last visitor has gone


def cached(tree: GameTree) -> Equilibrium | None:
    """The cached solution of `tree`, if there is one."""
    with _lock:
        entry = _cache.get(id(tree))
        if entry is None or entry[0]() is not tree:
            return None
        return entry[1]


def lp_equilibrium(tree: GameTree) -> Equilibrium:
    """The sequence-form LP's value and equilibrium of `tree`, computed once per tree (least recently
    used out first, within CACHE_SIZE trees and CACHE_BYTES)."""
    found = cached(tree)
    if found is not None:
        return found
    result = _solve(tree)      # outside the lock: a slow solve must not hold up other trees
    with _lock:
        if result.strategy.nbytes + 1_000 <= CACHE_BYTES:    # a larger one is returned, not kept
            _cache[id(tree)] = (weakref.ref(tree), result)
    return result


def solve_lp(tree: GameTree) -> tuple[float, np.ndarray]:
    """(player 1's game value, an equilibrium strategy [I, A] for both players) of `tree`.

    >>> from cfrviz.catalog import compile_game
    >>> value, strategy = solve_lp(compile_game("kuhn"))
    >>> round(value * 18, 9)
    -1.0
    """
    result = lp_equilibrium(tree)
    return result.value, result.strategy
