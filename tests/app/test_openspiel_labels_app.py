"""AppTest: the Game tree of Liar's dice names its title, its parts and its drawing in the game's words.

Reference: OpenSpiel's own `action_to_string` for liars_dice(numdice=1,dice_sides=3) ("Roll 1", bids
"1-1" to "2-3", "Liar"; checked against OpenSpiel in tests/unit/games/test_openspiel_labels.py), and the
breadth-first numbering: the root, 3 rolls of player 1's die, 9 of player 2's, then player 1's first bids
from node 13 on; the picker's parts are the subtrees of at most 40 leaves, first below the bid "1-1".
"""
from __future__ import annotations

import pytest

from tests.support.apptest import mounted, open_page

LINK = {"game": "openspiel:liars_dice(numdice=1,dice_sides=3)", "algo": "cfr", "iters": "20"}


def test_liars_dice_tree_is_named_in_the_games_words() -> None:
    pytest.importorskip("pyspiel")
    at = open_page("pages/1_Game_tree.py", LINK)
    picker = at.selectbox(key="tree_subtree")
    names = picker.options   # as the picker shows them
    assert names[0] == "after chance: Roll 1, Roll 1; player 1: 1-1 (node 13)"
    assert all(name.startswith("after chance: Roll ") for name in names)
    assert any("Liar's dice, 1 die, 3 sides is too big to draw whole" in c.value for c in at.caption)
    _, payload = mounted(at)
    assert payload["title"] == "Liar's dice, 1 die, 3 sides"
    assert {"1-1", "2-3", "Liar"} <= set(payload["edges"]["name"])
