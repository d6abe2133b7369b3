"""The sequence-form LP (Koller, Megiddo & von Stengel 1994) solved with HiGHS.

References: Kuhn poker's value is -1/18 (Kuhn 1950); Leduc poker's is -0.0856064 for player 1
(the published value, to the digits given); rock-paper-scissors is symmetric, so its value
is 0 and its unique equilibrium uniform. An equilibrium has exploitability 0, here measured by
`cfrviz.analysis.best_responses.exploitability`, which shares no code with the LP.
"""
from __future__ import annotations

import gc
import itertools
import threading
import time
import weakref

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cfrviz.analysis import lp
from cfrviz.analysis import expected_value, exploitability, matrix_equilibrium
from cfrviz.games.efg import read_efg
from cfrviz.analysis.lp import lp_equilibrium, sequence_form, solve_lp
from cfrviz.tree import build_tree
from cfrviz.catalog import compile_game


@pytest.mark.parametrize("name, value, digits", [("kuhn", -1 / 18, 1e-9), ("leduc", -0.0856064, 5e-8),
                                                 ("rps", 0.0, 1e-12)])
def test_value_and_an_unexploitable_equilibrium(name: str, value: float, digits: float) -> None:
    tree = compile_game(name)
    clock = time.perf_counter()
    result = lp_equilibrium(tree)
    print(f"\nsequence-form LP on {tree.game.title}: {time.perf_counter() - clock:.3f} s "
          f"(both LPs {result.seconds:.3f} s), value {result.value!r}")
    assert abs(result.value - value) < digits
    assert abs(result.value_player_2_lp - result.value) < 1e-9
    assert exploitability(tree, result.strategy) < 1e-8
    assert abs(expected_value(tree, result.strategy) - result.value) < 1e-9
    assert (result.strategy >= 0).all()
    np.testing.assert_allclose(result.strategy.sum(axis=1), 1.0, atol=1e-12)
    assert not result.strategy.flags.writeable


def test_rock_paper_scissors_equilibrium_is_uniform() -> None:
    _, strategy = solve_lp(compile_game("rps"))
    np.testing.assert_allclose(strategy, 1 / 3, atol=1e-9)


def test_sets_never_reached_by_own_play_are_uniform() -> None:
    # Player 1 can take 1 at once ("out") or enter a matching-pennies subgame worth 0; out is strictly
    # better, so player 1's set inside the subgame is never reached by player 1's own equilibrium play.
    text = ('EFG 2 R "entry" { "A" "B" }\n'
            'p "" 1 1 "enter?" { "out" "in" } 0\nt "" 1 "out" { 1 -1 }\n'
            'p "" 1 2 "coin" { "H" "T" } 0\n'
            'p "" 2 1 "call" { "h" "t" } 0\nt "" 2 "w" { 1 -1 }\nt "" 3 "l" { -1 1 }\n'
            'p "" 2 1 "call" { "h" "t" } 0\nt "" 3\nt "" 2\n')
    tree = build_tree(read_efg(text))
    value, strategy = solve_lp(tree)
    assert abs(value - 1.0) < 1e-12
    np.testing.assert_allclose(strategy[tree.infoset_index("enter?")], [1, 0], atol=1e-12)
    np.testing.assert_array_equal(strategy[tree.infoset_index("coin")], [0.5, 0.5])


def test_sequence_form_of_kuhn_by_hand() -> None:
    tree = compile_game("kuhn")
    form = sequence_form(tree)
    # 6 sets x 2 actions + the empty sequence, for each player.
    assert form.num_sequences == (13, 13)
    a = form.payoff.toarray()                   # type: ignore[attr-defined]
    # Empty sequences meet at no leaf; every leaf's weight is 1/6 times a payoff in {±1, ±2}.
    assert a[0, 0] == 0
    assert set(np.round(np.abs(a[a != 0]) * 6, 12)) <= {1.0, 2.0}
    # Sum over all leaves of chance-weighted payoffs = player 1's payoff when both play every action:
    # per deal, the five leaves sum to 0 (kk, kbf, kbc, bf, bc), so the total is 0.
    assert abs(a.sum()) < 1e-15


def test_cache_is_per_tree_bounded_and_shared_across_threads(monkeypatch: pytest.MonkeyPatch) -> None:
    tree = compile_game("kuhn")
    first = lp_equilibrium(tree)
    results: list[lp.Equilibrium] = []

    def ask() -> None:
        results.append(lp_equilibrium(tree))

    threads = [threading.Thread(target=ask) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert all(result is first for result in results)
    monkeypatch.setattr(lp._cache, "max_entries", 2)
    others = [build_tree(compile_game("kuhn").game) for _ in range(3)]
    for other in others:
        lp_equilibrium(other)
    assert len(lp._cache) == 2 and lp.cached(tree) is None and lp.cached(others[-1]) is not None
    # The cache holds trees weakly: a tree nobody uses any more is not kept alive by its solution.
    probe = weakref.ref(others[-1])
    del others, other
    gc.collect()
    assert probe() is None


def test_an_lp_over_its_time_limit_is_one_sentence(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(lp, "TIME_LIMIT", 1e-6)
    fresh = build_tree(compile_game("leduc").game)       # a tree the cache has not seen
    with pytest.raises(ValueError, match=r"^The exact value of Leduc poker was not found within 1e-06 s "):
        lp_equilibrium(fresh)
    assert lp.cached(fresh) is None


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_lp_value_equals_the_normal_form_value_of_random_signalling_games(data: st.DataObject) -> None:
    # Chance deals player 1 one of k cards; player 1 sees it and moves; player 2 sees only that move.
    # Reference: the same game in normal form (player 1 picks a move per card, player 2 a reply per move),
    # solved by support enumeration (`matrix_equilibrium`, Shapley and Snow 1950), no sequence form at all.
    cards = data.draw(st.integers(2, 3), label="cards")
    moves, replies = 2, 2
    weights = data.draw(st.lists(st.integers(1, 4), min_size=cards, max_size=cards), label="weights")
    payoff = data.draw(st.lists(st.integers(-3, 3), min_size=cards * moves * replies,
                                max_size=cards * moves * replies), label="payoffs")
    u = np.array(payoff, dtype=float).reshape(cards, moves, replies)
    total = sum(weights)
    lines = ['EFG 2 R "signals" { "A" "B" }',
             'c "" 1 "deal" { ' + " ".join(f'"c{c}" {w}/{total}' for c, w in enumerate(weights)) + " } 0"]
    leaf = 0
    for c in range(cards):
        lines.append(f'p "" 1 {c + 1} "card {c}" {{ "m0" "m1" }} 0')
        for m in range(moves):
            lines.append(f'p "" 2 {m + 1} "move {m}" {{ "r0" "r1" }} 0')
            for r in range(replies):
                leaf += 1
                lines.append(f't "" {leaf} "" {{ {int(u[c, m, r])} {-int(u[c, m, r])} }}')
    tree = build_tree(read_efg("\n".join(lines)))
    value, strategy = solve_lp(tree)
    p = np.array(weights, dtype=float) / total
    plans = list(itertools.product(range(moves), repeat=cards))          # player 1: a move per card
    answers = list(itertools.product(range(replies), repeat=moves))      # player 2: a reply per move
    normal = np.array([[sum(p[c] * u[c, plan[c], answer[plan[c]]] for c in range(cards)) for answer in answers]
                       for plan in plans])
    assert abs(value - matrix_equilibrium(normal)[2]) < 1e-9
    assert exploitability(tree, strategy) < 1e-9
