"""The snapshot judge (`judge_snapshots`, `exploitability_pairs`, the kernels `_nash_conv_pairs` and
`_nash_conv_pairs_unblocked`) against the walk it replaced and against closed forms.

Reference: `_old_nash_conv_pairs` below is the per-history pair walk the package used before (reach
of both players and chance at every history, top down, then one bottom-up pass), kept here verbatim
as the slow reference. The new walks keep each profile's operations in that walk's order, so the
numbers must be the same bits, as must own reach against `own_reach_probability`.
"""
from __future__ import annotations

import numpy as np
import pytest
from numba import njit

import cfrviz
from cfrviz.analysis import _best_response_kernels, best_responses
from cfrviz.analysis.best_responses import exploitability_many, exploitability_pairs, judge_snapshots
from cfrviz.catalog import compile_game
from cfrviz.util.vocabulary import Player
from cfrviz.games.efg import read_efg
from cfrviz.solvers.base import own_reach_probability
from cfrviz.tree import GameTree, build_tree
from tests.support.efg_shapes import chain_efg

_ACTOR, _INFOSET, _FIRST_CHILD, _NUM_CHILDREN = 0, 1, 2, 3
_ZERO = np.uint64(0)
_ONE = np.uint64(1)
# Player's actors as plain ints, as in the kernels these walks reproduce.
_CHANCE = int(Player.CHANCE)
_TERMINAL = int(Player.TERMINAL)


@njit(cache=False, error_model="numpy")
def _old_reach_pass_pair(nodes, chance_probability, first_profile, second_profile, reach):   # type: ignore[no-untyped-def]
    n_nodes = np.uint64(nodes.shape[1])
    for k in range(6):
        reach[0, k] = 1.0
    for n in range(n_nodes):
        who = nodes[_ACTOR, n]
        if who == _TERMINAL:
            continue
        first = nodes[_FIRST_CHILD, n]
        for a in range(nodes[_NUM_CHILDREN, n]):
            c = first + a
            for k in range(6):
                reach[c, k] = reach[n, k]
            if who == _CHANCE:
                reach[c, 2] *= chance_probability[c]
                reach[c, 5] *= chance_probability[c]
            else:
                i = nodes[_INFOSET, n]
                reach[c, who] *= first_profile[i, a]
                reach[c, who + np.uint64(3)] *= second_profile[i, a]


@njit(cache=False, error_model="numpy")
def _old_best_responses_pair(nodes, chance_probability, payoff, levels, first_profile, second_profile,  # type: ignore[no-untyped-def]
                             reach, value, action_value, best_action):
    action_value[:, :, :] = 0.0
    best_action[:, :] = -1
    d = np.uint64(levels.shape[0] - 1)
    while d > _ZERO:
        d -= _ONE
        lo = levels[d]
        hi = levels[d + _ONE]
        for n in range(lo, hi):
            who = nodes[_ACTOR, n]
            first = nodes[_FIRST_CHILD, n]
            k = nodes[_NUM_CHILDREN, n]
            if who == _TERMINAL:
                value[n, 0] = payoff[n]
                value[n, 1] = -payoff[n]
                value[n, 2] = payoff[n]
                value[n, 3] = -payoff[n]
            elif who == _CHANCE:
                v0 = 0.0
                v1 = 0.0
                v2 = 0.0
                v3 = 0.0
                for a in range(k):
                    p = chance_probability[first + a]
                    v0 += p * value[first + a, 0]
                    v1 += p * value[first + a, 1]
                    v2 += p * value[first + a, 2]
                    v3 += p * value[first + a, 3]
                value[n, 0] = v0
                value[n, 1] = v1
                value[n, 2] = v2
                value[n, 3] = v3
            else:
                i = nodes[_INFOSET, n]
                other = _ONE - who
                weight = reach[n, other] * reach[n, 2]
                weight2 = reach[n, other + np.uint64(3)] * reach[n, 5]
                who2 = who + np.uint64(2)
                other2 = other + np.uint64(2)
                v = 0.0
                v2 = 0.0
                for a in range(k):
                    action_value[0, i, a] += weight * value[first + a, who]
                    v += first_profile[i, a] * value[first + a, other]
                    action_value[1, i, a] += weight2 * value[first + a, who2]
                    v2 += second_profile[i, a] * value[first + a, other2]
                value[n, other] = v
                value[n, other2] = v2
        for n in range(lo, hi):
            who = nodes[_ACTOR, n]
            if who >= _CHANCE:
                continue
            i = nodes[_INFOSET, n]
            for q in range(2):
                if best_action[q, i] < 0:
                    best = _ZERO
                    for a in range(_ONE, nodes[_NUM_CHILDREN, n]):
                        if action_value[q, i, a] > action_value[q, i, best]:
                            best = np.uint64(a)
                    best_action[q, i] = best
                column = who + np.uint64(2 * q)
                value[n, column] = value[nodes[_FIRST_CHILD, n] + np.uint64(best_action[q, i]), column]
    return value[0, 0] + value[0, 1], value[0, 2] + value[0, 3]


@njit(cache=False, error_model="numpy")
def _old_nash_conv_pairs(nodes, chance_probability, payoff, levels, first_profiles, second_profiles):  # type: ignore[no-untyped-def]
    n_nodes = nodes.shape[1]
    reach = np.empty((n_nodes, 6))
    value = np.empty((n_nodes, 4))
    action_value = np.empty((2,) + first_profiles.shape[1:])
    best_action = np.empty((2, first_profiles.shape[1]), dtype=np.int64)
    out = np.empty((first_profiles.shape[0], 2))
    for t in range(first_profiles.shape[0]):
        _old_reach_pass_pair(nodes, chance_probability, first_profiles[t], second_profiles[t], reach)
        out[t, 0], out[t, 1] = _old_best_responses_pair(nodes, chance_probability, payoff, levels, first_profiles[t],
                                                        second_profiles[t], reach, value, action_value, best_action)
    return out


def _old_exploitability_pairs(tree: GameTree, first: np.ndarray, second: np.ndarray) -> np.ndarray:
    packed = best_responses._packed(tree)
    return 0.5 * _old_nash_conv_pairs(packed.nodes, packed.chance_probability, packed.payoff, packed.levels,
                                      first, second)


def _profiles(tree: GameTree, count: int, seed: int) -> np.ndarray:
    """[count, I, A] behaviour profiles: random mixes, pure ones (zero reach below unplayed actions,
    ties between best actions), uniform ones, and mixes with some sets locked to one action."""
    rng = np.random.default_rng(seed)
    legal = tree.legal.astype(float)
    out = []
    for t in range(count):
        raw = rng.random(tree.legal.shape) * legal
        if t % 4 == 0:
            raw = np.where(raw == raw.max(axis=1, keepdims=True), 1.0, 0.0) * legal
        elif t % 4 == 1:
            raw = legal.copy()
        elif t % 4 == 2:
            locked = rng.random(tree.num_infosets) < 0.3
            raw[locked] = 0.0
            raw[locked, 0] = 1.0
        out.append(raw / raw.sum(axis=1, keepdims=True))
    return np.ascontiguousarray(out)


def _solved_profiles(tree: GameTree, algorithm: str, iterations: int) -> tuple[np.ndarray, np.ndarray]:
    run = cfrviz.solve(tree, algorithm, iterations=iterations)
    return np.asarray(run.average_strategy), np.asarray(run.current_strategy)


TREES = {
    "kuhn": lambda: compile_game("kuhn"),
    "leduc": lambda: compile_game("leduc"),
    "leduc suited": lambda: compile_game("leduc", suits=True),
    "myerson (.efg, chance)": lambda: compile_game("efg:myerson_card_game"),
    "chain of 9 (.efg, uneven depths)": lambda: build_tree(read_efg(chain_efg(9))),
    "rps": lambda: compile_game("rps"),
}


@pytest.mark.parametrize("name", list(TREES))
def test_every_walk_gives_the_old_walks_bits_and_own_reach(name: str) -> None:
    # Reference: the old per-history pair walk (above) and `own_reach_probability`, bit for bit.
    tree = TREES[name]()
    count = 12 if tree.num_nodes > 5_000 else 37     # 37: two full blocks of 16 and a part block
    first = _profiles(tree, count, 1)
    second = _profiles(tree, count, 2)[::-1].copy()
    expected = _old_exploitability_pairs(tree, first, second)
    expected_reach = own_reach_probability(tree, second)
    average, current, reach = judge_snapshots(tree, first, second)
    np.testing.assert_array_equal(average, expected[:, 0])
    np.testing.assert_array_equal(current, expected[:, 1])
    np.testing.assert_array_equal(reach, expected_reach)
    pairs = exploitability_pairs(tree, first, second)
    np.testing.assert_array_equal(pairs[0], expected[:, 0])
    np.testing.assert_array_equal(pairs[1], expected[:, 1])
    packed = best_responses._packed(tree)
    arrays = (packed.nodes, packed.chance_probability, packed.chance_reach, packed.payoff, packed.judging,
              packed.inner_levels, first, second)
    walks = {"unblocked": lambda r: _best_response_kernels._nash_conv_pairs_unblocked(*arrays, r)}
    for block in (1, 3, 16):
        walks[f"block {block}"] = lambda r, block=block: _best_response_kernels._nash_conv_pairs(*arrays, r, block)
    for label, walk in walks.items():
        reach = np.full(first.shape[:2], np.nan)
        np.testing.assert_array_equal(0.5 * walk(reach), expected, err_msg=label)
        np.testing.assert_array_equal(reach, expected_reach, err_msg=label)


@pytest.mark.parametrize(("game", "params", "algorithm", "iterations"),
                         [("kuhn", {}, "cfr+", 400), ("leduc", {}, "cfr", 60), ("leduc", {"suits": True}, "pcfr+", 20)])
def test_solved_snapshots_match_the_old_walk(game: str, params: dict[str, object], algorithm: str,
                                             iterations: int) -> None:
    # Reference: the old pair walk on a solve's own snapshots (CFR+ and PCFR+ current strategies hold
    # exact zeros), and one-profile judging (`exploitability_many`), bit for bit.
    tree = compile_game(game, **params)
    average, current = _solved_profiles(tree, algorithm, iterations)
    expected = _old_exploitability_pairs(tree, average, current)
    got_average, got_current, reach = judge_snapshots(tree, average, current)
    np.testing.assert_array_equal(got_average, expected[:, 0])
    np.testing.assert_array_equal(got_current, expected[:, 1])
    np.testing.assert_array_equal(got_average, exploitability_many(tree, average))
    np.testing.assert_array_equal(reach, own_reach_probability(tree, current))


def test_closed_forms() -> None:
    # Reference: Kuhn's uniform profile has NashConv 11/12 and always taking the first action 2
    # (OpenSpiel's exploitability tests); in rock-paper-scissors the uniform profile is the equilibrium
    # (exploitability 0) and rock against rock loses 1 to paper on each side (NashConv 2).
    kuhn = compile_game("kuhn")
    uniform = kuhn.uniform_strategy()
    first_action = np.zeros(kuhn.legal.shape)
    first_action[:, 0] = 1.0
    average, current, _ = judge_snapshots(kuhn, np.stack([uniform, first_action]), np.stack([first_action, uniform]))
    np.testing.assert_allclose(average, [11 / 24, 1.0], rtol=0, atol=1e-12)
    np.testing.assert_allclose(current, [1.0, 11 / 24], rtol=0, atol=1e-12)
    rps = compile_game("rps")
    rock = np.zeros(rps.legal.shape)
    rock[:, 0] = 1.0
    average, current, _ = judge_snapshots(rps, np.stack([rps.uniform_strategy()]), np.stack([rock]))
    np.testing.assert_allclose(average, [0.0], rtol=0, atol=1e-12)
    np.testing.assert_allclose(current, [1.0], rtol=0, atol=1e-12)


def test_kuhn_average_strategy_nears_the_game_value_and_zero_exploitability() -> None:
    # Reference: Kuhn's value -1/18 (Kuhn 1950); CFR+'s average is within 1e-3 after 2,000 iterations.
    run = cfrviz.solve("kuhn", "cfr+", iterations=2000)
    assert abs(run.average_strategy_value + 1 / 18) < 1e-3
    assert run.exploitability[-1] < 1e-3


def test_shapes_are_checked_in_one_sentence() -> None:
    kuhn = compile_game("kuhn")
    stack = np.stack([kuhn.uniform_strategy()] * 3)
    with pytest.raises(ValueError, match="one shape"):
        judge_snapshots(kuhn, stack, stack[:2])
    with pytest.raises(ValueError, match=r"\[T, I, A\]"):
        judge_snapshots(kuhn, stack[0], stack[0])


def _forgetful_tree() -> GameTree:
    """Player 1 picks L or R, player 2 answers, then player 1 moves again without remembering L or R
    (one set over both histories): no perfect recall, so no single own reach per set."""
    from cfrviz.games import InformationSet
    from cfrviz.util.vocabulary import Player
    from cfrviz.games.explicit import ExplicitGame

    sets = (InformationSet("first", Player.FIRST, None, None, (), ("L", "R")),
            InformationSet("answer", Player.SECOND, None, None, (), ("x", "y")),
            InformationSet("again", Player.FIRST, None, None, (), ("u", "d")))
    # node: 0 root, 1-2 player 2 after L/R, 3-6 player 1 again, 7-14 terminals
    actor = (Player.FIRST, Player.SECOND, Player.SECOND) + (Player.FIRST,) * 4 + (Player.TERMINAL,) * 8
    children = ((1, 2), (3, 4), (5, 6), (7, 8), (9, 10), (11, 12), (13, 14)) + ((),) * 8
    labels = ((("L", "R"), ("x", "y"), ("x", "y")) + (("u", "d"),) * 4 + ((),) * 8)
    infoset = (0, 1, 1, 2, 2, 2, 2) + (-1,) * 8
    payoff = (0.0,) * 7 + (1.0, -1.0, 2.0, 0.0, -2.0, 1.0, 0.5, -0.5)
    game = ExplicitGame("forgetful", "A forgetful game", actor, children, labels, ((),) * 15, infoset, sets,
                        payoff, tuple(f"n{k}" for k in range(15)))
    return build_tree(game)


def test_without_perfect_recall_pairs_fall_back_and_the_recorder_refuses_in_one_sentence() -> None:
    # Reference: one-profile judging (`exploitability_many`), which walks reach per history.
    tree = _forgetful_tree()
    profiles = _profiles(tree, 5, 3)
    first, second = exploitability_pairs(tree, profiles, profiles[::-1].copy())
    np.testing.assert_array_equal(first, exploitability_many(tree, profiles))
    np.testing.assert_array_equal(second, exploitability_many(tree, profiles[::-1].copy()))
    with pytest.raises(ValueError, match="lacks perfect recall"):
        judge_snapshots(tree, profiles, profiles)
