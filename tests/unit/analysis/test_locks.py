"""Node locking: the restricted game, its exact value, solving it with every algorithm, and bad locks.

References, each stated at its test:
- Kuhn (1950): the value -1/18 and the α-family of equilibria (player 1 bets J with α ∈ [0, 1/3]).
- Hand computations, written out below, of an equilibrium of each locked Kuhn game and its value
  (six deals, each with probability 1/6). cfrviz's best response confirms each hand profile is an
  equilibrium of the restricted game, and the sequence-form LP (`cfrviz.analysis.lp`) must reach the same value.
- OpenSpiel's own `sequence_form_lp` (a different LP formulation, solved by ECOS through cvxpy) on the
  restricted game exported as .efg, where OpenSpiel is installed.
- A profile's value lies within its NashConv (twice its exploitability) of the game value: with
  b1 and b2 the two best-response values, u <= b1 and -u <= b2, while b1 >= v and b2 >= -v.
"""
from __future__ import annotations

import importlib.util
import re
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cfrviz.analysis import KUHN_VALUE, expected_value, kuhn_equilibrium
from cfrviz.analysis.locks import (
    full_exploitability,
    lock_effect,
    restricted_equilibrium,
    restricted_exploitability,
)
from cfrviz.catalog import get
from cfrviz.util.vocabulary import Player
from cfrviz.solving import solve
from cfrviz.solving.locked import solve_locked
from cfrviz.solvers import ALGORITHMS
from cfrviz.tree import GameTree
from cfrviz.tree.locks import MAX_LOCKS, MAX_LOCKS_CHARS, Locks, restrict

KUHN = get("kuhn").tree()
LEDUC = get("leduc").tree()

#: Player 1's value of Leduc poker when player 1 always bets the jack in round 1 ("J" = check 0, bet 1):
#: OpenSpiel's sequence_form_lp (ECOS) on the exported restricted game gave -0.26832160026, cfrviz's LP
#: -0.26832160025620544.
LEDUC_J_BETS_VALUE = -0.2683216003

# Hand-derived equilibria of locked Kuhn games: the probability of the SECOND action (bet, or call) at
# every set. Values are computed by hand over the six deals (each 1/6), player 1's payoff per deal.
HAND = {
    # Player 1 always bets J. Player 2 then calls with Q (a bet is J or K, equally often: 0 vs -1 for
    # folding), bets K after a check, bluffs J after a check 1/3 and folds J; player 1 checks Q, bets K,
    # and calls with Q after check-bet 2/3 (indifferent: J bets 1/3, K always). Deals: JQ -2, JK -2,
    # QJ 1/3(2/3·2 - 1/3) + 2/3 = 1, QK -(2/3·2 + 1/3) = -5/3, KJ +1, KQ +2: sum -5/3, value -5/18.
    "J=0,1": (Fraction(-5, 18), {"J": 1, "Q": 0, "K": 1, "Q k": 0, "Q b": 1, "K k": 1, "K b": 1,
                                 "J k": Fraction(1, 3), "J b": 0, "J kb": 0, "Q kb": Fraction(2, 3), "K kb": 1}),
    # Player 2 always calls a bet with J. Player 1 bets Q and K for value and bluffs J 1/3; player 2
    # calls with Q 1/3 and checks behind. Deals: JQ 1/3(1/3·-2 + 2/3) - 2/3 = -2/3, JK -2/3 - 2/3 = -4/3,
    # QJ +2, QK -2, KJ +2, KQ 1/3·2 + 2/3 = 4/3: sum 4/3, value +4/18.
    "J b=0,1": (Fraction(4, 18), {"J": Fraction(1, 3), "Q": 1, "K": 1, "Q k": 0, "Q b": Fraction(1, 3),
                                  "K k": 0, "K b": 1, "J k": 0, "J b": 1, "J kb": 0, "Q kb": 1, "K kb": 1}),
    # A mixed lock: player 1 bets J half the time; the rest as for "J=0,1". Deals: JQ 1/2·-2 + 1/2·-1,
    # JK 1/2·-2 + 1/2·-1 (K bets, J folds), QJ 1, QK -5/3, KJ 1, KQ 2: sum -2/3, value -2/18.
    "J=1/2,1/2": (Fraction(-2, 18), {"J": Fraction(1, 2), "Q": 0, "K": 1, "Q k": 0, "Q b": 1, "K k": 1,
                                     "K b": 1, "J k": Fraction(1, 3), "J b": 0, "J kb": 0,
                                     "Q kb": Fraction(2, 3), "K kb": 1}),
    # Both: every player 1 card bets and every player 2 card calls. Deals: JQ -2, JK -2, QJ +2, QK -2,
    # KJ +2, KQ +2: value 0.
    "J=0,1;J b=0,1": (Fraction(0), {"J": 1, "Q": 1, "K": 1, "Q k": 0, "Q b": 1, "K k": 1, "K b": 1,
                                    "J k": 0, "J b": 1, "J kb": 0, "Q kb": Fraction(1, 2), "K kb": 1}),
}


def _profile(tree: GameTree, second: dict[str, object]) -> np.ndarray:
    strategy = np.zeros(tree.legal.shape)
    for key, p in second.items():
        i = tree.infoset_index(key)
        strategy[i, :2] = [1.0 - float(p), float(p)]    # type: ignore[arg-type]
    return strategy


def _one_sentence(message: str) -> bool:
    return "\n" not in message and message.endswith(".") and not re.search(r"[.!?]\s+[A-Z]", message[:-1])


# --------------------------------------------------------------------------------------------
# The restricted tree


def test_locked_histories_become_chance_nodes_with_the_lock() -> None:
    restricted = restrict(KUHN, Locks.parse("J=1/4,3/4"))
    tree = restricted.tree
    j = KUHN.infoset_index("J")
    # The same nodes; the three histories where player 1 holds J are now chance nodes.
    assert tree.num_nodes == KUHN.num_nodes and np.array_equal(tree.parent, KUHN.parent)
    for node in KUHN.nodes_of(j):
        assert tree.actor[node] == Player.CHANCE and tree.infoset[node] == -1
        np.testing.assert_array_equal(tree.chance_probability[list(tree.children(node))], [0.25, 0.75])
    assert [r.key for r in tree.infosets] == [r.key for r in KUHN.infosets if r.key != "J"]
    assert restricted.locked.sum() == 1 and restricted.restricted_infoset[j] == -1
    # The same locks give the same object (so per-tree caches are shared); no locks, the game itself.
    assert restrict(KUHN, {"J": [0.25, 0.75]}) is restricted
    assert restrict(KUHN, None).tree is KUHN


def test_strategies_move_between_the_two_games() -> None:
    restricted = restrict(LEDUC, {"J b": [0.0, 0.0, 1.0], "K": [1.0, 0.0]})
    rng = np.random.default_rng(1)
    free = rng.random((4,) + restricted.tree.legal.shape) * restricted.tree.legal
    lifted = restricted.to_original(free)
    np.testing.assert_array_equal(restricted.to_restricted(lifted), free)
    np.testing.assert_array_equal(lifted[:, LEDUC.infoset_index("J b"), :3], np.tile([0.0, 0.0, 1.0], (4, 1)))
    np.testing.assert_array_equal(restricted.to_original(free, locked_value=0.0)[:, LEDUC.infoset_index("K")], 0.0)


# --------------------------------------------------------------------------------------------
# Exact values


@pytest.mark.parametrize("text", list(HAND))
def test_kuhn_lock_values_from_the_lp_match_the_hand_equilibria(text: str) -> None:
    value, second = HAND[text]
    restricted = restrict(KUHN, Locks.parse(text))
    hand = _profile(KUHN, second)
    # Reference: the hand computation above.
    assert expected_value(KUHN, hand) == pytest.approx(float(value), abs=1e-12)
    assert restricted_exploitability(restricted, hand) < 1e-12     # an equilibrium of the locked game
    lp_value, equilibrium = restricted_equilibrium(restricted)
    assert lp_value == pytest.approx(float(value), abs=1e-9)
    assert restricted_exploitability(restricted, equilibrium) < 1e-9
    assert expected_value(KUHN, equilibrium) == pytest.approx(float(value), abs=1e-9)


@pytest.mark.parametrize("text", ["J=1,0", "J=2/3,1/3"])
def test_a_lock_on_an_equilibrium_strategy_keeps_the_value(text: str) -> None:
    # Reference: Kuhn (1950): "J" = (check 1, bet 0) is player 1's part at α = 0 and (2/3, 1/3) at α = 1/3,
    # so that equilibrium stays one of the locked game, whose value is then -1/18.
    restricted = restrict(KUHN, Locks.parse(text))
    alpha = float(Fraction(text.split(",")[-1]))
    assert restricted_exploitability(restricted, kuhn_equilibrium(alpha, KUHN)) < 1e-12
    assert restricted_equilibrium(restricted)[0] == pytest.approx(KUHN_VALUE, abs=1e-9)


def test_leduc_lock_value_from_the_lp() -> None:
    # Reference: OpenSpiel's sequence_form_lp on the same restricted game (see LEDUC_J_BETS_VALUE).
    restricted = restrict(LEDUC, Locks.parse("J=0,1"))
    value, equilibrium = restricted_equilibrium(restricted)
    assert value == pytest.approx(LEDUC_J_BETS_VALUE, abs=1e-9)
    assert restricted_exploitability(restricted, equilibrium) < 1e-9


_OPENSPIEL = all(importlib.util.find_spec(m) is not None for m in ("pyspiel", "cvxpy", "ecos"))


@pytest.mark.skipif(not _OPENSPIEL, reason="needs OpenSpiel with cvxpy and ECOS (its sequence_form_lp's solver)")
@pytest.mark.parametrize("game, text", [("kuhn", t) for t in HAND] + [("kuhn", "J=1,0"), ("leduc", "J=0,1")])
def test_openspiel_sequence_form_lp_agrees_on_the_exported_restricted_game(game: str, text: str) -> None:
    import pyspiel
    from open_spiel.python.algorithms import sequence_form_lp

    from cfrviz.tree.efg_export import write_efg

    # Reference: OpenSpiel reads the .efg itself and solves its own LP; ECOS stops at about 1e-8.
    restricted = restrict(get(game).tree(), Locks.parse(text))
    theirs, theirs_player_2, _, _ = sequence_form_lp.solve_zero_sum_game(pyspiel.load_efg_game(write_efg(restricted.tree)))
    assert theirs == pytest.approx(restricted_equilibrium(restricted)[0], abs=1e-6)
    assert theirs_player_2 == pytest.approx(-theirs, abs=1e-6)


# --------------------------------------------------------------------------------------------
# Solving with locks


@pytest.mark.parametrize("text", list(HAND))
def test_a_long_cfr_plus_run_approaches_the_kuhn_lock_value(text: str) -> None:
    solved = solve_locked("kuhn", "cfr+", 20_000, Locks.parse(text))
    run = solved.run
    bound = 2 * float(run.exploitability[-1])          # NashConv: see the module docstring
    assert run.exploitability[-1] < 1e-4
    assert abs(run.average_strategy_value - float(HAND[text][0])) <= bound + 1e-12
    assert run.average_strategy_value == pytest.approx(expected_value(KUHN, run.average_strategy[-1]), abs=1e-12)


def test_a_long_run_approaches_the_leduc_lock_value() -> None:
    run = solve_locked("leduc", "cfr+", 3_000, {"J": [0.0, 1.0]}).run
    bound = 2 * float(run.exploitability[-1])
    assert run.exploitability[-1] < 1e-3
    assert abs(run.average_strategy_value - LEDUC_J_BETS_VALUE) <= bound + 1e-9


@pytest.mark.parametrize("algorithm", [a for a in ALGORITHMS if a != "rm"])
def test_locked_sets_never_change_and_keep_no_regret(algorithm: str) -> None:
    # Reference: the definition of a lock; free sets carry the restricted game's own numbers.
    locks = Locks.parse("J=1/4,3/4;J b=0,1")
    solved = solve_locked("kuhn", algorithm, 60, locks, snapshots="all", seed=3)
    run, restricted = solved.run, solved.restricted
    # The catalog's tree now (a test elsewhere may have emptied the catalog's cache since KUHN was built).
    assert run.num_snapshots == 60 and run.settings.spec.name == "kuhn" and run.tree is get("kuhn").tree()
    for key, lock in locks.items:
        i = KUHN.infoset_index(key)
        for name in ("current_strategy", "average_strategy"):
            np.testing.assert_array_equal(getattr(run, name)[:, i, :2], np.tile(lock, (60, 1)))
        np.testing.assert_array_equal(run.cumulative_regret[:, i], 0.0)
    free = restricted.original_infoset
    for name in ("cumulative_regret", "current_strategy", "average_strategy"):
        np.testing.assert_array_equal(getattr(run, name)[:, free], getattr(solved.restricted_run, name))
    # Own reach counts the lock as the player's own action: "J kb" is reached by checking J, 1/4.
    np.testing.assert_allclose(run.reach[:, KUHN.infoset_index("J kb")], 0.25)


@pytest.mark.parametrize("algorithm", ["chance", "external", "outcome"])
def test_sampling_algorithms_solve_a_locked_game(algorithm: str) -> None:
    # Reference: the hand value -5/18 of "J=0,1"; sampled runs land near it, within their NashConv.
    run = solve_locked("kuhn", algorithm, 20_000, {"J": [0.0, 1.0]}, seed=1).run
    assert run.exploitability[-1] < 0.01
    assert abs(run.average_strategy_value - (-5 / 18)) <= 2 * float(run.exploitability[-1]) + 1e-12
    np.testing.assert_array_equal(run.average_strategy[:, KUHN.infoset_index("J"), :2], np.tile([0, 1], (run.num_snapshots, 1)))


# --------------------------------------------------------------------------------------------
# Exploitability in two games


def test_restricted_exploitability_falls_to_zero_and_full_game_exploitability_stays() -> None:
    solved = solve_locked("kuhn", "cfr+", 10_000, {"J": [0.0, 1.0]})
    run, restricted = solved.run, solved.restricted
    inside = restricted_exploitability(restricted, run.average_strategy)
    np.testing.assert_allclose(inside, run.exploitability, atol=1e-12)   # the run records the locked game's
    assert inside[-1] < inside[9] / 100 and inside[-1] < 1e-4
    assert restricted_exploitability(restricted, restricted_equilibrium(restricted)[1]) < 1e-9
    # Reference: with J always bet, player 2 wins at least 5/18 by best response (the locked game's value),
    # and player 1's best response in the whole game earns at least the game value -1/18; so the full-game
    # exploitability is at least (5/18 - 1/18) / 2 = 1/9 at every snapshot.
    whole = full_exploitability(restricted, run.average_strategy)
    assert np.all(whole >= 1 / 9 - 1e-9)
    assert np.all(whole >= inside - 1e-12)       # a best response in the whole game has more choices


# --------------------------------------------------------------------------------------------
# Locked against unlocked


def test_never_bluffing_the_jack_makes_player_2_stop_calling_with_the_queen() -> None:
    # Reference: with "J" = (check 1, bet 0), a bet into player 2's Q holds K only, so calling loses 2
    # where folding loses 1: Q b goes from calling 1/3 (Kuhn's unique player 2 part) to folding. The lock
    # is the α = 0 equilibrium's, so the value for both stays -1/18.
    unlocked = solve("kuhn", "cfr+", 20_000)
    locked = solve_locked("kuhn", "cfr+", 20_000, {"J": [1.0, 0.0]})
    effect = lock_effect(unlocked, locked.run, locked.locks)
    q_b = KUHN.infoset_index("Q b")
    assert effect.moved_most(1)[0] == q_b
    assert effect.unlocked_strategy[q_b, 1] == pytest.approx(1 / 3, abs=1e-3)
    assert effect.locked_strategy[q_b, 1] < 1e-3
    assert effect.change[q_b] == pytest.approx(1 / 3, abs=1e-3)
    assert abs(effect.value_change(0)) < 1e-4 and effect.value_change(1) == -effect.value_change(0)
    assert effect.locked[KUHN.infoset_index("J")] and effect.moved_most(0, count=20).count(0) == 0


def test_what_always_bluffing_the_jack_costs_player_1() -> None:
    # Reference: the hand values above, -5/18 locked against -1/18: the lock costs player 1 4/18.
    effect = lock_effect(solve("kuhn", "cfr+", 20_000), solve_locked("kuhn", "cfr+", 20_000, {"J": [0, 1]}).run,
                         Locks.of({"J": [0, 1]}))
    assert effect.value_change(0) == pytest.approx(-4 / 18, abs=1e-4)
    assert effect.value_change(1) == pytest.approx(4 / 18, abs=1e-4)
    # Player 2 now always calls with Q (it called 1/3): the largest move among player 2's sets.
    assert effect.moved_most(1)[0] == KUHN.infoset_index("Q b")
    with pytest.raises(ValueError, match="same game"):
        lock_effect(solve("leduc", "cfr", 5), solve_locked("kuhn", "cfr", 5, {"J": [0, 1]}).run, Locks())


# --------------------------------------------------------------------------------------------
# Lock values and text


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(st.text(min_size=1, max_size=12), st.lists(st.integers(0, 1000), min_size=1, max_size=4)
                       .filter(lambda w: sum(w) > 0), max_size=6))
def test_lock_text_round_trips(weights: dict[str, list[int]]) -> None:
    locks = Locks.of({key: [w / sum(ws) for w in ws] for key, ws in weights.items()})
    assert Locks.parse(locks.text()) == locks
    assert Locks.of(locks.as_dict()) == locks
    assert hash(Locks.parse(locks.text())) == hash(locks)


def test_locks_read_decimals_fractions_and_several_options() -> None:
    assert Locks.parse(["J=0,1", " J b = 1/3 , 2/3 "]) == Locks.of({"J": [0, 1], "J b": [1 / 3, 2 / 3]})
    assert Locks.parse("Q=.25,0.75;").text() == "Q=0.25,0.75"
    assert Locks.parse("") == Locks() and not Locks.parse("")


BAD = [
    ("Z=0,1", "no information set 'Z'"),
    ("J=0,0.5,0.5", "gives 3 probabilities; its 2 actions are check, bet"),
    ("J=-0.5,1.5", "negative probability"),
    ("J=0.3,0.6", "sums to 0.9, not 1"),
    ("J=0,1;J=1,0", "locked twice"),
    (";".join(f"K{i}=1" for i in range(MAX_LOCKS + 1)), f"At most {MAX_LOCKS}"),
    ("J=" + "0" * MAX_LOCKS_CHARS + ",1", "characters long"),
    ("J 0,1", "is not a lock"),
    ("J=a,b", "is not a probability"),
    ("J=0,,1", "empty probability"),
    ("J=1/0,1", "divides by zero"),
    ("J=1e999,0", "more than 1"),
    ("J=0," + "1" * 50, "longer than"),
    (";".join(f"{r.key}={','.join(['0'] * (len(r.actions) - 1) + ['1'])}" for r in KUHN.infosets),
     "Every information set"),
]


@pytest.mark.parametrize("text, phrase", BAD)
def test_bad_locks_end_in_one_sentence(text: str, phrase: str) -> None:
    with pytest.raises(ValueError) as error:
        Locks.parse(text).check(KUHN)
    assert phrase in str(error.value) and _one_sentence(str(error.value)), str(error.value)


@pytest.mark.parametrize("value, phrase", [
    ({"J": [float("nan"), 1.0]}, "must give numbers"), ({"J": [True, False]}, "must give numbers"),
    ({"J": "0,1"}, "list of probabilities"), ({1: [0, 1]}, "key is an information-set key"),
    ([("J", [0, 1])], "mapping"), ({"J": []}, "gives no probabilities"),
])
def test_bad_lock_values_end_in_one_sentence(value: object, phrase: str) -> None:
    with pytest.raises(ValueError) as error:
        solve_locked("kuhn", "cfr", 10, value)      # type: ignore[arg-type]
    assert phrase in str(error.value) and _one_sentence(str(error.value)), str(error.value)


def test_locks_built_directly_are_checked_too() -> None:
    with pytest.raises(ValueError, match="sums to 0.5"):
        Locks((("J", (0.5, 0.0)),))
    with pytest.raises(ValueError, match="one entry per key"):
        Locks((("Q", (1.0, 0.0)), ("J", (1.0, 0.0))))
    with pytest.raises(ValueError, match="must hold floats"):
        Locks((("J", (1, 0)),))


def test_regret_matching_refuses_a_locked_matrix_game_in_one_sentence() -> None:
    # A lock on one player of rock-paper-scissors leaves a chance node above player 2: no longer a matrix game.
    with pytest.raises(ValueError) as error:
        solve_locked("rps", "rm", 10, {"player 1": [1, 0, 0]})
    assert _one_sentence(str(error.value)) and "CFR algorithm" in str(error.value)
