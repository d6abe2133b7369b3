"""Practice questions: every answer against an independent computation (issue 30).

References, question by question:
- regret matching: the solver's own next recorded strategy (the path's iteration t + 1), and a hand case;
- walkthrough: Kuhn, deal QK, iteration 1 from a uniform start, by hand: player 1's Q at the root has
  u(bet) = ½·(+1) + ½·(−2) = −0.5 (K folds or calls), u(check) = ½·(−1) + ½·(½·(−1) + ½·(−2)) = −1.25,
  u(node) = −0.875, so regret(bet) = 0.375;
- tree: Kuhn's player 2 holding Q facing a bet cannot tell JQ b from KQ b (Kuhn 1950);
- convergence: Kuhn's α-family written out from Kuhn (1950), and the uniform strategy (0.5 from it);
- best response: the α = 0 equilibrium with player 1's Q folding to a bet; by hand only player 2's J after a
  check gains: cf(bet) = ⅙·(+1) + ⅙·(−2) = −⅙, cf(check) = −⅓, mix (bet ⅓) = −5/18, gain 1/9;
- play: α = 1/3, player 2 holding J facing a bet meets only K (Q never bets): call −2, fold −1, so a call
  gives up exactly 1 chip and a fold nothing.
"""
from __future__ import annotations

import numpy as np
import pytest

import cfrviz
from cfrviz.games.matrix import PRESETS
from cfrviz.solvers.matrix import regret_matching_path
from cfrviz.teaching import practice
from cfrviz.teaching.walkthrough import trace_iteration
from cfrviz.util.vocabulary import Algorithm


def kuhn_alpha(tree: cfrviz.GameTree, alpha: float) -> np.ndarray:
    """Kuhn's (1950) equilibrium with parameter α, written out by set key: the second action's probability
    (bet after check or at the start, call facing a bet)."""
    second = {"J": alpha, "Q": 0.0, "K": 3 * alpha, "J kb": 0.0, "Q kb": alpha + 1 / 3, "K kb": 1.0,
              "J k": 1 / 3, "Q k": 0.0, "K k": 1.0, "J b": 0.0, "Q b": 1 / 3, "K b": 1.0}
    strategy = np.zeros(tree.legal.shape)
    for i, record in enumerate(tree.infosets):
        strategy[i, :2] = (1 - second[record.key], second[record.key])
    return strategy


def test_regret_matchings_favoured_action_is_what_the_solver_plays_next() -> None:
    rps = PRESETS["rps"]
    path = regret_matching_path(np.array(rps.payoffs), 60, start_regret=([1.0, 0, 0], [0, 1.0, 0]))
    names = rps.row_names
    for index in range(0, 59, 7):
        _, answer = practice.next_favoured_action(path, index, names)
        following = path.current_row[index + 1]
        assert answer.options == {names[int(np.argmax(following))]}
        assert practice.reveal(answer, names[int(np.argmax(following))]).correct


def test_regret_matching_with_no_positive_regret_plays_uniformly() -> None:
    path = regret_matching_path(np.array(PRESETS["rps"].payoffs), 3)   # from zero regret: uniform, stays there
    question, answer = practice.next_favoured_action(path, 0, PRESETS["rps"].row_names)
    assert practice.UNIFORM in question.options and answer.options == {practice.UNIFORM}
    assert not practice.reveal(answer, "rock").correct


def test_walkthrough_regret_for_bet_is_the_hand_computed_0_375(kuhn: cfrviz.GameTree) -> None:
    zeros = np.zeros(kuhn.legal.shape)
    trace = trace_iteration(kuhn, zeros, zeros, algorithm=Algorithm.CHANCE_SAMPLING, updates="simultaneous",
                            deal="QK")
    root = next(k for k, s in enumerate(trace.steps) if s.kind == "return" and s.history == "QK")
    question, answer = practice.walkthrough_regret(trace, root)
    assert "QK" in question.prompt and "bet" in question.prompt and "0.375" not in question.prompt
    assert answer.number == pytest.approx(0.375)
    assert practice.reveal(answer, "0.375").correct and practice.reveal(answer, 0.3754).correct
    assert not practice.reveal(answer, "0.38").correct and not practice.reveal(answer, "three").correct


def test_histories_of_player_2s_set_are_jq_b_and_kq_b(kuhn: cfrviz.GameTree) -> None:
    question, answer = practice.shared_information_set(kuhn, kuhn.infoset_index("Q b"))
    assert answer.options == {"JQ b", "KQ b"}
    assert {"JQ b", "KQ b"} < set(question.options) and len(question.options) == 5 and question.many
    assert practice.reveal(answer, ["KQ b", "JQ b"]).correct
    assert not practice.reveal(answer, ["JQ b"]).correct


@pytest.mark.parametrize("alpha", [0.0, 0.1, 1 / 3])
def test_kuhns_equilibria_are_in_the_family_and_uniform_play_is_not(kuhn: cfrviz.GameTree, alpha: float) -> None:
    _, inside = practice.alpha_family(kuhn, kuhn_alpha(kuhn, alpha), 1000)
    assert inside.options == {"yes"} and f"α = {alpha:.3f}" in inside.why
    _, outside = practice.alpha_family(kuhn, np.where(kuhn.legal, 0.5, 0.0), 1)
    assert outside.options == {"no"}


def test_where_to_exploit_finds_player_2s_jack_after_a_check(kuhn: cfrviz.GameTree) -> None:
    strategy = kuhn_alpha(kuhn, 0.0)
    strategy[kuhn.infoset_index("Q kb")] = (1.0, 0.0)   # player 1's Q always folds to a bet
    question, answer = practice.where_to_exploit(kuhn, strategy, exploiter=1)
    assert answer.options == {"J k"} and "J k" in question.options
    assert "always bet gains 0.1111" in answer.why   # 1/9, by hand


def test_an_equilibrium_leaves_nowhere_to_exploit(kuhn: cfrviz.GameTree) -> None:
    _, answer = practice.where_to_exploit(kuhn, kuhn_alpha(kuhn, 0.2), exploiter=0)
    assert answer.why.startswith("Nowhere")


def test_calling_with_the_jack_against_a_sure_king_loses_one_chip(kuhn: cfrviz.GameTree) -> None:
    strategy = kuhn_alpha(kuhn, 1 / 3)
    question, call = practice.play_mistake(kuhn, strategy, "J b", "call")
    assert "J b" in question.prompt and call.number == pytest.approx(1.0)
    assert practice.reveal(call, "1").correct and practice.reveal(call, "1.000").correct
    _, fold = practice.play_mistake(kuhn, strategy, "J b", "fold")
    assert fold.number == 0.0 and practice.reveal(fold, "0").correct
