"""AppTest: Regret matching's typed lists are bounded before the page builds anything from them.

Reference: `cfrviz.games.matrix` allows at most MAX_MATRIX_SIZE (5) actions a side, each named in up to
MAX_NAME_LENGTH (24) characters. Pasting 100,000 column names once cost 16.5 s of CPU and +426 MB,
because the page built the table (a DataFrame of 100,000 columns) before checking its size.
"""
from __future__ import annotations

from cfrviz.games.matrix import MAX_MATRIX_SIZE, MAX_NAME_LENGTH
from tests.support.apptest import open_page


def test_too_many_column_names_are_one_sentence_and_no_table() -> None:
    at = open_page("pages/5_Regret_matching.py", {})
    box = at.text_input(key="rm_columns_rps")
    assert 0 < box.proto.max_chars <= MAX_MATRIX_SIZE * (MAX_NAME_LENGTH + 2)   # the browser refuses more
    # What arrives anyway (a client that ignores max_chars): 2,000 names; the page stops with one
    # sentence before any table exists.
    box.set_value(", ".join(f"c{k}" for k in range(2_000))).run()
    assert not at.exception, at.exception
    assert [e.value for e in at.error] == [f"The matrix has at most {MAX_MATRIX_SIZE} columns, each named in up to "
                                           f"{MAX_NAME_LENGTH} characters; shorten the column names."]
    assert not at.get("arrow_data_frame") and not at.get("bidi_component")
    # Back to three names: the page is whole again, nothing else lost.
    at.text_input(key="rm_columns_rps").set_value("rock, paper, scissors").run()
    assert not at.exception and not at.error
    assert at.get("bidi_component")


def test_the_fixed_opponents_box_is_bounded() -> None:
    at = open_page("pages/5_Regret_matching.py", {"rm_mode": "fixed"})
    box = at.text_input(key="rm_opponent_3")
    assert 0 < box.proto.max_chars <= 200
    box.set_value("0." + "1" * 5_000 + ", 0, 0").run()    # kept to its first max_chars characters
    assert not at.exception, at.exception
    assert len(at.error) == 1 and at.error[0].value.endswith(".")
