"""Monte Carlo CFR: chance, external and outcome sampling.

References are named next to each test: a chance-sampled iteration worked by hand,
the unbiasedness of sampled counterfactual regret (Lanctot et al. 2009, Lemma 1 / Thm 2),
and exploitability levels measured with OpenSpiel's own Python solvers on the same games.
"""
from __future__ import annotations

import numpy as np
import pytest

from cfrviz.analysis import exploitability
from cfrviz.solvers import solver_class
from cfrviz.solvers.base import own_reach_probability, regret_matching
from cfrviz.solvers.sampling import ChanceSampling, ExternalSampling, OutcomeSampling
from cfrviz.catalog import compile_game

SOLVERS = (ChanceSampling, ExternalSampling, OutcomeSampling)


@pytest.fixture(scope="module")
def leduc():
    return compile_game("leduc")


def regrets(solver, key):
    i = solver.tree.infoset_index(key)
    return solver.cumulative_regret[i, :solver.tree.num_actions[i]]


def sums(solver, key):
    i = solver.tree.infoset_index(key)
    return solver.strategy_sum[i, :solver.tree.num_actions[i]]


def test_registry_names_the_sampling_classes():
    # The registry in cfrviz/solvers/__init__.py points at these classes by import path.
    assert solver_class("chance") is ChanceSampling
    assert solver_class("external") is ExternalSampling
    assert solver_class("outcome") is OutcomeSampling


def test_chance_sampling_reproduces_the_hand_worked_iteration(kuhn):
    # Worked by hand: iteration 1 of chance sampling with the deal P1 Queen, P2 King,
    # from uniform strategies: Qpb regret sums +0.25/-0.25, Kp -0.125/+0.125, Kb -0.75/+0.75;
    # node Q: regrets -0.375/+0.375 (opponent reach 1), node utility -0.875; strategy sums
    # 0.5/0.5 everywhere except Qpb, which gets 0.25/0.25 (P1 reached it with 0.5).
    solver = ChanceSampling(kuhn, updates="simultaneous", deal="QK")
    solver.iterate(1)
    np.testing.assert_allclose(regrets(solver, "Q kb"), [0.25, -0.25])
    np.testing.assert_allclose(regrets(solver, "K k"), [-0.125, 0.125])
    np.testing.assert_allclose(regrets(solver, "K b"), [-0.75, 0.75])
    np.testing.assert_allclose(regrets(solver, "Q"), [-0.375, 0.375])
    for key in ("Q", "K k", "K b"):
        np.testing.assert_allclose(sums(solver, key), [0.5, 0.5])
    np.testing.assert_allclose(sums(solver, "Q kb"), [0.25, 0.25])
    assert solver.last_value == pytest.approx(-0.875)
    # Only the four information sets of the deal QK were touched.
    touched = {s.key for s, r in zip(kuhn.infosets, solver.cumulative_regret) if np.any(r != 0)}
    assert touched == {"Q", "K k", "K b", "Q kb"}
    # Hand count: root, deal QK, k, b, kk, kb, kbf, kbc, bf, bc.
    assert solver.nodes_touched == 10


def test_forced_deal_and_board_validation(kuhn, leduc):
    solver = ChanceSampling(leduc, deal="JJ", board="K")
    assert (solver.deal, solver.board) == ("JJ", "K")
    solver.force()
    assert (solver.deal, solver.board) == (None, None)
    with pytest.raises(ValueError, match="choose one of: JQ"):
        ChanceSampling(kuhn, deal="QQ")  # Kuhn deals two different cards
    with pytest.raises(ValueError, match="cannot follow the deal JJ"):
        ChanceSampling(leduc, deal="JJ", board="J")  # both jacks are dealt
    with pytest.raises(ValueError, match="no public card"):
        ChanceSampling(kuhn, deal="QK", board="J")
    with pytest.raises(ValueError, match="Force a deal"):
        ChanceSampling(leduc, board="K")


def test_bad_settings_raise_value_errors(kuhn):
    with pytest.raises(ValueError, match="alternating"):
        ExternalSampling(kuhn, updates="simultaneous")
    with pytest.raises(ValueError, match="alternating"):
        OutcomeSampling(kuhn, updates="simultaneous")
    with pytest.raises(ValueError, match="update scheme"):
        ChanceSampling(kuhn, updates="sometimes")
    with pytest.raises(ValueError, match="Exploration"):
        OutcomeSampling(kuhn, exploration=1.5)
    with pytest.raises(ValueError, match="seed"):
        ExternalSampling(kuhn, seed=-1)
    with pytest.raises(ValueError, match="iterations"):
        ExternalSampling(kuhn).iterate(-3)


def _first_pass_regret_increments(solver, samples):
    """[samples, I, A] player 1's regret added by player 1's first traversal from zero regret."""
    player_1 = solver.tree.infoset_player == 0
    out = np.empty((samples,) + solver.cumulative_regret.shape)
    for s in range(samples):
        solver.cumulative_regret[:] = 0.0
        solver.iterate(1)
        out[s] = np.where(player_1[:, None], solver.cumulative_regret, 0.0)
    return out


def _exact_first_regret(tree):
    """Player 1's counterfactual regret at uniform play, chance weighted exactly.

    Summed over every deal d: P(d) x the seed-003 chance-sampled increment for d (the
    worked example above pins that increment for d = QK), which is vanilla CFR's regret.
    """
    exact = np.zeros(tree.legal.shape)
    for d, node in enumerate(tree.children(0)):
        solver = ChanceSampling(tree, updates="alternating", deal=d)
        solver.iterate(1)
        exact += tree.chance_probability[node] * np.where((tree.infoset_player == 0)[:, None],
                                                          solver.cumulative_regret, 0.0)
    return exact


@pytest.mark.parametrize("cls, samples", [(ChanceSampling, 6000), (ExternalSampling, 6000),
                                          (OutcomeSampling, 40000)])
def test_sampled_regret_is_unbiased(kuhn, cls, samples):
    # Lanctot et al. 2009, Lemma 1: for any sampling scheme the sampled counterfactual value
    # is an unbiased estimate of the true one, so the mean regret increment of player 1's
    # first traversal (from zero regret: uniform play) equals vanilla CFR's regret. Checked
    # within 5 standard errors of the mean, per entry, for a fixed seed.
    increments = _first_pass_regret_increments(cls(kuhn, seed=7), samples)
    mean = increments.mean(axis=0)
    standard_error = increments.std(axis=0) / np.sqrt(samples)
    exact = _exact_first_regret(kuhn)
    assert np.all(np.abs(mean - exact) <= 5 * standard_error + 1e-12)
    # The reference is not trivially zero. By hand, Q facing a bet (deals QJ and QK, each 1/6,
    # player 2 bets with 1/2): against J fold -1, call +2, node 0.5; against K fold -1,
    # call -2, node -1.5. Regret (fold, call) = 1/12 * ((-1.5, 1.5) + (0.5, -0.5)).
    assert exact[kuhn.infoset_index("Q kb")][:2] == pytest.approx([-1 / 12, 1 / 12])


# Exploitability after a fixed number of iterations, seed 0. Reference: OpenSpiel's own
# Python solvers on Kuhn (open_spiel 2.0.2, np.random seeds 0-9, measured for this project):
# external sampling after 1000 iterations median 0.027, max 0.036; outcome sampling after
# 10000 iterations median 0.030, max 0.049. OpenSpiel's tests assert NashConv < 0.05 and
# < 0.04 (exploitability 0.025, 0.02) for one fixed seed. Uniform play is 11/24 = 0.458.
@pytest.mark.parametrize("cls, kwargs, iterations, bound", [
    (ChanceSampling, {"updates": "simultaneous"}, 1000, 0.05),
    (ChanceSampling, {"updates": "alternating"}, 1000, 0.05),
    (ExternalSampling, {}, 1000, 0.05),
    (OutcomeSampling, {}, 10000, 0.05),
    # Longer runs keep falling, roughly as 1/sqrt(T) (Lanctot et al. 2009, Theorem 5).
    (ExternalSampling, {}, 100000, 0.005),
    (ChanceSampling, {"updates": "alternating"}, 100000, 0.01),
])
def test_kuhn_exploitability_reached(kuhn, cls, kwargs, iterations, bound):
    solver = cls(kuhn, seed=0, **kwargs)
    solver.iterate(iterations)
    assert exploitability(kuhn, solver.average_strategy()) < bound


@pytest.mark.parametrize("cls", SOLVERS)
def test_leduc_runs_and_improves_on_uniform(leduc, cls):
    # Reference: OpenSpiel's tests assert Leduc NashConv < 2.5 after 1000 external-sampling
    # iterations and < 3 after 10000 outcome-sampling ones (exploitability 1.25 and 1.5).
    # (OpenSpiel's Leduc tells suits apart, 936 information sets against our 288, so it
    # learns more slowly per iteration: its median over seeds 0-4 was 1.28 and 1.19.)
    iterations = 10000 if cls is OutcomeSampling else 1000
    solver = cls(leduc, seed=0)
    solver.iterate(iterations)
    uniform = exploitability(leduc, leduc.uniform_strategy())
    result = exploitability(leduc, solver.average_strategy())
    assert result < 1.25 and result < uniform / 2


@pytest.mark.parametrize("cls", SOLVERS)
def test_same_seed_same_run_other_seed_other_run(kuhn, cls):
    # The seed is the only source of randomness, and batches do not change the draws.
    one = cls(kuhn, seed=3)
    one.iterate(500)
    split = cls(kuhn, seed=3)
    split.iterate(123)
    split.iterate(377)
    other = cls(kuhn, seed=4)
    other.iterate(500)
    np.testing.assert_array_equal(one.cumulative_regret, split.cumulative_regret)
    np.testing.assert_array_equal(one.strategy_sum, split.strategy_sum)
    # value_sum is summed per batch first, so only round-off may differ.
    assert one.value_sum == pytest.approx(split.value_sum, rel=1e-12, abs=1e-12)
    assert one.nodes_touched == split.nodes_touched
    assert not np.array_equal(one.cumulative_regret, other.cumulative_regret)


@pytest.mark.parametrize("cls", SOLVERS)
def test_solver_contract_state(kuhn, cls):
    solver = cls(kuhn, seed=1)
    solver.iterate(50)
    before = solver.cumulative_regret.copy()
    expected_current = regret_matching(before, kuhn.legal)
    touched_before = solver.nodes_touched
    solver.iterate(1)
    # current_strategy is what the last iteration played: regret matching on the regrets
    # it started from (player 2's regrets are not changed by player 1's pass).
    np.testing.assert_allclose(solver.current_strategy, expected_current)
    assert solver.iterations == 51
    # Kuhn's histories are at most 5 deep (root, deal, 3 actions), so a traversal enters at
    # least 3 (outcome: one path) and at most 10 (chance sampling's full width) of them.
    assert 2 * 3 <= solver.nodes_touched - touched_before <= 2 * 10
    # Payoffs in Kuhn are at most 2 chips; outcome sampling's estimate is importance weighted.
    if cls is not OutcomeSampling:
        assert abs(solver.last_value) <= 2
    assert np.isfinite(solver.value_sum)


def test_running_value_approaches_kuhn_value(kuhn):
    # Kuhn's value is -1/18 (Kuhn 1950). The running
    # mean of the sampled iteration values, the tutorials' "average game value", gets close.
    solver = ExternalSampling(kuhn, seed=0)
    solver.iterate(200000)
    assert solver.value_sum / solver.iterations == pytest.approx(-1 / 18, abs=0.01)


@pytest.mark.parametrize("algorithm", ["chance", "external", "outcome"])
def test_snapshots_written_in_the_kernel_match_stepping_by_hand(kuhn, algorithm):
    # Reference: the same solver stepped to each snapshot iteration with iterate(), read
    # through the Solver attributes. `advance` (used by cfrviz.solve) must record the same.
    from cfrviz import solve

    run = solve("kuhn", algorithm, iterations=300, seed=2)
    solver = solver_class(algorithm)(kuhn, updates="alternating", seed=2)
    for s, t in enumerate(run.iterations):
        solver.iterate(int(t) - solver.iterations)
        np.testing.assert_array_equal(run.cumulative_regret[s], solver.cumulative_regret)
        np.testing.assert_array_equal(run.current_strategy[s], solver.current_strategy)
        np.testing.assert_allclose(run.average_strategy[s], solver.average_strategy())
        np.testing.assert_array_equal(run.reach[s], own_reach_probability(kuhn, solver.current_strategy))
        assert run.value[s] == solver.last_value
        assert run.expected_value[s] == pytest.approx(solver.value_sum / solver.iterations)
        assert run.nodes_touched[s] == solver.nodes_touched


def test_chance_sampling_in_leduc_walks_one_deal_and_one_board(leduc):
    # Chance sampling samples one whole chance outcome (Zinkevich et al. 2007): the deal and one public
    # card shared by every betting line. With deal QJ and board K forced, exactly the
    # information sets of player 1 holding Q and player 2 holding J, before the board or
    # with K on it, are updated: all of them (every line is walked full width), no others.
    solver = ChanceSampling(leduc, updates="simultaneous", deal="QJ", board="K")
    solver.iterate(1)
    touched = {s.key for s, total in zip(leduc.infosets, solver.strategy_sum.sum(axis=1)) if total > 0}
    expected = {s.key for s in leduc.infosets
                if s.private == ("Q", "J")[s.player] and s.public in (None, "K")}
    assert touched == expected
    # Hand count from the rules: each round has 3 decision histories per player (player 1:
    # start, kb, br; player 2: k, b, kbr), and 5 round-1 lines reach the board (kk, kbc,
    # kbrc, bc, brc). Per player 3 + 5 x 3 = 18, so 36 in all.
    assert len(expected) == 36


# --------------------------------------------------------------------------------------------
# Several chance nodes on one history: locks, and games with more than one draw


def _two_draws_efg() -> str:
    """A Gambit game whose histories pass one, two or three chance nodes with different outcomes.

    Chance deals player 1 a card, high (+1) or low (-1), 1/2 each. Player 1 checks or bets.
    After a check a public coin falls (heads 1/4: stakes x2, tails 3/4); player 2, who sees the coin
    but not the card, bets or passes; a pass pays player 1 the card's sign, a bet makes player 1 fold
    (-1) or call (2 x sign x stakes). After a bet a public die falls (1, 2, 3 with 1/6, 1/3, 1/2), then
    a hidden bonus (plain 9/10, double 1/10); player 2 sees the die only and folds (+1 to player 1) or
    calls (sign x (die + 1) x bonus).
    """
    lines = ['EFG 2 R "Two draws" { "Player 1" "Player 2" }', '""',
             'c "" 1 "card" { "high" 1/2 "low" 1/2 } 0']
    outcomes = 0

    def leaf(value: int) -> None:
        nonlocal outcomes
        outcomes += 1
        lines.append(f't "" {outcomes} "" {{ {value} {-value} }}')

    calls_after_check = iter(range(3, 7))
    for card, sign in (("high", 1), ("low", -1)):
        lines.append(f'p "" 1 {1 if sign == 1 else 2} "{card}" {{ "check" "bet" }} 0')
        lines.append('c "" 2 "coin" { "heads" 1/4 "tails" 3/4 } 0')
        for coin, stakes in (("heads", 2), ("tails", 1)):
            lines.append(f'p "" 2 {1 if coin == "heads" else 2} "check {coin}" {{ "bet" "pass" }} 0')
            lines.append(f'p "" 1 {next(calls_after_check)} "{card} check {coin} bet" {{ "fold" "call" }} 0')
            leaf(-1)
            leaf(2 * sign * stakes)
            leaf(sign)
        lines.append('c "" 3 "die" { "1" 1/6 "2" 1/3 "3" 1/2 } 0')
        for die in (1, 2, 3):
            lines.append('c "" 4 "bonus" { "plain" 9/10 "double" 1/10 } 0')
            for bonus in (1, 2):
                lines.append(f'p "" 2 {2 + die} "bet {die}" {{ "call" "fold" }} 0')
                leaf(sign * (die + 1) * bonus)
                leaf(1)
    return "\n".join(lines) + "\n"


@pytest.fixture(scope="module")
def two_draws():
    from cfrviz.games.efg import read_efg
    from cfrviz.tree import build_tree

    return build_tree(read_efg(_two_draws_efg()))


def test_chance_sampled_regret_is_unbiased_with_several_chance_nodes_per_history(two_draws):
    # Lanctot et al. 2009, Lemma 1: the sampled counterfactual regret is unbiased when every history is
    # sampled with its chance probability. Reference: vanilla CFR's (exact, every chance outcome weighted)
    # regret of player 1 after one alternating iteration from uniform play. The mean of 6,000 sampled first
    # traversals must match it within 5 standard errors per entry. A kernel that reuses one outcome index
    # at every chance node after the deal (the coin's index for the die, the die's for the bonus) fails.
    player_1 = (two_draws.infoset_player == 0)[:, None]
    exact_solver = solver_class("cfr")(two_draws, updates="alternating")
    exact_solver.iterate(1)
    exact = np.where(player_1, exact_solver.cumulative_regret, 0.0)
    # By hand: at "high" uniform play, check is worth 1/4 (x2 stakes) + 3/4 (x1) over the coin, bet the
    # die and bonus average; the regrets are not zero, so the comparison has teeth.
    assert np.abs(exact[two_draws.infoset_index("high")]).max() > 0.1
    samples = 6000
    solver = ChanceSampling(two_draws, updates="alternating", seed=11)
    increments = np.empty((samples,) + exact.shape)
    for s in range(samples):
        solver.cumulative_regret[:] = 0.0
        solver.iterate(1)
        increments[s] = np.where(player_1, solver.cumulative_regret, 0.0)
    mean = increments.mean(axis=0)
    standard_error = increments.std(axis=0) / np.sqrt(samples)
    assert np.all(np.abs(mean - exact) <= 5 * standard_error + 1e-12)


def test_chance_sampling_approaches_the_lp_value_of_a_game_with_several_draws(two_draws):
    # Reference: the sequence-form LP's value of the game (cfrviz.analysis.lp). A profile's value lies
    # within its NashConv (twice its exploitability) of the game's value; the run must also get close
    # (exploitability below 0.02 after 20,000 iterations; the same kernel sampling one outcome index
    # for every chance node after the deal stays near 0.45).
    from cfrviz import solve
    from cfrviz.analysis.lp import solve_lp

    value, _ = solve_lp(two_draws)
    assert value == pytest.approx(40 / 81, abs=1e-9)
    run = solve(two_draws, "chance", 20_000, seed=1)
    assert run.exploitability[-1] < 0.02
    assert abs(run.average_strategy_value - value) <= 2 * float(run.exploitability[-1]) + 1e-12


@pytest.mark.parametrize("locks", ["J=0,1", "J=1/2,1/2;J kb=1/2,1/2"])
def test_chance_sampling_solves_locked_kuhn(kuhn, locks):
    # Reference: the restricted game's sequence-form LP value (cfrviz.analysis.locks; "J=0,1" is -5/18 by
    # hand, Kuhn 1950's rules with player 1 always betting the jack). "J=1/2,1/2;J kb=1/2,1/2" puts two
    # locks on one history (check J, then call or fold J after a bet), besides the deal. A long
    # chance-sampled run lands within its NashConv of the value, and its exploitability falls below 0.01
    # (one outcome index shared by both locks leaves it at 0.025).
    from cfrviz.analysis.locks import restricted_equilibrium
    from cfrviz.solving.locked import solve_locked
    from cfrviz.tree.locks import Locks, restrict

    value, _ = restricted_equilibrium(restrict(kuhn, Locks.parse(locks)))
    if locks == "J=0,1":
        assert value == pytest.approx(-5 / 18, abs=1e-9)
    run = solve_locked("kuhn", "chance", 20_000, Locks.parse(locks), seed=1).run
    assert run.exploitability[-1] < 0.01
    assert abs(run.average_strategy_value - value) <= 2 * float(run.exploitability[-1]) + 1e-12


def test_chance_sampling_solves_leduc_with_a_lock(leduc):
    # Reference: the restricted game's LP value, -0.2683216003 for player 1 always betting the jack in
    # round 1 (OpenSpiel's sequence_form_lp on the exported game agrees to 1e-10). Its histories pass the
    # deal, the lock and the public card. A long run approaches it within its NashConv.
    from cfrviz.analysis.locks import restricted_equilibrium
    from cfrviz.solving.locked import solve_locked
    from cfrviz.tree.locks import Locks, restrict

    value, _ = restricted_equilibrium(restrict(leduc, Locks.parse("J=0,1")))
    assert value == pytest.approx(-0.2683216003, abs=1e-9)
    run = solve_locked("leduc", "chance", 40_000, Locks.parse("J=0,1"), seed=1).run
    assert run.exploitability[-1] < 0.06
    assert abs(run.average_strategy_value - value) <= 2 * float(run.exploitability[-1]) + 1e-12
