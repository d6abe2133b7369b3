"""AppTest: Play deals from a secret nobody can predict, and replays a seed on request.

References: the seeded generator of `cfrviz.teaching.play` (one `default_rng([seed, hand, step])`
per draw; the deal is hand n's first draw) predicts every seeded deal; Kuhn's 6 deals are equally
likely (1/6 each), so a secret deal matches that prediction by chance with probability 1/6.
"""
from __future__ import annotations

from streamlit.testing.v1 import AppTest

from cfrviz.catalog import compile_game
from cfrviz.teaching import play
from tests.support.apptest import open_page

KUHN = {"game": "kuhn", "algo": "cfr", "iters": "50", "updates": "simultaneous", "play_seat": "p1"}
TREE = compile_game("kuhn")
HANDS = 12


def predicted_deal(seed: int, number: int) -> str:
    """The deal the seeded generator gives hand `number` (any strategy: the deal is drawn first)."""
    hand = play.start_hand(TREE, TREE.uniform_strategy(), seat=0, seed=seed, number=number)
    return play.deal_labels(TREE, hand)[0]


def play_hands(at: AppTest, hands: int) -> list[str]:
    """Deal and play `hands` hands (always the first offered action); each hand's deal."""
    deals = []
    for _ in range(hands):
        at.button(key="play_deal").click().run()
        assert not at.exception, at.exception
        deals.append(play.deal_labels(TREE, at.session_state["play_hand"])[0])
        while not play.is_over(TREE, at.session_state["play_hand"]):
            first = next(b for b in at.button if str(b.key).startswith("play_action_"))
            first.click().run()
            assert not at.exception, at.exception
    return deals


def test_secret_deals_are_not_the_seeds() -> None:
    # The page shows seed 0 and the old deals were default_rng([0, n, 1]); a secret deal matches
    # that by chance with probability 1/6, all 12 with 6**-12 (about 5e-10). Two visits sharing all
    # 12 deals has the same probability.
    at = open_page("pages/8_Play.py", KUHN)
    deals = play_hands(at, HANDS)
    assert deals != [predicted_deal(0, n) for n in range(HANDS)]
    other = play_hands(open_page("pages/8_Play.py", KUHN), HANDS)
    assert deals != other


def test_a_seeded_replay_deals_the_seeds_hands_every_time() -> None:
    # A link asks for the replay of seed 7: the deals are the seeded generator's, on every visit.
    link = {**KUHN, "play_deals": "seeded", "play_seed": "7"}
    expected = [predicted_deal(7, n) for n in range(4)]
    assert play_hands(open_page("pages/8_Play.py", link), 4) == expected
    assert play_hands(open_page("pages/8_Play.py", link), 4) == expected

