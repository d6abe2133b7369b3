"""The `lock` link parameter: read, checked against the game, bounded, and written back canonically.

Reference: the lock text format of cfrviz.tree.locks (`Locks.text` is canonical and reads back equal)
and the links' rule that a bad value falls back with one sentence, never an exception.
"""
from __future__ import annotations

from cfrviz.app.links import MAX_LOCK_CHARS, parse_query_params, query_params_of
from cfrviz.tree.locks import Locks


def test_a_lock_link_round_trips_canonically() -> None:
    # Reference: Locks.text sorts by key and writes the shortest exact decimals.
    link = parse_query_params({"game": "kuhn", "lock": " J b = 0 , 1 ;J=0.0,1.0"})
    assert link.notices == ()
    assert link.choice.locks == Locks.of({"J": [0.0, 1.0], "J b": [0.0, 1.0]})
    params = query_params_of(link.choice, None, None)
    assert params["lock"] == "J=0,1;J b=0,1"
    assert parse_query_params(params).choice == link.choice
    assert link.choice.settings().locks == link.choice.locks


def test_an_unlocked_view_writes_no_lock_parameter() -> None:
    # Reference: links made before locks existed must stay the same links.
    assert "lock" not in query_params_of(parse_query_params({"game": "kuhn"}).choice, None, None)


def test_bad_lock_links_fall_back_to_no_locks_with_one_sentence() -> None:
    # Reference: Kuhn has no set "Z"; "J" has two actions; the bound is MAX_LOCK_CHARS.
    for value, phrase in [("Z=1,0", "no information set 'Z'"), ("J=1", "gives 1 probabilities"),
                          ("J=0.5,0.5,0", "gives 3 probabilities"), ("J=" + "0," * MAX_LOCK_CHARS + "1", "longer"),
                          ("<script>=1,0", "no information set")]:
        link = parse_query_params({"game": "kuhn", "lock": value})
        assert not link.choice.locks, value
        (notice,) = link.notices
        assert phrase in notice and notice.endswith("showing the game without locks."), notice


def test_a_lock_follows_the_game_it_is_checked_against() -> None:
    # Reference: in Kuhn "J b" (facing a bet) has pass and bet; in Leduc it has fold, call and raise.
    assert parse_query_params({"game": "kuhn", "lock": "J b=0,1"}).choice.locks
    link = parse_query_params({"game": "leduc", "lock": "J b=0,1"})
    assert not link.choice.locks and "gives 2 probabilities" in link.notices[0]
